//! The one table of rules: code, name, default level, summary and
//! explanation, declared once (as rustc's `error_codes!` and ruff's
//! `codes.rs` do). Codes are never reused.

use crate::Level;

macro_rules! declare_rules {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $code:literal, $name:literal, $level:ident, $summary:literal;
    )*) => {
        /// A rule utf8lint enforces.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $( $(#[$doc])* $variant, )*
        }

        impl Rule {
            /// Every rule, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable code, `U001` and up.
            pub const fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code,)* }
            }

            /// The snake_case name, in rustc's lint style.
            pub const fn name(self) -> &'static str {
                match self { $(Rule::$variant => $name,)* }
            }

            /// The level the rule has when nothing configures it.
            pub const fn default_level(self) -> Level {
                match self { $(Rule::$variant => Level::$level,)* }
            }

            /// One line saying what the rule finds.
            pub const fn summary(self) -> &'static str {
                match self { $(Rule::$variant => $summary,)* }
            }

            /// The markdown explanation (`utf8lint explain CODE`), with the
            /// headings What it does, Why is this bad, Example, Fix safety.
            pub const fn explanation(self) -> &'static str {
                match self {
                    $(Rule::$variant => include_str!(concat!("../../explanations/", $code, ".md")),)*
                }
            }
        }
    };
}

declare_rules! {
    /// Ill-formed UTF-8 sequences (docs/spec.md).
    InvalidUtf8 = "U001", "invalid_utf8", Deny, "ill-formed UTF-8 sequence";
    /// U+FEFF anywhere after the first byte.
    StrayFeff = "U002", "stray_feff", Warn, "U+FEFF after the start of the file";
    /// A leading byte-order mark where the policy forbids one.
    ForbiddenBom = "U003", "forbidden_bom", Deny, "byte-order mark where the format forbids one";
    /// No byte-order mark where the policy requires one.
    MissingBom = "U004", "missing_bom", Warn, "no byte-order mark where one is required";
    /// The whole file is in another encoding.
    NotUtf8 = "U005", "not_utf8", Deny, "the file is not UTF-8 but another encoding";
    /// A file name that is not valid UTF-8.
    NonUtf8Path = "U006", "non_utf8_path", Warn, "file name that is not valid UTF-8";
    /// U+FFFD in the text: damage a lossy decoder did earlier.
    ReplacementCharacter = "U007", "replacement_character", Warn, "U+FFFD, where a lossy decoder already lost the original bytes";
    /// Valid UTF-8 that was UTF-8 read in a legacy encoding and encoded again.
    Mojibake = "U008", "mojibake", Warn, "text that is UTF-8 read as windows-1252, ISO-8859-1 or Mac Roman and encoded again (`Ã©` for `é`)";
    /// A declared encoding the bytes contradict.
    CharsetMismatch = "U009", "charset_mismatch", Deny, "a declared encoding (in the file, or .editorconfig's charset) that the bytes contradict";
    /// Bidirectional controls that reorder how text, and code, reads.
    BidiControl = "U010", "bidi_control", Deny, "bidirectional control characters that show a line in another order than it is stored (Trojan Source)";
    /// Zero-width and invisible characters other than U+FEFF.
    InvisibleCharacter = "U011", "invisible_character", Warn, "zero-width and invisible characters (U+200B, soft hyphens, Hangul fillers, tag characters, variation selectors with no base)";
    /// C0 and C1 control characters in text.
    ControlCharacter = "U012", "control_character", Warn, "C0 controls other than tab, LF, FF, CR; DEL; C1 controls (usually windows-1252 read as Latin-1)";
    /// The 66 noncharacters.
    Noncharacter = "U013", "noncharacter", Warn, "noncharacters (U+FFFE, U+FDD0..U+FDEF, U+nFFFE/U+nFFFF), which must not be interchanged";
    /// Non-ASCII characters in documents that must be ASCII.
    NonAscii = "U014", "non_ascii", Allow, "every line with a non-ASCII character, for documents that must be ASCII (enable per glob)";
    /// An inline suppression that suppresses nothing.
    UnusedSuppression = "U015", "unused_suppression", Warn, "a suppression comment (`utf8lint: allow(...)`, `file-allow(...)`) that suppresses nothing, names no rule, or is malformed";
}

/// Where the explanations are published; `code_url` appends `U001.md`.
pub(crate) const EXPLANATIONS_URL: &str =
    "https://github.com/utf8lint/utf8lint/blob/main/crates/diagnostics/explanations/";

impl Rule {
    /// Finds a rule by code (`U001`, any case) or by name (`invalid_utf8`,
    /// or `invalid-utf8`).
    pub fn find(code_or_name: &str) -> Option<Rule> {
        let wanted = code_or_name.trim();
        Rule::ALL.iter().copied().find(|rule| {
            rule.code().eq_ignore_ascii_case(wanted)
                || rule.name() == wanted
                || rule.name().replace('_', "-") == wanted
        })
    }

    /// The address of the rule's explanation.
    pub fn url(self) -> String {
        format!("{EXPLANATIONS_URL}{}.md", self.code())
    }

    /// The rule's position in [`Rule::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

pub(crate) mod bom;
pub(crate) mod charset_mismatch;
pub(crate) mod declared;
pub(crate) mod invalid_utf8;
pub(crate) mod mojibake;
pub(crate) mod non_utf8_path;
pub(crate) mod not_utf8;
pub(crate) mod replacement_character;
pub(crate) mod stray_feff;
pub(crate) mod text_chars;
