//! Where a diagnostic is, as every format but the human one says it.

use utf8lint_diagnostics::{Diagnostic, Position, Rule};

/// Where a diagnostic starts and ends, for people (1-based).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    pub start: Position,
    pub end: Position,
}

/// Whether a diagnostic is about the file as a whole rather than a place in
/// it (its region is then left out where a format allows).
pub(crate) fn is_file_level(d: &Diagnostic) -> bool {
    d.rule == Rule::NonUtf8Path
}
