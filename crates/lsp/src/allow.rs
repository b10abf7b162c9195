//! Where and how the "Allow `rule` ..." code actions write a suppression:
//! the file's comment syntax by its name, and the place in the text.
//!
//! The suppression grammar is `utf8lint-diagnostics`' (`suppress.rs`): a
//! trailing `utf8lint: allow(rule)` covers its own line, one alone on its
//! line covers the next line, and `utf8lint: file-allow(rule)` in the first
//! lines covers the file. Formats without comments (JSON) get none here.

use ropey::Rope;
use utf8lint_diagnostics::FILE_ALLOW_LINES;

/// How a format writes a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Syntax {
    /// The line comment opener (`#`, `//`), if the format has one.
    pub line: Option<&'static str>,
    /// The block comment (`<!--`, `-->`), used when there is no line comment.
    pub block: Option<(&'static str, &'static str)>,
    /// Whether a comment may follow code on a line; if not, the comment goes
    /// alone on the line above the finding.
    pub trailing: bool,
    /// Delimiters of strings that may span lines (`"""`, `` ` ``): a line
    /// that ends inside one cannot take a trailing comment.
    pub strings: &'static [&'static str],
    /// YAML: a line inside a block scalar (`key: |`) is text, not a place
    /// for a comment.
    pub yaml: bool,
    /// gettext PO: a comment may stand only between entries (msgfmt
    /// refuses one after `msgid "..."` or between an entry's lines), so
    /// alone above a line that starts an entry.
    pub entries: bool,
}

const fn line(opener: &'static str, strings: &'static [&'static str]) -> Syntax {
    Syntax {
        line: Some(opener),
        block: None,
        trailing: true,
        strings,
        yaml: false,
        entries: false,
    }
}

const fn block(open: &'static str, close: &'static str, trailing: bool) -> Syntax {
    Syntax {
        line: None,
        block: Some((open, close)),
        trailing,
        strings: &[],
        yaml: false,
        entries: false,
    }
}

const PYTHON_STRINGS: &[&str] = &["\"\"\"", "'''"];
const BACKTICK: &[&str] = &["`"];

/// The comment syntax of the file named `name` (its last path segment),
/// `None` for a format without comments (JSON) or one utf8lint does not
/// know (plain text, where any line is content).
pub(crate) fn syntax(name: &str) -> Option<Syntax> {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    let hash = line("#", &[]);
    let slashes = line("//", &[]);
    Some(match (lower.as_str(), ext) {
        ("makefile" | "gnumakefile" | "dockerfile" | "containerfile" | "cmakelists.txt", _)
        | (".gitignore" | ".gitattributes" | ".editorconfig" | ".dockerignore" | ".env", _) => hash,
        (_, "py" | "pyi" | "pyw") => line("#", PYTHON_STRINGS),
        (_, "toml") => line("#", PYTHON_STRINGS),
        (_, "yaml" | "yml") => Syntax { yaml: true, ..hash },
        (
            _,
            "sh" | "bash" | "zsh" | "ksh" | "fish" | "rb" | "pl" | "pm" | "r" | "mk" | "cmake"
            | "nim" | "cr" | "ex" | "exs" | "jl" | "tcl" | "ps1" | "psm1" | "properties" | "cfg"
            | "conf" | "tf" | "hcl" | "nix" | "dockerfile" | "gitignore",
        ) => hash,
        (_, "po" | "pot") => Syntax {
            trailing: false,
            entries: true,
            ..hash
        },
        (_, "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" | "go") => {
            line("//", BACKTICK)
        }
        (
            _,
            "rs" | "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "java" | "cs"
            | "swift" | "kt" | "kts" | "scala" | "dart" | "php" | "groovy" | "gradle" | "zig"
            | "proto" | "jsonc" | "json5" | "sol" | "scss" | "less" | "fs" | "fsx" | "m" | "mm",
        ) => slashes,
        (_, "sql" | "lua" | "hs" | "lhs" | "elm" | "ada" | "adb" | "ads" | "purs") => {
            line("--", &[])
        }
        (_, "ini" | "lisp" | "el" | "clj" | "cljs" | "edn" | "scm" | "rkt" | "asm" | "s") => {
            line(";", &[])
        }
        (_, "tex" | "sty" | "cls" | "bib" | "erl" | "hrl") => line("%", &[]),
        (_, "f90" | "f95" | "f03") => line("!", &[]),
        (_, "vb" | "vbs" | "bas") => line("'", &[]),
        (_, "bat" | "cmd") => Syntax {
            trailing: false,
            ..line("REM", &[])
        },
        (_, "vim") => Syntax {
            trailing: false,
            ..line("\"", &[])
        },
        (_, "css") => block("/*", "*/", true),
        (_, "ml" | "mli") => block("(*", "*)", true),
        // An HTML comment inside a tag or a table row would change what it
        // means: alone on the line above.
        (
            _,
            "html" | "htm" | "xhtml" | "xml" | "svg" | "xsl" | "xslt" | "xaml" | "csproj"
            | "vbproj" | "props" | "targets" | "plist" | "rss" | "atom" | "md" | "markdown" | "mdx"
            | "vue" | "svelte",
        ) => block("<!--", "-->", false),
        _ => return None,
    })
}

impl Syntax {
    /// `body` as a comment of this syntax.
    pub(crate) fn comment(&self, body: &str) -> String {
        match (self.line, self.block) {
            (Some(opener), _) => format!("{opener} {body}"),
            (None, Some((open, close))) => format!("{open} {body} {close}"),
            (None, None) => body.to_owned(),
        }
    }

    /// The separator before a trailing comment (two spaces before `#`, as
    /// PEP 8 asks).
    fn gap(&self) -> &'static str {
        if self.line == Some("#") { "  " } else { " " }
    }
}

