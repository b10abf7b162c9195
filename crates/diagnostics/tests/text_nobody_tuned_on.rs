//! Verdicts on text no threshold was tuned on: a language missing from the
//! alphabets is never evidence for another, too few letters to tell the
//! encodings apart stay U001, quotation marks are punctuation, and a
//! declaration whose reading is text is not contradicted.

use std::path::Path;

use utf8lint_diagnostics::{CheckOptions, Diagnostic, Policy, Rule, check};

fn run_as(name: &str, bytes: &[u8]) -> Vec<Diagnostic> {
    check(
        bytes,
        CheckOptions::new(Path::new(name), &Policy::default()),
    )
}

fn rules(name: &str, bytes: &[u8]) -> Vec<Rule> {
    let mut rules: Vec<Rule> = run_as(name, bytes).iter().map(|d| d.rule).collect();
    rules.dedup();
    rules
}

fn u005(name: &str, bytes: &[u8]) -> Option<Diagnostic> {
    run_as(name, bytes)
        .into_iter()
        .find(|d| d.rule == Rule::NotUtf8)
}

fn encode(encoding: &'static encoding_rs::Encoding, text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text}");
    bytes.into_owned()
}

/// Thin evidence names no encoding and converts nothing: one `±` byte
/// value (ISO-8859-4 `ąInf`), one EUC-JP character repeated (windows-1251
/// `Жь`), Shift_JIS with no ASCII letter beside it (windows-1250
/// `“ú–{ŚÍ`), two letters a missing language writes (Breton `ñ ù`,
/// windows-1257 `ń ł`). Below enough text to say "not identified", each
/// sequence is a U001 with its readings.
#[test]
fn too_few_letters_to_tell_the_encodings_apart_name_nothing() {
    let euc_jp = encode(encoding_rs::EUC_JP, "# 日 a\n# 日 b\n# 日 c\n");
    let shift_jis = encode(encoding_rs::SHIFT_JIS, "/* 日本語 */\nint x;\n");
    let cases: [(&str, &[u8]); 6] = [
        ("asm.s", b"; returns \xB1Inf\n; and \xB1Nan\n\tret\n"),
        ("asm.s", b"; \xB1Inf\n; \xB1Inf\n; \xB1Nan\n; \xB1Zero\n"),
        ("a.c", &euc_jp),
        ("a.c", &shift_jis),
        (
            "br.txt",
            b"Emzivad anezha\xf1, ema\xf1 Harry Potter o chom e ti e eontr, pa'z eo pedet da vont da Gerambreo\xf9, ar Skol.\n",
        ),
        (
            "br.txt",
            b"Emzivad anezha\xf1, ema\xf1 Harry Potter. Bema\xf1 e ranko deski\xf1 an holl dra\xf9, Gerambreo\xf9.\n",
        ),
    ];
    for (i, (name, bytes)) in cases.into_iter().enumerate() {
        let found = run_as(name, bytes);
        let shown = bytes.escape_ascii();
        assert!(
            found
                .iter()
                .all(|d| d.fix.as_ref().is_none_or(|f| f.transcoded_from().is_none())),
            "{shown}"
        );
        for d in found.iter().filter(|d| d.rule == Rule::NotUtf8) {
            assert!(
                d.message.ends_with("does not identify"),
                "{shown}: {}",
                d.message
            );
        }
        // The short ones are U001 alone.
        if [0, 1, 3, 4].contains(&i) {
            assert_eq!(rules(name, bytes), [Rule::InvalidUtf8], "{shown}");
        }
    }
}

/// Enough letters on the other side of the line are named and converted:
/// Croatian `č ć ž` in windows-1250, a longer EUC-JP comment.
#[test]
fn three_different_letters_name_the_encoding() {
    let croatian = b"bjelogori\xE8na stabla, drve\xE6a u ju\x9Enoj Hrvatskoj\n";
    let d = u005("hr.txt", croatian).expect("a U005");
    assert!(d.message.contains("windows-1250"), "{}", d.message);
    assert!(d.fix.is_some());
    let japanese = encode(
        encoding_rs::EUC_JP,
        "/* 東京の天気は晴れです。明日は雨が降るでしょう。 */\nint weather;\n/* 今日は寒いので、暖かい服を着てください。 */\n",
    );
    let d = u005("a.c", &japanese).expect("a U005");
    assert!(d.message.contains("EUC-JP"), "{}", d.message);
}

