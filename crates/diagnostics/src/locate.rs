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

/// Turns byte offsets into [`Position`]s, incrementally: the line, the
/// column and the line's end are all carried over from the last offset
/// asked for. Asking in increasing order therefore costs one pass over the
/// bytes however many offsets are asked for and however long the lines are
/// (k offsets on an n-byte line cost O(n + k), not O(n·k)); going back costs
/// the distance gone back plus, for the column, the start of that line.
#[derive(Clone, Debug)]
pub struct Locator<'a> {
    bytes: &'a [u8],
    /// The line `line_start` begins.
    line: usize,
    line_start: usize,
    /// The end of the line at `line_start`, once asked for.
    line_end: Option<usize>,
    /// A byte offset on the line (`line_start..=` the last offset asked for)
    /// where the lossy decoding of the line has a character boundary, and
    /// the number of characters before it: columns resume from here.
    resume: usize,
    chars_before: usize,
}

impl<'a> Locator<'a> {
    /// A locator over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Locator {
            bytes,
            line: 1,
            line_start: 0,
            line_end: None,
            resume: 0,
            chars_before: 0,
        }
    }

    /// The position of `offset` (clamped to the input).
    pub fn locate(&mut self, offset: usize) -> Position {
        let offset = offset.min(self.bytes.len());
        self.move_to_line_of(offset);
        if offset < self.resume {
            // Back on the same line: count again from its start.
            self.resume = self.line_start;
            self.chars_before = 0;
        }
        let (chars, boundary, before_boundary) = count_chars(&self.bytes[self.resume..offset]);
        let column = 1 + self.chars_before + chars;
        // The last character before `offset` may be a truncated sequence
        // that a later offset sees whole: resume from where it starts.
        self.resume += boundary;
        self.chars_before += before_boundary;
        let line_end = *self.line_end.get_or_insert_with(|| {
            memchr::memchr(b'\n', &self.bytes[offset..]).map_or(self.bytes.len(), |p| offset + p)
        });
        Position {
            line: self.line,
            column,
            line_start: self.line_start,
            line_end,
        }
    }

    /// Makes `line_start` the start of `offset`'s line, counting the line
    /// breaks crossed, forward or back.
    fn move_to_line_of(&mut self, offset: usize) {
        if offset >= self.line_start {
            // `line_start..resume` is known to be on this line.
            let from = self.resume;
            if offset <= from {
                return;
            }
            let crossed = &self.bytes[from..offset];
            if let Some(last) = memchr::memrchr(b'\n', crossed) {
                self.line += memchr::memchr_iter(b'\n', crossed).count();
                self.set_line_start(from + last + 1);
            }
        } else {
            self.line -= memchr::memchr_iter(b'\n', &self.bytes[offset..self.line_start]).count();
            let start = memchr::memrchr(b'\n', &self.bytes[..offset]).map_or(0, |p| p + 1);
            self.set_line_start(start);
        }
    }

    fn set_line_start(&mut self, start: usize) {
        self.line_start = start;
        self.line_end = None;
        self.resume = start;
        self.chars_before = 0;
    }
}

