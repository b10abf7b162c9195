//! utf8lint's configuration. Finds and reads `utf8lint.toml` (nearest one
//! walking up from a file) and `.editorconfig` (every one up to `root =
//! true`), and resolves the [`Policy`] for a file:
//!
//! command-line flags / editor settings ([`Overrides`]) over `utf8lint.toml`
//! over `.editorconfig` over utf8lint's built-in knowledge of formats.
//!
//! It reads only configuration files, once per directory (the [`Resolver`]
//! caches them); inputs are read by `utf8lint-workspace`, whose per-file
//! pipeline asks this crate for each file's settings (why the two stay
//! separate crates: `docs/configuration.md`, "Where this lives in the
//! code").
//!
//! A configuration file is read as an input is ([`read_config_file`],
//! through `utf8lint-read`): a regular file only (a FIFO, device or socket is refused, also behind a
//! symbolic link, and opened non-blocking in case one is swapped in), at
//! most [`MAX_CONFIG_BYTES`]; a glob that does not compile (400 nested
//! braces exceed the regex parser's nesting) is an error naming the file
//! and the line, in the CLI and the server alike.
//!
//! Cost: reading a configuration is linear in its size (key lines found
//! through a line index, each glob compiled once, globs of literal text,
//! `*` and `**` matched without a regular expression, an `.editorconfig`'s
//! other globs kept as text and matched as EditorConfig's translation reads
//! them, only its `charset` sections kept; the
//! memory bounds are in ARCHITECTURE.md, counted by `tests/hostile.rs`); a directory's chain
//! adds one shared link per configuration file, built in a loop from the
//! nearest known ancestor (no recursion on a path's depth, and no copy of
//! the chain above); resolving a file walks the links that apply to it.
//! So a tree costs time linear in its configuration plus the sum of its
//! paths' lengths, and memory linear in its configuration files
//! (`scripts/bench-config` and `scripts/bench-cost --doubling` double them).

mod ec_glob;
mod ec_match;
mod editorconfig;
mod error;
mod glob;
mod glob_list;
mod owner;
mod settings;
mod toml_file;
mod toml_keys;
mod toml_list;
mod toml_reader;
mod toml_scalar;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

pub use editorconfig::{CharsetSetting, EditorConfigFile};
pub use error::ConfigError;
use error::shorten;
pub use glob_list::{GlobList, GlobTexts};
pub use settings::{Settings, parse_editor_json};
pub use toml_file::{BomEntry, CONFIG_FILE_NAME, ConfigFile, PerFileEntry, parse_config};
pub use toml_reader::parse_toml;
use utf8lint_diagnostics::{BomPolicy, BomRule, Charset, Level, Policy, PolicySource, Rule};

/// What the command line (or an editor's settings) says, over everything
/// the configuration files say.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Lint levels, in order: the last one for a rule wins (rustc's
    /// `-A`/`-W`/`-D`).
    pub levels: Vec<(Rule, Level)>,
    /// The per-file, per-rule cap (0 = none).
    pub max_per_rule: Option<usize>,
    /// BOM policy per glob, last match wins; globs without `/` match a file
    /// name anywhere, others a path relative to [`Overrides::base_dir`].
    pub bom: Vec<(String, BomPolicy)>,
    /// Lint levels per glob (an editor's `per-file-lints`), applied after
    /// `levels`, anchored as `bom` globs are.
    pub per_file_levels: Vec<(String, Vec<(Rule, Level)>)>,
    /// Where `bom` globs with a `/` are anchored (the workspace root); the
    /// current directory when `None`.
    pub base_dir: Option<PathBuf>,
    /// Skip binary files (default true).
    pub skip_binary: Option<bool>,
    /// How the overrides were given, for messages (`-D stray_feff`, "VS Code settings").
    pub origin: Option<String>,
    /// Apply configuration files that are not trusted by default (see
    /// [`Resolver`]): a `utf8lint.toml` above the repository root, and
    /// configuration files owned by another user (`--trust-config`).
    pub trust_all_config: bool,
    /// Which configuration files are read at all.
    pub source: ConfigSource,
}

/// Which configuration files a [`Resolver`] reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ConfigSource {
    /// `utf8lint.toml` files found walking up from each file (nested ones
    /// extending their parent), and `.editorconfig` files.
    #[default]
    Discover,
    /// `--config FILE`: this file, as a `utf8lint.toml`, for every file
    /// checked (its globs relative to its own directory); no `utf8lint.toml`
    /// is looked for. `.editorconfig` files still apply: they declare the
    /// files' encodings, which `--config` does not replace.
    File(PathBuf),
    /// `--isolated`: no configuration file at all, neither `utf8lint.toml`
    /// nor `.editorconfig`; only built-in knowledge and the overrides.
    Isolated,
}

