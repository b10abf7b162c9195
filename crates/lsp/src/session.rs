//! The server's state and its workers.
//!
//! One `std::sync::Mutex` guards everything; it is locked in small scopes
//! and never across an `.await`. Edits are applied to the rope at the top of
//! the `didChange` handler, before its first `.await`, so tower-lsp's
//! concurrent handlers can never reorder them. Everything that reads a whole
//! file or a whole text runs in `spawn_blocking`, in one worker task per
//! document: a burst of edits coalesces into one pass over the latest
//! version, and results for a stale version are dropped.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;
use tower_lsp::Client;
use tower_lsp::lsp_types::{
    ClientCapabilities, ConfigurationItem, TextDocumentContentChangeEvent, Url,
};

use crate::client_settings::Settings;
use crate::convert::{self, Encoding};
use crate::document::{DiskView, Document, Placed, Shift, TextDigest, scan_rope, shift_placed};
use crate::publish::{self, Snapshot};
use crate::transport::RepairLog;

/// What the client can do.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClientFeatures {
    /// `workspace/configuration`.
    pub configuration: bool,
    /// Dynamic registration of `workspace/didChangeWatchedFiles`.
    pub watch_dynamic: bool,
    /// `window/workDoneProgress`.
    pub progress: bool,
    /// Pull diagnostics (`textDocument.diagnostic`): open documents' are
    /// pulled, never pushed (pull.rs).
    pub pull: bool,
    /// `workspace/diagnostic/refresh`.
    pub pull_refresh: bool,
    /// Code actions shown disabled, with their reason
    /// (`textDocument.codeAction.disabledSupport`).
    pub code_action_disabled: bool,
}

/// Everything behind the lock.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Open documents.
    pub docs: HashMap<Url, Document>,
    /// The negotiated position encoding.
    pub encoding: Encoding,
    /// The editor's settings.
    pub settings: Settings,
    /// Workspace folders.
    pub roots: Vec<PathBuf>,
    /// What the client supports.
    pub features: ClientFeatures,
    /// Files not open that the workspace scan published findings for.
    pub scanned: HashSet<Url>,
    /// The generation the last `didOpen` was given.
    pub last_generation: u64,
    /// Where the request for the client's settings stands.
    pub refresh: Refresh,
    /// The last pull report's number (result ids).
    pub last_report: u64,
}

/// The request for the client's settings: one at a time, so that a client
/// that never answers holds one task, not one per notification.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Refresh {
    /// A request is outstanding (or about to be sent).
    pub running: bool,
    /// Another was asked for meanwhile: send it once the answer is in.
    pub again: bool,
}

/// The server's state, shared by the handlers.
pub(crate) struct Session {
    /// The client handle.
    pub client: Client,
    state: Mutex<State>,
    /// What the transport repaired.
    pub repairs: Arc<RepairLog>,
    /// Set once the client's settings were asked for (or cannot be):
    /// workers wait for it so that nothing is published under defaults the
    /// client is about to override.
    ready: tokio::sync::watch::Sender<bool>,
    /// Bumped whenever a document's pull report is kept: pulls waiting for
    /// one look again.
    pub reports: tokio::sync::watch::Sender<u64>,
}

/// Up to this many findings, diagnostics are built on the worker task.
const INLINE_ITEMS: usize = 512;

/// How long a worker waits for the client's settings.
const READY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

impl Session {
    /// A new session.
    pub(crate) fn new(client: Client, repairs: Arc<RepairLog>) -> Session {
        Session {
            client,
            state: Mutex::new(State::default()),
            repairs,
            ready: tokio::sync::watch::Sender::new(false),
            reports: tokio::sync::watch::Sender::new(0),
        }
    }