/// A text to insert at a character offset of the editor's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Insert {
    /// Character offset in the rope.
    pub at: usize,
    /// What to insert.
    pub text: String,
}

/// Where "allow `rule` on this line" writes its comment for a finding on
/// `line` (0-based): trailing, or alone on the line above; `None` when
/// neither reaches the line (inside a multi-line string or a YAML block
/// scalar, or after a line continued with `\`).
pub(crate) fn on_line(syntax: &Syntax, rope: &Rope, line: usize, rule: &str) -> Option<Insert> {
    if line >= rope.len_lines() {
        return None;
    }
    let comment = syntax.comment(&format!("utf8lint: allow({rule})"));
    let text_of = |l: usize| -> String { rope.line(l).chars().collect() };
    let this = text_of(line);
    let content = this.trim_end_matches(['\n', '\r']);
    let line_start = rope.line_to_char(line);
    // Nothing may trail a `#!` line (the kernel passes it to the
    // interpreter as an argument) or precede it or an XML declaration.
    let first_line_fixed = line == 0
        && (content.starts_with("#!")
            || content
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("<?xml"));
    if first_line_fixed {
        return None;
    }
    let (starts_in_string, ends_in_string) = string_state(syntax, rope, line);
    if starts_in_string || (syntax.yaml && in_block_scalar(rope, line)) {
        return None;
    }
    let previous_continues = line > 0 && text_of(line - 1).trim_end().ends_with('\\');
    let continues = content.trim_end().ends_with('\\');
    if syntax.trailing && !ends_in_string && !continues && !content.trim().is_empty() {
        return Some(Insert {
            at: line_start + content.chars().count(),
            text: format!("{}{comment}", syntax.gap()),
        });
    }
    if previous_continues {
        return None;
    }
    // Inside a PO entry (the line above is one of its lines): no place.
    let previous = (line > 0).then(|| text_of(line - 1));
    if syntax.entries
        && previous.is_some_and(|p| !p.trim().is_empty() && !p.trim_start().starts_with('#'))
    {
        return None;
    }
    let indent: String = content
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    Some(Insert {
        at: line_start,
        text: format!("{indent}{comment}{}", line_break(rope)),
    })
}

