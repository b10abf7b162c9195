//! No conversion outside the claimed families: text in an encoding U005
//! does not name, whose bytes a claimed neighbour reads as other letters in
//! words, is not identified and gets no conversion (Romanian ISO-8859-16
//! against windows-1250, Tajik KOI8-T against KOI8-U, Ukrainian CP1125
//! against IBM866, French and German Mac Roman against windows-1252 and
//! windows-1250). Text of the claimed encoding itself, whose bytes the
//! neighbour cannot read as text or reads alike, keeps its verdict and
//! its exact conversion.
//!
//! The KOI8-T and CP1125 files are written by Python's `koi8_t` and
//! `cp1125` codecs (encoding_rs has neither); the others by encoding_rs.

use std::path::Path;

use encoding_rs::Encoding;
use utf8lint_diagnostics::{CheckOptions, Diagnostic, Policy, Rule, apply_fixes, check};

/// Tajik in KOI8-T, few Tajik letters (`ҷ`, `ҳ`), which KOI8-U reads as box drawing.
const TAJIK_KOI8_T: &[u8] = b"\xE4\xD5\xDB\xC1\xCE\xC2\xC5 \xD0\xCF\xCA\xD4\xC1\xC8\xD4\xC9 \xF4\xCF\x8D\xC9\xCB\xC9\xD3\xD4\xCF\xCE \xC1\xD3\xD4.\n\xE4\xC1\xD2 \xCF\xCE \xCD\xC1\xCB\xD4\xC1\xC2\xD5 \xC4\xCF\xCE\xC9\xDB\xC7\xCF\x8A \xC6\xC1\xDF\xCF\xCC\xC9\xD1\xD4 \xCD\xC5\xCB\xD5\xCE\xC1\xCE\xC4 \xD7\xC1 \xC2\xC9\xD3\xA3\xD2 \xCF\xC4\xC1\xCD\xCF\xCE \xCB\xCF\xD2 \xCD\xC5\xCB\xD5\xCE\xC1\xCE\xC4.\n\xED\xC1\xD2\xC4\xD5\xCD\xC9 \xDB\xC1\x8A\xD2 \xCD\xC5\x8A\xCD\xCF\xCE\xCE\xC1\xD7\xCF\xDA \xCD\xC5\xC2\xCF\xDB\xC1\xCE\xC4, \xC2\xCF\xDA\xCF\xD2\x8A\xCF \xD0\xD5\xD2 \xC1\xDA \xCD\xC5\xD7\xC1 \xD7\xC1 \xD3\xC1\xC2\xDA\xC1\xD7\xCF\xD4.\n";

/// Tajik in KOI8-T, one paragraph.
const TAJIK_KOI8_T_PARAGRAPH: &[u8] = b"\xE4\xD5\xDB\xC1\xCE\xC2\xC5 \xD0\xCF\xCA\xD4\xC1\xC8\xD4\xC9 \xF4\xCF\x8D\xC9\xCB\xC9\xD3\xD4\xCF\xCE \xC1\xD3\xD4. \xE4\xC1\xD2 \xCF\xCE \xCD\xC1\xCB\xD4\xC1\xC2\xD5 \xC4\xCF\xCE\xC9\xDB\xC7\xCF\x8A \xC6\xC1\xDF\xCF\xCC\xC9\xD1\xD4 \xCD\xC5\xCB\xD5\xCE\xC1\xCE\xC4 \xD7\xC1 \xC2\xC9\xD3\xA3\xD2 \xCF\xC4\xC1\xCD\xCF\xCE \xCB\xCF\xD2 \xCD\xC5\xCB\xD5\xCE\xC1\xCE\xC4. \xE4\xC1\xD2 \xDB\xC1\x8A\xD2 \xC2\xCF\x81, \xD4\xC5\xC1\xD4\xD2, \xCD\xD5\xDA\xC5\xCA \xD7\xC1 \xCB\xC9\xD4\xCF\xC2\xC8\xCF\xCE\xC1\xC9 \xCD\xC9\xCC\xCC\xA5 \xCD\xC1\xD7\x8D\xD5\xC4\xC1\xCE\xC4. \xED\xC1\xD2\xC4\xD5\xCD\xC9 \xD0\xCF\xCA\xD4\xC1\xC8\xD4 \xCD\xC5\x8A\xCD\xCF\xCE\xCE\xC1\xD7\xCF\xDA \xCD\xC5\xC2\xCF\xDB\xC1\xCE\xC4.\n";

