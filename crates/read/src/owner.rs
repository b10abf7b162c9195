//! Who owns a file.

use std::fs::Metadata;

/// The owner's uid if `meta` is a file of a user other than this process's
/// effective user and root; `None` if it is ours or root's.
#[cfg(unix)]
pub fn foreign_owner(meta: &Metadata) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let uid = meta.uid();
    // SAFETY: `geteuid` takes no argument, touches no memory of ours and
    // cannot fail (POSIX: "shall always be successful").
    let me = unsafe { libc::geteuid() };
    (uid != me && uid != 0).then_some(uid)
}

/// Elsewhere ownership is not a uid: every file is trusted.
#[cfg(not(unix))]
pub fn foreign_owner(_meta: &Metadata) -> Option<u32> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    /// A file this process just made is its own, not another user's.
    #[test]
    fn a_file_of_ours_has_no_foreign_owner() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let meta = file.as_file().metadata().unwrap();
        assert_eq!(super::foreign_owner(&meta), None);
    }
}
