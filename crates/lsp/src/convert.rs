//! Character offsets in a rope ↔ LSP positions in the negotiated encoding.
//!
//! The rope recognises exactly the line breaks LSP does (`\n`, `\r\n`,
//! `\r`: ropey's `cr_lines` feature, not `unicode_lines`).

use ropey::Rope;
use tower_lsp::lsp_types::{Position, PositionEncodingKind, Range};

/// The position encoding agreed with the client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Columns in UTF-8 bytes (Neovim offers it).
    Utf8,
    /// Columns in UTF-16 code units (the LSP default; VS Code).
    #[default]
    Utf16,
}

impl Encoding {
    /// `utf-8` if the client offers it, else `utf-16`: never anything the
    /// client did not offer (VS Code's client throws otherwise).
    pub(crate) fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    /// The LSP name.
    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }
}

/// The position of character offset `char_idx` (clamped to the rope).
pub(crate) fn position(rope: &Rope, char_idx: usize, enc: Encoding) -> Position {
    let char_idx = char_idx.min(rope.len_chars());
    let line = rope.char_to_line(char_idx);
    let line_start = rope.line_to_char(line);
    let column = match enc {
        Encoding::Utf8 => rope.char_to_byte(char_idx) - rope.char_to_byte(line_start),
        Encoding::Utf16 => rope.char_to_utf16_cu(char_idx) - rope.char_to_utf16_cu(line_start),
    };
    Position::new(saturating_u32(line), saturating_u32(column))
}

/// The character offset of `pos`. A line past the end clamps to the end of
/// the text, a column past the end of its line to the line's end, and a
/// column inside a character to that character's start; `clamped` says
/// whether any of that happened (the client sent a position that is not in
/// the text).
pub(crate) fn offset(rope: &Rope, pos: Position, enc: Encoding) -> (usize, bool) {
    let line = pos.line as usize;
    if line >= rope.len_lines() {
        return (rope.len_chars(), true);
    }
    let line_start = rope.line_to_char(line);
    let content_end = line_content_end(rope, line);
    let column = pos.character as usize;
    let (idx, clamped) = match enc {
        Encoding::Utf8 => {
            let start = rope.char_to_byte(line_start);
            let end = rope.char_to_byte(content_end);
            let target = start.saturating_add(column);
            let idx = rope.byte_to_char(target.min(end));
            (
                idx,
                target > end || rope.char_to_byte(idx) != target.min(end),
            )
        }
        Encoding::Utf16 => {
            let start = rope.char_to_utf16_cu(line_start);
            let end = rope.char_to_utf16_cu(content_end);
            let target = start.saturating_add(column);
            let idx = rope.utf16_cu_to_char(target.min(end));
            (
                idx,
                target > end || rope.char_to_utf16_cu(idx) != target.min(end),
            )
        }
    };
    (idx.clamp(line_start, content_end), clamped)
}

/// The character offset where line `line`'s text ends, before its break.
fn line_content_end(rope: &Rope, line: usize) -> usize {
    let next = if line + 1 < rope.len_lines() {
        rope.line_to_char(line + 1)
    } else {
        rope.len_chars()
    };
    let start = rope.line_to_char(line);
    let mut end = next;
    if end > start && rope.char(end - 1) == '\n' {
        end -= 1;
    }
    if end > start && rope.char(end - 1) == '\r' {
        end -= 1;
    }
    end
}

/// The U+FFFD characters of a text that stand for raw bytes in the
/// client's copy (Neovim `++bad=keep`: the client holds the bytes, the
/// transport gave us one U+FFFD per maximal subpart): character offset and
/// the subpart's length. The client counts each raw byte as one column
/// (one UTF-8 byte, one UTF-16 unit); positions are corrected for that.
pub(crate) type RawBytes = [(usize, u8)];

fn our_units(enc: Encoding) -> usize {
    match enc {
        Encoding::Utf8 => 3,
        Encoding::Utf16 => 1,
    }
}

/// [`position`] in the client's columns.
pub(crate) fn position_in(rope: &Rope, char_idx: usize, enc: Encoding, raw: &RawBytes) -> Position {
    let p = position(rope, char_idx, enc);
    if raw.is_empty() {
        return p;
    }
    let line_start = rope.line_to_char(p.line as usize);
    let lo = raw.partition_point(|r| r.0 < line_start);
    let hi = raw.partition_point(|r| r.0 < char_idx.min(rope.len_chars()));
    let mut column = p.character as usize;
    for &(_, len) in &raw[lo..hi.max(lo)] {
        column = column + usize::from(len) - our_units(enc);
    }
    Position::new(p.line, saturating_u32(column))
}

/// [`range`] in the client's columns.
pub(crate) fn range_in(
    rope: &Rope,
    start: usize,
    end: usize,
    enc: Encoding,
    raw: &RawBytes,
) -> Range {
    Range::new(
        position_in(rope, start, enc, raw),
        position_in(rope, end.max(start), enc, raw),
    )
}

