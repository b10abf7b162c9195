//! U009 `charset_mismatch`: a declaration of the file's encoding that its
//! bytes contradict, in either direction:
//!
//! * a declaration in the file (`declared.rs`: XML, HTML `<meta>`, CSS
//!   `@charset`, a PEP 263 cookie, Emacs and Vim modelines) naming a
//!   legacy encoding over well-formed multi-byte UTF-8 (Python prints
//!   `CafÃ© MÃ¼ller`), naming UTF-8 over bytes that are not UTF-8, naming
//!   UTF-16 in an 8-bit file, or naming another encoding after a UTF-8
//!   byte-order mark (Python refuses such a file: "encoding problem:
//!   iso-8859-1 with BOM");
//! * `.editorconfig` `charset = latin1` (or `utf-16le`/`utf-16be`) over a
//!   file that is well-formed UTF-8 with multi-byte characters: an editor
//!   following the declaration shows `Ã©` for `é`, and saves it that way.
//!
//! The fix keeps the text: it corrects the declaration (unsafe).

use std::path::Path;

use encoding_rs::Encoding;

use crate::{Charset, Diagnostic, Edit, Fix, Level, PolicySource, Rule};

use super::declared::{
    Declaration, Format, Syntax, declarations_of, is_html_page_of, meta_charset_offset,
};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the scan found that a declaration can contradict.
pub(crate) struct Evidence<'a> {
    /// The whole file is well-formed UTF-8.
    pub valid: bool,
    /// How many ill-formed sequences, and the first one's bytes.
    pub errors: usize,
    pub first_error: Option<std::ops::Range<usize>>,
    /// The legacy encoding U005 identified, if it did.
    pub legacy: Option<&'a str>,
    /// The encoding the detector identified, when U005 followed a
    /// declaration instead.
    pub detected: Option<&'static Encoding>,
}

/// How many bytes of the line around the first ill-formed sequence the
/// two readings of a disagreement show.
const READING_BYTES: usize = 48;

/// The bytes around `at` (the first ill-formed byte), within its line and
/// at most [`READING_BYTES`] long, moved to ASCII boundaries so that each
/// encoding reads whole characters.
fn reading_window(bytes: &[u8], at: usize) -> &[u8] {
    let line_start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let line_end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    let mut start = at.saturating_sub(READING_BYTES / 2).max(line_start);
    let mut end = (start + READING_BYTES).min(line_end);
    while start > line_start && !bytes[start - 1].is_ascii() {
        start -= 1;
    }
    while end < line_end && !bytes[end].is_ascii() {
        end += 1;
    }
    &bytes[start..end]
}

/// U009 for a declaration U005 followed while the detector identified
/// another encoding that reads the text differently: both readings shown.
fn disagreement(
    bytes: &[u8],
    declaration: &Declaration<'_>,
    declared: &'static Encoding,
    detected: &'static Encoding,
    first_error: usize,
    level: Level,
) -> Option<Diagnostic> {
    let window = reading_window(bytes, first_error);
    let as_declared = declared.decode_without_bom_handling(window).0;
    let as_detected = detected.decode_without_bom_handling(window).0;
    if as_declared == as_detected {
        return None;
    }
    let name = declaration.name;
    let shown = |text: &str| crate::escape_shown(text.trim());
    Some(
        Diagnostic::new(
            Rule::CharsetMismatch,
            level,
            declaration.at.clone(),
            format!(
                "{} says `{name}`, but the text reads as {}",
                declaration.syntax.describe(),
                detected.name()
            ),
        )
        .with_label(format!("declared here: `{name}`"))
        .with_note(format!("as {}: `{}`", declared.name(), shown(&as_declared)))
        .with_note(format!("as {}: `{}`", detected.name(), shown(&as_detected)))
        .with_help(format!(
            "`not_utf8` converts from {}, as declared (what the file's readers follow); if the text is {} instead, change the declaration to `{}` first",
            declared.name(),
            detected.name(),
            detected.name()
        )),
    )
}

