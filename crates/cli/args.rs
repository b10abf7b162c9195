//! The command line: `utf8lint check`, `explain`, `rules`, and the
//! hidden `generate` (the files made from the rule table).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use utf8lint_diagnostics::{Level, Rule};

/// Finds, explains and safely fixes UTF-8 defects.
#[derive(Debug, Parser)]
#[command(name = "utf8lint", version, about, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Check files and directories (default: the current directory).
    // Boxed: its many flags would make every other variant as large.
    Check(Box<CheckArgs>),
    /// Print the explanation of a rule, by code (`U001`) or name (`invalid_utf8`).
    Explain {
        /// The rule's code or name.
        rule: String,
    },
    /// List the rules: code, name, default level, status, fixability and
    /// summary.
    Rules {
        /// `human` (a table) or `json` (an array of objects, one per rule,
        /// with its explanation).
        #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
        format: RulesFormat,
    },
    /// Print a shell completion script (e.g. `utf8lint completions bash >
    /// ~/.local/share/bash-completion/completions/utf8lint`).
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on standard output (`utf8lint manpage >
    /// utf8lint.1`).
    Manpage,
    /// Write the files generated from the rule table (the VS Code settings
    /// schema, the editors' rule lists, docs/rules.md) in the repository
    /// at ROOT; with --check, only say which differ (exit 1).
    #[command(hide = true)]
    Generate {
        /// The repository's root directory.
        #[arg(long, value_name = "ROOT", default_value = ".")]
        root: PathBuf,
        /// Compare instead of writing.
        #[arg(long)]
        check: bool,
    },
    /// Run the language server on standard input and output (for editors).
    Lsp {
        /// Accepted for the clients that pass it by default: standard input
        /// and output is the only transport.
        #[arg(long)]
        stdio: bool,
        /// Accepted and ignored (vscode-languageclient passes it); the
        /// server ends when its input ends.
        #[arg(long = "clientProcessId", value_name = "PID")]
        client_process_id: Option<u32>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// rustc-style diagnostics with the line shown.
    Human,
    /// One line each: `path:line:col: level[CODE] message`.
    Concise,
    /// A JSON array, one object per diagnostic (schema in docs/output-formats.md).
    Json,
    /// JSON Lines: the same objects, one per line.
    JsonLines,
    /// SARIF 2.1.0, as GitHub code scanning accepts it.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...`).
    Github,
    /// GitLab Code Quality (a JSON array of issues with stable fingerprints).
    Gitlab,
    /// JUnit XML: one test suite, a failed test case per finding.
    Junit,
}

/// `utf8lint rules --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RulesFormat {
    /// A table.
    Human,
    /// A JSON array, one object per rule.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour when standard output is a terminal, or FORCE_COLOR or
    /// CLICOLOR_FORCE is set; never when NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// Files and directories to check; `-` reads standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,

    /// The file name standard input stands for (picks its policy and is the
    /// name shown).
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,

    /// Set a rule to `allow` (repeatable; the last of -A/-W/-D wins).
    #[arg(short = 'A', long = "allow", value_name = "RULE", action = clap::ArgAction::Append)]
    pub allow: Vec<String>,

    /// Set a rule to `warn` (repeatable; the last of -A/-W/-D wins).
    #[arg(short = 'W', long = "warn", value_name = "RULE", action = clap::ArgAction::Append)]
    pub warn: Vec<String>,

    /// Set a rule to `deny` (repeatable; the last of -A/-W/-D wins).
    #[arg(short = 'D', long = "deny", value_name = "RULE", action = clap::ArgAction::Append)]
    pub deny: Vec<String>,

    /// At most N diagnostics of one rule per file (0: only the absolute
    /// ceiling of 10,000 per rule, the rest counted in a summary).
    #[arg(long, value_name = "N")]
    pub max_per_file: Option<usize>,

    /// When to use colour in human output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Apply safe fixes (atomically, keeping permissions).
    #[arg(long)]
    pub fix: bool,

    /// With --fix or --diff, also apply unsafe fixes.
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Show the changes fixes would make (bytes escaped); write nothing.
    #[arg(long, conflicts_with = "fix")]
    pub diff: bool,

    /// Report only findings not in this baseline (written by
    /// --write-baseline): a legacy repository fails only on new defects.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,

    /// Report only findings on lines changed since the git revision REV
    /// (the working tree against REV: staged, unstaged and untracked
    /// files) and findings about a changed file as a whole; files
    /// unchanged since REV are not read.
    #[arg(long, value_name = "REV", conflicts_with_all = ["write_baseline", "files"])]
    pub diff_base: Option<String>,

    /// Record every finding in FILE as the baseline (JSON, paths relative
    /// to FILE's directory) and exit 0; report nothing else.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fix", "diff"])]
    pub write_baseline: Option<PathBuf>,

    /// Skip hidden files and directories (names starting with `.`), which
    /// are checked by default; `.git` is never entered.
    #[arg(long, overrides_with = "hidden")]
    pub no_hidden: bool,

    /// Check hidden files (the default; undoes an earlier --no-hidden, as
    /// in ripgrep).
    #[arg(long, hide = true, overrides_with = "no_hidden")]
    pub hidden: bool,

    /// Do not honour .gitignore, .ignore or .utf8lintignore files.
    #[arg(long)]
    pub no_ignore: bool,

    /// Follow symbolic links while walking directories (not with --fix).
    #[arg(short = 'L', long)]
    pub follow: bool,

    /// Check files that are binary by evidence (a binary format's
    /// signature, a NUL byte in the first 8 KiB and no UTF-16/32 pattern,
    /// bytes that read as text in no encoding) as text instead of skipping
    /// them, named on the command line or walked.
    #[arg(long)]
    pub no_skip_binary: bool,

    /// Apply configuration files that are ignored by default: a
    /// utf8lint.toml above the repository root (the directory holding
    /// `.git`), and utf8lint.toml or .editorconfig files owned by another
    /// user than the one running utf8lint (or root).
    #[arg(long)]
    pub trust_config: bool,

    /// Use this utf8lint.toml for every file instead of looking for one
    /// (its globs are relative to its directory); .editorconfig still applies.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Read no configuration file at all (utf8lint.toml, .editorconfig):
    /// built-in knowledge and the command line only.
    #[arg(long, conflicts_with_all = ["config", "trust_config"])]
    pub isolated: bool,

    /// Leave out files and directories matching GLOB (gitignore syntax,
    /// relative to the current directory; repeatable).
    #[arg(long, value_name = "GLOB", action = clap::ArgAction::Append)]
    pub exclude: Vec<String>,

    /// Apply ignore files, --exclude and `exclude` in utf8lint.toml to files
    /// named on the command line too (for hooks, which pass file names).
    #[arg(long)]
    pub force_exclude: bool,

    /// List skipped files and why.
    #[arg(short, long)]
    pub verbose: bool,

    /// No summary line on standard error.
    #[arg(short, long)]
    pub quiet: bool,

    // Output for big repositories: see `crate::report`.
    /// Print counts per rule and per file instead of the findings (human
    /// or JSON format).
    #[arg(long, conflicts_with = "diff")]
    pub statistics: bool,

    /// Exit 0 even when there are findings at deny level (trouble such as
    /// an unreadable file still exits 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// Write the report to FILE instead of standard output, whole or not
    /// at all (the summary still goes to standard error).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output_file: Option<PathBuf>,

    /// List the files that would be checked and check nothing; with
    /// --verbose, also what is skipped and why.
    #[arg(long, conflicts_with_all = ["fix", "diff", "statistics"])]
    pub files: bool,

    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
}

