//! The U005 verdict model: UTF-8 first, binary is binary, and a legacy
//! verdict only on evidence. Each threshold is pinned from both sides.

use std::path::Path;

use utf8lint_diagnostics::testing::{
    LEGACY_SAMPLE_BYTES, LEGACY_SCAN_BYTES, MAX_UTF8_LIKE_PERCENT, MAX_UTF8_PER_ERROR,
    MIN_BINARY_CONTROL_PERCENT, MIN_DETECTOR_MARGIN_PERCENT, MIN_DETECTOR_SCORE,
    MIN_LEGACY_LETTER_PERCENT, MIN_LEGACY_NON_ASCII, MIN_ONE_SCRIPT_PERCENT, detector_identifies,
};
use utf8lint_diagnostics::{
    BinaryEvidence, CheckOptions, Policy, Rule, Sniff, Wide, WideForm, apply_fixes, check, sniff,
};

fn verdict_message(bytes: &[u8]) -> Option<String> {
    check(
        bytes,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    )
    .into_iter()
    .find(|d| d.rule == Rule::NotUtf8)
    .map(|d| d.message)
}

fn is_legacy(bytes: &[u8]) -> bool {
    let ds = check(
        bytes,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    );
    ds.iter().any(|d| d.rule == Rule::NotUtf8)
}

#[test]
fn the_thresholds_are_the_documented_ones() {
    assert_eq!(MIN_LEGACY_NON_ASCII, 4);
    assert_eq!(MIN_LEGACY_LETTER_PERCENT, 80);
    assert_eq!(MIN_BINARY_CONTROL_PERCENT, 10);
    assert_eq!(MIN_ONE_SCRIPT_PERCENT, 90);
    assert_eq!(MAX_UTF8_LIKE_PERCENT, 25);
    assert_eq!(MAX_UTF8_PER_ERROR, 8);
    assert_eq!(LEGACY_SAMPLE_BYTES, 4 * 1024);
    assert_eq!(LEGACY_SCAN_BYTES, 1024 * 1024);
}

#[test]
fn a_legacy_verdict_needs_enough_non_ascii_bytes() {
    // Three accented letters are defects, four a verdict, unless one Latin
    // reading of the three is one language's text: `é ï ß` is none in any
    // Latin encoding (`ï` is `ď` in windows-1250), `é è û` French alone.
    let three = b"Le caf\xE9 na\xEFve stra\xDFe\n";
    let four = b"Le caf\xE9 na\xEFve stra\xDFe \xE9t\xE9\n";
    assert!(!is_legacy(three));
    assert!(is_legacy(four));
    assert!(is_legacy(b"Le caf\xE9 cr\xE8me est br\xFBl\n"));
    // One is never enough, in one word or none.
    assert!(!is_legacy(b"Le caf\xE9 est ouvert\n"));
    // The cases: two stray bytes are not Turkish.
    assert!(!is_legacy(b"ok \xFF\xFE bytes\n"));
}

/// Well-formed characters do not count towards the evidence: two stray
/// bytes around an emoji are defects, not IBM866 (editors/neovim's fixture).
#[test]
fn well_formed_characters_are_no_evidence_for_a_legacy_verdict() {
    assert!(!is_legacy(b"abc \xFF def\n\xF0\x9F\x98\x80 x\xFFy\n"));
    // Four ill-formed bytes are enough to weigh.
    assert!(is_legacy(b"caf\xE9 cr\xE8me br\xFBl\xE9e\n"));
}

#[test]
fn a_character_cut_at_the_end_is_utf8_with_a_defect() {
    for bytes in [
        &b"price: 5 \xE2\x82"[..],
        b"smile \xF0\x9F\x98",
        b"x = 'caf\xC3",
    ] {
        let ds = check(
            bytes,
            CheckOptions::new(Path::new("a.txt"), &Policy::default()),
        );
        assert!(
            ds.iter().all(|d| d.rule == Rule::InvalidUtf8) && !ds.is_empty(),
            "{bytes:02X?}: {ds:#?}"
        );
    }
}