    /// Locks the state. A handler that panicked while holding the lock
    /// leaves it poisoned; the state is still usable, so carry on.
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records the client's capabilities and workspace folders.
    pub(crate) fn initialize(
        &self,
        caps: &ClientCapabilities,
        roots: Vec<PathBuf>,
        options: Option<&Value>,
    ) -> Encoding {
        let offered = caps
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref());
        let encoding = Encoding::negotiate(offered);
        let ws = caps.workspace.as_ref();
        // Read (and its problems logged) before the lock is taken.
        let settings = match options {
            Some(options) => Settings::from_json(
                options.get("utf8lint").unwrap_or(options),
                roots.first().cloned(),
            ),
            None => Settings::from_json(&Value::Null, roots.first().cloned()),
        };
        let mut state = self.lock();
        state.encoding = encoding;
        state.roots = roots;
        state.features = ClientFeatures {
            configuration: ws.and_then(|w| w.configuration).unwrap_or(false),
            watch_dynamic: ws
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false),
            progress: caps
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
            pull: caps
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            // lsp-types 0.94 reads `workspace.diagnostic`, where the
            // protocol says `workspace.diagnostics`: what clients send is
            // lost, so a client that pulls is taken to take refreshes (VS
            // Code's and Neovim's do; another answers with an error).
            pull_refresh: caps
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some())
                || ws
                    .and_then(|w| w.diagnostic.as_ref())
                    .and_then(|d| d.refresh_support)
                    .unwrap_or(false),
            code_action_disabled: caps
                .text_document
                .as_ref()
                .and_then(|t| t.code_action.as_ref())
                .and_then(|c| c.disabled_support)
                .unwrap_or(false),
        };
        state.settings = settings;
        encoding
    }

    /// Asks the client for the `utf8lint` section and applies it, then
    /// rechecks every open document, in a task of its own (the caller does
    /// not wait for the client). A refresh asked for while a request is
    /// outstanding is sent once its answer is in.
    pub(crate) fn refresh_configuration(self: &Arc<Self>) {
        {
            let mut state = self.lock();
            if state.refresh.running {
                state.refresh.again = true;
                return;
            }
            state.refresh.running = true;
        }
        let session = self.clone();
        tokio::spawn(async move {
            loop {
                session.fetch_configuration().await;
                let mut state = session.lock();
                if !std::mem::take(&mut state.refresh.again) {
                    state.refresh.running = false;
                    return;
                }
            }
        });
    }

    /// One request for the settings, applied; then everything is rechecked.
    async fn fetch_configuration(self: &Arc<Self>) {
        let (supported, scope) = {
            let state = self.lock();
            (
                state.features.configuration,
                state
                    .roots
                    .first()
                    .and_then(|r| Url::from_directory_path(r).ok()),
            )
        };
        if supported {
            let item = ConfigurationItem {
                scope_uri: scope,
                section: Some("utf8lint".into()),
            };
            // Never dropped before the answer: tower-lsp 0.20 panics on an
            // answer whose waiter is gone.
            match self.client.configuration(vec![item]).await {
                Ok(values) => {
                    let base = self.lock().roots.first().cloned();
                    let settings =
                        Settings::from_json(values.first().unwrap_or(&Value::Null), base);
                    tracing::debug!("settings from the client: {:?}", settings.overrides);
                    self.lock().settings = settings;
                }
                Err(e) => tracing::warn!("workspace/configuration failed: {e}"),
            }
        }
        // Work marked before the workers waiting for the settings wake, so
        // that they take it in the pass they were waiting to run.
        self.recheck_all();
        self.ready.send_replace(true);
    }

    /// Waits until the client's settings are in, or [`READY_TIMEOUT`].
    pub(crate) async fn wait_ready(&self) {
        let mut ready = self.ready.subscribe();
        let _ = tokio::time::timeout(READY_TIMEOUT, ready.wait_for(|r| *r)).await;
    }

    /// Re-reads every open document's file.
    pub(crate) fn recheck_all(self: &Arc<Self>) {
        let uris: Vec<Url> = self.lock().docs.keys().cloned().collect();
        for uri in uris {
            self.schedule(&uri, |w| {
                w.disk = true;
                w.lint = true;
                w.publish = true;
            });
        }
    }

    /// `didOpen`.
    pub(crate) fn open(self: &Arc<Self>, uri: Url, version: i32, text: &str) {
        let raw = self.repairs.take(uri.as_str()).unwrap_or(0);
        let pushed_by_scan = {
            let mut state = self.lock();
            let mut doc = Document::new(uri.clone(), version, text);
            doc.raw_from_client = raw;
            state.last_generation += 1;
            doc.generation = state.last_generation;
            let scanned = state.scanned.remove(&uri);
            state.docs.insert(uri.clone(), doc);
            scanned && state.features.pull
        };
        if pushed_by_scan {
            // The workspace scan pushed this file's findings; a client that
            // pulls gets the open document's by pull: the push is cleared,
            // or both would show.
            let client = self.client.clone();
            let uri = uri.clone();
            tokio::spawn(async move { client.publish_diagnostics(uri, Vec::new(), None).await });
        }
        self.schedule(&uri, |w| {
            w.disk = true;
            w.scan = true;
            w.lint = true;
            w.publish = true;
        });
    }

    /// `didChange`: applied at once, synchronously. What it has to say is
    /// logged once the lock is released, one line per message however many
    /// of its ranges were outside the text.
    pub(crate) fn change(
        self: &Arc<Self>,
        uri: &Url,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) {
        let raw = self.repairs.take(uri.as_str());
        let mut stale = None;
        let lint;
        let (mut clamped, mut first_clamped) = (0usize, None);
        {
            let mut state = self.lock();
            let encoding = state.encoding;
            let Some(doc) = state.docs.get_mut(uri) else {
                drop(state);
                tracing::warn!("didChange for {uri}, which is not open: ignored");
                return;
            };
            if version <= doc.version {
                stale = Some(doc.version);
            }
            for change in changes {
                match change.range {
                    Some(range) => {
                        let (start, c1) =
                            convert::offset_in(&doc.rope, range.start, encoding, doc.raw());
                        let (end, c2) =
                            convert::offset_in(&doc.rope, range.end, encoding, doc.raw());
                        if c1 || c2 {
                            clamped += 1;
                            first_clamped.get_or_insert(range);
                        }
                        doc.edit(start.min(end), end.max(start), &change.text);
                    }
                    None => doc.replace_all(&change.text),
                }
            }
            doc.version = version;
            if let Some(n) = raw {
                doc.raw_from_client += n;
            }
            lint = doc.text_stale;
        }
        if let Some(before) = stale {
            tracing::warn!("didChange for {uri}: version {version} after {before}");
        }
        if let Some(range) = first_clamped {
            let more = match clamped {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            tracing::warn!(
                "didChange for {uri}: range {range:?}{more} is outside the text, clamped"
            );
        }
        // An edit that cannot change a character finding (typing a word)
        // only moves them: no check of the whole text for it.
        self.schedule(uri, |w| {
            w.lint |= lint;
            w.publish = true;
        });
    }

    /// `didSave`: the file changed on disk.
    pub(crate) fn saved(self: &Arc<Self>, uri: &Url) {
        if let Some(doc) = self.lock().docs.get_mut(uri) {
            doc.dirty = false;
        }
        self.schedule(uri, |w| {
            w.disk = true;
            w.publish = true;
        });
    }

    /// `didClose`: forget the document, clear its diagnostics (a client
    /// that pulls them forgets them itself).
    pub(crate) async fn close(self: &Arc<Self>, uri: Url) {
        let pull = {
            let mut state = self.lock();
            state.docs.remove(&uri);
            state.features.pull
        };
        if !pull {
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }

    /// Marks work for `uri` and starts its worker if none runs.
    pub(crate) fn schedule(
        self: &Arc<Self>,
        uri: &Url,
        what: impl FnOnce(&mut crate::document::Work),
    ) {
        let start = {
            let mut state = self.lock();
            let Some(doc) = state.docs.get_mut(uri) else {
                return;
            };
            what(&mut doc.work);
            let start = !std::mem::replace(&mut doc.work.running, true);
            start.then_some(doc.generation)
        };
        if let Some(generation) = start {
            let session = self.clone();
            let uri = uri.clone();
            tokio::spawn(async move { session.worker(uri, generation).await });
        }
    }

    /// The per-document worker: runs until there is nothing left to do.
    ///
    /// It serves one generation of the document: once the document is
    /// closed or reopened, its results are dropped and it ends (a reopened
    /// document has a worker of its own).
    async fn worker(self: Arc<Self>, uri: Url, generation: u64) {
        self.wait_ready().await;
        loop {
            enum Job {
                Full(Box<FullJob>),
                Lint(Box<LintJob>),
                Publish(Box<Snapshot>),
            }
            let job = {
                let mut state = self.lock();
                let encoding = state.encoding;
                let settings = state.settings.clone();
                let Some(doc) = state
                    .docs
                    .get_mut(&uri)
                    .filter(|d| d.generation == generation)
                else {
                    return;
                };
                if doc.work.disk || doc.work.scan {
                    let job = FullJob {
                        path: if doc.work.disk {
                            doc.path.clone()
                        } else {
                            None
                        },
                        read_disk: doc.work.disk,
                        scan: doc.work.scan,
                        rope: doc.rope.clone(),
                        base: doc.base,
                        settings,
                    };
                    doc.work.disk = false;
                    doc.work.scan = false;
                    // What the disk says decides whether the text is
                    // checked (buffer.rs): checked after it.
                    doc.work.lint = true;
                    doc.work.publish = true;
                    doc.logging = true;
                    doc.log.clear();
                    Job::Full(Box::new(job))
                } else if doc.work.lint && crate::buffer::reads_text(doc) {
                    doc.work.lint = false;
                    doc.work.publish = true;
                    doc.text_stale = false;
                    doc.logging = true;
                    doc.log.clear();
                    Job::Lint(Box::new(LintJob {
                        rope: doc.rope.clone(),
                        policy: settings.policy_for(doc.path.as_deref()),
                        path: doc.path.clone(),
                    }))
                } else if doc.work.publish || doc.work.lint {
                    doc.work.lint = false;
                    doc.work.publish = false;
                    let policy = settings.policy_for(doc.path.as_deref());
                    Job::Publish(Box::new(Snapshot::of(doc, encoding, policy)))
                } else {
                    doc.work.running = false;
                    return;
                }
            };
            match job {
                Job::Full(job) => {
                    let result = tokio::task::spawn_blocking(move || job.run()).await;
                    let installed =
                        self.install_result(&uri, generation, result, |found, doc, log| {
                            found.install(doc, log);
                        });
                    if !installed {
                        return;
                    }
                }
                Job::Lint(job) => {
                    let result = tokio::task::spawn_blocking(move || job.run()).await;
                    let installed =
                        self.install_result(&uri, generation, result, |mut found, doc, log| {
                            for shift in log {
                                shift_placed(&mut found, shift);
                            }
                            doc.text_findings = found;
                            doc.text_checked = true;
                        });
                    if !installed {
                        return;
                    }
                }
                Job::Publish(snapshot) => {
                    let version = snapshot.version;
                    // A few hundred findings take microseconds: build them
                    // here (this task is not the message loop) rather than
                    // pay a thread hop; more go to the blocking pool.
                    let small = snapshot.disk.as_ref().map_or(0, |d| d.findings.len())
                        + snapshot.marks.len()
                        < INLINE_ITEMS;
                    let diagnostics = if small {
                        publish::diagnostics(&snapshot)
                    } else {
                        match tokio::task::spawn_blocking(move || publish::diagnostics(&snapshot))
                            .await
                        {
                            Ok(d) => d,
                            Err(_) => continue,
                        }
                    };
                    let current = self
                        .lock()
                        .docs
                        .get(&uri)
                        .map(|d| (d.generation, d.version));
                    match current {
                        Some((g, v)) if g == generation && v == version => {}
                        Some((g, _)) if g == generation => continue, // a newer version is queued
                        _ => return, // closed or reopened: its own worker publishes
                    }
                    if self.lock().features.pull {
                        keep_report(&self, &uri, generation, version, diagnostics);
                    } else {
                        self.client
                            .publish_diagnostics(uri.clone(), diagnostics, Some(version))
                            .await;
                    }
                }
            }
        }
    }

    /// Hands a blocking job's result to `put`, with the document of the
    /// worker's `generation` and the edits made while the job ran (to
    /// replay on it), and ends the logging of edits. Returns whether the
    /// worker goes on: `false` once the document was closed or reopened
    /// (the result is dropped). A job that panicked is logged and the
    /// worker goes on.
    fn install_result<T>(
        &self,
        uri: &Url,
        generation: u64,
        result: Result<T, tokio::task::JoinError>,
        put: impl FnOnce(T, &mut Document, &[Shift]),
    ) -> bool {
        let mut state = self.lock();
        let Some(doc) = state
            .docs
            .get_mut(uri)
            .filter(|d| d.generation == generation)
        else {
            drop(state);
            tracing::debug!("{uri} was closed or reopened during its check: result dropped");
            return false;
        };
        doc.logging = false;
        let log = std::mem::take(&mut doc.log);
        match result {
            Ok(found) => put(found, doc, &log),
            Err(e) => {
                drop(state);
                tracing::error!("check of {uri} failed: {e}");
            }
        }
        true
    }

    /// A file changed on disk (or was created or deleted).
    pub(crate) async fn file_changed(self: &Arc<Self>, uri: &Url, deleted: bool) {
        let is_config = uri
            .path_segments()
            .and_then(|mut s| s.next_back())
            .is_some_and(|name| name == "utf8lint.toml" || name == ".editorconfig");
        if is_config {
            self.lock().settings.clear_cache();
            self.refresh_configuration();
            return;
        }
        let open = self.lock().docs.contains_key(uri);
        if open {
            self.schedule(uri, |w| {
                w.disk = true;
                w.publish = true;
            });
        } else if deleted {
            let was = self.lock().scanned.remove(uri);
            if was {
                self.client
                    .publish_diagnostics(uri.clone(), Vec::new(), None)
                    .await;
            }
        } else if self.lock().scanned.contains(uri)
            && let Ok(path) = uri.to_file_path()
        {
            let (settings, encoding) = {
                let state = self.lock();
                (state.settings.clone(), state.encoding)
            };
            let found = tokio::task::spawn_blocking(move || {
                crate::disk::check_file(&path, &settings, encoding, &mut Default::default())
            })
            .await
            .ok()
            .flatten();
            self.client
                .publish_diagnostics(uri.clone(), found.unwrap_or_default(), None)
                .await;
        }
    }
}

/// A full pass: read the file and check it, scan the text for marks.
struct FullJob {
    path: Option<PathBuf>,
    read_disk: bool,
    scan: bool,
    rope: ropey::Rope,
    base: Option<TextDigest>,
    /// The settings the file is checked under (resolved on the blocking
    /// thread: resolving may read configuration files).
    settings: Settings,
}

/// The character rules over the text (buffer.rs).
struct LintJob {
    rope: ropey::Rope,
    path: Option<PathBuf>,
    policy: utf8lint_diagnostics::Policy,
}

impl LintJob {
    fn run(self) -> Vec<Placed> {
        crate::buffer::check_text(&self.rope, self.path.as_deref(), &self.policy)
    }
}

/// Which text a disk view's ranges are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RelativeTo {
    /// The text when the job started.
    Snapshot,
    /// The document's base text (last known to match the disk).
    Base,
}

