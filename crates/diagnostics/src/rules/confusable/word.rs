//! U016's judgement of one word: which of its letters are look-alikes
//! foreign to it, and the finding that names them.
//!
//! A word is split at `_` into parts, each judged alone (`{{ip_адрес}}`,
//! `ρ_air`). In a part, a letter is *odd* when it is of a script other
//! than the part's main one (the script of most of its ordinary letters,
//! Latin on a tie), or when UTS #39 restricts it in identifiers (fullwidth
//! `Ｉ`, mathematical `𝐟`, Cherokee, obsolete Cyrillic `ԁ`). The part is
//! reported when its main script has at least two ordinary letters and
//! every odd letter has the skeleton of a letter of the main script: it
//! reads as a word of that script and is not one. Two kinds of mixture
//! are meant and stay quiet: lowercase Greek letters standing whole
//! beside Latin capitals or digits (`TNFα`, `NFκB`: scientific names),
//! and the ASCII letter a translator marks as a menu accelerator in a word
//! of another script (`Р&eгулярний`, `Р_eгулярний`).

use unicode_security::skeleton;

use super::letters::{is_letter, is_restricted, looks_like, plain_letter, script_of, skeleton_of};
use crate::{Diagnostic, Level, Rule};

/// Characters that mark the next letter as a menu accelerator in
/// translation catalogues (GTK `_`, Qt and Windows `&`, KDE's and others'
/// `~`): the letter is the key, typed on purpose in the keyboard's script.
pub(super) fn is_accelerator(c: char) -> bool {
    matches!(c, '&' | '~' | '_')
}

/// A letter of a part, as the judgement sees it.
struct Letter {
    c: char,
    /// Its one script, if it has one (not Common or Inherited).
    script: Option<&'static str>,
    /// Whether UTS #39 restricts it in identifiers.
    restricted: bool,
    /// Whether an accelerator marker stands right before it.
    key: bool,
    /// The characters around it in the part (`None` at its ends).
    before: Option<char>,
    after: Option<char>,
}

/// The longest word judged, in characters: longer runs are test vectors
/// and generated data (IDNA's `assbcssss...σσ...`), not words a reader
/// types or reads.
const LONGEST: usize = 64;

/// Whether `word` can hold a part [`judge`] reports, by a count of its
/// letters that needs no Unicode lookup: a reported part's main script has
/// two ordinary letters or more, and is Latin with two ASCII letters or
/// more, or one of the scripts whose letters a foreign one can look like
/// (Greek, Cyrillic, Armenian, Hebrew: `looks_like`). A word with fewer than
/// two of either (`𝐀`, `각`, `ΐ` in a table of characters, CJK or Hangul
/// text beside a fullwidth sign) is none.
pub(super) fn may_be_look_alike(word: &str) -> bool {
    let (mut ascii, mut lookalike_script) = (0, 0);
    for c in word.chars() {
        ascii += usize::from(c.is_ascii_alphabetic());
        lookalike_script += usize::from(may_be_of_lookalike_script(c));
        if ascii >= 2 || lookalike_script >= 2 {
            return true;
        }
    }
    false
}

/// Whether `c` may be a letter of Greek, Cyrillic, Armenian or Hebrew: a
/// superset of those scripts' letters (their blocks, whole), tested
/// against UTS #39's script data over every code point.
fn may_be_of_lookalike_script(c: char) -> bool {
    matches!(
        u32::from(c),
        0x370..=0x5FF
            | 0x1C80..=0x1C8F
            | 0x1D26..=0x1D2B
            | 0x1D5D..=0x1D6A
            | 0x1D78
            | 0x1DBF
            | 0x1F00..=0x1FFF
            | 0x2126
            | 0x2DE0..=0x2DFF
            | 0xA640..=0xA69F
            | 0xAB65
            | 0xFB13..=0xFB4F
            | 0xFE2E..=0xFE2F
            | 0x10140..=0x101A0
            | 0x1D200..=0x1D245
            | 0x1E030..=0x1E08F
    )
}

/// The odd letters of `word`, if one of its parts is a look-alike: what
/// its finding ([`finding`]) names, made only when the finding is shown.
/// With `option`, the word follows a `-` that starts a command-line option
/// (`-cТЕГ`, gettext's `-cTAG` translated): its first letter is the
/// option's, typed in ASCII on purpose.
pub(super) fn judge(word: &str, option: bool) -> Option<Odd> {
    if word.chars().nth(LONGEST).is_some() {
        return None;
    }
    let mut start = 0;
    for part in word.split('_') {
        let after_marker = start > 0 || option;
        if !part.is_ascii()
            && may_report(part)
            && !is_key_list(part)
            && let Some(odd) = odd_letters(part, after_marker)
        {
            return Some(odd);
        }
        start += part.len() + 1;
    }
    None
}

