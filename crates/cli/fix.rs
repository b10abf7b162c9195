//! `--fix` and `--diff`: which fixes a run applies and the write (through
//! the shared fix writer); the fix gate (`utf8lint_workspace::gate`) plans
//! and checks them, `crate::diff` renders `--diff`.

use std::path::Path;

use utf8lint_workspace::gate::Select;
use utf8lint_workspace::{Stamp, WriteError, replace_file};

/// Which fixes a run applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FixMode {
    pub unsafe_fixes: bool,
}

impl FixMode {
    /// The gate's selection for this mode: every safe fix, and the unsafe
    /// ones with `--unsafe-fixes`.
    pub(crate) fn select(self) -> Select {
        Select::Applicable {
            unsafe_fixes: self.unsafe_fixes,
        }
    }
}

/// Replaces `path` by `fixed`, the gate's bytes, through the one fix
/// writer (`utf8lint_workspace::replace_file`: what it keeps and refuses is
/// said there), if the file is still what was read (`read_as`).
pub(crate) fn write_fixed(path: &Path, read_as: &Stamp, fixed: &[u8]) -> Result<(), WriteError> {
    replace_file(path, read_as, |out| out.write_all(fixed))
}
