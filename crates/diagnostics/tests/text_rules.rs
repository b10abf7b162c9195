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
/// Hebrew catalogues): outside source code those lines are left alone;
/// the same controls among Latin text, or in code, are denied.
#[test]
fn embeddings_in_right_to_left_prose_are_left_alone() {
    let persian = "msgstr \"تانژانت وارون برای مقدارهای i و \u{202A}-i\u{202C} تعریف نشده است\"\n";
    let hebrew = "msgstr[1] \"\u{202B}%d-סיביות\"\n";
    let uyghur = "msgstr \"\u{202A}UTF-8\u{202C} كودلاش\"\n";
    for text in [persian, hebrew, uyghur] {
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
    // A soft hyphen in a word and a lone C1 control keep their fixes.
    let ds = findings("a soft\u{ad}hyphen and \u{85} here\n", "a.txt");
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
    let text = "let user\u{200B}Name = 1; // soft\u{AD}hyphen and \u{3164} filler\n";
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
