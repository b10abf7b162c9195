//! `utf8lint`: finds, explains and safely fixes UTF-8 defects.
//!
//! Exit codes: 0 nothing at deny level; 1 findings at deny level; 2 trouble
//! (bad arguments, bad configuration, unreadable input), which wins over 1.
//! A closed standard output (`utf8lint check | head -1`) ends the run
//! quietly with 0, as ripgrep does. A descriptor 1 closed before the start
//! (`>&-`) is `/dev/null` by the time `main` runs (the Rust runtime opens it
//! there, read-write, as Python's `subprocess.DEVNULL` does): the results
//! are discarded and the exit code still tells whether there were findings.

// No function of the CLI over 100 lines (clippy's threshold for this lint):
// a run reads as its plan, walk, printing and exit code.
#![warn(clippy::too_many_lines)]

mod args;
mod baseline;
mod check;
mod diff;
mod diff_base;
mod exclude;
mod files;
mod fix;
mod generate;
mod habits;
mod held;
mod line_changes;
mod output;
mod plan;
mod print;
mod progress;
mod report;
mod rules;
mod settings;
mod spool;
mod trouble;
mod walk;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Context as _, bail};
use utf8lint_diagnostics::{Level, Rule, escape_shown};

use crate::args::{CheckArgs, Command};
use crate::check::{Context, FixAction, Worker};
use crate::output::names::display_path;
use crate::plan::Plan;
use crate::print::Printer;

/// `utf8lint lsp`: the language server on standard input and output. Its
/// errors are the server's; standard output belongs to the protocol. Exits
/// with 0 after `shutdown` and `exit`, else 1 (`exit` alone, end of input).
fn lsp() -> anyhow::Result<u8> {
    utf8lint_lsp::run().context("the language server stopped")
}

fn main() -> ExitCode {
    let parsed = match args::parse() {
        Ok(p) => p,
        Err(e) => {
            // clap quotes the arguments it could not use, and an argument
            // may be a file name from anywhere (a hook passes them): its
            // message is escaped like every other (help and version text,
            // which are ours, are printed as they are).
            let code = if e.use_stderr() { 2 } else { 0 };
            let mut text = e.render().to_string();
            if let Some(hint) = habits::hint(&e) {
                text.push_str(&hint);
                text.push('\n');
            }
            let _ = if e.use_stderr() {
                write!(
                    io::stderr(),
                    "{}",
                    escape_shown(&text).replace("\\u{A}", "\n")
                )
            } else {
                write!(io::stdout(), "{text}")
            };
            return ExitCode::from(code);
        }
    };
    let result = match parsed.cli.command {
        Command::Check(ref check) => run_check(check, &parsed.levels),
        Command::Explain { ref rule } => explain(rule),
        Command::Rules { format } => rules::print(format),
        Command::Generate { ref root, check } => generate::generate(root, check),
        Command::Completions { shell } => generate::completions(shell),
        Command::Manpage => generate::manpage(),
        Command::Lsp { .. } => lsp(),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Not eprintln!: it panics when standard error cannot be
            // written (a full device), and the exit code says it anyway.
            let _ = writeln!(
                io::stderr(),
                "utf8lint: error: {}",
                escape_shown(&format!("{e:#}"))
            );
            ExitCode::from(2)
        }
    }
}

/// Whether `e` is a closed standard output, however it came: an I/O error,
/// or one inside serde_json's error (the SARIF log is serialized straight
/// into the output).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        let kind = match c.downcast_ref::<io::Error>() {
            Some(io) => Some(io.kind()),
            None => c
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

fn explain(name: &str) -> anyhow::Result<u8> {
    let rule = Rule::find(name).ok_or_else(|| args::unknown_rule(name))?;
    let mut out = io::stdout().lock();
    out.write_all(rule.explanation().as_bytes())?;
    if !rule.explanation().ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(0)
}