/// Counts the characters of `bytes` decoded lossily, and returns with the
/// count a boundary that holds whatever bytes follow (and the characters
/// before it): the end, unless `bytes` ends in a maximal subpart, which
/// more bytes may lengthen (`E2 82` then `AC` is one valid character).
fn count_chars(bytes: &[u8]) -> (usize, usize, usize) {
    let mut chars = 0;
    let mut boundary = (bytes.len(), 0);
    let mut at = 0;
    for chunk in Utf8Chunks::new(bytes) {
        chars += chunk.valid().chars().count();
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            if at + chunk.invalid().len() == bytes.len() {
                boundary = (at, chars);
            }
            chars += 1;
            at += chunk.invalid().len();
        }
    }
    if boundary.0 == bytes.len() {
        boundary.1 = chars;
    }
    (chars, boundary.0, boundary.1)
}
#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    /// The definition, computed from scratch: what the locator must agree
    /// with whatever order it is asked in.
    fn naive(bytes: &[u8], offset: usize) -> Position {
        let offset = offset.min(bytes.len());
        let line_start = memchr::memrchr(b'\n', &bytes[..offset]).map_or(0, |p| p + 1);
        let line_end = memchr::memchr(b'\n', &bytes[offset..]).map_or(bytes.len(), |p| offset + p);
        let column = 1 + String::from_utf8_lossy(&bytes[line_start..offset])
            .chars()
            .count();
        Position {
            line: 1 + memchr::memchr_iter(b'\n', &bytes[..offset]).count(),
            column,
            line_start,
            line_end,
        }
    }

    #[test]
    fn a_truncated_sequence_is_resumed_whole() {
        // "€" is E2 82 AC: at offset 2 the line so far ends in a truncated
        // sequence (one column); at 3 the character is whole (still one).
        let bytes = b"a\xE2\x82\xACb\xE2\x82";
        let mut loc = Locator::new(bytes);
        let columns: Vec<usize> = (0..=bytes.len()).map(|o| loc.locate(o).column).collect();
        let want: Vec<usize> = (0..=bytes.len()).map(|o| naive(bytes, o).column).collect();
        assert_eq!(columns, want);
        assert_eq!(columns, [1, 2, 3, 3, 3, 4, 5, 5]);
    }

    /// Locating every offset of a long line is linear: from the line start
    /// each time it would be some 10^12 steps in a debug build, hours.
    #[test]
    fn many_offsets_on_one_long_line_are_linear() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            for i in 0..(1 << 18) {
                bytes.extend_from_slice(if i % 3 == 0 {
                    b"\xFFa\xC3"
                } else {
                    b"\xC3\xA9b\xE2"
                });
            }
            let mut loc = Locator::new(&bytes);
            let mut last = loc.locate(0);
            for offset in 1..=bytes.len() {
                last = loc.locate(offset);
            }
            done.send((last, naive(&bytes, bytes.len()))).unwrap();
        });
        let (last, want) = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("locating every offset of a 1 MiB line took over a minute");
        assert_eq!(last, want);
    }

    fn bytes_and_offsets() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
        // Few distinct bytes, so that line breaks, valid sequences,
        // truncated ones and stray continuation bytes all come up often.
        let byte = prop::sample::select(vec![
            b'a', b'\n', b'\r', 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xFF, 0xED,
            0xA0, 0xC0, 0xEF, 0xBB, 0xBF,
        ]);
        prop::collection::vec(byte, 0..200).prop_flat_map(|bytes| {
            let len = bytes.len();
            (Just(bytes), prop::collection::vec(0..len + 3, 0..40))
        })
    }

    proptest! {
        #[test]
        fn increasing_offsets_agree_with_the_definition((bytes, mut offsets) in bytes_and_offsets()) {
            offsets.sort_unstable();
            let mut loc = Locator::new(&bytes);
            for offset in offsets {
                prop_assert_eq!(loc.locate(offset), naive(&bytes, offset), "offset {}", offset);
            }
        }

        #[test]
        fn decreasing_offsets_agree_with_the_definition((bytes, mut offsets) in bytes_and_offsets()) {
            offsets.sort_unstable_by(|a, b| b.cmp(a));
            let mut loc = Locator::new(&bytes);
            for offset in offsets {
                prop_assert_eq!(loc.locate(offset), naive(&bytes, offset), "offset {}", offset);
            }
        }

        #[test]
        fn offsets_in_any_order_agree_with_the_definition((bytes, offsets) in bytes_and_offsets()) {
            let mut loc = Locator::new(&bytes);
            for offset in offsets {
                prop_assert_eq!(loc.locate(offset), naive(&bytes, offset), "offset {}", offset);
            }
        }
    }
}
