//! U016's recall on look-alike programs generated from UTS #39's
//! confusables (through the `unicode-security` crate's skeleton): every
//! letter whose skeleton is that of an ASCII letter, and that is of another
//! script or restricted in identifiers (an allowed Latin letter such as the
//! Turkish `ı` disguises nothing UTS #39 names), planted in an identifier
//! in six languages, beside legitimate mixed-script code (Russian
//! comments, Greek and Arabic strings, `{{ip_адрес}}`, `TNFα`) and, on a
//! third of the lines, a comment in three other scripts. The table in
//! docs/text-rules.md is this test's output (`--nocapture`).

use std::collections::BTreeMap;
use std::path::Path;

use unicode_security::{GeneralSecurityProfile, skeleton};
use utf8lint_diagnostics::{CheckOptions, Policy, Rule, check};

/// Code points whose skeleton is an ASCII letter's, with that letter.
fn look_alikes() -> Vec<(char, char)> {
    let mut targets: BTreeMap<String, char> = BTreeMap::new();
    for a in ('a'..='z').chain('A'..='Z') {
        targets
            .entry(skeleton(&a.to_string()).collect())
            .or_insert(a);
    }
    (0x80..0x11_0000u32)
        .filter_map(char::from_u32)
        .filter(|c| c.is_alphabetic())
        .filter_map(|c| {
            let shape: String = skeleton(&c.to_string()).collect();
            targets.get(&shape).map(|&a| (c, a))
        })
        .collect()
}

/// Whether `c` is of Latin alone and allowed in identifiers.
fn allowed_latin(c: char) -> bool {
    use unicode_security::mixed_script::AugmentedScriptSet;
    let set = AugmentedScriptSet::for_char(c).base;
    c.identifier_allowed() && set.len() == 1 && set.iter().any(|s| s.full_name() == "Latin")
}

/// An identifier holding `letter` (in its case).
fn identifier(letter: char) -> String {
    const WORDS: [&str; 22] = [
        "admin",
        "password",
        "delete",
        "user",
        "account",
        "token",
        "secret",
        "value",
        "config",
        "request",
        "buffer",
        "handle",
        "permission",
        "query",
        "verify",
        "check",
        "jump",
        "exit",
        "box",
        "wizard",
        "key",
        "index",
    ];
    let lower = letter.to_ascii_lowercase();
    let word = WORDS
        .iter()
        .find(|w| w.contains(lower))
        .expect("every letter is in a word");
    if letter.is_ascii_uppercase() {
        let k = word.find(lower).unwrap_or(0);
        format!("is{}{}{}", &word[..k], letter, &word[k + 1..])
    } else {
        format!("get_{word}")
    }
}

/// The block a look-alike comes from, for the table.
fn block(c: char) -> &'static str {
    match u32::from(c) {
        0x100..=0x24F => "Latin Extended, IPA",
        0x370..=0x3FF => "Greek",
        0x400..=0x52F => "Cyrillic",
        0x530..=0x58F => "Armenian",
        0x590..=0x5FF => "Hebrew",
        0x600..=0x6FF => "Arabic",
        0x7C0..=0x7FF => "NKo",
        0x800..=0xDFF => "Mandaic, Indic",
        0x1000..=0x10FF => "Myanmar, Georgian",
        0x13A0..=0x13FF => "Cherokee",
        0x1400..=0x167F => "Canadian syllabics",
        0x1680..=0x1CFF => "Runic, Ol Chiki, other",
        0x1D00..=0x1DBF => "Phonetic extensions",
        0x1E00..=0x1FFF => "Latin Extended Additional, Greek Extended",
        0x2100..=0x218F => "Letterlike symbols, Roman numerals",
        0x2C00..=0x2DFF => "Coptic, Tifinagh",
        0x3000..=0x9FFF => "Hangul, Bopomofo, CJK",
        0xA4D0..=0xA4FF => "Lisu",
        0xA500..=0xABFF => "Vai, Latin Extended-D, Cherokee Supplement",
        0xFB00..=0xFEFF => "Arabic presentation forms",
        0xFF00..=0xFFEF => "Fullwidth and halfwidth forms",
        0x1D400..=0x1D7FF => "Mathematical alphanumerics",
        _ => "Historic scripts (Old Italic, Deseret, Carian, ...)",
    }
}