/// Everything that applies to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSettings {
    /// What the rules check.
    pub policy: Policy,
    /// Whether binary files are skipped.
    pub skip_binary: bool,
    /// The `utf8lint.toml` in force, if any.
    pub config_file: Option<PathBuf>,
    /// Why the file is excluded (`exclude` in a `utf8lint.toml`), as
    /// `path/to/utf8lint.toml: exclude "glob"`; `None` when it is not.
    pub excluded: Option<String>,
}

/// The configuration files that apply to one directory.
///
/// Each list is a chain of links shared with the parent directory's (a
/// directory adds at most one link to each), so a tree of nested
/// configuration files costs memory linear in their number, not in the sum
/// of their depths.
#[derive(Debug, Default)]
struct DirChain {
    /// The `utf8lint.toml` files that apply, each with its directory: the
    /// nearest first, and none above one that says `root = true` or above
    /// the repository root.
    tomls: Option<Arc<Link<ConfigFile>>>,
    /// The `.editorconfig` files that say something of `charset`, nearest
    /// first, up to and including a root one (the others cannot change a
    /// file's settings: they are left out).
    editorconfigs: Option<Arc<Link<EditorConfigFile>>>,
    /// No glob of these files looks at a file's name: every file of the
    /// directory gets the same settings (unless the overrides have globs).
    per_directory: bool,
}

/// One configuration file of a [`DirChain`], and the ones above it.
#[derive(Debug)]
struct Link<T> {
    /// The file's directory.
    dir: PathBuf,
    file: Arc<T>,
    /// Its directory is an ancestor of (or is) every directory whose chain
    /// holds this link: a file's path relative to it is the file's path
    /// after `dir` (not so for `--config FILE` elsewhere).
    above: bool,
    /// Whether this file or one further up has globs that look at a
    /// file's name.
    per_file_globs: bool,
    next: Option<Arc<Link<T>>>,
}

impl<T> Link<T> {
    /// The links from this one up, nearest first.
    fn iter(&self) -> impl Iterator<Item = &Link<T>> {
        std::iter::successors(Some(self), |link| link.next.as_deref())
    }
}

impl<T> Drop for Link<T> {
    /// Unlinks the chain above one at a time: dropped link by link in
    /// recursion, a chain of 3,000 nested directories would overflow the
    /// stack.
    fn drop(&mut self) {
        let mut next = self.next.take();
        while let Some(link) = next {
            match Arc::try_unwrap(link) {
                Ok(mut link) => next = link.next.take(),
                Err(_) => break,
            }
        }
    }
}

/// The links of `head` and up, root-most first.
fn root_first<T>(head: &Option<Arc<Link<T>>>) -> Vec<&Link<T>> {
    let mut links: Vec<&Link<T>> = head.iter().flat_map(|link| link.iter()).collect();
    links.reverse();
    links
}

/// `absolute` relative to `dir`, the directory of a configuration file
/// that applies to it. For an ancestor (`above`), the bytes after
/// `dir`'s, taken without comparing: a path 3,000 directories deep would
/// otherwise cost a comparison of 3,000 components per configuration
/// file above it.
fn relative_to<'a>(absolute: &'a Path, dir: &Path, above: bool) -> &'a Path {
    #[cfg(unix)]
    if above {
        use std::os::unix::ffi::OsStrExt;
        let (path, dir) = (absolute.as_os_str().as_bytes(), dir.as_os_str().as_bytes());
        let skip = if dir.ends_with(b"/") {
            dir.len()
        } else {
            dir.len() + 1
        };
        if path.len() >= skip && (dir.ends_with(b"/") || path[dir.len()] == b'/') {
            return Path::new(std::ffi::OsStr::from_bytes(&path[skip..]));
        }
    }
    let _ = above;
    absolute.strip_prefix(dir).unwrap_or(absolute)
}

/// Reads configuration files for a [`Resolver`].
///
/// A scan asks about every directory it enters, and the files are nearly
/// never there. [`ByPath`], which the CLI and the language server use,
/// looks up the whole path each time, with a stat first (cheaper than an
/// open when there is nothing); tests read from memory.
pub trait ConfigReader {
    /// The bytes of the file `name` in `dir`; `None` if there is none.
    fn read_config(&mut self, dir: &Path, name: &str) -> std::io::Result<Option<Vec<u8>>>;
}

/// Reads configuration files by their paths.
#[derive(Clone, Copy, Debug, Default)]
pub struct ByPath;

impl ConfigReader for ByPath {
    fn read_config(&mut self, dir: &Path, name: &str) -> std::io::Result<Option<Vec<u8>>> {
        read_config_file(&dir.join(name))
    }
}

/// The largest configuration file read: a `utf8lint.toml` of 100,000
/// `[per-file-lints]` entries is about 5 MiB.
pub const MAX_CONFIG_BYTES: u64 = 16 << 20;

