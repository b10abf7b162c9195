//! U010..U014: bidi controls, invisible and control
//! characters, noncharacters, ASCII-only documents. Trojan Source examples
//! written from the paper's description, scripts that need joiners, every
//! control and noncharacter, tag smuggling, clean multilingual text.

use std::path::Path;

use utf8lint_diagnostics::{
    CheckOptions, Diagnostic, Level, Policy, Rule, apply_fixes, check, escape_shown,
};

fn findings(text: &str, path: &str) -> Vec<Diagnostic> {
    check(
        text.as_bytes(),
        CheckOptions::new(Path::new(path), &Policy::default()),
    )
}

fn codes(text: &str, path: &str) -> Vec<&'static str> {
    findings(text, path).iter().map(|d| d.rule.code()).collect()
}

#[test]
fn trojan_source_examples_are_bidi_findings_with_both_orders() {
    // Early return (C): RLI and LRI hide a `return` inside a comment.
    let early_return = "int main() {\n    bool is_admin = false;\n    /*\u{202E} } \u{2066}if (is_admin)\u{2069} \u{2066} begin admins only */\n        printf(\"You are an admin.\\n\");\n    /* end admins only \u{202E} { \u{2066}*/\n    return 0;\n}\n";
    // Commenting-out (Rust): an RLO that is never closed.
    let commenting_out = "fn main() {\n    let access = \"user\";\n    if access != \"user\u{202E} \u{2066}// Check if admin\u{2069} \u{2066}\" {\n        println!(\"You are an admin.\");\n    }\n}\n";
    // Stretched string (Python): the string seems to end early.
    let stretched = "access_level = \"user\"\nif access_level != 'none\u{202E}\u{2066}': # Check if admin\u{2069}\u{2066}':\n    print(\"You are an admin.\")\n";
    // JavaScript: an isolate closed on the line (weaker, still reported).
    let closed = "const s = \"\u{2067}abc\u{2069}\";\n";
    for (text, path, unterminated) in [
        (early_return, "a.c", true),
        (commenting_out, "a.rs", true),
        (stretched, "a.py", true),
        (closed, "a.js", false),
    ] {
        let ds: Vec<Diagnostic> = findings(text, path)
            .into_iter()
            .filter(|d| d.rule == Rule::BidiControl)
            .collect();
        assert!(!ds.is_empty(), "{path}");
        let d = &ds[0];
        assert_eq!(d.level, Level::Deny);
        assert!(
            d.notes.iter().any(|n| n.starts_with("as stored: `")),
            "{path}: {:?}",
            d.notes
        );
        assert!(
            d.notes.iter().any(|n| n.starts_with("as shown:  `")),
            "{path}"
        );
        // Nothing raw reaches a terminal.
        for line in d.notes.iter().chain([&d.message, &d.label]) {
            assert_eq!(&escape_shown(line), line, "{path}: {line}");
        }
        assert_eq!(
            d.notes
                .iter()
                .any(|n| n.contains("is not closed before the line ends")),
            unterminated,
            "{path}: {:?}",
            d.notes
        );
        // The (unsafe) fix removes every control on the line.
        let fixed = apply_fixes(text.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref())).bytes;
        let fixed = String::from_utf8(fixed).unwrap();
        assert!(
            !fixed.contains(['\u{202E}', '\u{2066}', '\u{2067}', '\u{2069}']),
            "{path}"
        );
    }
    // One finding per line, however many controls it holds.
    let lines = findings(early_return, "a.c")
        .iter()
        .filter(|d| d.rule == Rule::BidiControl)
        .count();
    assert_eq!(lines, 2);
}

#[test]
fn marks_beside_right_to_left_text_are_silent_and_elsewhere_a_warning() {
    let hebrew = "שלום עולם, זהו טקסט בעברית עם סימן \u{200F} כיוון.\n";
    let arabic = "مرحبا بالعالم\u{061C} هذا نص عربي مع علامات: ١٢٣.\n";
    for (text, path) in [(hebrew, "notes.txt"), (arabic, "README.md")] {
        assert!(
            codes(text, path).is_empty(),
            "{path}: {:?}",
            codes(text, path)
        );
    }
    // Beside right-to-left text in code (a string, a comment) a mark is
    // what it is for, as in unicode-width's and icu_provider's sources.
    for text in [
        "let s = \"مرحبا\u{200E}\";\n",
        "// שלום\u{200F}: greeting\n",
        "x = 'سلام\u{061C} ۱۲۳'\n",
        "assert_eq!(width(\"\u{200E}עברית\"), 5);\n",
    ] {
        assert!(
            codes(text, "a.rs").is_empty(),
            "{text}: {:?}",
            codes(text, "a.rs")
        );
    }
    // Away from it, a mark reorders nothing but still hides: a warning of
    // U011, never U010's deny.
    let ds = findings("let x = a\u{200F} - b;\n", "a.rs");
    assert_eq!(ds.len(), 1);
    assert_eq!(
        (ds[0].rule, ds[0].level),
        (Rule::InvisibleCharacter, Level::Warn)
    );
    assert!(
        ds[0].notes[0].contains("no right-to-left text"),
        "{:?}",
        ds[0].notes
    );
}

