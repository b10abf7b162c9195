//! U009 `charset_mismatch`: a declaration of the file's encoding that its
//! bytes contradict. For now two declarations (the ones issue #13 names;
//! HTML `<meta charset>`, XML, CSS and modelines come with the mojibake
//! rules):
//!
//! * A Python source file that starts with a UTF-8 byte-order mark and has
//!   a PEP 263 coding cookie naming another encoding. Python refuses to run
//!   it ("encoding problem: iso-8859-1 with BOM").
//! * `.editorconfig` `charset = latin1` (or `utf-16le`/`utf-16be`) over a
//!   file that is well-formed UTF-8 with multi-byte characters: an editor
//!   following the declaration shows `Ã©` for `é`, and saves it that way.

use std::path::Path;

use crate::{Charset, Diagnostic, Edit, Fix, Level, PolicySource, Rule};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A PEP 263 coding cookie: where its encoding name is, and the name.
struct Cookie<'a> {
    name: &'a str,
    /// Byte range of the name in the file.
    at: std::ops::Range<usize>,
    /// 1-based line.
    line: usize,
}

/// The coding cookie on line 1 or 2 of `bytes` (after a BOM), if any:
/// PEP 263's `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`.
fn coding_cookie(bytes: &[u8]) -> Option<Cookie<'_>> {
    let mut start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    for line in 1..=2 {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let text = &bytes[start..end];
        let body = text.trim_ascii_start();
        let comment = body.strip_prefix(b"#");
        if let Some(found) = comment.and_then(|c| name_after_coding(c)) {
            let offset = found.as_ptr() as usize - bytes.as_ptr() as usize;
            let name = std::str::from_utf8(found).ok()?;
            return Some(Cookie {
                name,
                at: offset..offset + found.len(),
                line,
            });
        }
        // PEP 263: the cookie may be on line 2 only if line 1 is a comment
        // or blank (a `#!` line, an Emacs modeline).
        let blank_or_comment = body.is_empty() || body.starts_with(b"#");
        if end >= bytes.len() || !blank_or_comment {
            return None;
        }
        start = end + 1;
    }
    None
}

/// The `[-\w.]+` after the first `coding[:=][ \t]*` in a comment.
fn name_after_coding(comment: &[u8]) -> Option<&[u8]> {
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&comment[from..], b"coding") {
        let after = &comment[from + i + 6..];
        if let Some(rest) = after
            .strip_prefix(b":")
            .or_else(|| after.strip_prefix(b"="))
        {
            let rest = rest.trim_ascii_start();
            let len = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                .count();
            return (len > 0).then(|| &rest[..len]);
        }
        from += i + 6;
    }
    None
}

/// Python's names for UTF-8 (`codecs.lookup` normalises case, `-` and `_`).
fn is_utf8_name(name: &str) -> bool {
    let normal: String = name
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        normal.as_str(),
        "utf8" | "utf8sig" | "u8" | "utf" | "cp65001"
    )
}

fn is_python(path: &Path, bytes: &[u8]) -> bool {
    let ext = path.extension().and_then(|e| e.to_str());
    if matches!(ext, Some("py" | "pyw" | "pyi")) {
        return true;
    }
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let first = &body[..memchr::memchr(b'\n', body).unwrap_or(body.len())];
    first.starts_with(b"#!") && memchr::memmem::find(first, b"python").is_some()
}

/// U009 for a Python file with a BOM and a coding cookie for another
/// encoding.
fn python_bom_cookie(bytes: &[u8], path: &Path, level: Level, valid: bool) -> Option<Diagnostic> {
    if !bytes.starts_with(BOM) || !is_python(path, bytes) {
        return None;
    }
    let cookie = coding_cookie(bytes)?;
    if is_utf8_name(cookie.name) {
        return None;
    }
    let name = cookie.name;
    let mut d = Diagnostic::new(
        Rule::CharsetMismatch,
        level,
        cookie.at.clone(),
        format!(
            "Python refuses this file: it starts with a UTF-8 byte-order mark, but its coding cookie says `{name}`"
        ),
    )
    .with_label(format!("line {}: `coding: {name}`", cookie.line))
    .with_note(format!(
        "PEP 263: a file with the UTF-8 signature must be UTF-8; Python stops with \"encoding problem: {name} with BOM\""
    ));
    if valid {
        // The bytes are UTF-8: the declaration is what is wrong.
        d.fix = Some(Fix::unsafe_(
            format!("change the cookie from `{name}` to `utf-8` (the bytes are UTF-8)"),
            vec![Edit::replace(cookie.at, b"utf-8".to_vec())],
        ));
    } else {
        d.help.push(format!(
            "the bytes are not all UTF-8: if the file is {name}, remove the byte-order mark; if it is UTF-8, repair the ill-formed bytes and change the cookie"
        ));
    }
    Some(d)
}

/// U009 for a file `.editorconfig` declares Latin-1 or UTF-16, whose bytes
/// are well-formed UTF-8 with multi-byte characters (`valid` and `non_ascii`
/// come from the scan and a quick look).
fn editorconfig_mismatch(bytes: &[u8], charset: &Charset, level: Level) -> Option<Diagnostic> {
    let Charset::Other { name, source } = charset else {
        return None;
    };
    if std::str::from_utf8(bytes).is_err() {
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
    valid: bool,
) -> Vec<Diagnostic> {
    if level == Level::Allow {
        return Vec::new();
    }
    editorconfig_mismatch(bytes, charset, level)
        .into_iter()
        .chain(python_bom_cookie(bytes, path, level, valid))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_read_as_pep_263_reads_them() {
        let name = |b: &[u8]| coding_cookie(b).map(|c| c.name.to_owned());
        assert_eq!(name(b"# -*- coding: latin-1 -*-\n"), Some("latin-1".into()));
        assert_eq!(
            name(b"#!/usr/bin/python\n# vim: set fileencoding=cp1252 :\n"),
            Some("cp1252".into())
        );
        assert_eq!(name(b"  #coding=utf-8\n"), Some("utf-8".into()));
        // Line 2 only after a comment or blank line 1.
        assert_eq!(name(b"import os\n# coding: latin-1\n"), None);
        assert_eq!(name(b"\n# coding: latin-1\n"), Some("latin-1".into()));
        // Line 3 is too late; not in a comment is not a cookie.
        assert_eq!(name(b"#!x\n#\n# coding: latin-1\n"), None);
        assert_eq!(name(b"s = 'coding: latin-1'\n"), None);
        assert!(is_utf8_name("UTF-8") && is_utf8_name("utf_8") && is_utf8_name("utf-8-sig"));
        assert!(!is_utf8_name("latin-1") && !is_utf8_name("iso-8859-15"));
    }
}