#[test]
fn a_legacy_verdict_needs_letters() {
    // Four letters and one symbol (80%) pass; three letters and one symbol
    // (75%) do not. The letters are of no one language (`ß` beside `è`),
    // which would name the reading whatever the symbols.
    let eighty = b"Le caf\xE9 cr\xE8me br\xDFl\xE9 \xA7 1\n";
    let seventy_five = b"Le caf\xE9 cr\xE8me br\xDFl \xA7 1\n";
    assert!(is_legacy(eighty));
    assert!(!is_legacy(seventy_five));
    // Symbols only: broken bytes, not words.
    assert!(!is_legacy(b"x \xA7\xA9\xAE\xB0\xB1 y\n"));
}

fn latin_with_controls(control: usize) -> Vec<u8> {
    let text = b"Le caf\xE9 est cr\xE8me, la cr\xEApe est br\xFBl\xE9e. ";
    let mut out: Vec<u8> = text.iter().copied().cycle().take(1000 - control).collect();
    // Spread the control bytes through the text, as binary data has them.
    for i in 0..control {
        out.insert(i * 9 % out.len(), 0x01);
    }
    out
}

#[test]
fn control_bytes_in_quantity_make_a_file_binary() {
    // 1000 bytes: 90 control bytes (9%) is still text, 100 (10%) is binary.
    assert!(is_legacy(&latin_with_controls(90)));
    assert!(!is_legacy(&latin_with_controls(100)));
    // The same threshold makes the binary sniff skip the file when walked.
    assert_eq!(sniff(&latin_with_controls(90)), Sniff::Text);
    assert_eq!(
        sniff(&latin_with_controls(100)),
        Sniff::Binary(BinaryEvidence::ControlBytes { percent: 10 })
    );
}

#[test]
fn a_float_array_is_never_transcoded() {
    // float32 values without NUL bytes, like wasmtime's kitten.tensor.
    let mut bytes = Vec::new();
    for i in 1..20_000u32 {
        let f = 0.001f32 + i as f32 * 0.000_37;
        bytes.extend(f.to_le_bytes().map(|b| b.max(1)));
    }
    let ds = check(
        &bytes,
        CheckOptions::new(Path::new("kitten.tensor"), &Policy::default()),
    );
    assert!(
        ds.iter().all(|d| d.rule != Rule::NotUtf8),
        "{:?}",
        ds.first()
    );
}

#[test]
fn the_legacy_fix_round_trips() {
    let latin = b"Le caf\xE9 est cr\xE8me, la cr\xEApe est br\xFBl\xE9e.\n";
    let ds = check(
        latin,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    );
    let fixed = apply_fixes(latin, [ds[0].fix.as_ref().unwrap()]).bytes;
    let back = encoding_rs::WINDOWS_1252
        .encode(std::str::from_utf8(&fixed).unwrap())
        .0;
    assert_eq!(&back[..], &latin[..]);
}

#[test]
fn a_nul_free_tensor_is_skipped_as_binary() {
    // The head of wasmtime's `kitten.tensor` (float32 values near 2.25:
    // `1D EE 0F 40`), half control bytes and no NUL: the CLI and the server
    // skip it as binary instead of reporting every `\xEE`.
    let bytes: Vec<u8> = (0..4096u32)
        .flat_map(|i| [0x1D, 0xE0 + (i % 16) as u8, 0x0F, 0x40])
        .collect();
    assert_eq!(
        sniff(&bytes),
        Sniff::Binary(BinaryEvidence::ControlBytes { percent: 50 })
    );
}

const RUSSIAN: &str = "Съешь же ещё этих мягких французских булок, да выпей чаю.\nВчера вечером мы долго гуляли по набережной и разговаривали о будущем.\n";