/// Where "allow `rule` in this file" writes: into an existing
/// `file-allow(...)` list in the first lines, else a new comment line at
/// the top, after what must stay first (a `#!` line, an XML or `<!DOCTYPE`
/// declaration, `<?php`, a coding cookie, a front matter block).
pub(crate) fn in_file(syntax: &Syntax, rope: &Rope, rule: &str) -> Insert {
    let lines = rope.len_lines().min(FILE_ALLOW_LINES);
    for l in 0..lines {
        let text: String = rope.line(l).chars().collect();
        if let Some(at) = text.find("utf8lint: file-allow(")
            && let Some(close) = text[at..].find(')')
        {
            let inside = &text[at + "utf8lint: file-allow(".len()..at + close];
            let sep = if inside.trim().is_empty() { "" } else { ", " };
            let close_chars = text[..at + close].chars().count();
            return Insert {
                at: rope.line_to_char(l) + close_chars,
                text: format!("{sep}{rule}"),
            };
        }
    }
    let first = |l: usize| -> String {
        if l < rope.len_lines() {
            rope.line(l).chars().collect()
        } else {
            String::new()
        }
    };
    let mut after = 0;
    let line0 = first(0);
    let lower0 = line0.trim_start().to_ascii_lowercase();
    if line0.trim_end() == "---" {
        // Front matter (Markdown, YAML documents): after its closing line.
        if let Some(end) = (1..lines).find(|&l| matches!(first(l).trim_end(), "---" | "...")) {
            after = end + 1;
        }
    } else if line0.starts_with("#!")
        || lower0.starts_with("<?xml")
        || lower0.starts_with("<!doctype")
        || lower0.starts_with("<?php")
    {
        after = 1;
    }
    // PEP 263: a coding cookie counts on the first two lines only.
    while after < 2 && is_coding_cookie(&first(after)) {
        after += 1;
    }
    let after = after.min(rope.len_lines());
    let mut at = if after < rope.len_lines() {
        rope.line_to_char(after)
    } else {
        rope.len_chars()
    };
    let mut text = format!(
        "{}{}",
        syntax.comment(&format!("utf8lint: file-allow({rule})")),
        line_break(rope)
    );
    if at == rope.len_chars() && at > 0 && !matches!(rope.char(at - 1), '\n' | '\r') {
        // The last line has no line break: the comment goes after one.
        text.insert_str(0, line_break(rope));
    }
    at = at.min(rope.len_chars());
    Insert { at, text }
}

/// PEP 263's `coding[:=]` in a comment line (and Emacs' `-*- coding -*-`).
fn is_coding_cookie(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') && (t.contains("coding:") || t.contains("coding="))
}

/// `\r\n` if the text's first line ends so, else `\n`.
fn line_break(rope: &Rope) -> &'static str {
    let first = rope.line(0);
    let n = first.len_chars();
    if n >= 2 && first.char(n - 2) == '\r' && first.char(n - 1) == '\n' {
        "\r\n"
    } else {
        "\n"
    }
}