/// Reads the configuration file at `path` as an input is read
/// (`utf8lint_read::read_file`): only a regular file (a symbolic link to
/// one is followed, one to a FIFO, a device or a socket is refused: reading
/// those could block forever or never end), at most [`MAX_CONFIG_BYTES`].
/// `None` when there is no such file, or a directory by that name.
pub fn read_config_file(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::{Error, ErrorKind};
    use utf8lint_read::{FileKind, ReadError, ReadOptions, read_file};
    // Nearly every directory has neither file, and a stat that finds
    // nothing costs less than an open that finds nothing (1.4 against
    // 2.0 us for the mixed tree's directories, which a scan asks twice
    // each).
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Ok(None),
        Ok(_) => {}
        Err(e) if cannot_exist(&e) => return Ok(None),
        Err(e) => return Err(e),
    }
    // With the stamp, the file's size is known before it is read: the
    // buffer is the file's size, not a scan's first read.
    let options = ReadOptions {
        max_len: Some(MAX_CONFIG_BYTES),
        allow_special: false,
        stamp: true,
    };
    let mut bytes = Vec::new();
    match read_file(path, &mut bytes, options) {
        Ok(read) => {
            bytes.truncate(read.len);
            Ok(Some(bytes))
        }
        // Made a directory between the stat and the open.
        Err(ReadError::NotRegular(FileKind::Directory)) => Ok(None),
        Err(ReadError::Io(e)) if cannot_exist(&e) => Ok(None),
        Err(ReadError::Io(e)) => Err(e),
        Err(e @ ReadError::NotRegular(_)) => Err(Error::new(
            ErrorKind::InvalidInput,
            format!("{e}; a configuration file must be a regular file"),
        )),
        Err(ReadError::TooLarge { .. }) => Err(Error::new(
            ErrorKind::FileTooLarge,
            format!(
                "larger than the {} MiB a configuration file may have",
                MAX_CONFIG_BYTES >> 20
            ),
        )),
        Err(e @ ReadError::Changed { .. }) => Err(Error::other(e.to_string())),
    }
}

/// Whether `e` says there is no file at the path: none by that name, a
/// directory on the way that is a file, or a path too long to name one
/// (an editor may open a path of thousands of components that is nowhere).
fn cannot_exist(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        e.kind(),
        ErrorKind::NotFound | ErrorKind::NotADirectory | ErrorKind::InvalidFilename
    )
}

/// Resolves [`FileSettings`] for files, reading each directory's
/// configuration once. Shared by all the walker's threads.
///
/// What it trusts (a repository may be checked in a shared temporary
/// directory, a CI workspace, a clone opened in an editor: nothing outside
/// it may turn its rules off). Unless [`Overrides::trust_all_config`]:
/// * `utf8lint.toml` is looked for up to the repository root (the nearest
///   directory holding `.git`), as git and ruff stop there; one above it
///   is ignored.
/// * A configuration file (`utf8lint.toml`, `.editorconfig`) owned by a
///   user other than the one running utf8lint or root is ignored, as git
///   refuses a repository of "dubious ownership".
///
/// Each ignored file is noted once ([`Resolver::take_notes`]).
#[derive(Debug)]
pub struct Resolver {
    overrides: Overrides,
    override_globs: Vec<(glob::PathGlob, BomPolicy, String)>,
    /// [`Overrides::per_file_levels`], compiled.
    override_levels: Vec<(glob::PathGlob, Vec<(Rule, Level)>)>,
    cwd: PathBuf,
    /// [`ConfigSource::File`], read and parsed once, with its directory
    /// (or why it could not be: only a lenient resolver is built with it).
    explicit: Option<Result<(PathBuf, Arc<ConfigFile>), ConfigError>>,
    /// Broken configuration gives fallback settings, not an error
    /// ([`Resolver::lenient`]).
    lenient: bool,
    /// Keyed by the directory's bytes: hashing a `Path` parses its
    /// components, which costs more than the rest of a lookup.
    chains: RwLock<HashMap<std::ffi::OsString, ChainResult>>,
    /// Bumped by [`Resolver::clear_cache`]: a [`ResolveCache`] from an
    /// earlier generation is stale.
    generation: AtomicU64,
    /// Configuration files ignored as untrusted, each with why, in the
    /// order found; drained by [`Resolver::take_notes`].
    /// With the set of their paths: a file is noted once, and a tree may
    /// give thousands (an unknown `charset` in every directory).
    ignored: Mutex<Ignored>,
}

/// Configuration files ignored, each with why (emptied once noted), in the
/// order found, and the set of their paths.
type Ignored = (Vec<(PathBuf, String)>, std::collections::HashSet<PathBuf>);

/// A directory's configuration, or why it could not be read.
type ChainResult = Result<Arc<DirChain>, ConfigError>;

