//! A file's name as the reports spell it: for people (escaped), and as a
//! SARIF URI.

use std::path::Path;

use utf8lint_diagnostics::escape_lossless;

use super::sarif;

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
            return sarif::uri(&os_bytes(rel));
        }
        return format!("file://{}", sarif::uri(&os_bytes(path)));
    }
    sarif::uri(shown_bytes)
}