/// [`offset`] of a position in the client's columns.
pub(crate) fn offset_in(
    rope: &Rope,
    pos: Position,
    enc: Encoding,
    raw: &RawBytes,
) -> (usize, bool) {
    let line = pos.line as usize;
    if raw.is_empty() || line >= rope.len_lines() {
        return offset(rope, pos, enc);
    }
    let line_start = rope.line_to_char(line);
    let line_end = line_content_end(rope, line);
    let lo = raw.partition_point(|r| r.0 < line_start);
    let hi = raw.partition_point(|r| r.0 < line_end);
    let target = pos.character as usize;
    let mut ours = target;
    for &(at, len) in &raw[lo..hi.max(lo)] {
        let client_col = position_in(rope, at, enc, raw).character as usize;
        if client_col >= target {
            break;
        }
        if target < client_col + usize::from(len) {
            // Inside the raw bytes: their start.
            return (at, true);
        }
        ours = ours + our_units(enc) - usize::from(len);
    }
    offset(rope, Position::new(pos.line, saturating_u32(ours)), enc)
}

fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn astral_characters_count_two_utf16_units_and_four_utf8_bytes() {
        let rope = Rope::from_str("a😀\u{FEFF}b\r\n😀x\rz");
        // U+FEFF is char 2 on line 0.
        assert_eq!(position(&rope, 2, Encoding::Utf16), Position::new(0, 3));
        assert_eq!(position(&rope, 2, Encoding::Utf8), Position::new(0, 5));
        // x on line 1.
        assert_eq!(position(&rope, 7, Encoding::Utf16), Position::new(1, 2));
        assert_eq!(position(&rope, 7, Encoding::Utf8), Position::new(1, 4));
        assert_eq!(position(&rope, 9, Encoding::Utf8), Position::new(2, 0));
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            for c in 0..=rope.len_chars() {
                let p = position(&rope, c, enc);
                let (back, _) = offset(&rope, p, enc);
                // A line break's second char (\n of \r\n) maps back to the line end.
                assert!(back == c || (c == 5 && back == 4), "{c} {p:?} {back}");
            }
        }
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let rope = Rope::from_str("a😀b\nxy");
        assert_eq!(
            offset(&rope, Position::new(0, 99), Encoding::Utf16),
            (3, true)
        );
        assert_eq!(
            offset(&rope, Position::new(7, 0), Encoding::Utf16),
            (6, true)
        );
        // Inside the surrogate pair / inside the UTF-8 sequence: the char's start.
        assert_eq!(
            offset(&rope, Position::new(0, 2), Encoding::Utf16),
            (1, true)
        );
        assert_eq!(
            offset(&rope, Position::new(0, 3), Encoding::Utf8),
            (1, true)
        );
        assert_eq!(
            offset(&rope, Position::new(0, 5), Encoding::Utf8),
            (2, false)
        );
    }

    #[test]
    fn raw_bytes_count_one_column_each() {
        // The client holds "a\xFF\xC3b" (two subparts of 1 byte) and "é"
        // then "\xE2\x82" (one subpart of 2); we hold U+FFFD for each.
        let rope = Rope::from_str("a\u{FFFD}\u{FFFD}b\né\u{FFFD}c");
        let raw = [(1, 1), (2, 1), (6, 2)];
        assert_eq!(
            position_in(&rope, 3, Encoding::Utf8, &raw),
            Position::new(0, 3)
        );
        assert_eq!(
            position_in(&rope, 2, Encoding::Utf8, &raw),
            Position::new(0, 2)
        );
        assert_eq!(
            position_in(&rope, 7, Encoding::Utf8, &raw),
            Position::new(1, 4)
        );
        assert_eq!(
            position_in(&rope, 7, Encoding::Utf16, &raw),
            Position::new(1, 3)
        );
        for c in [0, 1, 2, 3, 4, 5, 6, 7, 8] {
            for enc in [Encoding::Utf8, Encoding::Utf16] {
                let p = position_in(&rope, c, enc, &raw);
                assert_eq!(offset_in(&rope, p, enc, &raw).0, c, "{c} {enc:?} {p:?}");
            }
        }
        // Inside the 2-byte subpart: its start.
        assert_eq!(
            offset_in(&rope, Position::new(1, 3), Encoding::Utf8, &raw),
            (6, true)
        );
    }

    #[test]
    fn negotiation_never_picks_what_was_not_offered() {
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[
                PositionEncodingKind::UTF16,
                PositionEncodingKind::UTF32
            ])),
            Encoding::Utf16
        );
        assert_eq!(
            Encoding::negotiate(Some(&[
                PositionEncodingKind::UTF8,
                PositionEncodingKind::UTF16
            ])),
            Encoding::Utf8
        );
    }
}
