//! U006 `non_utf8_path`: a file name that is not valid UTF-8.

use std::path::Path;

use crate::text::escape_lossless;
use crate::{Diagnostic, Level, Rule};

/// The finding for `path` if its name is not valid UTF-8 (only possible on
/// Unix, where names are bytes).
pub fn check_path(path: &Path, level: Level) -> Option<Diagnostic> {
    if level == Level::Allow {
        return None;
    }
    let bytes = path_bytes(path)?;
    utf8lint_codec::from_utf8(&bytes).err()?;
    let shown = escape_lossless(&bytes);
    let subparts: Vec<_> = utf8lint_codec::subparts(&bytes).take(16).collect();
    let mut d = Diagnostic::new(
        Rule::NonUtf8Path,
        level,
        0..0,
        format!("file name is not valid UTF-8: `{shown}`"),
    )
    .with_label("this file's name")
    .with_note("tools and platforms that need UTF-8 names (Git on Windows and macOS, JSON, the web) will mangle or reject it")
    .with_help("rename it with a UTF-8 name, e.g. `git mv` it");
    d.subparts = subparts;
    Some(d)
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    Some(path.as_os_str().as_bytes().to_vec())
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Option<Vec<u8>> {
    // Elsewhere names are UTF-16 or already Unicode: an unpaired surrogate
    // shows up as a failed conversion.
    match path.to_str() {
        Some(_) => None,
        None => Some(path.to_string_lossy().into_owned().into_bytes()),
    }
}
