fn main() {
    // `utf8lint lsp`: the language server (the CLI's clap subcommand will call the same).
    if std::env::args_os().nth(1).is_some_and(|a| a == "lsp")
        && let Err(e) = utf8lint_lsp::run()
    {
        eprintln!("utf8lint lsp: {e:#}");
        std::process::exit(2);
    }
}
