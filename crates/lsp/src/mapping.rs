//! Disk bytes ↔ the editor's text.
//!
//! The editor's text is not the file (docs/spec.md). To place a finding
//! (a byte span on disk) in the editor, work out how the client decoded the
//! file by walking the bytes and the text together under each candidate
//! decoding; the first that reproduces the text exactly gives every byte
//! offset its text offset. Candidates:
//!
//! * lossy UTF-8, one U+FFFD per maximal subpart (VS Code; Neovim's
//!   `++bad=keep` after the transport's repair);
//! * Latin-1, one character per byte (Neovim's `fileencodings` fallback);
//! * `?` per invalid byte, or per maximal subpart (Neovim `fencs=utf-8`);
//!
//! each with the leading BOM stripped (both editors) or kept, and with
//! `\r\n` on disk read as `\n` or kept, and a final line break on one side
//! only tolerated (Neovim joins lines with the file's EOL and adds or drops
//! the last one by `'eol'`).

use std::borrow::Cow;

use ropey::Rope;
use utf8lint_codec::Utf8Chunks;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How the client turned the bytes into its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decoding {
    /// UTF-8 with one U+FFFD per maximal subpart.
    Lossy,
    /// ISO-8859-1: each byte is the character of the same value.
    Latin1,
    /// UTF-8 with `?` for each invalid byte.
    QuestionPerByte,
    /// UTF-8 with `?` for each maximal subpart.
    QuestionPerSubpart,
}

/// A decoding that reproduces the editor's text from the disk bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    /// The decoding.
    pub decoding: Decoding,
    /// Whether the leading BOM is missing from the text.
    pub bom_stripped: bool,
    /// Whether `\r\n` on disk is `\n` in the text.
    pub crlf_as_lf: bool,
}

/// Where the findings landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mapped {
    /// The decoding that matched; `None` when none did and the offsets are
    /// placed by line and column instead.
    pub matched: Option<Match>,
    /// For each byte offset asked about, a character offset in the rope.
    pub chars: Vec<usize>,
}

/// Places disk byte `offsets` in the editor's text (`rope`, whose UTF-8 is
/// `text`).
pub(crate) fn map_offsets(disk: &[u8], rope: &Rope, text: &[u8], offsets: &[usize]) -> Mapped {
    let mut order: Vec<(usize, usize)> = offsets
        .iter()
        .enumerate()
        .map(|(i, &o)| (o.min(disk.len()), i))
        .collect();
    order.sort_unstable();
    let has_bom = disk.starts_with(BOM);
    let valid = utf8lint_codec::is_valid(disk);
    let ascii = disk.is_ascii();
    let has_crlf = memchr::memmem::find(disk, b"\r\n").is_some();
    let mut decodings = vec![Decoding::Lossy];
    if !valid {
        decodings.extend([Decoding::QuestionPerByte, Decoding::QuestionPerSubpart]);
    }
    if !ascii {
        decodings.insert(1, Decoding::Latin1);
    }
    let boms: &[bool] = if has_bom { &[true, false] } else { &[false] };
    let crlfs: &[bool] = if has_crlf { &[false, true] } else { &[false] };
    let mut text_offsets = vec![0usize; offsets.len()];
    for &bom_stripped in boms {
        for &crlf_as_lf in crlfs {
            let (body, queries) = prepare(disk, &order, bom_stripped, crlf_as_lf);
            for &decoding in &decodings {
                if walk(&body, text, decoding, &queries, &mut text_offsets) {
                    let chars = text_offsets
                        .iter()
                        .map(|&t| rope.byte_to_char(t.min(text.len())))
                        .collect();
                    return Mapped {
                        matched: Some(Match {
                            decoding,
                            bom_stripped,
                            crlf_as_lf,
                        }),
                        chars,
                    };
                }
            }
        }
    }
    Mapped {
        matched: None,
        chars: approximate(disk, rope, offsets),
    }
}