/// Whether [`odd_letters`] may find `part` a look-alike, by what it asks
/// first and with nothing allocated: the main script (of two ordinary
/// letters or more, two of them ASCII in a Latin part) and a letter of
/// another script that looks like none of the main one's. Random letters
/// of three scripts (test data) and words of two scripts that resemble
/// none are ruled out here, not by building each part's letters. A letter
/// the judgement may drop from the odd ones (an ASCII letter in a part of
/// another script: an accelerator key or the `x` of a dimension; a click)
/// rules nothing out.
fn may_report(part: &str) -> bool {
    // The scripts of the part's ordinary letters and their counts, in the
    // order met; past four scripts the judgement decides.
    const MOST: usize = 4;
    let mut counts: [(&'static str, usize); MOST] = [("", 0); MOST];
    let mut scripts = 0;
    let mut ascii = 0;
    for c in part.chars().filter(|&c| is_letter(c)) {
        ascii += usize::from(c.is_ascii());
        if is_restricted(c) {
            continue;
        }
        let Some(script) = script_of(c) else { continue };
        match counts[..scripts].iter_mut().find(|(s, _)| *s == script) {
            Some((_, n)) => *n += 1,
            None if scripts == MOST => return true,
            None => {
                counts[scripts] = (script, 1);
                scripts += 1;
            }
        }
    }
    let Some((main, ordinary)) = main_script(&counts[..scripts]) else {
        return false;
    };
    if !reads_as_a_word_of(main, ordinary, ascii) {
        return false;
    }
    let mut odd = false;
    for c in part.chars().filter(|&c| is_letter(c)) {
        let foreign = script_of(c).is_some_and(|s| s != main);
        let restricted = is_restricted(c) && main == "Latin";
        let may_be_dropped =
            (c.is_ascii() && main != "Latin") || matches!(c, '\u{1C0}'..='\u{1C3}');
        if !(foreign || restricted) || may_be_dropped {
            odd |= foreign || restricted;
            continue;
        }
        odd = true;
        if foreign && !looks_like(c, main) {
            return false;
        }
    }
    odd
}

/// Whether `part` is a list of keys in both cases, each letter beside its
/// other case (`NnНн`, `yYνΝ`: the answers a translated yes/no prompt
/// takes, in the keyboard's two alphabets).
fn is_key_list(part: &str) -> bool {
    let chars: Vec<char> = part.chars().collect();
    chars.len() >= 4
        && chars.len().is_multiple_of(2)
        && chars
            .chunks(2)
            .all(|pair| pair[0] != pair[1] && pair[0].to_lowercase().eq(pair[1].to_lowercase()))
}

/// What was found in a part: its main script and its odd letters.
pub(super) struct Odd {
    main: &'static str,
    letters: Vec<Letter>,
}

fn letters(part: &str, after_marker: bool) -> Vec<Letter> {
    let chars: Vec<char> = part.chars().collect();
    let mut out = Vec::new();
    for (k, &c) in chars.iter().enumerate() {
        if !is_letter(c) {
            continue;
        }
        let key = match k.checked_sub(1) {
            Some(p) => is_accelerator(chars[p]),
            None => after_marker,
        };
        out.push(Letter {
            c,
            script: script_of(c),
            restricted: is_restricted(c),
            key,
            before: k.checked_sub(1).map(|p| chars[p]),
            after: chars.get(k + 1).copied(),
        });
    }
    out
}

/// The main script of a part, from its scripts' counts of ordinary
/// letters: the most letters, Latin on a tie (then the first by name, so
/// the answer never depends on an order of hashing).
fn main_script(counts: &[(&'static str, usize)]) -> Option<(&'static str, usize)> {
    counts
        .iter()
        .max_by_key(|&&(s, n)| (n, s == "Latin", std::cmp::Reverse(s)))
        .copied()
}

/// Whether a part whose main script has `ordinary` letters, `ascii` of all
/// its letters ASCII, can pass for a word of that script: two letters of
/// it, and a Latin word disguised is an ASCII one (Vietnamese `ềêɡ` or the
/// transcription `œ̄ṣ́m̥̄ᾱ̆́` resemble no word a reader would mistake).
fn reads_as_a_word_of(main: &str, ordinary: usize, ascii: usize) -> bool {
    ordinary >= 2 && (main != "Latin" || ascii >= 2)
}

fn odd_letters(part: &str, after_marker: bool) -> Option<Odd> {
    let letters = letters(part, after_marker);
    // Each script's ordinary letters, for the main one.
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for l in letters.iter().filter(|l| !l.restricted) {
        let Some(script) = l.script else { continue };
        match counts.iter_mut().find(|(s, _)| *s == script) {
            Some((_, n)) => *n += 1,
            None => counts.push((script, 1)),
        }
    }
    let (main, ordinary) = main_script(&counts)?;
    let ascii = letters.iter().filter(|l| l.c.is_ascii()).count();
    if !reads_as_a_word_of(main, ordinary, ascii) {
        return None;
    }
    if main == "Greek" && is_symbol_notation(&letters) {
        return None;
    }
    let foreign = |l: &Letter| l.script.is_some_and(|s| s != main);
    let odd: Vec<Letter> = letters
        .into_iter()
        // Restricted letters count in Latin words alone: Cyrillic, Greek
        // and Armenian words keep their historic and accented letters.
        .filter(|l| foreign(l) || (l.restricted && main == "Latin"))
        // The accelerator key of a translated word, typed in ASCII.
        .filter(|l| !(l.key && l.c.is_ascii() && main != "Latin"))
        // The clicks of Khoisan orthographies (`Juǀʼhoan`, `ǀXam`) are
        // letters of those languages, not disguised `l`s.
        .filter(|l| !matches!(l.c, '\u{1C0}'..='\u{1C3}'))
        .filter(|l| !is_dimension_x(l, main))
        .collect();
    // A foreign letter must look like one of the main script; a restricted
    // one of its own script or of none (fullwidth, mathematical), like
    // ASCII: an IPA or obsolete letter that looks like itself is exotic,
    // not a disguise.
    let disguised = |l: &Letter| {
        if foreign(l) {
            looks_like(l.c, main)
        } else {
            let mut buffer = [0u8; 4];
            skeleton(l.c.encode_utf8(&mut buffer)).all(|d| d.is_ascii_alphanumeric())
        }
    };
    if odd.is_empty() || !odd.iter().all(disguised) {
        return None;
    }
    if main == "Latin" && (odd.iter().all(is_scientific_greek) || is_inflected_acronym(part)) {
        return None;
    }
    if is_glued_metavariable(part) {
        return None;
    }
    Some(Odd { main, letters: odd })
}

/// Whether `part` is a lowercase ASCII literal glued to a translated
/// metavariable, capitals of one other script, either way round: nl's
/// `pBRE` translated `pБРВ`, split's `PREFIXaa` translated `ПРЕФИКСaa`.
/// At least one capital looks like no ASCII letter (`Б`, `Ф`: its UTS #39
/// skeleton is not ASCII), so the word passes for no ASCII one: capitals
/// that are all look-alikes (`aВС`) are still a finding, and so is a
/// look-alike in a lowercase word (`pабота`).
fn is_glued_metavariable(part: &str) -> bool {
    let split = |at: usize| part.split_at(at);
    let literal = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase());
    let capitals = |s: &str| {
        let mut scripts = s.chars().map(script_of);
        let script = scripts.next().flatten();
        !s.is_empty()
            && script.is_some_and(|script| script != "Latin")
            && scripts.all(|other| other == script)
            && s.chars().all(char::is_uppercase)
            && s.chars()
                .any(|c| !skeleton_of(c).bytes().all(|b| b.is_ascii_alphanumeric()))
    };
    let head = part
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(part.len());
    let tail = part
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_ascii_lowercase())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let (literal_first, rest) = split(head);
    let (first, literal_last) = split(tail);
    (literal(literal_first) && capitals(rest)) || (capitals(first) && literal(literal_last))
}

/// Whether `part` is an acronym in ASCII capitals with a case ending in
/// the lowercase letters of another script (Serbian `DBUSа`): a word of
/// both on purpose, where no capital is disguised.
fn is_inflected_acronym(part: &str) -> bool {
    let capitals = part.chars().take_while(|c| c.is_ascii_uppercase()).count();
    let ending = &part[capitals..];
    capitals >= 2
        && !ending.is_empty()
        && ending.chars().all(|c| {
            c.is_lowercase() && !c.is_ascii() && script_of(c).is_some_and(|s| s != "Latin")
        })
}

/// An ASCII `x` between capitals of a word of another script: the `×` of
/// `СТОВПЧИКІВxРЯДКІВ` (a translated `COLSxROWS`).
fn is_dimension_x(l: &Letter, main: &str) -> bool {
    let capital =
        |c: Option<char>| c.is_some_and(|c| c.is_uppercase() && script_of(c) == Some(main));
    l.c == 'x' && main != "Latin" && capital(l.before) && capital(l.after)
}

/// A lowercase Greek letter standing whole beside Latin capitals, digits,
/// other Greek letters or the part's ends: `TNFα`, `IFNγ`, `NFκB`, `Aβ42`.
/// An attack writes a look-alike inside a lowercase word (`pаypal`) or a
/// capital among capitals (`ΡAYPAL`), neither of which this is.
fn is_scientific_greek(l: &Letter) -> bool {
    let beside = |c: Option<char>| match c {
        None => true,
        Some(c) => c.is_ascii_uppercase() || c.is_ascii_digit() || script_of(c) == Some("Greek"),
    };
    l.script == Some("Greek") && l.c.is_lowercase() && beside(l.before) && beside(l.after)
}

/// Whether `letters` are a grammar's or a formula's symbols: lowercase
/// Greek letters each standing alone between ASCII capitals (`βAγ`, a
/// string of symbols around the nonterminal `A` in a parser's comment),
/// not a Greek word with a Latin capital typed in it (`Aδυναμία`).
fn is_symbol_notation(letters: &[Letter]) -> bool {
    let alone = |c: Option<char>| c.is_none_or(|c| script_of(c) != Some("Greek"));
    letters.iter().all(|l| {
        if l.script == Some("Greek") {
            l.c.is_lowercase() && alone(l.before) && alone(l.after)
        } else {
            l.c.is_ascii_uppercase()
        }
    })
}

/// What a reader is told a letter is: its script, or for a restricted
/// letter of the word's own script or of none, its kind.
fn kind_of(l: &Letter, main: &str) -> String {
    let u = u32::from(l.c);
    let kind = match u {
        0xFF00..=0xFFEF => "fullwidth",
        0x1D400..=0x1D7FF => "mathematical",
        0x2100..=0x214F => "letterlike-symbol",
        0x2160..=0x218F => "Roman-numeral",
        0x1D00..=0x1DBF => "phonetic",
        0x24B6..=0x24E9 | 0x1F130..=0x1F189 => "enclosed",
        _ => "",
    };
    match (kind, l.script) {
        ("", Some(s)) if s != main => s.to_string(),
        ("", _) => format!("restricted {main}"),
        (kind, Some(s)) if s != main => format!("{kind} {s}"),
        (kind, _) => kind.to_string(),
    }
}

/// Whether the text around the word at `at` in `file` (its line and the two
/// before) names each of its odd letters, or the letter's other case, by
/// code point (`\u03A3`, `\u{3A3}`, `U+03A3`, `&#x3A3;`): documentation
/// that shows a character (a manual's `printf 'a\u03A3b'` and the `aΣb`
/// it prints, then `abcσ` after a lowercasing), not a word that hides one.
pub(super) fn names_its_letters(file: &[u8], at: usize, odd: &Odd) -> bool {
    let line_start = |i: usize| memchr::memrchr(b'\n', &file[..i]).map_or(0, |k| k + 1);
    let mut start = line_start(at);
    for _ in 0..2 {
        if start == 0 {
            break;
        }
        start = line_start(start - 1);
    }
    let end = memchr::memchr(b'\n', &file[at..]).map_or(file.len(), |k| at + k);
    let text = &file[start..end];
    odd.letters.iter().all(|l| {
        let mut cases = vec![u32::from(l.c)];
        let lower: Vec<char> = l.c.to_lowercase().collect();
        let upper: Vec<char> = l.c.to_uppercase().collect();
        for other in [lower, upper] {
            if let [c] = other[..] {
                cases.push(u32::from(c));
            }
        }
        code_points_named(text).any(|v| cases.contains(&v))
    })
}

/// The code points `text` writes as escapes or in Unicode's notation:
/// `\u03A3` (four digits), `\U0001D41F` (eight), `\u{3A3}` and
/// `\x{3A3}`, `U+03A3`, `&#x3A3;`.
fn code_points_named(text: &[u8]) -> impl Iterator<Item = u32> + '_ {
    const PREFIXES: [(&[u8], usize); 7] = [
        (b"\\u{", 6),
        (b"\\x{", 6),
        (b"\\u", 4),
        (b"\\U", 8),
        (b"U+", 6),
        (b"&#x", 6),
        (b"&#X", 6),
    ];
    (0..text.len()).filter_map(move |i| {
        let rest = &text[i..];
        let (prefix, most) = PREFIXES.iter().find(|(p, _)| rest.starts_with(p))?;
        let digits = &rest[prefix.len()..];
        let n = digits
            .iter()
            .take(*most)
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        let hex = std::str::from_utf8(&digits[..n]).ok()?;
        (n >= 2)
            .then(|| u32::from_str_radix(hex, 16).ok())
            .flatten()
    })
}

/// "a" or "an" before `word`.
fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// The finding for `word`, at byte `at` of the file, whose odd letters
/// are `odd`.
pub(super) fn finding(word: &str, at: usize, odd: &Odd) -> Diagnostic {
    let main = odd.main;
    let mut named: Vec<String> = Vec::new();
    for l in &odd.letters {
        let kind = kind_of(l, main);
        let one = format!(
            "{} {kind} `{}` (U+{:04X})",
            article(&kind),
            l.c,
            u32::from(l.c)
        );
        if !named.contains(&one) {
            named.push(one);
        }
    }
    let listed = match named.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    let meant: String = word
        .chars()
        .map(|c| match odd.letters.iter().find(|l| l.c == c) {
            Some(_) => plain(c, main),
            None => c.to_string(),
        })
        .collect();
    let span = at..at + word.len();
    Diagnostic::new(
        Rule::MixedScriptConfusable,
        Level::Warn,
        span,
        format!("{listed} in the {main} word `{word}`"),
    )
    .with_label(format!("reads as `{meant}` and is not"))
    .with_note(
        "Unicode Technical Standard #39: the word is a look-alike (a mixed-script confusable, or a character restricted in identifiers) of a word of one script",
    )
    .with_help(format!(
        "retype the odd letters in {main}; if the mix is meant, allow `mixed_script_confusable` on this line"
    ))
}

/// The letter of `main` that `c` looks like, for the label (`с` -> `c`),
/// or `c` itself when none is.
fn plain(c: char, main: &str) -> String {
    plain_letter(c, main).unwrap_or(c).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The letters a reported word's main script can be made of, but
    /// ASCII, are all in the block list the count reads.
    #[test]
    fn the_lookalike_scripts_letters_are_all_counted() {
        let mut counted = 0;
        for c in ('\u{80}'..=char::MAX).filter(|&c| is_letter(c)) {
            let script = script_of(c);
            if matches!(script, Some("Greek" | "Cyrillic" | "Armenian" | "Hebrew")) {
                assert!(may_be_of_lookalike_script(c), "{c:?} {script:?}");
                counted += 1;
            }
        }
        assert!(counted > 900, "{counted}");
    }

    /// A word the count rules out is one the judgement reports nothing in,
    /// and the words it keeps include every kind of finding.
    #[test]
    fn the_count_rules_out_only_words_with_no_finding() {
        for word in ["𝐀", "각", "ΐ", "Ａ", "xΑ", "аb", "ℎ", "ᎪᎪ", "ꓲꓲ", "ＡＢＣ"]
        {
            assert!(!may_be_look_alike(word), "{word}");
            assert!(judge(word, false).is_none(), "{word}");
        }
        for word in ["pаypal", "𝐟etch", "Ｉgnore", "поезд", "ἀἐo", "αβc"] {
            assert!(may_be_look_alike(word), "{word}");
        }
    }

    /// A part [`may_report`] rules out is one the judgement finds nothing
    /// in, however its letters and markers are drawn; and it keeps the
    /// parts of every kind of finding.
    #[test]
    fn the_first_look_rules_out_only_parts_with_no_finding() {
        let pool: Vec<char> = "aceopxyABCEHKMOPTXлаеорсухАВЕКМНОРСТХбвгдпфШЩЖαβγοπρτυνΑΒΕΖΗΙΚΜΝΟΡΤΥΧσφψաբզհոսցՕՍ𝐟ＡＩｇℎǀԁѕіјɡ&~0 ́"
            .chars()
            .collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as usize % n
        };
        let (mut ruled_out, mut found) = (0, 0);
        for _ in 0..100_000 {
            let len = 2 + next(7);
            let part: String = (0..len).map(|_| pool[next(pool.len())]).collect();
            let part = part.replace(' ', "");
            for after_marker in [false, true] {
                let odd = odd_letters(&part, after_marker);
                found += usize::from(odd.is_some());
                if !may_report(&part) {
                    ruled_out += 1;
                    assert!(odd.is_none(), "{part:?} {after_marker}");
                }
            }
        }
        assert!(ruled_out > 100_000 && found > 1_000, "{ruled_out} {found}");
        for part in [
            "pаypal",
            "𝐟etch",
            "Ｉgnore",
            "Р&eгулярний",
            "ΡAYPAL",
            "ԁeleteUser",
        ] {
            assert!(may_report(part), "{part}");
        }
    }
}
