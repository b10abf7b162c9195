//! The one place the server reads files: through the shared reader of
//! `utf8lint-workspace`, regular files only (never a device, FIFO or
//! socket, even behind a symbolic link) and never more than [`MAX_READ`].

use std::path::Path;

use utf8lint_workspace::{ReadOptions, Stamp, read_file};

/// The most the server reads of one file (16 MiB): a larger file gets a
/// note instead of findings, so that a sparse or huge file cannot take the
/// server's memory.
pub(crate) const MAX_READ: u64 = 16 << 20;

/// The bytes of the file at `path` and its stamp when read, or why not
/// (a sentence for the user).
pub(crate) fn read(path: &Path) -> Result<(Vec<u8>, Stamp), String> {
    let mut bytes = Vec::new();
    let options = ReadOptions {
        max_len: Some(MAX_READ),
        allow_special: false,
    };
    match read_file(path, &mut bytes, options) {
        Ok(read) => {
            bytes.truncate(read.len);
            Ok((bytes, read.stamp))
        }
        Err(e) => Err(format!("utf8lint did not read {}: {e}", path.display())),
    }
}
