//! Reading `git diff --unified=0`: each file's new path and the new side's
//! changed lines, and names as git quotes them. Lines are slices of git's
//! output; only a file's name is copied, once.

use std::borrow::Cow;
use std::collections::HashMap;

/// The lines of one file that changed, 1-based, sorted, as half-open
/// ranges; or every line.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct FileChange {
    pub lines: Vec<(usize, usize)>,
    pub every_line: bool,
}

impl FileChange {
    /// Whether any line from `first` to `last` (inclusive) changed.
    pub(super) fn touches(&self, first: usize, last: usize) -> bool {
        if self.every_line {
            return true;
        }
        // The first range that ends after `first`.
        let i = self.lines.partition_point(|&(_, end)| end <= first);
        self.lines.get(i).is_some_and(|&(start, _)| start <= last)
    }
}

/// Reads a name as git writes it: as it is, or in double quotes with C
/// escapes (`\t`, `\"`, `\\`, octal `\303`) when it holds such bytes.
/// Returns the name (borrowed when it is not quoted) and what follows it.
pub(super) fn unquote(text: &[u8]) -> (Cow<'_, [u8]>, &[u8]) {
    let Some(rest) = text.strip_prefix(b"\"") else {
        return (Cow::Borrowed(text), &[]);
    };
    let mut out = Vec::with_capacity(rest.len());
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            b'"' => return (Cow::Owned(out), &rest[i + 1..]),
            b'\\' if i + 1 < rest.len() => {
                i += 2 + unescape(rest[i + 1], &rest[i + 2..], &mut out);
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    (Cow::Owned(out), &[])
}

/// Appends the byte of the escape `\c` (`after` is what follows `c`) to
/// `out`; returns how many bytes of `after` it took (an octal escape's
/// last two digits).
fn unescape(c: u8, after: &[u8], out: &mut Vec<u8>) -> usize {
    let octal = |b: &u8| (b'0'..=b'7').contains(b);
    match c {
        b'a' => out.push(0x07),
        b'b' => out.push(0x08),
        b't' => out.push(b'\t'),
        b'n' => out.push(b'\n'),
        b'v' => out.push(0x0B),
        b'f' => out.push(0x0C),
        b'r' => out.push(b'\r'),
        c if octal(&c) && after.len() >= 2 && after[..2].iter().all(octal) => {
            let value = [c, after[0], after[1]]
                .iter()
                .fold(0u32, |v, &d| v * 8 + u32::from(d - b'0'));
            // Three octal digits above `\377` are no byte git writes.
            out.push(u8::try_from(value).unwrap_or(u8::MAX));
            return 2;
        }
        other => out.push(other),
    }
    0
}

/// The name after the `b/` of a `+++ b/X`, `rename to X` or diff-line side.
fn new_side(name: Cow<'_, [u8]>) -> Option<Vec<u8>> {
    match name {
        Cow::Borrowed(name) => name.strip_prefix(b"b/").map(<[u8]>::to_vec),
        Cow::Owned(mut name) => name.starts_with(b"b/").then(|| {
            name.drain(..2);
            name
        }),
    }
}

/// The new path of a `diff --git a/X b/X` line when both sides name the
/// same file (a rename says its new name on a line of its own).
pub(super) fn path_of_diff_line(rest: &[u8]) -> Option<Vec<u8>> {
    if rest.starts_with(b"\"") {
        let (_, after) = unquote(rest);
        let (new, _) = unquote(after.strip_prefix(b" ")?);
        return new_side(new);
    }
    if rest.len().is_multiple_of(2) {
        return None;
    }
    let half = rest.len() / 2;
    let (old, new) = (&rest[..half], &rest[half + 1..]);
    let (old, new) = (old.strip_prefix(b"a/")?, new.strip_prefix(b"b/")?);
    (old == new).then(|| new.to_vec())
}

/// The new side's first line and line count of a hunk header
/// `@@ -a[,b] +c[,d] @@`, with the old side's count.
pub(super) fn hunk_header(line: &[u8]) -> Option<(usize, usize, usize)> {
    let text = std::str::from_utf8(line.strip_prefix(b"@@ -")?).ok()?;
    let (old, rest) = text.split_once(" +")?;
    let (new, _) = rest.split_once(" @@")?;
    let count = |side: &str| -> Option<(usize, usize)> {
        match side.split_once(',') {
            Some((start, n)) => Some((start.parse().ok()?, n.parse().ok()?)),
            None => Some((side.parse().ok()?, 1)),
        }
    };
    let (_, old_count) = count(old)?;
    let (start, new_count) = count(new)?;
    Some((start, new_count, old_count))
}

/// One file's entry of the diff, being read.
#[derive(Default)]
struct Entry {
    /// From `+++ b/...`, `rename to` or `copy to`.
    path: Option<Vec<u8>>,
    /// From the `diff --git` line.
    guessed: Option<Vec<u8>>,
    deleted: bool,
    change: FileChange,
}

impl Entry {
    /// Takes in one line of the entry's header or a hunk header; the
    /// lines still to come of the hunk it opens, old and new side.
    fn read(&mut self, line: &[u8]) -> (usize, usize) {
        if line.starts_with(b"deleted file mode") || line == b"+++ /dev/null" {
            self.deleted = true;
        } else if let Some(name) = line
            .strip_prefix(b"rename to ")
            .or_else(|| line.strip_prefix(b"copy to "))
        {
            self.path = Some(unquote(name).0.into_owned());
        } else if let Some(name) = line.strip_prefix(b"+++ ") {
            if let Some(name) = new_side(unquote(name).0) {
                self.path = Some(name);
            }
        } else if line.starts_with(b"Binary files ") {
            self.change.every_line = true;
        } else if let Some((start, count, old_count)) = hunk_header(line) {
            if count > 0 {
                self.change.lines.push((start, start + count));
            }
            return (old_count, count);
        }
        (0, 0)
    }

    fn finish(self, files: &mut HashMap<Vec<u8>, FileChange>) {
        if self.deleted {
            return;
        }
        if let Some(path) = self.path.or(self.guessed) {
            files.insert(path, self.change);
        }
    }
}

/// Reads `git diff --unified=0` output into `files`: each file's new path
/// and the new side's changed lines. Content lines are counted by the hunk
/// headers, so a removed line that reads `-- x` is never taken for a header.
pub(super) fn read_patch(diff: &[u8], files: &mut HashMap<Vec<u8>, FileChange>) {
    let mut entry: Option<Entry> = None;
    // Lines of the current hunk still to come, old and new side.
    let mut left = (0usize, 0usize);
    for line in diff.split(|&b| b == b'\n') {
        if left != (0, 0) {
            match line.first() {
                Some(b'-') => left.0 = left.0.saturating_sub(1),
                Some(b'+') => left.1 = left.1.saturating_sub(1),
                Some(b' ') => {
                    left.0 = left.0.saturating_sub(1);
                    left.1 = left.1.saturating_sub(1);
                }
                _ => {}
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix(b"diff --git ") {
            if let Some(done) = entry.take() {
                done.finish(files);
            }
            entry = Some(Entry {
                guessed: path_of_diff_line(rest),
                ..Entry::default()
            });
        } else if let Some(current) = entry.as_mut() {
            left = current.read(line);
        }
    }
    if let Some(done) = entry {
        done.finish(files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(diff: &[u8]) -> HashMap<Vec<u8>, FileChange> {
        let mut files = HashMap::new();
        read_patch(diff, &mut files);
        files
    }

    #[test]
    fn hunks_give_the_new_side_s_lines() {
        let diff = b"diff --git a/src/a.txt b/src/a.txt\nindex 1..2 100644\n--- a/src/a.txt\n+++ b/src/a.txt\n@@ -3 +3 @@\n-old\n+new\n@@ -10,0 +11,2 @@\n+x\n+--- y\n@@ -20,2 +22,0 @@\n--- z\n-w\n";
        let files = parse(diff);
        let change = &files[&b"src/a.txt".to_vec()];
        assert_eq!(change.lines, [(3, 4), (11, 13)]);
        assert!(change.touches(3, 3) && change.touches(12, 12) && change.touches(1, 3));
        assert!(!change.touches(4, 10) && !change.touches(13, 30));
    }

    #[test]
    fn renames_deletions_binaries_and_quoted_names() {
        let diff = b"diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to new.txt\ndiff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\nindex 1..0\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\ndiff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\ndiff --git \"a/tab\\there\" \"b/tab\\there\"\nindex 1..2 100644\n--- \"a/tab\\there\"\n+++ \"b/tab\\there\"\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/caf\xC3\xA9 b/caf\xC3\xA9\nnew file mode 100644\n--- /dev/null\n+++ b/caf\xC3\xA9\n@@ -0,0 +1 @@\n+x\n";
        let files = parse(diff);
        assert_eq!(files[&b"new.txt".to_vec()], FileChange::default());
        assert!(!files.contains_key(b"gone.txt".as_slice()));
        assert!(files[&b"img.png".to_vec()].every_line);
        assert_eq!(files[&b"tab\there".to_vec()].lines, [(1, 2)]);
        assert_eq!(files[&b"caf\xC3\xA9".to_vec()].lines, [(1, 2)]);
        assert_eq!(files.len(), 4);
    }

    #[test]
    fn git_quoting_reads_back() {
        assert_eq!(
            &*unquote(b"\"b/caf\\303\\251\\t\\\"\\\\.txt\" rest").0,
            b"b/caf\xC3\xA9\t\"\\.txt"
        );
        assert_eq!(&*unquote(b"plain name").0, b"plain name");
        assert_eq!(path_of_diff_line(b"a/x y b/x y"), Some(b"x y".to_vec()));
        assert_eq!(path_of_diff_line(b"a/x b/y"), None);
        assert_eq!(
            path_of_diff_line(b"\"a/t\\tx\" \"b/t\\tx\""),
            Some(b"t\tx".to_vec())
        );
    }
}
