//! The conventions users bring from other tools: the colour variables
//! (no-color.org, force-color.org, bixense.com/clicolors), and one line
//! after clap's error for an option ruff, typos or ripgrep has and
//! utf8lint spells differently.

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// Whether `--color auto` colours. `NO_COLOR` (set and not empty) wins over
/// everything, as in uv and pytest; then `FORCE_COLOR` or `CLICOLOR_FORCE`
/// (set and not empty, `0` or `false`) colours even when output is not a
/// terminal; then `CLICOLOR=0` turns colour off on a terminal; otherwise a
/// terminal gets colour. `--color always` and `--color never` win over
/// every variable.
pub(crate) fn color_from_env(is_terminal: bool) -> bool {
    color_from(
        |name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()),
        is_terminal,
    )
}

fn color_from(var: impl Fn(&str) -> Option<String>, is_terminal: bool) -> bool {
    if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    let forced = |name| var(name).is_some_and(|v| !matches!(v.as_str(), "" | "0" | "false"));
    if forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") {
        return true;
    }
    if var("CLICOLOR").is_some_and(|v| v == "0") {
        return false;
    }
    is_terminal
}

/// How the help names fixes: pre-commit sets `PRE_COMMIT=1` for its
/// hooks, whose users may not have `utf8lint` on `PATH`.
pub(crate) fn fix_via() -> utf8lint_diagnostics::FixVia {
    if std::env::var_os("PRE_COMMIT").is_some_and(|v| v == "1") {
        utf8lint_diagnostics::FixVia::PreCommit
    } else {
        utf8lint_diagnostics::FixVia::CommandLine
    }
}

/// Options of other linters and what utf8lint uses instead.
const HABITS: &[(&str, &str)] = &[
    // ruff
    (
        "--output-format",
        "--format (human, concise, json, json-lines, sarif, github)",
    ),
    (
        "--select",
        "-D RULE / -W RULE (deny or warn, repeatable; `utf8lint rules` lists them)",
    ),
    (
        "--extend-select",
        "-D RULE / -W RULE (deny or warn, repeatable)",
    ),
    (
        "--ignore",
        "-A RULE (allow a rule; paths go in .utf8lintignore)",
    ),
    ("--extend-ignore", "-A RULE (allow a rule, repeatable)"),
    ("--no-cache", "nothing: it keeps no cache (drop the option)"),
    (
        "--cache-dir",
        "nothing: it keeps no cache (drop the option)",
    ),
    ("--show-files", "--files"),
    ("--show-fixes", "--diff"),
    ("--fix-only", "--fix"),
    (
        "--exit-non-zero-on-fix",
        "its exit code: 1 while deny-level findings remain after --fix",
    ),
    ("--no-respect-gitignore", "--no-ignore"),
    (
        "--respect-gitignore",
        "nothing: .gitignore is honoured by default",
    ),
    ("--output", "--output-file FILE (-o)"),
    ("--silent", "--quiet (-q)"),
    (
        "--watch",
        "an editor with `utf8lint lsp`, which checks as you type",
    ),
    (
        "--preview",
        "nothing: every rule runs at its level, preview or not (`utf8lint rules` shows each rule's status)",
    ),
    // typos
    ("--write-changes", "--fix"),
    ("--format-brief", "--format concise"),
    ("--no-ignore-vcs", "--no-ignore"),
    ("--no-ignore-dot", "--no-ignore"),
    (
        "--no-ignore-hidden",
        "nothing: hidden files are checked by default (--no-hidden skips them)",
    ),
    // ripgrep, fd
    ("--no-messages", "--quiet (-q)"),
    ("--type", "paths and .utf8lintignore"),
    ("--glob", "paths and .utf8lintignore"),
];

/// The line to print after clap's error for an unknown option that
/// another tool has: `utf8lint uses --format instead of --output-format`.
pub(crate) fn hint(error: &clap::Error) -> Option<String> {
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    // `--output-format=json` is reported whole.
    let option = arg.split_once('=').map_or(arg.as_str(), |(name, _)| name);
    HABITS
        .iter()
        .find(|(theirs, _)| *theirs == option)
        .map(|(theirs, ours)| format!("utf8lint uses {ours} instead of {theirs}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn no_color_wins_then_clicolor_force_then_clicolor() {
        assert!(color_from(env(&[]), true));
        assert!(!color_from(env(&[]), false));
        assert!(!color_from(
            env(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]),
            true
        ));
        assert!(color_from(
            env(&[("NO_COLOR", ""), ("CLICOLOR_FORCE", "1")]),
            false
        ));
        assert!(!color_from(env(&[("CLICOLOR_FORCE", "0")]), false));
        assert!(!color_from(env(&[("CLICOLOR", "0")]), true));
        assert!(color_from(
            env(&[("CLICOLOR", "0"), ("CLICOLOR_FORCE", "1")]),
            false
        ));
    }

    #[test]
    fn force_color_colours_unless_no_color_is_set() {
        assert!(color_from(env(&[("FORCE_COLOR", "1")]), false));
        assert!(color_from(env(&[("FORCE_COLOR", "true")]), false));
        assert!(color_from(env(&[("FORCE_COLOR", "3")]), false));
        for off in ["", "0", "false"] {
            assert!(!color_from(env(&[("FORCE_COLOR", off)]), false), "{off:?}");
            assert!(color_from(env(&[("FORCE_COLOR", off)]), true), "{off:?}");
        }
        assert!(!color_from(
            env(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]),
            true
        ));
        assert!(color_from(
            env(&[("FORCE_COLOR", "1"), ("CLICOLOR", "0")]),
            false
        ));
    }

    #[test]
    fn every_habit_is_an_option_utf8lint_lacks() {
        use clap::CommandFactory;
        let command = crate::args::Cli::command();
        let check = command.find_subcommand("check").unwrap();
        for (theirs, _) in HABITS {
            let name = theirs.trim_start_matches("--");
            assert!(
                check.get_arguments().all(|a| a.get_long() != Some(name)),
                "{theirs} is an option of utf8lint check: its hint would never show"
            );
        }
    }
}
