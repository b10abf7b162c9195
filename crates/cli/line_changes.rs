//! Which lines a fix changes: the file's lines against the lines of the
//! fixed text, compared byte for byte, so that `--diff` shows a changed
//! line as `-`/`+` and every other line, however close to an edit, as it
//! is (a conversion that leaves ASCII lines alone shows only the lines it
//! rewrites).
//!
//! The fixed text of a region is kept in pieces (the file's own bytes
//! between edits, and the edits' replacements), never gathered into one
//! copy: a 64 MiB line with one edit costs its two sides, nothing more.

use std::borrow::Cow;
use std::ops::Range;

/// A place in a region's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    piece: usize,
    offset: usize,
}

/// One line of the fixed text: from `start` to `end` (exclusive), its `\n`
/// included when it has one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NewLine {
    start: At,
    end: At,
}

/// The fixed text of a run of whole lines, in pieces, with its lines.
pub(crate) struct NewText<'a> {
    pieces: Vec<Cow<'a, [u8]>>,
    pub lines: Vec<NewLine>,
}

impl<'a> NewText<'a> {
    pub(crate) fn new(pieces: Vec<Cow<'a, [u8]>>) -> Self {
        let mut lines = Vec::new();
        let mut start = At {
            piece: 0,
            offset: 0,
        };
        let mut open = false;
        for (piece, bytes) in pieces.iter().enumerate() {
            if !open && !bytes.is_empty() {
                start = At { piece, offset: 0 };
                open = true;
            }
            for nl in memchr::memchr_iter(b'\n', bytes) {
                lines.push(NewLine {
                    start,
                    end: At {
                        piece,
                        offset: nl + 1,
                    },
                });
                open = nl + 1 < bytes.len();
                start = At {
                    piece,
                    offset: nl + 1,
                };
            }
        }
        if open {
            let piece = pieces.len() - 1;
            let end = At {
                piece,
                offset: pieces[piece].len(),
            };
            lines.push(NewLine { start, end });
        }
        NewText { pieces, lines }
    }

    /// The bytes of `line`, in the pieces it runs across.
    pub(crate) fn segments(&self, line: NewLine) -> impl Iterator<Item = &[u8]> + '_ {
        (line.start.piece..=line.end.piece).map(move |piece| {
            let bytes = &self.pieces[piece][..];
            let from = if piece == line.start.piece {
                line.start.offset
            } else {
                0
            };
            let to = if piece == line.end.piece {
                line.end.offset
            } else {
                bytes.len()
            };
            &bytes[from..to]
        })
    }

    fn len_of(&self, line: NewLine) -> usize {
        self.segments(line).map(<[u8]>::len).sum()
    }

    /// Whether `line` holds exactly `old`'s bytes.
    pub(crate) fn line_is(&self, line: NewLine, old: &[u8]) -> bool {
        if self.len_of(line) != old.len() {
            return false;
        }
        let mut rest = old;
        self.segments(line).all(|segment| {
            let (head, tail) = rest.split_at(segment.len());
            rest = tail;
            head == segment
        })
    }

    /// `line`'s bytes gathered, when it is short enough to look at whole.
    pub(crate) fn short_line(&self, line: NewLine, max: usize) -> Option<Vec<u8>> {
        (self.len_of(line) <= max).then(|| self.segments(line).flatten().copied().collect())
    }
}

/// A run of old lines replaced by a run of new ones (either may be empty,
/// not both): indices into the old lines given and the new text's lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

/// The changes between `old` (the region's lines as the file has them)
/// and `new` (the same region fixed): equal lines at the start and end
/// are no change; between them, when both sides have as many lines (a
/// fix rarely adds or removes one), each pair is compared on its own, so
/// only the lines that differ are changes.
pub(crate) fn changes(old: &[&[u8]], new: &NewText<'_>) -> Vec<Change> {
    let same = |o: usize, n: usize| new.line_is(new.lines[n], old[o]);
    let (old_len, new_len) = (old.len(), new.lines.len());
    let mut head = 0;
    while head < old_len.min(new_len) && same(head, head) {
        head += 1;
    }
    let mut tail = 0;
    while tail < (old_len - head).min(new_len - head)
        && same(old_len - 1 - tail, new_len - 1 - tail)
    {
        tail += 1;
    }
    let old_mid = head..old_len - tail;
    let new_mid = head..new_len - tail;
    if old_mid.is_empty() && new_mid.is_empty() {
        return Vec::new();
    }
    if old_mid.len() != new_mid.len() {
        return vec![Change {
            old: old_mid,
            new: new_mid,
        }];
    }
    let mut out: Vec<Change> = Vec::new();
    for i in old_mid {
        if same(i, i) {
            continue;
        }
        match out.last_mut() {
            Some(change) if change.old.end == i => {
                change.old.end += 1;
                change.new.end += 1;
            }
            _ => out.push(Change {
                old: i..i + 1,
                new: i..i + 1,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(pieces: &[&'static [u8]]) -> NewText<'static> {
        NewText::new(pieces.iter().map(|p| Cow::Borrowed(*p)).collect())
    }

    fn lines(new: &NewText<'_>) -> Vec<Vec<u8>> {
        new.lines
            .iter()
            .map(|&l| new.segments(l).flatten().copied().collect())
            .collect()
    }

    #[test]
    fn lines_run_across_pieces() {
        let new = text(&[b"a", b"b\nc", b"", b"d\ne"]);
        assert_eq!(
            lines(&new),
            [b"ab\n".to_vec(), b"cd\n".to_vec(), b"e".to_vec()]
        );
        assert!(new.line_is(new.lines[1], b"cd\n"));
        assert!(!new.line_is(new.lines[1], b"cd"));
        assert!(text(&[b"", b""]).lines.is_empty());
    }

    #[test]
    fn only_differing_lines_are_changes() {
        let old: [&[u8]; 5] = [b"a\n", b"caf\xE9\n", b"b\n", b"\xE0\n", b"c\n"];
        let new = text(&[b"a\ncaf\xC3\xA9\nb\n\xC3\xA0\nc\n"]);
        assert_eq!(
            changes(&old, &new),
            [
                Change {
                    old: 1..2,
                    new: 1..2
                },
                Change {
                    old: 3..4,
                    new: 3..4
                }
            ]
        );
        // A line removed: one change between the equal ends.
        let new = text(&[b"a\nb\n\xE0\nc\n"]);
        assert_eq!(
            changes(&old, &new),
            [Change {
                old: 1..2,
                new: 1..1
            }]
        );
        // Nothing changed at all.
        let same = text(&[b"a\ncaf\xE9\nb\n\xE0\nc\n"]);
        assert!(changes(&old, &same).is_empty());
    }
}