struct FullResult {
    disk: Option<(DiskView, RelativeTo)>,
    read_disk: bool,
    marks: Option<Vec<crate::document::Mark>>,
    /// The digest of the text the job started with, when the disk matched
    /// it: the document's new base.
    matched: Option<TextDigest>,
}

impl FullJob {
    fn run(self) -> FullResult {
        let marks = self.scan.then(|| scan_rope(&self.rope));
        let disk = self.path.as_ref().map(|path| {
            let (view, index) = crate::disk::view_on(path, &self.rope, self.base, &self.settings);
            (
                view,
                if index == 1 {
                    RelativeTo::Base
                } else {
                    RelativeTo::Snapshot
                },
            )
        });
        let matched = disk
            .as_ref()
            .filter(|(view, relative)| *relative == RelativeTo::Snapshot && view.matched.is_some())
            .map(|_| TextDigest::of_rope(&self.rope));
        FullResult {
            disk,
            read_disk: self.read_disk,
            marks,
            matched,
        }
    }
}

impl FullResult {
    /// Puts the results in the document, replaying the edits made since.
    fn install(self, doc: &mut Document, log: &[Shift]) {
        if let Some(mut marks) = self.marks {
            for shift in log {
                shift.marks(&mut marks);
            }
            doc.marks = marks;
            doc.marks_ready = true;
        }
        if !self.read_disk {
            return;
        }
        let Some((mut disk, relative)) = self.disk else {
            return;
        };
        let replay: Vec<Shift> = match relative {
            RelativeTo::Base => doc.since_base.clone(),
            RelativeTo::Snapshot => log.to_vec(),
        };
        for shift in &replay {
            disk.shift(shift);
        }
        if let Some(digest) = self.matched {
            doc.base = Some(digest);
            doc.since_base = log.to_vec();
            if log.is_empty() {
                doc.dirty = false;
            }
        }
        doc.disk = Some(disk);
    }
}