/// Right-to-left prose embeds its left-to-right parts (GNOME's Persian and
/// Uyghur catalogues, glib's Persian time formats): outside source code a
/// line that closes what it opens is left alone; the same controls in
/// code are denied, and so is an override among Latin text.
#[test]
fn embeddings_in_right_to_left_prose_are_left_alone() {
    let persian = "msgstr \"تانژانت وارون برای مقدارهای i و \u{202A}-i\u{202C} تعریف نشده است\"\n";
    let uyghur = "msgstr \"\u{202A}UTF-8\u{202C} كودلاش\"\n";
    let time = "msgstr \"%A %Oe %B %Oy\u{60C} \u{2066}%OH:%OM:%OS\u{2069}\"\n";
    let closed_override = "msgstr \"\u{202D}%s\u{202C} کد\"\n";
    for text in [persian, uyghur, time, closed_override] {
        assert!(
            codes(text, "fa.po").is_empty(),
            "{text}: {:?}",
            codes(text, "fa.po")
        );
    }
    assert_eq!(codes(persian, "a.py"), ["U010"]);
    assert_eq!(codes("msgstr \"abc \u{202E}def\"\n", "fa.po"), ["U010"]);
    // An override is no prose formatting, even among Persian text.
    assert_eq!(
        codes("msgstr \"abc \u{202E}def\u{202C} کد\"\n", "fa.po"),
        ["U010"]
    );
}

/// A C1 control or soft hyphen inside mojibake is U008's: U011 and U012
/// say so and offer no fix that would lose the byte, and `--fix` with
/// unsafe fixes repairs the run.
#[test]
fn characters_inside_mojibake_are_left_to_its_repair() {
    let mut policy = Policy::default();
    policy.levels.set(Rule::Mojibake, Level::Warn);
    for (text, path, rule, fixed) in [
        (
            "Hi guys \u{ed}\u{a0}\u{bd}\u{ed}\u{b8}\u{8d}\n",
            "a.txt",
            Rule::ControlCharacter,
            Some("Hi guys 😍\n"),
        ),
        (
            "NapĂ\u{ad}Ĺˇte nám\n",
            "a.txt",
            Rule::InvisibleCharacter,
            None,
        ),
    ] {
        let ds = check(text.as_bytes(), CheckOptions::new(Path::new(path), &policy));
        let d = ds
            .iter()
            .find(|d| d.rule == rule)
            .unwrap_or_else(|| panic!("{text}: {ds:#?}"));
        assert!(d.fix.is_none(), "{text}: {:?}", d.fix);
        assert!(
            d.notes.iter().any(|n| n.contains("part of mojibake")),
            "{:?}",
            d.notes
        );
        if let Some(fixed) = fixed {
            let out = apply_fixes(text.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref()));
            assert_eq!(String::from_utf8_lossy(&out.bytes), fixed);
        }
    }
    // A lone soft hyphen and a lone C1 control keep their fixes.
    let ds = findings("a soft\u{ad} hyphen and \u{85} here\n", "a.txt");
    assert_eq!(ds.len(), 2, "{ds:#?}");
    assert!(ds.iter().all(|d| d.fix.is_some()));
}

#[test]
fn joiners_that_scripts_and_emoji_need_are_silent() {
    for text in [
        "ស្វាគមន៍\u{200B}មកកាន់ ສະບາຍດີ\u{200B}ທຸກຄົນ\n",
        "Family: 👨\u{200D}👩\u{200D}👧 and 🏳\u{FE0F}\u{200D}🌈 flags\n",
        "Persian: می\u{200C}خواهم و نامه\u{200C}ها\n",
        "Hindi: क्\u{200D}ष and क्\u{200C}ष\n",
        "Heart: ❤\u{FE0F} and digit 1\u{FE0F}\u{20E3}\n",
        "England: 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\n",
    ] {
        assert!(
            codes(text, "a.txt").is_empty(),
            "{text}: {:?}",
            codes(text, "a.txt")
        );
    }
    // Between ASCII letters a joiner is hidden text.
    assert_eq!(codes("password = pass\u{200D}word\n", "a.txt"), ["U011"]);
    // A variation selector with nothing before it selects nothing
    // (`hidden_payload`'s, with the other selectors and tags).
    assert_eq!(codes("\u{FE0F} alone\n", "a.txt"), ["U018"]);
}

#[test]
fn invisible_characters_are_named_and_never_fixed_safely() {
    let text = "let user\u{200B}Name = soft\u{AD}hyphen; // \u{3164} filler\n";
    let ds: Vec<Diagnostic> = findings(text, "a.rs")
        .into_iter()
        .filter(|d| d.rule == Rule::InvisibleCharacter)
        .collect();
    let messages: Vec<&str> = ds.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "invisible character U+200B ZERO WIDTH SPACE",
            "invisible character U+00AD SOFT HYPHEN",
            "invisible character U+3164 HANGUL FILLER",
        ]
    );
    // In code, outside a string literal, each may be syntax or data: no fix.
    for d in &ds {
        assert!(d.fix.is_none(), "{d:#?}");
        assert!(
            d.notes
                .iter()
                .any(|n| n.contains("outside a string literal"))
        );
    }
    // Inside a string literal the fix writes the escape; in prose it
    // deletes; neither is safe.
    let in_string = "let s = \"user\u{200B}Name\";\n";
    let ds = findings(in_string, "a.rs");
    let fix = ds[0].fix.as_ref().unwrap();
    assert_eq!(
        fix.applicability(),
        utf8lint_diagnostics::Applicability::Unsafe
    );
    assert_eq!(
        apply_fixes(in_string.as_bytes(), [fix]).bytes,
        b"let s = \"user\\u{200B}Name\";\n"
    );
    let prose = findings("user\u{200B}Name\n", "notes.md");
    let fix = prose[0].fix.as_ref().unwrap();
    assert_eq!(
        fix.applicability(),
        utf8lint_diagnostics::Applicability::Unsafe
    );
}

#[test]
fn tag_smuggling_is_one_finding_spelling_the_hidden_text() {
    let hidden: String = "ignore previous"
        .chars()
        .map(|c| char::from_u32(0xE0000 + u32::from(c)).unwrap())
        .collect();
    let text = format!("Please review this patch.{hidden}\n");
    let ds = findings(&text, "a.md");
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(ds[0].rule, Rule::HiddenPayload);
    assert!(
        ds[0].message.contains("spelling `ignore previous`"),
        "{}",
        ds[0].message
    );
    let fixed = apply_fixes(text.as_bytes(), [ds[0].fix.as_ref().unwrap()]).bytes;
    assert_eq!(fixed, b"Please review this patch.\n");
}

