//! The reports of a run, held until they are printed in path order. Past a
//! budget of held bytes, the reports held are sorted and written to an
//! anonymous temporary file (a run), and the runs are merged in path order
//! (an external merge sort), at most [`FAN_IN`] at a time: every
//! [`FAN_IN`] runs of one size become one run as they come, and the last
//! merge reads at most [`FAN_IN`] runs beside what is held. A run with
//! millions of findings holds about the budget, one report of each run
//! merged and a buffer of each, not its whole output. Ties keep the order
//! the reports came in, as a stable sort of them all would.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::PathBuf;

use crate::check::FileReport;
use crate::report::FileCounts;
use crate::trouble::{Kind, Subject, Trouble};

/// The held bytes past which the reports held are written to a run.
pub(crate) const HELD_BUDGET: usize = 32 << 20;

/// Each run's read buffer while the runs are merged.
const RUN_BUFFER: usize = 32 << 10;

/// The most runs merged at once: a merge holds one report of each.
const FAN_IN: usize = 8;

/// Reports in the order they came, to be given back in path order.
pub(crate) struct HeldReports {
    held: Vec<FileReport>,
    held_bytes: usize,
    budget: usize,
    /// In the order they were written, each with its level: a run of
    /// level `n + 1` is [`FAN_IN`] of level `n` merged.
    runs: Vec<(File, u32)>,
    /// A run could not be written (no temporary directory, a full disk):
    /// the reports are held from then on, as they would be without runs.
    spill_failed: bool,
    /// Why a run could not be written, when its reports were lost.
    lost: Option<io::Error>,
}

impl HeldReports {
    pub(crate) fn new(budget: usize) -> HeldReports {
        HeldReports {
            held: Vec::new(),
            held_bytes: 0,
            budget,
            runs: Vec::new(),
            spill_failed: false,
            lost: None,
        }
    }

    /// Adds `report`; past the budget, what is held becomes a run.
    pub(crate) fn push(&mut self, report: FileReport) {
        self.held_bytes += held_size(&report);
        self.held.push(report);
        if self.held_bytes > self.budget && !self.spill_failed {
            self.spill();
        }
    }

    /// The bytes the reports held in memory take (their buffers, as
    /// counted by [`held_size`]).
    #[cfg(test)]
    fn held_bytes(&self) -> usize {
        self.held_bytes
    }

    fn spill(&mut self) {
        sort(&mut self.held);
        let mut run = RunWriter::new();
        for report in &self.held {
            run.push(report);
        }
        match run.finish() {
            Ok(run) => {
                self.held = Vec::new();
                self.held_bytes = 0;
                if let Err(e) = self.add_run(run) {
                    self.spill_failed = true;
                    self.lost = Some(e);
                }
            }
            Err(_) => self.spill_failed = true,
        }
    }

    /// Adds `run` (level 0), merging the last [`FAN_IN`] runs of a level
    /// into one of the next as long as there are as many.
    fn add_run(&mut self, run: File) -> io::Result<()> {
        self.runs.push((run, 0));
        loop {
            let Some(&(_, level)) = self.runs.last() else {
                return Ok(());
            };
            let first = self.runs.len().saturating_sub(FAN_IN);
            if self.runs.len() < FAN_IN || self.runs[first..].iter().any(|(_, l)| *l != level) {
                return Ok(());
            }
            let group: Vec<File> = self.runs.drain(first..).map(|(run, _)| run).collect();
            self.runs.push((merge_runs(group)?, level + 1));
        }
    }

    /// The reports in path order, the runs merged with what is held.
    pub(crate) fn into_sorted(mut self) -> io::Result<Sorted> {
        if let Some(e) = self.lost.take() {
            return Err(e);
        }
        sort(&mut self.held);
        let mut runs: Vec<File> = self.runs.into_iter().map(|(run, _)| run).collect();
        // Consecutive runs merged, so that ties keep their order.
        while runs.len() > FAN_IN {
            let mut fewer = Vec::with_capacity(runs.len().div_ceil(FAN_IN));
            let mut rest = runs.into_iter();
            loop {
                let group: Vec<File> = rest.by_ref().take(FAN_IN).collect();
                if group.is_empty() {
                    break;
                }
                fewer.push(merge_runs(group)?);
            }
            runs = fewer;
        }
        Sorted::new(runs, self.held)
    }
}

