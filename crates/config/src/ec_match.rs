//! A section glob that needs more than components (`[!seq]`, which may
//! match `/`, nested or unpaired braces, `{n1..n2}`) matched without a
//! regular expression: the glob is read as EditorConfig's C and Python
//! cores translate it into one ([`crate::ec_glob`]'s reference, the same
//! reading step by step), into a small program that a backtracking
//! matcher runs in the expression's order of preference, marking each
//! (instruction, position) it has tried so that it never tries one twice:
//! time and memory in the product of the glob's and the path's lengths.
//! The first match found is the one the expression finds, so the numbers
//! of its `{n1..n2}`s are the ones the expression would capture.
//!
//! Only the glob's text is kept; the program is built when it is asked
//! (a few microseconds), where a compiled expression kept kilobytes.

use crate::glob::char_at;

/// How deeply `{word}` braces (literal, read inside) may nest, and `{a,b}`
/// choices: the translation's limit, and about the regular expression's
/// nesting limit (250 groups, three per level).
const MAX_LITERAL_NESTING: usize = 32;
const MAX_CHOICE_NESTING: usize = 80;

/// The longest glob read here, in bytes: its program is built each time
/// it is asked (4 bytes an instruction, one to four a byte of the glob),
/// and the expression's compilation refused much shorter ones of some
/// forms.
pub(crate) const MAX_GLOB_BYTES: usize = 64 << 10;

/// The error of a glob whose translation does not compile, in the words of
/// the regular-expression compilation ([`crate::glob`]'s).
const TOO_COMPLEX: &str = "too complex to compile (nested too deeply or too large): simplify it";

/// Why a glob is not read here.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unread {
    /// Its translation does not compile: the glob's error.
    Error(String),
    /// A class with `--`, which the expression's syntax reads as a set
    /// difference: left to the regular expression.
    SetDifference,
}

/// A piece of a class as the translation writes it: a character (escaped
/// when it is punctuation) or a bare `-`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ClassPiece {
    Char(char),
    Dash,
}

/// A class's ranges, as the expression's syntax reads its pieces: `a-z`
/// a range, a `-` first or last itself.
fn class_ranges(pieces: &[ClassPiece], out: &mut Vec<(char, char)>) -> Result<(), Unread> {
    let char_of = |p: ClassPiece| match p {
        ClassPiece::Char(c) => c,
        ClassPiece::Dash => '-',
    };
    if pieces.windows(2).any(|w| w == [ClassPiece::Dash; 2]) {
        return Err(Unread::SetDifference);
    }
    let mut j = 0;
    while j < pieces.len() {
        let first = char_of(pieces[j]);
        match (pieces.get(j + 1), pieces.get(j + 2)) {
            (Some(ClassPiece::Dash), Some(&ClassPiece::Char(last))) => {
                if first > last {
                    return Err(Unread::Error(TOO_COMPLEX.to_owned()));
                }
                out.push((first, last));
                j += 3;
            }
            _ => {
                out.push((first, first));
                j += 1;
            }
        }
    }
    Ok(())
}

/// `n1..n2` as `(min, max)`.
pub(crate) fn numeric_range(text: &str) -> Option<(i64, i64)> {
    let (a, b) = text.split_once("..")?;
    let number = |s: &str| {
        let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<i64>().ok())
            .flatten()
    };
    let (a, b) = (number(a)?, number(b)?);
    Some((a.min(b), a.max(b)))
}

/// Each unescaped `{` of a glob that a `}` matches, in order, with that
/// `}` and whether a `,` stands between them outside inner braces: what
/// the translation finds by scanning from each `{` (the escapes read the
/// same from the glob's start), found in one pass. A `{` that nothing
/// closes is literal whatever follows it.
struct Braces {
    /// `(open, close)`, the comma as the close's top bit.
    pairs: Vec<(u32, u32)>,
    /// As many `}` as `{` (unescaped): only then is a brace a choice.
    balanced: bool,
}

const COMMA: u32 = 1 << 31;

