//! A finding's level (`allow`, `warn`, `deny`), as rustc's lint levels.

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

    /// Parses `allow`, `warn` or `deny` (any case, spaces around ignored).
    pub fn parse(text: &str) -> Option<Level> {
        match text.trim().to_ascii_lowercase().as_str() {
            "allow" => Some(Level::Allow),
            "warn" => Some(Level::Warn),
            "deny" => Some(Level::Deny),
            _ => None,
        }
    }

    /// [`Level::parse`], or an error listing the levels, with the one meant
    /// when `text` is another tool's word for it (ESLint's `off` and
    /// `error`, a `warning`).
    pub fn parse_or_explain(text: &str) -> Result<Level, String> {
        Level::parse(text).ok_or_else(|| {
            let meant = match text.trim().to_ascii_lowercase().as_str() {
                "off" | "ignore" | "none" | "disable" | "disabled" | "0" => Some(Level::Allow),
                "warning" | "1" => Some(Level::Warn),
                "error" | "err" | "forbid" | "2" => Some(Level::Deny),
                _ => None,
            };
            let hint = meant.map_or(String::new(), |l| format!(" (for `{text}`, use \"{l}\")"));
            format!("unknown level `{text}`: the levels are \"allow\", \"warn\" and \"deny\"{hint}")
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_three_levels_parse_and_other_words_get_a_hint() {
        assert_eq!(Level::parse(" Deny "), Some(Level::Deny));
        for other in ["off", "error", "warning", "on", ""] {
            assert_eq!(Level::parse(other), None, "{other:?}");
        }
        let err = Level::parse_or_explain("off").unwrap_err();
        assert_eq!(
            err,
            "unknown level `off`: the levels are \"allow\", \"warn\" and \"deny\" (for `off`, use \"allow\")"
        );
        assert!(
            Level::parse_or_explain("error")
                .unwrap_err()
                .ends_with("use \"deny\")")
        );
        assert!(
            Level::parse_or_explain("loud")
                .unwrap_err()
                .ends_with("\"deny\"")
        );
    }
}
