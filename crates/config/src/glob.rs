//! The globs of `utf8lint.toml` (as `.gitignore` reads them), and the
//! regular-expression compilation they share with the rare
//! `.editorconfig` section that needs one (a class holding `--`):
//! compiled with globset's limits, so a glob too deep or too large is an
//! error, never a panic.

use std::path::Path;

/// A glob as `.gitignore` reads one: without a `/` it matches a file name in
/// any directory; with one, a path relative to the file that holds it.
///
/// Kept as its text, which is also its compiled form when it is a
/// [`ComponentGlob`] (most are), so a glob costs its bytes and two
/// pointers. Any other is handed to globset, which writes its regular
/// expression; the expression is compiled here, with globset's limits,
/// because globset's own matcher panics on one that does not compile
/// (400 nested braces exceed the parser's nesting limit): here that is an
/// error naming the glob.
#[derive(Clone, Debug)]
pub(crate) struct PathGlob {
    /// The glob as written.
    text: Box<str>,
    /// Its regular expression, when it is not matched by components.
    /// Boxed: the rare glob that has one pays for it.
    regex: Option<Box<regex_automata::meta::Regex>>,
}

/// globset's limit on a compiled glob.
pub(crate) const GLOB_SIZE_LIMIT: usize = 10 << 20;

impl PathGlob {
    /// Compiles `pattern`; the error says why it is not a glob utf8lint
    /// can use.
    pub(crate) fn new(pattern: &str) -> Result<PathGlob, String> {
        Ok(PathGlob {
            text: pattern.into(),
            regex: path_glob_regex(pattern)?.map(Box::new),
        })
    }

    /// The glob as written.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    pub(crate) fn matches(&self, relative: &Path) -> bool {
        path_glob_matches(&self.text, self.regex.as_deref(), relative)
    }
}

/// `pattern` without the `/` that roots it or names a directory
/// (`vendor/`, as in .gitignore, is matched as its path): what is matched.
fn trimmed(pattern: &str) -> &str {
    let trimmed = pattern.strip_prefix('/').unwrap_or(pattern);
    trimmed.strip_suffix('/').unwrap_or(trimmed)
}

/// The regular expression `pattern` (a glob as `.gitignore` reads one) is
/// matched by: `None` when it is matched by components
/// ([`ComponentGlob`]: literal text, `*` and `**` components, matched
/// without a regular expression, which costs 30 us to compile and
/// kilobytes to keep; a configuration may have 100,000 globs), or why it
/// is not a glob utf8lint can use.
pub(crate) fn path_glob_regex(
    pattern: &str,
) -> Result<Option<regex_automata::meta::Regex>, String> {
    let trimmed = trimmed(pattern);
    if is_component_glob(trimmed) {
        return Ok(None);
    }
    let glob = globset::GlobBuilder::new(trimmed)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| e.kind().to_string())?;
    compile_glob_regex(glob.regex()).map(Some)
}

/// Whether the glob `pattern`, whose regular expression is `regex` (from
/// [`path_glob_regex`]), matches `relative`: its file name when the
/// glob has no `/`, else the whole path.
pub(crate) fn path_glob_matches(
    pattern: &str,
    regex: Option<&regex_automata::meta::Regex>,
    relative: &Path,
) -> bool {
    let matches = |path: &[u8]| match regex {
        Some(regex) => regex.is_match(path),
        None => components_match(trimmed(pattern).as_bytes(), path),
    };
    if pattern.contains('/') {
        matches(&path_bytes(relative))
    } else {
        relative
            .file_name()
            .is_some_and(|name| matches(&path_bytes(Path::new(name))))
    }
}

/// A glob whose every component (between `/`s) is literal text with `*`s
/// (any run of bytes but `/`) or is `**` (any run of components): the
/// globs most configurations have, matched component by component, as
/// globset reads them (`literal_separator`) and as EditorConfig does.
///
/// A `**` component matches zero or more components (`**/x`, `a/**/b`),
/// one or more when it ends the glob (`a/**` is `a/` and anything after
/// it, not `a`); the glob `**` alone matches every path.
#[derive(Clone, Debug)]
pub(crate) struct ComponentGlob(Box<[u8]>);

impl ComponentGlob {
    /// `glob` as a [`ComponentGlob`], or `None` when it has other syntax
    /// (`?`, `[...]`, `{...}`, `\`), a `**` inside a component (`a**`), or
    /// two `**` components in a row.
    #[cfg(test)]
    pub(crate) fn new(glob: &str) -> Option<ComponentGlob> {
        is_component_glob(glob).then(|| ComponentGlob(glob.as_bytes().into()))
    }

