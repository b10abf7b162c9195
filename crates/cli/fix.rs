//! `--fix` and `--diff`: which fixes apply, the write (through the shared
//! fix writer), the diff view.

use std::path::Path;

use utf8lint_diagnostics::{
    Applicability, Diagnostic, Fix, Locator, escape_lossless, plan_fixes, write_fixes,
};

use utf8lint_workspace::{Stamp, WriteError, replace_file};

/// Which fixes a run applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixMode {
    pub unsafe_fixes: bool,
}

impl FixMode {
    pub fn wants(self, fix: &Fix) -> bool {
        match fix.applicability() {
            Applicability::Safe => true,
            Applicability::Unsafe => self.unsafe_fixes,
            Applicability::DisplayOnly => false,
        }
    }
}

/// The fixes of `diagnostics` that `mode` applies and that fit together,
/// in the order they apply (`utf8lint_diagnostics::plan_fixes` decides).
pub fn plan(diagnostics: &[Diagnostic], len: usize, mode: FixMode) -> Vec<&Fix> {
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
pub fn write_fixed(
    path: &Path,
    read_as: &Stamp,
    bytes: &[u8],
    fixes: &[&Fix],
) -> Result<(), WriteError> {
    replace_file(path, read_as, |mut out| write_fixes(&mut out, bytes, fixes))
}

/// Lines shown per side of one hunk of `--diff` before it is cut.
const DIFF_MAX_LINES: usize = 20;

/// The `--diff` view of `fixes` (planned) for one file: a unified-diff-like
/// listing whose lines are escaped with `escape_lossless`, so invisible and
/// invalid bytes show as `\u{FEFF}` and `\xC0`. Hunks whose lines touch are
/// merged.
pub fn diff(display: &str, bytes: &[u8], fixes: &[&Fix]) -> String {
    if fixes.is_empty() {
        return String::new();
    }
    let mut out = format!("--- {display}\n+++ {display} (fixed)\n");
    let mut locator = Locator::new(bytes);
    let mut i = 0;
    while i < fixes.len() {
        let first = locator.locate(fixes[i].range().start);
        let mut last = locator.locate(fixes[i].range().end);
        let mut j = i + 1;
        while j < fixes.len() && fixes[j].range().start <= last.line_end {
            last = locator.locate(fixes[j].range().end);
            j += 1;
        }
        let region = first.line_start..last.line_end;
        let mut new = Vec::new();
        let mut cursor = region.start;
        let mut titles = Vec::new();
        for fix in &fixes[i..j] {
            titles.push(fix.title().to_owned());
            for edit in fix.edits() {
                new.extend_from_slice(&bytes[cursor..edit.range().start.max(cursor)]);
                new.extend_from_slice(edit.replacement());
                cursor = edit.range().end.max(cursor);
            }
        }
        let end = region.end.max(cursor);
        new.extend_from_slice(&bytes[cursor..end]);
        out.push_str(&format!(
            "@@ line {}{} @@ {}\n",
            first.line,
            if last.line > first.line {
                format!("-{}", last.line)
            } else {
                String::new()
            },
            titles.join("; ")
        ));
        push_lines(&mut out, '-', &bytes[region.start..end]);
        push_lines(&mut out, '+', &new);
        i = j;
    }
    out
}

fn push_lines(out: &mut String, sign: char, bytes: &[u8]) {
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    for line in lines.iter().take(DIFF_MAX_LINES) {
        out.push(sign);
        out.push_str(&escape_lossless(line));
        out.push('\n');
    }
    if lines.len() > DIFF_MAX_LINES {
        out.push_str(&format!(
            "{sign}… ({} more lines)\n",
            lines.len() - DIFF_MAX_LINES
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use utf8lint_diagnostics::Edit;

    #[test]
    fn diff_escapes_bytes() {
        let bytes = b"\xEF\xBB\xBF{\"a\": 1}\nok\n";
        let fix = Fix::safe("remove the byte-order mark", vec![Edit::delete(0..3)]);
        let text = diff("x.json", bytes, &[&fix]);
        assert_eq!(
            text,
            "--- x.json\n+++ x.json (fixed)\n@@ line 1 @@ remove the byte-order mark\n-\\u{FEFF}{\"a\": 1}\n+{\"a\": 1}\n"
        );
    }
}