#[test]
fn well_formed_utf8_text_among_the_errors_makes_utf8_with_defects() {
    // 16 windows-1252 letters, each one ill-formed sequence.
    let latin = b"caf\xE9 caf\xE9 caf\xE9 caf\xE9 cr\xE8me cr\xE8me cr\xE8me cr\xE8me \
        br\xFBl\xE9 br\xFBl\xE9 br\xFBl\xE9 br\xFBl\xE9 na\xEFf na\xEFf\n";
    let with = |utf8_letters: usize| {
        let mut b = latin.to_vec();
        for _ in 0..utf8_letters {
            b.extend_from_slice("d\u{e9}j\u{e0} ".as_bytes());
        }
        b
    };
    // Two well-formed `é`/`à` pairs are four characters: 4 * 8 > 16 errors.
    assert!(verdict_message(&with(1)).is_some());
    assert!(verdict_message(&with(2)).is_none());
}

#[test]
fn overlong_looking_pairs_do_not_hide_a_legacy_file() {
    // windows-1251 `Аё` is `C0 B8`, an overlong form to UTF-8: one of them
    // among Russian text is still Russian.
    let mut text = String::from("Аё ");
    text.push_str(RUSSIAN);
    let bytes = encoding_rs::WINDOWS_1251.encode(&text).0;
    assert_eq!(
        verdict_message(&bytes).as_deref(),
        Some("this file is not UTF-8: it looks like windows-1251 (Cyrillic)")
    );
    // Errors that mostly read as broken UTF-8 are a broken encoder's.
    let traversal = b"a/\xC0\xAE\xC0\xAE/b/\xC0\xAE\xC0\xAE/\xC0\xAF\n";
    assert!(verdict_message(traversal).is_none());
}

#[test]
fn the_utf8_like_share_is_pinned_from_both_sides() {
    // Russian in windows-1251 with `Аё` (`C0 B8`, two sequences, the first
    // an overlong form to UTF-8) added until a quarter of the sequences read
    // as broken UTF-8: one `Аё` less is still Russian.
    let with = |pairs: usize| {
        let text = format!("{}{RUSSIAN}", "Аё ".repeat(pairs));
        encoding_rs::WINDOWS_1251.encode(&text).0.into_owned()
    };
    let share = |bytes: &[u8]| {
        let subs: Vec<_> = utf8lint_codec::subparts(bytes).collect();
        let like = subs
            .iter()
            .filter(|s| utf8lint_codec::interpret(&bytes[s.offset..]).is_some())
            .count();
        like * 100 / subs.len()
    };
    let pairs = (1..100)
        .find(|&n| share(&with(n)) >= MAX_UTF8_LIKE_PERCENT)
        .unwrap();
    assert!(
        verdict_message(&with(pairs - 1))
            .unwrap()
            .contains("windows-1251")
    );
    assert_eq!(verdict_message(&with(pairs)), None);
}

#[test]
fn families_are_named_as_users_know_them() {
    let named = |text: &str, enc: &'static encoding_rs::Encoding| {
        verdict_message(&enc.encode(text).0).unwrap()
    };
    assert!(named(RUSSIAN, encoding_rs::KOI8_R).contains("KOI8-R or KOI8-U (Cyrillic)"));
    let ukrainian = "Чуєш їх, доцю, га? Кумедна ж ти, прощайся без ґольфів!\nУ місті відкрили нову бібліотеку.\n";
    assert!(named(ukrainian, encoding_rs::KOI8_U).contains("like KOI8-U (Cyrillic)"));
    assert!(named(RUSSIAN, encoding_rs::IBM866).contains("like IBM866 (Cyrillic)"));
    let french = "Le café est crème, la crêpe est brûlée.\n";
    assert!(named(french, encoding_rs::WINDOWS_1252).contains("ISO-8859-1 or windows-1252"));
    let quoted = "Il a dit \u{201C}café crème\u{201D}, et c\u{2019}était brûlé.\n";
    assert!(named(quoted, encoding_rs::WINDOWS_1252).contains("like windows-1252 ("));
    let thai = "เมื่อวานนี้เราไปเดินเล่นที่ชายหาดและคุยกันเรื่องอนาคต\n";
    assert!(named(thai, encoding_rs::WINDOWS_874).contains("TIS-620 or windows-874 (Thai)"));
    let chinese = "我们昨天晚上在海边散步，谈论了很多关于未来的事情。\n";
    assert!(named(chinese, encoding_rs::GBK).contains("GBK or GB18030"));
    assert!(named("私たちは海岸を散歩しました。\n", encoding_rs::SHIFT_JIS).contains("Shift_JIS"));
}

