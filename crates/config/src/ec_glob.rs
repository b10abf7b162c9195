//! EditorConfig's section globs, by the specification
//! (spec.editorconfig.org, "Glob expressions") and its reference cores:
//! `*` any characters but `/`, `**` any characters, `?` one character but
//! `/`, `[seq]` and `[!seq]` (a bracket holding `/` is literal text),
//! `{a,b}` alternatives (nested; a brace without a comma is literal),
//! `{n1..n2}` an integer in that range, `\` escaping. A glob with a `/` is
//! matched against the path relative to the `.editorconfig`'s directory
//! (a leading `/` dropped), one without against the path's end at a `/`.
//!
//! Most globs are literal text with `*`s, `?`s and classes (`*.md`,
//! `docs/*.txt`, `[Mm]akefile`) and `**` components: those are matched
//! component by component ([`ComponentGlob`], a few bytes each), and
//! `{a,b}` choices that can be written out as several such globs. Any
//! other glob (`[!seq]`, nested or unpaired braces, `{n1..n2}`) is kept as
//! written and matched as EditorConfig's C and Python cores translate it
//! into a regular expression, by [`crate::ec_match`]'s program of that
//! translation; only a class with `--` (a set difference in the
//! expression's syntax) is compiled into the expression itself.

use std::path::Path;

use regex_automata::meta::Regex;

use crate::ec_match::Unread;
use crate::glob::ComponentGlob;

/// A section's glob, compiled as cheaply as its syntax allows.
#[derive(Clone, Debug)]
pub(crate) enum SectionGlob {
    /// `*`: every path that has a last component (how ec4rs read it,
    /// `every_file_is_what_ec4rs_says`); a directory's files then share
    /// their settings.
    EveryFile,
    Components(ComponentGlob),
    /// `{a,b}` choices written out: any of these (`*.{c,h}` is `*.c` or
    /// `*.h`).
    AnyOf(Box<[ComponentGlob]>),
    /// The glob as written, matched as its translation reads
    /// ([`crate::ec_match`]).
    Translated(Box<str>),
    /// A glob with a class holding `--`: its regular expression.
    Regex(EcGlob),
}

/// The longest glob with a `--` class compiled as a regular expression.
const MAX_SET_DIFFERENCE_GLOB: usize = 4096;

impl SectionGlob {
    /// Compiles `glob` (a section header without its brackets), or says
    /// why it is not a glob.
    pub(crate) fn new(glob: &str) -> Result<SectionGlob, String> {
        if let Some(simple) = SectionGlob::without_regex(glob) {
            return Ok(simple);
        }
        match crate::ec_match::check(glob) {
            Ok(()) => Ok(SectionGlob::Translated(glob.into())),
            Err(Unread::Error(e)) => Err(e),
            // The translation is read in time quadratic in the braces.
            Err(Unread::SetDifference) if glob.len() > MAX_SET_DIFFERENCE_GLOB => Err(format!(
                "a class with `--` in a glob of more than {MAX_SET_DIFFERENCE_GLOB} bytes: simplify it"
            )),
            Err(Unread::SetDifference) => EcGlob::new(glob).map(SectionGlob::Regex),
        }
    }

    /// `glob` when no regular expression is needed to match it: `*`, or
    /// [`ComponentGlob`]'s syntax, or that with `{a,b}` choices that can be
    /// written out ([`choices`]).
    fn without_regex(glob: &str) -> Option<SectionGlob> {
        if glob == "*" {
            return Some(SectionGlob::EveryFile);
        }
        // The anchoring of [`regex_of`] written as components: a glob
        // without `/` matches the path's last component (after `**/`), one
        // with `/` the whole path (a leading `/` dropped; a leading `**/`
        // is any run of components). Decided on the whole glob, before its
        // choices are written out: `{a/b,c}` is anchored in both.
        let anchored = glob.contains('/');
        let body = if anchored {
            glob.strip_prefix('/').unwrap_or(glob)
        } else {
            glob
        };
        let component = |text: &str| {
            if anchored || text == "**" {
                ComponentGlob::with_classes(text)
            } else {
                ComponentGlob::with_classes(&format!("**/{text}"))
            }
        };
        if !body.contains(['{', '}']) {
            return component(body).map(SectionGlob::Components);
        }
        // Choices are written out as text, which could split a class
        // (`[{,}]`): a glob with both is a regular expression.
        if body.contains('[') {
            return None;
        }
        let globs = choices(body)?
            .iter()
            .map(|text| component(text))
            .collect::<Option<Box<[_]>>>()?;
        Some(SectionGlob::AnyOf(globs))
    }

    /// Whether `relative` (a path relative to the `.editorconfig`'s
    /// directory; `bytes` its bytes, `/`-separated) matches.
    pub(crate) fn matches(&self, relative: &Path, bytes: &[u8]) -> bool {
        match self {
            SectionGlob::EveryFile => relative.components().next_back().is_some(),
            SectionGlob::Components(glob) => glob.matches(bytes),
            SectionGlob::AnyOf(globs) => globs.iter().any(|g| g.matches(bytes)),
            SectionGlob::Translated(glob) => crate::ec_match::matches(glob, bytes),
            SectionGlob::Regex(glob) => glob.matches(bytes),
        }
    }
}

