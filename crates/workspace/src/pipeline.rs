//! One file's journey, written once for both front ends: settings, then
//! exclusion, then the read, then the binary sniff, then the check. Each
//! stage may end it with a [`Skip`] that says why; a file that gets through
//! is [`Checked`], with the settings used and its findings.
//!
//! What is a front end's own stays with it: the CLI's output, baseline,
//! name check and fixes, the language server's open-document text (which
//! never comes from disk) and its mapping of findings onto that text.

use std::path::Path;
use std::sync::Arc;

use utf8lint_config::{ByPath, ConfigError, FileSettings, ResolveCache, Resolver};
use utf8lint_diagnostics::{BinaryEvidence, CheckOptions, Diagnostic, Keep, Sniff, check, sniff};

use utf8lint_read::{FileRead, ReadError, ReadOptions, read_file};

/// How a front end asks for one file to be checked.
#[derive(Clone, Copy, Debug)]
pub struct FileOptions {
    /// Whether `exclude` in a `utf8lint.toml` leaves the file out: for a
    /// file a walk found; for one the user named (a command-line argument,
    /// an open document) only under `--force-exclude`.
    pub honour_exclude: bool,
    /// Whether a file that the sniff calls binary is skipped when its
    /// settings skip binary files (`skip-binary`, `--no-skip-binary`): true
    /// for every file on disk, walked or named; false for bytes that are
    /// not a file's (standard input).
    pub sniff_binary: bool,
    /// What the reader allows (special files, a size limit).
    pub read: ReadOptions,
    /// Which findings the check keeps.
    pub keep: Keep,
}

/// Why a file was not checked.
#[derive(Debug)]
pub enum Skip {
    /// Its configuration could not be read or understood.
    BadConfig(ConfigError),
    /// `exclude` in a `utf8lint.toml` leaves it out; says which, as
    /// `path/to/utf8lint.toml: exclude "glob"`.
    Excluded(String),
    /// It could not be read: not a regular file, too large, changed while
    /// it was read, or an I/O error.
    Unread(ReadError),
    /// It looks binary; its bytes are the caller's `buf[..len]`.
    Binary {
        evidence: BinaryEvidence,
        len: usize,
    },
}

/// A file that went through every stage.
#[derive(Debug)]
pub struct Checked {
    /// The settings the check used.
    pub settings: Arc<FileSettings>,
    /// The read: the bytes are the caller's `buf[..read.len]`, kept for a
    /// front end that renders or fixes them.
    pub read: FileRead,
    /// The findings, as [`FileOptions::keep`] says.
    pub diagnostics: Vec<Diagnostic>,
}

/// A file that was not checked: why, and its settings when they were
/// resolved (a binary file's name is still a name to check).
#[derive(Debug)]
pub struct Skipped {
    pub settings: Option<Arc<FileSettings>>,
    pub why: Skip,
}

/// Checks the file at `path`: its settings through `resolver` (with one
/// thread's `cache`), then exclusion, then its bytes read into `buf` (whose
/// capacity is reused), then the sniff and the check. The one answer is
/// the findings or why there are none; no stage copies the bytes.
pub fn read_and_check(
    path: &Path,
    resolver: &Resolver,
    cache: &mut ResolveCache,
    options: FileOptions,
    buf: &mut Vec<u8>,
) -> Result<Checked, Skipped> {
    let settings = settle(path, resolver, cache, options.honour_exclude)?;
    let read = match read_file(path, buf, options.read) {
        Ok(read) => read,
        Err(e) => return Err(skipped(settings, Skip::Unread(e))),
    };
    match check_bytes(&buf[..read.len], path, &settings, options) {
        Ok(diagnostics) => Ok(Checked {
            settings,
            read,
            diagnostics,
        }),
        // The bytes stay in the caller's buffer, for a front end that
        // still checks a binary file's name.
        Err(evidence) => Err(skipped(
            settings,
            Skip::Binary {
                evidence,
                len: read.len,
            },
        )),
    }
}

fn skipped(settings: Arc<FileSettings>, why: Skip) -> Skipped {
    Skipped {
        settings: Some(settings),
        why,
    }
}

