//! utf8lint's file reading: the security rules every file it opens obeys,
//! written once for configuration files (`utf8lint-config`) and inputs
//! (`utf8lint-workspace`).
//!
//! * [`read_file`]: a file's bytes into a reused buffer, its type checked
//!   (regular files only unless [`ReadOptions::allow_special`], and a
//!   non-blocking open so that a FIFO in a file's place never blocks) and
//!   its size bounded ([`ReadOptions::max_len`]); with its [`Stamp`] when a
//!   fix needs it ([`ReadOptions::stamp`]); a file that changes size while
//!   it is read is [`ReadError::Changed`], never a crash.
//! * [`FileKind`]: what a path named, and the one set of words for it.
//! * [`Stamp`]: what a file was when read (inode, size, times).
//! * [`foreign_owner`]: whether a file belongs to another user.

mod owner;
mod read;
mod stamp;

pub use owner::foreign_owner;
pub use read::{FileKind, FileRead, ReadError, ReadOptions, read_file};
pub use stamp::Stamp;