/// A guillemet glued to a word is a quotation mark: Italian `«La ... Zeno»`
/// is windows-1252, not ISO-8859-2 `ŤLa ... Zenoť`.
#[test]
fn a_guillemet_before_a_word_is_punctuation() {
    let italian = encode(
        encoding_rs::WINDOWS_1252,
        "Il libro si intitola «La coscienza di Zeno» ed è stato scritto da Italo Svevo. «Non è così» disse lui, «perché la città è là e più in là c'è un caffè». Però è vero.\n",
    );
    let d = u005("it.txt", &italian).expect("a U005");
    assert!(d.message.contains("windows-1252"), "{}", d.message);
    // Two letters (`è ì`) where the detector reads windows-1252 too.
    let short = encode(
        encoding_rs::WINDOWS_1252,
        "Il libro si intitola «La coscienza di Zeno» ed è stato scritto da Italo Svevo. «Non è così» disse lui.\n",
    );
    let d = u005("it.txt", &short).expect("a U005");
    assert!(d.message.contains("windows-1252"), "{}", d.message);
}

/// A declaration whose reading is text of its script is no contradiction,
/// whatever the detector guesses: Esperanto in ISO-8859-3 (a language
/// missing from the alphabets) and a PEP 263 table of Spanish vowels.
/// A declared reading that is not text still is (windows-1251 Russian
/// declared ISO-8859-1 reads `Ïðèâåò`).
#[test]
fn u009_only_for_a_declared_reading_that_is_not_text() {
    let po = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=ISO-8859-3\\n\"\n\nmsgid \"Messages\"\nmsgstr \"Mesaĝoj\"\n\nmsgid \"Search\"\nmsgstr \"Serĉi\"\n\nmsgid \"Change\"\nmsgstr \"Ŝanĝi\"\n";
    let esperanto = encode(encoding_rs::ISO_8859_3, po);
    assert_eq!(rules("eo.po", &esperanto), [Rule::NotUtf8]);
    let python = "# -*- coding: iso-8859-1 -*-\n\"\"\"Tabla de vocales.\"\"\"\nVOCALES = {\"a\": \"á\", \"e\": \"é\", \"i\": \"í\", \"o\": \"ó\", \"u\": \"ú\"}\n";
    let spanish = encode(encoding_rs::WINDOWS_1252, python);
    assert_eq!(rules("vocales.py", &spanish), [Rule::NotUtf8]);
    let russian = "# -*- coding: iso-8859-1 -*-\n# Привет, мир! Это пример текста на русском языке.\n# Съешь же ещё этих мягких французских булок, да выпей чаю.\n";
    let cyrillic = encode(encoding_rs::WINDOWS_1251, russian);
    let found = rules("ru.py", &cyrillic);
    assert!(found.contains(&Rule::CharsetMismatch), "{found:?}");
}