impl Braces {
    fn of(pat: &[u8]) -> Braces {
        let mut pairs = Vec::new();
        let (mut open, mut opens, mut closes, mut escaped) = (Vec::new(), 0usize, 0usize, false);
        for (k, &c) in pat.iter().enumerate() {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'{' => {
                    opens += 1;
                    open.push((k as u32, 0));
                }
                b'}' => {
                    closes += 1;
                    if let Some((o, comma)) = open.pop() {
                        pairs.push((o, k as u32 | comma));
                    }
                }
                b',' => {
                    if let Some(top) = open.last_mut() {
                        top.1 = COMMA;
                    }
                }
                _ => {}
            }
        }
        pairs.sort_unstable();
        Braces {
            pairs,
            balanced: opens == closes,
        }
    }

    /// For the `{` at `open`: its `}`, and whether a `,` comes first.
    fn of_open(&self, open: usize) -> Option<(usize, bool)> {
        let n = self
            .pairs
            .binary_search_by_key(&(open as u32), |p| p.0)
            .ok()?;
        let close = self.pairs[n].1;
        Some(((close & !COMMA) as usize, close & COMMA != 0))
    }
}

/// One instruction of a glob's program.
#[derive(Clone, Copy, Debug)]
enum Inst {
    Byte(u8),
    /// A byte that is not `/`.
    ByteNotSlash,
    /// A whole character (valid UTF-8), any.
    AnyChar,
    /// A whole character that is not `/`.
    CharNotSlash,
    /// A byte of 0x80-0xFF.
    HighByte,
    /// A whole character that class `n` of the program takes.
    Class(u32),
    Sign,
    Digit,
    /// Go on at the next instruction; on failure, at this one (none when
    /// [`NOWHERE`]).
    SplitNext(u32),
    /// Go on at this one; on failure, at the next instruction.
    SplitBack(u32),
    Jump(u32),
    /// Note the position in capture slot `n`.
    Save(u32),
    Match,
}

/// A split whose other way is none yet.
const NOWHERE: u32 = OPERAND;

/// An instruction packed in 4 bytes: its kind in the top 4 bits, its
/// operand (a byte, an instruction, a class, a slot) in the rest; a
/// glob's program is a few instructions a byte of it.
const OPERAND: u32 = (1 << 28) - 1;

impl Inst {
    fn pack(self) -> u32 {
        let (kind, operand) = match self {
            Inst::Byte(b) => (0, u32::from(b)),
            Inst::ByteNotSlash => (1, 0),
            Inst::AnyChar => (2, 0),
            Inst::CharNotSlash => (3, 0),
            Inst::HighByte => (4, 0),
            Inst::Class(n) => (5, n),
            Inst::Sign => (6, 0),
            Inst::Digit => (7, 0),
            Inst::SplitNext(to) => (8, to),
            Inst::SplitBack(to) => (9, to),
            Inst::Jump(to) => (10, to),
            Inst::Save(slot) => (11, slot),
            Inst::Match => (12, 0),
        };
        kind << 28 | (operand & OPERAND)
    }

    fn unpack(word: u32) -> Inst {
        let operand = word & OPERAND;
        match word >> 28 {
            0 => Inst::Byte(operand as u8),
            1 => Inst::ByteNotSlash,
            2 => Inst::AnyChar,
            3 => Inst::CharNotSlash,
            4 => Inst::HighByte,
            5 => Inst::Class(operand),
            6 => Inst::Sign,
            7 => Inst::Digit,
            8 => Inst::SplitNext(operand),
            9 => Inst::SplitBack(operand),
            10 => Inst::Jump(operand),
            11 => Inst::Save(operand),
            _ => Inst::Match,
        }
    }
}

/// A glob's program: its instructions, its classes (negated, and the
/// range of its ranges), and the bounds of its numbers (capture slots
/// `2n` and `2n + 1`).
struct Program {
    /// [`Inst::pack`]ed.
    insts: Vec<u32>,
    classes: Vec<(bool, u32, u32)>,
    ranges: Vec<(char, char)>,
    numbers: Vec<(i64, i64)>,
}

