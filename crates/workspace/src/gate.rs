//! The fix gate: every edit the front ends write or show (`--fix`,
//! `--diff`, standard input's `--fix`, the language server's commands)
//! comes from [`fix`], which plans it, applies it in memory and checks the
//! result as a whole before anything leaves.
//!
//! Its contract, for a file whose check plans at least one fix:
//! * **Text by evidence.** [`sniff`] decides first: binary data is refused
//!   (unless the caller allows it, `--no-skip-binary`), and a UTF-16/32 file
//!   must come out UTF-8 (converted, or a wrong mark removed): an edit
//!   written in UTF-8 bytes into it would not be in the file's encoding.
//!   The result must read as text too.
//! * **A fixed point.** The result is checked again with the same settings,
//!   and what that plans is applied too, for at most [`MAX_ROUNDS`] rounds
//!   (removing a tag character can put a U+FEFF at a line start, removing a
//!   U+200B can join mojibake); a file still planning fixes after them is
//!   refused. One run settles a file it accepts: planning again yields
//!   nothing.
//! * **Nothing new.** Findings are compared by rule and count, not place
//!   (every edit shifts what follows it): after the last round, each rule
//!   has at most its first count less the findings the first round fixed.
//!   More than its first count is a new finding, more than that difference
//!   a planned finding that is still there; either refuses the file. What
//!   a fix writes on purpose is allowed its own findings (a U+FFFD written
//!   for unreadable bytes is U007): each short replacement is checked
//!   alone, once, and its findings count once per time it was written.
//! * **Costs nothing when there is nothing to fix:** no sniff, no second
//!   check.
//!
//! What it hands back are the final bytes and the same change as edits of
//! the original (after several rounds, the rounds' edits composed), so a
//! diff shows exactly what a fix writes.

use std::fmt;
use std::ops::Range;
use std::path::Path;

use utf8lint_diagnostics::{
    Applicability, BinaryEvidence, CheckOptions, Diagnostic, Edit, Fix, Keep, Policy, Rule, Sniff,
    WideForm, check, sniff, write_fixes,
};

/// The most rounds of fixes one run applies to a file before it gives up
/// and refuses it (nearly every file settles in one, the known chains in
/// two).
pub const MAX_ROUNDS: usize = 4;

/// Which of a file's fixes to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Select {
    /// Every safe fix, and the unsafe ones with `unsafe_fixes`: `--fix`,
    /// `--diff`, a fix-all.
    Applicable { unsafe_fixes: bool },
    /// One rule's fixes, safe and unsafe: "fix all of this rule".
    Rule(Rule),
    /// The one fix a person chose: the finding's rule and span, and the
    /// fix's title (its fix or one of its alternatives). Applied alone, in
    /// one round.
    One {
        rule: Rule,
        span: Range<usize>,
        title: String,
    },
}

impl Select {
    /// The fix of `d` this selection applies, if any.
    fn fix_of<'d>(&self, d: &'d Diagnostic) -> Option<&'d Fix> {
        match self {
            Select::Applicable { unsafe_fixes } => d.fix.as_ref().filter(|f| {
                f.applicability() == Applicability::Safe
                    || (*unsafe_fixes && f.applicability() == Applicability::Unsafe)
            }),
            Select::Rule(rule) => d
                .fix
                .as_ref()
                .filter(|f| d.rule == *rule && f.applicability() != Applicability::DisplayOnly),
            Select::One { rule, span, title } => (d.rule == *rule && d.span == *span)
                .then(|| {
                    d.fix
                        .iter()
                        .chain(&d.alternatives)
                        .find(|f| f.title() == title)
                })
                .flatten(),
        }
    }

    /// Which findings the check keeps for it: a chosen alternative needs
    /// them whole.
    fn keep(&self) -> Keep {
        match self {
            Select::One { .. } => Keep::Every,
            _ => Keep::Fixes,
        }
    }
}

