//! The one table of rules: code, name, default level, status,
//! fixability, summary and explanation, declared once (as rustc's
//! `error_codes!` and ruff's `codes.rs` do). Codes are never reused.
//! `utf8lint rules` prints the table; the editors' settings schema and rule
//! lists and `docs/rules.md` are generated from it (`utf8lint generate`).

use crate::Level;

/// Whether a rule's findings are settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// What it finds changes only to fix a false finding or a missed one.
    Stable,
    /// New: what it finds may still change in a minor release. It runs at
    /// its level like any other rule; its code and name never change.
    Preview,
}

impl Status {
    /// `stable` or `preview`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Stable => "stable",
            Status::Preview => "preview",
        }
    }
}

/// Whether a rule's fixes may be applied without `--unsafe-fixes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FixSafety {
    /// Every fix is safe (`--fix` applies it).
    Safe,
    /// Every fix is unsafe (`--fix --unsafe-fixes` applies it).
    Unsafe,
    /// Safe in some cases, unsafe in others; the explanation's "Fix
    /// safety" says which.
    Varies,
}

impl FixSafety {
    /// `safe`, `unsafe` or `varies`.
    pub const fn as_str(self) -> &'static str {
        match self {
            FixSafety::Safe => "safe",
            FixSafety::Unsafe => "unsafe",
            FixSafety::Varies => "varies",
        }
    }
}

/// Whether a rule's findings come with a fix (ruff's `FixAvailability`),
/// and how safe it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fixability {
    /// No finding has a fix.
    None,
    /// Some findings have a fix.
    Sometimes(FixSafety),
    /// Every finding has a fix.
    Always(FixSafety),
}

impl Fixability {
    /// `none`, `sometimes` or `always`.
    pub const fn availability(self) -> &'static str {
        match self {
            Fixability::None => "none",
            Fixability::Sometimes(_) => "sometimes",
            Fixability::Always(_) => "always",
        }
    }

    /// The fixes' safety, when there are fixes.
    pub const fn safety(self) -> Option<FixSafety> {
        match self {
            Fixability::None => None,
            Fixability::Sometimes(s) | Fixability::Always(s) => Some(s),
        }
    }

    /// For people: `no fix`, `always, safe`, `sometimes, unsafe`,
    /// `always, safe or unsafe`.
    pub const fn describe(self) -> &'static str {
        match self {
            Fixability::None => "no fix",
            Fixability::Sometimes(FixSafety::Safe) => "sometimes, safe",
            Fixability::Sometimes(FixSafety::Unsafe) => "sometimes, unsafe",
            Fixability::Sometimes(FixSafety::Varies) => "sometimes, safe or unsafe",
            Fixability::Always(FixSafety::Safe) => "always, safe",
            Fixability::Always(FixSafety::Unsafe) => "always, unsafe",
            Fixability::Always(FixSafety::Varies) => "always, safe or unsafe",
        }
    }
}

/// A row's `[Status, fix: Fixability]`; a row without one does not compile.
macro_rules! rule_status {
    ($code:literal) => {
        compile_error!(concat!(
            "rule ",
            $code,
            " needs its status and fixability on the line before it, ",
            "e.g. `[Preview, fix: None]` or `[Stable, fix: Sometimes(Unsafe)]`"
        ))
    };
    ($code:literal $status:ident) => {
        Status::$status
    };
}

macro_rules! rule_fix {
    ($code:literal) => {
        Fixability::None
    };
    ($code:literal $fix:ident $(($safety:ident))?) => {
        Fixability::$fix $((FixSafety::$safety))?
    };
}