/// A Korean EUC-KR text with one line of KS X 1001 syllables composed from
/// jamo (`A4 D4` and three jamo: hiragana `ぴ...` in EUC-JP) is named and
/// converted as EUC-KR: the whole file's characters decide, not one line.
#[test]
fn one_line_of_composed_jamo_keeps_korean_korean() {
    let korean = "대한민국은 동아시아의 한반도 남부에 위치한 민주공화국이다. 수도는 서울특별시이며, 국기는 태극기, 국가는 애국가, 공용어는 한국어이다.\n한국의 역사는 고조선으로부터 시작되었으며, 삼국 시대와 남북국 시대를 거쳐 고려와 조선으로 이어졌다.\n오늘날 대한민국은 세계적인 경제 대국으로 성장하였으며, 반도체와 자동차, 조선 산업이 발달하였다.\n서울은 한강을 중심으로 발전한 도시로, 많은 사람들이 살고 있으며 교통과 문화의 중심지이다.\n";
    let initials = [0xA1u8, 0xA4, 0xA7, 0xA9, 0xB1, 0xB2, 0xB5, 0xB7, 0xB8, 0xBA];
    let mut line = b"# ".to_vec();
    for k in 0..40 {
        let initial = initials[k % initials.len()];
        let medial = 0xBF + (k * 7 % 21) as u8;
        let last = if k % 3 == 0 {
            0xD4
        } else {
            initials[(k * 3) % initials.len()]
        };
        line.extend([0xA4, 0xD4, 0xA4, initial, 0xA4, medial, 0xA4, last]);
        if k % 4 == 3 {
            line.push(b' ');
        }
    }
    line.push(b'\n');
    let body = encode(encoding_rs::EUC_KR, korean);
    let cut = body.iter().position(|&b| b == b'\n').unwrap() + 1;
    let mut bytes = body[..cut].to_vec();
    bytes.extend(&line);
    bytes.extend(&body[cut..]);
    let d = u005("ko.txt", &bytes).expect("a U005");
    assert!(d.message.contains("EUC-KR"), "{}", d.message);
    let fix = d.fix.as_ref().expect("a conversion");
    assert_eq!(fix.transcoded_from(), Some("EUC-KR"));
    let converted = utf8lint_diagnostics::apply_fixes(&bytes, [fix]).bytes;
    let want = encoding_rs::EUC_KR.decode_without_bom_handling(&bytes).0;
    assert_eq!(converted, want.as_bytes());
}

/// A windows-1252 symbol whose ISO-8859-15 letter the text's language does
/// not write leaves no doubt: French `¨Symbole` (ISO-8859-15 `šSymbole`) is
/// named windows-1252; Danish `eurotegnet (¤)` (`(€)`) still leaves it open.
#[test]
fn a_latin9_letter_foreign_to_the_language_is_no_rival() {
    let french = "Le café était fermé, alors nous avons marché jusqu'à la brasserie.\nÀ l'été, les élèves préfèrent les crêpes garnies de crème fraîche.\n¨Symbole « %s » est inconnu, dit le garçon près de la fenêtre.\n";
    let d = u005("fr.txt", &encode(encoding_rs::WINDOWS_1252, french)).expect("a U005");
    assert!(d.message.contains("windows-1252"), "{}", d.message);
    assert!(d.fix.is_some());
    let danish = "Prisen er angivet i euro, eurotegnet (¤) står efter beløbet.\nDet kræver både øl og æbler på bordet, sagde han på dansk i går.\nBørnene løb ud i haven, hvor æbletræerne stod i blomst.\n";
    let d = u005(
        "da.txt",
        &encoding_rs::ISO_8859_15
            .encode(danish.replace('¤', "€").as_str())
            .0,
    )
    .expect("a U005");
    assert!(d.fix.is_none(), "{}", d.message);
}

/// Lines of words in an encoding no reading identifies, left to U001 (here
/// among enough UTF-8 text to be UTF-8 with defects): no U+FFFD over them,
/// which would destroy the text, not even over a pair that reads as an
/// overlong form (`\xC0\xB3`, a Big5 letter). A handful of bytes still
/// gets it.
#[test]
fn text_no_reading_identifies_gets_no_fffd() {
    let mut bytes = Vec::new();
    while bytes.len() < 3000 {
        for i in 0..16u8 {
            bytes.extend_from_slice(&[b'w', 0x81 + i, b'a', b' ']);
        }
        bytes.extend_from_slice(b"\xC0\xB3,0.0014\n");
    }
    let errors = bytes.iter().filter(|&&b| b >= 0x80).count();
    for _ in 0..=errors / 8 {
        bytes.extend_from_slice("é ".as_bytes());
    }
    let found = run_as("notes.txt", &bytes);
    let u001: Vec<_> = found
        .iter()
        .filter(|d| d.rule == Rule::InvalidUtf8)
        .collect();
    assert!(!u001.is_empty(), "{found:#?}");
    assert!(u001.iter().all(|d| d.fix.is_none()), "{:#?}", u001[0]);
    assert!(
        u001.iter().any(|d| d.message.starts_with("overlong")),
        "{u001:#?}"
    );
    let handful = run_as("notes.txt", b"abc \xFF def\n");
    assert!(handful.iter().all(|d| d.fix.is_some()));
}
