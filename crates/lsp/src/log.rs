//! The server's logs: `tracing` events (the server's and tower-lsp's),
//! one line each on stderr, which LSP clients show in their output panel
//! (VS Code's "utf8lint" channel, Neovim's `lsp.log`).
//!
//! * Level: warnings and errors by default; the client's `trace` setting
//!   (`utf8lint.trace.server` in VS Code, sent in `initialize` and then by
//!   `$/setTrace`) raises it: `messages` shows info, `verbose` debug.
//!   `UTF8LINT_LOG` (`off`, `error`, `warn`, `info`, `debug`, `trace`)
//!   fixes it for debugging, whatever the client says.
//! * Every line is escaped as the CLI escapes what it shows
//!   (`escape_shown`): control, bidi and invisible characters from a
//!   client's message, a URI or a configuration file come out as `\u{..}`.
//! * Logging never waits on the client: a line goes into a bounded queue
//!   ([`QUEUE_LINES`]) that a thread of its own writes to stderr. A client
//!   that does not read its end of the pipe blocks only that thread; while
//!   the queue is full, lines are dropped and counted, and the next line
//!   that gets through is preceded by the count.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use tower_lsp::lsp_types::TraceValue;
use tracing::level_filters::LevelFilter;
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, MakeWriter};
use tracing_subscriber::layer::{Context, Filter, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use utf8lint_diagnostics::escape_shown;

/// The environment variable that fixes the level.
pub(crate) const ENV: &str = "UTF8LINT_LOG";

/// The level now: 0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace.
static LEVEL: AtomicU8 = AtomicU8::new(2);

/// Set when `UTF8LINT_LOG` chose the level: the client's setting is
/// ignored.
static FIXED: AtomicBool = AtomicBool::new(false);

fn rank(level: LevelFilter) -> u8 {
    match level.into_level() {
        None => 0,
        Some(Level::ERROR) => 1,
        Some(Level::WARN) => 2,
        Some(Level::INFO) => 3,
        Some(Level::DEBUG) => 4,
        Some(Level::TRACE) => 5,
    }
}

/// Whether an event at `level` is written now.
fn enabled(level: &Level) -> bool {
    rank(LevelFilter::from_level(*level)) <= LEVEL.load(Ordering::Relaxed)
}

/// The level for the client's `trace` setting.
fn for_trace(value: TraceValue) -> LevelFilter {
    match value {
        TraceValue::Off => LevelFilter::WARN,
        TraceValue::Messages => LevelFilter::INFO,
        TraceValue::Verbose => LevelFilter::DEBUG,
    }
}

/// Applies the client's `trace` setting, unless `UTF8LINT_LOG` is set.
pub(crate) fn set_trace(value: TraceValue) {
    if FIXED.load(Ordering::Relaxed) {
        tracing::debug!("the client's trace setting ({value:?}) is ignored: {ENV} sets the level");
    } else {
        LEVEL.store(rank(for_trace(value)), Ordering::Relaxed);
        tracing::debug!("log level from the client's trace setting: {value:?}");
    }
}

/// Installs the subscriber for this process (once; later calls do
/// nothing), reading `UTF8LINT_LOG`.
pub(crate) fn init() {
    let fixed = std::env::var(ENV)
        .ok()
        .map(|v| (v.trim().parse::<LevelFilter>(), v));
    if let Some((Ok(level), _)) = &fixed {
        LEVEL.store(rank(*level), Ordering::Relaxed);
        FIXED.store(true, Ordering::Relaxed);
    }
    let queue = QUEUE.get_or_init(|| Queued::start(QUEUE_LINES, io::stderr()));
    let installed = tracing_subscriber::registry()
        .with(layer(queue.clone()))
        .try_init()
        .is_ok();
    if installed && let Some((Err(_), value)) = fixed {
        tracing::warn!(
            "{ENV}={value:?} is not a level (off, error, warn, info, debug, trace): the client's trace setting applies"
        );
    }
}

/// The layer that writes events to `writer`, escaped, filtered by the
/// level now.
fn layer<S, W>(writer: W) -> impl Layer<S>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt::layer()
        .event_format(Line)
        .with_writer(MakeEscaped(writer))
        // A failed write to stderr is not reported on stderr.
        .log_internal_errors(false)
        .with_filter(Current)
}

/// Filters by the level now, checked at each event: a callsite's interest
/// is never cached, so that the level can change at run time.
struct Current;

impl<S> Filter<S> for Current {
    fn enabled(&self, meta: &Metadata<'_>, _: &Context<'_, S>) -> bool {
        enabled(meta.level())
    }

    fn callsite_enabled(&self, _: &'static Metadata<'static>) -> Interest {
        Interest::sometimes()
    }
}

