//! `--fix` and `--diff`: which fixes apply, the atomic write, the diff view.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use utf8lint_diagnostics::{
    Applicability, Diagnostic, Fix, Locator, escape_lossless, plan_fixes, write_fixes,
};

use crate::read::Stamp;

/// Test hook, read only on the `--fix` write path: when this variable names
/// a file (by its final path component) that is being fixed, the CLI appends
/// a byte to that file after writing the temporary file and before its last
/// check, exactly as a concurrent editor would. The end-to-end tests use it
/// to prove that a file changed since it was read is never replaced; it does
/// nothing unless set.
pub const MUTATE_HOOK: &str = "UTF8LINT_TEST_MUTATE_BEFORE_WRITE";

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

/// Why a file was not fixed.
pub enum Refusal {
    /// Told to the user; nothing was written.
    Refused(String),
    /// The write itself failed (the original is untouched).
    Io(io::Error),
}

impl From<io::Error> for Refusal {
    fn from(e: io::Error) -> Self {
        Refusal::Io(e)
    }
}

/// Replaces `path` by its fixed content, atomically: a temporary file in the
/// same directory gets the new bytes and the original's permissions, is
/// flushed and synced, and is renamed over the original only if the
/// original is still the file that was read (same inode, size and
/// modification time). Symbolic links are never written through: the link
/// might point outside the scanned tree, so the user is told to fix the
/// target instead.
pub fn write_atomically(
    path: &Path,
    read_as: Stamp,
    bytes: &[u8],
    fixes: &[&Fix],
) -> Result<(), Refusal> {
    let meta = fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Err(Refusal::Refused(
            "it is a symbolic link, which utf8lint never writes through; fix its target instead"
                .into(),
        ));
    }
    if Stamp::of(&meta) != read_as {
        return Err(Refusal::Refused("it changed since it was read".into()));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (temp_path, file) = create_temp(&dir, path)?;
    let result = (|| -> Result<(), Refusal> {
        let mut out = BufWriter::with_capacity(256 * 1024, file);
        write_fixes(&mut out, bytes, fixes)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.set_permissions(meta.permissions())?;
        keep_owner(&file, &meta);
        file.sync_all()?;
        drop(file);
        if let Some(name) = std::env::var_os(MUTATE_HOOK)
            && path.file_name() == Some(name.as_os_str())
        {
            let mut f = fs::OpenOptions::new().append(true).open(path)?;
            f.write_all(b"!")?;
        }
        // The last look before the rename: a change between here and the
        // rename is a window of microseconds, not the whole scan.
        let now = fs::symlink_metadata(path)?;
        if now.file_type().is_symlink() || Stamp::of(&now) != read_as {
            return Err(Refusal::Refused(
                "it changed while it was being fixed".into(),
            ));
        }
        fs::rename(&temp_path, path)?;
        sync_dir(&dir);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp_path);
    }
    result
}

fn create_temp(dir: &Path, path: &Path) -> io::Result<(PathBuf, fs::File)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pid = std::process::id();
    for n in 0..100u32 {
        let temp = dir.join(format!(".{name}.utf8lint-{pid}-{n}.tmp"));
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        match options.open(&temp) {
            Ok(f) => return Ok((temp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name",
    ))
}

#[cfg(unix)]
fn keep_owner(file: &fs::File, meta: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    // Only root can give a file away; for others this fails harmlessly and
    // the file keeps the owner who ran the fix (who owns the directory).
    let _ = std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid()));
}

#[cfg(not(unix))]
fn keep_owner(_: &fs::File, _: &fs::Metadata) {}

/// Makes the rename durable (best effort: not every file system allows it).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
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