#[test]
fn iso_8859_15_is_told_from_windows_1252_by_its_letters() {
    let text = "Le c\u{153}ur de l'\u{153}uvre est \u{e0} c\u{f4}t\u{e9} du caf\u{e9}.\n";
    let bytes = encoding_rs::ISO_8859_15.encode(text).0;
    assert!(verdict_message(&bytes).unwrap().contains("ISO-8859-15"));
    let ds = check(
        &bytes,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    );
    let fixed = apply_fixes(&bytes, [ds[0].fix.as_ref().unwrap()]).bytes;
    assert_eq!(fixed, text.as_bytes());
    // A `½` between digits is windows-1252 (or Latin-1) all the same.
    let half = encoding_rs::WINDOWS_1252
        .encode("1½ tasse de café crème brûlée, très sucrée\n")
        .0;
    assert!(
        verdict_message(&half)
            .unwrap()
            .contains("ISO-8859-1 or windows-1252")
    );
}

fn utf16le(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

#[test]
fn utf16_cjk_text_without_a_bom_is_text_not_binary() {
    // Few NULs (newlines, `U+3000`), on both parities: not the NUL pattern.
    let japanese = utf16le(
        "いろはにほへと　ちりぬるを　わかよたれそ。\n昨日の夜、私たちは海岸を散歩しました。\n",
    );
    assert_eq!(
        sniff(&japanese),
        Sniff::Wide(Wide {
            form: WideForm::Utf16Le,
            by_signature: false,
            by_decoding: true,
        })
    );
    let be: Vec<u8> = "我们昨天晚上在海边散步，谈论了很多关于未来的事情。\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    assert!(matches!(
        sniff(&be),
        Sniff::Wide(Wide {
            form: WideForm::Utf16Be,
            ..
        })
    ));
    // Binary data with as few NULs does not decode plausibly.
    let mut seed = 1u32;
    let random: Vec<u8> = (0..4096)
        .map(|_| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((seed >> 24) as u8).max(1)
        })
        .chain([0])
        .collect();
    assert!(matches!(sniff(&random), Sniff::Binary(_)));
}

#[test]
fn utf16_text_allows_one_percent_of_control_characters() {
    // 200 characters: two controls (1%) pass, three do not.
    let text = |controls: usize| {
        let mut t: String = "我们在海边散步\n"
            .chars()
            .cycle()
            .take(200 - controls)
            .collect();
        t.extend(std::iter::repeat_n('\u{1}', controls));
        utf16le(&t)
    };
    assert!(matches!(sniff(&text(2)), Sniff::Wide(_)));
    assert!(matches!(sniff(&text(3)), Sniff::Binary(_)));
}

#[test]
fn the_legacy_sample_is_bounded() {
    // Latin-1 text after the first LEGACY_SCAN_BYTES is not read: U001.
    let latin = b"Le caf\xE9 est cr\xE8me, la cr\xEApe est br\xFBl\xE9e.\n";
    let after = |ascii: usize| {
        let mut b = vec![b'a'; ascii];
        b.push(b'\n');
        b.extend_from_slice(latin);
        b
    };
    assert!(verdict_message(&after(LEGACY_SCAN_BYTES - 100)).is_some());
    assert!(verdict_message(&after(LEGACY_SCAN_BYTES)).is_none());
}