/// `utf8lint check`: the plan, the walk, the printing, the exit code.
fn run_check(args: &CheckArgs, levels: &[(String, Level)]) -> anyhow::Result<u8> {
    let started = Instant::now();
    let plan = Plan::new(args, levels)?;
    if args.fix {
        utf8lint_workspace::remove_temp_files_on_interrupt()
            .context("cannot prepare to clean up after an interrupted fix")?;
    }
    let mut ctx = plan.context(args)?;
    let mut early = Worker::new(&ctx);
    let named = plan::sort_paths(&plan.paths);
    for t in named.troubles {
        check::report_trouble(&ctx, &mut early, t);
    }
    let (mut files, stdin_excluded) =
        exclude::named_files(args, named.files, plan.walk, &ctx.excludes);
    let mut dirs = named.dirs;
    // A file named twice (`a.txt ./a.txt`, a path and its directory) is
    // checked once, as first named: a second check would report it twice,
    // and a fix of it would race the other (which holds it open).
    let cwd = ctx.cwd.clone().unwrap_or_default();
    files.retain(|file| {
        report::file_id(file).is_none_or(|id| ctx.leave_out.insert_named(&cwd, file, id))
    });
    dirs.retain({
        let mut walked = report::FileSet::default();
        move |dir| report::file_id(dir).is_none_or(|id| walked.insert(id))
    });
    if args.files {
        return list_files(args, &ctx, &files, &dirs, plan.walk, early);
    }
    if plan.stdin {
        let name = args.stdin_filename.as_deref();
        check::check_stdin(&ctx, &mut early, name, stdin_excluded);
    }
    early.flush_counts();

    let progress =
        progress::Handle::start(ctx.stats.clone(), !args.quiet && io::stderr().is_terminal());
    let mut reports = walk::run(&ctx, &files, &dirs, plan.walk);
    progress.stop();
    for report in early.reports.drain(..) {
        reports.push(report);
    }

    let mut printer = Printer::new(args, plan.stdin);
    let held = "cannot read back the reports held in a temporary file";
    for report in reports.into_sorted().context(held)? {
        let report = report.context(held)?;
        printer.report(report, &ctx)?;
    }
    let mut err = io::stderr().lock();
    // Configuration files the resolver would not apply: said once each,
    // names escaped like every path printed.
    for note in ctx.resolver.take_notes() {
        writeln!(err, "utf8lint: note: {}", escape_shown(&note))
            .context("writing to standard error")?;
    }
    if let (Some(baseline), Some(file)) = (&ctx.baseline, &args.write_baseline) {
        let written = baseline.write(file)?;
        if !args.quiet {
            writeln!(
                err,
                "utf8lint: wrote {written} {} to the baseline {}",
                plural(written as u64, "finding", "findings"),
                display_path(file).0
            )?;
        }
        let troubles = ctx.stats.troubles.load(Ordering::Relaxed);
        return Ok(if troubles > 0 { 2 } else { 0 });
    }
    if let Some(baseline) = &ctx.baseline {
        let gone = baseline.gone();
        if gone > 0 && !args.quiet {
            writeln!(
                err,
                "utf8lint: note: {gone} {} in the baseline no longer found in the files checked (fixed, or their lines edited); --write-baseline records the findings of today",
                plural(gone as u64, "finding", "findings"),
            )?;
        }
    }
    printer.finish(&ctx)?;
    if !args.quiet {
        say_summary(&mut err, &ctx, plan.fix, started)?;
    }
    Ok(exit_code(plan.fix, &ctx.stats, args.exit_zero))
}