/// What a caller leaves out of every check's findings before fixes are
/// chosen: a baseline's known findings (the findings are then kept whole,
/// [`Keep::Every`], for it to match).
pub type Filter<'a> = &'a dyn Fn(&[u8], &mut Vec<Diagnostic>);

/// One file's request to the gate.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The file's path, for the policy's per-format rules (never opened).
    pub path: &'a Path,
    /// The settings every check of every round uses.
    pub policy: &'a Policy,
    /// Which fixes.
    pub select: &'a Select,
    /// Whether a file the sniff calls binary may be fixed
    /// (`--no-skip-binary`).
    pub allow_binary: bool,
    /// Findings the caller leaves out, if any.
    pub filter: Option<Filter<'a>>,
}

/// A file's accepted fixes.
#[derive(Debug)]
pub struct Fixed {
    /// The fixed bytes: what is written.
    pub bytes: Vec<u8>,
    /// The same change as one fix of the original bytes (sorted,
    /// non-overlapping edits; after several rounds, their composition):
    /// what a diff shows. No edits: nothing to fix.
    pub fix: Fix,
    /// How many findings the fixes repaired, over all rounds.
    pub findings: usize,
    /// How many rounds it took (0: nothing to fix).
    pub rounds: usize,
}

impl Fixed {
    /// Nothing to fix: the bytes stay as they are.
    fn nothing() -> Fixed {
        Fixed {
            bytes: Vec::new(),
            fix: Fix::safe("nothing", Vec::new()),
            findings: 0,
            rounds: 0,
        }
    }

    /// Whether there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.rounds == 0
    }
}

/// Why the gate refused a file's fixes; the file is left as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The sniff calls it binary.
    NotText(BinaryEvidence),
    /// It is UTF-16 or UTF-32 and the fixed bytes still are: the edits
    /// were not a conversion.
    NotItsEncoding(WideForm),
    /// It holds a control byte that text does not use (SOH, STX, SO, SUB,
    /// the separators, DEL, ...): the file is data, or uses controls as its
    /// syntax (Info's node separators, IRC formatting codes, Yodl's markers),
    /// and libmagic and most tools take it for binary.
    DataControl(u8),
    /// The fixed bytes would not read as text.
    ResultNotText,
    /// After the last round a rule has more findings than before.
    NewFindings {
        rule: Rule,
        before: usize,
        after: usize,
    },
    /// A finding the first round fixed is still there.
    NotFixed { rule: Rule, left: usize },
    /// The fixes still plan more after [`MAX_ROUNDS`] rounds.
    Unsettled,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotText(evidence) => write!(f, "it is not text ({evidence})"),
            Refusal::NotItsEncoding(form) => write!(
                f,
                "it reads as {} and its fixes are UTF-8 bytes, not a conversion of the whole file",
                form.name()
            ),
            Refusal::DataControl(byte) => write!(
                f,
                "it holds the control byte \\x{byte:02X}, which text does not use: its controls are data or syntax"
            ),
            Refusal::ResultNotText => f.write_str("the fixed file would not read as text"),
            Refusal::NewFindings {
                rule,
                before,
                after,
            } => write!(
                f,
                "its fixes would leave {after} `{}` finding{} where there {} {before}",
                rule.name(),
                if *after == 1 { "" } else { "s" },
                if *before == 1 { "was" } else { "were" },
            ),
            Refusal::NotFixed { rule, left } => write!(
                f,
                "its `{}` fixes would not remove their findings ({left} left)",
                rule.name()
            ),
            Refusal::Unsettled => write!(
                f,
                "its fixes do not settle: after {MAX_ROUNDS} rounds they would still change it"
            ),
        }
    }
}