/// Keeps `diagnostics` as the report of `uri`'s `version` (its worker's
/// `generation`); wakes the pulls waiting for it, and asks the client to
/// pull again if it holds an older report of this very version.
pub(crate) fn keep_report(
    session: &Arc<Session>,
    uri: &Url,
    generation: u64,
    version: i32,
    diagnostics: Vec<tower_lsp::lsp_types::Diagnostic>,
) {
    let refresh = {
        let mut state = session.lock();
        state.last_report += 1;
        let fresh = state.last_report.to_string();
        let refresh_support = state.features.pull_refresh;
        let Some(doc) = state
            .docs
            .get_mut(uri)
            .filter(|d| d.generation == generation)
        else {
            return;
        };
        let id = match &doc.report {
            Some(r) if r.diagnostics == diagnostics => r.id.clone(),
            _ => fresh,
        };
        // The client holds another report than this one and is not
        // waiting for this one (VS Code's client pulls on open and on
        // refresh only, not on each change): it is asked to pull again.
        let stale_answer = doc.pulls_waiting == 0
            && doc
                .answered
                .as_ref()
                .is_some_and(|(_, answered)| *answered != id);
        doc.report = Some(crate::document::Report {
            version,
            id,
            diagnostics,
        });
        refresh_support && stale_answer
    };
    session.reports.send_modify(|n| *n += 1);
    if refresh {
        let client = session.client.clone();
        tokio::spawn(async move {
            if let Err(e) = client.workspace_diagnostic_refresh().await {
                tracing::debug!("workspace/diagnostic/refresh: {e}");
            }
        });
    }
}
