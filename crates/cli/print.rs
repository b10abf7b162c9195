//! The one printer of a `check` run: it owns standard output (or the
//! `--output-file`'s temporary file) and standard error, and each
//! format's writer there (the findings' document, the SARIF log, the
//! statistics' rows), fed the files' reports in path order.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::Ordering;

use anyhow::Context as _;

use crate::args::{CheckArgs, Format};
use crate::check::{Context, FileReport};
use crate::{diff, output, report};

pub(crate) struct Printer {
    format: Format,
    statistics: bool,
    /// Github's closing notice is for findings, not for a diff.
    diff: bool,
    sink: report::Sink,
    err: io::StderrLock<'static>,
    /// A diff or fixed standard input is written as bytes (for `git apply`,
    /// a pipe, an editor's filter), escaped for a person at a terminal.
    raw_on_terminal: bool,
    /// The findings go to standard output: not under `--statistics`,
    /// `--diff` or standard input fixed, which print there instead.
    findings_on_stdout: bool,
    /// The findings as one document (a JSON array, a JUnit suite).
    document: Option<output::Document>,
    /// The SARIF log, under `--format sarif`.
    sarif: Option<output::sarif::LogWriter>,
    file_rows: Vec<report::FileRow>,
}

impl Printer {
    /// The printer for `args`; `stdin` says whether standard input is
    /// checked.
    pub(crate) fn new(args: &CheckArgs, stdin: bool) -> Printer {
        let stdin_fixed = args.fix && stdin;
        let findings_on_stdout = !(args.statistics || args.diff || stdin_fixed);
        Printer {
            format: args.format,
            statistics: args.statistics,
            diff: args.diff,
            sink: report::Sink::new(args.output_file.as_deref()),
            err: io::stderr().lock(),
            raw_on_terminal: args.output_file.is_none() && io::stdout().is_terminal(),
            findings_on_stdout,
            document: output::Document::for_format(args.format).filter(|_| findings_on_stdout),
            sarif: (args.format == Format::Sarif).then(output::sarif::LogWriter::default),
            file_rows: Vec::new(),
        }
    }

    /// One file's report: its trouble on standard error and in the
    /// format's own place for it, its findings, its raw bytes.
    pub(crate) fn report(&mut self, mut report: FileReport, ctx: &Context) -> anyhow::Result<()> {
        let out = self.sink.writer();
        for t in &report.troubles {
            self.err
                .write_all(t.stderr_line().as_bytes())
                .context("writing to standard error")?;
            match self.format {
                Format::Sarif => self.sarif.iter_mut().for_each(|log| {
                    log.note(output::sarif::notification(t, ctx.cwd.as_deref()));
                }),
                Format::Github => out.write_all(output::github::trouble(t).as_bytes())?,
                Format::Json | Format::JsonLines if self.findings_on_stdout => {
                    report.stdout.push_str(&output::json::trouble(t));
                }
                _ => {
                    if let Some(doc) = &mut self.document {
                        doc.trouble(t)?;
                    }
                }
            }
        }
        if !report.stderr.is_empty() {
            self.err
                .write_all(report.stderr.as_bytes())
                .context("writing to standard error")?;
        }
        match &mut self.document {
            Some(doc) => doc.push(out, &report.stdout)?,
            None => out.write_all(report.stdout.as_bytes())?,
        }
        if self.raw_on_terminal {
            out.write_all(&diff::for_terminal(&report.raw))?;
        } else {
            out.write_all(&report.raw)?;
        }
        if let Some(log) = &mut self.sarif {
            for result in &report.sarif {
                log.result(result)?;
            }
            report
                .sarif_notes
                .into_iter()
                .for_each(|note| log.note(note));
        }
        if let Some(counts) = report.counts {
            self.file_rows
                .push(report::FileRow::new(&report.key, counts));
        }
        Ok(())
    }

    /// What closes the output once every report is printed: the document's
    /// end, GitHub's notice, the SARIF log, the statistics; then standard
    /// output flushed, or the output file replaced.
    pub(crate) fn finish(self, ctx: &Context) -> anyhow::Result<()> {
        let Printer {
            format,
            statistics,
            diff,
            mut sink,
            document,
            sarif,
            file_rows,
            ..
        } = self;
        let out = sink.writer();
        let stats = &ctx.stats;
        if let Some(doc) = document {
            doc.finish(out)?;
        }
        if format == Format::Github && !diff {
            let notice = output::github::notice(
                stats.errors.load(Ordering::Relaxed),
                stats.warnings.load(Ordering::Relaxed),
            );
            out.write_all(notice.as_bytes())?;
        }
        if let Some(log) = sarif {
            let clean = stats.troubles.load(Ordering::Relaxed) == 0;
            log.finish(clean, out)?;
        }
        if statistics {
            let table = match format {
                Format::Json => report::statistics_json(&stats.by_rule, file_rows),
                _ => report::statistics_human(&stats.by_rule, file_rows),
            };
            out.write_all(table.as_bytes())?;
        }
        sink.finish()
    }
}
