//! The output formats. Each file's diagnostics are rendered by the worker
//! thread that checked it (while its bytes are at hand), into text kept until
//! the files are printed in path order.

pub(crate) mod github;
mod gitlab;
pub(crate) mod json;
pub(crate) mod junit;
pub(crate) mod names;
pub(crate) use names::FileName;
mod not_shown;
mod place;
pub(crate) mod sarif;

use utf8lint_diagnostics::{
    Diagnostic, FixVia, Locator, RenderOptions, render_concise, render_human,
};

use crate::args::Format;

use place::Region;

/// How to render.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OutputOptions {
    pub format: Format,
    pub color: bool,
    pub term_width: usize,
    pub fix_via: FixVia,
}

/// Where a file's rendering goes: text for the text formats, SARIF results
/// and notifications as JSON values, assembled into one log at the end.
#[derive(Default)]
pub(crate) struct Rendered {
    pub text: String,
    pub sarif_results: Vec<serde_json::Value>,
    pub sarif_notes: Vec<serde_json::Value>,
}

/// Renders one file's diagnostics: its findings, then the display cap's
/// notes of what was left out, which are not findings ([`not_shown`]).
pub(crate) fn render_file(
    options: &OutputOptions,
    name: &FileName<'_>,
    bytes: &[u8],
    diagnostics: &[Diagnostic],
    out: &mut Rendered,
) {
    let (notes, findings): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
        diagnostics.iter().partition(|d| d.not_shown > 0);
    render_findings(options, name, bytes, &findings, out);
    if notes.is_empty() {
        return;
    }
    match options.format {
        Format::Human | Format::Concise => {
            for d in &notes {
                out.text.push_str(&not_shown::line(name, d));
            }
            if options.format == Format::Human {
                out.text.push('\n');
            }
        }
        Format::Json | Format::JsonLines => {
            let mut object = Vec::new();
            not_shown::json_object(&mut object, name, &notes);
            json::finish(object, &mut out.text);
        }
        Format::Github => {
            for d in &notes {
                out.text.push_str(&not_shown::github(name, d));
            }
        }
        Format::Sarif => {
            for d in &notes {
                out.sarif_notes.push(not_shown::sarif(name, d));
            }
        }
        // Reports of findings only: the note is no finding (the summary
        // on standard error counts what it stands for).
        Format::Gitlab | Format::Junit => {}
    }
}

fn render_findings(
    options: &OutputOptions,
    name: &FileName<'_>,
    bytes: &[u8],
    diagnostics: &[&Diagnostic],
    out: &mut Rendered,
) {
    let text = &mut out.text;
    if options.format == Format::Human {
        let mut locator = Locator::new(bytes);
        let render = RenderOptions {
            color: options.color,
            term_width: options.term_width,
            fix_via: options.fix_via,
        };
        for d in diagnostics {
            text.push_str(&render_human(d, bytes, name.display, &mut locator, &render));
            text.push_str("\n\n");
        }
        return;
    }
    let mut starts = Locator::new(bytes);
    let mut ends = Locator::new(bytes);
    let mut json_lines = Vec::new();
    let mut fingerprints = gitlab::Fingerprints::new(name.exact);
    for d in diagnostics {
        let region = Region {
            start: starts.locate(d.span.start),
            end: ends.locate(d.span.end),
        };
        match options.format {
            Format::Human => unreachable!("handled above"),
            Format::Concise => {
                text.push_str(&render_concise(d, name.display, &region.start));
                text.push('\n');
            }
            Format::Json | Format::JsonLines => {
                json::line(&mut json_lines, d, name.exact, &region, bytes);
                json_lines.push(b'\n');
            }
            Format::Github => {
                text.push_str(&github::line(d, name.display, &region));
                text.push('\n');
            }
            Format::Sarif => out.sarif_results.push(sarif::result(d, name.uri, &region)),
            Format::Gitlab => {
                let fingerprint = fingerprints.next(bytes, d);
                text.push_str(&gitlab::line(d, name.exact, &region, fingerprint));
                text.push('\n');
            }
            Format::Junit => {
                text.push_str(&junit::case(d, name.display, &region));
                text.push('\n');
            }
        }
    }
    json::finish(json_lines, text);
}

/// Renders why a file named on the command line was not checked (`why`,
/// as `binary (PNG image)`): an object of its own in `json` and
/// `json-lines`; nothing in the other formats, whose readers hear it on
/// standard error.
pub(crate) fn render_skipped(
    options: &OutputOptions,
    name: &FileName<'_>,
    why: &str,
    text: &mut String,
) {
    if matches!(options.format, Format::Json | Format::JsonLines) {
        let mut line = Vec::new();
        json::skipped(&mut line, name.exact, why);
        line.push(b'\n');
        json::finish(line, text);
    }
}

/// `--format json`: the files' JSON Lines (each file's diagnostics are
/// rendered as JSON Lines by the worker that checked it) written as one
/// JSON array, an object per line, `[]` when there is none.
#[derive(Default)]
pub(crate) struct JsonArray {
    started: bool,
}

impl JsonArray {
    /// Writes one file's JSON Lines as elements of the array.
    pub(crate) fn push(
        &mut self,
        out: &mut dyn std::io::Write,
        lines: &str,
    ) -> std::io::Result<()> {
        // A JSON string holds no raw newline: each one ends an object.
        for object in lines.split_terminator('\n') {
            out.write_all(if self.started { b",\n" } else { b"[\n" })?;
            self.started = true;
            out.write_all(object.as_bytes())?;
        }
        Ok(())
    }

    /// Closes the array.
    pub(crate) fn finish(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(if self.started { b"\n]\n" } else { b"[]\n" })
    }
}

/// The formats written as one document: the JSON arrays of `json` and
/// `gitlab`, written as the files come in, and the test suite of `junit`,
/// whose head waits for the counts of every file.
pub(crate) enum Document {
    Array(JsonArray),
    Junit(junit::Suite),
}

impl Document {
    pub(crate) fn for_format(format: Format) -> Option<Document> {
        match format {
            Format::Json | Format::Gitlab => Some(Document::Array(JsonArray::default())),
            Format::Junit => Some(Document::Junit(junit::Suite::default())),
            _ => None,
        }
    }

    /// One file's rendering.
    pub(crate) fn push(&mut self, out: &mut dyn std::io::Write, text: &str) -> std::io::Result<()> {
        match self {
            Document::Array(array) => array.push(out, text),
            Document::Junit(suite) => suite.push(text),
        }
    }

    /// A trouble, where the format has a place for it (JUnit's errors).
    pub(crate) fn trouble(&mut self, t: &crate::trouble::Trouble) -> std::io::Result<()> {
        match self {
            Document::Junit(suite) => suite.trouble(t),
            Document::Array(_) => Ok(()),
        }
    }

    pub(crate) fn finish(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Document::Array(array) => array.finish(out),
            Document::Junit(suite) => suite.finish(out),
        }
    }
}
