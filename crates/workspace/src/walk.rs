//! The walk both front ends use: the `ignore` crate's walker set up with
//! utf8lint's rules.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

/// The ignore file of utf8lint's own, read as `.ignore` is.
pub const IGNORE_FILE: &str = ".utf8lintignore";

/// How to walk.
#[derive(Clone, Copy, Debug, Default)]
pub struct WalkOptions {
    /// Skip hidden files and directories (names starting with `.`). Off by
    /// default: a linter is not a search tool, and `.github/workflows/*.yml`
    /// or `.eslintrc.json` are files people break (ruff lints them too).
    /// `.git` is never entered either way.
    pub skip_hidden: bool,
    /// Ignore `.gitignore`, `.ignore`, `.utf8lintignore` and git's excludes.
    pub no_ignore: bool,
    /// Follow symbolic links.
    pub follow: bool,
    /// Worker threads (0: the `ignore` crate picks).
    pub threads: usize,
}

/// A walker over `roots` honouring `.gitignore` (inside a git repository),
/// `.ignore` and `.utf8lintignore` as ripgrep does, entering hidden files
/// and directories unless `skip_hidden`; `.git` directories are never
/// entered. `None` when `roots`
/// is empty. Run it with `build()` or `build_parallel()`.
pub fn walker(roots: &[PathBuf], options: WalkOptions) -> Option<WalkBuilder> {
    let (first, rest) = roots.split_first()?;
    let mut builder = WalkBuilder::new(first);
    for dir in rest {
        builder.add(dir);
    }
    let honour = !options.no_ignore;
    builder
        .hidden(options.skip_hidden)
        .ignore(honour)
        .git_ignore(honour)
        .git_global(honour)
        .git_exclude(honour)
        .parents(honour)
        // As ripgrep: .gitignore counts only inside a git repository (a
        // source tarball's .gitignore describes the maintainer's checkout,
        // not what the tarball holds).
        .require_git(true)
        .follow_links(options.follow)
        .threads(options.threads)
        .filter_entry(|entry| {
            !is_git_dir_name(entry.path()) && !is_fix_temp_name(entry.file_name())
        });
    if honour {
        builder.add_custom_ignore_filename(IGNORE_FILE);
    }
    Some(builder)
}

/// Whether `name` is that of a fix's temporary file (`.utf8lint-PID-N.tmp`,
/// see `write.rs`): the walk never lists one, so a scan running beside a
/// fix (another thread's, or another process's) neither checks a file that
/// is being written nor trips over one that vanishes when it is renamed.
pub(crate) fn is_fix_temp_name(name: &std::ffi::OsStr) -> bool {
    let Some(rest) = name.as_encoded_bytes().strip_prefix(b".utf8lint-") else {
        return false;
    };
    let Some(numbers) = rest.strip_suffix(b".tmp") else {
        return false;
    };
    let mut parts = numbers.split(|&b| b == b'-');
    let digits =
        |p: Option<&[u8]>| p.is_some_and(|p| !p.is_empty() && p.iter().all(u8::is_ascii_digit));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}

/// Whether the last component of `path` is `.git`. Called for every entry
/// the walk lists: the bytes are compared, not parsed into components.
pub fn is_git_dir_name(path: &Path) -> bool {
    let is_separator = |b: &u8| *b == b'/' || (cfg!(windows) && *b == b'\\');
    let mut bytes = path.as_os_str().as_encoded_bytes();
    while let Some((last, rest)) = bytes.split_last()
        && is_separator(last)
    {
        bytes = rest;
    }
    match bytes.strip_suffix(b".git") {
        Some(rest) => rest.last().is_none_or(is_separator),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{is_fix_temp_name, is_git_dir_name};
    use std::path::Path;

    #[test]
    fn fix_temp_names_are_only_the_writers() {
        for (name, expected) in [
            (".utf8lint-123-0.tmp", true),
            (".utf8lint-1-99999.tmp", true),
            (".utf8lint-123.tmp", false),
            (".utf8lint--0.tmp", false),
            (".utf8lint-1-2-3.tmp", false),
            ("utf8lint-1-2.tmp", false),
            (".utf8lint-a-2.tmp", false),
            (".utf8lint-1-2.tmpx", false),
            ("notes.tmp", false),
        ] {
            assert_eq!(is_fix_temp_name(name.as_ref()), expected, "{name}");
        }
    }

    #[test]
    fn git_dir_names_are_what_file_name_says() {
        for path in [
            ".git",
            "./.git",
            "a/.git",
            "/abs/.git",
            "a/.git/",
            "a/x.git",
            "a/.gitignore",
            "a/.git/x",
            ".github",
            "git",
            "a/git",
            "",
            "/",
        ] {
            let path = Path::new(path);
            let expected = path.file_name().is_some_and(|n| n == ".git");
            assert_eq!(is_git_dir_name(path), expected, "{}", path.display());
        }
    }
}