/// The first two stages: the settings for `path`, and whether `exclude`
/// leaves it out (when `honour_exclude`). For bytes that do not come from
/// a file on disk (standard input checked under a name), before
/// [`check_bytes`].
pub fn settle(
    path: &Path,
    resolver: &Resolver,
    cache: &mut ResolveCache,
    honour_exclude: bool,
) -> Result<Arc<FileSettings>, Skipped> {
    let settings = resolver
        .resolve_cached(path, cache, &mut ByPath)
        .map_err(|e| Skipped {
            settings: None,
            why: Skip::BadConfig(e),
        })?;
    if honour_exclude && let Some(why) = &settings.excluded {
        let why = Skip::Excluded(why.clone());
        return Err(skipped(settings, why));
    }
    Ok(settings)
}

/// The last two stages: the binary sniff (when [`FileOptions::sniff_binary`]
/// and the settings skip binary files), then the check of `bytes` as the
/// file at `path` under `settings`.
pub fn check_bytes(
    bytes: &[u8],
    path: &Path,
    settings: &FileSettings,
    options: FileOptions,
) -> Result<Vec<Diagnostic>, BinaryEvidence> {
    let mut check_options = CheckOptions::new(path, &settings.policy).keeping(options.keep);
    if options.sniff_binary && settings.skip_binary {
        match sniff(bytes) {
            Sniff::Binary(evidence) => return Err(evidence),
            Sniff::Text => check_options = check_options.sniffed_as_text(),
            Sniff::Wide(_) => {}
        }
    }
    Ok(check(bytes, check_options))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use utf8lint_config::Overrides;
    use utf8lint_diagnostics::{Rule, shown_per_rule};

    use super::*;
    use utf8lint_read::FileKind;

    const WALKED: FileOptions = FileOptions {
        honour_exclude: true,
        sniff_binary: true,
        read: ReadOptions {
            max_len: Some(1 << 20),
            allow_special: false,
            stamp: false,
        },
        keep: Keep::Shown,
    };

    fn run(resolver: &Resolver, path: &Path, options: FileOptions) -> Result<Checked, Skipped> {
        let mut buf = Vec::new();
        read_and_check(
            path,
            resolver,
            &mut ResolveCache::default(),
            options,
            &mut buf,
        )
    }

    fn resolver() -> Resolver {
        Resolver::new(Overrides {
            trust_all_config: true,
            ..Overrides::default()
        })
        .unwrap()
    }

    /// Each stage's way out, in order, and a file that gets through with
    /// its bytes in the caller's buffer and the settings used.
    #[test]
    fn every_stage_says_why_it_stopped_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir(root.join(".git")).unwrap();
        fs::write(root.join("utf8lint.toml"), "exclude = [\"gen/**\"]\n").unwrap();
        fs::create_dir_all(root.join("gen")).unwrap();
        fs::write(root.join("gen/out.txt"), b"caf\xE9 \xFF\n").unwrap();
        fs::create_dir(root.join("broken")).unwrap();
        fs::write(root.join("broken/utf8lint.toml"), "[lints\n").unwrap();
        fs::write(root.join("broken/a.txt"), b"a\n").unwrap();
        fs::write(root.join("image.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0").unwrap();
        fs::write(root.join("big.txt"), vec![b'a'; 2 << 20]).unwrap();
        fs::write(root.join("bad.txt"), b"ok \xC0\xAE ok\n").unwrap();
        let resolver = resolver();

        let skipped = run(&resolver, &root.join("broken/a.txt"), WALKED).unwrap_err();
        assert!(skipped.settings.is_none());
        assert!(matches!(skipped.why, Skip::BadConfig(_)), "{skipped:?}");

        let skipped = run(&resolver, &root.join("gen/out.txt"), WALKED).unwrap_err();
        match &skipped.why {
            Skip::Excluded(why) => assert!(why.ends_with("exclude \"gen/**\""), "{why}"),
            other => panic!("{other:?}"),
        }
        // Named by the user: checked all the same.
        let named = FileOptions {
            honour_exclude: false,
            ..WALKED
        };
        assert!(
            !run(&resolver, &root.join("gen/out.txt"), named)
                .unwrap()
                .diagnostics
                .is_empty()
        );

        let skipped = run(&resolver, &root.join("image.png"), WALKED).unwrap_err();
        assert!(skipped.settings.is_some());
        assert!(matches!(skipped.why, Skip::Binary { .. }), "{skipped:?}");
        let unsniffed = FileOptions {
            sniff_binary: false,
            ..WALKED
        };
        assert!(run(&resolver, &root.join("image.png"), unsniffed).is_ok());

        let skipped = run(&resolver, &root.join("big.txt"), WALKED).unwrap_err();
        assert!(
            matches!(skipped.why, Skip::Unread(ReadError::TooLarge { .. })),
            "{skipped:?}"
        );
        let skipped = run(&resolver, &root.join("gone.txt"), WALKED).unwrap_err();
        assert!(
            matches!(&skipped.why, Skip::Unread(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound),
            "{skipped:?}"
        );
        let skipped = run(&resolver, root, WALKED).unwrap_err();
        assert!(
            matches!(
                skipped.why,
                Skip::Unread(ReadError::NotRegular(FileKind::Directory))
            ),
            "{skipped:?}"
        );

        let mut buf = Vec::new();
        let checked = read_and_check(
            &root.join("bad.txt"),
            &resolver,
            &mut ResolveCache::default(),
            WALKED,
            &mut buf,
        )
        .unwrap();
        assert_eq!(&buf[..checked.read.len], b"ok \xC0\xAE ok\n");
        assert_eq!(checked.read.kind, FileKind::Regular);
        assert_eq!(
            checked.settings.config_file.as_deref(),
            Some(root.join("utf8lint.toml").as_path())
        );
        assert!(
            checked
                .diagnostics
                .iter()
                .any(|d| d.rule == Rule::InvalidUtf8 && d.span == (3..5)),
            "{:?}",
            checked.diagnostics
        );
    }

    /// `keep` reaches the check: a report's cap, or every finding for a fix.
    #[test]
    fn keep_says_whether_the_cap_applies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("many.txt");
        // `max-per-file = 0`: only the absolute ceiling caps a report.
        let ceiling = shown_per_rule(0);
        let mut text = Vec::new();
        for _ in 0..ceiling + 10 {
            text.extend_from_slice("a\u{FEFF}b\n".as_bytes());
        }
        fs::write(&path, &text).unwrap();
        let resolver = Resolver::new(Overrides {
            max_per_rule: Some(0),
            trust_all_config: true,
            ..Overrides::default()
        })
        .unwrap();
        let count = |keep| {
            let options = FileOptions { keep, ..WALKED };
            run(&resolver, &path, options)
                .unwrap()
                .diagnostics
                .iter()
                .filter(|d| d.rule == Rule::StrayFeff)
                .count()
        };
        assert_eq!(count(Keep::Every), ceiling + 10);
        // The ceiling, then one summary of the rest.
        assert_eq!(count(Keep::Shown), ceiling + 1);
    }

    /// Bytes that do not come from disk go through the same first and last
    /// stages.
    #[test]
    fn settle_and_check_bytes_are_the_pipeline_without_the_read() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("utf8lint.toml"), "exclude = [\"*.gen\"]\n").unwrap();
        fs::create_dir(dir.path().join(".git")).unwrap();
        let resolver = resolver();
        let mut cache = ResolveCache::default();
        let named = dir.path().join("x.gen");
        let skipped = settle(&named, &resolver, &mut cache, true).unwrap_err();
        assert!(matches!(skipped.why, Skip::Excluded(_)));
        let settings = settle(&named, &resolver, &mut cache, false).unwrap();
        let found = check_bytes(b"\xEF\xBB\xBFa\xFF", &named, &settings, WALKED).unwrap();
        assert!(found.iter().any(|d| d.rule == Rule::InvalidUtf8));
        assert!(check_bytes(b"\0\0\0\x01\x02", &named, &settings, WALKED).is_err());
    }
}