/// Plans, applies and checks the fixes `request` selects for `bytes`; see
/// the module's contract. `Ok` with an empty [`Fixed`] when there is
/// nothing to fix.
pub fn fix(bytes: &[u8], request: &Request<'_>) -> Result<Fixed, Refusal> {
    let mut found = findings(bytes, request);
    let planned = plan(&found, request.select, bytes.len());
    if planned.is_empty() {
        return Ok(Fixed::nothing());
    }
    let before = counts(&found);
    let mut allowed = before.clone();
    let wide = evidence(bytes, request.allow_binary)?;
    let (first, mut repaired) = take(&mut found, &planned, request.select);
    for &i in &planned {
        allowed[found[i].rule.index()] -= found[i].findings;
    }
    drop(found);
    let mut written = Written::new(request);
    written.add(&first);
    let mut current = apply(bytes, &first);
    let mut composed: Option<Segments> = None;
    let mut rounds = 1;
    let last = loop {
        let mut found = findings(&current, request);
        let next = match request.select {
            Select::One { .. } => Vec::new(),
            _ => plan(&found, request.select, current.len()),
        };
        if next.is_empty() {
            break found;
        }
        if rounds == MAX_ROUNDS {
            return Err(Refusal::Unsettled);
        }
        let (fix, n) = take(&mut found, &next, request.select);
        drop(found);
        composed
            .get_or_insert_with(|| Segments::new(bytes.len()).then(bytes, &first))
            .apply(&current, &fix);
        repaired += n;
        written.add(&fix);
        current = apply(&current, &fix);
        rounds += 1;
    };
    still_text(&current, wide, request.allow_binary)?;
    let after = counts(&last);
    for rule in Rule::ALL {
        let i = rule.index();
        // What the fixes wrote on purpose may carry findings of its own.
        let (before, allowed) = (
            before[i] + written.findings[i],
            allowed[i] + written.findings[i],
        );
        let after = after[i];
        if after > before {
            return Err(Refusal::NewFindings {
                rule: *rule,
                before,
                after,
            });
        }
        if after > allowed {
            return Err(Refusal::NotFixed {
                rule: *rule,
                left: after - allowed,
            });
        }
    }
    let fix = match composed {
        Some(segments) => Fix::new(
            first.applicability(),
            "fixes",
            segments.edits(bytes.len(), &current),
        ),
        None => first,
    };
    Ok(Fixed {
        bytes: current,
        fix,
        findings: repaired,
        rounds,
    })
}

/// The check of one round, as the request keeps and filters it.
fn findings(bytes: &[u8], request: &Request<'_>) -> Vec<Diagnostic> {
    let keep = match request.filter {
        Some(_) => Keep::Every,
        None => request.select.keep(),
    };
    let mut found = check(
        bytes,
        CheckOptions::new(request.path, request.policy).keeping(keep),
    );
    if let Some(filter) = request.filter {
        filter(bytes, &mut found);
    }
    found
}

/// Findings per rule (a merged one counts for all it stands for).
fn counts(found: &[Diagnostic]) -> Vec<usize> {
    let mut n = vec![0; Rule::ALL.len()];
    for d in found {
        n[d.rule.index()] += d.findings;
    }
    n
}

/// The longest replacement whose own findings are allowed for: what a
/// rule writes for one finding (a U+FFFD, a word joiner, an escape).
const MAX_WRITTEN_CHECKED: usize = 64;

/// The findings the fixes' own bytes carry, per rule: a rule that writes
/// U+FFFD for bytes it cannot read leaves a U007 finding by design, which
/// is no new finding. Each short replacement is checked on its own once
/// (same settings); its findings inside it count once per time it was
/// written. Whatever they are, planning again must still yield nothing.
struct Written<'r> {
    path: &'r Path,
    policy: &'r Policy,
    by_text: std::collections::HashMap<Box<[u8]>, Vec<usize>>,
    findings: Vec<usize>,
}

impl<'r> Written<'r> {
    fn new(request: &Request<'r>) -> Self {
        Written {
            path: request.path,
            policy: request.policy,
            by_text: std::collections::HashMap::new(),
            findings: vec![0; Rule::ALL.len()],
        }
    }