impl Program {
    fn at(&self) -> u32 {
        self.insts.len() as u32
    }

    fn push(&mut self, inst: Inst) -> usize {
        self.insts.push(inst.pack());
        self.insts.len() - 1
    }

    /// Points the split or jump at `at` to `to`.
    fn patch(&mut self, at: usize, to: u32) {
        self.insts[at] = match Inst::unpack(self.insts[at]) {
            Inst::SplitNext(_) => Inst::SplitNext(to),
            Inst::Jump(_) => Inst::Jump(to),
            other => other,
        }
        .pack();
    }

    fn char(&mut self, c: char) {
        let mut buf = [0; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            self.push(Inst::Byte(b));
        }
    }

    /// `body` repeated as often as it can, then what follows (greedy).
    fn repeat(&mut self, body: Inst) {
        let split = self.push(Inst::SplitNext(NOWHERE));
        self.push(body);
        self.push(Inst::Jump(split as u32));
        self.patch(split, self.at());
    }

    /// `?`: `(?:[^/]|(?-u:[\x80-\xFF]))`.
    fn one(&mut self) {
        let split = self.push(Inst::SplitNext(NOWHERE));
        self.push(Inst::CharNotSlash);
        let jump = self.push(Inst::Jump(NOWHERE));
        self.patch(split, self.at());
        self.push(Inst::HighByte);
        self.patch(jump, self.at());
    }

    /// `{n1..n2}`: `([+-]?[0-9]+)`, its number checked once matched.
    fn number(&mut self, min: i64, max: i64) {
        let slot = 2 * self.numbers.len() as u32;
        self.numbers.push((min, max));
        self.push(Inst::Save(slot));
        let split = self.push(Inst::SplitNext(NOWHERE));
        self.push(Inst::Sign);
        self.patch(split, self.at());
        let digit = self.push(Inst::Digit);
        self.push(Inst::SplitBack(digit as u32));
        self.push(Inst::Save(slot + 1));
    }

    fn class(&mut self, negated: bool, pieces: &[ClassPiece]) -> Result<(), Unread> {
        let start = self.ranges.len() as u32;
        class_ranges(pieces, &mut self.ranges)?;
        let n = self.classes.len() as u32;
        self.classes
            .push((negated, start, self.ranges.len() as u32));
        self.push(Inst::Class(n));
        Ok(())
    }
}

/// An open `{a,b}` choice: the split before its current alternative, and
/// the jumps out of the alternatives before.
struct Choice {
    split: usize,
    jumps: Vec<usize>,
}

impl Choice {
    fn open(program: &mut Program) -> Choice {
        Choice {
            split: program.push(Inst::SplitNext(NOWHERE)),
            jumps: Vec::new(),
        }
    }

    fn next_alternative(&mut self, program: &mut Program) {
        self.jumps.push(program.push(Inst::Jump(NOWHERE)));
        program.patch(self.split, program.at());
        self.split = program.push(Inst::SplitNext(NOWHERE));
    }

    fn close(self, program: &mut Program) {
        for jump in self.jumps {
            program.patch(jump, program.at());
        }
    }
}

/// The character of `pat` at `i` (a whole one: `pat` is text).
fn char_of(pat: &[u8], i: usize) -> (char, usize) {
    let len = match pat[i] {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    let c = std::str::from_utf8(&pat[i..(i + len).min(pat.len())])
        .ok()
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    (c, len)
}

/// Reads `pat[start..end]` as `fnmatch.translate` of editorconfig-core-py
/// translates it (see [`crate::ec_glob`]'s `translate`, the reference the
/// tests hold this to), step by step, writing its program: the special
/// characters are ASCII, so the glob is read by bytes, a character whole
/// where it is one thing (a class's piece, an escaped character).
/// `nesting`: how many literal braces hold it.
struct Reader<'g> {
    pat: &'g [u8],
    braces: &'g Braces,
    /// The first `]` at or after some position, and the first `/` not
    /// right after a `\\`: found again only once passed, so finding them
    /// for every `[` costs one pass.
    next_close: usize,
    next_slash: usize,
}