#[test]
fn every_c0_and_c1_control_but_the_whitespace_ones() {
    let allowed = ['\t', '\n', '\u{C}', '\r'];
    for v in (0u32..0x20).chain([0x7F]).chain(0x80..0xA0) {
        let c = char::from_u32(v).unwrap();
        let text = format!("a{c}b\n");
        let got = codes(&text, "a.txt");
        if allowed.contains(&c) {
            assert!(got.is_empty(), "U+{v:04X}: {got:?}");
        } else if v == 0 {
            // NUL is binary data's mark: the binary sniff's, not U012's.
            assert!(got.is_empty(), "U+0000: {got:?}");
        } else {
            assert_eq!(got, ["U012"], "U+{v:04X}");
        }
    }
    // C1 controls name the windows-1252 character they were meant to be.
    let ds = findings("\u{93}quoted\u{94}\n", "a.txt");
    assert!(
        ds[0].notes[0]
            .contains("windows-1252 `\\x93` decoded as Latin-1 gives U+0093; did you mean `“`?"),
        "{:?}",
        ds[0].notes
    );
    let fixed = apply_fixes(
        "\u{93}quoted\u{94}\n".as_bytes(),
        ds.iter().filter_map(|d| d.fix.as_ref()),
    )
    .bytes;
    assert_eq!(String::from_utf8(fixed).unwrap(), "“quoted”\n");
    // Terminal sequences are meant; Vim script stores keystrokes.
    assert!(codes("\u{1B}[31mred\u{1B}[0m\n", "out.txt").is_empty());
    assert!(codes("nnoremap x dd\u{16}\u{1B}\n", "keys.vim").is_empty());
    // ISO-2022-JP's escapes are Japanese text, a `not_utf8` verdict.
    let iso = b"\x1B$B$3$s$K$A$O!\"@$3&!#\x1B(B hello \x1B$BF|K\\8l$G$9\x1B(B\n";
    let ds = check(
        iso,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    );
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(ds[0].rule, Rule::NotUtf8);
    assert!(ds[0].message.contains("ISO-2022-JP"));
}

#[test]
fn iso_2022_kr_shifts_are_the_encoding_not_controls_to_delete() {
    // A designation of KS X 1001 into G1, then SO ... SI around Hangul.
    let kr = b"\x1B$)C\nsubject: \x0E0H3g\x0F hello \x0E0H\x0F\n";
    let ds = check(
        kr,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    );
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(ds[0].rule, Rule::ControlCharacter);
    assert_eq!(ds[0].span, 0..1);
    assert!(ds[0].message.contains("ISO-2022-KR"), "{}", ds[0].message);
    assert!(ds[0].fix.is_none(), "a fix would delete the designation");
    // Without a designation, SO and SI are stray controls, fixed as ever.
    let stray = findings("a\u{E}b\u{F}c\n", "a.txt");
    assert_eq!(stray.len(), 2, "{stray:#?}");
    assert!(stray.iter().all(|d| d.fix.is_some()));
}

#[test]
fn all_66_noncharacters() {
    let mut nonchars: Vec<u32> = (0xFDD0..=0xFDEF).collect();
    for plane in 0..=0x10 {
        nonchars.push(plane * 0x10000 + 0xFFFE);
        nonchars.push(plane * 0x10000 + 0xFFFF);
    }
    assert_eq!(nonchars.len(), 66);
    for v in nonchars {
        let c = char::from_u32(v).unwrap();
        let ds = findings(&format!("x{c}y\n"), "a.txt");
        assert_eq!(ds.len(), 1, "U+{v:04X}");
        assert_eq!(ds[0].rule, Rule::Noncharacter);
        assert!(
            ds[0].message.contains(&format!("<noncharacter-{v:04X}>")),
            "{}",
            ds[0].message
        );
    }
    // Their neighbours are characters.
    for v in [0xFDCF, 0xFDF0, 0xFFFD, 0x1FFFD, 0x10000] {
        let c = char::from_u32(v).unwrap();
        assert!(
            codes(&format!("x{c}y\n"), "a.txt")
                .iter()
                .all(|&c| c != "U013")
        );
    }
}

#[test]
fn clean_multilingual_text_gives_no_finding() {
    let text = "English, Français: l’été « déjà » — Deutsch: Größe; Ελληνικά; Русский; \
                עברית; العربية; हिन्दी; ไทย; 日本語のテキスト; 中文; 한국어; emoji 😀👍🏽🇫🇷; \
                math: ∀x ∈ ℝ, x² ≥ 0; tab\tform feed\u{C}\r\n";
    assert!(
        findings(text, "a.txt").is_empty(),
        "{:#?}",
        findings(text, "a.txt")
    );
    // In a source file the same text is a comment's.
    assert!(findings(&format!("// {text}"), "a.rs").is_empty());
}

#[test]
fn candidates_across_chunk_edges_are_found() {
    // The pass reads 32-byte chunks: a three-byte control straddling every
    // offset around an edge.
    for pad in 28..36 {
        let text = format!("{}\u{202E}x\n", "a".repeat(pad));
        assert_eq!(codes(&text, "a.txt"), ["U010"], "pad {pad}");
        let text = format!("{}\u{200B}x\n", "a".repeat(pad));
        assert_eq!(codes(&text, "a.txt"), ["U011"], "pad {pad}");
    }
}