/// U009 for each declaration in the file that its bytes contradict.
fn in_file(bytes: &[u8], path: &Path, level: Level, evidence: &Evidence<'_>) -> Vec<Diagnostic> {
    let format = Format::of(path);
    let found = declarations_of(bytes, format);
    if found.is_empty() {
        return undeclared_html(bytes, path, format, level, evidence)
            .into_iter()
            .collect();
    }
    found
        .into_iter()
        .filter_map(|d| declaration_mismatch(bytes, &d, level, evidence))
        .collect()
}

/// gettext's template header says `charset=CHARSET` until a translator
/// fills it in.
const PLACEHOLDER: &str = "CHARSET";

/// U009 for a declaration naming no encoding: gettext's placeholder over
/// translations, a misspelling (`uft8`), a name no decoder knows. Readers
/// fall back to a guess (msgfmt: "not a portable encoding name"; a browser
/// ignores the `<meta>`), so the declaration says nothing. A template's
/// placeholder over ASCII is what a template is, and is left alone.
fn unknown_name(
    bytes: &[u8],
    declaration: &Declaration<'_>,
    level: Level,
    evidence: &Evidence<'_>,
) -> Option<Diagnostic> {
    let name = declaration.name;
    let placeholder = name == PLACEHOLDER && declaration.syntax == Syntax::PoHeader;
    let misspelt = misspells_utf8(name);
    let utf8_text = evidence.valid && !bytes.is_ascii();
    // A real encoding this crate has no decoder for (`cp850`, `cp932`,
    // LaTeX's `ot2enc`) over legacy bytes is likely right: U005 speaks for
    // those files. Over UTF-8 text, or misspelt, it says nothing true.
    if !(misspelt || utf8_text) {
        return None;
    }
    let what = declaration.syntax.describe();
    let mut d = Diagnostic::new(
        Rule::CharsetMismatch,
        level,
        declaration.at.clone(),
        if placeholder {
            format!("{what} is still gettext's placeholder `{name}`, over translations that are not ASCII")
        } else if misspelt {
            format!("{what} says `{}`, which names no encoding: a misspelling of UTF-8", crate::escape_shown(name))
        } else {
            format!("{what} says `{}`, a name utf8lint knows no decoder for, over well-formed UTF-8 text", crate::escape_shown(name))
        },
    )
    .with_label(format!("declared here: `{}`", crate::escape_shown(name)));
    d.notes.push(if declaration.syntax == Syntax::PoHeader {
        format!("msgfmt -c warns that `{}` \"is not a portable encoding name\" and cannot convert the messages to a user's charset", crate::escape_shown(name))
    } else {
        "a reader that does not know the name ignores the declaration and guesses the encoding".to_owned()
    });
    if evidence.valid {
        d.fix = Some(Fix::unsafe_(
            format!(
                "declare `{}` (the bytes are UTF-8)",
                declaration.syntax.utf8_name(name)
            ),
            vec![declaration.to_utf8()],
        ));
    } else {
        d.help
            .push("declare the encoding the file is really in".to_owned());
    }
    Some(d)
}

/// Whether `name`, which resolves to no encoding, is UTF-8 misspelt: its
/// letters and digits (`uft8`, `utf88`, `utf-9`, `UTF8-X`) start with a
/// transposition of `utf` or are one edit from `utf8`.
fn misspells_utf8(name: &str) -> bool {
    let plain: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    ["utf", "uft", "tuf", "ftu"]
        .iter()
        .any(|p| plain.starts_with(p))
        || one_edit_from(&plain, "utf8")
}

