//! `utf8lint.toml` read over `toml_parser`'s events, building only what
//! the schema keeps ([`Settings`]) and the few facts TOML's rules need
//! (which tables exist and how they were made, to refuse a key defined
//! twice): never a tree of the whole document.
//!
//! The text is lexed and parsed one top-level expression at a time (up to
//! a newline outside brackets), so the tokens held are those of the
//! longest expression, counted before they are collected (no spare
//! capacity); a long list of strings (`exclude = [...]`, the one long
//! expression a valid file has) is read token by token instead. Values are checked by the schema's own `Deserialize` impls
//! ([`crate::toml_scalar`]), so a wrong value is refused in the words the
//! `toml` crate's reading used. The first problem in the file stops the
//! reading.

use std::borrow::Cow;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, IntoDeserializer};
use toml_parser::decoder::{Encoding, ScalarKind};
use toml_parser::lexer::{Lexer, Token, TokenKind};
use toml_parser::parser::{EventReceiver, RecursionGuard, ValidateWhitespace, parse_document};
use toml_parser::{ErrorSink, Expected, ParseError, Raw, Source, Span};
use utf8lint_diagnostics::{Level, Rule};

use crate::error::ConfigError;
use crate::settings::{
    Entries, GlobKey, LevelValue, PolicyValue, RuleKey, RuleLevels, Settings, line_of,
};
use crate::toml_keys::KeyStore;
use crate::toml_list::{LONG_EXPRESSION, ListReader, ListShape};
use crate::toml_scalar::{Refusal, Scalar, not_a_scalar};

/// Why the text is not a `utf8lint.toml`: where (a byte offset), the key
/// path at fault (`lints.not_a_rule`, `exclude[1]`), and what is wrong.
#[derive(Debug)]
pub(crate) struct Problem {
    pub(crate) offset: Option<usize>,
    pub(crate) key: Option<String>,
    pub(crate) message: String,
}

/// Where the keys of the settings read were written (byte offsets of the
/// key), for notes that cite a line.
#[derive(Debug, Default)]
pub(crate) struct KeyOffsets {
    pub(crate) max_per_file: usize,
    pub(crate) exclude: usize,
    pub(crate) agent_instructions: usize,
    /// One per `[lints]` entry, in order.
    pub(crate) lints: Vec<u32>,
    /// One per `[bom]` entry.
    pub(crate) bom: Vec<u32>,
    /// One per `[per-file-lints]` entry.
    pub(crate) per_file: Vec<u32>,
}

/// How deep arrays and inline tables may nest, and how many keys a dotted
/// key may have: the `toml` crate's limit.
const NESTING_LIMIT: u32 = 80;

/// Reads `text` as a `utf8lint.toml`.
pub(crate) fn read(text: &str) -> Result<(Settings, KeyOffsets), Problem> {
    let source = Source::new(text);
    // Two lexers over the same text: one counts an expression's tokens,
    // the other collects them into a vector of exactly that size.
    let mut counter = source.lex();
    let mut lexer = source.lex();
    let mut tokens: Vec<Token> = Vec::new();
    let mut reader = Reader::new(text);
    loop {
        let mut shape = ListShape::default();
        let (count, _) = expression(&mut counter, |t| shape.step(t.kind()));
        if count == 0 {
            break;
        }
        let mut errors = FirstError(None);
        let last = if count > LONG_EXPRESSION && shape.is_list() {
            let mut list = ListReader::default();
            let (_, last) = expression(&mut lexer, |t| {
                list.take(t, &mut reader, source, &mut errors)
            });
            last
        } else {
            tokens.clear();
            tokens.reserve_exact(count);
            let (_, last) = expression(&mut lexer, |t| tokens.push(t));
            let mut whitespace = ValidateWhitespace::new(&mut reader, source);
            let mut guarded = RecursionGuard::new(&mut whitespace, NESTING_LIMIT);
            parse_document(&tokens, &mut guarded, &mut errors);
            last
        };
        if let Some(error) = errors.0 {
            return Err(parse_problem(&error));
        }
        if let Some(problem) = reader.problem.take() {
            return Err(problem);
        }
        reader.end_expression();
        if last {
            break;
        }
    }
    Ok((reader.settings, reader.offsets))
}

/// Takes the tokens of one top-level expression from `lexer`: up to and
/// with a newline outside brackets, or the end. Their number, and whether
/// the end was reached.
fn expression(lexer: &mut Lexer<'_>, mut take: impl FnMut(Token)) -> (usize, bool) {
    let mut depth = 0i64;
    let mut count = 0;
    for token in lexer.by_ref() {
        count += 1;
        take(token);
        match token.kind() {
            TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket => depth += 1,
            TokenKind::RightSquareBracket | TokenKind::RightCurlyBracket => depth -= 1,
            TokenKind::Newline if depth <= 0 => return (count, false),
            TokenKind::Eof => return (count, true),
            _ => {}
        }
    }
    (count, true)
}

