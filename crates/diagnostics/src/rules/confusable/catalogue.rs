//! U016 in gettext catalogues: a translated word that keeps a literal of
//! its entry's `msgid`.
//!
//! Translators keep the literal half of a word whose other half they
//! translate: stty's `csN` (the literal `cs` before the metavariable `N`)
//! becomes `csН`, df's `IUsed` (a column's key letter before its name)
//! becomes `IИспользовано`, wget's `HTTPMethod` becomes `МетодHTTP`, and
//! e2fsck's keyed messages (`aextended attribute`, the expansion of `@a`)
//! keep their key before the translation (`aрозширений атрибут`). Both
//! halves are meant. What tells such a word from a look-alike typed by
//! slip is the entry's own `msgid`, and the catalogue: the `msgid` holds
//! the ASCII half as a part of a word where the case changes (`cs|N`,
//! `I|Used`), or starts with it as the translation does, and then the
//! translated half is a word the catalogue uses elsewhere or the entry one
//! of a table of keys (`Iillegal` `Iзаборонений`); or the literal starts a
//! word of the `msgid` and the catalogue keeps it glued where the case
//! proves it (df's `Inodes` `Iнодов`, beside `IUsed`). A slip has no
//! such original: `pабота` translates `print`, whose `p` is followed by a
//! lowercase `r`, and leaves `абота`, no word; `EΚΦΡΑΣΗ` translates
//! `EXPRESSION`, one word in capitals; and a word with ASCII letters on
//! both sides of a foreign one (`isАdmin`) is not two halves.

use std::ops::Range;

use super::letters::script_of;
use crate::text::{char_at, char_before};

/// How far before a finding its entry's `msgid` is looked for: an entry's
/// text is rarely longer, and a file of no entries costs each finding no
/// more than this.
const REACH: usize = 16 * 1024;

/// Whether `word`, at `at` in `file`, is in a `msgstr` and is an ASCII
/// literal of its entry's `msgid` beside a translated half: glued to it
/// where the case changes, as the `msgid` glues it ([`glued_as_in_msgid`]),
/// or the key that starts both messages ([`keyed_message`]).
pub(super) fn keeps_a_literal_of_its_msgid(file: &[u8], at: usize, word: &str) -> bool {
    let Some(halves) = halves_of(word) else {
        return false;
    };
    let Some(entry) = entry_of(file, at) else {
        return false;
    };
    let msgid = &file[entry.msgid.clone()];
    glued_as_in_msgid(msgid, &halves)
        || keyed_message(file, at, &entry, &halves)
        || kept_glued_elsewhere(file, at, msgid, &halves)
}

/// A word of ASCII letters at one end and letters of one other script.
struct Halves<'w> {
    literal: &'w str,
    translated: &'w str,
    side: Side,
}

/// Where a word's ASCII literal stands.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    /// Before the translated half (`csН`).
    First,
    /// After it (`ПРЕФИКСaa`, `МетодHTTP`).
    Last,
}

fn halves_of(word: &str) -> Option<Halves<'_>> {
    let head = word
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(word.len());
    if head > 0 && one_script(&word[head..]) {
        return Some(Halves {
            literal: &word[..head],
            translated: &word[head..],
            side: Side::First,
        });
    }
    let tail = word
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_ascii_alphabetic())
        .map_or(0, |(i, c)| i + c.len_utf8());
    if tail < word.len() && one_script(&word[..tail]) {
        return Some(Halves {
            literal: &word[tail..],
            translated: &word[..tail],
            side: Side::Last,
        });
    }
    None
}

/// Whether `half` is letters of one script other than Latin.
fn one_script(half: &str) -> bool {
    let mut scripts = half.chars().map(script_of);
    let Some(Some(script)) = scripts.next() else {
        return false;
    };
    script != "Latin" && scripts.all(|s| s == Some(script))
}