    /// [`is_component_glob`]'s syntax plus EditorConfig's `?` (one
    /// character) and `[seq]` classes, for `.editorconfig` sections:
    /// `None` when the glob has a negated class (`[!a]`, which the regular
    /// expression lets match `/`), a class that could hold `/`, a `-` that
    /// is neither a range nor first or last, a class left open, `{`, `}`
    /// or `\`; those stay regular expressions. Classes are kept as
    /// written and read while matching ([`class_match`]): a few bytes a
    /// glob instead of the kilobyte of a compiled expression.
    pub(crate) fn with_classes(glob: &str) -> Option<ComponentGlob> {
        if glob.bytes().any(|b| matches!(b, b'{' | b'}' | b'\\')) {
            return None;
        }
        let mut previous_recursive = false;
        for part in glob.split('/') {
            let recursive = part == "**";
            if (recursive && previous_recursive) || (!recursive && part.contains("**")) {
                return None;
            }
            previous_recursive = recursive;
            let mut rest = part.as_bytes();
            while let Some((token, after)) = next_token(rest) {
                match token {
                    Token::Class(class) => {
                        class_items(class)?;
                    }
                    // `[]` with no second `]`: the translation opens a
                    // class it never closes.
                    Token::Byte(b'[') if after.contains(&b']') => return None,
                    _ => {}
                }
                rest = after;
            }
            if !rest.is_empty() {
                return None;
            }
        }
        Some(ComponentGlob(glob.as_bytes().into()))
    }

    /// Whether `path` (`/`-separated bytes) matches: the linear wildcard
    /// match over components, backing up to the last `**`, each other
    /// component matched by [`star_match`].
    pub(crate) fn matches(&self, path: &[u8]) -> bool {
        components_match(&self.0, path)
    }
}

/// Whether `glob` is a [`ComponentGlob`] of literal text, `*` and `**`: no `?`, `[...]`,
/// `{...}` or `\`, no `**` inside a component (`a**`), no two `**`
/// components in a row.
fn is_component_glob(glob: &str) -> bool {
    let special = |b: u8| matches!(b, b'?' | b'[' | b']' | b'{' | b'}' | b'\\');
    if glob.bytes().any(special) {
        return false;
    }
    let mut previous_recursive = false;
    glob.split('/').all(|part| {
        let recursive = part == "**";
        let fits = !(recursive && previous_recursive || !recursive && part.contains("**"));
        previous_recursive = recursive;
        fits
    })
}

/// [`ComponentGlob::matches`] of the glob `glob`.
fn components_match(glob: &[u8], path: &[u8]) -> bool {
    if glob == b"**" {
        return true;
    }
    let mut globs = glob.split(|&b| b == b'/');
    let mut parts = path.split(|&b| b == b'/');
    // Where the glob resumes after the last `**`, and the path at the
    // first component that `**` has not taken yet.
    let mut star = None;
    loop {
        match globs.next() {
            Some(b"**") => {
                if globs.clone().next().is_none() {
                    return parts.next().is_some();
                }
                star = Some((globs.clone(), parts.clone()));
                continue;
            }
            Some(glob) => {
                if parts.next().is_some_and(|part| component_match(glob, part)) {
                    continue;
                }
            }
            None => {
                if parts.next().is_none() {
                    return true;
                }
            }
        }
        // A mismatch: the last `**` takes one more component.
        let Some((star_globs, star_parts)) = &mut star else {
            return false;
        };
        if star_parts.next().is_none() {
            return false;
        }
        globs = star_globs.clone();
        parts = star_parts.clone();
    }
}

/// Whether the component `text` matches the component `glob`.
fn component_match(glob: &[u8], text: &[u8]) -> bool {
    if glob.iter().any(|&b| matches!(b, b'?' | b'[')) {
        class_match(glob, text)
    } else {
        star_match(glob, text)
    }
}

/// One piece of a component glob of [`ComponentGlob::with_classes`].
#[derive(Clone, Copy)]
enum Token<'a> {
    /// `*`: any run of bytes (none is `/` within a component).
    Star,
    /// `?`: one character, or one byte of 0x80-0xFF, as the regular
    /// expression `(?:[^/]|(?-u:[\x80-\xFF]))` that EditorConfig's
    /// translation writes: a non-ASCII character is matched whole or by
    /// its first byte.
    One,
    /// `[...]`: the class's text between its brackets.
    Class(&'a [u8]),
    Byte(u8),
}

