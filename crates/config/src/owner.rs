//! Who owns a configuration file: one owned by another user (not the one
//! running utf8lint, not root) is not applied without `--trust-config`.

use std::path::Path;

/// The owner's uid if `path` belongs to a user other than this process's
/// effective user and root; `None` if it is ours or root's, or cannot be
/// looked at (then reading it fails on its own, with a message).
pub(crate) fn foreign_owner(path: &Path) -> Option<u32> {
    utf8lint_read::foreign_owner(&std::fs::metadata(path).ok()?)
}