/// The text some candidate decoding makes of `disk` (with the final line
/// break as it is, added or dropped) that `accept` takes: the text a client
/// held, rebuilt from the bytes when only its digest was kept.
pub(crate) fn decoded_text(disk: &[u8], accept: impl Fn(&str) -> bool) -> Option<String> {
    let has_bom = disk.starts_with(BOM);
    let has_crlf = memchr::memmem::find(disk, b"\r\n").is_some();
    let valid = utf8lint_codec::is_valid(disk);
    let mut decodings = vec![Decoding::Lossy];
    if !valid {
        decodings.extend([Decoding::QuestionPerByte, Decoding::QuestionPerSubpart]);
    }
    if !disk.is_ascii() {
        decodings.push(Decoding::Latin1);
    }
    let boms: &[bool] = if has_bom { &[true, false] } else { &[false] };
    let crlfs: &[bool] = if has_crlf { &[false, true] } else { &[false] };
    for &bom_stripped in boms {
        for &crlf_as_lf in crlfs {
            let (body, _) = prepare(disk, &[], bom_stripped, crlf_as_lf);
            for &decoding in &decodings {
                let mut text = decode(&body, decoding);
                if accept(&text) {
                    return Some(text);
                }
                let eol = if crlf_as_lf || !has_crlf {
                    "\n"
                } else {
                    "\r\n"
                };
                if let Some(shorter) = text.strip_suffix(eol) {
                    if accept(shorter) {
                        text.truncate(shorter.len());
                        return Some(text);
                    }
                } else {
                    text.push_str(eol);
                    if accept(&text) {
                        return Some(text);
                    }
                }
            }
        }
    }
    None
}

