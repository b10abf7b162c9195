//! What a file was when it was read.

use std::fs::Metadata;
use std::time::SystemTime;

/// A file's identity and version as `fstat` saw it: the fix writer refuses
/// to replace a file whose stamp changed since it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub len: u64,
    pub modified: Option<SystemTime>,
    /// Inode change time (seconds, nanoseconds): moves on `chmod`, `chown`
    /// and attribute changes, which `modified` does not see.
    #[cfg(unix)]
    pub changed: (i64, i64),
    #[cfg(unix)]
    pub ino: u64,
    #[cfg(unix)]
    pub dev: u64,
}

impl Stamp {
    pub fn of(meta: &Metadata) -> Stamp {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            changed: (meta.ctime(), meta.ctime_nsec()),
            #[cfg(unix)]
            ino: meta.ino(),
            #[cfg(unix)]
            dev: meta.dev(),
        }
    }
}
