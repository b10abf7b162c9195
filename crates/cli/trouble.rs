//! Trouble: what kept a run from checking or fixing something (a path that
//! cannot be read, a walk error, a bad configuration, a refused fix), as a
//! value. It is made where it happens and rendered once per format where it
//! is printed: a line on standard error, a SARIF tool execution
//! notification, a GitHub error annotation. Any trouble makes the exit
//! code 2.

use std::io;
use std::path::{Path, PathBuf};

use utf8lint_diagnostics::escape_shown;

use crate::output::names::display_path;

/// What the trouble is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Subject {
    /// A file or directory, as named or walked.
    Path(PathBuf),
    /// Standard input.
    StandardInput,
    /// The configuration that applies to a file (the message names the
    /// configuration file).
    Configuration,
    /// A path the detail itself speaks of (an error of the walk's that
    /// says where in its own words).
    Within(PathBuf),
    /// Nothing the run can name (the detail says what).
    Unnamed,
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// It could not be read or looked at (`io`: the error's kind, when the
    /// system gave one).
    Read { io: Option<io::ErrorKind> },
    /// The directory walk could not go on there.
    Walk,
    /// The configuration could not be read or is wrong.
    Config,
    /// The writer refused to replace the file: it is unchanged.
    FixRefused,
    /// Replacing the file failed: it is unchanged.
    FixFailed,
    /// The fix was written, and then the file could not be read again.
    ReadAfterFix,
    /// A bug: checking it panicked.
    Internal,
}

impl Kind {
    /// Its name in JSON.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Read { .. } => "read",
            Kind::Walk => "walk",
            Kind::Config => "config",
            Kind::FixRefused => "fix_refused",
            Kind::FixFailed => "fix_failed",
            Kind::ReadAfterFix => "read_after_fix",
            Kind::Internal => "internal",
        }
    }
}

/// One trouble. `detail` is in words utf8lint did not all choose (an
/// error's text, an attribute's name, a key): it is escaped where printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Trouble {
    pub subject: Subject,
    pub kind: Kind,
    pub detail: String,
}

impl Trouble {
    pub(crate) fn new(subject: Subject, kind: Kind, detail: impl Into<String>) -> Trouble {
        Trouble {
            subject,
            kind,
            detail: detail.into(),
        }
    }

    /// Trouble reading `path`.
    pub(crate) fn io(path: &Path, e: &io::Error) -> Trouble {
        Trouble::new(
            Subject::Path(path.to_owned()),
            Kind::Read { io: Some(e.kind()) },
            describe_io(e),
        )
    }

    /// The path it is about, if any.
    pub(crate) fn path(&self) -> Option<&Path> {
        match &self.subject {
            Subject::Path(p) | Subject::Within(p) => Some(p),
            _ => None,
        }
    }

    /// The sentence, unescaped: `src/a.txt: permission denied (...)`,
    /// `not fixing src/a.txt: ...`.
    pub(crate) fn text(&self) -> String {
        let subject = match &self.subject {
            Subject::Path(p) => display_path(p).0,
            Subject::StandardInput => "standard input".to_owned(),
            Subject::Configuration => "bad configuration".to_owned(),
            Subject::Within(_) | Subject::Unnamed => return self.detail.clone(),
        };
        let detail = &self.detail;
        match self.kind {
            Kind::FixRefused => format!("not fixing {subject}: {detail}"),
            Kind::FixFailed if self.subject == Subject::StandardInput => {
                format!("{subject}: cannot apply its fixes: {detail}")
            }
            Kind::FixFailed => format!("could not fix {subject}: {detail} (the file is unchanged)"),
            Kind::ReadAfterFix => format!("{subject}: fixed, then: {detail}"),
            _ => format!("{subject}: {detail}"),
        }
    }

    /// The line on standard error, escaped (names in it already are, and
    /// escaping is idempotent on them).
    pub(crate) fn stderr_line(&self) -> String {
        format!("utf8lint: error: {}\n", escape_shown(&self.text()))
    }
}

/// Words for an I/O error on a file being checked.
pub(crate) fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "it vanished during the scan (not found)".into(),
        io::ErrorKind::PermissionDenied => format!("permission denied ({e})"),
        _ if e.raw_os_error() == Some(40) && cfg!(target_os = "linux") => {
            format!("symbolic link loop ({e})")
        }
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_names_the_subject_as_each_kind_says() {
        let path = || Subject::Path(PathBuf::from("./src/a\u{202E}.txt"));
        let t = Trouble::new(path(), Kind::FixRefused, "it has ACLs");
        assert_eq!(t.text(), "not fixing src/a\\u{202E}.txt: it has ACLs");
        let t = Trouble::new(path(), Kind::FixFailed, "disk full");
        assert_eq!(
            t.text(),
            "could not fix src/a\\u{202E}.txt: disk full (the file is unchanged)"
        );
        let t = Trouble::new(Subject::StandardInput, Kind::FixFailed, "overlap");
        assert_eq!(t.text(), "standard input: cannot apply its fixes: overlap");
        let t = Trouble::new(
            Subject::Configuration,
            Kind::Config,
            "utf8lint.toml: bad key",
        );
        assert_eq!(t.text(), "bad configuration: utf8lint.toml: bad key");
        assert_eq!(t.path(), None);
        // What utf8lint did not write is escaped on the terminal.
        let t = Trouble::new(path(), Kind::ReadAfterFix, "odd\u{1B}[31m");
        assert_eq!(
            t.stderr_line(),
            "utf8lint: error: src/a\\u{202E}.txt: fixed, then: odd\\u{1B}[31m\n"
        );
        let e = io::Error::from(io::ErrorKind::NotFound);
        let t = Trouble::io(Path::new("gone.txt"), &e);
        assert_eq!(
            t.kind,
            Kind::Read {
                io: Some(io::ErrorKind::NotFound)
            }
        );
        assert_eq!(
            t.text(),
            "gone.txt: it vanished during the scan (not found)"
        );
    }
}
