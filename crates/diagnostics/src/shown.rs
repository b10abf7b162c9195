//! How many findings of one rule a report shows for one file, and the
//! counter that keeps those and counts the rest for one summary. The scan,
//! the text pass and the text rules all cap their findings through it.

use std::ops::Range;

use crate::{Diagnostic, Level, Rule};

/// The most findings of one rule a report shows for one file, whatever
/// `max-per-file` says, 0 (no cap) included: the rest are counted exactly in
/// one summary (and U001 also stops at `MAX_SHOWN_SEQUENCES`).
///
/// A file past it is not going to be read finding by finding, and the
/// ceiling is what keeps a repository's `max-per-file = 0` from making
/// output, memory and an editor's problem list grow with a hostile file:
/// 10,000 findings are about 6 MB of human output and a few MB of
/// diagnostics per rule per file, and locating them is linear
/// ([`crate::Locator`]). Fixes are not limited by it ([`Keep::Every`]).
pub(crate) const MAX_SHOWN_PER_RULE: usize = 10_000;

/// How many findings of one rule a report keeps for one file: the
/// configured cap (`max_per_rule`, 0 meaning none), never more than
/// `MAX_SHOWN_PER_RULE` (10,000).
pub fn shown_per_rule(max_per_rule: usize) -> usize {
    if max_per_rule == 0 {
        MAX_SHOWN_PER_RULE
    } else {
        max_per_rule.min(MAX_SHOWN_PER_RULE)
    }
}

/// Which findings a check keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// What a report shows: [`shown_per_rule`] of each rule, then one
    /// summary with the exact count of the rest.
    Shown,
    /// Every finding, with no cap and no summary, whole (alternatives
    /// included): what a baseline keys and a chosen alternative needs.
    /// Memory grows with the number of findings (about 1 KB each), so
    /// nothing is rendered from this.
    Every,
    /// What applying fixes needs and no more: every finding, stripped to
    /// rule, level, span and fix (no words, no alternatives), and each
    /// rule's findings merged as they are found while their fixes fit
    /// together ([`Diagnostic::findings`] says how many one stands for, its
    /// fix holds all their edits). About 32 bytes per fixed finding, so a
    /// plan is a small multiple of the file; never shown, never keyed.
    Fixes,
}

impl Keep {
    /// The most findings of one rule kept, 0 for all of them.
    pub(crate) fn cap(self, max_per_rule: usize) -> usize {
        match self {
            Keep::Shown => shown_per_rule(max_per_rule),
            Keep::Every => 0,
            Keep::Fixes => MERGED,
        }
    }
}

/// The cap [`Capped`] takes for [`Keep::Fixes`]: keep them all, merged
/// (the text rules hand the number through unchanged).
pub(crate) const MERGED: usize = usize::MAX;

/// Keeps `d` for [`Keep::Fixes`]: stripped to what fixing and counting
/// need, and merged into the last kept finding when it is of the same rule
/// and level and their fixes fit together (or neither has one).
pub(crate) fn keep_merged(kept: &mut Vec<Diagnostic>, mut d: Diagnostic) {
    d.message = String::new();
    d.label = String::new();
    d.notes = Vec::new();
    d.help = Vec::new();
    d.subparts = Vec::new();
    d.related = Vec::new();
    d.alternatives = Vec::new();
    if let Some(last) = kept.last_mut()
        && last.rule == d.rule
        && last.level == d.level
    {
        let merged = match (&mut last.fix, d.fix.take()) {
            (None, None) => true,
            (Some(into), Some(fix)) if into.can_absorb(&fix) => {
                into.absorb(fix);
                true
            }
            (_, fix) => {
                d.fix = fix;
                false
            }
        };
        if merged {
            last.findings += d.findings;
            last.span.end = last.span.end.max(d.span.end);
            return;
        }
    }
    kept.push(d);
}

/// Keeps at most `shown` findings of a rule (0: all) and counts the rest,
/// for a summary with the exact count.
pub(crate) struct Capped {
    rule: Rule,
    level: Level,
    shown: usize,
    pub(crate) kept: Vec<Diagnostic>,
    pub(crate) hidden: usize,
    first_hidden: Option<Range<usize>>,
}

impl Capped {
    pub(crate) fn new(rule: Rule, level: Level, shown: usize) -> Capped {
        Capped {
            rule,
            level,
            shown,
            kept: Vec::new(),
            hidden: 0,
            first_hidden: None,
        }
    }

    pub(crate) fn wants(&self) -> bool {
        self.level != Level::Allow
    }

    /// One finding at `span`: made (at the rule's level) and kept, or
    /// counted.
    pub(crate) fn push(&mut self, make: impl FnOnce(Level) -> Diagnostic, span: Range<usize>) {
        if self.shown == MERGED {
            keep_merged(&mut self.kept, make(self.level));
        } else if self.shown == 0 || self.kept.len() < self.shown {
            self.kept.push(make(self.level));
        } else {
            self.hidden += 1;
            self.first_hidden.get_or_insert(span);
        }
    }

    /// The kept findings onto `out`, the summary (if any was not kept)
    /// onto `summaries`.
    pub(crate) fn finish(self, out: &mut Vec<Diagnostic>, summaries: &mut Vec<Diagnostic>) {
        if let Some(span) = self.first_hidden {
            let name = self.rule.name();
            summaries.push(
                Diagnostic::new(
                    self.rule,
                    self.level,
                    span,
                    format!(
                        "{} more `{name}` finding{} in this file not shown",
                        self.hidden,
                        if self.hidden == 1 { "" } else { "s" }
                    ),
                )
                .with_label("the first one not shown")
                .with_note(format!(
                    "at most {} `{name}` findings are shown per file (`--fix` is not limited by it)",
                    self.shown
                ))
                .standing_for(self.hidden),
            );
        }
        out.extend(self.kept);
    }
}
