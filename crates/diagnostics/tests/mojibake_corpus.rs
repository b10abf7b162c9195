//! The generated mojibake corpus: real sentences in twelve
//! languages and scripts passed through every standard mis-decoding chain
//! (the UTF-8 bytes read as windows-1252, ISO-8859-1 or Mac Roman and
//! encoded again, once or twice), checked by U008; the recall per chain and
//! whether each repair gives back exactly the sentence are printed as a
//! table (docs/text-rules.md) and held to floors. The same sentences
//! undamaged, and legitimate text that looks suspicious, give no finding.
//!
//!     cargo test -p utf8lint-diagnostics --test mojibake_corpus -- --nocapture

use std::path::Path;

use utf8lint_diagnostics::{Policy, Rule, apply_fixes, check_keeping};

const SENTENCES: &[(&str, &str)] = &[
    (
        "French",
        "L'été dernier, nous avons mangé des crêpes à Noël chez François.",
    ),
    (
        "German",
        "Die Größe der Brücke überrascht: Äpfel, Öl und Übermut für alle.",
    ),
    (
        "Portuguese",
        "A canção do coração não é só ilusão; São Paulo é uma cidade.",
    ),
    (
        "Vietnamese",
        "Tiếng Việt có nhiều dấu thanh và chữ cái đặc biệt như ơ và ư.",
    ),
    (
        "Polish",
        "Zażółć gęślą jaźń: to zdanie zawiera wszystkie polskie litery.",
    ),
    (
        "Czech",
        "Příliš žluťoučký kůň úpěl ďábelské ódy na náměstí v Brně.",
    ),
    (
        "Turkish",
        "Işık ılık süt içti; ağaçların gölgesinde şarkı söyledi.",
    ),
    (
        "Greek",
        "Η γρήγορη καφέ αλεπού πηδά πάνω από το τεμπέλικο σκυλί.",
    ),
    (
        "Russian",
        "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    ),
    (
        "Japanese",
        "日本語の文章は漢字とひらがなとカタカナで書かれています。",
    ),
    (
        "emoji",
        "Good morning 😀 see you at the café 🎉 and bring 🍕 please",
    ),
    (
        "punctuation",
        "He said “it’s done” — twice… and paid €5 for the ™ sign.",
    ),
];

/// Text that looks like damage and is not: no finding expected.
const LEGITIMATE: &[&str] = &[
    "SÃO PAULO É A MAIOR CIDADE DO BRASIL",
    "Vietnamese: Ã ã Ẫ ẫ and MÃ SỐ THUẾ",
    "In maths 2√π ≈ 3.5449 and x √π r, with ∆x ≤ ε.",
    "«CAFÉ» «ÉCOLE» “RÉSUMÉ” CAFÉ’s",
    "Ångström, ÆØÅ, Ñandú, Ölçü, Äußerung, naïve, façade",
    "a table of repairs: \"Ã©\" => \"é\", \"â€™\" => \"’\"",
    "—élan «élan» –à",
];

#[derive(Clone, Copy, Debug)]
enum Chain {
    Windows1252,
    Latin1,
    MacRoman,
}

/// The text that `bytes` reads as in `chain` (windows-1252's five
/// undefined bytes as the C1 control of the same value, as "sloppy"
/// decoders and ftfy have it).
fn read_as(bytes: &[u8], chain: Chain) -> String {
    match chain {
        Chain::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
        Chain::Windows1252 => bytes
            .iter()
            .map(|&b| {
                let one = [b];
                let (text, errors) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&one);
                if errors {
                    char::from(b)
                } else {
                    text.chars().next().unwrap()
                }
            })
            .collect(),
        Chain::MacRoman => encoding_rs::MACINTOSH
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

fn damage(text: &str, chain: Chain, layers: usize) -> String {
    let mut out = text.to_owned();
    for _ in 0..layers {
        out = read_as(out.as_bytes(), chain);
    }
    out
}

fn u008(bytes: &[u8]) -> Vec<utf8lint_diagnostics::Diagnostic> {
    let mut policy = Policy::default();
    policy
        .levels
        .set(Rule::Mojibake, utf8lint_diagnostics::Level::Warn);
    check_keeping(
        bytes,
        Path::new("a.txt"),
        &policy,
        utf8lint_diagnostics::Keep::Every,
    )
    .into_iter()
    .filter(|d| d.rule == Rule::Mojibake)
    .collect()
}

#[derive(Default)]
struct Row {
    sentences: usize,
    found: usize,
    exact: usize,
}

#[test]
fn the_mojibake_table() {
    let chains = [
        ("windows-1252", Chain::Windows1252, 1),
        ("windows-1252 twice", Chain::Windows1252, 2),
        ("ISO-8859-1", Chain::Latin1, 1),
        ("ISO-8859-1 twice", Chain::Latin1, 2),
        ("Mac Roman", Chain::MacRoman, 1),
    ];
    println!("| chain | sentences | found | repaired exactly | not found |");
    println!("|---|---|---|---|---|");
    let mut rows = Vec::new();
    for (label, chain, layers) in chains {
        let mut row = Row::default();
        let mut missed = Vec::new();
        for (language, sentence) in SENTENCES {
            let damaged = damage(sentence, chain, layers);
            let line = format!("{damaged}\n");
            row.sentences += 1;
            let ds = u008(line.as_bytes());
            if ds.is_empty() {
                missed.push(*language);
                continue;
            }
            row.found += 1;
            let fixed = apply_fixes(line.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref()));
            if fixed.bytes == format!("{sentence}\n").as_bytes() {
                row.exact += 1;
            } else {
                missed.push(*language);
                println!(
                    "  {label}, {language}: repaired to {:?}",
                    String::from_utf8_lossy(&fixed.bytes).trim_end()
                );
            }
        }
        println!(
            "| {label} | {} | {} | {} | {} |",
            row.sentences,
            row.found,
            row.exact,
            missed.join(", ")
        );
        rows.push((label, row));
    }
    // The floors measured when the table was written (docs/text-rules.md).
    for (label, floor) in [
        ("windows-1252", 12),
        ("windows-1252 twice", 12),
        ("ISO-8859-1", 12),
        ("ISO-8859-1 twice", 12),
        ("Mac Roman", 4),
    ] {
        let row = &rows.iter().find(|(l, _)| *l == label).unwrap().1;
        assert!(
            row.exact >= floor,
            "{label}: {} of {} repaired exactly",
            row.exact,
            row.sentences
        );
    }
}

#[test]
fn clean_and_legitimate_text_gives_no_finding() {
    for text in SENTENCES
        .iter()
        .map(|(_, s)| *s)
        .chain(LEGITIMATE.iter().copied())
    {
        let ds = u008(format!("{text}\n").as_bytes());
        assert!(
            ds.is_empty(),
            "{text}: {:#?}",
            ds.first().map(|d| &d.message)
        );
    }
}

/// The seeds' first document begins with a damaged signature (`è©¿`).
#[test]
fn the_seeds_damaged_signature_is_found() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/seeds/001_199a25b13c7d7653.txt");
    let Ok(bytes) = std::fs::read(&path) else {
        println!("SKIPPED: no seeds at {}", path.display());
        return;
    };
    let ds = u008(&bytes);
    assert!(
        ds.first()
            .is_some_and(|d| d.span.start == 0 && d.message.contains("è©¿")),
        "{ds:#?}"
    );
}