/// The lines on standard error that end a run: what `--fix` fixed, the
/// summary, the findings by rule.
fn say_summary(
    err: &mut impl Write,
    ctx: &Context,
    fix: FixAction,
    started: Instant,
) -> io::Result<()> {
    let stats = &ctx.stats;
    let fixed_files = stats.fixed_files.load(Ordering::Relaxed);
    let fixed = stats.fixed_findings.load(Ordering::Relaxed);
    // Nothing fixed is no news (a hook runs --fix on every commit).
    if matches!(fix, FixAction::Write(_)) && fixed > 0 {
        writeln!(
            err,
            "utf8lint: fixed {fixed} {} in {fixed_files} {}",
            plural(fixed, "finding", "findings"),
            plural(fixed_files, "file", "files")
        )?;
    }
    let baselined = ctx.baseline.as_ref().map(baseline::Baseline::hidden);
    writeln!(
        err,
        "{}",
        summary(stats, baselined, started.elapsed().as_secs_f64())
    )?;
    if let Some(line) = report::by_rule_line(&stats.by_rule) {
        writeln!(err, "{line}")?;
    }
    Ok(())
}

/// 2 for trouble; else 1 for a deny-level finding, or under `--diff` for a
/// diff (as ruff's `--diff`: findings without a fix do not count), unless
/// `--exit-zero`; else 0.
fn exit_code(fix: FixAction, stats: &check::Stats, exit_zero: bool) -> u8 {
    let failed = match fix {
        FixAction::Diff(_) => stats.diffs.load(Ordering::Relaxed) > 0,
        _ => stats.errors.load(Ordering::Relaxed) > 0,
    };
    if stats.troubles.load(Ordering::Relaxed) > 0 {
        2
    } else if failed && !exit_zero {
        1
    } else {
        0
    }
}

/// `--files`: the listing instead of a check; trouble with the named paths
/// (already in `early`) still makes the exit code 2.
fn list_files(
    args: &CheckArgs,
    ctx: &check::Context,
    files: &[PathBuf],
    dirs: &[PathBuf],
    options: utf8lint_workspace::WalkOptions,
    mut early: Worker,
) -> anyhow::Result<u8> {
    if args.paths.iter().any(|p| p == "-") {
        bail!("--files lists files; standard input is not one");
    }
    let listing = files::list(ctx, files, dirs, options, args.verbose);
    let mut err = io::stderr().lock();
    let mut troubles = listing.errors.len();
    for report in std::mem::take(&mut early.reports) {
        for t in &report.troubles {
            err.write_all(t.stderr_line().as_bytes())?;
            troubles += 1;
        }
    }
    let mut sink = report::Sink::new(args.output_file.as_deref());
    files::print(&listing, sink.writer(), &mut err)?;
    sink.finish()?;
    Ok(if troubles > 0 { 2 } else { 0 })
}

fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `utf8lint: checked 3 files (12.0 KiB) in 0.01s: 1 error, 2 warnings; 4
/// findings in the baseline not shown; 1 binary file skipped`
fn summary(stats: &check::Stats, baselined: Option<usize>, secs: f64) -> String {
    let files = stats.files.load(Ordering::Relaxed);
    let bytes = stats.bytes.load(Ordering::Relaxed);
    let errors = stats.errors.load(Ordering::Relaxed);
    let warnings = stats.warnings.load(Ordering::Relaxed);
    let skipped = stats.skipped.load(Ordering::Relaxed);
    let troubles = stats.troubles.load(Ordering::Relaxed);
    let mut line = format!(
        "utf8lint: checked {files} {} ({}) in {secs:.2}s: {errors} {}, {warnings} {}",
        plural(files, "file", "files"),
        progress::human_bytes(bytes),
        plural(errors, "error", "errors"),
        plural(warnings, "warning", "warnings"),
    );
    if let Some(n) = baselined {
        line.push_str(&format!(
            "; {n} {} in the baseline not shown",
            plural(n as u64, "finding", "findings")
        ));
    }
    if skipped > 0 {
        line.push_str(&format!(
            "; {skipped} binary {} skipped",
            plural(skipped, "file", "files")
        ));
    }
    if troubles > 0 {
        line.push_str(&format!(
            "; {troubles} {} (see above)",
            plural(troubles, "problem", "problems")
        ));
    }
    line
}