/// The valid path validates and searches 64 KiB blocks, each cut before a
/// byte that is not a continuation byte: a candidate of every rule put
/// across the first edge at every offset is found once, whole, and the
/// same as on the error path (the same text with an ill-formed byte at
/// its end, searched stretch by stretch).
#[test]
fn candidates_across_block_edges_are_found_once() {
    const EDGE: usize = 64 * 1024;
    let mut policy = Policy::default();
    policy.levels.set(Rule::NonAscii, Level::Warn);
    let candidates: [(&str, Rule, usize); 6] = [
        ("\u{202E}", Rule::BidiControl, 3),
        ("\u{200B}", Rule::InvisibleCharacter, 3),
        // Four tag characters: one finding over all 16 bytes.
        (
            "\u{E0041}\u{E0042}\u{E0043}\u{E0044}",
            Rule::HiddenPayload,
            16,
        ),
        ("\u{85}", Rule::ControlCharacter, 2),
        ("\u{10FFFF}", Rule::Noncharacter, 4),
        // `é` as windows-1252 twice over: `ÃƒÂ©`, one run of 8 bytes.
        ("Ã\u{192}Â©", Rule::Mojibake, 8),
    ];
    for (candidate, rule, len) in candidates {
        for start in EDGE - len - 2..EDGE + 2 {
            let text = format!("{}{candidate}x\n", "a".repeat(start));
            let mut bad = text.clone().into_bytes();
            bad.push(0xFF);
            for (bytes, path) in [(text.as_bytes(), "valid.txt"), (&bad[..], "error.txt")] {
                let ds = check(bytes, CheckOptions::new(Path::new(path), &policy));
                let spans: Vec<_> = ds
                    .iter()
                    .filter(|d| d.rule == rule)
                    .map(|d| d.span.clone())
                    .collect();
                assert_eq!(
                    spans,
                    vec![start..start + len],
                    "{rule:?} at {start} ({path})"
                );
                // The candidate's line, once.
                let lines: Vec<_> = ds.iter().filter(|d| d.rule == Rule::NonAscii).collect();
                let expected = usize::from(!candidate.is_ascii());
                assert_eq!(lines.len(), expected, "{rule:?} at {start} ({path})");
            }
        }
    }
}

/// A non-ASCII character on each side of a block edge, on one line: one
/// U014 finding from the first to the last.
#[test]
fn a_line_across_a_block_edge_is_one_non_ascii_finding() {
    let mut policy = Policy::default();
    policy.levels.set(Rule::NonAscii, Level::Warn);
    let text = format!("ab\u{A0}{}\u{2014}cd\n\u{A0}\n", "x".repeat(70_000));
    let ds: Vec<Diagnostic> = check(
        text.as_bytes(),
        CheckOptions::new(Path::new("d.txt"), &policy),
    )
    .into_iter()
    .filter(|d| d.rule == Rule::NonAscii)
    .collect();
    assert_eq!(ds.len(), 2, "{ds:?}");
    assert_eq!(ds[0].span, 2..2 + 2 + 70_000 + 3);
    assert!(
        ds[0].notes[0].contains("2 lines in this file"),
        "{:?}",
        ds[0].notes
    );
}

#[test]
fn non_ascii_lines_are_counted_like_idnits() {
    let mut policy = Policy::default();
    policy.levels.set(Rule::NonAscii, Level::Warn);
    let text = "Section\u{A0}10 of RFC2026.\nplain line\nthe protocol’s first “message” — done…\nFranȺois\n";
    let ds: Vec<Diagnostic> = check(
        text.as_bytes(),
        CheckOptions::new(Path::new("draft.txt"), &policy),
    )
    .into_iter()
    .filter(|d| d.rule == Rule::NonAscii)
    .collect();
    assert_eq!(ds.len(), 3);
    assert!(
        ds[0].notes[0].contains("3 lines in this file hold non-ASCII characters"),
        "{:?}",
        ds[0].notes
    );
    assert!(ds[0].message.contains("U+00A0 NO-BREAK SPACE"));
    let fixed = apply_fixes(text.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref())).bytes;
    assert_eq!(
        String::from_utf8(fixed).unwrap(),
        "Section 10 of RFC2026.\nplain line\nthe protocol's first \"message\" - done...\nFranȺois\n"
    );
}

/// The seeds: draft-yergeau-rfc2279bis-01 as saved from the datatracker
/// (`000`) has the four lines with non-ASCII characters that idnits counts
/// in the draft (`003`: the damaged author names), plus the two no-break
/// spaces the web page added.
#[test]
fn the_seeds_draft_has_idnits_four_lines_and_two_no_break_spaces() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/seeds/000_0d51857e39155221.txt");
    let Ok(bytes) = std::fs::read(&path) else {
        println!("SKIPPED: no seeds at {}", path.display());
        return;
    };
    let mut policy = Policy::default();
    policy.levels.set(Rule::NonAscii, Level::Warn);
    let ds: Vec<Diagnostic> = check(&bytes, CheckOptions::new(&path, &policy))
        .into_iter()
        .filter(|d| d.rule == Rule::NonAscii)
        .collect();
    let locator = utf8lint_diagnostics::Locator::new(&bytes);
    let mut nbsp = Vec::new();
    let mut others = Vec::new();
    let mut locator = locator;
    for d in &ds {
        let line = locator.locate(d.span.start).line;
        if d.message.ends_with("U+00A0 NO-BREAK SPACE") {
            nbsp.push(line);
        } else {
            others.push(line);
        }
    }
    assert_eq!(nbsp, [13, 384]);
    assert_eq!(
        others.len(),
        4,
        "idnits: 4 instances of lines with non-ascii characters: {others:?}"
    );
}

