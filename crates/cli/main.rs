//! `utf8lint`: finds, explains and safely fixes UTF-8 defects.
//!
//! Exit codes: 0 nothing at deny level; 1 findings at deny level; 2 trouble
//! (bad arguments, bad configuration, unreadable input), which wins over 1.
//! A closed standard output (`utf8lint check | head -1`) ends the run
//! quietly with 0, as ripgrep does. A descriptor 1 closed before the start
//! (`>&-`) is `/dev/null` by the time `main` runs (the Rust runtime opens it
//! there, read-write, as Python's `subprocess.DEVNULL` does): the results
//! are discarded and the exit code still tells whether there were findings.

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
mod line_changes;
mod output;
mod progress;
mod report;
mod rules;
mod settings;
mod trouble;
mod walk;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Context as _, bail};
use utf8lint_diagnostics::{Level, Rule, escape_shown};

use crate::args::{CheckArgs, ColorChoice, Command, Format};
use crate::check::{Context, FixAction, Worker};
use crate::fix::FixMode;
use crate::output::OutputOptions;
use crate::output::names::display_path;
use crate::settings::{ConfigSource, Overrides, Resolver};

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

fn use_color(choice: ColorChoice, format: Format) -> bool {
    if format != Format::Human {
        return false;
    }
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => habits::color_from_env(io::stdout().is_terminal()),
    }
}

fn term_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|&w: &usize| w >= 20)
        .unwrap_or(100)
}