    fn add(&mut self, fix: &Fix) {
        for edit in fix.edits() {
            let Some(text) = edit.literal() else {
                // A conversion's text is the file's own.
                continue;
            };
            if text.is_empty() || text.len() > MAX_WRITTEN_CHECKED {
                continue;
            }
            if !self.by_text.contains_key(text) {
                let own = own_findings(text, self.path, self.policy);
                self.by_text.insert(text.into(), own);
            }
            for (sum, n) in self.findings.iter_mut().zip(&self.by_text[text]) {
                *sum += n;
            }
        }
    }
}

/// The findings per rule inside `text` checked alone.
fn own_findings(text: &[u8], path: &Path, policy: &Policy) -> Vec<usize> {
    let options = CheckOptions::new(path, policy).keeping(Keep::Every);
    let mut n = vec![0; Rule::ALL.len()];
    for d in check(text, options) {
        if !d.span.is_empty() && d.span.end <= text.len() {
            n[d.rule.index()] += d.findings;
        }
    }
    n
}

/// The sniff's word on the bytes before anything is applied: binary data
/// is refused (unless allowed); a UTF-16/32 form is handed back, for the
/// result's test.
fn evidence(bytes: &[u8], allow_binary: bool) -> Result<Option<WideForm>, Refusal> {
    match sniff(bytes) {
        Sniff::Text if allow_binary => Ok(None),
        Sniff::Text => match bytes.iter().find(|&&b| is_data_control(b)) {
            Some(&byte) => Err(Refusal::DataControl(byte)),
            None => Ok(None),
        },
        Sniff::Binary(_) if allow_binary => Ok(None),
        Sniff::Binary(evidence) => Err(Refusal::NotText(evidence)),
        Sniff::Wide(wide) => Ok(Some(wide.form)),
    }
}

/// Whether `byte` is a control that text does not use: every C0 control
/// but BEL, BS, TAB, LF, VT, FF, CR and ESC (which terminal text, overstrike
/// and escape sequences use), and DEL. These are the bytes libmagic's text
/// test never finds in text (`text_chars` in its `encoding.c`): a file that
/// holds one is data to it, and to the tools that follow it.
fn is_data_control(byte: u8) -> bool {
    matches!(byte, 0x00..=0x06 | 0x0E..=0x1A | 0x1C..=0x1F | 0x7F)
}

/// The sniff's word on the fixed bytes: text, or a refusal. A UTF-16/32
/// file must have become UTF-8 (converted, or a wrong mark removed): an
/// edit of UTF-8 bytes into it leaves it wide, and not in its encoding.
fn still_text(fixed: &[u8], wide: Option<WideForm>, allow_binary: bool) -> Result<(), Refusal> {
    match (sniff(fixed), wide) {
        (Sniff::Text, _) => Ok(()),
        (_, Some(form)) => Err(Refusal::NotItsEncoding(form)),
        (Sniff::Binary(_), None) if allow_binary => Ok(()),
        _ => Err(Refusal::ResultNotText),
    }
}

/// The findings (indices into `found`) whose selected fixes apply
/// together to `len` bytes. Fixes may interleave (one rule's merged fix
/// spans the file between another's edits); one whose edit overlaps an
/// edit already taken, or inserts where one inserts, waits for the next
/// round, whole.
fn plan(found: &[Diagnostic], select: &Select, len: usize) -> Vec<usize> {
    let mut order: Vec<(usize, &Fix)> = found
        .iter()
        .enumerate()
        .filter_map(|(i, d)| select.fix_of(d).map(|f| (i, f)))
        .filter(|(_, f)| {
            !f.edits().is_empty()
                && f.edits()
                    .iter()
                    .all(|e| e.range().start <= e.range().end && e.range().end <= len)
        })
        .collect();
    order.sort_by_key(|(i, f)| (f.range().start, *i));
    // The fixes taken that may still meet a later one (by start, they
    // reach past where it starts, or insert where it could).
    let mut reaching: Vec<&Fix> = Vec::new();
    let mut planned = Vec::new();
    for (i, fix) in order {
        let start = fix.range().start;
        reaching.retain(|taken| {
            let end = taken.range().end;
            end > start
                || (end == start && taken.edits().last().is_some_and(|e| e.range().is_empty()))
        });
        let apart = fix.edits().iter().all(|edit| {
            reaching
                .iter()
                .all(|taken| fits(taken.edits(), edit.range()))
        });
        if apart {
            reaching.push(fix);
            planned.push(i);
        }
    }
    planned.sort_unstable();
    planned
}