impl Reader<'_> {
    /// The first index at or after `from` where `found` holds, or the end.
    fn next(pat: &[u8], from: usize, found: impl Fn(usize) -> bool) -> usize {
        (from..pat.len()).find(|&k| found(k)).unwrap_or(pat.len())
    }

    /// Whether the `[` before `i` opens a class that ends before `end`: a
    /// `]` closes it, with no `/` between (one right after the `[` counts
    /// even after a `\\`).
    fn opens_class(&mut self, i: usize, end: usize) -> bool {
        let pat = self.pat;
        if self.next_close < i {
            self.next_close = Reader::next(pat, i, |k| pat[k] == b']');
        }
        if self.next_slash < i + 1 {
            self.next_slash = Reader::next(pat, i + 1, |k| pat[k] == b'/' && pat[k - 1] != b'\\');
        }
        let close = self.next_close;
        close < end && !(i < close && pat[i] == b'/') && self.next_slash >= close
    }

    fn read(
        &mut self,
        start: usize,
        end: usize,
        balanced: bool,
        nesting: usize,
        program: &mut Program,
    ) -> Result<(), Unread> {
        if nesting > MAX_LITERAL_NESTING {
            return Err(Unread::Error(format!(
                "braces nested more than {MAX_LITERAL_NESTING} deep"
            )));
        }
        let pat = self.pat;
        let mut choices: Vec<Choice> = Vec::new();
        let mut class: Option<(bool, Vec<ClassPiece>)> = None;
        let (mut i, mut escaped) = (start, false);
        while i < end {
            let (c, len) = char_of(pat, i);
            let at = i;
            i += len;
            let in_brackets = class.is_some();
            let piece = |class: &mut Option<(bool, Vec<ClassPiece>)>, p: ClassPiece| {
                if let Some((_, pieces)) = class {
                    pieces.push(p);
                }
            };
            match c {
                '\\' => {
                    if escaped {
                        match &mut class {
                            Some((_, pieces)) => pieces.push(ClassPiece::Char('\\')),
                            None => program.char('\\'),
                        }
                    }
                    escaped = !escaped;
                    continue;
                }
                _ if escaped && !in_brackets => program.char(c),
                '*' if !in_brackets => {
                    if i < end && pat[i] == b'*' {
                        program.repeat(Inst::AnyChar);
                        i += 1;
                    } else {
                        program.repeat(Inst::ByteNotSlash);
                    }
                }
                '?' if !in_brackets => program.one(),
                '[' if in_brackets => piece(&mut class, ClassPiece::Char('[')),
                '[' => {
                    if !self.opens_class(i, end) {
                        program.char('[');
                    } else {
                        let negated = i < end && matches!(pat[i], b'!' | b'^');
                        i += usize::from(negated);
                        let mut pieces = Vec::new();
                        // `]` first in a class is itself.
                        if i < end && pat[i] == b']' {
                            pieces.push(ClassPiece::Char(']'));
                            i += 1;
                        }
                        class = Some((negated, pieces));
                    }
                }
                ']' if in_brackets && escaped => piece(&mut class, ClassPiece::Char(']')),
                ']' if in_brackets => {
                    if let Some((negated, pieces)) = class.take() {
                        program.class(negated, &pieces)?;
                    }
                }
                '-' if in_brackets => piece(&mut class, ClassPiece::Dash),
                _ if in_brackets => piece(&mut class, ClassPiece::Char(c)),
                '{' => {
                    // The matching `}`, and whether a `,` comes first
                    // (then it is a choice).
                    let (k, comma) = self.braces.of_open(at).unwrap_or((end, false));
                    let k = if k < end { k } else { end };
                    if !comma && k < end {
                        let inner = std::str::from_utf8(&pat[i..k]).unwrap_or("");
                        if let Some((min, max)) = numeric_range(inner) {
                            program.number(min, max);
                        } else {
                            program.char('{');
                            // Inside, every brace is matched.
                            self.read(i, k, true, nesting + 1, program)?;
                            program.char('}');
                        }
                        i = k + 1;
                    } else if balanced && k < end {
                        if choices.len() >= MAX_CHOICE_NESTING {
                            return Err(Unread::Error(TOO_COMPLEX.to_owned()));
                        }
                        choices.push(Choice::open(program));
                    } else {
                        program.char('{');
                    }
                }
                ',' if !choices.is_empty() => {
                    if let Some(choice) = choices.last_mut() {
                        choice.next_alternative(program);
                    }
                }
                '}' if !choices.is_empty() => {
                    if let Some(choice) = choices.pop() {
                        choice.close(program);
                    }
                }
                '/' if pat[i..end].starts_with(b"**/") => {
                    // `(?:/|/.*/)`.
                    let split = program.push(Inst::SplitNext(NOWHERE));
                    program.char('/');
                    let jump = program.push(Inst::Jump(NOWHERE));
                    program.patch(split, program.at());
                    program.char('/');
                    program.repeat(Inst::AnyChar);
                    program.char('/');
                    program.patch(jump, program.at());
                    i += 3;
                }
                _ => program.char(c),
            }
            escaped = false;
        }
        // An unclosed bracket or choice: what was opened matches as written.
        if let Some((negated, pieces)) = class.take() {
            program.class(negated, &pieces)?;
        }
        while let Some(choice) = choices.pop() {
            choice.close(program);
        }
        Ok(())
    }
}