/// One thread's memory of the directories it last resolved files in.
///
/// Looking every file up in the resolver's shared map writes its lock and
/// the chain's reference count, cache lines that then move between cores on
/// every file: on a two-core scan of 78,000 files that cost more than the
/// rest of the lookup. The walk hands a thread the files of one directory
/// one after another, interleaved with its subdirectories, so a few
/// directories per thread take nearly every lookup.
///
/// Where no glob looks at file names (the common case: no `[bom]` or
/// `[per-file-lints]`, `charset` only under `[*]`), a directory's settings
/// are worked out for its first file and shared by the rest: resolving
/// every file (the `[*]` match, the strings of the policy's source) cost
/// 4% of a whole-tree scan's CPU.
#[derive(Debug, Default)]
pub struct ResolveCache {
    generation: u64,
    /// Most recently used first.
    dirs: Vec<CachedDir>,
}

#[derive(Debug)]
struct CachedDir {
    /// The directory's bytes as the paths spelt them (not made absolute).
    dir: Vec<u8>,
    chain: ChainResult,
    /// The settings of every file in it, once known, when they do not
    /// depend on the file's name.
    settings: Option<Arc<FileSettings>>,
}

/// How many directories a [`ResolveCache`] holds.
const RESOLVE_CACHE: usize = 8;

/// The bytes of `path` before its last `/`, the [`ResolveCache`]'s key:
/// two paths whose last component is a plain name and whose bytes before it
/// are the same are in the same directory, found without parsing
/// components. `None` when the last component is not a plain name (a
/// trailing `/`, `.`, `..`) or what comes before is the root or ends in `/`.
#[cfg(unix)]
fn fast_parent(path: &Path) -> Option<&[u8]> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let slash = bytes.iter().rposition(|&b| b == b'/')?;
    let (dir, name) = (&bytes[..slash], &bytes[slash + 1..]);
    if dir.is_empty() || dir.ends_with(b"/") || name.is_empty() || name == b"." || name == b".." {
        return None;
    }
    Some(dir)
}

#[cfg(not(unix))]
fn fast_parent(_path: &Path) -> Option<&[u8]> {
    None
}

impl Resolver {
    /// A resolver applying `overrides` over what it finds on disk. Fails on
    /// an override glob that does not parse, and on a
    /// [`ConfigSource::File`] that cannot be read or is not valid; a file
    /// whose configuration is broken is an error of
    /// [`Resolver::resolve_cached`] (the CLI reports it and skips the file).
    pub fn new(overrides: Overrides) -> Result<Resolver, ConfigError> {
        let (resolver, mut problems) = Resolver::build(overrides, false);
        if !problems.is_empty() {
            return Err(problems.swap_remove(0));
        }
        if let Some(Err(e)) = &resolver.explicit {
            return Err(e.clone());
        }
        Ok(resolver)
    }

    /// A resolver that always answers, for a front end with nobody to
    /// stop for an error (the language server). An override glob that does
    /// not parse is left out, the rest applies; a file whose configuration
    /// is broken (or whose [`ConfigSource::File`] cannot be read) gets the
    /// fallback settings: built-in knowledge and the overrides alone, as
    /// [`ConfigSource::Isolated`] gives. Each problem is noted once
    /// ([`Resolver::take_notes`]).
    pub fn lenient(overrides: Overrides) -> Resolver {
        let (resolver, problems) = Resolver::build(overrides, true);
        for problem in &problems {
            resolver.note_error(problem, "left out; the other settings apply");
        }
        resolver
    }

    /// A resolver for `overrides`, with the override globs that do not
    /// compile left out and returned.
    fn build(overrides: Overrides, lenient: bool) -> (Resolver, Vec<ConfigError>) {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut problems = Vec::new();
        let mut compile = |table: &str, glob: &str| match glob::PathGlob::new(glob) {
            Ok(glob) => Some(glob),
            Err(e) => {
                problems.push(ConfigError {
                    path: PathBuf::from(
                        overrides
                            .origin
                            .clone()
                            .unwrap_or_else(|| "settings".into()),
                    ),
                    line: None,
                    key: Some(format!("{table}.\"{}\"", shorten(glob))),
                    message: format!("not a valid glob: {e}"),
                });
                None
            }
        };
        let mut override_globs = Vec::new();
        for (glob, policy) in &overrides.bom {
            if let Some(matcher) = compile("bom", glob) {
                override_globs.push((matcher, *policy, glob.clone()));
            }
        }
        let mut override_levels = Vec::new();
        for (glob, levels) in &overrides.per_file_levels {
            if let Some(matcher) = compile("per-file-lints", glob) {
                override_levels.push((matcher, levels.clone()));
            }
        }
        let explicit = match &overrides.source {
            ConfigSource::File(file) => Some(read_explicit(&cwd, file)),
            _ => None,
        };
        let resolver = Resolver {
            overrides,
            override_globs,
            override_levels,
            cwd,
            explicit,
            lenient,
            chains: RwLock::new(HashMap::new()),
            generation: AtomicU64::new(0),
            ignored: Mutex::new(Default::default()),
        };
        (resolver, problems)
    }

