//! How many findings of one rule a report shows for one file, and the
//! counter that keeps those and counts the rest for one summary
//! ([`Capped`]). The byte pass, the text pass and the text rules all cap
//! their findings through it, with one wording.

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

/// Keeps at most `shown` findings of a rule (0: all; [`MERGED`]: all,
/// merged) and counts the rest, for one summary with the exact count: the
/// one cap of every rule, the byte pass's and the text pass's alike.
pub(crate) struct Capped {
    rule: Rule,
    pub(crate) level: Level,
    shown: usize,
    pub(crate) kept: Vec<Diagnostic>,
    /// Findings not kept.
    pub(crate) hidden: usize,
    first_hidden: Option<Range<usize>>,
    /// For a rule whose one finding stands for several things, a second cap
    /// on those.
    units: Option<Units>,
}

/// A second cap, on what the kept findings list (U001's: a finding is a
/// run of up to 256 ill-formed sequences, each one a unit): no new finding
/// is kept once `max` units are.
struct Units {
    /// What one unit is called in the summary: "ill-formed sequence".
    noun: &'static str,
    max: usize,
    /// Units in `kept[..counted]`, counted as findings are kept.
    kept: usize,
    counted: usize,
    /// Units not kept.
    hidden: usize,
}

/// The units a finding stands for: the subparts it lists, at least one.
fn units_of(d: &Diagnostic) -> usize {
    d.subparts.len().max(1)
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
            units: None,
        }
    }

    /// The same, and no new finding kept once they list `max` units called
    /// `noun` (0: no limit).
    pub(crate) fn counting_units(mut self, noun: &'static str, max: usize) -> Capped {
        if max != 0 {
            self.units = Some(Units {
                noun,
                max,
                kept: 0,
                counted: 0,
                hidden: 0,
            });
        }
        self
    }

    pub(crate) fn wants(&self) -> bool {
        self.level != Level::Allow
    }

    /// Whether a finding now would be counted, not kept.
    pub(crate) fn full(&mut self) -> bool {
        if self.shown != 0 && self.shown != MERGED && self.kept.len() >= self.shown {
            return true;
        }
        let Some(units) = &mut self.units else {
            return false;
        };
        if units.counted > self.kept.len() {
            // Trimmed since last counted: count again.
            (units.kept, units.counted) = (0, 0);
        }
        units.kept += self.kept[units.counted..]
            .iter()
            .map(units_of)
            .sum::<usize>();
        units.counted = self.kept.len();
        units.kept >= units.max
    }

    /// One finding at `span`: made (at the rule's level) and kept, or
    /// counted.
    pub(crate) fn push(&mut self, make: impl FnOnce(Level) -> Diagnostic, span: Range<usize>) {
        if self.full() {
            self.hide(span, 1, 1);
        } else {
            self.keep(make(self.level));
        }
    }

    /// Keeps `d`, merged into the last one for [`Keep::Fixes`].
    pub(crate) fn keep(&mut self, d: Diagnostic) {
        if self.shown == MERGED {
            keep_merged(&mut self.kept, d);
        } else {
            self.kept.push(d);
        }
    }

    /// Counts `findings` not kept, standing for `units` units, the first at
    /// `span`.
    pub(crate) fn hide(&mut self, span: Range<usize>, findings: usize, units: usize) {
        self.hidden += findings;
        if let Some(counted) = &mut self.units {
            counted.hidden += units;
        }
        self.first_hidden.get_or_insert(span);
    }

    /// Settles the findings pushed straight onto `kept` since it held
    /// `before` (one run of U001 may make several): merged for
    /// [`Keep::Fixes`], then trimmed back to the cap, the rest counted.
    pub(crate) fn settle_from(&mut self, before: usize) {
        if self.shown == MERGED {
            let new: Vec<Diagnostic> = self.kept.drain(before..).collect();
            for d in new {
                keep_merged(&mut self.kept, d);
            }
        } else if self.shown != 0 && self.kept.len() > self.shown {
            let extra: Vec<Diagnostic> = self.kept.drain(self.shown.max(before)..).collect();
            for d in extra {
                self.hide(d.span.clone(), 1, d.subparts.len());
            }
        }
    }

    /// The summary of what was not kept, if anything was not.
    fn summary(&self) -> Option<Diagnostic> {
        let span = self.first_hidden.clone()?;
        if self.units.as_ref().is_some_and(|units| units.hidden == 0) {
            return None;
        }
        let name = self.rule.name();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let message = match &self.units {
            Some(units) => format!(
                "{} more {}{} in this file not shown",
                units.hidden,
                units.noun,
                plural(units.hidden)
            ),
            None => format!(
                "{} more `{name}` finding{} in this file not shown",
                self.hidden,
                plural(self.hidden)
            ),
        };
        let ceiling =
            "whatever `max-per-file` says: the ceiling is absolute (`--fix` is not limited by it)";
        let note = match &self.units {
            Some(units) if self.kept.iter().map(units_of).sum::<usize>() >= units.max => {
                format!(
                    "at most {} {}s are shown per file {ceiling}",
                    units.max, units.noun
                )
            }
            _ if self.shown < MAX_SHOWN_PER_RULE => format!(
                "at most {} `{name}` findings are shown per file; `--max-per-file 0` shows up to {MAX_SHOWN_PER_RULE}",
                self.shown
            ),
            _ => format!(
                "at most {MAX_SHOWN_PER_RULE} `{name}` findings are shown per file {ceiling}"
            ),
        };
        Some(
            Diagnostic::new(self.rule, self.level, span, message)
                .with_label("the first one not shown")
                .with_note(note)
                .standing_for(self.hidden.max(1)),
        )
    }

    /// The kept findings onto `out`, the summary (if any was not kept)
    /// onto `summaries`.
    pub(crate) fn finish(mut self, out: &mut Vec<Diagnostic>, summaries: &mut Vec<Diagnostic>) {
        // Nearly every rule finds nothing in nearly every file: then no
        // summary is made, and nothing is moved.
        if self.first_hidden.is_some()
            && let Some(summary) = self.summary()
        {
            summaries.push(summary);
        }
        if self.kept.is_empty() {
            return;
        }
        if out.is_empty() {
            std::mem::swap(out, &mut self.kept);
        } else {
            out.append(&mut self.kept);
        }
    }
}
