//! U016 in gettext catalogues: a translated word that keeps a literal of
//! its entry's `msgid`.
//!
//! Translators keep the literal half of a word whose other half they
//! translate: stty's `csN` (the literal `cs` before the metavariable `N`)
//! becomes `csН`, df's `IUsed` (a column's key letter before its name)
//! becomes `IИспользовано`. Both halves are meant. What tells such a word
//! from a look-alike typed by slip is the entry's own `msgid`: it holds the
//! ASCII half glued to an ASCII capital where the case changes (`cs|N`,
//! `I|Used`), as the translation glues it to a capital of the other
//! script. A slip has no such original: `pабота` translates `print`, whose
//! `p` is followed by a lowercase `r`, and `EΚΦΡΑΣΗ` translates
//! `EXPRESSION`, one word in capitals; and a word with ASCII letters on
//! both sides of a foreign one (`isАdmin`) is not two halves.

use super::letters::script_of;

/// How far before a finding its entry's `msgid` is looked for: an entry's
/// text is rarely longer, and a file of no entries costs each finding no
/// more than this.
const REACH: usize = 16 * 1024;

/// Whether `word`, at `at` in `file`, is in a `msgstr` and is an ASCII
/// literal glued to a translated half that its entry's `msgid` holds as
/// the same literal glued to an ASCII capital where the case changes.
pub(super) fn keeps_a_literal_of_its_msgid(file: &[u8], at: usize, word: &str) -> bool {
    let Some((literal, side)) = halves(word) else {
        return false;
    };
    let Some(msgid) = entry_msgid(file, at) else {
        return false;
    };
    let literal = literal.as_bytes();
    (0..msgid.len())
        .filter(|&i| msgid[i..].starts_with(literal))
        .any(|i| {
            let before = i.checked_sub(1).map(|p| msgid[p]);
            let after = msgid.get(i + literal.len()).copied();
            // Where the literal meets the rest of the original, the case
            // changes: `cs|N`, `I|Used` (a capital before a lowercase
            // letter starts a word, as in `HTMLParser`), `PREFIX|aa`. An
            // original of one case throughout (`EXPRESSION` for a slip
            // `EΚΦΡΑΣΗ`) has no literal to keep.
            let last_lower = literal.last().is_some_and(u8::is_ascii_lowercase);
            match side {
                Side::First => {
                    starts_word(msgid, i)
                        && after.is_some_and(|b| b.is_ascii_uppercase())
                        && (last_lower
                            || msgid
                                .get(i + literal.len() + 1)
                                .is_some_and(u8::is_ascii_lowercase))
                }
                Side::Last => {
                    literal[0].is_ascii_lowercase()
                        && before.is_some_and(|b| b.is_ascii_uppercase())
                        && !after.is_some_and(|b| b.is_ascii_alphanumeric())
                }
            }
        })
}

/// Where a word's ASCII literal stands.
#[derive(Clone, Copy)]
enum Side {
    /// Before the translated half, which starts with a capital (`csН`).
    First,
    /// After it, which ends with a capital (`ПРЕФИКСaa`).
    Last,
}

/// The ASCII literal of `word` and its side, when the word is ASCII letters
/// and letters of one other script, each half whole, the translated half
/// meeting the literal with a capital.
fn halves(word: &str) -> Option<(&str, Side)> {
    let head = word.find(|c: char| !c.is_ascii_alphabetic())?;
    if head > 0 && translated(&word[head..], |half| half.chars().next()) {
        return Some((&word[..head], Side::First));
    }
    let tail = word
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_ascii_alphabetic())
        .map(|(i, c)| i + c.len_utf8())?;
    if tail < word.len() && translated(&word[..tail], |half| half.chars().next_back()) {
        return Some((&word[tail..], Side::Last));
    }
    None
}

/// Whether `half` is letters of one script other than Latin and the letter
/// `meeting` picks (the one beside the literal) is a capital.
fn translated(half: &str, meeting: impl Fn(&str) -> Option<char>) -> bool {
    let mut scripts = half.chars().map(script_of);
    let Some(Some(script)) = scripts.next() else {
        return false;
    };
    script != "Latin"
        && scripts.all(|s| s == Some(script))
        && meeting(half).is_some_and(char::is_uppercase)
}

/// Whether `msgid[i]` starts a word: nothing before it, a character that is
/// not an ASCII letter or digit, or an escape (`\n`, `\t`).
fn starts_word(msgid: &[u8], i: usize) -> bool {
    match i.checked_sub(1).map(|p| msgid[p]) {
        None => true,
        Some(b) if !b.is_ascii_alphanumeric() => true,
        Some(_) => i >= 2 && msgid[i - 2] == b'\\',
    }
}