/// The parsed command line plus the lint-level flags in the order given.
pub(crate) struct Parsed {
    pub cli: Cli,
    /// `-A/-W/-D` in command-line order (the last wins).
    pub levels: Vec<(String, Level)>,
}

pub(crate) fn parse() -> Result<Parsed, clap::Error> {
    parse_from(std::env::args_os())
}

pub(crate) fn parse_from(args: impl IntoIterator<Item = OsString>) -> Result<Parsed, clap::Error> {
    let matches = Cli::command().try_get_matches_from(args)?;
    let cli = Cli::from_arg_matches(&matches)?;
    let levels = match matches.subcommand() {
        Some(("check", sub)) => ordered_levels(sub),
        _ => Vec::new(),
    };
    Ok(Parsed { cli, levels })
}

/// clap keeps each flag's values apart; their indices give back the order
/// in which `-A`, `-W` and `-D` were written, so that the last one wins.
fn ordered_levels(m: &ArgMatches) -> Vec<(String, Level)> {
    let mut out: Vec<(usize, String, Level)> = Vec::new();
    for (id, level) in [
        ("allow", Level::Allow),
        ("warn", Level::Warn),
        ("deny", Level::Deny),
    ] {
        if let (Some(values), Some(indices)) = (m.get_many::<String>(id), m.indices_of(id)) {
            for (value, index) in values.zip(indices) {
                out.push((index, value.clone(), level));
            }
        }
    }
    out.sort_by_key(|(i, _, _)| *i);
    out.into_iter().map(|(_, v, l)| (v, l)).collect()
}

/// Resolves rule names; an unknown one is an error naming the rules.
pub(crate) fn resolve_levels(levels: &[(String, Level)]) -> anyhow::Result<Vec<(Rule, Level)>> {
    levels
        .iter()
        .map(|(name, level)| match Rule::find(name) {
            Some(rule) => Ok((rule, *level)),
            None => Err(unknown_rule(name)),
        })
        .collect()
}

pub(crate) fn unknown_rule(name: &str) -> anyhow::Error {
    let known: Vec<String> = Rule::ALL
        .iter()
        .map(|r| format!("{} ({})", r.code(), r.name()))
        .collect();
    anyhow::anyhow!("unknown rule `{name}`; the rules are: {}", known.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(args: &[&str]) -> Vec<(String, Level)> {
        parse_from(args.iter().map(OsString::from)).unwrap().levels
    }

    #[test]
    fn level_flags_keep_command_line_order() {
        let got = levels(&[
            "utf8lint",
            "check",
            "-D",
            "U002",
            "-A",
            "stray_feff",
            "-W",
            "U001",
            "-D",
            "U001",
        ]);
        let want = [
            ("U002", Level::Deny),
            ("stray_feff", Level::Allow),
            ("U001", Level::Warn),
            ("U001", Level::Deny),
        ];
        let got: Vec<(&str, Level)> = got.iter().map(|(n, l)| (n.as_str(), *l)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn unknown_rule_is_an_error() {
        let err = resolve_levels(&[("nope".into(), Level::Deny)]).unwrap_err();
        assert!(err.to_string().contains("unknown rule `nope`"));
        assert!(err.to_string().contains("U001 (invalid_utf8)"));
    }
}