/// A literal glued to a translated metavariable or name, where the case
/// changes as in the original: stty's `csN` translated `csН`, df's
/// `IUsed` `IИспользовано`, split's `PREFIXaa` `ПРЕФИКСaa`, wget's
/// `HTTPMethod` `МетодHTTP`. In the translation the case changes where
/// the halves meet (for a literal first, to a capital); in the `msgid` the
/// literal is a part of a word that the case or the word's ends bound
/// (`cs|N`, `I|Used`, `PREFIX|aa`, `=HTTP|Method`). An original of one
/// case throughout (`EXPRESSION` for a slip `EΚΦΡΑΣΗ`) or of one case
/// across (`print` for `pабота`) has no literal to keep.
fn glued_as_in_msgid(msgid: &[u8], halves: &Halves) -> bool {
    let literal = halves.literal.as_bytes();
    let (first, last) = (literal[0], literal[literal.len() - 1]);
    let case_changes_where_they_meet = match halves.side {
        Side::First => halves
            .translated
            .chars()
            .next()
            .is_some_and(char::is_uppercase),
        Side::Last => halves
            .translated
            .chars()
            .next_back()
            .is_some_and(|c| c.is_uppercase() != first.is_ascii_uppercase()),
    };
    if !case_changes_where_they_meet {
        return false;
    }
    (0..msgid.len())
        .filter(|&i| msgid[i..].starts_with(literal))
        .any(|i| {
            let before = i.checked_sub(1).map(|p| msgid[p]);
            let after = msgid.get(i + literal.len()).copied();
            let after_next = msgid.get(i + literal.len() + 1).copied();
            let starts = starts_word(msgid, i)
                || before.is_some_and(|b| {
                    b.is_ascii_alphabetic() && b.is_ascii_uppercase() != first.is_ascii_uppercase()
                });
            // `cs|N`; `I|Used`, as in `HTMLParser`.
            let to_a_capital = after.is_some_and(|b| b.is_ascii_uppercase())
                && (last.is_ascii_lowercase()
                    || after_next.is_some_and(|b| b.is_ascii_lowercase()));
            match halves.side {
                Side::First => starts_word(msgid, i) && to_a_capital,
                Side::Last => {
                    starts && (!after.is_some_and(|b| b.is_ascii_alphanumeric()) || to_a_capital)
                }
            }
        })
}

/// The key letter that starts a message and its translation, before the
/// translated text: e2fsck's `aextended attribute` translated
/// `aрозширений атрибут` (the `a` of its `@a` abbreviation), `E@e` `Eзапис`.
/// The word starts the `msgstr`, the `msgid` starts with the same letters
/// before more text, and the translated half starts lowercase, as the
/// expansion it is (the first letter of a translated sentence, `YВи` for
/// `You`, is a slip that kept the original's), and is a word of the
/// catalogue elsewhere (`розширений`): a slip inside a word (`pабота`, for
/// `работа`) leaves no word behind.
fn keyed_message(file: &[u8], at: usize, entry: &Entry, halves: &Halves) -> bool {
    let literal = halves.literal.as_bytes();
    halves.side == Side::First
        && halves
            .translated
            .chars()
            .next()
            .is_some_and(char::is_lowercase)
        && text_start(file, entry.msgstr) == Some(at)
        && text_start(file, entry.msgid.start).is_some_and(|m| {
            file[m..].starts_with(literal) && file.get(m + literal.len()) != Some(&b'"')
        })
        && (is_word_elsewhere(file, halves.translated, at + literal.len())
            || keyed_entries(file, at, KEYED_TABLE) >= KEYED_TABLE)
}

/// How many other keyed entries make a table of them: e2fsck's
/// abbreviations are two dozen entries in a row (`bblock` `bблок`,
/// `Iillegal` `Iзаборонений`, `llost+found` `lзагублені+знайдені`), a
/// slip that kept a sentence's first letter is one.
const KEYED_TABLE: usize = 2;