    /// Notes `error` once, with what became of it.
    fn note_error(&self, error: &ConfigError, outcome: &str) {
        let mut at = error.path.clone().into_os_string();
        if let Some(line) = error.line {
            at.push(format!(":{line}"));
        }
        let key = error
            .key
            .as_deref()
            .map(|key| format!("{}: ", shorten(key)))
            .unwrap_or_default();
        self.ignore(
            PathBuf::from(at),
            format!("{key}{}; {outcome}", error.message),
        );
    }

    /// The fallback settings for the file at `path`: built-in knowledge
    /// and the overrides, as if there were no configuration file.
    pub fn fallback(&self, path: &Path) -> FileSettings {
        self.settings_in(path, &DirChain::default())
    }

    /// Messages for the configuration files ignored since the last call
    /// (each file once per resolver): "ignored /tmp/utf8lint.toml: ...".
    pub fn take_notes(&self) -> Vec<String> {
        let Ok(mut ignored) = self.ignored.lock() else {
            return Vec::new();
        };
        ignored
            .0
            .iter_mut()
            .filter(|(_, why)| !why.is_empty())
            .map(|(path, why)| {
                let note = format!("ignored {}: {why}", path.display());
                // Keep the path (so it is not noted again), drop the text.
                why.clear();
                note
            })
            .collect()
    }

    /// Records that `path` was ignored, once.
    fn ignore(&self, path: PathBuf, why: String) {
        if let Ok(mut ignored) = self.ignored.lock()
            && ignored.1.insert(path.clone())
        {
            ignored.0.push((path, why));
        }
    }

    /// Whether the configuration file `name` in `dir` may be applied: it
    /// is, unless it belongs to another user (not this process's, not
    /// root's) and nothing said to trust it.
    fn trusted_owner(&self, dir: &Path, name: &str) -> bool {
        if self.overrides.trust_all_config {
            return true;
        }
        let path = dir.join(name);
        match owner::foreign_owner(&path) {
            None => true,
            Some(uid) => {
                self.ignore(
                    path,
                    format!(
                        "it belongs to another user (uid {uid}); pass --trust-config to apply it"
                    ),
                );
                false
            }
        }
    }