/// The first error the parser or a decoder reported.
struct FirstError(Option<ParseError>);

impl ErrorSink for FirstError {
    fn report_error(&mut self, error: ParseError) {
        if self.0.is_none() {
            self.0 = Some(error);
        }
    }
}

/// A parser's error in the `toml` crate's words ("string values must be
/// quoted, expected literal string").
fn parse_problem(error: &ParseError) -> Problem {
    let mut message = error.description().to_owned();
    if let Some(expected) = error.expected() {
        message.push_str(", expected ");
        if expected.is_empty() {
            message.push_str("nothing");
        }
        for (i, expected) in expected.iter().enumerate() {
            if i != 0 {
                message.push_str(", ");
            }
            match expected {
                Expected::Literal("\n") => message.push_str("newline"),
                Expected::Literal("`") => message.push_str("'`'"),
                Expected::Literal(s) if s.chars().all(|c| c.is_ascii_control()) => {
                    message.push_str(&format!("`{}`", s.escape_debug()));
                }
                Expected::Literal(s) => message.push_str(&format!("`{s}`")),
                Expected::Description(s) => message.push_str(s),
                _ => message.push_str("etc"),
            }
        }
    }
    Problem {
        offset: error.unexpected().map(|s| s.start()),
        key: None,
        message: message.trim().to_owned(),
    }
}

/// A key of the root table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    MaxPerFile,
    SkipBinary,
    WorkspaceScan,
    Lints,
    Bom,
    PerFileLints,
    Root,
    Exclude,
    AgentInstructions,
    Path,
    Trace,
}

/// The root table's keys as serde's derive lists them (in its message for
/// an unknown one), and the field each names.
const ROOT_NAMES: &[&str] = &[
    "max-per-file",
    "maxPerFile",
    "skip-binary",
    "skipBinary",
    "workspace-scan",
    "workspaceScan",
    "lints",
    "bom",
    "per-file-lints",
    "perFileLints",
    "root",
    "exclude",
    "agent-instructions",
    "path",
    "trace",
];
const ROOT_FIELDS: [Field; 15] = [
    Field::MaxPerFile,
    Field::MaxPerFile,
    Field::SkipBinary,
    Field::SkipBinary,
    Field::WorkspaceScan,
    Field::WorkspaceScan,
    Field::Lints,
    Field::Bom,
    Field::PerFileLints,
    Field::PerFileLints,
    Field::Root,
    Field::Exclude,
    Field::AgentInstructions,
    Field::Path,
    Field::Trace,
];

impl Field {
    /// The name serde's derive gives it (its first spelling).
    fn name(self) -> &'static str {
        ROOT_FIELDS
            .iter()
            .position(|f| *f == self)
            .map_or("", |i| ROOT_NAMES[i])
    }
}

/// Which list an array fills.
#[derive(Clone, Copy, Debug)]
enum List {
    Exclude,
    AgentInstructions,
    /// The rules of `[per-file-lints]` entry `n`, each allowed.
    PerFileRules(usize),
}

/// Where a table or a value lands in the schema.
#[derive(Clone, Debug)]
enum Slot {
    Root,
    Field(Field),
    /// `path` and `trace` (editor settings, refused once the rest is
    /// read): anything, unexamined.
    Ignored,
    Level(Rule),
    Policy(GlobKey),
    /// `[per-file-lints]` entry `n`.
    PerFileEntry(usize),
    PerFileLevel(usize, Rule),
    Item(List),
}

impl Slot {
    /// Whether a table may stand here.
    fn takes_table(&self) -> bool {
        matches!(
            self,
            Slot::Root
                | Slot::Ignored
                | Slot::PerFileEntry(_)
                | Slot::Field(Field::Lints | Field::Bom | Field::PerFileLints)
        )
    }

    /// Whether an array may stand here.
    fn takes_array(&self) -> bool {
        matches!(
            self,
            Slot::Ignored
                | Slot::PerFileEntry(_)
                | Slot::Field(Field::Exclude | Field::AgentInstructions)
        )
    }

    /// What serde's messages say is expected here.
    fn expected(&self) -> &'static str {
        match self {
            Slot::Field(Field::MaxPerFile) => "usize",
            Slot::Field(Field::SkipBinary | Field::WorkspaceScan | Field::Root) => "a boolean",
            Slot::Field(Field::Exclude | Field::AgentInstructions) => "a sequence",
            Slot::Field(Field::Lints | Field::Bom | Field::PerFileLints) => "a table",
            Slot::PerFileEntry(_) => "a table of rule = level, or a list of rules to allow",
            Slot::Level(_) | Slot::Policy(_) | Slot::PerFileLevel(..) | Slot::Item(_) => "a string",
            Slot::Root | Slot::Ignored | Slot::Field(Field::Path | Field::Trace) => "",
        }
    }
}