/// Ukrainian in CP1125, whose `і ї є ґ` IBM866 reads as `ў ∙ ї є`.
const UKRAINIAN_CP1125: &[u8] = b"\x93\xAA\xE0\xA0\xF9\xAD\xA0 - \xE6\xA5 \xA4\xA5\xE0\xA6\xA0\xA2\xA0 \xE3 \x91\xE5\xF7\xA4\xAD\xF7\xA9 \xF4\xA2\xE0\xAE\xAF\xF7. \xF8\xF9 \xE1\xE2\xAE\xAB\xA8\xE6\xEF - \xAC\xF7\xE1\xE2\xAE \x8A\xA8\xF9\xA2, \xA4\xA5 \xA6\xA8\xA2\xE3\xE2\xEC \xAC\xF7\xAB\xEC\xA9\xAE\xAD\xA8 \xAB\xEE\xA4\xA5\xA9.\n\xF2\xA0\xAD\xAE\xAA \xE1\xE2\xA0\xE0\xAE\xF9 \xE5\xA0\xE2\xA8, \xF9\xA6\xA0\xAA \xF7 \xEF\xA1\xAB\xE3\xAA\xAE; \xE3\xAA\xE0\xA0\xF9\xAD\xE1\xEC\xAA\xA0 \xAC\xAE\xA2\xA0 \xAC\xA0\xF5 \xAB\xF7\xE2\xA5\xE0\xA8 \xF5, \xF7, \xF9 \xE2\xA0 \xF3, \xEF\xAA\xA8\xE5 \xAD\xA5\xAC\xA0\xF5 \xA2 \xF7\xAD\xE8\xA8\xE5 \xAC\xAE\xA2\xA0\xE5.\n";

/// Russian in IBM866 with a degree sign (CP1125 `Ї` after a digit: no letter in a word).
const RUSSIAN_IBM866: &[u8] = b"\x82\xE7\xA5\xE0\xA0 \xA2\xA5\xE7\xA5\xE0\xAE\xAC \xA1\xEB\xAB\xAE \xE5\xAE\xAB\xAE\xA4\xAD\xAE: \xA2\xE1\xA5\xA3\xAE 5\xF8C, \xA8 \xAC\xEB \xA4\xAE\xAB\xA3\xAE \xA3\xE3\xAB\xEF\xAB\xA8 \xAF\xAE \xAD\xA0\xA1\xA5\xE0\xA5\xA6\xAD\xAE\xA9.\n\x81\xA8\xA1\xAB\xA8\xAE\xE2\xA5\xAA\xA0 \xAE\xE2\xAA\xE0\xEB\xE2\xA0 \xE1 \xA4\xA5\xA2\xEF\xE2\xA8 \xE3\xE2\xE0\xA0 \xA4\xAE \xE8\xA5\xE1\xE2\xA8 \xA2\xA5\xE7\xA5\xE0\xA0, \xAA\xE0\xAE\xAC\xA5 \xA2\xAE\xE1\xAA\xE0\xA5\xE1\xA5\xAD\xEC\xEF.\n\x91\xEA\xA5\xE8\xEC \xA6\xA5 \xA5\xE9\xF1 \xED\xE2\xA8\xE5 \xAC\xEF\xA3\xAA\xA8\xE5 \xE4\xE0\xA0\xAD\xE6\xE3\xA7\xE1\xAA\xA8\xE5 \xA1\xE3\xAB\xAE\xAA, \xA4\xA0 \xA2\xEB\xAF\xA5\xA9 \xE7\xA0\xEE.\n";

const ROMANIAN: &str = "Știința și tehnologia sunt în continuă dezvoltare în România. Țara noastră are școli bune, iar învățământul românesc își păstrează tradițiile.\nAșa cum spunea profesorul, fiecare țăran știe să lucreze pământul, să îngrijească vița și să vândă brânza la târg.\n";
const FRENCH: &str = "Le café était fermé, alors nous avons marché jusqu'à la brasserie où l'on sert des crêpes.\nÀ l'été, la forêt est très belle; les élèves préfèrent la côte où ils se baignent à côté du phare.\n";
const GERMAN: &str = "Müller aß große Äpfel für die Kinder in Köln, schön und süß.\nDie Straße führt über die Brücke zum Schloß, wo die Bürger früher Bier tranken und Lieder sangen.\n";
/// German with only `ö`, which Mac Roman writes `9A`: windows-1250 `š`.
const GERMAN_FEW: &str = "Die Kinder spielen im Garten und die Eltern trinken Kaffee. Das Wetter ist schön.\nMorgen fahren wir nach Köln, um das Museum zu besuchen und danach ins Kino zu gehen.\n";

fn findings(bytes: &[u8]) -> Vec<Diagnostic> {
    check(
        bytes,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    )
}

fn encoded(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{}", encoding.name());
    bytes.into_owned()
}

/// Asserts that nothing converts `bytes`, and, when U005 reports the file,
/// that it names `neighbour` as the reading the text does not rule out.
fn not_converted(what: &str, bytes: &[u8], neighbour: &str) {
    let found = findings(bytes);
    for d in &found {
        let transcoding = d.fix.as_ref().and_then(|f| f.transcoded_from());
        assert_eq!(transcoding, None, "{what}: converted from {transcoding:?}");
    }
    if let Some(d) = found.iter().find(|d| d.rule == Rule::NotUtf8) {
        assert!(
            d.message.contains("does not identify"),
            "{what}: {}",
            d.message
        );
        assert!(
            d.notes.iter().any(|n| n.contains(neighbour)),
            "{what}: {:?}",
            d.notes
        );
    }
}