/// `body` decoded as `decoding` says.
fn decode(body: &[u8], decoding: Decoding) -> String {
    if decoding == Decoding::Latin1 {
        return body.iter().map(|&b| char::from(b)).collect();
    }
    let mut out = String::with_capacity(body.len());
    for chunk in Utf8Chunks::new(body) {
        out.push_str(chunk.valid());
        let bad = chunk.invalid();
        if bad.is_empty() {
            continue;
        }
        match decoding {
            Decoding::QuestionPerByte => out.extend(std::iter::repeat_n('?', bad.len())),
            Decoding::QuestionPerSubpart => out.push('?'),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

/// Whether `text` is `disk` under some candidate decoding.
pub(crate) fn matches(disk: &[u8], rope: &Rope, text: &[u8]) -> Option<Match> {
    map_offsets(disk, rope, text, &[]).matched
}

/// The disk bytes as the walk sees them (BOM dropped, `\r\n` → `\n`) and the
/// queries moved to match: (offset in the body, index into the answers).
fn prepare<'a>(
    disk: &'a [u8],
    order: &[(usize, usize)],
    bom_stripped: bool,
    crlf_as_lf: bool,
) -> (Cow<'a, [u8]>, Vec<(usize, usize)>) {
    let skip = if bom_stripped { BOM.len() } else { 0 };
    let mut queries: Vec<(usize, usize)> = order
        .iter()
        .map(|&(o, i)| (o.saturating_sub(skip), i))
        .collect();
    if !crlf_as_lf {
        return (Cow::Borrowed(&disk[skip..]), queries);
    }
    let body = &disk[skip..];
    let mut out = Vec::with_capacity(body.len());
    let mut removed = Vec::new(); // positions of dropped \r in `body`
    let mut last = 0;
    for at in memchr::memmem::find_iter(body, b"\r\n") {
        out.extend_from_slice(&body[last..at]);
        removed.push(at);
        last = at + 1;
    }
    out.extend_from_slice(&body[last..]);
    for q in &mut queries {
        q.0 -= removed.partition_point(|&r| r < q.0);
    }
    (Cow::Owned(out), queries)
}

/// Walks `disk` decoded by `decoding` against `text`; on a match, fills
/// `out[i]` with the text offset of each query `(offset, i)`.
fn walk(
    disk: &[u8],
    text: &[u8],
    decoding: Decoding,
    queries: &[(usize, usize)],
    out: &mut [usize],
) -> bool {
    let mut w = Walker {
        text,
        t: 0,
        d: 0,
        queries,
        q: 0,
        out,
    };
    match decoding {
        Decoding::Lossy | Decoding::QuestionPerByte | Decoding::QuestionPerSubpart => {
            for chunk in Utf8Chunks::new(disk) {
                if !w.same(chunk.valid().as_bytes(), disk) {
                    return false;
                }
                let bad = chunk.invalid();
                if bad.is_empty() {
                    continue;
                }
                let ok = match decoding {
                    Decoding::Lossy => w.replaced(bad.len(), "\u{FFFD}".as_bytes()),
                    Decoding::QuestionPerSubpart => w.replaced(bad.len(), b"?"),
                    _ => (0..bad.len()).all(|_| w.replaced(1, b"?")),
                };
                if !ok {
                    return false;
                }
            }
        }
        Decoding::Latin1 => {
            let mut rest = disk;
            while !rest.is_empty() {
                let ascii = rest
                    .iter()
                    .position(|b| !b.is_ascii())
                    .unwrap_or(rest.len());
                if !w.same(&rest[..ascii], disk) {
                    return false;
                }
                rest = &rest[ascii..];
                if let Some(&b) = rest.first() {
                    let mut buf = [0u8; 2];
                    if !w.replaced(1, char::from(b).encode_utf8(&mut buf).as_bytes()) {
                        return false;
                    }
                    rest = &rest[1..];
                }
            }
        }
    }
    w.finish()
}

struct Walker<'a> {
    text: &'a [u8],
    t: usize,
    d: usize,
    queries: &'a [(usize, usize)],
    q: usize,
    out: &'a mut [usize],
}

impl Walker<'_> {
    /// `seg` (the next bytes of the disk) appears as itself in the text.
    /// A final line break on disk that the text lacks is tolerated.
    fn same(&mut self, seg: &[u8], disk: &[u8]) -> bool {
        let have = self.text.len() - self.t;
        if seg.len() > have {
            let missing = &seg[have..];
            let at_end = self.d + seg.len() == disk.len();
            if !(at_end && matches!(missing, b"\n" | b"\r\n" | b"\r"))
                || self.text[self.t..] != seg[..have]
            {
                return false;
            }
        } else if self.text[self.t..self.t + seg.len()] != *seg {
            return false;
        }
        let (d, t) = (self.d, self.t);
        self.answer(self.d + seg.len(), |q| t + (q - d).min(have));
        self.d += seg.len();
        self.t += seg.len().min(have);
        true
    }

    /// `len` disk bytes appear as `shown` in the text.
    fn replaced(&mut self, len: usize, shown: &[u8]) -> bool {
        if !self.text[self.t..].starts_with(shown) {
            return false;
        }
        let t = self.t;
        self.answer(self.d + len, |_| t);
        self.d += len;
        self.t += shown.len();
        true
    }

    /// Answers the queries below `end` with `f(offset)`.
    fn answer(&mut self, end: usize, f: impl Fn(usize) -> usize) {
        while let Some(&(offset, index)) = self.queries.get(self.q) {
            if offset >= end {
                break;
            }
            self.out[index] = f(offset);
            self.q += 1;
        }
    }

    /// The text is used up, but for a final line break the disk lacks.
    fn finish(mut self) -> bool {
        let rest = &self.text[self.t..];
        if !matches!(rest, b"" | b"\n" | b"\r\n" | b"\r") {
            return false;
        }
        let t = self.t;
        self.answer(usize::MAX, |_| t);
        true
    }
}

