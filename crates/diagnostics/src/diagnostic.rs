use std::ops::Range;

use utf8lint_codec::Subpart;

use crate::{Fix, Level, PolicySource, Rule};

/// One finding: a rule, a level, a byte range into the original bytes, and
/// the words that explain it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule that found it.
    pub rule: Rule,
    /// Its level under the policy in force.
    pub level: Level,
    /// The bytes it is about; empty for something missing (a required BOM).
    pub span: Range<usize>,
    /// The headline, in human terms: "overlong 2-byte encoding of U+002E FULL STOP".
    pub message: String,
    /// The label under the span, with the exact bytes: "`\xC0\xAE`".
    pub label: String,
    /// `= note:` lines: facts that explain the finding.
    pub notes: Vec<String>,
    /// `= help:` lines: what to do.
    pub help: Vec<String>,
    /// For `invalid_utf8`: every maximal subpart in the span. For
    /// `not_utf8`: the first few.
    pub subparts: Vec<Subpart>,
    /// Other places worth showing (for `not_utf8`, the first few bad places).
    pub related: Vec<Range<usize>>,
    /// Where the policy behind the finding came from (BOM rules).
    pub policy_source: Option<PolicySource>,
    /// The repair, if there is one: what `--fix` applies.
    pub fix: Option<Fix>,
    /// Other repairs of the same bytes, for a client that lets the user
    /// choose (the language server offers each as a code action; JSON and
    /// SARIF list them). `--fix` never applies them.
    pub alternatives: Vec<Fix>,
    /// How many findings of `rule` this one stands for: 1, except under
    /// [`crate::Keep::Fixes`], which merges a rule's findings as they are
    /// found (their fixes' edits into one [`Fix`]).
    pub findings: usize,
    /// 0 for a finding. For the note that stands for a rule's findings the
    /// display cap left out of one file's report (one per rule, after the
    /// findings): how many it stands for. Counts add it in place of 1, and
    /// front ends show it as a note, not as a finding.
    pub not_shown: usize,
}

impl Diagnostic {
    /// A diagnostic with no notes, help, subparts or fix.
    pub fn new(rule: Rule, level: Level, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            level,
            span,
            message: message.into(),
            label: String::new(),
            notes: Vec::new(),
            help: Vec::new(),
            subparts: Vec::new(),
            related: Vec::new(),
            policy_source: None,
            fix: None,
            alternatives: Vec::new(),
            findings: 1,
            not_shown: 0,
        }
    }

    /// How many findings it counts for: 1, or for a note of findings not
    /// shown, [`Diagnostic::not_shown`].
    pub fn count(&self) -> u64 {
        if self.not_shown == 0 {
            1
        } else {
            self.not_shown as u64
        }
    }

    /// Makes it the note for `count` findings not shown.
    pub fn standing_for(mut self, count: usize) -> Self {
        self.not_shown = count;
        self
    }

    /// Sets the label.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    /// Sets the fix.
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }
}
