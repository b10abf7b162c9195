use crate::Rule;

/// How much a finding matters, as rustc's lint levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported; does not fail the run.
    Warn,
    /// Reported; fails the run (exit code 1).
    Deny,
}

impl Level {
    /// `allow`, `warn` or `deny`, as configuration spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }

    /// Parses `allow`, `warn`/`warning` or `deny`/`error`.
    pub fn parse(text: &str) -> Option<Level> {
        match text.trim().to_ascii_lowercase().as_str() {
            "allow" | "off" => Some(Level::Allow),
            "warn" | "warning" => Some(Level::Warn),
            "deny" | "error" => Some(Level::Deny),
            _ => None,
        }
    }

    /// What a report calls a finding at this level (`error`, `warning`).
    pub const fn report_name(self) -> &'static str {
        match self {
            Level::Allow => "allowed",
            Level::Warn => "warning",
            Level::Deny => "error",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The level of every rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LintLevels {
    levels: [Level; Rule::ALL.len()],
}

impl Default for LintLevels {
    fn default() -> Self {
        let mut levels = [Level::Allow; Rule::ALL.len()];
        for rule in Rule::ALL {
            levels[rule.index()] = rule.default_level();
        }
        LintLevels { levels }
    }
}

impl LintLevels {
    /// The level of `rule`.
    pub fn get(&self, rule: Rule) -> Level {
        self.levels[rule.index()]
    }

    /// Sets the level of `rule`.
    pub fn set(&mut self, rule: Rule, level: Level) {
        self.levels[rule.index()] = level;
    }

    /// Whether `rule` is reported at all.
    pub fn enabled(&self, rule: Rule) -> bool {
        self.get(rule) != Level::Allow
    }
}
