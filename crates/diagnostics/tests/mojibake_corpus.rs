//! The generated mojibake corpus: real sentences in sixteen
//! languages and scripts passed through every standard mis-decoding chain
//! (the UTF-8 bytes read as windows-1252, ISO-8859-1 or Mac Roman and
//! encoded again, once or twice), checked by U008; the recall per chain and
//! whether each repair gives back exactly the sentence are printed as a
//! table (docs/text-rules.md) and held to floors. The same sentences
//! undamaged, and legitimate text that looks suspicious, give no finding.
//!
//!     cargo test -p utf8lint-diagnostics --test mojibake_corpus -- --nocapture

use std::path::Path;

mod damage;

use damage::{Chain, damage};
use utf8lint_diagnostics::{CheckOptions, Policy, Rule, apply_fixes, check};

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
        "Latvian",
        "Glāžšķūņu rūķīši dzērumā čiepj Baha koncertflīģeļu vākus.",
    ),
    ("Hebrew", "דג סקרן שט בים מאוכזב ולפתע מצא חברה נאה."),
    (
        "Arabic",
        "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر.",
    ),
    (
        "Hindi",
        "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले।",
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

/// Text that looks like damage and is not: no finding expected. Each
/// holds a pair that one of the chains decodes (`Å—` is `ŗ`, `×£` is
/// `ף`), in text where the pair is what was meant.
const LEGITIMATE: &[&str] = &[
    "∆° is the change of angle",
    "Ele disse: pra lá´´ e voltou.",
    "Offering 5×£35 for the lot",
    "the novels of Charlotte Brontë…” she wrote",
    "a radius of 10 Å— about the size of an atom",
    "IL Y MARQUÉ… ET PUIS RIEN",
    "IL Y MARQUÉ— ET APRÈS?",
    "«CAFÉ» à LA CRÈME — ÉTÉ…",
    "NAÏVE… CAFÉ” DÉJÀ»",
    "Η λέξη ¨λόγος¨ έχει πολλές σημασίες",
    "Không có gì quý hơn độc lập tự do: Việt Nam ơi!",
    "∑ aᵢ ≤ ∏ bᵢ, ∂f/∂x ≈ 0, and ∆t ≥ 5µs",
    "Mac Roman signs: ¬ √ ƒ ≈ ∆ « » … ÷ ◊ ‹ › ﬁ ﬂ ‡ · ‚ „ ‰",
    "¿Qué? ¡Olé! Ñoño, año, niño",
    "Prices: £5, €7, ¥300, ¢50, 3×£2 and ±5%",
    "Ölçü Ähnlichkeit Übermaß, ÆØÅ æøå, Œuvre œil",
    "Straße Größe Maß Fuß – »Anführung« ›halb‹",
    "O’Brien’s café, naïve résumé, coördinate",
    "ÀÁÂÃÄÅ ÈÉÊË ÌÍÎÏ ÒÓÔÕÖ ÙÚÛÜ Ý",
    "m² and km³, ½ cup, 90° turn, nº 5, 1ª vez",
    "Microsoft® Windows™ and © 2024",
    "Dvořák, Łódź, Ōsaka, Ĳsselmeer, Ħamrun",
    "SÃO PAULO É A MAIOR CIDADE DO BRASIL",
    "Vietnamese: Ã ã Ẫ ẫ and MÃ SỐ THUẾ",
    "In maths 2√π ≈ 3.5449 and x √π r, with ∆x ≤ ε.",
    "«CAFÉ» «ÉCOLE» “RÉSUMÉ” CAFÉ’s",
    "Ångström, ÆØÅ, Ñandú, Ölçü, Äußerung, naïve, façade",
    "a table of repairs: \"Ã©\" => \"é\", \"â€™\" => \"’\"",
    "—élan «élan» –à",
];

fn u008(bytes: &[u8]) -> Vec<utf8lint_diagnostics::Diagnostic> {
    u008_in(bytes, "a.txt")
}

fn u008_in(bytes: &[u8], path: &str) -> Vec<utf8lint_diagnostics::Diagnostic> {
    let mut policy = Policy::default();
    policy
        .levels
        .set(Rule::Mojibake, utf8lint_diagnostics::Level::Warn);
    check(
        bytes,
        CheckOptions::new(Path::new(path), &policy).keeping(utf8lint_diagnostics::Keep::Every),
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
        ("Mac Roman twice", Chain::MacRoman, 2),
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
    // Every sentence of every chain, repaired exactly in one run.
    for (label, floor) in [
        ("windows-1252", SENTENCES.len()),
        ("windows-1252 twice", SENTENCES.len()),
        ("ISO-8859-1", SENTENCES.len()),
        ("ISO-8859-1 twice", SENTENCES.len()),
        ("Mac Roman", SENTENCES.len()),
        ("Mac Roman twice", SENTENCES.len()),
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
    let texts = SENTENCES.len() + LEGITIMATE.len();
    println!("U008 false positives: 0 of {texts} clean texts (or the test fails)");
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

/// `\u{A0}` escapes of the explanation's table, as characters.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').map(|e| at + e).unwrap();
        let value = u32::from_str_radix(&rest[at + 3..end], 16).unwrap();
        out.push(char::from_u32(value).unwrap());
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The code follows its page: every line `explain U008` says is never
/// flagged gives no finding, and every row of its table of damage is
/// found and repaired exactly in one fix run.
#[test]
fn the_explanation_holds() {
    let page = Rule::Mojibake.explanation();
    let block = page
        .split("never flagged")
        .nth(1)
        .and_then(|rest| rest.split("```text\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("the page lists what is never flagged");
    let mut lines = 0;
    for line in block.lines() {
        let ds = u008(format!("{line}\n").as_bytes());
        assert!(
            ds.is_empty(),
            "{line}: {:?}",
            ds.first().map(|d| &d.message)
        );
        lines += 1;
    }
    assert!(lines >= 10, "{lines} lines never flagged");
    let mut rows = 0;
    for row in page.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let (damaged, original) = (cells[0].trim_start_matches("| "), cells[1]);
        if !original.starts_with('`') {
            continue;
        }
        let damaged = unescape(damaged.trim_matches('`'));
        let original = unescape(original.trim_matches('`'));
        let line = format!("{damaged}\n");
        let ds = u008(line.as_bytes());
        let fixed = apply_fixes(line.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref()));
        assert_eq!(
            String::from_utf8_lossy(&fixed.bytes),
            format!("{original}\n"),
            "{damaged}"
        );
        rows += 1;
    }
    assert!(rows >= 7, "{rows} rows of damage");
}

const LONE: &str = include_str!("fixtures/lone_mojibake.tsv");

/// A fixture line with its `[[...]]` parts damaged through `chain`
/// `layers` times, and the line as it was.
fn damaged_line(line: &str, chain: Chain, layers: usize) -> (String, String) {
    let (mut damaged, mut clean) = (String::new(), String::new());
    let mut rest = line;
    while let Some(at) = rest.find("[[") {
        let end = rest[at..]
            .find("]]")
            .map(|e| at + e)
            .expect("a closed [[...]]");
        let part = &rest[at + 2..end];
        damaged.push_str(&rest[..at]);
        clean.push_str(&rest[..at]);
        damaged.push_str(&damage(part, chain, layers));
        clean.push_str(part);
        rest = &rest[end + 2..];
    }
    damaged.push_str(rest);
    clean.push_str(rest);
    (damaged, clean)
}

/// Lone runs, each the only damage on its line, in the shapes real
/// mojibake-fix commits show: found and repaired exactly in one fix run
/// (all of them), and the same lines undamaged give no finding.
#[test]
fn lone_runs_are_found_by_their_own_evidence() {
    let (mut lines, mut found, mut exact) = (0, 0, 0);
    let mut missed = Vec::new();
    for row in LONE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (chain, line) = row.split_once('\t').expect("chain<TAB>line");
        let (name, layers) = match chain.strip_suffix(" twice") {
            Some(name) => (name, 2),
            None => (chain, 1),
        };
        let chain = Chain::named(name).expect("a chain's name");
        let (damaged, clean) = damaged_line(line, chain, layers);
        let (damaged, clean) = (format!("{damaged}\n"), format!("{clean}\n"));
        lines += 1;
        assert!(u008(clean.as_bytes()).is_empty(), "clean: {clean:?}");
        let ds = u008(damaged.as_bytes());
        if ds.is_empty() {
            missed.push(format!("not found: {damaged:?}"));
            continue;
        }
        found += 1;
        let fixed = apply_fixes(damaged.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref()));
        if fixed.bytes == clean.as_bytes() {
            exact += 1;
        } else {
            missed.push(format!(
                "{damaged:?} repaired to {:?}",
                String::from_utf8_lossy(&fixed.bytes)
            ));
        }
    }
    println!(
        "| lone runs | found | repaired exactly |\n|---|---|---|\n| {lines} | {found} | {exact} |"
    );
    for line in &missed {
        println!("  {line}");
    }
    // One is left on purpose: `Parse → validate â†’ render` holds its own
    // repair as text, which reads as a table of repairs.
    assert!(exact + 1 >= lines, "{missed:#?}");
}

/// Mojibake quoted on purpose in documentation (inline code, a fenced
/// block, a quotation of the damage alone) is not reported; the same
/// damage in the file's prose, or in a file that is no documentation, is.
#[test]
fn quoted_mojibake_in_documentation_is_not_reported() {
    let changelog = "## 1.2.0\n\n- Titles no longer show `Ã©` for `é`.\n- Quotes showed \"â€™\" instead of ’.\n\n```text\ncafÃ© au lait\n```\n\nThanks to JosÃ© for the report.\n";
    for path in ["CHANGELOG.md", "NEWS", "docs/encoding.rst"] {
        let ds = u008_in(changelog.as_bytes(), path);
        let runs: Vec<&str> = ds.iter().map(|d| &changelog[d.span.clone()]).collect();
        assert_eq!(runs, ["Ã©"], "{path}: only the prose's run");
        assert!(changelog[..ds[0].span.start].ends_with("Jos"), "{path}");
    }
    // Elsewhere the fenced run and the prose's are reported (the first two
    // lines hold their own repairs, a table of repairs, as anywhere).
    assert_eq!(u008_in(changelog.as_bytes(), "src/lib.rs").len(), 2);
}

/// A line whose damage is partly lost (windows-1252's five undefined
/// bytes written as `?` or as U+FFFD) is settled by one fix run: every run
/// repaired, every lost character U+FFFD, nothing of the damage left for
/// a second run, in every sentence of a script with no Latin-1 letters.
/// Where the bytes were dropped the table counts, with no floor.
#[test]
fn lines_with_lost_bytes_are_settled_in_one_run() {
    let scripts = ["Greek", "Russian", "Japanese", "Hebrew", "Arabic", "Hindi"];
    println!("| loss | sentences | settled in one run |\n|---|---|---|");
    for (loss, with) in [("?", "?"), ("U+FFFD", "\u{FFFD}"), ("dropped", "")] {
        let mut settled = 0;
        for (language, sentence) in SENTENCES.iter().filter(|(l, _)| scripts.contains(l)) {
            let damaged: String = damage(sentence, Chain::Windows1252, 1)
                .chars()
                .map(|c| match c {
                    '\u{80}'..='\u{9F}' => with.to_owned(),
                    c => c.to_string(),
                })
                .collect();
            let line = format!("{damaged}\n");
            let ds = u008(line.as_bytes());
            let fixed = apply_fixes(line.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref()));
            let text = String::from_utf8_lossy(&fixed.bytes).into_owned();
            let left = u008(text.as_bytes());
            // What the damage is made of: windows-1252's characters.
            let damage_left = text.chars().any(|c| {
                ('\u{80}'..='\u{2FF}').contains(&c) || "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ".contains(c)
            });
            if left.is_empty() && !damage_left {
                settled += 1;
            } else {
                println!("  {loss}, {language}: {text:?}");
            }
        }
        println!("| {loss} | {} | {settled} |", scripts.len());
        // A dropped byte leaves no mark: where it was a two-byte
        // sequence's (`ÏÎ`), nothing shows that a byte is missing.
        if !with.is_empty() {
            assert_eq!(settled, scripts.len(), "{loss}");
        }
    }
}

/// A line that holds a sign's repair far from the run is no table of
/// repairs: ordinary text holds quotes anyway (a Serbian catalogue's line
/// with two damaged quotes and a correct `„copy_up“`). A letter's repair
/// anywhere on the line, and a sign's beside the run, still make one.
#[test]
fn a_quote_far_from_its_damage_is_no_table_of_repairs() {
    for (text, runs) in [
        (
            "\"Са функцијом â\u{80}\u{9C}nfs_exportâ\u{80}\u{9D}, на „copy_up“ било ког\"\n",
            2,
        ),
        (
            "With the â\u{80}\u{9C}nfs_exportâ\u{80}\u{9D} feature, on copy_up of “any” lower object\n",
            2,
        ),
        (
            "A row: \"â\u{80}\u{9C}\": \"“\", \"â\u{80}\u{9D}\": \"”\"\n",
            0,
        ),
        ("Quotes showed â\u{80}\u{99} instead of ’ here.\n", 0),
        ("The word cafÃ© is café in a long sentence of its own.\n", 0),
    ] {
        assert_eq!(u008_in(text.as_bytes(), "src/lib.rs").len(), runs, "{text}");
    }
}