/// The program of `glob` (a section header without its brackets): the
/// translation's anchoring (a glob without `/`, or one that starts with
/// `**/`, may start after any `/`), then its body, then the path's end.
fn program(glob: &str) -> Result<Program, Unread> {
    if glob.len() > MAX_GLOB_BYTES {
        return Err(Unread::Error(format!(
            "longer than the {} KiB a section glob may have: simplify it",
            MAX_GLOB_BYTES >> 10
        )));
    }
    let (anywhere, body) = if !glob.contains('/') {
        (true, glob)
    } else {
        let body = glob.strip_prefix('/').unwrap_or(glob);
        match body.strip_prefix("**/") {
            Some(rest) => (true, rest),
            None => (false, body),
        }
    };
    let mut program = Program {
        insts: Vec::new(),
        classes: Vec::new(),
        ranges: Vec::new(),
        numbers: Vec::new(),
    };
    if anywhere {
        // `(?:.*/)?`, greedy.
        let split = program.push(Inst::SplitNext(NOWHERE));
        program.repeat(Inst::AnyChar);
        program.push(Inst::Byte(b'/'));
        program.patch(split, program.at());
    }
    let pat = body.as_bytes();
    let braces = Braces::of(pat);
    let mut reader = Reader {
        pat,
        braces: &braces,
        next_close: 0,
        next_slash: 0,
    };
    reader.read(0, pat.len(), braces.balanced, 0, &mut program)?;
    program.push(Inst::Match);
    program.insts.shrink_to_fit();
    Ok(program)
}

/// Checks `glob` (a section header without its brackets): whether it can
/// be matched here.
pub(crate) fn check(glob: &str) -> Result<(), Unread> {
    program(glob).map(|_| ())
}

/// Whether `path` (bytes of a path relative to the `.editorconfig`'s
/// directory, `/`-separated) matches `glob`, which [`check`] accepted.
pub(crate) fn matches(glob: &str, path: &[u8]) -> bool {
    program(glob).is_ok_and(|program| run(&program, path))
}

