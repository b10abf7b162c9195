//! `--exclude GLOB` and `--force-exclude`: what the walk leaves out, and
//! the same question asked of a file named on the command line.
//!
//! Hooks (pre-commit, lefthook, husky) pass file names, and a named file is
//! checked even if an ignore file lists it; `--force-exclude` (ruff's and
//! typos' flag) makes ignore files and excludes apply to named files too.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use ignore::gitignore::Gitignore;
use ignore::overrides::{Override, OverrideBuilder};

use crate::walk::{IGNORE_FILE, WalkOptions, walker};

/// `--exclude` globs as the walker's overrides: gitignore syntax, relative
/// to `root` (the current directory), each one excluding what it matches
/// (`vendor/`, `*.min.js`, `tests/fixtures/**`). An error names the glob.
pub fn exclude_overrides(root: &Path, globs: &[String]) -> Result<Override, String> {
    let mut builder = OverrideBuilder::new(root);
    for glob in globs {
        // An override glob includes; `!` makes it exclude. A glob written
        // with its own `!` would include, which no one means by --exclude.
        let glob = glob.strip_prefix('!').unwrap_or(glob);
        builder
            .add(&format!("!{glob}"))
            // The parser quotes the glob with the `!` added here.
            .map_err(|e| {
                let e = e
                    .to_string()
                    .replace(&format!("'!{glob}'"), &format!("'{glob}'"));
                format!("--exclude {glob}: {e}")
            })?;
    }
    builder.build().map_err(|e| e.to_string())
}

/// Answers "would the walk have left this named file out?", with each
/// directory listed once however many files in it are asked about.
pub struct ExcludeProbe {
    options: WalkOptions,
    excludes: Override,
    cwd: PathBuf,
    /// For each directory listed: the names the walk keeps in it.
    kept: HashMap<PathBuf, HashSet<OsString>>,
}

impl ExcludeProbe {
    /// A probe applying the walk's ignore rules (`options`) and `excludes`.
    pub fn new(options: WalkOptions, excludes: Override) -> ExcludeProbe {
        ExcludeProbe {
            options,
            excludes,
            cwd: std::env::current_dir().unwrap_or_default(),
            kept: HashMap::new(),
        }
    }

    /// Whether `path` (a file named on the command line) is excluded: it,
    /// or a directory it is in, would not be listed by a walk from the
    /// top of its repository (or from the current directory, when it is
    /// inside it and in no repository). Hidden files are not excluded by
    /// this: being hidden is no reason not to check a file named.
    pub fn excluded(&mut self, path: &Path) -> bool {
        let full = lexical(&self.cwd.join(path));
        let Some(parent) = full.parent() else {
            return false;
        };
        let top = parent
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .or_else(|| full.starts_with(&self.cwd).then_some(self.cwd.as_path()))
            .unwrap_or(parent)
            .to_path_buf();
        // Each step from the top down: the directory, and the child of it
        // that leads to the file.
        let below: Vec<&Path> = full
            .ancestors()
            .take_while(|a| *a != top && a.starts_with(&top))
            .collect();
        for child in below.into_iter().rev() {
            let (Some(dir), Some(name)) = (child.parent(), child.file_name()) else {
                return false;
            };
            if std::fs::symlink_metadata(child).is_err() {
                // Not on disk (standard input's `--stdin-filename`): no
                // listing can show it, so its name is matched instead.
                return self.name_ignored(&top, &full);
            }
            if !self.listed(dir).contains(name) {
                return true;
            }
        }
        false
    }

    /// Whether `full`, a path that is not on disk, matches `--exclude` or
    /// the ignore files of the directories from its own up to `top`, the
    /// nearest deciding (`.utf8lintignore` over `.ignore` over
    /// `.gitignore` in each, as the walk ranks them). git's global and
    /// `info/exclude` files are not read here.
    fn name_ignored(&self, top: &Path, full: &Path) -> bool {
        if self.excludes.matched(full, false).is_ignore() {
            return true;
        }
        if self.options.no_ignore {
            return false;
        }
        let mut names = vec![IGNORE_FILE, ".ignore"];
        if top.join(".git").exists() {
            names.push(".gitignore");
        }
        for dir in full.ancestors().skip(1) {
            if !dir.starts_with(top) {
                break;
            }
            for name in &names {
                let (matcher, _) = Gitignore::new(dir.join(name));
                let found = matcher.matched_path_or_any_parents(full, false);
                if found.is_ignore() {
                    return true;
                }
                if found.is_whitelist() {
                    return false;
                }
            }
        }
        false
    }

    /// The names a walk keeps in `dir` (not hidden-file filtered).
    fn listed(&mut self, dir: &Path) -> &HashSet<OsString> {
        if !self.kept.contains_key(dir) {
            let options = WalkOptions {
                skip_hidden: false,
                follow: false,
                threads: 1,
                ..self.options
            };
            let mut names = HashSet::new();
            if let Some(mut builder) = walker(&[dir.to_path_buf()], options) {
                builder.max_depth(Some(1)).overrides(self.excludes.clone());
                for entry in builder.build().flatten() {
                    if entry.depth() == 1
                        && let Some(name) = entry.path().file_name()
                    {
                        names.insert(name.to_owned());
                    }
                }
            }
            self.kept.insert(dir.to_path_buf(), names);
        }
        &self.kept[dir]
    }
}

/// `path` without `.` and `..` components, taken out lexically (symbolic
/// links are not resolved: a path is matched as the name it was given by).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn named_files_are_excluded_as_the_walk_would_leave_them_out() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        write(root, ".gitignore", "build/\n");
        write(root, "sub/.utf8lintignore", "gen.txt\n");
        let files = [
            "a.txt",
            "build/x.txt",
            "sub/gen.txt",
            "sub/keep.txt",
            "vendor/lib/y.txt",
            ".hidden/z.txt",
        ];
        for f in files {
            write(root, f, "x\n");
        }
        let excludes = exclude_overrides(root, &["vendor".into()]).unwrap();
        let mut probe = ExcludeProbe::new(WalkOptions::default(), excludes);
        let excluded: Vec<&str> = files
            .into_iter()
            .chain(["sub/../build/x.txt"])
            .filter(|f| probe.excluded(&root.join(f)))
            .collect();
        assert_eq!(
            excluded,
            [
                "build/x.txt",
                "sub/gen.txt",
                "vendor/lib/y.txt",
                "sub/../build/x.txt"
            ]
        );
        // Names not on disk are matched against the same files.
        write(root, "sub/.ignore", "*.tmp\n");
        for (name, excluded) in [
            ("build/new.txt", true),
            ("vendor/new.txt", true),
            ("sub/deep/gen.txt", true),
            ("sub/a.tmp", true),
            ("sub/gen.txt.new", false),
            ("sub/deep/new.txt", false),
        ] {
            assert_eq!(probe.excluded(&root.join(name)), excluded, "{name}");
        }
        // --no-ignore: the ignore files no longer apply, --exclude does.
        let excludes = exclude_overrides(root, &["vendor".into()]).unwrap();
        let options = WalkOptions {
            no_ignore: true,
            ..WalkOptions::default()
        };
        let mut probe = ExcludeProbe::new(options, excludes);
        assert!(!probe.excluded(&root.join("build/x.txt")));
        assert!(probe.excluded(&root.join("vendor/lib/y.txt")));
    }

    #[test]
    fn a_bad_glob_is_an_error_naming_it() {
        let e = exclude_overrides(Path::new("/"), &["a[".into()]).unwrap_err();
        assert!(e.starts_with("--exclude a[:"), "{e}");
        assert!(!e.contains('!'), "{e}");
    }
}