/// Whether an edit of `range` touches none of `taken` (one fix's edits:
/// sorted, apart): no overlap, no insertion inside the other, no two
/// insertions at one point.
fn fits(taken: &[Edit], range: Range<usize>) -> bool {
    let (s, e) = (range.start, range.end);
    let clash = |edit: &Edit| {
        let (ts, te) = (edit.range().start, edit.range().end);
        if s == e && ts == te {
            s == ts
        } else if s == e {
            ts < s && s < te
        } else if ts == te {
            s < ts && ts < e
        } else {
            s < te && ts < e
        }
    };
    let at = taken.partition_point(|t| (t.range().start, t.range().end) < (s, 0));
    // Before it, only the last edit can reach it (the others end before
    // that one starts, or are insertions where it starts).
    if at > 0 && clash(&taken[at - 1]) {
        return false;
    }
    !taken[at..]
        .iter()
        .take_while(|t| t.range().start < e.max(s + 1))
        .any(clash)
}

/// The planned findings' fixes as one fix of sorted edits, taken out of
/// `found` (a chosen alternative is copied), and how many findings they
/// repair.
fn take(found: &mut [Diagnostic], planned: &[usize], select: &Select) -> (Fix, usize) {
    let mut edits = Vec::new();
    let mut repaired = 0;
    let mut weakest = Applicability::Safe;
    for &i in planned {
        let d = &mut found[i];
        repaired += d.findings;
        let fix = match select {
            Select::One { .. } => select.fix_of(d).cloned(),
            _ => d.fix.take(),
        };
        if let Some(fix) = fix {
            weakest = weakest.min(fix.applicability());
            if edits.is_empty() {
                // One rule's merged fix: its edits as they are, not copied.
                edits = fix.into_edits();
            } else {
                edits.extend(fix.into_edits());
            }
        }
    }
    (Fix::new(weakest, "fixes", edits), repaired)
}

/// `fix` applied to `bytes`, in memory.
fn apply(bytes: &[u8], fix: &Fix) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    // The plan is sorted and in bounds, and a Vec takes every write.
    if let Err(e) = write_fixes(&mut out, bytes, &[fix]) {
        unreachable!("the gate planned edits the writer refuses: {e}");
    }
    out
}

/// Where each stretch of the current bytes came from: a stretch of the
/// original (`Some(offset)`) or bytes a round wrote (`None`, read from the
/// current bytes). Built only when a second round runs, to give the
/// rounds' change as edits of the original.
struct Segments(Vec<(usize, Option<usize>)>);

impl Segments {
    /// The original, `len` bytes, as one stretch.
    fn new(len: usize) -> Segments {
        Segments(if len == 0 {
            Vec::new()
        } else {
            vec![(len, Some(0))]
        })
    }

    fn then(mut self, source: &[u8], fix: &Fix) -> Segments {
        self.apply(source, fix);
        self
    }

    /// The stretches after `fix` is applied to `source`, the current bytes.
    fn apply(&mut self, source: &[u8], fix: &Fix) {
        let old = std::mem::take(&mut self.0);
        let mut cursor = (0usize, 0usize); // (index into old, its start)
        let mut copied = 0;
        for edit in fix.edits() {
            let range = edit.range();
            copy(&old, &mut cursor, copied..range.start, &mut self.0);
            push(&mut self.0, (edit.replacement(source).len(), None));
            copied = range.end;
        }
        copy(&old, &mut cursor, copied..source.len(), &mut self.0);
    }