/// Runs `program` on `text`, in the expression's order of preference,
/// trying each (instruction, position) once; the first match is the
/// expression's, whose numbers must then be in their bounds.
fn run(program: &Program, text: &[u8]) -> bool {
    enum Job {
        Try(usize, usize),
        Restore(usize, usize),
    }
    let width = text.len() + 1;
    let mut tried = Tried::new(program.insts.len() * width);
    let mut slots = vec![usize::MAX; 2 * program.numbers.len()];
    let mut jobs = vec![Job::Try(0, 0)];
    while let Some(job) = jobs.pop() {
        let (mut pc, mut at) = match job {
            Job::Restore(slot, old) => {
                slots[slot] = old;
                continue;
            }
            Job::Try(pc, at) => (pc, at),
        };
        loop {
            if !tried.first_time(pc * width + at) {
                break;
            }
            let here = &text[at..];
            let step = match Inst::unpack(program.insts[pc]) {
                Inst::Byte(b) => (here.first() == Some(&b)).then_some(1),
                Inst::ByteNotSlash => here.first().is_some_and(|&b| b != b'/').then_some(1),
                Inst::AnyChar => char_at(here).map(char::len_utf8),
                Inst::CharNotSlash => char_at(here).filter(|&c| c != '/').map(char::len_utf8),
                Inst::HighByte => here.first().is_some_and(|&b| b >= 0x80).then_some(1),
                Inst::Class(n) => {
                    let (negated, start, end) = program.classes[n as usize];
                    let ranges = &program.ranges[start as usize..end as usize];
                    char_at(here)
                        .filter(|&c| ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != negated)
                        .map(char::len_utf8)
                }
                Inst::Sign => here
                    .first()
                    .is_some_and(|&b| b == b'+' || b == b'-')
                    .then_some(1),
                Inst::Digit => here.first().is_some_and(u8::is_ascii_digit).then_some(1),
                Inst::SplitNext(other) => {
                    if other != NOWHERE {
                        jobs.push(Job::Try(other as usize, at));
                    }
                    pc += 1;
                    continue;
                }
                Inst::SplitBack(first) => {
                    jobs.push(Job::Try(pc + 1, at));
                    pc = first as usize;
                    continue;
                }
                Inst::Jump(to) => {
                    pc = to as usize;
                    continue;
                }
                Inst::Save(slot) => {
                    jobs.push(Job::Restore(slot as usize, slots[slot as usize]));
                    slots[slot as usize] = at;
                    pc += 1;
                    continue;
                }
                Inst::Match if at == text.len() => return numbers_in_bounds(program, text, &slots),
                Inst::Match => None,
            };
            match step {
                Some(len) => {
                    pc += 1;
                    at += len;
                }
                None => break,
            }
        }
    }
    false
}

/// The (instruction, position) pairs tried: a bit each, or, when that
/// would be more than a megabyte (a long glob and a long path), a set of
/// those tried, which most never are.
enum Tried {
    Bits(Vec<u64>),
    Set(std::collections::HashSet<usize>),
}

impl Tried {
    const MAX_BITS: usize = 8 << 20;

    fn new(states: usize) -> Tried {
        if states <= Tried::MAX_BITS {
            Tried::Bits(vec![0; states.div_ceil(64)])
        } else {
            Tried::Set(std::collections::HashSet::new())
        }
    }

    /// Notes `state` tried; false when it already was.
    fn first_time(&mut self, state: usize) -> bool {
        match self {
            Tried::Bits(bits) => {
                let (word, bit) = (state / 64, 1u64 << (state % 64));
                let first = bits[word] & bit == 0;
                bits[word] |= bit;
                first
            }
            Tried::Set(set) => set.insert(state),
        }
    }
}

/// Whether each `{n1..n2}` of the match took a number in its bounds,
/// written as the number is written (`060` is not 60).
fn numbers_in_bounds(program: &Program, text: &[u8], slots: &[usize]) -> bool {
    program.numbers.iter().enumerate().all(|(n, &(min, max))| {
        text.get(slots[2 * n]..slots[2 * n + 1])
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .filter(|n| {
                let digits = n.trim_start_matches(['+', '-']);
                digits == "0" || !digits.starts_with('0')
            })
            .and_then(|n| n.parse::<i64>().ok())
            .is_some_and(|n| min <= n && n <= max)
    })
}