/// `runs` merged into one.
fn merge_runs(runs: Vec<File>) -> io::Result<File> {
    let mut run = RunWriter::new();
    for report in Sorted::new(runs, Vec::new())? {
        run.push(&report?);
    }
    run.finish()
}

/// By path; stable, so that reports of one key stay in the order they came.
fn sort(reports: &mut [FileReport]) {
    reports.sort_by(|a, b| a.key.cmp(&b.key));
}

/// The heap bytes a report holds, and its own size.
pub(crate) fn held_size(report: &FileReport) -> usize {
    let troubles: usize = report
        .troubles
        .iter()
        .map(|t| {
            std::mem::size_of::<Trouble>()
                + t.detail.capacity()
                + t.path().map_or(0, |p| p.as_os_str().len())
        })
        .sum();
    let values = |values: &[serde_json::Value]| -> usize { values.iter().map(value_size).sum() };
    std::mem::size_of::<FileReport>()
        + report.key.capacity()
        + report.stdout.capacity()
        + report.stderr.capacity()
        + report.raw.capacity()
        + troubles
        + values(&report.sarif)
        + values(&report.sarif_notes)
}

/// About the bytes a JSON value holds: its nodes, strings and each map
/// entry's key and index.
fn value_size(value: &serde_json::Value) -> usize {
    use serde_json::Value;
    let own = std::mem::size_of::<Value>();
    match value {
        Value::String(s) => own + s.capacity(),
        Value::Array(items) => own + items.iter().map(value_size).sum::<usize>(),
        Value::Object(map) => {
            own + map
                .iter()
                .map(|(k, v)| std::mem::size_of::<String>() + 16 + k.capacity() + value_size(v))
                .sum::<usize>()
        }
        _ => own,
    }
}

/// A run being written to a new anonymous temporary file (gone when
/// closed); the first error is kept for [`RunWriter::finish`].
struct RunWriter(io::Result<BufWriter<File>>);

impl RunWriter {
    fn new() -> RunWriter {
        RunWriter(tempfile::tempfile().map(|file| BufWriter::with_capacity(RUN_BUFFER, file)))
    }

    fn push(&mut self, report: &FileReport) {
        if let Ok(out) = &mut self.0
            && let Err(e) = encode(out, report)
        {
            self.0 = Err(e);
        }
    }

    fn finish(self) -> io::Result<File> {
        self.0?.into_inner().map_err(io::IntoInnerError::into_error)
    }
}

/// The reports in path order, read back from the runs one at a time.
pub(crate) struct Sorted {
    sources: Vec<Source>,
    heads: BinaryHeap<Head>,
}

enum Source {
    Run(BufReader<File>),
    Held(std::vec::IntoIter<FileReport>),
}

/// A source's next report, first in the heap when its key is least (then
/// its source is earliest).
struct Head {
    report: FileReport,
    source: usize,
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: `BinaryHeap` pops the greatest.
        other
            .report
            .key
            .cmp(&self.report.key)
            .then(other.source.cmp(&self.source))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Head {}

impl Sorted {
    /// `runs` (in the order they were written) merged with `held` (sorted,
    /// after them).
    fn new(runs: Vec<File>, held: Vec<FileReport>) -> io::Result<Sorted> {
        let mut sources: Vec<Source> = Vec::with_capacity(runs.len() + 1);
        for mut run in runs {
            run.rewind()?;
            sources.push(Source::Run(BufReader::with_capacity(RUN_BUFFER, run)));
        }
        sources.push(Source::Held(held.into_iter()));
        let mut sorted = Sorted {
            heads: BinaryHeap::with_capacity(sources.len()),
            sources,
        };
        for i in 0..sorted.sources.len() {
            if let Some(e) = sorted.advance(i) {
                return Err(e);
            }
        }
        Ok(sorted)
    }

    /// Puts source `i`'s next report in the heap; an error ends the merge.
    fn advance(&mut self, i: usize) -> Option<io::Error> {
        let next = match &mut self.sources[i] {
            Source::Held(reports) => Ok(reports.next()),
            Source::Run(reader) => decode(reader),
        };
        match next {
            Ok(Some(report)) => {
                self.heads.push(Head { report, source: i });
                None
            }
            Ok(None) => None,
            Err(e) => {
                self.heads.clear();
                Some(e)
            }
        }
    }
}

impl Iterator for Sorted {
    type Item = io::Result<FileReport>;