/// Whether `line` starts inside, and ends inside, a string that spans
/// lines. A plain scan from the top: delimiters open and close strings,
/// a backslash escapes the next character inside one, and a line comment
/// outside one runs to the end of its line.
fn string_state(syntax: &Syntax, rope: &Rope, line: usize) -> (bool, bool) {
    if syntax.strings.is_empty() {
        return (false, false);
    }
    let start = rope.line_to_char(line);
    let end = if line + 1 < rope.len_lines() {
        rope.line_to_char(line + 1)
    } else {
        rope.len_chars()
    };
    let text: String = rope.slice(..end).chars().collect();
    let start_byte = rope.char_to_byte(start);
    let bytes = text.as_bytes();
    let mut open: Option<&str> = None;
    let mut at_start = false;
    let mut i = 0;
    let mut checked_start = false;
    while i < bytes.len() {
        if !checked_start && i >= start_byte {
            at_start = open.is_some();
            checked_start = true;
        }
        let rest = &text[i..];
        match open {
            Some(d) => {
                if bytes[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if rest.starts_with(d) {
                    open = None;
                    i += d.len();
                    continue;
                }
            }
            None => {
                if let Some(opener) = syntax.line
                    && rest.starts_with(opener)
                {
                    i += rest.find('\n').unwrap_or(rest.len());
                    continue;
                }
                if let Some(d) = syntax.strings.iter().find(|d| rest.starts_with(**d)) {
                    open = Some(d);
                    i += d.len();
                    continue;
                }
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    if !checked_start {
        at_start = open.is_some();
    }
    (at_start, open.is_some())
}

/// Whether `line` of a YAML text is inside a block scalar: the nearest
/// line above with less indentation ends in `|` or `>` (with its
/// indicators).
fn in_block_scalar(rope: &Rope, line: usize) -> bool {
    let indent = |s: &str| s.len() - s.trim_start_matches(' ').len();
    let this: String = rope.line(line).chars().collect();
    if this.trim().is_empty() {
        return false;
    }
    let own = indent(&this);
    for l in (0..line).rev() {
        let text: String = rope.line(l).chars().collect();
        if text.trim().is_empty() || indent(&text) >= own {
            continue;
        }
        let end = text
            .trim_end()
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '+');
        return end.ends_with('|') || end.ends_with('>');
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inserted(text: &str, insert: &Insert) -> String {
        let mut rope = Rope::from_str(text);
        rope.insert(insert.at, &insert.text);
        rope.to_string()
    }

    fn allow_line(name: &str, text: &str, line: usize) -> Option<String> {
        let syntax = syntax(name)?;
        let rope = Rope::from_str(text);
        on_line(&syntax, &rope, line, "stray_feff").map(|i| inserted(text, &i))
    }

    fn allow_file(name: &str, text: &str) -> String {
        let syntax = syntax(name).unwrap();
        inserted(text, &in_file(&syntax, &Rope::from_str(text), "stray_feff"))
    }

    #[test]
    fn each_family_writes_its_own_comment() {
        let cases = [
            ("a.py", "x = 1\n", "x = 1  # utf8lint: allow(stray_feff)\n"),
            (
                "a.rs",
                "let x;\n",
                "let x; // utf8lint: allow(stray_feff)\n",
            ),
            (
                "q.sql",
                "select 1\n",
                "select 1 -- utf8lint: allow(stray_feff)\n",
            ),
            ("a.ini", "k=v\n", "k=v ; utf8lint: allow(stray_feff)\n"),
            ("a.tex", "x\n", "x % utf8lint: allow(stray_feff)\n"),
            ("s.css", "a{}\n", "a{} /* utf8lint: allow(stray_feff) */\n"),
            (
                "README.md",
                "para\n",
                "<!-- utf8lint: allow(stray_feff) -->\npara\n",
            ),
            (
                "a.xml",
                "  <a>x</a>\r\n",
                "  <!-- utf8lint: allow(stray_feff) -->\r\n  <a>x</a>\r\n",
            ),
            (
                "run.bat",
                "echo\n",
                "REM utf8lint: allow(stray_feff)\necho\n",
            ),
            (
                "Makefile",
                "all:\n",
                "all:  # utf8lint: allow(stray_feff)\n",
            ),
        ];
        for (name, text, want) in cases {
            assert_eq!(allow_line(name, text, 0).as_deref(), Some(want), "{name}");
        }
    }

    #[test]
    fn json_and_plain_text_have_no_comment_syntax() {
        for name in ["a.json", "package-lock.json", "notes.txt", "data.bin"] {
            assert_eq!(syntax(name), None, "{name}");
        }
    }

    #[test]
    fn lines_that_cannot_take_a_trailing_comment() {
        // A string that opens on the line: the comment goes above.
        assert_eq!(
            allow_line("a.py", "    s = \"\"\"x\n    y\"\"\"\n", 0).as_deref(),
            Some("    # utf8lint: allow(stray_feff)\n    s = \"\"\"x\n    y\"\"\"\n")
        );
        // A line inside the string: no line-level suppression reaches it.
        assert_eq!(allow_line("a.py", "s = \"\"\"x\ny\"\"\"\n", 1), None);
        // A closed string, and a `\"\"\"` in a comment: trailing as usual.
        assert_eq!(
            allow_line("a.py", "s = \"\"\"x\"\"\"  # \"\"\"\nt\n", 1).as_deref(),
            Some("s = \"\"\"x\"\"\"  # \"\"\"\nt  # utf8lint: allow(stray_feff)\n")
        );
        assert_eq!(allow_line("a.js", "const s = `a\nb`;\n", 1), None);
        // A continued line: above; its last line takes a trailing comment;
        // a line in the middle of a continuation: nothing.
        assert_eq!(
            allow_line("a.sh", "echo a \\\n  b\n", 0).as_deref(),
            Some("# utf8lint: allow(stray_feff)\necho a \\\n  b\n")
        );
        assert_eq!(
            allow_line("a.sh", "echo a \\\n  b\n", 1).as_deref(),
            Some("echo a \\\n  b  # utf8lint: allow(stray_feff)\n")
        );
        assert_eq!(allow_line("a.sh", "echo \\\n  a \\\n  b\n", 1), None);
        // PO: alone above the line that starts an entry, never inside one
        // (msgfmt refuses a comment after `msgid "..."`).
        let po = "# note\nmsgid \"a\"\nmsgstr \"b\"\n\nmsgid \"c\"\nmsgstr \"d\"\n";
        assert_eq!(
            allow_line("fr.po", po, 1).as_deref(),
            Some(
                "# note\n# utf8lint: allow(stray_feff)\nmsgid \"a\"\nmsgstr \"b\"\n\nmsgid \"c\"\nmsgstr \"d\"\n"
            )
        );
        assert_eq!(
            allow_line("fr.po", po, 4).as_deref(),
            Some(
                "# note\nmsgid \"a\"\nmsgstr \"b\"\n\n# utf8lint: allow(stray_feff)\nmsgid \"c\"\nmsgstr \"d\"\n"
            )
        );
        assert_eq!(allow_line("fr.po", po, 2), None);
        assert_eq!(allow_line("fr.po", po, 5), None);
        // A `#!` line or an XML declaration stays first and alone.
        assert_eq!(allow_line("a.sh", "#!/bin/sh\necho\n", 0), None);
        assert_eq!(
            allow_line("a.xml", "<?xml version=\"1.0\"?>\n<a/>\n", 0),
            None
        );
        // YAML block scalar text, and a key beside it.
        let yaml = "k: |\n  text\nj: v\n";
        assert_eq!(allow_line("a.yml", yaml, 1), None);
        assert_eq!(
            allow_line("a.yml", yaml, 2).as_deref(),
            Some("k: |\n  text\nj: v  # utf8lint: allow(stray_feff)\n")
        );
    }

    #[test]
    fn file_allow_goes_after_what_must_stay_first() {
        assert_eq!(
            allow_file(
                "a.py",
                "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nx\n"
            ),
            "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n# utf8lint: file-allow(stray_feff)\nx\n"
        );
        assert_eq!(
            allow_file("a.xml", "<?xml version=\"1.0\"?>\n<a/>\n"),
            "<?xml version=\"1.0\"?>\n<!-- utf8lint: file-allow(stray_feff) -->\n<a/>\n"
        );
        assert_eq!(
            allow_file("a.md", "---\ntitle: x\n---\n# T\n"),
            "---\ntitle: x\n---\n<!-- utf8lint: file-allow(stray_feff) -->\n# T\n"
        );
        assert_eq!(
            allow_file("a.rs", "fn main() {}"),
            "// utf8lint: file-allow(stray_feff)\nfn main() {}"
        );
        assert_eq!(
            allow_file("a.sh", "#!/bin/sh"),
            "#!/bin/sh\n# utf8lint: file-allow(stray_feff)\n"
        );
        // An existing list grows.
        assert_eq!(
            allow_file("a.py", "# utf8lint: file-allow(U001)\nx\n"),
            "# utf8lint: file-allow(U001, stray_feff)\nx\n"
        );
    }
}