/// Whether `a` is one insertion, deletion, substitution or transposition
/// from `b` (ASCII).
fn one_edit_from(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[common..], &b[common..]);
    match (ra.len(), rb.len()) {
        (0, 0) => false,
        (x, y) if x == y => {
            ra[1..] == rb[1..] || (x >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        (x, y) if x + 1 == y => ra == &rb[1..],
        (x, y) if y + 1 == x => &ra[1..] == rb,
        _ => false,
    }
}

/// U009 for a whole HTML page ([`is_html_page_of`]) that is UTF-8 with
/// multi-byte characters, with no BOM and no declaration: a browser reads
/// it as windows-1252. The fix writes `<meta charset="utf-8">` where
/// [`meta_charset_offset`] says, inside the prescan's first 1024 bytes.
fn undeclared_html(
    bytes: &[u8],
    path: &Path,
    format: Format,
    level: Level,
    evidence: &Evidence<'_>,
) -> Option<Diagnostic> {
    // The page test first: it reads the head, not every byte.
    if !evidence.valid || bytes.starts_with(BOM) || !is_html_page_of(bytes, path, format) {
        return None;
    }
    let first = encoding_rs::Encoding::ascii_valid_up_to(bytes);
    if first == bytes.len() {
        return None;
    }
    // A `charset` the prescan's window does not reach (a late `<meta>`,
    // a template's variable) is a declaration of a kind: not this finding.
    if bytes.windows(7).any(|w| w.eq_ignore_ascii_case(b"charset")) {
        return None;
    }
    let multibyte = bytes.iter().filter(|&&b| b >= 0xC0).count();
    let mut d = Diagnostic::new(
        Rule::CharsetMismatch,
        level,
        first..first + 1,
        format!(
            "HTML page with {multibyte} multi-byte UTF-8 character{} and no charset declaration: browsers read it as windows-1252",
            if multibyte == 1 { "" } else { "s" }
        ),
    )
    .with_label("the first non-ASCII byte".to_owned())
    .with_note("with no byte-order mark, no `<meta charset>` and no HTTP header, HTML's default is windows-1252 (the HTML validator: \"Proceeding using windows-1252\"); `é` shows as `Ã©`".to_owned());
    match meta_charset_offset(bytes) {
        Some(at) => {
            d.fix = Some(Fix::unsafe_(
                "insert `<meta charset=\"utf-8\">` in the page's head",
                vec![Edit::insert(at, &b"<meta charset=\"utf-8\">"[..])],
            ))
        }
        _ => d
            .help
            .push("add `<meta charset=\"utf-8\">` in the page's first 1024 bytes".to_owned()),
    }
    Some(d)
}

fn declaration_mismatch(
    bytes: &[u8],
    declaration: &Declaration<'_>,
    level: Level,
    evidence: &Evidence<'_>,
) -> Option<Diagnostic> {
    let Some(encoding) = declaration.encoding() else {
        return unknown_name(bytes, declaration, level, evidence);
    };
    let name = declaration.name;
    let what = declaration.syntax.describe();
    let to_utf8 = || {
        Fix::unsafe_(
            format!(
                "change the declaration from `{name}` to `{}` (the bytes are UTF-8)",
                declaration.syntax.utf8_name(name)
            ),
            vec![declaration.to_utf8()],
        )
    };
    let label = format!("declared here: `{name}`");
    if encoding == encoding_rs::UTF_8 {
        if evidence.valid {
            return None;
        }
        let mut d = Diagnostic::new(
            Rule::CharsetMismatch,
            level,
            declaration.at.clone(),
            format!(
                "{what} says `{name}`, but the file is not UTF-8: {} ill-formed sequence{}",
                evidence.errors,
                if evidence.errors == 1 { "" } else { "s" }
            ),
        )
        .with_label(label);
        if let Some(first) = &evidence.first_error {
            d.related.push(first.clone());
            d.notes.push(format!(
                "the first ill-formed byte is at byte offset {}",
                first.start
            ));
        }
        match evidence.legacy {
            Some(legacy) => {
                d.notes.push(format!("its bytes read as {legacy}"));
                d.help.push("or convert the file to UTF-8 (the `not_utf8` fix) and keep the declaration".to_owned());
                d.fix = Some(Fix::unsafe_(
                    format!("change the declaration from `{name}` to `{legacy}` (what the bytes are)"),
                    vec![Edit::replace(declaration.at.clone(), legacy.as_bytes().to_vec())],
                ));
            }
            None => d.help.push(
                "repair the ill-formed bytes (`invalid_utf8`), or declare the encoding the file is really in".to_owned(),
            ),
        }
        return Some(d);
    }
    if bytes.starts_with(BOM) {
        let python = declaration.syntax == Syntax::PythonCookie;
        let mut d = Diagnostic::new(
            Rule::CharsetMismatch,
            level,
            declaration.at.clone(),
            if python {
                format!(
                    "Python refuses this file: it starts with a UTF-8 byte-order mark, but its coding cookie says `{name}`"
                )
            } else {
                format!("the file starts with a UTF-8 byte-order mark, but {what} says `{name}`")
            },
        )
        .with_label(label)
        .with_note(if python {
            format!(
                "PEP 263: a file with the UTF-8 signature must be UTF-8; Python stops with \"encoding problem: {name} with BOM\""
            )
        } else {
            "browsers and XML parsers take the byte-order mark over the declaration; tools that read the declaration disagree with them".to_owned()
        });
        if evidence.valid {
            d.fix = Some(to_utf8());
        } else {
            d.help.push(format!(
                "the bytes are not all UTF-8: if the file is {name}, remove the byte-order mark; if it is UTF-8, repair the ill-formed bytes and change the declaration"
            ));
        }
        return Some(d);
    }
    let wide = encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE;
    if wide {
        // The declaration itself was read as 8-bit text.
        let mut d = Diagnostic::new(
            Rule::CharsetMismatch,
            level,
            declaration.at.clone(),
            format!("{what} says `{name}`, but the file is not UTF-16: the declaration itself is 8-bit text"),
        )
        .with_label(label);
        if evidence.valid {
            d.fix = Some(to_utf8());
        }
        return Some(d);
    }
    // A legacy encoding over well-formed UTF-8: only multi-byte
    // characters contradict it (ASCII is both).
    if !evidence.valid {
        // The declaration may well be right: U005 follows it, and says
        // here when the detector read the text otherwise.
        let detected = evidence.detected.filter(|&d| d != encoding)?;
        let first = evidence.first_error.as_ref()?.start;
        return disagreement(bytes, declaration, encoding, detected, first, level);
    }
    // Most declarations of a legacy encoding stand over ASCII, which reads
    // alike in both: found in one vector scan, not byte by byte.
    let first = encoding_rs::Encoding::ascii_valid_up_to(bytes);
    if first == bytes.len() {
        return None;
    }
    // The file is well-formed: the character at `first` is whole.
    let c = utf8lint_codec::Utf8Chunks::new(&bytes[first..bytes.len().min(first + 4)])
        .next()
        .and_then(|chunk| chunk.valid().chars().next())?;
    let mut utf8 = [0; 4];
    let as_declared = encoding
        .decode_without_bom_handling(c.encode_utf8(&mut utf8).as_bytes())
        .0;
    let multibyte = bytes.iter().filter(|&&b| b >= 0xC0).count();
    Some(
        Diagnostic::new(
            Rule::CharsetMismatch,
            level,
            declaration.at.clone(),
            format!(
                "{what} says `{name}`, but the file is well-formed UTF-8 with {multibyte} multi-byte character{}",
                if multibyte == 1 { "" } else { "s" }
            ),
        )
        .with_label(label)
        .with_note(format!(
            "a reader that follows the declaration shows `{as_declared}` for `{c}` (byte offset {first})"
        ))
        .with_fix(to_utf8()),
    )
}

/// U009 for a file `.editorconfig` declares Latin-1 or UTF-16, whose bytes
/// are well-formed UTF-8 with multi-byte characters (`valid` and `non_ascii`
/// come from the scan and a quick look).
fn editorconfig_mismatch(bytes: &[u8], charset: &Charset, level: Level) -> Option<Diagnostic> {
    let Charset::Other { name, source } = charset else {
        return None;
    };
    if !utf8lint_codec::is_valid(bytes) {
        return None; // the declaration may well be right
    }
    let utf16 = name.starts_with("utf-16");
    let first = bytes.iter().position(|b| !b.is_ascii());
    // Latin-1 over ASCII is no contradiction (ASCII is both); UTF-16 is
    // contradicted by any text without its NUL bytes.
    let at = match (utf16, first) {
        (false, None) => return None,
        (true, _) if bytes.is_empty() || bytes.contains(&0) => return None,
        (_, Some(i)) => i,
        (true, None) => 0,
    };
    let len = if utf16 {
        0
    } else {
        utf8lint_codec::Utf8Chunks::new(&bytes[at..])
            .next()
            .and_then(|c| c.valid().chars().next())
            .map_or(1, char::len_utf8)
    };
    let multibyte = bytes.iter().filter(|&&b| b >= 0xC0).count();
    let mut d = Diagnostic::new(
        Rule::CharsetMismatch,
        level,
        at..at + len,
        if utf16 {
            format!("`.editorconfig` declares charset = {name}, but the file is UTF-8 (no UTF-16 NUL bytes)")
        } else {
            format!(
                "`.editorconfig` declares charset = {name}, but the file is well-formed UTF-8 with {multibyte} multi-byte character{}",
                if multibyte == 1 { "" } else { "s" }
            )
        },
    )
    .with_label(if utf16 {
        "UTF-8 text".to_owned()
    } else {
        "a UTF-8 multi-byte character".to_owned()
    })
    .with_note(format!("declared in {}", source.describe()))
    .with_note(
        "an editor that follows the declaration shows `Ã©` for `é` and saves it back that way"
            .to_owned(),
    );
    if let PolicySource::EditorConfig { path, line, .. } = source {
        d.help.push(format!(
            "if the file is meant to be UTF-8, change `charset = {name}` to `utf-8` for it in {} line {line}; if it is meant to be {name}, convert it (`iconv -f UTF-8 -t {}`)",
            path.display(),
            if utf16 { name.to_ascii_uppercase() } else { "LATIN1".to_owned() }
        ));
    }
    Some(d)
}

/// Every U009 finding for the file, at `level`. `valid`: the whole file is
/// well-formed UTF-8.
pub(crate) fn check(
    bytes: &[u8],
    path: &Path,
    charset: &Charset,
    level: Level,
    evidence: &Evidence<'_>,
) -> Vec<Diagnostic> {
    if level == Level::Allow {
        return Vec::new();
    }
    let mut out: Vec<Diagnostic> = editorconfig_mismatch(bytes, charset, level)
        .into_iter()
        .collect();
    if !matches!(charset, Charset::Other { .. }) {
        // Where the project declares another charset, that declaration is
        // the one checked.
        out.extend(in_file(bytes, path, level, evidence));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_of_utf8_are_told_from_other_names() {
        for name in ["uft8", "utf88", "utf-9", "UTF8-X", "tuf-8", "utf"] {
            assert!(misspells_utf8(name), "{name}");
        }
        for name in ["cp850", "ot2enc", "next", "CHARSET", "maccyr", "u8x8"] {
            assert!(!misspells_utf8(name), "{name}");
        }
    }
    use crate::rules::declared::declared_legacy_encoding;

    /// A declaration U005 followed while the detector read another
    /// encoding: both readings of the first non-ASCII stretch are shown.
    #[test]
    fn a_disagreement_shows_both_readings() {
        let (text, _, _) = encoding_rs::ISO_8859_2
            .encode("# coding: iso-8859-2\ns = 'Árvíztűrő tükörfúrógép, a szőlő érik'\n");
        let (declaration, declared) = declared_legacy_encoding(&text, Path::new("a.py")).unwrap();
        let first = text.iter().position(|&b| b >= 0x80).unwrap();
        let d = disagreement(
            &text,
            &declaration,
            declared,
            encoding_rs::WINDOWS_1252,
            first,
            Level::Deny,
        )
        .unwrap();
        assert_eq!(
            d.message,
            "the PEP 263 coding cookie says `iso-8859-2`, but the text reads as windows-1252"
        );
        assert_eq!(
            d.notes,
            [
                "as ISO-8859-2: `s = 'Árvíztűrő tükörfúrógép, a szőlő érik'`",
                "as windows-1252: `s = 'Árvíztûrõ tükörfúrógép, a szõlõ érik'`"
            ]
        );
        assert!(d.fix.is_none());
        // Readings that agree on these bytes: nothing to say.
        let same = disagreement(
            &text,
            &declaration,
            declared,
            encoding_rs::WINDOWS_1250,
            first,
            Level::Deny,
        );
        assert!(same.is_none());
    }
}
