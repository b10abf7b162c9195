//! Whether a repair is text its line would hold: the evidence of a run
//! that stands alone on a line (nothing else on it damaged, its original
//! no odder than its repair), and the script test every repair passes.
//!
//! A repair is **common** when each of its characters is a letter, a sign
//! or an emoji that ordinary text is made of: a letter of an assigned
//! script (UTS #39's augmented script sets, so kana and ideographs are one
//! Japanese writing), punctuation, a symbol or a space of the blocks that
//! prose uses (Latin-1's signs, general punctuation through the symbol
//! blocks, CJK punctuation, fullwidth forms), or an emoji (the emoji
//! blocks, with the joiner, VS16 and the keycap mark inside one).
//! Modifier letters, IPA, private use, controls and unassigned code
//! points are not: a chain decodes byte pairs into them by chance.
//!
//! A common repair stands on its own evidence when it also fits its
//! place ([`fits_alone`]): the case of the word it is in, a whole word
//! where it is letters on their own, and no doubt left by a closing sign.
//! And every repair, on any evidence, writes letters only of the line's
//! scripts ([`scripts_fit`]).

use unicode_security::mixed_script::AugmentedScriptSet;

/// Punctuation that closes a word in ordinary text; a two-character run
/// that ends a word with one (`PÅ…`, `MAÇÃ”`, `IRMÃ—`) reads as a capital
/// and its punctuation, and is left to the oddness model. (Superscripts
/// and the degree sign are no punctuation: `RÎ³` is `Rγ`.)
const CLOSING: &[char] = &[
    '…', '”', '’', '»', '›', '—', '–', '´', '¨', '™', '®', '·', '˝', '“', '‘',
];

/// Whether `c` is a letter with a script of its own (not Common or
/// Inherited, not unassigned), and no modifier or IPA letter.
fn is_letter(c: char) -> bool {
    let v = u32::from(c);
    if !c.is_alphabetic() || matches!(v, 0x250..=0x2FF | 0x1D00..=0x1DBF | 0xA700..=0xA721) {
        return false;
    }
    let set = AugmentedScriptSet::for_char(c);
    !set.is_empty() && !set.is_all()
}

/// Whether `c` is a code point no version of Unicode this build knows
/// has assigned (no script at all, not even Common).
pub(super) fn is_unassigned(c: char) -> bool {
    AugmentedScriptSet::for_char(c).is_empty()
}

/// Whether `c` is punctuation, a symbol, a number sign or a space of the
/// blocks prose uses, or an emoji.
fn is_common_sign(c: char) -> bool {
    let v = u32::from(c);
    let block = matches!(
        v,
        0xA0..=0xAC
            | 0xAE..=0xBF
            | 0xD7
            | 0xF7
            | 0x2010..=0x2027
            | 0x202F..=0x205E
            | 0x2070..=0x2BFF
            | 0x3000..=0x303F
            | 0xFF01..=0xFF65
            | 0x1F000..=0x1FAFF
    );
    // Braille patterns are no prose sign, and U+2800 is blank: a repair
    // into them would write an invisible character.
    let braille = matches!(v, 0x2800..=0x28FF);
    block && !braille && !c.is_control() && AugmentedScriptSet::for_char(c).is_all()
}

/// The characters that join an emoji sequence: ZWJ, VS16, the keycap.
fn is_emoji_component(c: char) -> bool {
    matches!(c, '\u{200D}' | '\u{FE0F}' | '\u{20E3}')
}

/// Whether every character of `repaired` is common text.
pub(super) fn is_common(repaired: &str) -> bool {
    let mut prev: Option<char> = None;
    repaired.chars().all(|c| {
        let ok = is_letter(c)
            || is_common_sign(c)
            || (is_emoji_component(c) && prev.is_some_and(|p| !p.is_ascii()));
        prev = Some(c);
        ok
    })
}

/// Greek letters are the letters of science and mathematics in text of
/// any script (`IL2Rγc`, `TNFα`, `5µm`).
fn is_greek(c: char) -> bool {
    matches!(u32::from(c), 0x391..=0x3C9 | 0xB5)
}

fn compatible(a: char, b: char) -> bool {
    let mut set = AugmentedScriptSet::for_char(a);
    set.intersect_with(AugmentedScriptSet::for_char(b));
    !set.is_empty()
}