    /// Forgets every configuration file read so far (they changed on disk).
    pub fn clear_cache(&self) {
        if let Ok(mut chains) = self.chains.write() {
            chains.clear();
        }
        // Every thread's ResolveCache is stale now.
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// The settings for the file at `path` (which need not exist: standard
    /// input checked as `--stdin-filename`, an unsaved editor buffer).
    pub fn resolve(&self, path: &Path) -> Result<FileSettings, ConfigError> {
        self.resolve_cached(path, &mut ResolveCache::default(), &mut ByPath)
            .map(Arc::unwrap_or_clone)
    }

    /// [`Resolver::resolve`] for one of many files resolved on one thread:
    /// `cache` remembers the last few directories, so a file in one of them
    /// touches nothing shared. A directory not seen before has its
    /// configuration files read through `reader`. Files of a directory
    /// whose settings do not depend on the name share one [`FileSettings`].
    /// A lenient resolver ([`Resolver::lenient`]) never fails: it notes
    /// the error and gives the [`Resolver::fallback`] settings.
    pub fn resolve_cached(
        &self,
        path: &Path,
        cache: &mut ResolveCache,
        reader: &mut dyn ConfigReader,
    ) -> Result<Arc<FileSettings>, ConfigError> {
        match self.resolve_through(path, cache, reader) {
            Err(error) if self.lenient => {
                let outcome = match &self.overrides.origin {
                    Some(origin) => format!(
                        "the files it governs get the built-in rules and the {origin} alone"
                    ),
                    None => "the files it governs get the built-in rules alone".to_owned(),
                };
                self.note_error(&error, &outcome);
                Ok(Arc::new(self.fallback(path)))
            }
            resolved => resolved,
        }
    }

    /// [`Resolver::resolve_cached`], an error as it is.
    fn resolve_through(
        &self,
        path: &Path,
        cache: &mut ResolveCache,
        reader: &mut dyn ConfigReader,
    ) -> Result<Arc<FileSettings>, ConfigError> {
        let generation = self.generation.load(Ordering::Acquire);
        if cache.generation != generation {
            cache.dirs.clear();
            cache.generation = generation;
        }
        let dir_bytes = fast_parent(path);
        let found = dir_bytes.and_then(|dir| cache.dirs.iter().position(|d| d.dir == dir));
        match found {
            // Most recently used first: the walk comes back to a parent
            // directory after each of its subdirectories.
            Some(i) => cache.dirs[..=i].rotate_right(1),
            None => {
                let absolute = self.absolute(path);
                let dir = absolute.parent().unwrap_or(Path::new(""));
                let chain = self.chain(dir, reader);
                let Some(dir_bytes) = dir_bytes else {
                    return chain.map(|chain| Arc::new(self.settings_in(path, &chain)));
                };
                if cache.dirs.len() == RESOLVE_CACHE {
                    cache.dirs.pop();
                }
                cache.dirs.insert(
                    0,
                    CachedDir {
                        dir: dir_bytes.to_vec(),
                        chain,
                        settings: None,
                    },
                );
            }
        }
        let cached = &mut cache.dirs[0];
        if let Some(settings) = &cached.settings {
            return Ok(settings.clone());
        }
        match &cached.chain {
            Ok(chain) => {
                let settings = Arc::new(self.settings_in(path, chain));
                if chain.per_directory
                    && self.override_globs.is_empty()
                    && self.override_levels.is_empty()
                {
                    cached.settings = Some(settings.clone());
                }
                Ok(settings)
            }
            Err(error) => Err(error.clone()),
        }
    }

    /// `path` made absolute against the working directory of
    /// [`Resolver::new`].
    /// Without `.` and `..` components: globs are matched against the
    /// path's text after the configuration file's directory, and the walk
    /// of `.` gives `./a/b`, which `a/*` would not match.
    fn absolute(&self, path: &Path) -> PathBuf {
        lexical(&self.cwd.join(path))
    }

    /// The settings for `path`, whose directory's configuration is `chain`.
    fn settings_in(&self, path: &Path, chain: &DirChain) -> FileSettings {
        // The absolute path is needed only to match globs; most files have
        // none to match, and joining a relative path allocates.
        let absolute_cell = std::cell::OnceCell::new();
        let absolute = || -> &Path { absolute_cell.get_or_init(|| self.absolute(path)) };
        let mut policy = Policy::default();
        let mut skip_binary = true;

        // .editorconfig: the root-most file first, so nearer ones win.
        // Asked nearest first: the first that sets it wins.
        let charset = chain
            .editorconfigs
            .iter()
            .flat_map(|l| l.iter())
            .find_map(|link| {
                link.file
                    .charset_for(relative_to(absolute(), &link.dir, link.above))
            });
        if let Some(setting) = charset {
            let source = PolicySource::EditorConfig {
                path: setting.path.to_path_buf(),
                section: setting.section.to_owned(),
                line: setting.line,
                value: setting.value.to_owned(),
            };
            match setting.value {
                "utf-8" => {
                    policy.bom = Some(BomRule {
                        policy: BomPolicy::Forbid,
                        source,
                    })
                }
                "utf-8-bom" => {
                    policy.bom = Some(BomRule {
                        policy: BomPolicy::Require,
                        source,
                    })
                }
                "latin1" | "utf-16le" | "utf-16be" => {
                    policy.charset = Charset::Other {
                        name: setting.value.to_owned(),
                        source,
                    }
                }
                other => {
                    // The specification says to ignore unknown values; a
                    // user who wrote `shift_jis` should hear that it was
                    // (the value and the section quoted, cut short).
                    self.ignore(
                        PathBuf::from(format!("{}:{}", setting.path.display(), setting.line)),
                        format!(
                            "`charset = {}` in section `{}` is not a value EditorConfig defines (latin1, utf-8, utf-8-bom, utf-16be, utf-16le), so it declares nothing; EditorConfig cannot declare other encodings",
                            shorten(other),
                            shorten(setting.section)
                        ),
                    );
                }
            }
        }

        // utf8lint.toml files, the root-most first, so nearer ones win;
        // each file's globs are relative to its own directory.
        let tomls = root_first(&chain.tomls);
        for link in &tomls {
            let config = &link.file;
            let relative = relative_to(absolute(), &link.dir, link.above);
            for (rule, level, _) in &config.lints {
                policy.levels.set(*rule, *level);
            }
            for entry in config.per_file.iter().filter(|e| e.matches(relative)) {
                for (rule, level) in &entry.levels {
                    policy.levels.set(*rule, *level);
                }
            }
            if let Some((max, _)) = config.max_per_rule {
                policy.max_per_rule = max;
            }
            if let Some(skip) = config.skip_binary {
                skip_binary = skip;
            }
            if config.instructs(relative) {
                policy.agent_instructions = true;
            }
            if let Some(entry) = config.bom.iter().rev().find(|e| e.matches(relative)) {
                policy.bom = Some(BomRule {
                    policy: entry.policy,
                    source: PolicySource::Config {
                        path: config.path.clone(),
                        line: entry.line(),
                        key: entry.glob().to_owned(),
                    },
                });
            }
        }

        // The command line or the editor's settings.
        for (rule, level) in &self.overrides.levels {
            policy.levels.set(*rule, *level);
        }
        let base = self.overrides.base_dir.as_deref().unwrap_or(&self.cwd);
        if !self.override_levels.is_empty() {
            let relative = absolute().strip_prefix(base).unwrap_or(absolute());
            for (matcher, levels) in &self.override_levels {
                if matcher.matches(relative) {
                    for (rule, level) in levels {
                        policy.levels.set(*rule, *level);
                    }
                }
            }
        }
        if let Some(max) = self.overrides.max_per_rule {
            policy.max_per_rule = max;
        }
        if let Some(skip) = self.overrides.skip_binary {
            skip_binary = skip;
        }
        if let Some((_, bom, glob)) = (!self.override_globs.is_empty())
            .then(|| absolute().strip_prefix(base).unwrap_or(absolute()))
            .and_then(|relative| {
                self.override_globs
                    .iter()
                    .rev()
                    .find(|(m, _, _)| m.matches(relative))
            })
        {
            policy.bom = Some(BomRule {
                policy: *bom,
                source: PolicySource::CommandLine {
                    flag: match &self.overrides.origin {
                        Some(origin) => format!("{origin}: bom \"{glob}\""),
                        None => format!("bom \"{glob}\""),
                    },
                },
            });
        }
        let excluded = tomls.iter().find_map(|link| {
            let config = &link.file;
            if config.exclude.is_empty() {
                return None;
            }
            let relative = if link.above {
                relative_to(absolute(), &link.dir, true)
            } else {
                absolute().strip_prefix(&link.dir).ok()?
            };
            let glob = config.excludes(relative)?;
            Some(format!("{}: exclude \"{glob}\"", config.path.display()))
        });
        FileSettings {
            policy,
            skip_binary,
            config_file: chain.tomls.as_ref().map(|link| link.file.path.clone()),
            excluded,
        }
    }

    /// The configuration of `dir`: from the cache, or built from the
    /// nearest cached ancestor down, one directory at a time (a loop, not
    /// a recursion: a client may name a path thousands of directories
    /// deep).
    fn chain(&self, dir: &Path, reader: &mut dyn ConfigReader) -> ChainResult {
        if self.overrides.source == ConfigSource::Isolated {
            return Ok(Arc::new(DirChain {
                per_directory: true,
                ..DirChain::default()
            }));
        }
        let cached = |dir: &Path| {
            self.chains
                .read()
                .ok()
                .and_then(|c| c.get(dir.as_os_str()).cloned())
        };
        if let Some(found) = cached(dir) {
            return found;
        }
        // The directories to build, nearest first, and the configuration
        // of the nearest one above them that is known (`None`: the root).
        let mut missing = vec![dir];
        let mut above: Option<ChainResult> = None;
        let mut at = dir;
        while let Some(up) = at.parent().filter(|up| *up != at) {
            if let Some(found) = cached(up) {
                above = Some(found);
                break;
            }
            missing.push(up);
            at = up;
        }
        for &dir in missing.iter().rev() {
            // A directory under one whose configuration is broken shares
            // its error, as its files would be resolved through it.
            let built = match &above {
                Some(Err(e)) => Err(e.clone()),
                Some(Ok(parent)) => self.build_chain(dir, reader, Some(parent)),
                None => self.build_chain(dir, reader, None),
            };
            if let Ok(mut chains) = self.chains.write() {
                chains.insert(dir.as_os_str().to_owned(), built.clone());
            }
            above = Some(built);
        }
        above.unwrap_or_else(|| unreachable!("`missing` holds `dir`"))
    }

    /// The configuration of `dir`, whose parent's is `parent`.
    fn build_chain(
        &self,
        dir: &Path,
        reader: &mut dyn ConfigReader,
        parent: Option<&DirChain>,
    ) -> ChainResult {
        let mut chain = DirChain::default();
        if let Some(explicit) = &self.explicit {
            let (explicit_dir, config) = explicit.as_ref().map_err(Clone::clone)?;
            // `--config`: the named file replaces discovery; .editorconfig
            // files are still read.
            chain.tomls = Some(Arc::new(Link {
                dir: explicit_dir.clone(),
                per_file_globs: has_name_globs(config),
                file: config.clone(),
                above: false,
                next: None,
            }));
        } else {
            self.discover_toml(dir, reader, parent, &mut chain)?;
        }
        let own_ec = read_optional(reader, dir, ".editorconfig")?
            .filter(|_| self.trusted_owner(dir, ".editorconfig"))
            .map(|text| EditorConfigFile::parse(&text, &dir.join(".editorconfig")))
            .transpose()?;
        let inherited = parent.and_then(|p| p.editorconfigs.clone());
        chain.editorconfigs = match own_ec {
            // A root file ends the chain; one that says nothing of
            // `charset` changes nothing and is left out.
            Some(ec) if ec.says_charset() => {
                let next = if ec.is_root { None } else { inherited };
                Some(Arc::new(Link {
                    dir: dir.to_path_buf(),
                    per_file_globs: !ec.charset_is_per_directory()
                        || next.as_ref().is_some_and(|n| n.per_file_globs),
                    file: Arc::new(ec),
                    above: true,
                    next,
                }))
            }
            Some(ec) if ec.is_root => None,
            _ => inherited,
        };
        chain.per_directory = !chain.tomls.as_ref().is_some_and(|l| l.per_file_globs)
            && !chain
                .editorconfigs
                .as_ref()
                .is_some_and(|l| l.per_file_globs);
        Ok(Arc::new(chain))
    }

    /// The `utf8lint.toml` files for `dir`: its own, before its parent's
    /// (`parent`) unless it says `root = true` or `dir` is a repository's
    /// root.
    fn discover_toml(
        &self,
        dir: &Path,
        reader: &mut dyn ConfigReader,
        parent: Option<&DirChain>,
        chain: &mut DirChain,
    ) -> Result<(), ConfigError> {
        let own_toml = read_optional(reader, dir, CONFIG_FILE_NAME)?
            .filter(|_| self.trusted_owner(dir, CONFIG_FILE_NAME))
            .map(|text| parse_config(&text, &dir.join(CONFIG_FILE_NAME)))
            .transpose()?;
        // A nested utf8lint.toml extends the ones above it, unless it says
        // `root = true`; nothing above the repository root applies.
        let own_root = own_toml.as_ref().is_some_and(|c| c.root);
        let inherited = parent.and_then(|p| p.tomls.clone());
        if !own_root && let Some(inherited) = inherited {
            // A repository's root: what lies above it is not the project's.
            // Looked for only when something above would apply (most trees
            // have no utf8lint.toml: one failed lookup fewer per directory).
            let repo_root = !self.overrides.trust_all_config
                && std::fs::symlink_metadata(dir.join(".git")).is_ok();
            if repo_root {
                for above in inherited.iter() {
                    self.ignore(
                        above.dir.join(CONFIG_FILE_NAME),
                        format!(
                            "it is above the repository root {}; pass --trust-config to apply it",
                            dir.display()
                        ),
                    );
                }
            } else {
                chain.tomls = Some(inherited);
            }
        }
        if let Some(config) = own_toml {
            let next = chain.tomls.take();
            chain.tomls = Some(Arc::new(Link {
                dir: dir.to_path_buf(),
                per_file_globs: has_name_globs(&config)
                    || next.as_ref().is_some_and(|n| n.per_file_globs),
                file: Arc::new(config),
                above: true,
                next,
            }));
        }
        Ok(())
    }
}

/// Whether a `utf8lint.toml` has globs that look at a file's name:
/// `[bom]`, `[per-file-lints]`, `exclude` or `agent-instructions`.
fn has_name_globs(config: &ConfigFile) -> bool {
    !(config.bom.is_empty()
        && config.per_file.is_empty()
        && config.exclude.is_empty()
        && config.agent_instructions.is_empty())
}

/// `--config FILE`, read and parsed, with the directory its globs are
/// relative to. Named by the user, so neither its owner nor its place is
/// questioned; a file that is missing or cannot be read is an error, not
/// an empty configuration.
fn read_explicit(cwd: &Path, file: &Path) -> Result<(PathBuf, Arc<ConfigFile>), ConfigError> {
    let absolute = cwd.join(file);
    let error = |message: String| ConfigError {
        path: file.to_path_buf(),
        line: None,
        key: None,
        message,
    };
    let bytes = match read_config_file(&absolute) {
        Ok(Some(bytes)) => bytes,
        Ok(None) if absolute.is_dir() => {
            return Err(error(
                "it is a directory: --config names a utf8lint.toml file".into(),
            ));
        }
        Ok(None) => return Err(error("cannot read: no such file".into())),
        Err(e) => return Err(error(format!("cannot read: {e}"))),
    };
    let text = utf8_text(bytes, file)?;
    let config = parse_config(&text, file)?;
    // Without `..`, as the files' paths are (`Resolver::absolute`).
    let dir = lexical(absolute.parent().unwrap_or(cwd));
    Ok((dir, Arc::new(config)))
}

/// `path` without `.` and `..` components, taken out lexically (symbolic
/// links are not resolved: a path is matched as the name it was given by).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A configuration file's bytes as text: they must be UTF-8.
fn utf8_text(bytes: Vec<u8>, path: &Path) -> Result<String, ConfigError> {
    String::from_utf8(bytes).map_err(|e| ConfigError {
        path: path.to_path_buf(),
        line: None,
        key: None,
        message: format!(
            "not valid UTF-8 (byte offset {}); configuration files must be UTF-8",
            e.utf8_error().valid_up_to()
        ),
    })
}

/// The text of the file `name` in `dir`, `None` if there is no such file.
fn read_optional(
    reader: &mut dyn ConfigReader,
    dir: &Path,
    name: &str,
) -> Result<Option<String>, ConfigError> {
    match reader.read_config(dir, name) {
        Ok(None) => Ok(None),
        Ok(Some(bytes)) => utf8_text(bytes, &dir.join(name)).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        // A directory named utf8lint.toml is not a configuration file.
        Err(e) if e.kind() == std::io::ErrorKind::IsADirectory => Ok(None),
        // One we may not read: say so.
        Err(e) => Err(ConfigError {
            path: dir.join(name),
            line: None,
            key: None,
            message: format!("cannot read: {e}"),
        }),
    }
}