/// The first token of `glob` and what follows it. A `[` opens a class
/// when a `]` closes it later in the component (a `]` right after the `[`
/// is itself); otherwise it is literal, as the translation reads it.
fn next_token(glob: &[u8]) -> Option<(Token<'_>, &[u8])> {
    let (&first, rest) = glob.split_first()?;
    Some(match first {
        b'*' => (Token::Star, rest),
        b'?' => (Token::One, rest),
        b'[' => {
            let skip = usize::from(rest.first() == Some(&b']'));
            match rest[skip..].iter().position(|&b| b == b']') {
                Some(close) => (
                    Token::Class(&rest[..skip + close]),
                    &rest[skip + close + 1..],
                ),
                None => (Token::Byte(b'['), rest),
            }
        }
        b => (Token::Byte(b), rest),
    })
}

/// A class's ranges of characters (`a` is `a-a`), or `None` when the
/// class is one [`ComponentGlob::with_classes`] leaves to the regular
/// expression.
fn class_items(class: &[u8]) -> Option<Vec<(char, char)>> {
    let text = std::str::from_utf8(class).ok()?;
    if text.starts_with(['!', '^']) {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut items = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if chars.get(i + 1) == Some(&'-') && i + 2 < chars.len() {
            let (lo, hi) = (c, chars[i + 2]);
            if c == '-' || hi == '-' || lo > hi || chars.get(i + 3) == Some(&'-') {
                return None;
            }
            items.push((lo, hi));
            i += 3;
        } else if c == '-' && i != 0 && i + 1 != chars.len() {
            return None;
        } else {
            items.push((c, c));
            i += 1;
        }
    }
    // A class that can hold `/` could match across components.
    if items.iter().any(|&(lo, hi)| lo <= '/' && '/' <= hi) {
        return None;
    }
    Some(items)
}

/// Whether `text` (one component) matches `glob`: the set of positions
/// in `text` each prefix of `glob` can end at, token by token (a `?` can
/// take one byte or one character).
fn class_match(glob: &[u8], text: &[u8]) -> bool {
    let mut reach = vec![false; text.len() + 1];
    let mut next = vec![false; text.len() + 1];
    reach[0] = true;
    let mut rest = glob;
    while let Some((token, after)) = next_token(rest) {
        rest = after;
        next.fill(false);
        if let Token::Star = token
            && let Some(first) = reach.iter().position(|&r| r)
        {
            next[first..].fill(true);
        }
        let items = match token {
            Token::Class(class) => class_items(class).unwrap_or_default(),
            _ => Vec::new(),
        };
        for p in (0..text.len()).filter(|&p| reach[p]) {
            match token {
                Token::Star => {}
                Token::Byte(b) => next[p + 1] |= text[p] == b,
                Token::One => {
                    next[p + 1] = true;
                    if let Some(c) = char_at(&text[p..]) {
                        next[p + c.len_utf8()] = true;
                    }
                }
                Token::Class(_) => {
                    if let Some(c) = char_at(&text[p..])
                        && items.iter().any(|&(lo, hi)| lo <= c && c <= hi)
                    {
                        next[p + c.len_utf8()] = true;
                    }
                }
            }
        }
        std::mem::swap(&mut reach, &mut next);
    }
    reach[text.len()]
}

