//! Letters and their scripts as UTS #39 sees them: which characters are
//! letters, the one script of a character, the skeletons of a script's
//! letters. What the line pass (`confusable`) and the word judgement
//! (`word`) both ask, kept in a leaf so that neither imports the other back.

use std::collections::HashMap;

use unicode_security::mixed_script::AugmentedScriptSet;
use unicode_security::{GeneralSecurityProfile, skeleton};

use super::tables;

/// Combining marks of the scripts the pass reads (and the general ones):
/// they count for no script, even where Unicode calls them alphabetic
/// (Hebrew points).
pub(super) fn is_mark(c: char) -> bool {
    matches!(
        u32::from(c),
        0x300..=0x36F
            | 0x483..=0x489
            | 0x591..=0x5C7
            | 0x610..=0x61A
            | 0x64B..=0x65F
            | 0x670
            | 0x6D6..=0x6ED
            | 0x1AB0..=0x1AFF
            | 0x1DC0..=0x1DFF
            | 0x20D0..=0x20FF
            | 0xFE20..=0xFE2F
    )
}

/// A letter that counts for its script.
pub(super) fn is_letter(c: char) -> bool {
    match known(c) {
        Some(k) => k.letter,
        None => is_letter_by_lookup(c),
    }
}

pub(super) fn is_letter_by_lookup(c: char) -> bool {
    c.is_alphabetic() && !is_mark(c)
}

/// Whether UTS #39 restricts `c` in identifiers (ASCII never is).
pub(super) fn is_restricted(c: char) -> bool {
    match known(c) {
        Some(k) => k.restricted,
        None => is_restricted_by_lookup(c),
    }
}

pub(super) fn is_restricted_by_lookup(c: char) -> bool {
    !c.is_ascii() && !c.identifier_allowed()
}

/// Characters below this are answered from [`Known`]: the two-byte
/// letters of every script U016 reads, where nearly all the words it
/// judges are.
pub(super) const KNOWN_LEN: usize = 0x800;

/// What the word judgement asks of a character below [`KNOWN_LEN`], read
/// from the generated [`tables::KNOWN`], which the same lookups the others
/// take made: a word of random Greek, Cyrillic and Latin letters (test
/// data) is judged at every word, and the Unicode property and script
/// tables were most of its cost.
#[derive(Clone, Copy)]
struct Known {
    letter: bool,
    restricted: bool,
    script: Option<&'static str>,
}

fn known(c: char) -> Option<Known> {
    let &entry = tables::KNOWN.get(c as usize)?;
    Some(Known {
        letter: entry & 0x80 != 0,
        restricted: entry & 0x40 != 0,
        script: match entry & 0x3F {
            0 => None,
            k => Some(tables::SCRIPT_NAMES[usize::from(k) - 1]),
        },
    })
}

/// The letters of the scripts the pass reads, by script, where a
/// look-alike of a foreign letter is searched for.
pub(super) fn letters_of(script: &str) -> &'static [std::ops::RangeInclusive<u32>] {
    match script {
        "Latin" => &[
            0x41..=0x5A,
            0x61..=0x7A,
            0xC0..=0x2AF,
            0x1E00..=0x1EFF,
            0xA720..=0xA7FF,
        ],
        "Greek" => &[0x370..=0x3FF],
        "Cyrillic" => &[0x400..=0x52F],
        "Armenian" => &[0x531..=0x58F],
        "Hebrew" => &[0x5D0..=0x5EA],
        _ => &[],
    }
}

/// The scripts whose letters a foreign one is compared with.
pub(super) const SCRIPTS: [&str; 5] = ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew"];

/// Whether the foreign letter `c` looks like a letter of the word's `main`
/// script (the same skeleton): Cyrillic `а` in a Latin word does, and so
/// does a Latin `a` in a Cyrillic word; a Latin `b` among Greek letters
/// (`ππbbππ`, test data of a multibyte search) does not, and the word
/// then looks like no word of one script.
pub(super) fn looks_like(c: char, main: &str) -> bool {
    let Some(k) = SCRIPTS.iter().position(|&s| s == main) else {
        return false;
    };
    match tables::LOOKS_LIKE.get(c as usize) {
        Some(&answers) => answers & 1 << k != 0,
        None => looks_like_by_skeleton(c, main),
    }
}