/// Asserts that U005 names `encoding` and converts `bytes` back to `text`.
fn converted_exactly(what: &str, bytes: &[u8], text: &str, encoding: &'static Encoding) {
    let found = findings(bytes);
    let d = found
        .iter()
        .find(|d| d.rule == Rule::NotUtf8)
        .unwrap_or_else(|| panic!("{what}: no U005 in {found:#?}"));
    let fix = d.fix.as_ref().unwrap_or_else(|| panic!("{what}: {d:#?}"));
    assert_eq!(fix.transcoded_from(), Some(encoding.name()), "{what}");
    assert_eq!(apply_fixes(bytes, [fix]).bytes, text.as_bytes(), "{what}");
}

#[test]
fn romanian_in_iso_8859_16_is_not_converted_as_windows_1250() {
    let bytes = encoded(ROMANIAN, encoding_rs::ISO_8859_16);
    not_converted("Romanian ISO-8859-16", &bytes, "ISO-8859-16");
    // Found as legacy text, not left to U001.
    assert!(findings(&bytes).iter().any(|d| d.rule == Rule::NotUtf8));
}

#[test]
fn romanian_in_windows_1250_with_its_quotes_is_still_named() {
    // `„` and `”` are `84` and `94` in windows-1250, C1 controls in
    // ISO-8859-16: no ISO-8859-16 text has them.
    // windows-1250 writes `ş ţ` with a cedilla.
    let cedilla: String = ROMANIAN
        .chars()
        .map(|c| match c {
            'ș' => 'ş',
            'ț' => 'ţ',
            'Ș' => 'Ş',
            'Ț' => 'Ţ',
            c => c,
        })
        .collect();
    let text = format!("Profesorul a spus: „{cedilla}”\n");
    let bytes = encoded(&text, encoding_rs::WINDOWS_1250);
    converted_exactly(
        "Romanian windows-1250",
        &bytes,
        &text,
        encoding_rs::WINDOWS_1250,
    );
}

#[test]
fn tajik_in_koi8_t_is_not_converted_as_koi8_u() {
    for (what, bytes) in [
        ("Tajik KOI8-T", TAJIK_KOI8_T),
        ("Tajik KOI8-T paragraph", TAJIK_KOI8_T_PARAGRAPH),
    ] {
        not_converted(what, bytes, "KOI8-T");
        assert!(findings(bytes).iter().any(|d| d.rule == Rule::NotUtf8));
    }
}

#[test]
fn ukrainian_in_cp1125_is_not_converted_as_ibm866() {
    not_converted("Ukrainian CP1125", UKRAINIAN_CP1125, "CP1125");
    assert!(
        findings(UKRAINIAN_CP1125)
            .iter()
            .any(|d| d.rule == Rule::NotUtf8)
    );
}

#[test]
fn russian_in_ibm866_with_a_degree_sign_is_still_named() {
    let text = encoding_rs::IBM866.decode(RUSSIAN_IBM866).0.into_owned();
    assert!(text.contains("5°C"));
    converted_exactly("Russian IBM866", RUSSIAN_IBM866, &text, encoding_rs::IBM866);
}

#[test]
fn mac_roman_is_not_converted_as_a_windows_code_page() {
    for (what, text) in [
        ("French Mac Roman", FRENCH),
        ("German Mac Roman", GERMAN),
        ("German Mac Roman, few letters", GERMAN_FEW),
    ] {
        not_converted(what, &encoded(text, encoding_rs::MACINTOSH), "Mac Roman");
    }
}

#[test]
fn the_same_texts_in_windows_1252_are_still_named() {
    for (what, text) in [
        ("French", FRENCH),
        ("German", GERMAN),
        ("German, few letters", GERMAN_FEW),
    ] {
        let bytes = encoded(text, encoding_rs::WINDOWS_1252);
        converted_exactly(what, &bytes, text, encoding_rs::WINDOWS_1252);
    }
}

/// Three bytes of French: Mac Roman reads `L’œuf` as `Líúuf`, Catalan
/// letters, but `ingrédient` as `ingrÈdient`, a capital inside a word.
#[test]
fn a_short_windows_1252_text_is_still_named() {
    let text = "L’œuf de volaille est un produit agricole servant d'ingrédient entrant dans la\ncomposition de nombreux plats, dans de nombreuses cultures gastronomiques du\nmonde.\n";
    let bytes = encoded(text, encoding_rs::WINDOWS_1252);
    converted_exactly(
        "French windows-1252",
        &bytes,
        text,
        encoding_rs::WINDOWS_1252,
    );
}