/// The languages: a line declaring the identifier, and two lines of
/// legitimate mixed-script code beside it.
const LANGUAGES: [(&str, &str, [&str; 2]); 6] = [
    (
        "a.py",
        "def {}():",
        [
            "# Проверка: {{ip_адрес}} и {{user_имя}}",
            "print(\"Γειά σου, TNFα, IFNγ\")",
        ],
    ),
    (
        "a.js",
        "const {} = () => 1;",
        [
            "// данные — ρ_air NFκB",
            "const m = \"日本語のテキスト ＰＤＦ\";",
        ],
    ),
    (
        "a.rs",
        "fn {}() {{}}",
        [
            "let данные = load(); // Ελληνικά",
            "let s = \"مرحبا بالعالم\";",
        ],
    ),
    (
        "a.go",
        "func {}() {{}}",
        ["// Проверка: «пароль» и αβγ", "var s = \"שלום עולם\""],
    ),
    (
        "a.c",
        "int {}(void);",
        [
            "/* Значение по умолчанию, 5 μs */",
            "const char *m = \"Привет, мир\";",
        ],
    ),
    (
        "a.java",
        "String {} = \"x\";",
        ["// Ошибка: файл не найден", "String m = \"Բարեւ աշխարհ\";"],
    ),
];

#[test]
fn look_alikes_of_every_block_are_found_beside_legitimate_mixed_script_code() {
    let planted: Vec<(char, char)> = look_alikes()
        .into_iter()
        .filter(|&(c, _)| !allowed_latin(c))
        .collect();
    assert!(planted.len() > 1_200, "{}", planted.len());
    let policy = Policy::default();
    // Per block: look-alikes planted, found.
    let mut table: BTreeMap<&str, [usize; 2]> = BTreeMap::new();
    let mut false_positives = Vec::new();
    for (name, template, legit) in LANGUAGES {
        // One file per look-alike: the line's finding is the only one.
        for (k, &(c, letter)) in planted.iter().enumerate() {
            let word = identifier(letter).replacen(letter, &c.to_string(), 1);
            let mut line = template.replace("{}", &word).replace("{{}}", "{}");
            if k % 3 == 0 {
                line.push_str(" // ελληνικά русский עברית 日本");
            }
            let text = format!("{}\n{}\n{line}\n", legit[0], legit[1]);
            let mut on_line = false;
            for d in check(text.as_bytes(), CheckOptions::new(Path::new(name), &policy)) {
                if d.rule != Rule::MixedScriptConfusable {
                    continue;
                }
                let row = text[..d.span.start].matches('\n').count();
                if row == 2 {
                    on_line = true;
                } else {
                    false_positives.push(format!("{name}: {}", d.message));
                }
            }
            let entry = table.entry(block(c)).or_default();
            entry[0] += 1;
            entry[1] += usize::from(on_line);
        }
    }
    println!("| block | planted | found |\n|---|---:|---:|");
    let (mut all, mut found) = (0, 0);
    for (block, [n, f]) in &table {
        println!(
            "| {block} | {n} | {f} ({:.0}%) |",
            100.0 * *f as f64 / *n as f64
        );
        all += n;
        found += f;
    }
    println!(
        "| all | {all} | {found} ({:.1}%) |",
        100.0 * found as f64 / all as f64
    );
    assert!(false_positives.is_empty(), "{false_positives:?}");
    assert!(found * 100 >= all * 95, "{found} of {all}");
    // Every block U016 searches is found whole but for the Khoisan click
    // letters (meant) and the one letter of Latin Extended Additional.
    for (block, [n, f]) in &table {
        if !matches!(
            *block,
            "Mandaic, Indic"
                | "Hangul, Bopomofo, CJK"
                | "Latin Extended, IPA"
                | "Latin Extended Additional, Greek Extended"
        ) {
            assert_eq!(n, f, "{block}");
        }
    }
}
