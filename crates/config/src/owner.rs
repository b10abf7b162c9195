//! Who owns a configuration file: one owned by another user (not the one
//! running utf8lint, not root) is not applied without `--trust-config`.

use std::path::Path;

/// The owner's uid if `path` belongs to a user other than this process's
/// effective user and root; `None` if it is ours or root's, or cannot be
/// looked at (then reading it fails on its own, with a message).
#[cfg(unix)]
pub(crate) fn foreign_owner(path: &Path) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let uid = std::fs::metadata(path).ok()?.uid();
    let me = rustix::process::geteuid().as_raw();
    (uid != me && uid != 0).then_some(uid)
}

/// Elsewhere ownership is not a uid: every file is trusted.
#[cfg(not(unix))]
pub(crate) fn foreign_owner(_path: &Path) -> Option<u32> {
    None
}