/// Places offsets by line and column (lossy characters) when no decoding
/// matches: right where the text still has the same lines, near otherwise.
fn approximate(disk: &[u8], rope: &Rope, offsets: &[usize]) -> Vec<usize> {
    let skip = if disk.starts_with(BOM) { BOM.len() } else { 0 };
    offsets
        .iter()
        .map(|&o| {
            let o = o.clamp(skip, disk.len());
            let before = &disk[skip..o];
            let line = memchr::memchr_iter(b'\n', before).count();
            let line_start = memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
            let column: usize = Utf8Chunks::new(&before[line_start..])
                .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
                .sum();
            if line >= rope.len_lines() {
                return rope.len_chars();
            }
            let start = rope.line_to_char(line);
            let line_text = rope.line(line);
            let mut len = line_text.len_chars();
            while len > 0 && matches!(line_text.char(len - 1), '\n' | '\r') {
                len -= 1;
            }
            start + column.min(len)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(disk: &[u8], text: &str, offsets: &[usize]) -> (Option<Match>, Vec<usize>) {
        let rope = Rope::from_str(text);
        let m = map_offsets(disk, &rope, text.as_bytes(), offsets);
        (m.matched, m.chars)
    }

    fn decoding(disk: &[u8], text: &str) -> Option<(Decoding, bool, bool)> {
        map(disk, text, &[])
            .0
            .map(|m| (m.decoding, m.bom_stripped, m.crlf_as_lf))
    }

    #[test]
    fn each_candidate_decoding_is_recognised() {
        let disk = b"caf\xC3\xA9 \xFF\xFE bad\n";
        assert_eq!(
            decoding(disk, "café \u{FFFD}\u{FFFD} bad\n"),
            Some((Decoding::Lossy, false, false))
        );
        assert_eq!(
            decoding(disk, "cafÃ© ÿþ bad\n"),
            Some((Decoding::Latin1, false, false))
        );
        assert_eq!(
            decoding(disk, "café ?? bad\n"),
            Some((Decoding::QuestionPerByte, false, false))
        );
        let truncated = b"a\xE2\x82b";
        assert_eq!(
            decoding(truncated, "a?b"),
            Some((Decoding::QuestionPerSubpart, false, false))
        );
        assert_eq!(decoding(disk, "something else"), None);
    }

    #[test]
    fn bom_crlf_and_final_newline_variants() {
        let disk = b"\xEF\xBB\xBFa\r\nb\xFF\r\n";
        assert_eq!(
            decoding(disk, "a\r\nb\u{FFFD}\r\n"),
            Some((Decoding::Lossy, true, false))
        );
        assert_eq!(
            decoding(disk, "a\nb\u{FFFD}\n"),
            Some((Decoding::Lossy, true, true))
        );
        assert_eq!(
            decoding(disk, "a\r\nb\u{FFFD}"),
            Some((Decoding::Lossy, true, false))
        );
        assert_eq!(
            decoding(disk, "ï»¿a\r\nbÿ\r\n"),
            Some((Decoding::Latin1, false, false))
        );
        assert_eq!(decoding(b"x", "x\n"), Some((Decoding::Lossy, false, false)));
    }

    #[test]
    fn offsets_land_on_the_right_characters() {
        // 😀 then an invalid byte: lossy puts it at char 2, Latin-1 at char 5.
        let disk = "a😀"
            .as_bytes()
            .iter()
            .chain(b"\xFFz")
            .copied()
            .collect::<Vec<u8>>();
        let (m, chars) = map(&disk, "a😀\u{FFFD}z", &[5, 6, 0, 7]);
        assert!(m.is_some());
        assert_eq!(chars, [2, 3, 0, 4]);
        let (m, chars) = map(&disk, "að\u{9F}\u{98}\u{80}ÿz", &[5, 6]);
        assert_eq!(m.unwrap().decoding, Decoding::Latin1);
        assert_eq!(chars, [5, 6]);
        // The BOM (0..3) lands at 0, the next byte at 0 too.
        let (_, chars) = map(b"\xEF\xBB\xBFx\xEF\xBB\xBF", "x\u{FEFF}", &[0, 3, 4, 7]);
        assert_eq!(chars, [0, 0, 1, 2]);
        // CRLF read as LF: the byte after the second line break.
        let (_, chars) = map(b"a\r\nb\r\nc\xFF", "a\nb\nc\u{FFFD}", &[7, 8]);
        assert_eq!(chars, [5, 6]);
    }

    #[test]
    fn unmatched_text_is_placed_by_line_and_column() {
        let (m, chars) = map(b"one\ntw\xFFo\nthree", "one!\ntw?o\n", &[6, 11, 14]);
        assert_eq!(m, None);
        assert_eq!(chars, [7, 10, 10]);
    }
}