/// Each row: doc comments, `[status, fix: fixability]`, then
/// `Variant = code, name, default level, summary;`.
macro_rules! declare_rules {
    ($(
        $(#[$doc:meta])*
        $([$status:ident, fix: $fix:ident $(($safety:ident))?])?
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

            /// Whether what the rule finds is settled.
            pub const fn status(self) -> Status {
                match self { $(Rule::$variant => rule_status!($code $($status)?),)* }
            }

            /// Whether its findings come with fixes, and how safe they are.
            pub const fn fixability(self) -> Fixability {
                match self { $(Rule::$variant => rule_fix!($code $($fix $(($safety))?)?),)* }
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
    [Stable, fix: Sometimes(Unsafe)]
    InvalidUtf8 = "U001", "invalid_utf8", Deny, "ill-formed UTF-8 sequence";
    /// U+FEFF anywhere after the first byte.
    [Stable, fix: Sometimes(Varies)]
    StrayFeff = "U002", "stray_feff", Warn, "U+FEFF after the start of the file";
    /// A leading byte-order mark where the policy forbids one.
    [Stable, fix: Sometimes(Varies)]
    ForbiddenBom = "U003", "forbidden_bom", Deny, "byte-order mark where the format forbids one";
    /// No byte-order mark where the policy requires one.
    [Stable, fix: Sometimes(Varies)]
    MissingBom = "U004", "missing_bom", Warn, "no byte-order mark where one is required";
    /// The whole file is in another encoding.
    [Stable, fix: Sometimes(Unsafe)]
    NotUtf8 = "U005", "not_utf8", Deny, "the file is not UTF-8 but another encoding";
    /// A file name that is not valid UTF-8.
    [Stable, fix: None]
    NonUtf8Path = "U006", "non_utf8_path", Warn, "file name that is not valid UTF-8";
    /// U+FFFD in the text: damage a lossy decoder did earlier.
    [Stable, fix: None]
    ReplacementCharacter = "U007", "replacement_character", Warn, "U+FFFD, where a lossy decoder already lost the original bytes";
    /// Valid UTF-8 that was UTF-8 read in a legacy encoding and encoded again.
    [Stable, fix: Sometimes(Unsafe)]
    Mojibake = "U008", "mojibake", Warn, "text that is UTF-8 read as windows-1252, ISO-8859-1 or Mac Roman and encoded again (`Ã©` for `é`)";
    /// A declared encoding the bytes contradict.
    [Stable, fix: Sometimes(Unsafe)]
    CharsetMismatch = "U009", "charset_mismatch", Deny, "a declared encoding (in the file, or .editorconfig's charset) that the bytes contradict";
    /// Bidirectional controls that reorder how text, and code, reads.
    [Stable, fix: Sometimes(Unsafe)]
    BidiControl = "U010", "bidi_control", Deny, "bidirectional control characters that show a line in another order than it is stored (Trojan Source)";
    /// Zero-width and invisible characters other than U+FEFF.
    [Stable, fix: Sometimes(Unsafe)]
    InvisibleCharacter = "U011", "invisible_character", Warn, "zero-width and invisible characters (U+200B, soft hyphens, Hangul fillers, and the directional marks in code)";
    /// C0 and C1 control characters in text.
    [Stable, fix: Sometimes(Unsafe)]
    ControlCharacter = "U012", "control_character", Warn, "C0 controls other than tab, LF, FF, CR; DEL; C1 controls (usually windows-1252 read as Latin-1)";
    /// The 66 noncharacters.
    [Stable, fix: Sometimes(Unsafe)]
    Noncharacter = "U013", "noncharacter", Warn, "noncharacters (U+FFFE, U+FDD0..U+FDEF, U+nFFFE/U+nFFFF), which must not be interchanged";
    /// Non-ASCII characters in documents that must be ASCII.
    [Stable, fix: Sometimes(Unsafe)]
    NonAscii = "U014", "non_ascii", Allow, "every line with a non-ASCII character, for documents that must be ASCII (enable per glob)";
    /// An inline suppression that suppresses nothing.
    [Stable, fix: None]
    UnusedSuppression = "U015", "unused_suppression", Warn, "a suppression comment (`utf8lint: allow(...)`, `file-allow(...)`) that suppresses nothing, names no rule, or is malformed";
    /// A word that mixes scripts into a look-alike (UTS #39).
    [Stable, fix: None]
    MixedScriptConfusable = "U016", "mixed_script_confusable", Warn, "an identifier-like word mixing scripts into a look-alike of another word (Cyrillic `а` in a Latin word: UTS #39 mixed-script confusables)";
    /// Look-alike spaces and punctuation where a compiler reads code.
    [Preview, fix: Always(Varies)]
    LookalikePunctuation = "U017", "lookalike_punctuation", Deny, "a non-ASCII space, dash, quote or punctuation mark in source code outside strings and comments, which the compiler rejects (`print(“hi”)`, a no-break space in Python)";
    /// Invisible characters in the shapes that smuggle data: selector runs, tags, private use.
    [Preview, fix: Sometimes(Unsafe)]
    HiddenPayload = "U018", "hidden_payload", Deny, "variation selectors that select nothing or come in runs (GlassWorm payloads), tag characters outside emoji flags, private-use characters in code and agent instructions (deny there, warn elsewhere)";
}

/// What a rule's findings are read from: the file's bytes, or the
/// characters they decode to. The language server checks the editor's
/// text (unsaved edits included) for the rules that read characters, and
/// takes the others from the file on disk, which only the bytes can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reads {
    /// The bytes as stored: their form (ill-formed sequences, a byte-order
    /// mark, another encoding, a declaration the bytes contradict, a file
    /// name) is not in any decoded text.
    Bytes,
    /// Decoded characters, which an editor's text holds as well.
    Characters,
}

impl Rule {
    /// What the rule's findings are read from. U015 weighs suppressions
    /// against every rule's findings, the byte rules' included: it reads
    /// the bytes.
    pub const fn reads(self) -> Reads {
        match self {
            Rule::InvalidUtf8
            | Rule::ForbiddenBom
            | Rule::MissingBom
            | Rule::NotUtf8
            | Rule::NonUtf8Path
            | Rule::CharsetMismatch
            | Rule::UnusedSuppression => Reads::Bytes,
            Rule::StrayFeff
            | Rule::ReplacementCharacter
            | Rule::Mojibake
            | Rule::BidiControl
            | Rule::InvisibleCharacter
            | Rule::ControlCharacter
            | Rule::Noncharacter
            | Rule::NonAscii
            | Rule::MixedScriptConfusable
            | Rule::LookalikePunctuation
            | Rule::HiddenPayload => Reads::Characters,
        }
    }
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
pub(crate) mod bom_formats;
pub(crate) mod charset_mismatch;
pub(crate) mod charset_names;
pub(crate) mod confusable;
pub(crate) mod declared;
pub(crate) mod dos_code_pages;
pub(crate) mod fix_scope;
pub(crate) mod hidden_payload;
pub(crate) mod info;
pub(crate) mod invalid_utf8;
pub(crate) mod invisible;
pub(crate) mod lookalike_punctuation;
pub(crate) mod mojibake;
pub(crate) mod non_utf8_path;
pub(crate) mod not_utf8;
pub(crate) mod replacement_character;
pub(crate) mod roff;
pub(crate) mod stray_feff;
pub(crate) mod text_chars;

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules an editor's text cannot tell are those of the bytes' form
    /// (and U015, which weighs every rule's findings).
    #[test]
    fn the_byte_rules_are_those_of_the_bytes_form() {
        let bytes: Vec<&str> = Rule::ALL
            .iter()
            .filter(|r| r.reads() == Reads::Bytes)
            .map(|r| r.code())
            .collect();
        assert_eq!(
            bytes,
            ["U001", "U003", "U004", "U005", "U006", "U009", "U015"]
        );
    }
}
