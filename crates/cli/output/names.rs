//! A file's name as the reports spell it: for people (escaped), and as a
//! SARIF URI.

use std::path::Path;

use utf8lint_diagnostics::escape_lossless;

/// The path as shown: `./` stripped, escaped with `escape_lossless` so that
/// controls, bidi and invisible characters are visible, a backslash is `\\`
/// and an invalid byte `\xE9`: a Latin-1 `caf\xE9` and a UTF-8 name spelled
/// `caf\xE9` never print alike.
pub(crate) fn display_path(path: &Path) -> (String, Vec<u8>) {
    let shown = path.strip_prefix(".").unwrap_or(path);
    let shown = if shown.as_os_str().is_empty() {
        path
    } else {
        shown
    };
    let bytes = os_bytes(shown);
    (escape_lossless(&bytes), bytes)
}

#[cfg(unix)]
fn os_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn os_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().into_owned().into_bytes()
}

/// The SARIF URI of `path` (shown as `shown_bytes`): relative to the
/// working directory `cwd` when it is inside it, else an absolute
/// `file://` URI.
pub(crate) fn uri_of(cwd: Option<&Path>, path: &Path, shown_bytes: &[u8]) -> String {
    if path.is_absolute() {
        if let Some(rel) = cwd.and_then(|cwd| path.strip_prefix(cwd).ok()) {
            return uri(&os_bytes(rel));
        }
        return format!("file://{}", uri(&os_bytes(path)));
    }
    uri(shown_bytes)
}

/// A path as a relative URI reference: `/`-separated, every byte outside
/// the unreserved set percent-encoded (so a name that is not UTF-8 still
/// has an exact, valid URI).
pub(crate) fn uri(path_bytes: &[u8]) -> String {
    let mut out = String::with_capacity(path_bytes.len());
    for &b in path_bytes {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            b'\\' if cfg!(windows) => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// One file's name in its three spellings.
pub(crate) struct FileName<'a> {
    /// As shown to people: the path as walked, `./` stripped; a name that
    /// is not UTF-8 is escaped (`caf\xE9.txt`).
    pub display: &'a str,
    /// For JSON: the exact name when it is UTF-8 (the serializer escapes
    /// what JSON needs), else `display`.
    pub exact: &'a str,
    /// For SARIF: relative to the working directory, `/`-separated,
    /// percent-encoded.
    pub uri: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri(b"src/a b.rs"), "src/a%20b.rs");
        assert_eq!(uri(b"caf\xE9.txt"), "caf%E9.txt");
        assert_eq!(uri("é".as_bytes()), "%C3%A9");
    }
}
