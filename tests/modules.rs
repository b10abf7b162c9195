//! No file of any crate in the workspace imports, through other files, a
//! file that imports it back.
//!
//! Each crate's modules are found from its root (`lib.rs`, `main.rs`, a
//! test's, bench's or example's file) through its `mod` declarations; the
//! nodes are files (an inline module is its file's). An edge runs from a
//! file to every file a `use` or a path written in its code (`crate::`,
//! `super::`, `self::`, a child module's name) leads to as a reader follows
//! it: a name another module re-exports (`pub use`, a private `use` its
//! children see) leads on to where it is defined, and the reader has read
//! the re-exporting file on the way, so the path is an edge to both (the
//! crate root excepted: its re-exports are the crate's names, and its code
//! is above every module). A re-export its own file's code does not use is
//! a signpost, no edge of that file. Inline `#[cfg(test)]` modules are left
//! out: a file's unit tests may use anything. A strongly connected
//! component of more than one file is a cycle, printed with the lines that
//! make its edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One token of Rust source, comments gone.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    /// `::`
    Path,
    Punct(char),
}

/// The tokens of `src` with their line numbers. Comments are dropped and
/// literals kept as [`Tok::Str`] (chars and numbers as punctuation noise).
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let ident_byte = |c: u8| c == b'_' || c.is_ascii_alphanumeric();
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
            }
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) && {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == b'#').count();
            b.get(i + 1 + hashes) == Some(&b'"')
        } {
            // A raw string: r"...", r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|&&h| h == b'#').count();
            let start = i + 2 + hashes;
            let mut close = b"\"".to_vec();
            close.extend(std::iter::repeat_n(b'#', hashes));
            let mut j = start;
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            line += b[start..j].iter().filter(|&&x| x == b'\n').count();
            out.push((Tok::Str(src[start..j].to_string()), line));
            i = (j + close.len()).min(b.len());
        } else if c == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let j = j.min(b.len());
            line += b[i..j].iter().filter(|&&x| x == b'\n').count();
            out.push((Tok::Str(src[i + 1..j].to_string()), line));
            i = j + 1;
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if b.get(i + 1) == Some(&b'\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != b'\'' {
                    j += 1;
                }
                i = j + 1;
            } else {
                let ch = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                if b.get(i + 1 + ch) == Some(&b'\'') {
                    i += ch + 2;
                } else {
                    out.push((Tok::Punct('\''), line));
                    i += 1;
                }
            }
        } else if ident_byte(c) {
            let mut j = i;
            while j < b.len() && ident_byte(b[j]) {
                j += 1;
            }
            if !c.is_ascii_digit() {
                out.push((Tok::Ident(src[i..j].to_string()), line));
            }
            i = j;
        } else if b[i..].starts_with(b"::") {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            let ch = src[i..].chars().next().unwrap();
            if !ch.is_whitespace() {
                out.push((Tok::Punct(ch), line));
            }
            i += ch.len_utf8();
        }
    }
    out
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// The index just past the bracket that closes the one at `open`.
fn close_of(toks: &[(Tok, usize)], open: usize) -> usize {
    let (o, c) = match toks[open].0 {
        Tok::Punct('[') => ('[', ']'),
        Tok::Punct('(') => ('(', ')'),
        _ => ('{', '}'),
    };
    let mut depth = 0;
    for (k, (t, _)) in toks.iter().enumerate().skip(open) {
        if *t == Tok::Punct(o) {
            depth += 1;
        } else if *t == Tok::Punct(c) {
            depth -= 1;
            if depth == 0 {
                return k + 1;
            }
        }
    }
    toks.len()
}

/// A module path from the crate root, `[]` for the root.
type Module = Vec<String>;

/// One `use` path or written path, as in the source, and where.
struct Mention {
    /// The module whose scope the path is read in (an inline module's own).
    scope: Module,
    segments: Vec<String>,
    line: usize,
    /// `pub use`/`use` names this path imports, if any (`*` for a glob).
    imports: Option<String>,
    /// Whether it is a re-export (`pub use`, `pub(crate) use`): a signpost
    /// that the files naming the item follow.
    reexport: bool,
}