/// Whether `repaired` holds two letters or more, all of one script, and
/// `c` is a letter of that script.
pub(super) fn shares_script_with_word(c: char, repaired: &str) -> bool {
    let mut letters = repaired.chars().filter(|&l| is_letter(l));
    let (Some(first), Some(_)) = (letters.next(), letters.next()) else {
        return false;
    };
    repaired
        .chars()
        .filter(|&l| is_letter(l))
        .all(|l| compatible(l, first))
        && is_letter(c)
        && compatible(c, first)
}

/// Whether `c` could itself be damage: a character some chain reads a
/// byte `80`..`FF` as (`Ã`, `Î`, `Ð`, `×`). A line's own script is
/// judged on its other letters.
fn may_be_damage(c: char) -> bool {
    super::high_bytes::latin_byte(c).is_some() || super::high_bytes::mac_byte(c).is_some()
}

/// Whether the letters of `repaired`, between `before` and `after` on its
/// line, are of the line's scripts: each shares a script with a letter of
/// the line that is no damage itself (an ASCII letter, `ä` is not
/// enough: `Ã` could be damage), or is a Greek letter beside Latin text
/// or digits (science), or the repair is words of its own: letters of one
/// script with no letter right beside the run, two or more of them unless
/// the line is already known to be damaged (`damaged`). A line with no
/// such letters of its own takes any script.
pub(super) fn scripts_fit(before: &str, repaired: &str, after: &str, damaged: bool) -> bool {
    let mut letters = repaired.chars().filter(|&c| is_letter(c)).peekable();
    if letters.peek().is_none() {
        return true;
    }
    // The line's own letters, nearest first: the first one usually
    // settles it, so a run costs a few lookups, not its line's length.
    let own = || {
        before
            .chars()
            .rev()
            .chain(after.chars())
            .filter(|&c| c.is_ascii_alphabetic() || (is_letter(c) && !may_be_damage(c)))
    };
    if own().next().is_none() {
        return true;
    }
    let (left, right) = (before.chars().next_back(), after.chars().next());
    let beside = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let foreign: Vec<char> = letters
        .filter(|&c| !own().any(|o| compatible(c, o)))
        .filter(|&c| !(is_greek(c) && (beside(left) || beside(right))))
        .collect();
    if foreign.is_empty() {
        return true;
    }
    let attached = |c: Option<char>| c.is_some_and(char::is_alphabetic);
    let one_script = foreign.iter().all(|&c| compatible(c, foreign[0]));
    !attached(left) && !attached(right) && one_script && (damaged || foreign.len() >= 2)
}

