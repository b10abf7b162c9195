use utf8lint_codec::Utf8Chunks;

/// Where a byte offset is, for people: 1-based line and column, the column
/// counted in characters of the lossily decoded line (each maximal subpart
/// is one U+FFFD, one column), as rustc counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// 1-based line number (lines end at `\n`).
    pub line: usize,
    /// 1-based column, in characters of the lossily decoded line.
    pub column: usize,
    /// Byte offset of the start of the line.
    pub line_start: usize,
    /// Byte offset of the end of the line (its `\n`, or the end of input).
    pub line_end: usize,
}

/// Turns byte offsets into [`Position`]s. It walks forward from the last
/// offset asked for, so asking in increasing order costs one pass over the
/// bytes however many diagnostics a file has.
#[derive(Clone, Debug)]
pub struct Locator<'a> {
    bytes: &'a [u8],
    line: usize,
    line_start: usize,
}

impl<'a> Locator<'a> {
    /// A locator over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Locator {
            bytes,
            line: 1,
            line_start: 0,
        }
    }

    /// The position of `offset` (clamped to the input).
    pub fn locate(&mut self, offset: usize) -> Position {
        let offset = offset.min(self.bytes.len());
        if offset < self.line_start {
            self.line = 1;
            self.line_start = 0;
        }
        let from = self.line_start;
        for nl in memchr::memchr_iter(b'\n', &self.bytes[from..offset]) {
            self.line += 1;
            self.line_start = from + nl + 1;
        }
        let line_end =
            memchr::memchr(b'\n', &self.bytes[offset..]).map_or(self.bytes.len(), |p| offset + p);
        Position {
            line: self.line,
            column: 1 + lossy_chars(&self.bytes[self.line_start..offset]),
            line_start: self.line_start,
            line_end,
        }
    }
}

/// How many characters `bytes` has once decoded lossily.
pub(crate) fn lossy_chars(bytes: &[u8]) -> usize {
    Utf8Chunks::new(bytes)
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_lossy_columns() {
        let bytes = b"ab\ncaf\xC3\xA9 \xFF\xFEx\n\nend";
        let mut loc = Locator::new(bytes);
        let p = loc.locate(0);
        assert_eq!((p.line, p.column, p.line_start, p.line_end), (1, 1, 0, 2));
        let p = loc.locate(9); // \xFF after "café "
        assert_eq!((p.line, p.column, p.line_start), (2, 6, 3));
        let p = loc.locate(11); // x after two U+FFFD
        assert_eq!((p.line, p.column), (2, 8));
        let p = loc.locate(14); // "end"
        assert_eq!((p.line, p.column), (4, 1));
        // Going back restarts.
        let p = loc.locate(1);
        assert_eq!((p.line, p.column), (1, 2));
        // Past the end clamps.
        let p = loc.locate(999);
        assert_eq!((p.line, p.column), (4, 4));
    }
}
