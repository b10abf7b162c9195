//! What a `check` run will do, settled from its arguments before anything
//! is read or written: the arguments validated (a combination that cannot
//! work is an error here), the overrides, the paths and what the run writes,
//! then the [`Context`] the workers share, and the named paths sorted into
//! files and directories.
//!
//! Beside `args.rs` (clap's definitions) rather than in it: the output
//! formats' module reads `args::Format`, and a plan naming the context and
//! the output options there would make the two import each other.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use utf8lint_diagnostics::Level;
use utf8lint_workspace::WalkOptions;

use crate::args::{self, CheckArgs, ColorChoice, Format};
use crate::check::{Context, FixAction};
use crate::fix::FixMode;
use crate::output::OutputOptions;
use crate::report::{self, FileId};
use crate::settings::{ConfigSource, Overrides, Resolver};
use crate::trouble::{Kind, Subject, Trouble};
use crate::{baseline, diff_base, exclude, habits};

/// A `check` run's arguments, validated.
pub(crate) struct Plan {
    /// The command line's settings, over the configuration files'.
    pub overrides: Overrides,
    /// The named paths (`.` or `-` when none is named).
    pub paths: Vec<PathBuf>,
    /// Whether `-` (standard input) is one of them.
    pub stdin: bool,
    /// `--output-file` when it exists already: the walk passes over it.
    pub report_file: Option<FileId>,
    pub fix: FixAction,
    pub output: OutputOptions,
    pub walk: WalkOptions,
}

impl Plan {
    /// The plan of `args`, with `levels` the -A/-W/-D flags in their order;
    /// an error for arguments that cannot work together, before anything is
    /// read or written.
    pub(crate) fn new(args: &CheckArgs, levels: &[(String, Level)]) -> anyhow::Result<Plan> {
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
        let paths = named_paths(args);
        let stdin = validate_stdin(args, &paths)?;
        // `-o` naming an input (or the baseline) would replace it with the
        // report.
        let report_file = match &args.output_file {
            Some(output) => {
                let others: Vec<(&str, &Path)> = [
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
        if args.statistics && !matches!(args.format, Format::Human | Format::Json) {
            bail!(
                "--statistics prints a table (--format human) or one JSON document (--format json)"
            );
        }
        let mode = FixMode {
            unsafe_fixes: args.unsafe_fixes,
        };
        let fix = match (args.fix, args.diff) {
            (true, _) => FixAction::Write(mode),
            (false, true) => FixAction::Diff(mode),
            (false, false) => FixAction::None,
        };
        let output = OutputOptions {
            format: args.format,
            color: use_color(args.color, args.format),
            term_width: term_width(),
            fix_via: habits::fix_via(),
        };
        let threads = args
            .threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
        let walk = WalkOptions {
            skip_hidden: args.no_hidden,
            no_ignore: args.no_ignore,
            follow: args.follow,
            threads,
        };
        Ok(Plan {
            overrides,
            paths,
            stdin,
            report_file,
            fix,
            output,
            walk,
        })
    }

    /// The context the workers share: the resolver (configuration read
    /// here), `--exclude`, `--diff-base`, the baseline, and what the walk
    /// passes over.
    pub(crate) fn context(&self, args: &CheckArgs) -> anyhow::Result<Context> {
        let resolver = Resolver::new(self.overrides.clone()).context("bad configuration")?;
        let mut ctx = Context::new(resolver, self.output, self.fix, args.verbose);
        ctx.statistics = args.statistics;
        ctx.excludes = exclude::overrides(args)?;
        ctx.force_exclude = args.force_exclude;
        let scope = diff_base::Scope {
            paths: &self.paths,
            no_ignore: args.no_ignore,
        };
        ctx.diff_base = diff_base::DiffBase::for_run(
            args.diff_base.as_deref(),
            self.stdin,
            ctx.cwd.as_deref(),
            &scope,
        )?;
        if let Some(id) = self.report_file {
            ctx.leave_out.insert(id);
        }
        ctx.baseline = match (&args.baseline, &args.write_baseline) {
            (Some(file), _) => Some(baseline::Baseline::read(file)?),
            (None, Some(file)) => {
                if let Some(id) = baseline::Baseline::refuse_to_write(file, &self.paths)? {
                    ctx.leave_out.insert(id);
                }
                Some(baseline::Baseline::for_writing(file)?)
            }
            (None, None) => None,
        };
        Ok(ctx)
    }
}

/// The paths named, or the one a run without any checks: `-` with
/// `--stdin-filename`, else `.`.
fn named_paths(args: &CheckArgs) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = args.paths.iter().map(PathBuf::from).collect();
    if paths.is_empty() {
        paths.push(PathBuf::from(if args.stdin_filename.is_some() {
            "-"
        } else {
            "."
        }));
    }
    paths
}

/// Whether standard input is read; an error when `-` is named twice, or
/// fixed where its bytes and another output would both go to standard
/// output.
fn validate_stdin(args: &CheckArgs, paths: &[PathBuf]) -> anyhow::Result<bool> {
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
    Ok(stdin_count == 1)
}

fn use_color(choice: ColorChoice, format: Format) -> bool {
    if format != Format::Human {
        return false;
    }
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => habits::color_from_env(io::IsTerminal::is_terminal(&io::stdout())),
    }
}

fn term_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|&w: &usize| w >= 20)
        .unwrap_or(100)
}

/// The named paths other than `-`, sorted into files and directories.
pub(crate) struct Named {
    pub files: Vec<PathBuf>,
    pub dirs: Vec<PathBuf>,
    /// The paths that could not be looked at: reported once each, and the
    /// run goes on.
    pub troubles: Vec<Trouble>,
}

/// Sorts `paths` into files and directories (by `stat`, following links).
pub(crate) fn sort_paths(paths: &[PathBuf]) -> Named {
    let mut named = Named {
        files: Vec::new(),
        dirs: Vec::new(),
        troubles: Vec::new(),
    };
    for path in paths {
        if path.as_os_str() == "-" {
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => named.dirs.push(path.clone()),
            Ok(_) => named.files.push(path.clone()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let kind = Kind::Read { io: Some(e.kind()) };
                let subject = Subject::Path(path.clone());
                named
                    .troubles
                    .push(Trouble::new(subject, kind, "no such file or directory"));
            }
            Err(e) => named.troubles.push(Trouble::io(path, &e)),
        }
    }
    named
}
