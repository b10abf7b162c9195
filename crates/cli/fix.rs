//! `--fix` and `--diff`: which fixes apply and the write (through the
//! shared fix writer); `crate::diff` renders `--diff`.

use std::path::Path;

use utf8lint_diagnostics::{Applicability, Diagnostic, Fix, plan_fixes, write_fixes};

use utf8lint_workspace::{Stamp, WriteError, replace_file};

/// Which fixes a run applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FixMode {
    pub unsafe_fixes: bool,
}

impl FixMode {
    pub(crate) fn wants(self, fix: &Fix) -> bool {
        match fix.applicability() {
            Applicability::Safe => true,
            Applicability::Unsafe => self.unsafe_fixes,
            Applicability::DisplayOnly => false,
        }
    }
}

/// The fixes of `diagnostics` that `mode` applies and that fit together,
/// in the order they apply (`utf8lint_diagnostics::plan_fixes` decides).
pub(crate) fn plan(diagnostics: &[Diagnostic], len: usize, mode: FixMode) -> Vec<&Fix> {
    let fixes: Vec<&Fix> = diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| mode.wants(f))
        .collect();
    plan_fixes(&fixes, len)
        .into_iter()
        .map(|i| fixes[i])
        .collect()
}

/// Replaces `path` by its fixed content through the one fix writer
/// (`utf8lint_workspace::replace_file`: what it keeps and refuses is said
/// there), if the file is still what was read (`read_as`).
pub(crate) fn write_fixed(
    path: &Path,
    read_as: &Stamp,
    bytes: &[u8],
    fixes: &[&Fix],
) -> Result<(), WriteError> {
    replace_file(path, read_as, |mut out| write_fixes(&mut out, bytes, fixes))
}