/// U002 tells the seam of two concatenated files (a U+FEFF opening a line)
/// from a U+FEFF inside text, which may be meant (sphinx's `texescape.py`
/// maps it as a key) and is told how to keep it.
#[test]
fn a_feff_inside_a_line_is_told_from_the_seam_of_two_files() {
    let seam = findings("first\n\u{FEFF}second\n", "a.txt");
    assert_eq!(seam.len(), 1);
    assert!(
        seam[0].message.contains("start of a line"),
        "{}",
        seam[0].message
    );
    assert!(
        seam[0]
            .fix
            .as_ref()
            .is_some_and(|f| f.applicability() == utf8lint_diagnostics::Applicability::Safe)
    );
    let table = findings(
        "tex_replacements = [\n    ('\u{FEFF}', r'{}'),\n]\n",
        "texescape.py",
    );
    assert_eq!(table.len(), 1, "{table:#?}");
    let d = &table[0];
    assert!(d.message.contains("inside a line"), "{}", d.message);
    assert!(!d.message.contains("stray"), "{}", d.message);
    assert!(
        d.help
            .iter()
            .any(|h| h.contains("\\u{FEFF}") && h.contains("allow(stray_feff)")),
        "{:?}",
        d.help
    );
    assert!(
        d.fix
            .as_ref()
            .is_some_and(|f| f.applicability() == utf8lint_diagnostics::Applicability::Unsafe)
    );
}

/// U014 in code leaves curly quotes: made straight, `“` inside a string
/// literal would close it (`"he said “hi”"` is no longer Python).
#[test]
fn non_ascii_quotes_in_code_are_not_made_straight() {
    let mut policy = Policy::default();
    policy.levels.set(Rule::NonAscii, Level::Warn);
    let fixed = |text: &str, path: &str| {
        let ds = check(text.as_bytes(), CheckOptions::new(Path::new(path), &policy));
        let ds: Vec<&Diagnostic> = ds.iter().filter(|d| d.rule == Rule::NonAscii).collect();
        String::from_utf8(
            apply_fixes(text.as_bytes(), ds.iter().filter_map(|d| d.fix.as_ref())).bytes,
        )
        .unwrap()
    };
    let code = "s = \"he said \u{201C}hi\u{201D} \u{2014} twice\"\n";
    assert_eq!(
        fixed(code, "a.py"),
        "s = \"he said \u{201C}hi\u{201D} - twice\"\n"
    );
    assert_eq!(
        fixed(code, "a.txt"),
        "s = \"he said \"hi\" - twice\"\n",
        "in prose the quotes are made straight"
    );
}

/// The U011 findings of `text` at `path`, by the character each names.
fn invisible_in(text: &str, path: &str) -> Vec<Diagnostic> {
    findings(text, path)
        .into_iter()
        .filter(|d| d.rule == Rule::InvisibleCharacter)
        .collect()
}

/// What scripts and typography need is quiet in text, in any file: the
/// soft hyphens translators put at compound boundaries (Dutch, Swedish,
/// Danish, Armenian), U+200B between Javanese, Balinese, Khmer and Thai
/// words, the Mongolian vowel separator before a final vowel and the free
/// variation selectors, ZWNJ in Persian and ZWJ in Devanagari.
#[test]
fn invisible_characters_a_script_needs_are_quiet_in_text() {
    let catalogue = concat!(
        "msgid \"File manager\"\nmsgstr \"Bestands\u{AD}beheer\"\n",
        "msgid \"Search settings\"\nmsgstr \"Sök\u{AD}inställningar\"\n",
        "msgstr \"Jog\u{AD}jakarta\"\nmsgstr \"Նոր\u{AD}ֆոլկ\"\n",
        "msgstr \"ꦱꦼꦩꦸꦮ\u{200B}ꦮꦺꦴꦁ\u{200B}ꦏꦭꦲꦶꦂꦏꦺ\"\n",
        "msgstr \"ᬲᬫᬶ\u{200B}ᬫᬦᬸᬲ\"\n",
        "msgstr \"\u{200B}\u{200B}ស្វាគមន៍\u{200B}មកកាន់\"\n",
        "msgstr \"ภาษา\u{200B}ไทย\"\n",
        "msgstr \"ᠬᠠᠷ\u{180E}ᠠ ᠭ\u{180B}ᠠ\"\n",
        "msgstr \"می\u{200C}خواهم\"\nmsgstr \"क्\u{200D}ष\"\n",
    );
    for path in ["nl.po", "README.md", "notes.txt", "strings.xml"] {
        assert_eq!(invisible_in(catalogue, path), vec![], "{path}");
    }
    // In a program's strings and comments too: they are text.
    let code = "s = 'می\u{200C}خواهم'  # ស្វាគមន៍\u{200B}មកកាន់, Bestands\u{AD}beheer\n";
    assert_eq!(invisible_in(code, "a.py"), vec![]);
}

fn invisible_like(c: char) -> bool {
    matches!(c, '\u{AD}' | '\u{180E}' | '\u{200B}'..='\u{200D}')
}

/// A catalogue's string goes on over its continuation lines, and gettext
/// joins them: a soft hyphen at a segment's end or start stands inside the
/// word the two segments make, as one inside a segment does. Where the
/// next segment starts with no letter, it stands beside no word.
#[test]
fn a_soft_hyphen_where_a_catalogue_string_breaks_is_in_its_word() {
    let split = concat!(
        "msgid \"output\\n\"\n",
        "msgstr \"\"\n\"liñas de saí\u{AD}\"\n\"da\\n\"\n",
        "msgid \"input\"\nmsgstr \"\"\n  \"entra\"\n\t\"\u{AD}da\"\n",
    );
    assert_eq!(invisible_in(split, "gl.po"), vec![]);
    // Outside a catalogue the quotes end the strings, and a segment that
    // goes on with a space leaves the hyphen after the word, not in it.
    assert_eq!(invisible_in(split, "notes.md").len(), 2);
    let apart = "msgid \"a\"\nmsgstr \"\"\n\"saí\u{AD}\"\n\" da\"\n";
    assert_eq!(invisible_in(apart, "gl.po").len(), 1);
}