#[derive(Default)]
struct Crate {
    /// Every module and the file it is in (an inline module: its file's).
    files: BTreeMap<Module, PathBuf>,
    /// Each file's module (the node the graph is drawn between).
    node_of_file: BTreeMap<PathBuf, Module>,
    mentions: BTreeMap<PathBuf, Vec<Mention>>,
    /// The names each file's code uses outside its `use` lines.
    used: BTreeMap<PathBuf, BTreeSet<String>>,
}

/// Expands the use tree starting at `toks[i]` into `(path, imported name)`
/// pairs; returns the index after it.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, String)>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Path) => i += 1,
            Some(Tok::Punct('{')) => {
                i += 1;
                while !matches!(toks.get(i).map(|t| &t.0), Some(Tok::Punct('}')) | None) {
                    i = use_tree(toks, i, &path, out);
                    if toks.get(i).map(|t| &t.0) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            Some(Tok::Punct('*')) => {
                out.push((path, "*".into()));
                return i + 1;
            }
            Some(Tok::Ident(s)) if s == "self" && !path.is_empty() => {
                i += 1;
            }
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::Path) {
                    continue;
                }
                let mut name = path.last().cloned().unwrap_or_default();
                if ident(toks.get(i)) == Some("as") {
                    name = ident(toks.get(i + 1)).unwrap_or("_").to_string();
                    i += 2;
                }
                out.push((path, name));
                return i;
            }
            _ => {
                let name = path.last().cloned().unwrap_or_default();
                out.push((path, name));
                return i;
            }
        }
    }
}

/// Whether the attributes before `toks[end]` (from `start`) hold `cfg(test)`.
fn attrs_cfg_test(toks: &[(Tok, usize)], start: usize, end: usize) -> bool {
    toks[start..end]
        .windows(4)
        .any(|w| ident(Some(&w[0])) == Some("cfg") && ident(Some(&w[2])) == Some("test"))
        && toks[start..end]
            .windows(2)
            .all(|w| !(ident(Some(&w[0])) == Some("not") && w[1].0 == Tok::Punct('(')))
}

