//! U007 `replacement_character`: U+FFFD in well-formed text, the mark a
//! lossy decoder leaves where it met bytes that were not UTF-8. The bytes it
//! replaced are gone; the finding says where the damage is.

use crate::{Diagnostic, Level, Rule};

/// The diagnostic for the U+FFFD at `offset`.
pub fn diagnostic(offset: usize, level: Level) -> Diagnostic {
    Diagnostic::new(
        Rule::ReplacementCharacter,
        level,
        offset..offset + 3,
        "U+FFFD REPLACEMENT CHARACTER: the original bytes were lost here",
    )
    .with_label("`\\xEF\\xBF\\xBD` U+FFFD")
    .with_note("a decoder writes U+FFFD where it met bytes that were not UTF-8; whoever saved this text saved the replacement, not the bytes")
    .with_help("restore the original text from version control or the source it came from; where U+FFFD is meant (a test, documentation), allow `replacement_character`")
}