/// In code outside strings and comments none of them is needed: a name
/// with one is a different name that looks the same. No fix there.
#[test]
fn invisible_characters_in_code_stay_findings_whatever_the_script() {
    for (text, path) in [
        ("نام\u{200C}کاربر = 1\n", "a.py"),
        ("let ក\u{200B}ខ = 1;\n", "a.rs"),
        ("const Bestands\u{AD}beheer = 1;\n", "a.js"),
        ("int ᠬᠠᠷ\u{180E}ᠠ = 1;\n", "a.c"),
    ] {
        let ds = invisible_in(text, path);
        assert_eq!(ds.len(), 1, "{text}: {ds:#?}");
        assert!(ds[0].fix.is_none(), "{text}: {:?}", ds[0].fix);
    }
    // Beside letters of an alphabet that needs none of them, they are
    // reported in text as well, and the fix deletes them (unsafe).
    for text in [
        "user\u{200B}Name\n",
        "при\u{200C}вет\n",
        "pass\u{200D}word\n",
        "a soft\u{AD} hyphen\n",
        "Error: \u{200B}\u{200B}%s\n",
        "x\u{180E} y\n",
    ] {
        let ds = invisible_in(text, "notes.md");
        let count = text.chars().filter(|&c| invisible_like(c)).count();
        assert_eq!(ds.len(), count, "{text:?}: {ds:#?}");
        assert!(ds.iter().all(|d| d.fix.is_some()), "{text:?}");
    }
}

/// A line that names the character it holds (`00ad`, `0xAD`, `U+200B`,
/// `SOFT HYPHEN`) is a table of characters: its characters are its data.
#[test]
fn a_table_of_characters_is_quiet() {
    for text in [
        "\u{AD}\t--\t0xad\t173\tSOFT HYPHEN\n",
        "00ad   \u{AD}   SOFT HYPHEN\n",
        "U+200B ZERO WIDTH SPACE: [\u{200B}]\n",
        "3164;HANGUL FILLER;Lo;0;L;;;;;N;;;;; \u{3164}\n",
    ] {
        assert_eq!(invisible_in(text, "chars.txt"), vec![], "{text:?}");
    }
    // A character standing alone in prose or data, beside no word, is an
    // item of a list (a locale's exemplar characters); in a program's
    // string it is a value nobody sees, reported with its escape as fix.
    let exemplars = "  auxiliary: \"\u{200C}\u{200D} \u{9F2}\"\n  punctuation: \"\u{200B}\"\n";
    assert_eq!(invisible_in(exemplars, "bn.textproto"), vec![]);
    assert_eq!(invisible_in("const ZWSP = '\u{200B}';\n", "a.ts").len(), 1);
}

/// The shapes of a bidi scanner's fixtures, each found by exactly one
/// rule: variation selectors after identifier letters and VS16 after a
/// quote are `hidden_payload`'s (U018: they select nothing); U+200B,
/// a soft hyphen and U+2800 BRAILLE PATTERN BLANK alone in a string are
/// U011's, whose fix writes the escape.
#[test]
fn the_bidi_scanners_shapes_are_each_found_by_one_rule() {
    for (text, rule) in [
        ("  const value\u{E0100} = input.trim()\n", "U018"),
        ("  const final\u{E01EF} = result\n", "U018"),
        ("const c = 'hello' + '\u{FE0F}' + 'world';\n", "U018"),
        ("const a = 'hello' + '\u{200B}' + 'world';\n", "U011"),
        ("const b = 'hello' + '\u{AD}' + 'world';\n", "U011"),
        ("export const msg = '\u{2800}'\n", "U011"),
    ] {
        assert_eq!(codes(text, "a.js"), [rule], "{text:?}");
    }
    let ds = findings("export const msg = '\u{2800}'\n", "a.js");
    assert_eq!(
        ds[0].message,
        "invisible character U+2800 BRAILLE PATTERN BLANK"
    );
    let fixed = apply_fixes(
        b"export const msg = '\xE2\xA0\x80'\n",
        [ds[0].fix.as_ref().unwrap()],
    );
    assert_eq!(fixed.bytes, b"export const msg = '\\u{2800}'\n");
    // Among braille patterns the blank is braille's space; in braille art
    // a run of blanks between patterns is too. Used as a space in prose it
    // is reported, and the fix writes a space.
    for text in ["⠓⠑⠇⠇⠕⠀⠺⠕⠗⠇⠙\n", "⣿⣿⠀⠀⠀⣿⣿\n"] {
        assert_eq!(codes(text, "a.txt"), Vec::<&str>::new(), "{text}");
    }
    let ds = findings("hello\u{2800}world\n", "a.txt");
    assert_eq!(ds.len(), 1);
    let fixed = apply_fixes(
        "hello\u{2800}world\n".as_bytes(),
        [ds[0].fix.as_ref().unwrap()],
    );
    assert_eq!(fixed.bytes, b"hello world\n");
}

