//! What U012 knows of roff (groff, troff, nroff; man pages and macro
//! packages): its input uses C0 controls as syntax and data. Any
//! character delimits an escape's argument (`\w^G...^G`, `\h^G...^G`) and
//! the three parts of a string comparison (`.if ^Gfoo^Gbar^G`), and macro
//! packages pick BEL or SOH because no text holds them; SOH is the leader
//! character (`.ds LEADER ^A`). Deleting one breaks the request or changes
//! the output, so none is deleted, and a delimiter is no defect.

use std::path::Path;

/// Extensions of roff sources: macro packages and documents of the
/// macro sets.
const EXTENSIONS: &[&str] = &[
    "tmac", "roff", "man", "mdoc", "ms", "me", "mm", "mom", "nroff", "troff", "groff",
];

/// Whether the file at `path`, holding `bytes`, is a roff source: by its
/// extension (a man page's section, `1`..`9` and a suffix, among them), a
/// macro package's name (`tmac.an`, `doc-common-u` in a `tmac` directory),
/// or its first line (a roff comment `.\"`, or a request that only roff
/// starts a file with).
pub(crate) fn is_source(path: &Path, bytes: &[u8]) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    let man_section = extension
        .as_bytes()
        .first()
        .is_some_and(|b| (b'1'..=b'9').contains(b))
        && extension.len() <= 4
        && extension[1..].bytes().all(|b| b.is_ascii_alphanumeric());
    let in_tmac = path
        .parent()
        .into_iter()
        .flat_map(Path::components)
        .any(|c| c.as_os_str().eq_ignore_ascii_case("tmac"));
    let first = &bytes[..memchr::memchr(b'\n', bytes).unwrap_or(bytes.len())];
    EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(extension))
        || man_section
        || name.starts_with("tmac.")
        || name.contains(".tmac")
        || in_tmac
        || [&b".\\\""[..], b"'\\\"", b".TH ", b".de ", b".ig", b".so "]
            .iter()
            .any(|p| first.starts_with(p))
}

/// Whether the control `c` on `line` is roff syntax or data: in a roff
/// source (`in_roff`), SOH (the leader), a control on a request or macro
/// line (it starts with `.` or `'`) or one the line holds twice or more
/// (an escape's delimiters in text); in any file, a control the line holds
/// twice or more on a quoted request line (`! .if !^G\\*(10^G^G .br` in a
/// document about roff).
pub(crate) fn is_syntax(line: &[u8], c: u8, in_roff: bool) -> bool {
    let pair = memchr::memchr_iter(c, line).nth(1).is_some();
    let request = |l: &[u8]| {
        matches!(l, [b'.' | b'\'', ..])
            && l[1..]
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'\\')
    };
    if in_roff {
        return c == 0x01 || pair || request(line.trim_ascii_start());
    }
    // Elsewhere only a request by its lower-case name after a `.` (`.if`,
    // `.ie`, `.ds`), behind a quoting prefix (`! `, `> `).
    let quoted = line.trim_ascii_start();
    let unquoted = quoted
        .iter()
        .position(|b| !(b.is_ascii_punctuation() && *b != b'.' || *b == b' '))
        .map_or(&[][..], |k| &quoted[k..]);
    let named_request = match unquoted {
        [b'.', rest @ ..] => {
            let name = rest.iter().take_while(|b| b.is_ascii_lowercase()).count();
            name >= 2 && rest.get(name).is_none_or(|b| !b.is_ascii_alphanumeric())
        }
        _ => false,
    };
    pair && named_request
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roff_sources_by_name_and_first_line() {
        let is = |p: &str, b: &str| is_source(Path::new(p), b.as_bytes());
        assert!(is("tmac/doc-common-u", ""));
        assert!(is("contrib/hdtbl/hdtbl.tmac-u", ""));
        assert!(is("man/groff.7", ""));
        assert!(is("doc/perl.3pm", ""));
        assert!(is("notes", ".\\\" a comment\n.TH X 1\n"));
        assert!(!is("README", "Read me.\n"));
        assert!(!is("a.c", "int x;\n"));
    }

    #[test]
    fn delimiters_and_leaders_are_syntax() {
        assert!(is_syntax(b".  if \\w\x07\\\\$2\x07 \\{", 7, true));
        assert!(is_syntax(b".ds LEADER \x01", 1, true));
        assert!(is_syntax(b"\\h\x07(1i)\x07\\", 7, true));
        assert!(!is_syntax(b"Some text with a stray \x0B here", 0x0B, true));
        // A document quoting a request.
        assert!(is_syntax(b"! .if !\x07\\\\*(10\x07\x07 .br", 7, false));
        assert!(!is_syntax(b"bell\x07 and bell\x07", 7, false));
        assert!(!is_syntax(b".if \x07x", 7, false));
        // A fuzzer's input and a Vim macro's keystrokes are no requests.
        assert!(!is_syntax(b".XN--w127f.x\x0E.XN--w126f\x0E", 0x0E, false));
        assert!(!is_syntax(b"'wa/o\x16\x0dfw\x1b\x1b", 0x1B, false));
    }
}