/// A section glob compiled as its regular expression: the reference the
/// tests hold [`crate::ec_match`] to, and the matcher of a class with
/// `--`.
#[derive(Clone, Debug)]
pub(crate) struct EcGlob {
    regex: Regex,
    /// The `(min, max)` of each `{n1..n2}`, in the order of their groups.
    ranges: Vec<(i64, i64)>,
}

/// At most this many texts from one glob's choices, of at most
/// [`MAX_CHOICES_GROWTH`] times its length in all: beyond, the glob is a
/// regular expression (its choices multiply: `{a,b}{c,d}{e,f}` is eight).
const MAX_CHOICES: usize = 64;
const MAX_CHOICES_GROWTH: usize = 8;

/// `body` with its `{a,b}` choices written out, each text in turn (`a{b,c,}`
/// is `ab`, `ac`, `a`), when every brace is such a choice: a `{` closed by
/// the next `}`, no brace inside, a `,` in it (which [`translate`] reads
/// as a choice because the braces pair up). `None` otherwise, or if there
/// would be too many ([`MAX_CHOICES`]).
fn choices(body: &str) -> Option<Vec<String>> {
    let mut texts = vec![String::new()];
    let mut rest = body;
    let budget = MAX_CHOICES_GROWTH * body.len() + 64;
    loop {
        let open = rest.find(['{', '}']);
        let literal = &rest[..open.unwrap_or(rest.len())];
        for text in &mut texts {
            text.push_str(literal);
        }
        let Some(open) = open else {
            return Some(texts);
        };
        let after = &rest[open + 1..];
        let close = after.find(['{', '}'])?;
        if rest.as_bytes()[open] != b'{' || after.as_bytes()[close] != b'}' {
            return None;
        }
        let group = &after[..close];
        if !group.contains(',') {
            return None;
        }
        let options: Vec<&str> = group.split(',').collect();
        // A `**` made by writing a choice out would be read as a
        // component (`x/{**,y}/z` is `x/` then any text then `/z`, which
        // `x/**/z` is not): left to the regular expression.
        let star_beside = rest[..open].ends_with('*') || after[close + 1..].starts_with('*');
        if texts.len() * options.len() > MAX_CHOICES
            || options.iter().any(|o| o.contains("**"))
            || (star_beside && options.iter().any(|o| o.contains('*')))
        {
            return None;
        }
        texts = texts
            .iter()
            .flat_map(|text| options.iter().map(move |o| format!("{text}{o}")))
            .collect();
        if texts.iter().map(String::len).sum::<usize>() > budget {
            return None;
        }
        rest = &after[close + 1..];
    }
}

/// The regular expression of `glob` (a section header without its
/// brackets), and the bounds of its `{n1..n2}`s.
fn regex_of(glob: &str) -> Result<(String, Vec<(i64, i64)>), String> {
    let mut ranges = Vec::new();
    let (anchor, body) = if !glob.contains('/') {
        ("(?:.*/)?", glob)
    } else {
        let body = glob.strip_prefix('/').unwrap_or(glob);
        match body.strip_prefix("**/") {
            Some(rest) => ("(?:.*/)?", rest),
            None => ("", body),
        }
    };
    let chars: Vec<char> = body.chars().collect();
    let pattern = format!("(?s)^{anchor}{}$", translate(&chars, &mut ranges, 0)?);
    Ok((pattern, ranges))
}

impl EcGlob {
    /// Compiles `glob` (a section header without its brackets) alone.
    pub(crate) fn new(glob: &str) -> Result<EcGlob, String> {
        let (pattern, ranges) = regex_of(glob)?;
        EcGlob::compile(&pattern, ranges)
    }

    fn compile(pattern: &str, ranges: Vec<(i64, i64)>) -> Result<EcGlob, String> {
        let regex = crate::glob::compile_regex(pattern, !ranges.is_empty())?;
        Ok(EcGlob { regex, ranges })
    }

    /// Whether `relative` (bytes of a path relative to the
    /// `.editorconfig`'s directory, `/`-separated) matches.
    pub(crate) fn matches(&self, relative: &[u8]) -> bool {
        if self.ranges.is_empty() {
            return self.regex.is_match(relative);
        }
        let mut caps = self.regex.create_captures();
        self.regex.captures(relative, &mut caps);
        if !caps.is_match() {
            return false;
        }
        self.ranges.iter().enumerate().all(|(i, &(min, max))| {
            caps.get_group(i + 1)
                .and_then(|span| std::str::from_utf8(&relative[span.range()]).ok())
                // Written as the number is written: `060` is not 60.
                .filter(|n| {
                    let digits = n.trim_start_matches(['+', '-']);
                    digits == "0" || !digits.starts_with('0')
                })
                .and_then(|n| n.parse::<i64>().ok())
                .is_some_and(|n| min <= n && n <= max)
        })
    }
}