/// An embedding or override that a line never closes is reported wherever
/// it stands, beside right-to-left letters too (a Hebrew catalogue's
/// `\u{202B}` before `%s` shows the substituted value in its order); in
/// prose the fix closes it where the line's text ends (before a
/// catalogue string's closing quote and its `\n`), which keeps what the
/// text shows, and the fixed line is quiet. In code the fix deletes.
#[test]
fn what_a_line_leaves_open_is_found_and_closed() {
    for (line, closed) in [
        (
            "msgstr[1] \"\u{202B}%d-סיביות\"\n",
            "msgstr[1] \"\u{202B}%d-סיביות\u{202C}\"\n",
        ),
        (
            "msgstr \"\u{202E}%s קובץ\\n\"\n",
            "msgstr \"\u{202E}%s קובץ\u{202C}\\n\"\n",
        ),
        ("\"\u{2067}ملف %s\"\n", "\"\u{2067}ملف %s\u{2069}\"\n"),
        (
            "\u{202B}שלום \u{2066}abc\r\n",
            "\u{202B}שלום \u{2066}abc\u{2069}\u{202C}\r\n",
        ),
        // A closer that closes nothing is deleted; the pair before it,
        // which does its work, is kept.
        (
            "msgstr \"\u{202A}SOCKSv\u{202C} 4\u{202C} مۇلازىمېتىرى\"\n",
            "msgstr \"\u{202A}SOCKSv\u{202C} 4 مۇلازىمېتىرى\"\n",
        ),
        ("\"\u{202C}\\n\"\n", "\"\\n\"\n"),
    ] {
        let ds = findings(line, "he.po");
        assert_eq!(ds.len(), 1, "{line:?}: {ds:#?}");
        assert_eq!(ds[0].rule, Rule::BidiControl);
        let fix = ds[0].fix.as_ref().unwrap();
        assert!(fix.title().starts_with("close what the line leaves open"));
        let fixed = apply_fixes(line.as_bytes(), [fix]).bytes;
        assert_eq!(String::from_utf8_lossy(&fixed), closed);
        assert_eq!(codes(closed, "he.po"), Vec::<&str>::new(), "{closed:?}");
    }
    // An override among Latin letters reverses them: closed or not it is
    // reported, and the fix deletes it (a translation's stray LRO, a name
    // written with an RLO).
    for (line, fixed) in [
        (
            "msgstr \"Ejetando o dis\u{202D}positivo\"\n",
            "msgstr \"Ejetando o dispositivo\"\n",
        ),
        ("Muha Ajjan\u{202E}\n", "Muha Ajjan\n"),
        ("\u{202E}rekcäH nitraM\u{202C}\n", "rekcäH nitraM\n"),
    ] {
        let ds = findings(line, "AUTHORS.txt");
        assert_eq!(ds.len(), 1, "{line:?}");
        let out = apply_fixes(line.as_bytes(), [ds[0].fix.as_ref().unwrap()]).bytes;
        assert_eq!(String::from_utf8_lossy(&out), fixed);
    }
    // In code the attack's controls are deleted, as before.
    let code = "if (x != \"user\u{202E} \u{2066}// admin\u{2069} \u{2066}\") {\n";
    let ds = findings(code, "a.js");
    let fixed = apply_fixes(code.as_bytes(), [ds[0].fix.as_ref().unwrap()]).bytes;
    assert_eq!(fixed, b"if (x != \"user // admin \") {\n");
    // A closer that closes nothing is reported (a typo for the opener);
    // an opener left open says what it reorders.
    assert_eq!(
        codes("msgstr \"\u{2069}%Oy/%Om/%Od\u{2069}\"\n", "fa.po"),
        ["U010"]
    );
    let ds = findings("msgstr \"\u{202B}%s קובץ\"\n", "he.po");
    assert!(
        ds[0].notes.iter().any(|n| n.contains("is not closed")),
        "{:?}",
        ds[0].notes
    );
}

/// In a test's values (a fuzzer's inputs, a fixture, a test's own
/// strings, a row of a character set's table) an invisible character is
/// what the test is about: quiet. The same text elsewhere, and a test
/// tree's code, comments, documents and catalogues, are still reported.
#[test]
fn invisible_characters_in_a_tests_values_are_quiet() {
    let fuzz = ":\u{200D}X\u{200D}\u{200D}\u{200D}X\u{200D}X:\u{200C}-";
    let cursor = "  let text='1 foooooooo ar e  ins\u{200D}zwe1 foooooooo ins\u{200D}zwei'\n";
    let table = "0x2440: ㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ\u{3164}ㅥㅦㅧ\n";
    let python = "s = \"pass\u{200D}word\"\n";
    for (text, quiet, loud) in [
        (
            fuzz,
            "fuzz/to_ascii_fuzzer.in/3469cdf2fba548ac593574bdf56aa71aee108f41",
            "names/3469cdf2fba548ac593574bdf56aa71aee108f41",
        ),
        (cursor, "src/testdir/test_normal.vim", "src/normal.vim"),
        (table, "t/ksc5601.utf", "doc/ksc5601.utf"),
        (python, "tests/test_login.py", "login.py"),
    ] {
        assert_eq!(invisible_in(text, quiet), vec![], "{quiet}");
        assert!(!invisible_in(text, loud).is_empty(), "{loud}");
    }
    // What people read in a test tree, and a test's code and comments.
    let doubled = "msgstr \"usados \u{200B}\u{200B}para\"\n";
    for (text, path) in [
        (doubled, "tests/README.md"),
        (doubled, "tests/po/pt.po"),
        ("# pass\u{200D}word\n", "tests/test_login.py"),
        ("pass\u{200D}word = 1\n", "tests/test_login.py"),
    ] {
        assert_eq!(
            invisible_in(text, path).len(),
            text.matches(invisible_like).count(),
            "{path}: {text:?}"
        );
    }
    // A program among a scanner's fixtures is an attack as written.
    let attack = "const a = 'hello' + '\u{200B}' + 'world';\n";
    assert_eq!(
        invisible_in(attack, "__tests__/__fixtures__/zwsp.js").len(),
        1
    );
}

/// Qt Linguist's `.ts` catalogues are XML, not TypeScript: their
/// translations are text, judged by their scripts.
#[test]
fn qt_catalogues_are_text_whatever_their_extension() {
    let catalogue = concat!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" language=\"km\">\n",
        "        <translation>ពណ៌\u{200B}ចម្រុះ</translation>\n",
        "        <translation>ප්\u{200D}රවේශ</translation>\n",
        "        <translation>توسعه\u{200C}دهندگان</translation>\n",
        "        <translation>Ignoruj \u{200B}\u{200B}błędy SSL:</translation>\n",
        "</TS>\n",
    );
    let ds = invisible_in(catalogue, "translations/app_km.ts");
    assert_eq!(ds.len(), 2, "{ds:#?}");
    assert!(ds.iter().all(|d| d.fix.is_some()));
    // A TypeScript program with the same characters in its code.
    assert_eq!(invisible_in("let ពណ៌\u{200B}ចម = 1;\n", "app.ts").len(), 1);
}

