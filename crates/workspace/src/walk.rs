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
        .filter_entry(|entry| !is_git_dir_name(entry.path()));
    if honour {
        builder.add_custom_ignore_filename(IGNORE_FILE);
    }
    Some(builder)
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
    use super::is_git_dir_name;
    use std::path::Path;

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