    fn next(&mut self) -> Option<Self::Item> {
        let Head { report, source } = self.heads.pop()?;
        if let Some(e) = self.advance(source) {
            return Some(Err(e));
        }
        Some(Ok(report))
    }
}

// A run's format: each report's fields in order, a length before each
// byte string and list, little-endian u64s. Only the fields a printer
// reads are kept (a report's tally is counted before it is held).

fn encode(out: &mut impl Write, report: &FileReport) -> io::Result<()> {
    bytes(out, &report.key)?;
    bytes(out, report.stdout.as_bytes())?;
    bytes(out, report.stderr.as_bytes())?;
    bytes(out, &report.raw)?;
    number(out, report.troubles.len() as u64)?;
    for t in &report.troubles {
        encode_trouble(out, t)?;
    }
    for values in [&report.sarif, &report.sarif_notes] {
        number(out, values.len() as u64)?;
        for value in values {
            bytes(out, &serde_json::to_vec(value)?)?;
        }
    }
    match report.counts {
        Some(counts) => {
            out.write_all(&[1])?;
            number(out, counts.errors)?;
            number(out, counts.warnings)
        }
        None => out.write_all(&[0]),
    }
}

/// The next report of a run; `None` at its end.
fn decode(input: &mut impl Read) -> io::Result<Option<FileReport>> {
    let mut first = [0u8; 8];
    match input.read(&mut first[..1])? {
        0 => return Ok(None),
        _ => input.read_exact(&mut first[1..])?,
    }
    let key = read_bytes_of_len(input, u64::from_le_bytes(first))?;
    let stdout = read_string(input)?;
    let stderr = read_string(input)?;
    let raw = read_bytes(input)?;
    let troubles = (0..read_number(input)?)
        .map(|_| decode_trouble(input))
        .collect::<io::Result<Vec<_>>>()?;
    let mut values = || -> io::Result<Vec<serde_json::Value>> {
        (0..read_number(input)?)
            .map(|_| Ok(serde_json::from_slice(&read_bytes(input)?)?))
            .collect()
    };
    let sarif = values()?;
    let sarif_notes = values()?;
    let counts = match read_byte(input)? {
        0 => None,
        _ => Some(FileCounts {
            errors: read_number(input)?,
            warnings: read_number(input)?,
        }),
    };
    Ok(Some(FileReport {
        key,
        stdout,
        stderr,
        troubles,
        sarif,
        sarif_notes,
        raw,
        counts,
        ..FileReport::default()
    }))
}

fn encode_trouble(out: &mut impl Write, t: &Trouble) -> io::Result<()> {
    let (subject, path) = match &t.subject {
        Subject::Path(p) => (0, Some(p)),
        Subject::StandardInput => (1, None),
        Subject::Configuration => (2, None),
        Subject::Within(p) => (3, Some(p)),
        Subject::Unnamed => (4, None),
    };
    out.write_all(&[subject])?;
    if let Some(path) = path {
        bytes(out, &path_bytes(path))?;
    }
    let kind = match t.kind {
        Kind::Read { io } => [0, io.map_or(0, io_kind_code)],
        Kind::Walk => [1, 0],
        Kind::Config => [2, 0],
        Kind::FixRefused => [3, 0],
        Kind::FixFailed => [4, 0],
        Kind::ReadAfterFix => [5, 0],
        Kind::Internal => [6, 0],
    };
    out.write_all(&kind)?;
    bytes(out, t.detail.as_bytes())
}

fn decode_trouble(input: &mut impl Read) -> io::Result<Trouble> {
    let subject = match read_byte(input)? {
        0 => Subject::Path(path_of(read_bytes(input)?)),
        1 => Subject::StandardInput,
        2 => Subject::Configuration,
        3 => Subject::Within(path_of(read_bytes(input)?)),
        4 => Subject::Unnamed,
        _ => return Err(corrupt()),
    };
    let (kind, io) = (read_byte(input)?, read_byte(input)?);
    let kind = match kind {
        0 => Kind::Read { io: io_kind_of(io) },
        1 => Kind::Walk,
        2 => Kind::Config,
        3 => Kind::FixRefused,
        4 => Kind::FixFailed,
        5 => Kind::ReadAfterFix,
        6 => Kind::Internal,
        _ => return Err(corrupt()),
    };
    let detail = read_string(input)?;
    Ok(Trouble::new(subject, kind, detail))
}

/// The I/O error kinds a trouble may carry, by their code in a run (0 is
/// none; a kind not listed is read back as `Other`: nothing printed
/// depends on it).
const IO_KINDS: [io::ErrorKind; 15] = [
    io::ErrorKind::NotFound,
    io::ErrorKind::PermissionDenied,
    io::ErrorKind::Interrupted,
    io::ErrorKind::InvalidInput,
    io::ErrorKind::InvalidData,
    io::ErrorKind::UnexpectedEof,
    io::ErrorKind::WouldBlock,
    io::ErrorKind::TimedOut,
    io::ErrorKind::AlreadyExists,
    io::ErrorKind::BrokenPipe,
    io::ErrorKind::Unsupported,
    io::ErrorKind::OutOfMemory,
    io::ErrorKind::NotADirectory,
    io::ErrorKind::IsADirectory,
    io::ErrorKind::Other,
];

fn io_kind_code(kind: io::ErrorKind) -> u8 {
    let other = IO_KINDS.len();
    let i = IO_KINDS
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(other - 1);
    u8::try_from(i + 1).unwrap_or(0)
}

fn io_kind_of(code: u8) -> Option<io::ErrorKind> {
    (code > 0).then(|| {
        IO_KINDS
            .get(usize::from(code) - 1)
            .copied()
            .unwrap_or(io::ErrorKind::Other)
    })
}

#[cfg(unix)]
fn path_bytes(path: &std::path::Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(unix)]
fn path_of(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

#[cfg(windows)]
fn path_bytes(path: &std::path::Path) -> Vec<u8> {
    use std::os::windows::ffi::OsStrExt;
    path.as_os_str()
        .encode_wide()
        .flat_map(u16::to_le_bytes)
        .collect()
}

#[cfg(windows)]
fn path_of(bytes: Vec<u8>) -> PathBuf {
    use std::os::windows::ffi::OsStringExt;
    let wide: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    PathBuf::from(std::ffi::OsString::from_wide(&wide))
}

#[cfg(not(any(unix, windows)))]
fn path_bytes(path: &std::path::Path) -> Vec<u8> {
    path.to_string_lossy().into_owned().into_bytes()
}

#[cfg(not(any(unix, windows)))]
fn path_of(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

fn corrupt() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "a spilled report is corrupt")
}

fn number(out: &mut impl Write, n: u64) -> io::Result<()> {
    out.write_all(&n.to_le_bytes())
}

fn bytes(out: &mut impl Write, b: &[u8]) -> io::Result<()> {
    number(out, b.len() as u64)?;
    out.write_all(b)
}

fn read_byte(input: &mut impl Read) -> io::Result<u8> {
    let mut b = [0u8; 1];
    input.read_exact(&mut b)?;
    Ok(b[0])
}

fn read_number(input: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    input.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn read_bytes(input: &mut impl Read) -> io::Result<Vec<u8>> {
    let len = read_number(input)?;
    read_bytes_of_len(input, len)
}

/// `len` bytes, read without reserving more than arrives (a corrupt length
/// is an error at the end of the file, not a huge allocation).
fn read_bytes_of_len(input: &mut impl Read, len: u64) -> io::Result<Vec<u8>> {
    let mut b = Vec::new();
    input.take(len).read_to_end(&mut b)?;
    if b.len() as u64 != len {
        return Err(corrupt());
    }
    Ok(b)
}

fn read_string(input: &mut impl Read) -> io::Result<String> {
    String::from_utf8(read_bytes(input)?).map_err(|_| corrupt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(key: &str, n: usize) -> FileReport {
        FileReport {
            key: key.as_bytes().to_vec(),
            stdout: format!("{{\"path\":\"{key}\",\"n\":{n}}}\n"),
            ..FileReport::default()
        }
    }

    /// Keys in a scrambled order, some repeated.
    fn scrambled(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!("f{:05}", (i * 7919) % 613))
            .collect()
    }

    /// Pushes `n` scrambled reports under `budget`, checking the bytes
    /// held after each; gives back what the runs were at the end (their
    /// levels) and the reports in the order the merge gives them.
    fn spill_and_merge(n: usize, budget: usize) -> (Vec<u32>, Vec<(Vec<u8>, String)>) {
        let mut held = HeldReports::new(budget);
        let mut largest = 0;
        for (i, key) in scrambled(n).iter().enumerate() {
            let r = report(key, i);
            largest = largest.max(held_size(&r));
            held.push(r);
            assert!(held.held_bytes() <= budget + largest);
        }
        let levels = held.runs.iter().map(|(_, level)| *level).collect();
        let merged = held
            .into_sorted()
            .unwrap()
            .map(|r| r.map(|r| (r.key, r.stdout)))
            .collect::<io::Result<_>>()
            .unwrap();
        (levels, merged)
    }

    #[test]
    fn past_the_budget_runs_are_spilled_and_merged_in_path_order() {
        let mut most_runs = 0;
        let mut deepest = 0;
        for (n, budget) in [(2000, 4 << 10), (1500, 6 << 10), (4000, 2 << 10)] {
            let (levels, merged) = spill_and_merge(n, budget);
            most_runs = most_runs.max(levels.len());
            deepest = deepest.max(levels.iter().copied().max().unwrap_or(0));
            // At most FAN_IN - 1 runs of each level wait to be merged.
            assert!(levels.len() < FAN_IN * (deepest as usize + 1));
            // What a stable sort of every report gives.
            let mut expected: Vec<(Vec<u8>, String)> = scrambled(n)
                .iter()
                .enumerate()
                .map(|(i, key)| {
                    let r = report(key, i);
                    (r.key, r.stdout)
                })
                .collect();
            expected.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(merged, expected);
        }
        // Runs were merged as they came, and more than FAN_IN were left
        // for the end once (merged in passes there).
        assert!(deepest >= 2, "{deepest}");
        assert!(most_runs > FAN_IN, "{most_runs}");
    }

    #[test]
    fn under_the_budget_nothing_is_spilled() {
        let mut held = HeldReports::new(HELD_BUDGET);
        for (n, key) in scrambled(100).iter().enumerate() {
            held.push(report(key, n));
        }
        assert!(held.runs.is_empty());
        let keys: Vec<Vec<u8>> = held
            .into_sorted()
            .unwrap()
            .map(|r| r.unwrap().key)
            .collect();
        assert!(keys.is_sorted());
        assert_eq!(keys.len(), 100);
    }

    #[test]
    fn a_spilled_report_reads_back_whole() {
        let mut sarif = serde_json::json!({"ruleId": "U001", "z": 1, "a": [1, "x"]});
        sarif["message"] = serde_json::json!({"text": "ü"});
        let full = FileReport {
            key: b"dir/caf\xE9".to_vec(),
            stdout: "line\n".into(),
            stderr: "utf8lint: skipped it\n".into(),
            troubles: vec![
                Trouble::new(
                    Subject::Path(path_of(b"dir/caf\xE9".to_vec())),
                    Kind::Read {
                        io: Some(io::ErrorKind::PermissionDenied),
                    },
                    "permission denied",
                ),
                Trouble::new(Subject::Unnamed, Kind::Walk, "odd"),
                Trouble::new(Subject::Configuration, Kind::Config, "bad key"),
            ],
            sarif: vec![sarif.clone(), serde_json::json!(null)],
            sarif_notes: vec![sarif],
            raw: vec![0xFF, 0, b'\n'],
            counts: Some(FileCounts {
                errors: 3,
                warnings: 4,
            }),
            ..FileReport::default()
        };
        let mut run = Vec::new();
        encode(&mut run, &full).unwrap();
        encode(&mut run, &FileReport::default()).unwrap();
        let mut input = &run[..];
        let back = decode(&mut input).unwrap().unwrap();
        assert_eq!(back.key, full.key);
        assert_eq!(back.stdout, full.stdout);
        assert_eq!(back.stderr, full.stderr);
        assert_eq!(back.troubles, full.troubles);
        assert_eq!(back.raw, full.raw);
        assert_eq!(
            serde_json::to_string(&back.sarif).unwrap(),
            serde_json::to_string(&full.sarif).unwrap()
        );
        assert_eq!(back.sarif_notes, full.sarif_notes);
        assert_eq!(back.counts.map(|c| (c.errors, c.warnings)), Some((3, 4)));
        let empty = decode(&mut input).unwrap().unwrap();
        assert!(empty.key.is_empty() && empty.counts.is_none());
        assert!(decode(&mut input).unwrap().is_none());
        // A run cut short is an error, not a report.
        assert!(decode(&mut &run[..run.len() / 2]).is_err());
    }
}