/// A U+200B beside a placeholder or a space is judged by the letters
/// nearest it; after a virama it does a ZWNJ's work, and the fix writes
/// one, so the word shows as before and is one word to a search.
#[test]
fn a_zero_width_space_is_judged_by_the_nearest_letters_and_a_virama() {
    assert_eq!(
        invisible_in("បានបញ្ចូល %1\u{200B} ដោយជោគជ័យ\n", "km.txt"),
        vec![]
    );
    let telugu = "ట్రాన్స్\u{200B}మిషన్ చూపించు\n";
    let ds = invisible_in(telugu, "te.txt");
    assert_eq!(ds.len(), 1, "{ds:#?}");
    let fix = ds[0].fix.as_ref().unwrap();
    let fixed = apply_fixes(telugu.as_bytes(), [fix]).bytes;
    assert_eq!(
        String::from_utf8(fixed).unwrap(),
        "ట్రాన్స్\u{200C}మిషన్ చూపించు\n"
    );
}

/// U016 where the mixture is the point: a test's strings (grep's
/// case-folding test) and a manual that names the letter it shows (sed's
/// `printf 'a\u03A3b'` and its output). Neither hides a look-alike in code.
#[test]
fn look_alikes_that_a_test_or_a_manual_means_are_left_alone() {
    assert!(codes("  grep_test 'a\u{212A}b/' '' 'K' -i\n", "tests/foad1").is_empty());
    let manual = "     $ printf 'a\\u03A3b'\n     a\u{3A3}b\n\n     $ printf 'ABC\\u03a3\\n' | sed 's/.*/\\L&/'\n     abc\u{3C3}\n";
    assert!(codes(manual, "doc/sed.info").is_empty());
    assert!(codes("The letter U+0430 in p\u{430}ypal.\n", "notes.md").is_empty());
    for (text, path) in [
        // Code in a test's own source.
        ("def test_x():\n    p\u{430}ypal = 1\n", "tests/test_x.py"),
        // A string of a program beside a comment that names the letter.
        ("s = \"p\u{430}ypal\"  # U+0430\n", "src/x.py"),
        // Code beside a comment that names it, also in a program whose
        // strings and comments are not told apart.
        ("# \\u0430\nif p\u{430}ypal:\n    pass\n", "x.py"),
        ("# U+0430\np\u{430}ypal = 1\n", "x.rb"),
        // A manual that names another letter, or names it too far before.
        ("$ printf '\\u03A3'\na\u{39F}b\n", "doc/x.info"),
        ("U+0430\n\n\n\np\u{430}ypal\n", "notes.md"),
        // A test tree's documents are read by people.
        ("See p\u{430}ypal.\n", "tests/README.md"),
    ] {
        assert_eq!(codes(text, path), ["U016"], "{path}: {text:?}");
    }
}

/// U012 and the controls that a format or a test means: nroff's
/// overstrikes in a formatted manual (bash's `bash.0`), a progress bar's
/// backspaces in a test's expected output (e2fsprogs' `expect`). A lone
/// backspace in prose, and a control in a test's code, are findings.
#[test]
fn overstrikes_and_a_tests_controls_are_meant() {
    let manual =
        "N\u{8}NA\u{8}AM\u{8}ME\u{8}E\n       _\u{8}f_\u{8}i_\u{8}l_\u{8}e  o\u{8}+ item\n";
    assert!(codes(manual, "doc/bash.0").is_empty());
    let expect = "Extending the inode table     ----\u{8}\u{8}\u{8}\u{8}XXXX\n";
    assert!(codes(expect, "tests/r_move_itable/expect").is_empty());
    assert!(codes("a\u{1C}b\n", "test/symtab1.ok").is_empty());
    for (text, path) in [
        ("Type abc\u{8}d to see.\n", "README.txt"),
        ("ab\u{8}c\n", "doc/bash.0"),
        ("def test_x():\n    x = 1\u{7}\n", "tests/test_x.py"),
        ("See the bell\u{7} here.\n", "tests/README.md"),
    ] {
        assert_eq!(codes(text, path), ["U012"], "{path}: {text:?}");
    }
}

/// A table of code points written raw (xregexp's Unicode categories, as
/// Django's admin vendors it) is data about characters: no U011, U012 or
/// U013 in it, nor at a raw range's end. A bidi control there is still
/// U010's, and a control beside a `-` in prose ends no range.
#[test]
fn a_table_of_code_points_is_data() {
    let table = "var c={name:\"Cc\",bmp:\"\\0-\u{1F}\u{7F}-\u{9F}\"},{name:\"Cn\",bmp:\"\u{378}\u{379}\u{380}-\u{383}\u{AD}\u{58B}\u{58C}\u{590}\u{5C8}-\u{5CF}\u{180E}\u{FDD0}-\u{FDEF}\u{FFFE}\u{FFFF}\"};\n";
    assert!(
        codes(table, "vendor/xregexp.min.js").is_empty(),
        "{:?}",
        codes(table, "vendor/xregexp.min.js")
    );
    let bidi =
        "var f=\"\u{378}\u{380}-\u{383}\u{590}-\u{591}\u{200B}-\u{200F}\u{202A}-\u{202E}\";\n";
    assert_eq!(codes(bidi, "vendor/xregexp.min.js"), ["U010"]);
    assert_eq!(codes("press a -\u{7} b\n", "notes.txt"), ["U012"]);
    assert_eq!(codes("x = \"\u{FFFF}-a\"\n", "x.py"), ["U013"]);
}