pub(super) fn looks_like_by_skeleton(c: char, main: &str) -> bool {
    shapes_of(main).is_some_and(|shapes| shapes.contains_key(&skeleton_of(c)))
}

/// The letter of `main` that `c` looks like, for a finding's label: the
/// first of [`letters_of`] allowed in identifiers with the same skeleton
/// (`с` -> `c`), if there is one.
pub(super) fn plain_letter(c: char, main: &str) -> Option<char> {
    if (c as usize) >= KNOWN_LEN {
        return plain_letter_by_skeleton(c, main);
    }
    let k = SCRIPTS.iter().position(|&s| s == main)? as u32;
    let key = u32::from(c) << 3 | k;
    let found = tables::PLAIN.binary_search_by_key(&key, |&(key, _)| key);
    found.ok().map(|i| tables::PLAIN[i].1)
}

pub(super) fn plain_letter_by_skeleton(c: char, main: &str) -> Option<char> {
    shapes_of(main)?.get(&skeleton_of(c)).copied().flatten()
}

pub(super) fn skeleton_of(c: char) -> String {
    let mut buffer = [0u8; 4];
    skeleton(c.encode_utf8(&mut buffer)).collect()
}

/// The skeletons of the letters of `main` ([`letters_of`] that are of that
/// script alone), each with the first such letter allowed in identifiers,
/// computed once per script: asked of each foreign letter in a word, and
/// searched for each odd letter of a finding, skeletons of all of Latin's
/// 850 letters were most of the rule's time. `None` for a script the pass
/// does not read.
pub(super) fn shapes_of(main: &str) -> Option<&'static HashMap<String, Option<char>>> {
    static SHAPES: [std::sync::OnceLock<HashMap<String, Option<char>>>; 5] =
        [const { std::sync::OnceLock::new() }; 5];
    let k = SCRIPTS.iter().position(|&s| s == main)?;
    Some(SHAPES[k].get_or_init(|| {
        let mut shapes: HashMap<String, Option<char>> = HashMap::new();
        let letters = letters_of(main)
            .iter()
            .cloned()
            .flatten()
            .filter_map(char::from_u32)
            .filter(|&d| script_of(d) == Some(main));
        for d in letters {
            let plain = shapes.entry(skeleton_of(d)).or_insert(None);
            if plain.is_none() && d.identifier_allowed() {
                *plain = Some(d);
            }
        }
        shapes
    }))
}

/// The one script of `c`, if it has exactly one (not Common, not
/// Inherited, not shared between scripts).
pub(super) fn script_of(c: char) -> Option<&'static str> {
    match known(c) {
        Some(k) => k.script,
        None => script_by_lookup(c),
    }
}

pub(super) fn script_by_lookup(c: char) -> Option<&'static str> {
    let set = AugmentedScriptSet::for_char(c).base;
    if set.is_common() || set.is_inherited() || set.len() != 1 {
        return None;
    }
    set.iter().next().map(|s| s.full_name())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers of the tables for the characters below [`KNOWN_LEN`]
    /// are the lookups' and the skeletons'.
    #[test]
    fn known_characters_answer_as_their_lookups() {
        for cp in (0..KNOWN_LEN as u32).rev() {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            assert_eq!(is_letter(c), is_letter_by_lookup(c), "{c:?}");
            assert_eq!(is_restricted(c), is_restricted_by_lookup(c), "{c:?}");
            assert_eq!(script_of(c), script_by_lookup(c), "{c:?}");
            for main in SCRIPTS.into_iter().chain(["Han", "Arabic"]) {
                let expected = looks_like_by_skeleton(c, main);
                assert_eq!(looks_like(c, main), expected, "{c:?} {main}");
                assert_eq!(
                    plain_letter(c, main),
                    plain_letter_by_skeleton(c, main),
                    "{c:?} {main}"
                );
            }
        }
    }
}