/// `utf8lint lsp: warning: message`, with the module for events from
/// other crates (tower-lsp).
struct Line;

impl<S, N> FormatEvent<S, N> for Line
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> std::fmt::Result {
        let meta = event.metadata();
        let level = match *meta.level() {
            Level::ERROR => "error",
            Level::WARN => "warning",
            Level::INFO => "info",
            Level::DEBUG => "debug",
            Level::TRACE => "trace",
        };
        write!(writer, "utf8lint lsp: {level}: ")?;
        if !meta.target().starts_with(env!("CARGO_CRATE_NAME")) {
            write!(writer, "{}: ", meta.target())?;
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// Makes [`Escaped`] writers.
struct MakeEscaped<M>(M);

impl<'w, M: MakeWriter<'w>> MakeWriter<'w> for MakeEscaped<M> {
    type Writer = Escaped<M::Writer>;

    fn make_writer(&'w self) -> Self::Writer {
        Escaped(self.0.make_writer())
    }
}

/// Writes each line escaped (the formatter writes one whole line at a time).
struct Escaped<W>(W);

impl<W: Write> Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        let (line, end) = match text.strip_suffix('\n') {
            Some(line) => (line, "\n"),
            None => (&*text, ""),
        };
        let mut out = escape_shown(line);
        out.push_str(end);
        self.0.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Lines the log queue holds for the writer thread; past this, lines are
/// dropped (and counted) rather than waited for.
pub(crate) const QUEUE_LINES: usize = 1024;

/// How long [`flush`] waits for the queue to be written at the end.
const FLUSH_LIMIT: Duration = Duration::from_millis(200);

/// The queue the process's log lines go through, once [`init`] made it.
static QUEUE: std::sync::OnceLock<Queued> = std::sync::OnceLock::new();

/// Waits until the lines queued so far are written, at most
/// [`FLUSH_LIMIT`]: at the end of the process, so that its last lines are
/// not lost when stderr is read, and it is not held up when it is not.
pub(crate) fn flush() {
    if let Some(queue) = QUEUE.get() {
        queue.flush(FLUSH_LIMIT);
    }
}

/// A line for the writer thread, and how many lines were dropped just
/// before it because the queue was full.
struct Entry {
    dropped: usize,
    line: Vec<u8>,
}

/// A [`MakeWriter`] whose writers never block: each line is handed to a
/// writer thread through a bounded queue, or dropped and counted when the
/// queue is full.
#[derive(Clone)]
pub(crate) struct Queued {
    tx: SyncSender<Entry>,
    shared: Arc<Shared>,
}

/// What the writers and the writer thread share.
#[derive(Default)]
struct Shared {
    /// Lines dropped since the last one queued.
    dropped: AtomicUsize,
    /// Lines queued and lines written (or failed), for [`Queued::flush`].
    progress: Mutex<(u64, u64)>,
    written: Condvar,
}

impl Queued {
    /// Starts the writer thread, writing to `out`, with room for `lines`
    /// lines waiting.
    pub(crate) fn start<W: Write + Send + 'static>(lines: usize, out: W) -> Queued {
        let (tx, rx) = std::sync::mpsc::sync_channel(lines);
        let shared = Arc::new(Shared::default());
        let writer = shared.clone();
        // A thread that cannot start leaves the queue undrained: lines are
        // then dropped and counted, never waited for.
        let _ = std::thread::Builder::new()
            .name("utf8lint-log".into())
            .spawn(move || drain(rx, out, &writer));
        Queued { tx, shared }
    }

    /// Queues `line`, or counts it dropped if the queue is full.
    fn send(&self, line: Vec<u8>) {
        let dropped = self.shared.dropped.swap(0, Ordering::Relaxed);
        let mut progress = lock(&self.shared.progress);
        match self.tx.try_send(Entry { dropped, line }) {
            Ok(()) => progress.0 += 1,
            Err(TrySendError::Full(entry) | TrySendError::Disconnected(entry)) => {
                self.shared
                    .dropped
                    .fetch_add(entry.dropped + 1, Ordering::Relaxed);
            }
        }
    }

    /// Waits until every line queued so far is written, at most `limit`.
    fn flush(&self, limit: Duration) {
        let progress = lock(&self.shared.progress);
        let target = progress.0;
        let _ = self
            .shared
            .written
            .wait_timeout_while(progress, limit, |p| p.1 < target);
    }

    /// Lines dropped since the last one queued.
    #[cfg(test)]
    fn dropped(&self) -> usize {
        self.shared.dropped.load(Ordering::Relaxed)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The writer thread: writes each queued line, preceded by the count of
/// lines dropped before it, until every writer is gone. A failed write is
/// not reported (there is nowhere to report it) and the lines go on.
fn drain<W: Write>(rx: Receiver<Entry>, mut out: W, shared: &Shared) {
    for Entry { dropped, line } in rx {
        if dropped > 0 {
            let note = format!(
                "utf8lint lsp: warning: {dropped} log line{} dropped: standard error is not read fast enough\n",
                if dropped == 1 { "" } else { "s" }
            );
            let _ = out.write_all(note.as_bytes());
        }
        let _ = out.write_all(&line).and_then(|()| out.flush());
        lock(&shared.progress).1 += 1;
        shared.written.notify_all();
    }
}

impl<'w> MakeWriter<'w> for Queued {
    type Writer = QueuedLine<'w>;

    fn make_writer(&'w self) -> Self::Writer {
        QueuedLine(self)
    }
}

/// Hands what it is given (one whole line at a time) to the queue.
pub(crate) struct QueuedLine<'a>(&'a Queued);

impl Write for QueuedLine<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.send(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl<'w> MakeWriter<'w> for Buffer {
        type Writer = Buffer;
        fn make_writer(&'w self) -> Buffer {
            self.clone()
        }
    }

    /// One test owns the process-wide level: tests run in parallel.
    #[test]
    fn lines_are_escaped_and_the_level_follows_the_trace_setting() {
        let buffer = Buffer::default();
        let subscriber = tracing_subscriber::registry().with(layer(buffer.clone()));
        tracing::subscriber::with_default(subscriber, || {
            let hostile = "file:///a\u{1b}[31mred\u{202E}\nfake line";
            tracing::warn!("settings: unknown key {hostile}");
            tracing::info!("hidden at the default level");
            set_trace(TraceValue::Messages);
            tracing::info!("shown with trace messages");
            tracing::debug!("hidden with trace messages");
            set_trace(TraceValue::Verbose);
            tracing::debug!("shown with trace verbose");
            tracing::warn!(target: "tower_lsp::service", "from tower-lsp");
            set_trace(TraceValue::Off);
            tracing::info!("hidden again");
        });
        let text = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "utf8lint lsp: warning: settings: unknown key file:///a\\x1b[31mred\\u{202E}\\u{A}fake line\n\
             utf8lint lsp: info: shown with trace messages\n\
             utf8lint lsp: debug: log level from the client's trace setting: Verbose\n\
             utf8lint lsp: debug: shown with trace verbose\n\
             utf8lint lsp: warning: tower_lsp::service: from tower-lsp\n"
        );
    }

    #[test]
    fn trace_values_map_to_levels() {
        assert_eq!(for_trace(TraceValue::Off), LevelFilter::WARN);
        assert_eq!(for_trace(TraceValue::Messages), LevelFilter::INFO);
        assert_eq!(for_trace(TraceValue::Verbose), LevelFilter::DEBUG);
        assert!(rank(LevelFilter::OFF) < rank(LevelFilter::ERROR));
        assert!(rank(LevelFilter::DEBUG) < rank(LevelFilter::TRACE));
    }

    /// A writer that blocks until it is opened, as a pipe nobody reads.
    #[derive(Clone, Default)]
    struct Stuck {
        state: Arc<(Mutex<(bool, bool)>, Condvar)>,
        out: Buffer,
    }

    impl Stuck {
        /// Waits until a write is blocked (`.0`), or lets writes through.
        fn wait_blocked(&self) {
            let (m, c) = &*self.state;
            let _unused = c.wait_while(lock(m), |s| !s.0).unwrap();
        }
        fn open(&self) {
            let (m, c) = &*self.state;
            lock(m).1 = true;
            c.notify_all();
        }
    }

    impl Write for Stuck {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let (m, c) = &*self.state;
            let mut s = lock(m);
            s.0 = true;
            c.notify_all();
            let _open = c.wait_while(s, |s| !s.1).unwrap();
            self.out.write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_full_queue_drops_and_counts_and_never_blocks() {
        let stuck = Stuck::default();
        let queue = Queued::start(4, stuck.clone());
        let mut line = queue.make_writer();
        line.write_all(b"first\n").unwrap();
        // The writer thread holds the first line, blocked in its write.
        stuck.wait_blocked();
        for i in 0..10_000 {
            line.write_all(format!("line {i}\n").as_bytes()).unwrap();
        }
        // Four lines wait in the queue; the rest were dropped, counted.
        assert_eq!(queue.dropped(), 9_996);
        stuck.open();
        queue.flush(Duration::from_secs(60));
        line.write_all(b"after\n").unwrap();
        queue.flush(Duration::from_secs(60));
        let text = String::from_utf8(stuck.out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "first\nline 0\nline 1\nline 2\nline 3\n\
             utf8lint lsp: warning: 9996 log lines dropped: standard error is not read fast enough\n\
             after\n"
        );
        assert_eq!(queue.dropped(), 0);
    }
}