fn run_check(args: &CheckArgs, levels: &[(String, Level)]) -> anyhow::Result<u8> {
    let started = Instant::now();
    let overrides = Overrides {
        levels: args::resolve_levels(levels)?,
        max_per_rule: args.max_per_file,
        skip_binary: args.no_skip_binary.then_some(false),
        origin: Some("the command line".into()),
        trust_all_config: args.trust_config,
        source: match (&args.config, args.isolated) {
            (Some(file), _) => ConfigSource::File(file.clone()),
            (None, true) => ConfigSource::Isolated,
            (None, false) => ConfigSource::Discover,
        },
        ..Overrides::default()
    };
    let mut paths: Vec<PathBuf> = args.paths.iter().map(PathBuf::from).collect();
    if paths.is_empty() {
        paths.push(PathBuf::from(if args.stdin_filename.is_some() {
            "-"
        } else {
            "."
        }));
    }
    let stdin_count = paths.iter().filter(|p| p.as_os_str() == "-").count();
    if stdin_count > 1 {
        bail!("`-` (standard input) may be given only once");
    }
    if stdin_count == 1 && args.fix {
        if paths.len() > 1 {
            bail!("--fix with standard input prints the fixed bytes: give `-` alone");
        }
        if args.statistics || args.format == Format::Sarif {
            bail!(
                "--fix with standard input prints the fixed bytes on standard output, where --statistics or --format sarif would go too"
            );
        }
    }
    // Before anything is read or written: `-o` naming an input (or the
    // baseline) would replace it with the report.
    let report_file = match &args.output_file {
        Some(output) => {
            let others: Vec<(&str, &std::path::Path)> = [
                ("baseline", args.baseline.as_deref()),
                ("baseline to write", args.write_baseline.as_deref()),
                ("configuration file", args.config.as_deref()),
            ]
            .into_iter()
            .filter_map(|(what, p)| Some((what, p?)))
            .collect();
            report::refuse_clobber(output, &paths, &others)?
        }
        None => None,
    };
    if args.follow && args.fix {
        bail!("--fix does not work with --follow: it never writes through symbolic links");
    }
    let fix = match (args.fix, args.diff) {
        (true, _) => FixAction::Write(FixMode {
            unsafe_fixes: args.unsafe_fixes,
        }),
        (false, true) => FixAction::Diff(FixMode {
            unsafe_fixes: args.unsafe_fixes,
        }),
        (false, false) => FixAction::None,
    };
    let output = OutputOptions {
        format: args.format,
        color: use_color(args.color, args.format),
        term_width: term_width(),
        fix_via: habits::fix_via(),
    };
    if args.fix {
        utf8lint_workspace::remove_temp_files_on_interrupt()
            .context("cannot prepare to clean up after an interrupted fix")?;
    }
    if args.statistics && !matches!(args.format, Format::Human | Format::Json) {
        bail!("--statistics prints a table (--format human) or one JSON document (--format json)");
    }
    let resolver = Resolver::new(overrides).context("bad configuration")?;
    let mut ctx = Context::new(resolver, output, fix, args.verbose);
    ctx.statistics = args.statistics;
    ctx.excludes = exclude::overrides(args)?;
    ctx.force_exclude = args.force_exclude;
    ctx.diff_base = diff_base::DiffBase::for_run(
        args.diff_base.as_deref(),
        stdin_count == 1,
        ctx.cwd.as_deref(),
    )?;
    if let Some(id) = report_file {
        ctx.leave_out.insert(id);
    }
    ctx.baseline = match (&args.baseline, &args.write_baseline) {
        (Some(file), _) => Some(baseline::Baseline::read(file)?),
        (None, Some(file)) => {
            if let Some(id) = baseline::Baseline::refuse_to_write(file, &paths)? {
                ctx.leave_out.insert(id);
            }
            Some(baseline::Baseline::for_writing(file)?)
        }
        (None, None) => None,
    };
    let threads = args
        .threads
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));

    // Sort the arguments into files and directories. A path that cannot be
    // looked at is reported once and the run goes on.
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let mut early = Worker::new(&ctx);
    for path in &paths {
        if path.as_os_str() == "-" {
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => dirs.push(path.clone()),
            Ok(_) => files.push(path.clone()),
            Err(e) => {
                let t = if e.kind() == io::ErrorKind::NotFound {
                    let kind = trouble::Kind::Read { io: Some(e.kind()) };
                    let subject = trouble::Subject::Path(path.clone());
                    trouble::Trouble::new(subject, kind, "no such file or directory")
                } else {
                    trouble::Trouble::io(path, &e)
                };
                check::report_trouble(&ctx, &mut early, t);
            }
        }
    }
    let walk_options = utf8lint_workspace::WalkOptions {
        skip_hidden: args.no_hidden,
        no_ignore: args.no_ignore,
        follow: args.follow,
        threads,
    };
    let (mut files, stdin_excluded) =
        exclude::named_files(args, files, walk_options, &ctx.excludes);
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
        return list_files(args, &ctx, &files, &dirs, walk_options, early);
    }
    if stdin_count == 1 {
        let name = args.stdin_filename.as_deref();
        check::check_stdin(&ctx, &mut early, name, stdin_excluded);
    }
    early.flush_counts();

    let progress =
        progress::Handle::start(ctx.stats.clone(), !args.quiet && io::stderr().is_terminal());
    let mut reports = walk::run(&ctx, &files, &dirs, walk_options);
    progress.stop();
    reports.append(&mut early.reports);
    reports.sort_by(|a, b| a.key.cmp(&b.key));

    // Print, in path order.
    let mut sink = report::Sink::new(args.output_file.as_deref());
    let out = sink.writer();
    let mut err = io::stderr().lock();
    let mut file_rows = Vec::new();
    // A diff or fixed standard input is written as bytes (for `git apply`,
    // a pipe, an editor's filter), escaped for a person at a terminal.
    let raw_on_terminal = args.output_file.is_none() && io::stdout().is_terminal();
    let mut sarif_results = Vec::new();
    let mut notifications = Vec::new();
    // The findings as one document (a JSON array, a JUnit suite), unless
    // standard output holds a diff, fixed bytes or the statistics instead.
    let stdin_fixed = args.fix && stdin_count == 1;
    let findings_on_stdout = !(args.statistics || args.diff || stdin_fixed);
    let mut document = output::Document::for_format(args.format).filter(|_| findings_on_stdout);
    for mut report in reports {
        for t in &report.troubles {
            err.write_all(t.stderr_line().as_bytes())
                .context("writing to standard error")?;
            match args.format {
                Format::Sarif => {
                    notifications.push(output::sarif::notification(t, ctx.cwd.as_deref()))
                }
                Format::Github => out.write_all(output::github::trouble(t).as_bytes())?,
                Format::Json | Format::JsonLines if findings_on_stdout => {
                    report.stdout.push_str(&output::json::trouble(t))
                }
                _ => document.iter_mut().for_each(|doc| doc.trouble(t)),
            }
        }
        if !report.stderr.is_empty() {
            err.write_all(report.stderr.as_bytes())
                .context("writing to standard error")?;
        }
        match &mut document {
            Some(doc) => doc.push(out, &report.stdout)?,
            None => out.write_all(report.stdout.as_bytes())?,
        }
        if raw_on_terminal {
            out.write_all(&diff::for_terminal(&report.raw))?;
        } else {
            out.write_all(&report.raw)?;
        }
        sarif_results.extend(report.sarif);
        notifications.extend(report.sarif_notes);
        if let Some(counts) = report.counts {
            file_rows.push(report::FileRow::new(&report.key, counts));
        }
    }
    // Configuration files the resolver would not apply: said once each,
    // names escaped like every path printed.
    for note in ctx.resolver.take_notes() {
        writeln!(err, "utf8lint: note: {}", escape_shown(&note))
            .context("writing to standard error")?;
    }
    let stats = &ctx.stats;
    let troubles = stats.troubles.load(Ordering::Relaxed);
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
    if let Some(doc) = document {
        doc.finish(out)?;
    }
    if args.format == Format::Github && !args.diff {
        let (errors, warnings) = (&stats.errors, &stats.warnings);
        let notice = output::github::notice(
            errors.load(Ordering::Relaxed),
            warnings.load(Ordering::Relaxed),
        );
        out.write_all(notice.as_bytes())?;
    }
    if args.format == Format::Sarif {
        let log = output::sarif::log(sarif_results, troubles == 0, notifications);
        serde_json::to_writer_pretty(&mut *out, &log)?;
        out.write_all(b"\n")?;
    }
    if args.statistics {
        let table = match args.format {
            Format::Json => report::statistics_json(&stats.by_rule, file_rows),
            _ => report::statistics_human(&stats.by_rule, file_rows),
        };
        out.write_all(table.as_bytes())?;
    }
    sink.finish()?;

    if !args.quiet {
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
    }
    Ok(exit_code(fix, stats, args.exit_zero))
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