/// The entries of `file` within [`NEAR`] of `not` but the one whose
/// `msgstr` starts there, up to `most`, that are keys: the `msgid` starts with a letter doubled (in
/// either case: the key before a word that starts with it, `bblock`,
/// `Iillegal`, `hHTREE`, as few words do) and the `msgstr` with the same
/// letter before a lowercase letter of another script. In a table of them
/// the translator kept each key on purpose, whatever word follows it
/// (`заборонений`, used nowhere else in the catalogue, as much as `блок`).
/// Country names whose Cyrillic `Г` was typed Latin (`Gабон` for `Gabon`,
/// `Gһана` for `Ghana`) double no letter: they make no table.
fn keyed_entries(file: &[u8], not: usize, most: usize) -> usize {
    // A table's entries stand together: those within `NEAR` either side,
    // so that a catalogue of many candidates costs each a bounded search.
    let floor = not.saturating_sub(NEAR);
    let window = &file[..file.len().min(not + NEAR)];
    memchr::memmem::find_iter(&window[floor..], b"msgstr")
        .map(|i| floor + i)
        .filter_map(|i| {
            // The line's start within the window too (a line that starts
            // before it is no entry of the table).
            let line = match memchr::memrchr(b'\n', &file[floor..i]) {
                Some(k) => floor + k + 1,
                None if floor == 0 => 0,
                None => return None,
            };
            (keyword_line(&file[line..]).as_ptr() == file[i..].as_ptr()).then_some(line)
        })
        .filter(|&line| {
            // A string's text may start at the end of the file (`msgstr "`).
            let Some((t, &key)) = text_start(file, line)
                .filter(|&t| t != not)
                .and_then(|t| Some((t, file.get(t)?)))
            else {
                return false;
            };
            let foreign_lowercase = char_at(file, t + 1).is_some_and(|(c, _)| {
                c.is_lowercase() && script_of(c).is_some_and(|s| s != "Latin")
            });
            key.is_ascii_alphabetic()
                && foreign_lowercase
                && entry_of(file, t)
                    .and_then(|entry| text_start(file, entry.msgid.start))
                    .is_some_and(|m| {
                        file.get(m) == Some(&key)
                            && file
                                .get(m + 1)
                                .is_some_and(|b| b.eq_ignore_ascii_case(&key))
                    })
        })
        .take(most)
        .count()
}

/// A literal the catalogue keeps glued elsewhere, as this entry's `msgid`
/// starts a word with it: df's `Inodes` translated `Iнодов`, beside
/// `IUsed` translated `IИспользовано` (and `IСвободно` for `IFree`), where
/// the case proves the kept `I` ([`glued_as_in_msgid`]). The same letter
/// before a word with no such proof in the catalogue (`Cмонтировано` for
/// `Mounted on`, whose `msgid` holds no word starting `C`) is a slip.
fn kept_glued_elsewhere(file: &[u8], at: usize, msgid: &[u8], halves: &Halves) -> bool {
    let literal = halves.literal.as_bytes();
    let letter = |c: Option<char>| c.is_some_and(char::is_alphabetic);
    let in_msgid =
        (0..msgid.len()).any(|i| msgid[i..].starts_with(literal) && starts_word(msgid, i));
    let script = halves.translated.chars().next().and_then(script_of);
    // The proof stands near (df's columns are entries in a row, an
    // obsolete entry's line holds them all): looked for within `NEAR`
    // either side, at most `PROOFS` places, so that a catalogue of many
    // candidates costs each a bounded search.
    let floor = at.saturating_sub(NEAR);
    let near = &file[..file.len().min(at + NEAR)];
    halves.side == Side::First
        && in_msgid
        && memchr::memmem::find_iter(&near[floor..], literal)
            .map(|i| floor + i)
            // Not a format's or an escape's letter (`%sПов'язуємо`).
            .filter(|&i| {
                i != at
                    && !letter(char_before(file, i))
                    && !matches!(
                        i.checked_sub(1).map(|p| file[p]),
                        Some(b'%' | b'\\' | b'0'..=b'9')
                    )
            })
            // A proof glues the literal to a capital (`IИспользовано`).
            .filter(|&i| {
                char_at(file, i + literal.len())
                    .is_some_and(|(c, _)| c.is_uppercase() && script_of(c) == script)
            })
            .take(PROOFS)
            .any(|i| {
                // The word's letters, decoded from `i` one at a time (no
                // more than a word judged holds).
                let mut end = i;
                for _ in 0..64 {
                    match char_at(file, end).filter(|(c, _)| c.is_alphabetic()) {
                        Some((_, len)) => end += len,
                        None => break,
                    }
                }
                let Ok(word) = std::str::from_utf8(&file[i..end]) else {
                    return false;
                };
                halves_of(word).is_some_and(|other| {
                    other.literal == halves.literal
                        && entry_of(file, i)
                            .is_some_and(|entry| glued_as_in_msgid(&file[entry.msgid], &other))
                })
            })
}