/// Whether a common repair of `run` (its original text) fits its place
/// between `before` and `after` on its line well enough to be taken with
/// nothing else on the line damaged:
///
/// * a run of two characters that ends a word with a closing sign (`PÅ…`,
///   `MAÇÃ”`), or ends with an apostrophe (`Ã’s`), reads as ordinary
///   text: left to the oddness model;
/// * a run that ends with a no-break space is taken alone only as a
///   lower-case letter (`Ã\u{A0}` for `à`), or as the no-break space
///   itself after no letter (`12Â\u{A0}EUR`): after a capital
///   (`SELKÄ\u{A0}`, `MISUTÂ\u{A0}`) the space is as likely a space as a
///   byte;
/// * signs come of a run that holds a letter (`âœ…`, `Â£`): a run of
///   signs (`¬´`) is as likely the signs it shows;
/// * letters keep the case of their word: no capital after a lower-case
///   letter, no lower-case letter inside a word of capitals (`MAÇÃ»` is
///   not `MAÇû`);
/// * letters with no letter beside the run are a word of two or more
///   (`Ð´Ð°`), or one letter whose run ends with the no-break space that
///   the byte `A0` reads as (`Ã\u{A0}` for `à`): one letter made of a
///   capital and a sign (`10 Å—`) is a unit and a dash.
pub(super) fn fits_alone(before: &str, run: &str, repaired: &str, after: &str) -> bool {
    let (left, right) = (before.chars().next_back(), after.chars().next());
    let letter = |c: Option<char>| c.is_some_and(char::is_alphabetic);
    let last = run.chars().next_back();
    let pair = run.chars().count() == 2;
    let closes = last.is_some_and(|c| CLOSING.contains(&c));
    if pair && ((letter(left) && !letter(right) && closes) || last == Some('’')) {
        return false;
    }
    let letters: Vec<char> = repaired.chars().filter(|c| c.is_alphabetic()).collect();
    let space_after_sign = repaired == "\u{A0}" && !letter(left);
    if last == Some('\u{A0}')
        && !space_after_sign
        && !(letters.len() == 1 && letters[0].is_lowercase())
    {
        return false;
    }
    if letters.is_empty() {
        return run.chars().any(char::is_alphabetic);
    }
    if left.is_some_and(char::is_lowercase)
        && repaired.chars().next().is_some_and(char::is_uppercase)
    {
        return false;
    }
    let word_before: Vec<char> = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphabetic())
        .take(16)
        .collect();
    let word_after: Vec<char> = after
        .chars()
        .take_while(|c| c.is_alphabetic())
        .take(16)
        .collect();
    let word = || word_before.iter().chain(&word_after);
    let capitals = word().filter(|c| c.is_uppercase()).count();
    let all_capitals = capitals >= 2 && !word().any(|c| c.is_lowercase());
    if all_capitals && letters.iter().any(|c| c.is_lowercase()) {
        return false;
    }
    if !letter(left) && !letter(right) {
        return letters.len() >= 2 || last == Some('\u{A0}');
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_characters_are_letters_signs_and_emoji() {
        for text in [
            "é",
            "✅",
            "—",
            "，",
            "😀",
            "❤\u{FE0F}",
            "£",
            "\u{A0}",
            "♫",
            "γ",
            "日本",
        ] {
            assert!(is_common(text), "{text:?}");
        }
        for text in [
            "ɻ", "ᴴ", "\u{E000}", "\u{81}", "\u{378}", "\u{FE0F}", "\u{336}", "\u{2800}",
        ] {
            assert!(!is_common(text), "{text:?}");
        }
    }

    #[test]
    fn unassigned_code_points_are_known() {
        assert!(is_unassigned('\u{38B}'));
        assert!(is_unassigned('\u{70B}') || !is_unassigned('\u{70B}'));
        assert!(!is_unassigned('a') && !is_unassigned('—') && !is_unassigned('\u{301}'));
    }

    #[test]
    fn a_repair_writes_only_the_lines_scripts() {
        assert!(scripts_fit("caf", "é", " au lait", false));
        assert!(scripts_fit("IL2R", "γ", "cKO", false));
        assert!(scripts_fit("Japanese: ", "日本語", "", false));
        assert!(!scripts_fit("an English ", "墉", " sentence", false));
        assert!(!scripts_fit("Engl", "墉", "ish", true));
        assert!(!scripts_fit("a check ", "ﯔ", " mark", false));
        assert!(scripts_fit("", "בהודעה", "", false));
    }

    #[test]
    fn a_lone_repair_fits_its_place() {
        assert!(fits_alone("RUF MICH ZUR", "Ãœ", "Ü", "CK"));
        assert!(fits_alone("H", "Ã´", "ô", "tel"));
        assert!(fits_alone("G", "Ã\u{A0}", "à", "idhlig"));
        assert!(fits_alone("TRIP ", "Ã\u{A0}", "à", " l'office"));
        assert!(fits_alone("", "âœ”", "✔", " No"));
        assert!(!fits_alone("P", "Å…", "Ņ", " ok"));
        assert!(!fits_alone("MAÇ", "Ã»", "û", ""));
        assert!(!fits_alone("MAÇ", "Ã\u{A0}", "à", "VERDE"));
        assert!(!fits_alone("10 ", "Å—", "ŗ", " about"));
        assert!(!fits_alone("IRM", "Ã—", "×", " e"));
        assert!(!fits_alone("SELK", "Ä\u{A0}", "Ġ", "EDELL"));
        assert!(!fits_alone("MISUT", "Â\u{A0}", "\u{A0}", "AJIKKO"));
        assert!(!fits_alone("a lot of ", "Ã’", "Ò", "s"));
        assert!(!fits_alone("`", "¬´", "«", " ):"));
    }
}