/// One step of a key path, as serde_path_to_error shows it.
enum Seg<'i> {
    Key(Cow<'i, str>),
    Index(usize),
}

/// What a key of a table holds, as far as TOML's rules need to know.
/// Eight bytes: a table such as `[bom]` keeps one for each of its keys.
#[derive(Clone, Copy)]
enum Child {
    /// A table that more keys may still extend: node `n`.
    Table(u32),
    /// A value (an inline table once closed), by its type's name's place
    /// in [`VALUE_TYPES`].
    Value(u8),
}

/// The names of the types of values, as TOML's errors name them.
const VALUE_TYPES: [&str; 7] = [
    "string",
    "boolean",
    "datetime",
    "float",
    "integer",
    "array",
    "inline table",
];

impl Child {
    /// Node `n`. A configuration file is at most 16 MiB, so it has fewer
    /// than 2^32 tables.
    fn table(n: usize) -> Child {
        Child::Table(n as u32)
    }

    /// A value of the type named `name`, one of [`VALUE_TYPES`].
    fn value(name: &'static str) -> Child {
        let at = VALUE_TYPES.iter().position(|t| *t == name).unwrap_or(0);
        Child::Value(at as u8)
    }

    /// In the 32 bits a [`KeyStore`] keeps: a table's node (under 2^31),
    /// or a value's type with the top bit set.
    fn pack(self) -> u32 {
        match self {
            Child::Table(n) => n & !Child::VALUE_BIT,
            Child::Value(kind) => Child::VALUE_BIT | u32::from(kind),
        }
    }

    fn unpack(bits: u32) -> Child {
        if bits & Child::VALUE_BIT == 0 {
            Child::Table(bits)
        } else {
            Child::Value((bits & 0xFF) as u8)
        }
    }

    const VALUE_BIT: u32 = 1 << 31;
}

/// The number a [`Table`] keeps for `[per-file-lints]` entry `n`: one
/// more than it, in 32 bits (a configuration file is at most 16 MiB, so
/// it has fewer than 2^32 entries).
fn entry_number(n: usize) -> std::num::NonZeroU32 {
    std::num::NonZeroU32::new(n as u32 + 1).unwrap_or(std::num::NonZeroU32::MAX)
}

/// The entry an [`entry_number`] stands for.
fn entry_index(number: std::num::NonZeroU32) -> usize {
    number.get() as usize - 1
}

/// A byte offset of the text, in 32 bits (a configuration file is at
/// most 16 MiB).
fn offset32(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

/// A table that keys may still be added to (its keys are in the
/// reader's [`KeyStore`], under its node).
#[derive(Default)]
struct Table {
    /// Made as the parent of a `[header]` or a dotted key, not defined.
    implicit: bool,
    /// Made by a dotted key.
    dotted: bool,
    /// An inline table being read.
    inline: bool,
    /// The `[per-file-lints]` entry it is.
    /// One more than its index: four bytes, and none taken for `None`.
    entry: Option<std::num::NonZeroU32>,
}

/// How a key path is walked: TOML's rules differ.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    Header,
    Dotted,
    InlineDotted,
}

/// An array or inline table being read.
enum Frame {
    Array {
        /// Where the array stands.
        slot: Slot,
        next: usize,
        path_len: usize,
    },
    Inline {
        node: Option<usize>,
        slot: Slot,
        path_len: usize,
        /// The keys held when it opened: those added since are its own,
        /// removed when it closes.
        mark: usize,
        /// The key (of `parent`) it is the value of, to close it there.
        parent: Option<(usize, Box<str>)>,
    },
}

/// Where the next value goes.
struct Target {
    parent: Option<(usize, Box<str>)>,
    slot: Slot,
}

struct Reader<'i> {
    text: &'i str,
    /// Tables; `None` once freed (an inline table closed).
    nodes: Vec<Option<Table>>,
    /// Every table's keys, by node.
    table_keys: KeyStore,
    free: Vec<usize>,
    /// The table of the last `[header]`: its node (none under an ignored
    /// key) and slot.
    table: (Option<usize>, Slot),
    header_len: usize,
    /// The key path of what is being read.
    path: Vec<Seg<'i>>,
    /// The simple keys of the key being read, with their spans.
    keys: Vec<(Cow<'i, str>, Span)>,
    frames: Vec<Frame>,
    target: Option<Target>,
    fields_set: Vec<Field>,
    settings: Settings,
    offsets: KeyOffsets,
    problem: Option<Problem>,
}