/// `c` written to match itself in a regular expression.
fn literal(out: &mut String, c: char) {
    if c.is_ascii_punctuation() || c == ' ' {
        out.push('\\');
    }
    out.push(c);
}

/// How deeply `{word}` braces (literal, translated inside) may nest.
const MAX_NESTING: usize = 32;

/// The regular expression of `pat`, as `fnmatch.translate` of
/// editorconfig-core-py writes it; each `{n1..n2}` adds its bounds to
/// `ranges` and a capture group. `nesting`: how many literal braces hold
/// `pat`.
fn translate(pat: &[char], ranges: &mut Vec<(i64, i64)>, nesting: usize) -> Result<String, String> {
    if nesting > MAX_NESTING {
        return Err(format!("braces nested more than {MAX_NESTING} deep"));
    }
    let mut out = String::new();
    // Unescaped braces: a choice needs as many `}` as `{`.
    let (mut opens, mut closes, mut esc) = (0, 0, false);
    for &c in pat {
        match c {
            _ if esc => esc = false,
            '\\' => esc = true,
            '{' => opens += 1,
            '}' => closes += 1,
            _ => {}
        }
    }
    let matching_braces = opens == closes;
    let (mut i, mut depth, mut in_brackets, mut escaped) = (0, 0usize, false, false);
    while i < pat.len() {
        let c = pat[i];
        i += 1;
        match c {
            '\\' => {
                if escaped {
                    literal(&mut out, '\\');
                }
                escaped = !escaped;
                continue;
            }
            _ if escaped && !in_brackets => literal(&mut out, c),
            '*' if !in_brackets => {
                if pat.get(i) == Some(&'*') {
                    out.push_str(".*");
                    i += 1;
                } else {
                    out.push_str("(?-u:[^/])*");
                }
            }
            '?' if !in_brackets => out.push_str("(?:[^/]|(?-u:[\\x80-\\xFF]))"),
            '[' if in_brackets => out.push_str("\\["),
            '[' => {
                // A bracket that holds a `/` before its `]` is literal.
                let close = pat[i..].iter().position(|&c| c == ']').map(|p| i + p);
                let slash = pat[i..close.unwrap_or(pat.len())]
                    .iter()
                    .enumerate()
                    .any(|(k, &c)| c == '/' && (k == 0 || pat[i + k - 1] != '\\'));
                if slash || close.is_none() {
                    literal(&mut out, '[');
                } else {
                    out.push('[');
                    if matches!(pat.get(i), Some('!' | '^')) {
                        out.push('^');
                        i += 1;
                    }
                    // `]` first in a class is itself.
                    if pat.get(i) == Some(&']') {
                        out.push_str("\\]");
                        i += 1;
                    }
                    in_brackets = true;
                }
            }
            ']' if in_brackets && escaped => out.push_str("\\]"),
            ']' if in_brackets => {
                out.push(']');
                in_brackets = false;
            }
            '-' if in_brackets => out.push('-'),
            _ if in_brackets => literal(&mut out, c),
            '{' => {
                // The matching `}` at this level, and whether a `,` comes
                // first (then it is a choice).
                let (mut k, mut esc, mut comma, mut level) = (i, false, false, 0usize);
                while k < pat.len() {
                    match pat[k] {
                        _ if esc => esc = false,
                        '\\' => esc = true,
                        '{' => level += 1,
                        '}' if level == 0 => break,
                        '}' => level -= 1,
                        ',' if level == 0 => comma = true,
                        _ => {}
                    }
                    k += 1;
                }
                if !comma && k < pat.len() {
                    let inner: String = pat[i..k].iter().collect();
                    if let Some(bounds) = crate::ec_match::numeric_range(&inner) {
                        ranges.push(bounds);
                        out.push_str("([+-]?[0-9]+)");
                    } else {
                        out.push_str("\\{");
                        out.push_str(&translate(&pat[i..k], ranges, nesting + 1)?);
                        out.push_str("\\}");
                    }
                    i = k + 1;
                } else if matching_braces && k < pat.len() {
                    out.push_str("(?:");
                    depth += 1;
                } else {
                    literal(&mut out, '{');
                }
            }
            ',' if depth > 0 => out.push('|'),
            '}' if depth > 0 => {
                out.push(')');
                depth -= 1;
            }
            '/' if pat[i..].starts_with(&['*', '*', '/']) => {
                out.push_str("(?:/|/.*/)");
                i += 3;
            }
            _ => literal(&mut out, c),
        }
        escaped = false;
    }
    // An unclosed bracket or choice: what was opened matches as written.
    if in_brackets {
        out.push(']');
    }
    for _ in 0..depth {
        out.push(')');
    }
    Ok(out)
}