    /// The change from the original (`original_len` bytes) to `current`
    /// (whose stretches these are) as sorted edits of the original: each
    /// gap between two stretches of the original, with what was written
    /// there.
    fn edits(&self, original_len: usize, current: &[u8]) -> Vec<Edit> {
        let mut edits = Vec::new();
        let mut original_at = 0;
        let mut at = 0;
        let mut written: Option<Range<usize>> = None;
        for &(len, from) in &self.0 {
            match from {
                None => written.get_or_insert(at..at).end = at + len,
                Some(start) => {
                    if start > original_at || written.is_some() {
                        let new = written.take().map_or(&[][..], |w| &current[w]);
                        edits.push(Edit::replace(original_at..start, new));
                    }
                    original_at = start + len;
                }
            }
            at += len;
        }
        if original_at < original_len || written.is_some() {
            let new = written.map_or(&[][..], |w| &current[w]);
            edits.push(Edit::replace(original_at..original_len, new));
        }
        edits
    }
}

/// Appends the stretches of `old` that cover `range` of the bytes they
/// describe, from `cursor` on (ranges come in order).
fn copy(
    old: &[(usize, Option<usize>)],
    cursor: &mut (usize, usize),
    range: Range<usize>,
    out: &mut Vec<(usize, Option<usize>)>,
) {
    let mut at = range.start;
    while at < range.end {
        let (i, start) = *cursor;
        let (len, from) = old[i];
        if start + len <= at {
            *cursor = (i + 1, start + len);
            continue;
        }
        let offset = at - start;
        let n = (len - offset).min(range.end - at);
        push(out, (n, from.map(|f| f + offset)));
        at += n;
    }
}