impl<'i> Reader<'i> {
    fn new(text: &'i str) -> Reader<'i> {
        Reader {
            text,
            nodes: vec![Some(Table::default())],
            table_keys: KeyStore::default(),
            free: Vec::new(),
            table: (Some(0), Slot::Root),
            header_len: 0,
            path: Vec::new(),
            keys: Vec::new(),
            frames: Vec::new(),
            target: None,
            fields_set: Vec::new(),
            settings: Settings::default(),
            offsets: KeyOffsets::default(),
            problem: None,
        }
    }

    /// Between expressions: nothing is half read.
    fn end_expression(&mut self) {
        self.keys.clear();
        self.frames.clear();
        self.target = None;
        self.path.truncate(self.header_len);
    }

    fn node(&mut self, id: usize) -> &mut Table {
        self.nodes[id].get_or_insert_with(Table::default)
    }

    fn new_node(&mut self, table: Table) -> usize {
        match self.free.pop() {
            Some(id) => {
                self.nodes[id] = Some(table);
                id
            }
            None => {
                self.nodes.push(Some(table));
                self.nodes.len() - 1
            }
        }
    }

    /// The value of `key` in table `id`.
    fn child(&self, id: usize, key: &str) -> Option<Child> {
        self.table_keys.get(id, key).map(Child::unpack)
    }

    /// Sets `key` in table `id` to `child`.
    fn set_key(&mut self, id: usize, key: &str, child: Child) {
        self.table_keys.insert(id, key, child.pack());
    }

    /// Frees inline table `id` and the tables under it, whose keys are
    /// those added since `mark`.
    fn free_tree(&mut self, id: usize, mark: usize) {
        let mut freed = vec![id];
        self.table_keys.remove_since(mark, |bits| {
            if let Child::Table(n) = Child::unpack(bits) {
                freed.push(n as usize);
            }
        });
        for id in freed {
            if self.nodes[id].take().is_some() {
                self.free.push(id);
            }
        }
    }

    fn path_text(&self) -> Option<String> {
        let mut out = String::new();
        for seg in &self.path {
            match seg {
                Seg::Key(key) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                Seg::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// Notes the first problem: TOML's (no key) or the schema's (at the
    /// path read so far).
    fn fail(&mut self, offset: usize, schema: bool, message: String) {
        if self.problem.is_none() {
            let key = if schema { self.path_text() } else { None };
            self.problem = Some(Problem {
                offset: Some(offset),
                key,
                message,
            });
        }
    }

    /// Whether a dotted key of `inner` keys before its last is over the
    /// `toml` crate's limit (then noted, as it notes it: at no place).
    fn too_deep(&mut self, inner: usize) -> bool {
        let over = inner >= NESTING_LIMIT as usize;
        if over && self.problem.is_none() {
            self.problem = Some(Problem {
                offset: None,
                key: None,
                message: "recursion limit".to_owned(),
            });
        }
        over
    }

    /// The step from `slot` by `key` (a key TOML has just made when
    /// `fresh`; `entry` the per-file entry its table is).
    fn step(
        &mut self,
        slot: &Slot,
        key: &str,
        offset: usize,
        fresh: bool,
        entry: Option<usize>,
    ) -> Result<Slot, String> {
        let str_de = || IntoDeserializer::<Refusal>::into_deserializer(key);
        Ok(match slot {
            Slot::Root => {
                let Some(i) = ROOT_NAMES.iter().position(|name| *name == key) else {
                    return Err(<Refusal as de::Error>::unknown_field(key, ROOT_NAMES).0);
                };
                let field = ROOT_FIELDS[i];
                if fresh {
                    if self.fields_set.contains(&field) {
                        return Err(<Refusal as de::Error>::duplicate_field(field.name()).0);
                    }
                    self.fields_set.push(field);
                }
                match field {
                    Field::Path => {
                        self.settings.client_path = Some(de::IgnoredAny);
                        Slot::Ignored
                    }
                    Field::Trace => {
                        self.settings.trace = Some(de::IgnoredAny);
                        Slot::Ignored
                    }
                    Field::MaxPerFile => {
                        self.offsets.max_per_file = offset;
                        Slot::Field(field)
                    }
                    Field::Exclude => {
                        self.offsets.exclude = offset;
                        Slot::Field(field)
                    }
                    Field::AgentInstructions => {
                        self.offsets.agent_instructions = offset;
                        Slot::Field(field)
                    }
                    _ => Slot::Field(field),
                }
            }
            Slot::Ignored => Slot::Ignored,
            Slot::Field(Field::Lints) => {
                let rule = RuleKey::deserialize(str_de()).map_err(|e| e.0)?;
                Slot::Level(rule.0)
            }
            Slot::Field(Field::Bom) => {
                Slot::Policy(GlobKey::deserialize(str_de()).map_err(|e| e.0)?)
            }
            Slot::Field(Field::PerFileLints) => match entry {
                Some(n) if !fresh => Slot::PerFileEntry(n),
                _ => {
                    let glob = GlobKey::deserialize(str_de()).map_err(|e| e.0)?;
                    let entries = &mut self.settings.per_file_lints.0;
                    entries.push((glob, RuleLevels::default()));
                    self.offsets.per_file.push(offset32(offset));
                    Slot::PerFileEntry(entries.len() - 1)
                }
            },
            Slot::PerFileEntry(n) => {
                let rule = RuleKey::deserialize(str_de()).map_err(|e| e.0)?;
                Slot::PerFileLevel(*n, rule.0)
            }
            // Not tables: refused before a step is taken.
            other => other.clone(),
        })
    }

    /// Walks one key below table `node` (at `slot`) that is itself a
    /// table (a header's or a dotted key's inner key).
    fn descend(
        &mut self,
        node: Option<usize>,
        slot: Slot,
        key: Cow<'i, str>,
        span: Span,
        walk: Walk,
    ) -> Option<(Option<usize>, Slot)> {
        if matches!(slot, Slot::Ignored) {
            self.path.push(Seg::Key(key));
            return Some((None, Slot::Ignored));
        }
        let id = node?;
        let existing = self.child(id, &key);
        let (child, fresh) = match existing {
            None => {
                let child = self.new_node(Table {
                    implicit: true,
                    dotted: walk != Walk::Header,
                    inline: walk == Walk::InlineDotted,
                    ..Table::default()
                });
                self.set_key(id, &key, Child::table(child));
                (child, true)
            }
            Some(Child::Table(child)) => {
                let child = child as usize;
                let table = self.node(child);
                let refusal = match walk {
                    _ if table.inline && walk != Walk::InlineDotted => {
                        Some("cannot extend value of type inline table with a dotted key")
                    }
                    Walk::Header => None,
                    Walk::Dotted | Walk::InlineDotted if table.implicit => {
                        table.dotted = true;
                        None
                    }
                    Walk::Dotted | Walk::InlineDotted => Some("duplicate key"),
                };
                if let Some(message) = refusal {
                    self.fail(span.start(), false, message.to_owned());
                    return None;
                }
                (child, false)
            }
            Some(Child::Value(kind)) => {
                let kind = VALUE_TYPES[usize::from(kind)];
                let message = if kind == "inline table" && walk == Walk::InlineDotted {
                    "duplicate key".to_owned()
                } else {
                    format!("cannot extend value of type {kind} with a dotted key")
                };
                self.fail(span.start(), false, message);
                return None;
            }
        };
        self.path.push(Seg::Key(key));
        let entry = self.node(child).entry.map(entry_index);
        let key = match self.path.last() {
            Some(Seg::Key(key)) => key.clone(),
            _ => Cow::Borrowed(""),
        };
        let slot = match self.step(&slot, &key, span.start(), fresh, entry) {
            Ok(slot) => slot,
            Err(message) => {
                self.fail(span.start(), true, message);
                return None;
            }
        };
        if !slot.takes_table() {
            self.fail(span.start(), true, not_a_scalar(false, slot.expected()));
            return None;
        }
        if let Slot::PerFileEntry(n) = slot {
            self.node(child).entry = Some(entry_number(n));
        }
        Some((Some(child), slot))
    }

    /// A `[header]` or `[[header]]` has been read (its keys in `keys`).
    fn header(&mut self, span: Span, array: bool) {
        let mut keys = std::mem::take(&mut self.keys);
        let Some((last, last_span)) = keys.pop() else {
            return;
        };
        if self.too_deep(keys.len()) {
            return;
        }
        self.path.clear();
        let (mut node, mut slot) = (Some(0), Slot::Root);
        for (key, key_span) in keys.drain(..) {
            match self.descend(node, slot, key, key_span, Walk::Header) {
                Some(next) => (node, slot) = next,
                None => return,
            }
        }
        self.keys = keys;
        if matches!(slot, Slot::Ignored) {
            self.path.push(Seg::Key(last));
            self.header_len = self.path.len();
            self.table = (None, Slot::Ignored);
            return;
        }
        let Some(id) = node else { return };
        let existing = self.child(id, &last);
        let (child, fresh) = match existing {
            Some(Child::Table(child))
                if !array && {
                    let t = self.node(child as usize);
                    t.implicit && !t.dotted
                } =>
            {
                self.node(child as usize).implicit = false;
                (Some(child as usize), false)
            }
            Some(_) => {
                self.fail(last_span.start(), false, "duplicate key".to_owned());
                return;
            }
            None => (None, true),
        };
        let entry = child.and_then(|c| self.node(c).entry).map(entry_index);
        let key_text = last.clone();
        self.path.push(Seg::Key(last));
        let slot = match self.step(&slot, &key_text, last_span.start(), fresh, entry) {
            Ok(slot) => slot,
            Err(message) => {
                self.fail(last_span.start(), true, message);
                return;
            }
        };
        if array {
            if matches!(slot, Slot::Ignored) {
                self.header_len = self.path.len();
                self.table = (None, Slot::Ignored);
                return;
            }
            // An array of tables: the schema has none.
            let message = if slot.takes_array() {
                self.path.push(Seg::Index(0));
                not_a_scalar(false, "a string")
            } else {
                not_a_scalar(true, slot.expected())
            };
            self.fail(span.start(), true, message);
            return;
        }
        if !slot.takes_table() {
            self.fail(span.start(), true, not_a_scalar(false, slot.expected()));
            return;
        }
        let child = child.unwrap_or_else(|| {
            let child = self.new_node(Table::default());
            self.set_key(id, &key_text, Child::table(child));
            child
        });
        if let Slot::PerFileEntry(n) = slot {
            self.node(child).entry = Some(entry_number(n));
        }
        self.header_len = self.path.len();
        self.table = (Some(child), slot);
    }

    /// The `=` of a key-value: walks its keys from the table it is in.
    fn key_value(&mut self) {
        let (node, slot, base, walk) = match self.frames.last() {
            Some(Frame::Inline {
                node,
                slot,
                path_len,
                ..
            }) => (*node, slot.clone(), *path_len, Walk::InlineDotted),
            Some(Frame::Array { .. }) => return,
            None => (
                self.table.0,
                self.table.1.clone(),
                self.header_len,
                Walk::Dotted,
            ),
        };
        self.path.truncate(base);
        let mut keys = std::mem::take(&mut self.keys);
        let Some((last, last_span)) = keys.pop() else {
            return;
        };
        if self.too_deep(keys.len()) {
            return;
        }
        let (mut node, mut slot) = (node, slot);
        for (key, key_span) in keys.drain(..) {
            match self.descend(node, slot, key, key_span, walk) {
                Some(next) => (node, slot) = next,
                None => return,
            }
        }
        self.keys = keys;
        let parent = match node {
            Some(id) if !matches!(slot, Slot::Ignored) => {
                if self.child(id, &last).is_some() {
                    self.fail(last_span.start(), false, "duplicate key".to_owned());
                    return;
                }
                Some((id, Box::<str>::from(last.as_ref())))
            }
            _ => None,
        };
        let key_text = last.clone();
        self.path.push(Seg::Key(last));
        let slot = match self.step(&slot, &key_text, last_span.start(), true, None) {
            Ok(slot) => slot,
            Err(message) => {
                self.fail(last_span.start(), true, message);
                return;
            }
        };
        match &slot {
            Slot::Level(_) => self.offsets.lints.push(offset32(last_span.start())),
            Slot::Policy(_) => self.offsets.bom.push(offset32(last_span.start())),
            _ => {}
        }
        self.target = Some(Target { parent, slot });
    }

    /// Where a value starting now goes: the key-value's target, or the
    /// next element of the array being read.
    fn value_target(&mut self) -> Option<Target> {
        if let Some(Frame::Array {
            slot,
            next,
            path_len,
        }) = self.frames.last_mut()
        {
            let index = *next;
            *next += 1;
            let slot = match slot {
                Slot::Field(Field::Exclude) => Slot::Item(List::Exclude),
                Slot::Field(Field::AgentInstructions) => Slot::Item(List::AgentInstructions),
                Slot::PerFileEntry(n) => Slot::Item(List::PerFileRules(*n)),
                _ => Slot::Ignored,
            };
            let len = *path_len;
            self.path.truncate(len);
            self.path.push(Seg::Index(index));
            return Some(Target { parent: None, slot });
        }
        self.target.take()
    }

    /// A value has been read: back to the table or array it is in.
    fn value_done(&mut self) {
        let len = match self.frames.last() {
            Some(Frame::Array { path_len, .. } | Frame::Inline { path_len, .. }) => *path_len,
            None => self.header_len,
        };
        self.path.truncate(len);
    }

    fn set_child(&mut self, parent: &Option<(usize, Box<str>)>, child: Child) {
        if let Some((id, key)) = parent {
            self.set_key(*id, key, child);
        }
    }

    fn on_scalar(&mut self, span: Span, encoding: Option<Encoding>, error: &mut dyn ErrorSink) {
        // Decoded even after a problem, as a key is.
        let text = self.text.get(span.start()..span.end()).unwrap_or("");
        let raw = Raw::new_unchecked(text, encoding, span);
        let mut decoded = Cow::Borrowed("");
        let kind = raw.decode_scalar(&mut decoded, error);
        if self.problem.is_some() {
            return;
        }
        let Some(target) = self.value_target() else {
            return;
        };
        let (value, kind_name) = match kind {
            ScalarKind::String => (Scalar::Str(decoded), "string"),
            ScalarKind::Boolean(b) => (Scalar::Bool(b), "boolean"),
            ScalarKind::DateTime => (Scalar::DateTime, "datetime"),
            ScalarKind::Float => (Scalar::Float(decoded), "float"),
            ScalarKind::Integer(radix) => (Scalar::Int(decoded, radix.value()), "integer"),
        };
        self.set_child(&target.parent, Child::value(kind_name));
        if let Err(message) = self.scalar_at(target.slot, &value) {
            self.fail(span.start(), true, message);
        }
        self.value_done();
    }

    /// Keeps scalar `value` at `slot`, or says why the schema refuses it.
    fn scalar_at(&mut self, slot: Slot, value: &Scalar<'_>) -> Result<(), String> {
        let s = &mut self.settings;
        let refused = |e: Refusal| e.0;
        match slot {
            Slot::Field(Field::MaxPerFile) => {
                s.max_per_file = Some(usize::deserialize(value).map_err(refused)?);
            }
            Slot::Field(Field::SkipBinary) => {
                s.skip_binary = Some(bool::deserialize(value).map_err(refused)?);
            }
            Slot::Field(Field::WorkspaceScan) => {
                s.workspace_scan = Some(bool::deserialize(value).map_err(refused)?);
            }
            Slot::Field(Field::Root) => s.root = Some(bool::deserialize(value).map_err(refused)?),
            Slot::Field(Field::Exclude | Field::AgentInstructions) => {
                Vec::<String>::deserialize(value).map_err(refused)?;
            }
            Slot::Field(Field::Lints) => {
                Entries::<RuleKey, LevelValue>::deserialize(value).map_err(refused)?;
            }
            Slot::Field(Field::Bom) => {
                Entries::<GlobKey, PolicyValue>::deserialize(value).map_err(refused)?;
            }
            Slot::Field(Field::PerFileLints) => {
                Entries::<GlobKey, RuleLevels>::deserialize(value).map_err(refused)?;
            }
            Slot::PerFileEntry(_) => {
                RuleLevels::deserialize(value).map_err(refused)?;
            }
            Slot::Level(rule) => {
                let level = LevelValue::deserialize(value).map_err(refused)?;
                s.lints.0.push((RuleKey(rule), level));
            }
            Slot::Policy(glob) => {
                let policy = PolicyValue::deserialize(value).map_err(refused)?;
                s.bom.0.push((glob, policy));
            }
            Slot::PerFileLevel(n, rule) => {
                let level = LevelValue::deserialize(value).map_err(refused)?;
                s.per_file_lints.0[n].1.0.push((rule, level.0));
            }
            Slot::Item(List::Exclude) => {
                let glob = String::deserialize(value).map_err(refused)?;
                s.exclude.get_or_insert_with(Default::default).push(&glob);
            }
            Slot::Item(List::AgentInstructions) => {
                let glob = String::deserialize(value).map_err(refused)?;
                s.agent_instructions
                    .get_or_insert_with(Default::default)
                    .push(&glob);
            }
            Slot::Item(List::PerFileRules(n)) => {
                let rule = RuleKey::deserialize(value).map_err(refused)?;
                s.per_file_lints.0[n].1.0.push((rule.0, Level::Allow));
            }
            Slot::Root | Slot::Ignored | Slot::Field(Field::Path | Field::Trace) => {}
        }
        Ok(())
    }

    fn on_array_open(&mut self, span: Span) {
        let Some(target) = self.value_target() else {
            return;
        };
        self.set_child(&target.parent, Child::value("array"));
        if !target.slot.takes_array() {
            self.fail(
                span.start(),
                true,
                not_a_scalar(true, target.slot.expected()),
            );
            return;
        }
        match target.slot {
            Slot::Field(Field::Exclude) => {
                self.settings.exclude.get_or_insert_with(Default::default);
            }
            Slot::Field(Field::AgentInstructions) => {
                self.settings
                    .agent_instructions
                    .get_or_insert_with(Default::default);
            }
            _ => {}
        }
        self.frames.push(Frame::Array {
            slot: target.slot,
            next: 0,
            path_len: self.path.len(),
        });
    }

    fn on_inline_open(&mut self, span: Span) {
        let Some(target) = self.value_target() else {
            return;
        };
        if !target.slot.takes_table() {
            self.set_child(&target.parent, Child::value("inline table"));
            self.fail(
                span.start(),
                true,
                not_a_scalar(false, target.slot.expected()),
            );
            return;
        }
        let node = match (&target.parent, &target.slot) {
            (_, Slot::Ignored) | (None, _) => None,
            (Some(_), _) => Some(self.new_node(Table {
                inline: true,
                ..Table::default()
            })),
        };
        if let Some(n) = node {
            self.set_child(&target.parent, Child::table(n));
        }
        self.frames.push(Frame::Inline {
            node,
            slot: target.slot,
            path_len: self.path.len(),
            mark: self.table_keys.mark(),
            parent: target.parent,
        });
    }

    fn on_close(&mut self) {
        match self.frames.pop() {
            Some(Frame::Inline {
                node, parent, mark, ..
            }) => {
                if let Some(n) = node {
                    self.free_tree(n, mark);
                }
                self.set_child(&parent, Child::value("inline table"));
            }
            Some(Frame::Array { .. }) | None => {}
        }
        self.value_done();
    }
}

impl EventReceiver for Reader<'_> {
    fn std_table_open(&mut self, _span: Span, _error: &mut dyn ErrorSink) {
        self.keys.clear();
    }
    fn std_table_close(&mut self, span: Span, _error: &mut dyn ErrorSink) {
        if self.problem.is_none() {
            self.header(span, false);
        }
    }
    fn array_table_open(&mut self, _span: Span, _error: &mut dyn ErrorSink) {
        self.keys.clear();
    }
    fn array_table_close(&mut self, span: Span, _error: &mut dyn ErrorSink) {
        if self.problem.is_none() {
            self.header(span, true);
        }
    }
    fn inline_table_open(&mut self, span: Span, _error: &mut dyn ErrorSink) -> bool {
        if self.problem.is_none() {
            self.on_inline_open(span);
        }
        true
    }
    fn inline_table_close(&mut self, _span: Span, _error: &mut dyn ErrorSink) {
        if self.problem.is_none() {
            self.on_close();
        }
    }
    fn array_open(&mut self, span: Span, _error: &mut dyn ErrorSink) -> bool {
        if self.problem.is_none() {
            self.on_array_open(span);
        }
        true
    }
    fn array_close(&mut self, _span: Span, _error: &mut dyn ErrorSink) {
        if self.problem.is_none() {
            self.on_close();
        }
    }
    fn simple_key(&mut self, span: Span, encoding: Option<Encoding>, error: &mut dyn ErrorSink) {
        // Decoded even after a problem: a decoder's error is TOML's, and
        // TOML's errors are told before the schema's.
        let text = self.text.get(span.start()..span.end()).unwrap_or("");
        let raw = Raw::new_unchecked(text, encoding, span);
        let mut decoded = Cow::Borrowed("");
        raw.decode_key(&mut decoded, error);
        if self.problem.is_none() {
            self.keys.push((decoded, span));
        }
    }
    fn key_val_sep(&mut self, _span: Span, _error: &mut dyn ErrorSink) {
        if self.problem.is_none() {
            self.key_value();
        }
    }
    fn scalar(&mut self, span: Span, encoding: Option<Encoding>, error: &mut dyn ErrorSink) {
        self.on_scalar(span, encoding, error);
    }
}
/// Reads the text of a `utf8lint.toml` found at `path`: every error names
/// the file, the line and the key.
pub fn parse_toml(text: &str, path: &Path) -> Result<Settings, ConfigError> {
    read_toml(text, path).map(|(settings, _)| settings)
}

/// [`parse_toml`], and where each key kept was written.
pub(crate) fn read_toml(text: &str, path: &Path) -> Result<(Settings, KeyOffsets), ConfigError> {
    let error = |line: Option<usize>, key: Option<String>, message: String| ConfigError {
        path: path.to_path_buf(),
        line,
        key,
        message,
    };
    let (settings, offsets) = read(text).map_err(|problem| {
        error(
            problem.offset.map(|offset| line_of(text, offset)),
            problem.key,
            problem.message,
        )
    })?;
    let editor_only = [
        ("workspace-scan", settings.workspace_scan.is_some()),
        ("path", settings.client_path.is_some()),
        ("trace", settings.trace.is_some()),
    ];
    if let Some((key, _)) = editor_only.iter().find(|(_, set)| *set) {
        let line = text
            .lines()
            .position(|l| l.trim_start().starts_with(key))
            .map(|i| i + 1);
        return Err(error(
            line,
            Some((*key).into()),
            format!("an editor setting (`utf8lint.{key}`), not one for utf8lint.toml"),
        ));
    }
    Ok((settings, offsets))
}