/// The character `bytes` start with, if they start with a whole one.
pub(crate) fn char_at(bytes: &[u8]) -> Option<char> {
    let len = match bytes.first()? {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    std::str::from_utf8(bytes.get(..len)?).ok()?.chars().next()
}

/// Whether `text` matches `glob`, whose only special byte is `*` (any run
/// of bytes): the linear wildcard match that backs up to the last `*`.
fn star_match(glob: &[u8], text: &[u8]) -> bool {
    let (mut g, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match glob.get(g) {
            Some(b'*') => {
                star = Some((g, t));
                g += 1;
            }
            Some(&b) if b == text[t] => {
                g += 1;
                t += 1;
            }
            _ => match star {
                Some((star_g, star_t)) => {
                    star = Some((star_g, star_t + 1));
                    g = star_g + 1;
                    t = star_t + 1;
                }
                None => return false,
            },
        }
    }
    glob[g..].iter().all(|&b| b == b'*')
}

/// A glob's regular expression compiled as globset compiles it (bytes,
/// `.` matching a newline, its size limits), or why it cannot be.
pub(crate) fn compile_glob_regex(regex: &str) -> Result<regex_automata::meta::Regex, String> {
    compile_regex(regex, false)
}

/// [`compile_glob_regex`], with capture groups when `captures`.
pub(crate) fn compile_regex(
    regex: &str,
    captures: bool,
) -> Result<regex_automata::meta::Regex, String> {
    build_regex(regex, captures, GLOB_SIZE_LIMIT)
}

fn build_regex(
    regex: &str,
    captures: bool,
    size_limit: usize,
) -> Result<regex_automata::meta::Regex, String> {
    use regex_automata::meta::Regex;
    use regex_automata::nfa::thompson::WhichCaptures;
    let syntax = regex_automata::util::syntax::Config::new()
        .utf8(false)
        .dot_matches_new_line(true);
    // Only whether it matches is asked (and, for a glob with `{n1..n2}`,
    // its groups): no one-pass or backtracking engines.
    let config = Regex::config()
        .which_captures(if captures {
            WhichCaptures::All
        } else {
            WhichCaptures::None
        })
        .onepass(false)
        .backtrack(false)
        .utf8_empty(false)
        .nfa_size_limit(Some(size_limit))
        .hybrid_cache_capacity(GLOB_SIZE_LIMIT);
    Regex::builder()
        .syntax(syntax)
        .configure(config)
        .build(regex)
        .map_err(|e| {
            // The parser's own words quote the whole expression: say what
            // is wrong in a bounded sentence instead.
            if e.size_limit().is_some() {
                "too large once compiled (over 10 MiB): simplify it".to_owned()
            } else {
                "too complex to compile (nested too deeply or too large): simplify it".to_owned()
            }
        })
}

/// A path's bytes as a glob sees them: on Unix the bytes themselves;
/// elsewhere its text with `/` separators, as globset reads it.
#[cfg(unix)]
pub(crate) fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Borrowed(path.as_os_str().as_encoded_bytes())
}

#[cfg(not(unix))]
pub(crate) fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Owned(path.to_string_lossy().replace('\\', "/").into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_globs_match_as_globset_does() {
        let globs = [
            "*.txt",
            "a*",
            "*",
            "a*b*c",
            "docs/*.md",
            "*/x",
            "a/*/x.txt",
            "vendor",
            "*a*",
            "x*y",
            "*.tar.gz",
            "a/b",
            "**",
            "a/**/b",
            "?.txt",
            "[ab].c",
            "{a,b}.c",
            "vendor/**",
            "**/x",
            "**/*.txt",
            "a/**",
            "**/a/**/b",
            "a/**/b/**",
            "a/**/*/x.txt",
            "*/**/b",
            "a**",
            "**/**",
        ];
        let paths = [
            "a.txt",
            "b/a.txt",
            "abc",
            "aXbYc",
            "acb",
            "docs/r.md",
            "docs/x/r.md",
            "q/x",
            "x",
            "a/b/x.txt",
            "a/b/c/x.txt",
            "vendor",
            "vendor/x",
            "banana",
            "xy",
            "xay",
            "x.tar.gz",
            "a/b",
            "",
            "a",
            "a/c/b",
            "z.txt",
            "a.c",
            ".txt",
            "a/",
            "/a",
            "vendor/a/b",
            "x/y/x",
            "/x",
            "a/b/c/b",
            "a/b/c/b/d",
            "a/x/b/y",
            "q/a/b",
            "a/b/b/x.txt",
            "a/a/a/b",
            "dir/file.txt",
            "/",
        ];
        for glob in globs {
            let built = globset::GlobBuilder::new(glob)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .unwrap()
                .compile_matcher();
            let ours = compile_glob_regex(
                globset::GlobBuilder::new(glob)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .unwrap()
                    .regex(),
            )
            .unwrap();
            let by_components =
                !glob.contains(['?', '[', '{']) && !["a**", "**/**"].contains(&glob);
            assert_eq!(ComponentGlob::new(glob).is_some(), by_components, "{glob}");
            let simple = ComponentGlob::new(glob);
            for path in paths {
                let expected = built.is_match(path);
                assert_eq!(ours.is_match(path.as_bytes()), expected, "{glob} {path}");
                if let Some(simple) = &simple {
                    assert_eq!(simple.matches(path.as_bytes()), expected, "{glob} {path}");
                }
            }
        }
    }
}
