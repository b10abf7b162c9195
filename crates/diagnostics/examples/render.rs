//! Renders the diagnostics for a file: `cargo run -p utf8lint-diagnostics --example render FILE`.
use std::path::Path;

fn main() {
    let path = std::env::args().nth(1).expect("usage: render FILE");
    let bytes = std::fs::read(&path).expect("read");
    let diags = utf8lint_diagnostics::check(
        &bytes,
        utf8lint_diagnostics::CheckOptions::new(Path::new(&path), &Default::default()),
    );
    let mut loc = utf8lint_diagnostics::Locator::new(&bytes);
    for d in &diags {
        print!(
            "{}\n\n",
            utf8lint_diagnostics::render_human(d, &bytes, &path, &mut loc, &Default::default())
        );
    }
}
