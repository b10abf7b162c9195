//! `utf8lint completions SHELL` and `utf8lint manpage`: generated from the
//! clap definition in `args.rs` (clap_complete, clap_mangen), so they can
//! never disagree with the options the binary accepts.

use std::io::Write;

use clap::CommandFactory;

use crate::args::Cli;

pub(crate) fn completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "utf8lint", &mut out);
    write_stdout(&out)
}

/// One page: the program's (name, synopsis, description, options, the list
/// of subcommands, version), then a section per subcommand with its
/// synopsis and options, since `check`'s options are the ones people look
/// up and `man utf8lint` is where they look.
pub(crate) fn manpage() -> anyhow::Result<u8> {
    let command = Cli::command();
    let mut top = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut top)?;
    let mut top = String::from_utf8(top)?;
    // The list of subcommands points at pages of their own
    // (`utf8lint-check(1)`); here they are sections of this page.
    for sub in command.get_subcommands() {
        top = top.replace(
            &format!("utf8lint\\-{}(1)", sub.get_name()),
            &format!("utf8lint {}", sub.get_name()),
        );
    }
    let mut out = top.into_bytes();
    for sub in command.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        let name = format!("utf8lint {}", sub.get_name());
        let page = clap_mangen::Man::new(sub.clone().name(name.clone()).bin_name(name.clone()));
        let mut section = Vec::new();
        page.render_synopsis_section(&mut section)?;
        page.render_options_section(&mut section)?;
        let section = String::from_utf8(section)?
            .replace(".SH SYNOPSIS", &format!(".SH \"{}\"", name.to_uppercase()))
            .replace(".SH OPTIONS", ".SS Options");
        out.extend_from_slice(section.as_bytes());
    }
    write_stdout(&out)
}

fn write_stdout(bytes: &[u8]) -> anyhow::Result<u8> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(0)
}