/// Appends a stretch, joined to the last one when they continue each other.
fn push(out: &mut Vec<(usize, Option<usize>)>, (len, from): (usize, Option<usize>)) {
    match (out.last_mut(), from) {
        _ if len == 0 => {}
        (Some((l, None)), None) => *l += len,
        (Some((l, Some(f))), Some(g)) if *f + *l == g => *l += len,
        _ => out.push((len, from)),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    const UNSAFE: Select = Select::Applicable { unsafe_fixes: true };

    fn run(bytes: &[u8], select: &Select, filter: Option<Filter<'_>>) -> Result<Fixed, Refusal> {
        let policy = Policy::default();
        let request = Request {
            path: Path::new("a.txt"),
            policy: &policy,
            select,
            allow_binary: false,
            filter,
        };
        fix(bytes, &request)
    }

    /// The fixed bytes, after checking what the gate promises of them: its
    /// edits of the original give them, and a second run changes nothing.
    fn settled(bytes: &[u8]) -> Vec<u8> {
        let fixed = run(bytes, &UNSAFE, None).unwrap();
        assert!(!fixed.is_empty(), "{bytes:02X?}");
        assert_eq!(apply(bytes, &fixed.fix), fixed.bytes, "announced = applied");
        let again = run(&fixed.bytes, &UNSAFE, None).unwrap();
        assert!(again.is_empty(), "{:02X?} fixes again", fixed.bytes);
        fixed.bytes
    }

    #[test]
    fn a_tag_before_a_feff_settles_in_one_run() {
        let text = "x\n\u{E0041}\u{FEFF}y\n";
        assert_eq!(settled(text.as_bytes()), b"x\ny\n");
    }

    #[test]
    fn mojibake_joined_by_removing_a_zero_width_space_is_repaired_in_the_same_run() {
        let text = "caf\u{C3}\u{200B}\u{A9}\n";
        let fixed = run(text.as_bytes(), &UNSAFE, None).unwrap();
        assert_eq!(fixed.rounds, 2);
        assert_eq!(fixed.findings, 2);
        assert_eq!(settled(text.as_bytes()), "café\n".as_bytes());
        // Fixing U011 alone leaves a U008 finding that was not there: refused.
        let only = Select::Rule(Rule::InvisibleCharacter);
        assert_eq!(
            run(text.as_bytes(), &only, None).unwrap_err(),
            Refusal::NewFindings {
                rule: Rule::Mojibake,
                before: 0,
                after: 1
            }
        );
    }

    #[test]
    fn a_utf16_file_is_never_given_utf8_bytes() {
        // UTF-16LE without a byte-order mark, one lone high surrogate.
        let mut bytes: Vec<u8> = "some plain words in a file of UTF-16 text, "
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        bytes.extend_from_slice(&0xD800u16.to_le_bytes());
        bytes.extend(
            "and more words after it\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        );
        match run(&bytes, &UNSAFE, None) {
            Err(Refusal::NotItsEncoding(_) | Refusal::NotText(_)) => {}
            Ok(fixed) => assert!(
                fixed.is_empty() || sniff(&fixed.bytes) == Sniff::Text,
                "{:02X?}",
                fixed.bytes
            ),
            Err(other) => panic!("{other}"),
        }
        // The short form the check calls U001: refused outright.
        let short = b"a\0b\0\0\xD8c\0\n\0";
        assert!(run(short, &UNSAFE, None).is_err());
    }

    #[test]
    fn binary_data_is_refused_unless_allowed() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(b"\xC0\xAE and \xFF\n");
        let refusal = run(&png, &UNSAFE, None).unwrap_err();
        assert!(matches!(refusal, Refusal::NotText(_)), "{refusal}");
        assert!(
            refusal.to_string().starts_with("it is not text ("),
            "{refusal}"
        );
        let policy = Policy::default();
        let allowed = Request {
            path: Path::new("a.txt"),
            policy: &policy,
            select: &UNSAFE,
            allow_binary: true,
            filter: None,
        };
        let allowed = fix(&png, &allowed);
        assert!(!matches!(allowed, Err(Refusal::NotText(_))), "{allowed:?}");
    }

    /// Controls that text does not use make a file data: Info's node
    /// separator, an IRC colour code in a catalogue, a DOS end-of-file mark.
    /// The file is refused whatever its fixes; BEL, BS and ESC are text.
    #[test]
    fn a_file_holding_data_controls_is_refused() {
        for (text, byte) in [
            (
                &b"\x1f\nFile: a.info,  Node: Top\n\xEF\xBB\xBFx\n"[..],
                0x1F,
            ),
            (
                &b"msgid \"a message in \x02bold\x02 with a zero width\xE2\x80\x8Bspace in it\"\n"
                    [..],
                0x02,
            ),
            (&b"text \xEF\xBB\xBFhere\n\x1a"[..], 0x1A),
        ] {
            assert_eq!(
                run(text, &UNSAFE, None).unwrap_err(),
                Refusal::DataControl(byte)
            );
        }
        let refusal = Refusal::DataControl(0x1F).to_string();
        assert!(refusal.contains("\\x1F"), "{refusal}");
        // A terminal log's escapes and a bell are text: its U+FEFF is fixed.
        let log = b"\x1b[1mbold\x1b[0m \x07\x08_ \n\xEF\xBB\xBFnext\n";
        assert!(!run(log, &UNSAFE, None).unwrap().is_empty());
    }

    /// A finding (U007) that a filter adds, with a fix of `edit` when the
    /// bytes start with `when`.
    fn planted(when: u8, edit: Option<Edit>) -> impl Fn(&[u8], &mut Vec<Diagnostic>) {
        move |bytes, found| {
            if bytes.first() == Some(&when) {
                let mut d = Diagnostic::new(
                    Rule::ReplacementCharacter,
                    utf8lint_diagnostics::Level::Warn,
                    0..1,
                    "planted",
                );
                d.fix = edit.clone().map(|e| Fix::safe("planted", vec![e]));
                found.push(d);
            } else if bytes.first() == Some(&b'b') {
                // What the fix leaves: the same finding, no fix now.
                found.push(Diagnostic::new(
                    Rule::ReplacementCharacter,
                    utf8lint_diagnostics::Level::Warn,
                    0..1,
                    "left",
                ));
            }
        }
    }

    #[test]
    fn a_fix_that_leaves_its_finding_is_refused() {
        let filter = planted(b'a', Some(Edit::replace(0..1, *b"b")));
        let refusal = run(b"a\n", &UNSAFE, Some(&filter)).unwrap_err();
        assert_eq!(
            refusal,
            Refusal::NotFixed {
                rule: Rule::ReplacementCharacter,
                left: 1
            }
        );
    }

    #[test]
    fn fixes_that_never_settle_are_refused_after_the_last_round() {
        let rounds = Cell::new(0);
        let same = planted(b'a', Some(Edit::replace(0..1, *b"a")));
        let counting = |bytes: &[u8], found: &mut Vec<Diagnostic>| {
            rounds.set(rounds.get() + 1);
            same(bytes, found);
        };
        assert_eq!(
            run(b"a\n", &UNSAFE, Some(&counting)).unwrap_err(),
            Refusal::Unsettled
        );
        // The first check and one after each round.
        assert_eq!(rounds.get(), MAX_ROUNDS + 1);
    }

    /// Nothing to fix costs one check, a finding without a fix too.
    #[test]
    fn nothing_to_fix_is_checked_once() {
        for bytes in [&b"clean\n"[..], b"no fix \xEF\xBF\xBD here\n"] {
            let checks = Cell::new(0);
            let counting = |_: &[u8], _: &mut Vec<Diagnostic>| checks.set(checks.get() + 1);
            assert!(run(bytes, &UNSAFE, Some(&counting)).unwrap().is_empty());
            assert_eq!(checks.get(), 1);
        }
    }

    #[test]
    fn one_chosen_fix_is_applied_alone() {
        let text = "a\u{200B}b\u{200B}c\n";
        let found = check(
            text.as_bytes(),
            CheckOptions::new(Path::new("a.txt"), &Policy::default()).keeping(Keep::Every),
        );
        let first = &found[0];
        let select = Select::One {
            rule: first.rule,
            span: first.span.clone(),
            title: first.fix.as_ref().unwrap().title().to_owned(),
        };
        let fixed = run(text.as_bytes(), &select, None).unwrap();
        assert_eq!(fixed.bytes, "ab\u{200B}c\n".as_bytes());
        assert_eq!((fixed.findings, fixed.rounds), (1, 1));
    }

    /// Fixes of two rules whose edits interleave apply in one round.
    #[test]
    fn interleaved_fixes_apply_together() {
        let text = "a\u{FEFF}b\u{200B}c\u{FEFF}d\u{200B}e\n";
        let fixed = run(text.as_bytes(), &UNSAFE, None).unwrap();
        // A U+FEFF inside a line becomes U+2060 WORD JOINER; U+200B goes.
        assert_eq!(fixed.bytes, "a\u{2060}bc\u{2060}de\n".as_bytes());
        assert_eq!((fixed.findings, fixed.rounds), (4, 1));
    }

    #[test]
    fn composed_edits_of_several_rounds_give_the_bytes() {
        let original = b"0123456789";
        let first = Fix::safe(
            "1",
            vec![
                Edit::delete(1..3),
                Edit::insert(5, *b"xy"),
                Edit::replace(8..9, *b"Z"),
            ],
        );
        let one = apply(original, &first);
        assert_eq!(one, b"034xy567Z9");
        let second = Fix::safe(
            "2",
            vec![
                Edit::delete(0..1),
                Edit::replace(3..5, *b"Q"),
                Edit::insert(10, *b"!"),
            ],
        );
        let two = apply(&one, &second);
        let mut segments = Segments::new(original.len()).then(original, &first);
        segments.apply(&one, &second);
        let composed = Fix::safe("c", segments.edits(original.len(), &two));
        assert_eq!(apply(original, &composed), two);
        let ranges: Vec<_> = composed.edits().iter().map(Edit::range).collect();
        assert_eq!(ranges, [0..3, 5..5, 8..9, 10..10]);
    }
}