#[test]
fn letters_alone_in_a_table_are_thin_evidence() {
    // vim's Greek keymap: each letter alone on its line, as windows-1253.
    let keymap = "A\t<char-193>\t\" Α\nB\t<char-194>\t\" Β\nG\t<char-195>\t\" Γ\nD\t<char-196>\t\" Δ\nE\t<char-197>\t\" Ε\n";
    assert_eq!(
        verdict_message(&encoding_rs::WINDOWS_1253.encode(keymap).0),
        None
    );
    // Half of the letters in words is enough.
    let half = "A\t\" Α\nB\t\" Β\nΓειά σου\n";
    assert!(verdict_message(&encoding_rs::WINDOWS_1253.encode(half).0).is_some());
}

#[test]
fn well_formed_characters_outnumbering_the_errors_are_utf8() {
    // vim's crash input: `U+180C` (a mark, not a letter) repeated, a few
    // bytes that are windows-1251 letters.
    let mut bytes = b"lv \xE1\xE2 \xE3 \xE4 norm:".to_vec();
    for _ in 0..5 {
        bytes.extend_from_slice("\u{180C}".as_bytes());
    }
    assert_eq!(verdict_message(&bytes), None);
    let mut three = b"lv \xE1\xE2 \xE3\xE4 \xE5 norm:".to_vec();
    three.extend_from_slice("\u{180C}\u{180C}\u{180C}".as_bytes());
    assert!(verdict_message(&three).is_some());
}

#[test]
fn ascii_text_with_a_nul_is_not_utf16() {
    // Read as UTF-16 it would be Han (`fi` is `U+6669`): git's
    // t5100/nul-b64.expect, a patch with one NUL byte.
    let mut bytes =
        b"--- file | Bin 1357 -> 1357 bytes\n 1 files changed\ndiff --git a/file b/file\n"
            .repeat(20);
    bytes.extend_from_slice(b"x\0y\n");
    assert!(matches!(sniff(&bytes), Sniff::Binary(_)));
}

#[test]
fn a_one_letter_word_in_a_sentence_is_in_a_word() {
    // Italian `è` stands alone between spaces, inside a sentence.
    let italian = "Questo \u{e8} vero, \u{e8} bello, \u{e8} cos\u{ec} \u{e8}.\n";
    assert!(verdict_message(&encoding_rs::WINDOWS_1252.encode(italian).0).is_some());
}

#[test]
fn the_detector_thresholds_are_pinned_from_both_sides() {
    assert_eq!(MIN_DETECTOR_SCORE, 200);
    assert_eq!(MIN_DETECTOR_MARGIN_PERCENT, 7);
    // Support: above the floor, with no rival reading.
    assert!(!detector_identifies(MIN_DETECTOR_SCORE, None));
    assert!(detector_identifies(MIN_DETECTOR_SCORE + 1, None));
    // chardetng's fallback (nothing scored above 0) is no identification.
    assert!(!detector_identifies(0, None));
    assert!(!detector_identifies(-40_000, Some(-41_000)));
    // Margin: 7% of the guess's score over the best rival reading.
    assert!(detector_identifies(10_000, Some(9_300)));
    assert!(!detector_identifies(10_000, Some(9_301)));
    // The mixed tree's closest cases: vim's ko.po (EUC-KR over EUC-JP, right)
    // and el_GR.diff (Cyrillic ISO-8859-5 over Greek ISO-8859-7, wrong).
    assert!(detector_identifies(42_604, Some(38_895)));
    assert!(!detector_identifies(6_867, Some(6_451)));
}

fn not_utf8(bytes: &[u8]) -> utf8lint_diagnostics::Diagnostic {
    check(
        bytes,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    )
    .into_iter()
    .find(|d| d.rule == Rule::NotUtf8)
    .expect("a U005 finding")
}