/// The `msgid` lines (with any `msgid_plural`) of the entry whose `msgstr`
/// holds `at`, or `None` when `at` is on no `msgstr` or continuation of
/// one: a `msgid`, a comment, a file that is no catalogue. An obsolete
/// entry (`#~ msgid`, `#~ msgstr`) is read as a live one.
fn entry_msgid(file: &[u8], at: usize) -> Option<&[u8]> {
    let floor = at.saturating_sub(REACH);
    let mut end = memchr::memchr(b'\n', &file[at..]).map_or(file.len(), |k| at + k);
    let (mut msgid_start, mut msgid_end) = (None, None);
    while end > floor {
        let start = memchr::memrchr(b'\n', &file[floor..end]).map_or(floor, |k| floor + k + 1);
        // An obsolete entry's lines are the same behind `#~`.
        let line = file[start..end].trim_ascii_start();
        let line = line.strip_prefix(b"#~").unwrap_or(line).trim_ascii_start();
        if line.starts_with(b"msgstr") {
            msgid_end = Some(start);
        } else if line.starts_with(b"msgid") {
            // A `msgid` before any `msgstr`: `at` is in the original.
            msgid_end?;
            msgid_start = Some(start);
        } else if !line.starts_with(b"\"") {
            break;
        }
        if start == 0 {
            break;
        }
        end = start - 1;
    }
    Some(&file[msgid_start?..msgid_end?])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keeps(file: &str, word: &str) -> bool {
        let at = file.rfind(word).expect("the word is in the file");
        keeps_a_literal_of_its_msgid(file.as_bytes(), at, word)
    }

    #[test]
    fn a_literal_kept_from_the_msgid_is_meant() {
        let stty = "msgid \"\"\n\"   csN           set character size to N bits\\n\"\nmsgstr \"\"\n\"   csН           установить размер символа в Н бит\\n\"\n";
        assert!(keeps(stty, "csН"));
        let df = "msgid \"\\nIUsed  IFree\"\nmsgstr \"\\nIИспользовано\"\n";
        assert!(keeps(df, "IИспользовано"));
        let obsolete =
            "#~ msgid \"    Inodes   IUsed   IFree\"\n#~ msgstr \"    Iнодов   IИспол  IСвоб\"\n";
        assert!(keeps(obsolete, "IИспол"));
        assert!(keeps(obsolete, "IСвоб"));
        let plural = "msgid \"one\"\nmsgid_plural \"PREFIXaa\"\nmsgstr[0] \"ПРЕФИКСaa\"\n";
        assert!(keeps(plural, "ПРЕФИКСaa"));
    }

    #[test]
    fn a_slip_has_no_original() {
        // The original's letter after the literal is lowercase.
        assert!(!keeps("msgid \"print\"\nmsgstr \"pабота\"\n", "pабота"));
        // The translated half starts lowercase.
        assert!(!keeps("msgid \"csN\"\nmsgstr \"csн\"\n", "csн"));
        // ASCII on both sides of the foreign letter.
        assert!(!keeps("msgid \"isAdmin\"\nmsgstr \"isАdmin\"\n", "isАdmin"));
        // An original of one case: the translator's Greek `Ε` typed Latin.
        assert!(!keeps(
            "msgid \"EXPRESSION\"\nmsgstr \"EΚΦΡΑΣΗ\"\n",
            "EΚΦΡΑΣΗ"
        ));
        assert!(!keeps(
            "msgid \"EXTERNAL\"\nmsgstr \"EСПОЉНИ\"\n",
            "EСПОЉНИ"
        ));
        // The msgid holds the literal inside a longer word only.
        assert!(!keeps("msgid \"docsN\"\nmsgstr \"csН\"\n", "csН"));
        // No msgid glues the literal to a capital.
        assert!(!keeps("msgid \"cs N\"\nmsgstr \"csН\"\n", "csН"));
        // The word is in the msgid itself, or in no catalogue at all.
        assert!(!keeps("msgid \"csN csН\"\nmsgstr \"\"\n", "csН"));
        assert!(!keeps("// csN\nlet csН = 1;\n", "csН"));
        // Another entry's msgid is not this one's original.
        assert!(!keeps(
            "msgid \"csN\"\nmsgstr \"a\"\n\n#: x.c\nmsgstr \"csН\"\n",
            "csН"
        ));
    }
}