/// How far either side of a word its catalogue's table of keys
/// ([`keyed_entries`]) and the proof of a kept literal
/// ([`kept_glued_elsewhere`]) are looked for: a table's entries and df's
/// columns stand in a row.
const NEAR: usize = 4 * 1024;

/// How many places [`kept_glued_elsewhere`] reads for a proof, and
/// [`is_word_elsewhere`] for the word standing whole: past them a
/// catalogue that repeats one glued word in every entry costs each
/// candidate no more.
const PROOFS: usize = 16;

/// How far either side of a word [`is_word_elsewhere`] looks for it: a
/// catalogue's translations of one term stand in the entries around it,
/// and a catalogue of many candidates costs each a bounded search.
const ELSEWHERE: usize = 64 * 1024;

/// Whether `word` stands as a whole word in `file` but at `not`, within
/// [`ELSEWHERE`] either side (among its first [`PROOFS`] times four places).
fn is_word_elsewhere(file: &[u8], word: &str, not: usize) -> bool {
    let letter = |c: Option<char>| c.is_some_and(char::is_alphabetic);
    let floor = not.saturating_sub(ELSEWHERE);
    let near = &file[..file.len().min(not + ELSEWHERE)];
    memchr::memmem::find_iter(&near[floor..], word.as_bytes())
        .map(|i| floor + i)
        .take(4 * PROOFS)
        .any(|i| {
            i != not
                && !letter(char_before(file, i))
                && !letter(char_at(file, i + word.len()).map(|(c, _)| c))
        })
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

/// The entry whose `msgstr` holds a byte: its `msgid` lines (with any
/// `msgid_plural`), and the start of the `msgstr` line the byte is on or
/// continues.
struct Entry {
    msgid: Range<usize>,
    msgstr: usize,
}

/// The entry whose `msgstr` holds `at`, or `None` when `at` is on no
/// `msgstr` or continuation of one: a `msgid`, a comment, a file that is
/// no catalogue. An obsolete entry (`#~ msgid`, `#~ msgstr`) is read as a
/// live one.
fn entry_of(file: &[u8], at: usize) -> Option<Entry> {
    let floor = at.saturating_sub(REACH);
    let mut end = memchr::memchr(b'\n', &file[at..]).map_or(file.len(), |k| at + k);
    let (mut msgid_start, mut msgid_end, mut msgstr) = (None, None, None);
    while end > floor {
        let start = memchr::memrchr(b'\n', &file[floor..end]).map_or(floor, |k| floor + k + 1);
        let line = keyword_line(&file[start..end]);
        if line.starts_with(b"msgstr") {
            // Before the `msgid`: the entry before this one's.
            if msgid_start.is_some() {
                break;
            }
            msgid_end = Some(start);
            msgstr.get_or_insert(start);
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
    Some(Entry {
        msgid: msgid_start?..msgid_end?,
        msgstr: msgstr?,
    })
}

/// A catalogue line from its keyword or string on: past its indentation
/// and, in an obsolete entry, past `#~`.
fn keyword_line(line: &[u8]) -> &[u8] {
    let line = line.trim_ascii_start();
    line.strip_prefix(b"#~").unwrap_or(line).trim_ascii_start()
}

/// The offset of the first byte of the text of the string that the
/// keyword line at `line` starts: inside its quotes, or, when that string
/// is empty (`msgstr ""`), inside the next line's.
fn text_start(file: &[u8], line: usize) -> Option<usize> {
    let quote = line + memchr::memchr(b'"', &file[line..])?;
    if file.get(quote + 1) != Some(&b'"') {
        return Some(quote + 1);
    }
    let next = quote + memchr::memchr(b'\n', &file[quote..])? + 1;
    let rest = &file[next..];
    let indent = rest.len() - keyword_line(rest).len();
    (rest.get(indent) == Some(&b'"')).then_some(next + indent + 1)
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
        let wget = "msgid \"       --method=HTTPMethod   use method\"\nmsgstr \"       --method=МетодHTTP   використовувати\"\n";
        assert!(keeps(wget, "МетодHTTP"));
        let e2fsck = "msgid \"aextended attribute\"\nmsgstr \"aрозширений атрибут\"\n\n#: e2fsck/message.c:117\nmsgid \"\"\n\"bblock\"\nmsgstr \"\"\n\"bблок\"\n\nmsgid \"extended attribute block\"\nmsgstr \"розширений атрибут блок\"\n";
        assert!(keeps(e2fsck, "aрозширений"));
        let at = e2fsck.find("bблок").unwrap();
        assert!(keeps_a_literal_of_its_msgid(e2fsck.as_bytes(), at, "bблок"));
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
        // A key whose translated half is no word of the catalogue, or a
        // word that starts no message.
        let slip = "msgid \"print\"\nmsgstr \"pабота\"\n\nmsgid \"work\"\nmsgstr \"работа\"\n";
        assert!(!keeps(slip, "pабота"));
        assert!(!keeps(
            "msgid \"aextended\"\nmsgstr \"aрозширений\"\n",
            "aрозширений"
        ));
        let inside =
            "msgid \"aextended\"\nmsgstr \"x aрозширений\"\n\nmsgid \"e\"\nmsgstr \"розширений\"\n";
        assert!(!keeps(inside, "aрозширений"));
        // The original's first letter kept before a translated sentence.
        let you = "msgid \"You can\"\nmsgstr \"YВи можете\"\n\nmsgid \"you\"\nmsgstr \"Ви\"\n";
        assert!(!keeps(you, "YВи"));
        // Halves of one case where they meet.
        assert!(!keeps(
            "msgid \"methodhttp\"\nmsgstr \"Методhttp\"\n",
            "Методhttp"
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

    /// e2fsck's table of abbreviations: each key kept before its
    /// translation, whether or not the catalogue uses the word elsewhere.
    #[test]
    fn a_table_of_keyed_entries_is_meant() {
        let table = "msgid \"bblock\"\nmsgstr \"bблок\"\n\nmsgid \"ddirectory\"\nmsgstr \"dкаталог\"\n\n#: e2fsck/message.c:130\nmsgid \"Iillegal\"\nmsgstr \"Iзаборонений\"\n\nmsgid \"llost+found\"\nmsgstr \"lзагублені+знайдені\"\n";
        assert!(keeps(table, "Iзаборонений"));
        assert!(keeps(table, "lзагублені"));
        // Names whose first letter was typed in Latin double no key.
        let names = "msgid \"Gabon\"\nmsgstr \"Gабон\"\n\nmsgid \"Ghana\"\nmsgstr \"Gһана\"\n\nmsgid \"Gibraltar\"\nmsgstr \"Gибралтар\"\n";
        assert!(!keeps(names, "Gабон"));
        // One other keyed entry is no table.
        let two =
            "msgid \"bblock\"\nmsgstr \"bблок\"\n\nmsgid \"Iillegal\"\nmsgstr \"Iзаборонений\"\n";
        assert!(!keeps(two, "Iзаборонений"));
        // A sentence's first letter kept in a catalogue of keys is still
        // a slip: its translation starts with a capital.
        let you = format!("{table}\nmsgid \"You can\"\nmsgstr \"YВи можете\"\n");
        assert!(!keeps(&you, "YВи"));
    }

    /// An entry right after the one before, with no blank line or comment
    /// between: its `msgid` ends where its own `msgstr` starts.
    #[test]
    fn an_entry_right_after_another_is_read_alone() {
        let glued = "msgstr \"\"\n#~ msgid \"\"\nmsgstr \"aрозширений\"\n";
        let at = glued.find("aрозширений").unwrap();
        assert!(!keeps_a_literal_of_its_msgid(
            glued.as_bytes(),
            at,
            "aрозширений"
        ));
        let stty = "msgid \"a\"\nmsgstr \"b\"\nmsgid \"csN\"\nmsgstr \"csН\"\n";
        assert!(keeps(stty, "csН"));
    }

    /// A catalogue cut off inside a string, where the next entry's text
    /// would start, is read to its end and no further.
    #[test]
    fn a_catalogue_cut_off_in_a_string_is_read_to_its_end() {
        for cut in [
            "msgid \"aextended\"\nmsgstr \"aрозширений\"\n\nmsgid \"x\"\nmsgstr \"",
            "msgid \"aextended\"\nmsgstr \"aрозширений\"\n\nmsgid \"",
            "msgid \"Inodes\"\nmsgstr \"Iнодов\"\n\nmsgid \"",
            "msgid \"Inodes\"\nmsgstr \"Iнодов\"\nmsgstr \"",
        ] {
            let word = if cut.contains("Iнодов") {
                "Iнодов"
            } else {
                "aрозширений"
            };
            let at = cut.find(word).unwrap();
            assert!(
                !keeps_a_literal_of_its_msgid(cut.as_bytes(), at, word),
                "{cut:?}"
            );
        }
    }

    /// df's column names: the `I` kept before `нодов` as before
    /// `Использовано`, where the case proves it.
    #[test]
    fn a_literal_the_catalogue_keeps_glued_elsewhere_is_meant() {
        let df = "msgid \"Inodes\"\nmsgstr \"Iнодов\"\n\nmsgid \"IUsed\"\nmsgstr \"IИспользовано\"\n\nmsgid \"Mounted on\"\nmsgstr \"Cмонтировано в\"\n\nmsgid \"CPU\"\nmsgstr \"CПУ\"\n";
        assert!(keeps(df, "Iнодов"));
        // Its msgid starts no word with the literal.
        assert!(!keeps(df, "Cмонтировано"));
        // No word of the catalogue proves the literal kept.
        let alone =
            "msgid \"Inodes\"\nmsgstr \"Iнодов\"\n\nmsgid \"IUsed\"\nmsgstr \"Использовано\"\n";
        assert!(!keeps(alone, "Iнодов"));
        // A format's letter before a capital proves nothing.
        let format = "msgid \"<size>\"\nmsgstr \"<sрозмір>\"\n\nmsgid \"%s%sLinking\"\nmsgstr \"%s%sПов'язуємо\"\n";
        assert!(!keeps(format, "sрозмір"));
        // The proof is of another literal.
        let other = "msgid \"Inodes\"\nmsgstr \"Iнодов\"\n\nmsgid \"csN\"\nmsgstr \"csН\"\n";
        assert!(!keeps(other, "Iнодов"));
    }
}