/// Reads the module in `file` (module path `module`) and, through its
/// `mod` declarations, every module below it.
fn read_module(krate: &mut Crate, file: &Path, module: Module, is_root_or_mod_rs: bool) {
    let Ok(src) = std::fs::read_to_string(file) else {
        panic!(
            "{} is declared as a module but cannot be read",
            file.display()
        );
    };
    let toks = tokens(&src);
    let dir = if is_root_or_mod_rs {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    };
    krate.files.insert(module.clone(), file.to_path_buf());
    krate
        .node_of_file
        .insert(file.to_path_buf(), module.clone());
    let mut mentions = Vec::new();
    let mut used = BTreeSet::new();
    // The scopes of the inline modules the tokens are in: (module, the
    // depth of braces its body opened at).
    let mut scopes: Vec<(Module, usize)> = vec![(module.clone(), 0)];
    let mut depth = 0;
    let mut attrs = 0..0;
    let mut i = 0;
    while i < toks.len() {
        let scope = scopes.last().unwrap().0.clone();
        match &toks[i].0 {
            Tok::Punct('#') => {
                // Attributes: remember where the run begins and ends.
                let first = i;
                while toks.get(i).map(|t| &t.0) == Some(&Tok::Punct('#')) {
                    let mut j = i + 1;
                    if toks.get(j).map(|t| &t.0) == Some(&Tok::Punct('!')) {
                        j += 1;
                    }
                    i = close_of(&toks, j);
                }
                attrs = first..i;
                continue;
            }
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if scopes.len() > 1 && scopes.last().unwrap().1 == depth {
                    scopes.pop();
                }
                depth -= 1;
            }
            Tok::Ident(k) if k == "mod" => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    // The attributes are the item's when they end where its
                    // visibility (`pub`, `pub(crate)`) begins.
                    let mut item = i;
                    if toks[..item].last().map(|t| &t.0) == Some(&Tok::Punct(')')) {
                        while item > 0 && toks[item - 1].0 != Tok::Punct('(') {
                            item -= 1;
                        }
                        item = item.saturating_sub(1);
                    }
                    if ident(toks[..item].last()) == Some("pub") {
                        item -= 1;
                    }
                    let own = if attrs.end == item {
                        attrs.clone()
                    } else {
                        i..i
                    };
                    let test_only = attrs_cfg_test(&toks, own.start, own.end);
                    let path_attr =
                        toks[own]
                            .windows(3)
                            .find_map(|w| match (&w[0].0, &w[1].0, &w[2].0) {
                                (Tok::Ident(p), Tok::Punct('='), Tok::Str(s)) if p == "path" => {
                                    Some(s.clone())
                                }
                                _ => None,
                            });
                    let mut child = scope.clone();
                    child.push(name.to_string());
                    match toks.get(i + 2).map(|t| &t.0) {
                        Some(Tok::Punct(';')) if !test_only => {
                            let (path, mod_rs) = match path_attr {
                                // Relative to the declaring file's directory.
                                Some(p) => (file.parent().unwrap().join(p), true),
                                None => {
                                    let flat = dir.join(format!("{name}.rs"));
                                    if flat.exists() {
                                        (flat, false)
                                    } else {
                                        (dir.join(name).join("mod.rs"), true)
                                    }
                                }
                            };
                            read_module(krate, &path, child, mod_rs);
                            i += 3;
                            continue;
                        }
                        Some(Tok::Punct('{')) if test_only => {
                            i = close_of(&toks, i + 2);
                            continue;
                        }
                        Some(Tok::Punct('{')) => {
                            krate.files.insert(child.clone(), file.to_path_buf());
                            depth += 1;
                            scopes.push((child, depth));
                            i += 3;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(k) if k == "use" => {
                let mut pairs = Vec::new();
                let end = use_tree(&toks, i + 1, &[], &mut pairs);
                let reexport = ident(toks.get(i.wrapping_sub(1))) == Some("pub")
                    || (toks.get(i.wrapping_sub(1)).map(|t| &t.0) == Some(&Tok::Punct(')'))
                        && toks[..i]
                            .iter()
                            .rposition(|t| t.0 == Tok::Punct('('))
                            .is_some_and(|open| {
                                ident(toks.get(open.wrapping_sub(1))) == Some("pub")
                            }));
                for (segments, name) in pairs {
                    mentions.push(Mention {
                        scope: scope.clone(),
                        segments,
                        line: toks[i].1,
                        imports: Some(name),
                        reexport,
                    });
                }
                i = end;
                continue;
            }
            Tok::Ident(first)
                if toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Path)
                    && toks.get(i.wrapping_sub(1)).map(|t| &t.0) != Some(&Tok::Path)
                    && ident(toks.get(i.wrapping_sub(1))) != Some("in") =>
            {
                // A written path: `crate::a::b`, `super::x`, `child::f`.
                let mut segments = vec![first.clone()];
                let mut j = i + 1;
                while toks.get(j).map(|t| &t.0) == Some(&Tok::Path) {
                    match ident(toks.get(j + 1)) {
                        Some(s) => segments.push(s.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                let dollar = toks.get(i.wrapping_sub(1)).map(|t| &t.0) == Some(&Tok::Punct('$'));
                if !dollar || first == "crate" {
                    mentions.push(Mention {
                        scope: scope.clone(),
                        segments,
                        line: toks[i].1,
                        imports: None,
                        reexport: false,
                    });
                }
                i = j;
                continue;
            }
            Tok::Ident(name) => {
                used.insert(name.clone());
            }
            _ => {}
        }
        i += 1;
    }
    krate.mentions.insert(file.to_path_buf(), mentions);
    krate.used.insert(file.to_path_buf(), used);
}

/// Where the names a module imports come from: module → name → (scope,
/// path) of the `use`.
type Imports = BTreeMap<Module, BTreeMap<String, Vec<(Module, Vec<String>)>>>;

fn imports_of(krate: &Crate) -> Imports {
    let mut imports: Imports = BTreeMap::new();
    for m in krate.mentions.values().flatten() {
        if let Some(name) = &m.imports {
            imports
                .entry(m.scope.clone())
                .or_default()
                .entry(name.clone())
                .or_default()
                .push((m.scope.clone(), m.segments.clone()));
        }
    }
    imports
}

/// The module `segments` (read in `scope`) names an item of, or `None`
/// when it leads out of the crate. `via` gets each module whose `use` the
/// path was followed through on the way (a re-export's module, a reader
/// reads it to find the item).
fn resolve(
    krate: &Crate,
    imports: &Imports,
    scope: &[String],
    segments: &[String],
    depth: usize,
    via: &mut Vec<Module>,
) -> Option<Module> {
    if depth > 16 || segments.is_empty() {
        return None;
    }
    let mut cur: Module;
    let mut rest = segments;
    match segments[0].as_str() {
        "crate" => {
            cur = Vec::new();
            rest = &segments[1..];
        }
        "self" => {
            cur = scope.to_vec();
            rest = &segments[1..];
        }
        "super" => {
            cur = scope.to_vec();
            while rest.first().map(String::as_str) == Some("super") {
                cur.pop();
                rest = &rest[1..];
            }
        }
        first => {
            let mut child = scope.to_vec();
            child.push(first.to_string());
            if krate.files.contains_key(&child) {
                cur = child;
                rest = &segments[1..];
            } else if let Some(from) = imports.get(scope).and_then(|m| m.get(first)) {
                // A name the scope imported: where that import leads.
                let (s, p) = &from[0];
                if p.as_slice() == segments {
                    return None;
                }
                let mut path = p.clone();
                path.extend(segments[1..].iter().cloned());
                via.push(scope.to_vec());
                return resolve(krate, imports, s, &path, depth + 1, via);
            } else {
                return None;
            }
        }
    }
    for (k, seg) in rest.iter().enumerate() {
        let mut child = cur.clone();
        child.push(seg.clone());
        if krate.files.contains_key(&child) {
            cur = child;
            continue;
        }
        if let Some(from) = imports.get(&cur).and_then(|m| m.get(seg)) {
            let (s, p) = &from[0];
            let mut path = p.clone();
            path.extend(rest[k + 1..].iter().cloned());
            via.push(cur.clone());
            return resolve(krate, imports, s, &path, depth + 1, via).or(Some(cur));
        }
        // Through a glob import (`pub use x::*`), if the name is a module
        // or an import there.
        if let Some(globs) = imports.get(&cur).and_then(|m| m.get("*")) {
            for (s, p) in globs {
                let mut path = p.clone();
                path.extend(rest[k..].iter().cloned());
                let mut through = vec![cur.clone()];
                if let Some(t) = resolve(krate, imports, s, &path, depth + 1, &mut through)
                    && t != cur
                {
                    via.extend(through);
                    return Some(t);
                }
            }
        }
        return Some(cur);
    }
    Some(cur)
}

/// The file of `module` (an inline module: the file it is written in).
fn node(krate: &Crate, module: &[String]) -> Module {
    let file = &krate.files[module];
    krate.node_of_file[file].clone()
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// Every cycle in the crate rooted at `root`, one line per edge.
fn cycles(root: &Path) -> Vec<String> {
    let mut krate = Crate::default();
    read_module(&mut krate, root, Vec::new(), true);
    let imports = imports_of(&krate);
    // node → node → first line that makes the edge.
    let mut edges: BTreeMap<Module, BTreeMap<Module, (PathBuf, usize)>> = BTreeMap::new();
    for (file, mentions) in &krate.mentions {
        let from = krate.node_of_file[file].clone();
        for m in mentions {
            // A re-export the file's own code does not use is a signpost:
            // the files that name the item follow it (below), the file
            // itself does not depend on the item.
            if m.reexport
                && m.imports
                    .as_ref()
                    .is_some_and(|name| !krate.used[file].contains(name))
            {
                continue;
            }
            let mut via = Vec::new();
            let Some(target) = resolve(&krate, &imports, &m.scope, &m.segments, 0, &mut via) else {
                continue;
            };
            // A reader who follows a path reads every file on the way: the
            // one that defines the item and each one whose re-export leads
            // there, but the crate root, whose re-exports are the crate's
            // public names and whose code every module is below.
            let passed = via
                .iter()
                .filter(|m| !m.is_empty())
                .map(|m| node(&krate, m));
            for to in passed.chain([node(&krate, &target)]) {
                if to != from {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert((file.clone(), m.line));
                }
            }
        }
    }
    let nodes: Vec<Module> = krate.node_of_file.values().cloned().collect();
    let mut out = Vec::new();
    for scc in strongly_connected(&nodes, &edges) {
        if scc.len() < 2 {
            continue;
        }
        let members: BTreeSet<&Module> = scc.iter().collect();
        let list: Vec<String> = scc.iter().map(|m| name(m)).collect();
        out.push(format!("cycle in {}: {}", root.display(), list.join(", ")));
        for from in &scc {
            for (to, (file, line)) in edges.get(from).into_iter().flatten() {
                if members.contains(to) {
                    out.push(format!(
                        "  {} -> {}  ({}:{line})",
                        name(from),
                        name(to),
                        file.display()
                    ));
                }
            }
        }
    }
    out
}

/// Tarjan's strongly connected components.
fn strongly_connected(
    nodes: &[Module],
    edges: &BTreeMap<Module, BTreeMap<Module, (PathBuf, usize)>>,
) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeMap<Module, (PathBuf, usize)>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on_stack: BTreeSet<Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit(s: &mut State, v: &Module) {
        let i = s.index.len();
        s.index.insert(v.clone(), i);
        s.low.insert(v.clone(), i);
        s.stack.push(v.clone());
        s.on_stack.insert(v.clone());
        let next: Vec<Module> = s
            .edges
            .get(v)
            .into_iter()
            .flatten()
            .map(|(w, _)| w.clone())
            .collect();
        for w in &next {
            if !s.index.contains_key(w) {
                visit(s, w);
                let l = s.low[v].min(s.low[w]);
                s.low.insert(v.clone(), l);
            } else if s.on_stack.contains(w) {
                let l = s.low[v].min(s.index[w]);
                s.low.insert(v.clone(), l);
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = &w == v;
                scc.push(w);
                if done {
                    break;
                }
            }
            scc.sort();
            s.out.push(scc);
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in nodes {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The root file of every crate in the workspace: each member's library
/// and binaries, tests, benches and examples, and the root package's.
fn crate_roots(repo: &Path) -> Vec<PathBuf> {
    let mut roots = vec![repo.join("crates/cli/main.rs")];
    let mut dirs = vec![repo.to_path_buf()];
    for entry in std::fs::read_dir(repo.join("crates")).unwrap().flatten() {
        dirs.push(entry.path());
    }
    for dir in dirs {
        for lib in ["src/lib.rs", "src/main.rs"] {
            if dir.join(lib).exists() {
                roots.push(dir.join(lib));
            }
        }
        for kind in ["tests", "benches", "examples"] {
            let Ok(entries) = std::fs::read_dir(dir.join(kind)) else {
                continue;
            };
            for entry in entries.flatten() {
                let p = entry.path();
                if p.extension().is_some_and(|e| e == "rs") {
                    roots.push(p);
                } else if p.join("main.rs").exists() {
                    roots.push(p.join("main.rs"));
                }
            }
        }
    }
    roots.sort();
    roots
}

/// Cycles that are known and not yet cut, as `root: members`; each is
/// checked to still be there, so that the list only shrinks.
const KNOWN: &[&str] = &[];

#[test]
fn no_crate_has_a_module_cycle() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = crate_roots(repo);
    assert!(roots.len() > 10, "too few crates found: {roots:?}");
    let mut new = Vec::new();
    let mut seen = BTreeSet::new();
    for root in &roots {
        let shown = root.strip_prefix(repo).unwrap_or(root);
        let mut lines = cycles(root).into_iter().peekable();
        while let Some(head) = lines.next() {
            let members = head.strip_prefix("cycle in ").unwrap_or(&head);
            let members = format!(
                "{}: {}",
                shown.display(),
                members.split_once(": ").map_or("", |m| m.1)
            );
            let known = KNOWN.contains(&members.as_str());
            if known {
                seen.insert(members.clone());
            } else {
                new.push(format!("cycle in {members}"));
            }
            while let Some(edge) = lines.next_if(|l| l.starts_with("  ")) {
                if !known {
                    new.push(edge);
                }
            }
        }
    }
    assert!(new.is_empty(), "module cycles:\n{}", new.join("\n"));
    let gone: Vec<&&str> = KNOWN.iter().filter(|k| !seen.contains(**k)).collect();
    assert!(
        gone.is_empty(),
        "cycles gone: remove them from KNOWN: {gone:?}"
    );
}

/// The check finds a cycle where there is one and none where there is
/// none, through `crate::`, `super::`, re-exports and written paths.
#[test]
fn a_cycle_is_found_through_uses_reexports_and_paths() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    };
    w(
        "lib.rs",
        "mod a;\nmod b;\nmod c;\npub use a::A;\n#[cfg(test)]\nmod tests { use crate::c::C; }\n#[cfg(test)]\npub(crate) mod more { use crate::c::C; }\n",
    );
    w(
        "a.rs",
        "pub struct A;\n// use crate::b::B;\nconst S: &str = \"crate::b::B\";\n",
    );
    w("b.rs", "use crate::A;\npub struct B;\n");
    w(
        "c.rs",
        "pub struct C;\nfn f() { let _ = super::a::A; let _ = crate::X; }\n",
    );
    let root = dir.path().join("lib.rs");
    assert_eq!(cycles(&root), Vec::<String>::new());

    // a -> b through a written path, b -> a through the root's re-export.
    w("a.rs", "pub struct A;\nfn f() { let _ = crate::b::B; }\n");
    let found = cycles(&root);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].ends_with(": a, b"), "{found:?}");
    assert!(
        found[1].starts_with("  a -> b") && found[1].ends_with("a.rs:2)"),
        "{found:?}"
    );
    assert!(
        found[2].starts_with("  b -> a") && found[2].ends_with("b.rs:1)"),
        "{found:?}"
    );

    // Through a nested module and `super::`.
    w("a.rs", "pub struct A;\nmod inner;\n");
    w("a/inner.rs", "use super::super::c::C;\n");
    w("c.rs", "use crate::a::inner::I;\npub struct C;\n");
    let found = cycles(&root);
    assert!(found[0].ends_with(": a::inner, c"), "{found:?}");
}

/// A path through a re-export reads the file that re-exports as well as
/// the one that defines: a door with code of its own that imports its
/// users is a cycle, a door that is only signposts is none, and the crate
/// root's re-exports are the crate's names.
#[test]
fn a_path_through_a_door_reads_the_door() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    };
    w(
        "lib.rs",
        "mod door;\nmod user;\npub use door::I;\nfn f() { let _ = user::U; }\n",
    );
    w("door/inner.rs", "pub struct I;\n");
    w(
        "user.rs",
        "use crate::door::I;\nuse crate::I as J;\npub struct U;\n",
    );
    let root = dir.path().join("lib.rs");

    // Signposts only, and one to a user that the door's code never names.
    w(
        "door/mod.rs",
        "mod inner;\npub(crate) use self::inner::I;\npub use crate::user::U;\n",
    );
    assert_eq!(cycles(&root), Vec::<String>::new());

    // The door's own code names its user.
    w(
        "door/mod.rs",
        "mod inner;\npub(crate) use self::inner::I;\nfn f() { let _ = crate::user::U; }\n",
    );
    let found = cycles(&root);
    assert!(found[0].ends_with(": door, user"), "{found:?}");
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("  user -> door") && l.ends_with("user.rs:1)")),
        "{found:?}"
    );

    // A re-export the door's code uses is the door's import.
    w(
        "door/mod.rs",
        "mod inner;\npub(crate) use self::inner::I;\npub use crate::user::U;\nfn f() -> U { U }\n",
    );
    let found = cycles(&root);
    assert!(found[0].ends_with(": door, user"), "{found:?}");
}