/// A spelling table lists a charset's letters; every 8-bit encoding reads
/// such a list as letters, so it names none and offers no transcoding
/// (vim's `cs_CZ.diff` was "ISO-8859-15", its text ISO-8859-2), while the
/// same letters in sentences are identified and fixed.
#[test]
fn a_letter_table_is_legacy_text_of_no_identified_encoding() {
    let letters: Vec<u8> = (0xC0..=0xFEu8)
        .filter(|&b| b != 0xD7 && b != 0xF7)
        .collect();
    let mut table = b"SET ISO8859-2\nTRY ".to_vec();
    table.extend(&letters);
    table.extend(b"\n");
    let d = not_utf8(&table);
    assert!(
        d.message.ends_with("that the text does not identify"),
        "{}",
        d.message
    );
    assert!(d.fix.is_none(), "a guess is never offered as a transcoding");
    assert!(
        d.help.iter().any(|h| h.contains("iconv -f ENCODING")),
        "{:?}",
        d.help
    );
    // Czech prose in ISO-8859-2: named, and fixed to exactly the text.
    let czech = "Příliš žluťoučký kůň úpěl ďábelské ódy. Večer šel do města, kde \
                 potkal přítele; společně se procházeli po náměstí a povídali si o škole.\n";
    let bytes = encoding_rs::ISO_8859_2.encode(czech).0.into_owned();
    let d = not_utf8(&bytes);
    assert!(d.message.contains("ISO-8859-2"), "{}", d.message);
    let fixed = apply_fixes(&bytes, [d.fix.as_ref().expect("a transcoding")]).bytes;
    assert_eq!(std::str::from_utf8(&fixed).unwrap(), czech);
}

/// French in a DOS code page (850, 437: `é` is `82`, `è` `8A`, `à` `85`):
/// windows-1252 reads its letters as quotes, dashes and `Š` inside words,
/// no language's letters, so no Latin reading is named and nothing is
/// converted (the file is one U005 that no reading identifies).
#[test]
fn dos_latin_text_is_never_converted() {
    let cp850 = |text: &str| -> Vec<u8> {
        text.chars()
            .map(|c| match c {
                'é' => 0x82,
                'è' => 0x8A,
                'à' => 0x85,
                'ç' => 0x87,
                'ê' => 0x88,
                'ô' => 0x93,
                'û' => 0x96,
                'ù' => 0x97,
                'ë' => 0x89,
                c => u8::try_from(c).expect("ASCII"),
            })
            .collect()
    };
    let text = "Le café était fermé, alors nous avons marché jusqu'à la brasserie. \
        La crème brûlée était servie à la fenêtre, et le garçon était très poli. \
        Où est la forêt? Noël approche, dit-il à l'hôtel.\n"
        .repeat(3);
    let d = not_utf8(&cp850(&text));
    assert!(d.fix.is_none(), "{}", d.message);
    assert!(
        d.message.ends_with("that no reading identifies"),
        "{}",
        d.message
    );
}

/// German in DOS code page 850 (`ä` `84`, `ö` `94`, `ü` `81`, `ß` `E1`,
/// `Ü` `9A`): the detector's windows-1250 reading is `qu„lt`, `Šben`, no
/// language's words, so it is not identified and nothing is converted.
#[test]
fn a_latin_reading_of_no_language_is_not_converted() {
    let bytes: Vec<u8> = "Falsches Üben von Xylophonmusik quält jeden größeren Zwerg. \
        Gestern waren wir im Wald spazieren.\n"
        .repeat(6)
        .chars()
        .map(|c| match c {
            'ä' => 0x84,
            'ö' => 0x94,
            'ü' => 0x81,
            'ß' => 0xE1,
            'Ü' => 0x9A,
            c => u8::try_from(c).expect("ASCII"),
        })
        .collect();
    let found = check(
        &bytes,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    );
    let u005 = found.iter().find(|d| d.rule == Rule::NotUtf8);
    assert!(u005.is_some_and(|d| d.fix.is_none()), "{u005:?}");
}
