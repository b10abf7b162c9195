//! What the U005 verdict may conclude from the evidence a file carries:
//! binary signatures are binary, a UTF-16 verdict needs the UTF-16 pattern,
//! a named encoding needs running text of its script, and thin evidence
//! stays a defect.

use std::path::Path;

use utf8lint_diagnostics::{
    BinaryEvidence, CheckOptions, Diagnostic, Level, Policy, Rule, Sniff, apply_fixes, check, sniff,
};

fn run(bytes: &[u8]) -> Vec<Diagnostic> {
    check(
        bytes,
        CheckOptions::new(Path::new("a.txt"), &Policy::default()),
    )
}

fn u005(bytes: &[u8]) -> Option<Diagnostic> {
    run(bytes).into_iter().find(|d| d.rule == Rule::NotUtf8)
}

/// The message of a U005 that names an encoding and offers its conversion.
fn named(bytes: &[u8]) -> String {
    let d = u005(bytes).expect("a U005 finding");
    assert!(d.fix.is_some(), "no conversion offered: {}", d.message);
    d.message
}

/// A U005 that names no encoding and offers no conversion.
fn unidentified(bytes: &[u8]) {
    let d = u005(bytes).expect("a U005 finding");
    assert!(
        d.message.ends_with("that the text does not identify"),
        "{}",
        d.message
    );
    assert!(d.fix.is_none(), "a conversion offered: {}", d.message);
}

fn signature_of(bytes: &[u8]) -> Option<&'static str> {
    match sniff(bytes) {
        Sniff::Binary(BinaryEvidence::Signature { format }) => Some(format),
        _ => None,
    }
}

/// A BMP whose pixel rows read as plausible UTF-16LE text: the signature
/// decides before any UTF-16 test, and `check` offers no conversion.
#[test]
fn a_bmp_is_binary_whatever_its_pixels_read_as() {
    let pixels: Vec<u8> = "我们昨天晚上在海边散步，谈论了很多关于未来的事情。\n"
        .repeat(40)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let mut bmp = b"BM".to_vec();
    bmp.extend(((54 + pixels.len()) as u32).to_le_bytes());
    bmp.extend([0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0]);
    bmp.extend(16u32.to_le_bytes());
    bmp.extend(16u32.to_le_bytes());
    bmp.extend([1, 0, 24, 0]);
    bmp.resize(54, 0);
    bmp.extend(&pixels);
    assert_eq!(signature_of(&bmp), Some("bmp"));
    assert!(u005(&bmp).is_none(), "{:?}", u005(&bmp));
    // The same pixels alone are UTF-16 text.
    assert!(matches!(sniff(&pixels), Sniff::Wide(_)));
}

#[test]
fn binary_signatures_are_recognised_in_their_header() {
    let cases: [(&[u8], &str); 9] = [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "png"),
        (b"GIF89a\x01\x00\x01\x00\x80\x00\x00", "gif"),
        (b"PK\x03\x04\x14\x00\x00\x00\x08\x00", "zip"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "gz"),
        (b"SQLite format 3\0\x10\x00\x01\x01", "sqlite"),
        (b"\0asm\x01\0\0\0", "wasm"),
        (b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0\x01\0\0\0\x10\x10\0\0\0\0\0\0\x40\0\0\0\0\0\0\0\x40\0\0\0\0\0\0\0\0\0\0\0\x40\0\x38\0", "elf"),
        (b"wOFF\0\x01\0\0\0\0\x01\x00", "woff"),
        (b"ID3\x03\0\0\0\0\x0f\x76TIT2", "mp3"),
    ];
    for (bytes, format) in cases {
        assert_eq!(signature_of(bytes), Some(format), "{bytes:02X?}");
    }
    // A text that starts like a signature is text: `BM`, `MZ` and `SQLi`
    // are also words.
    for text in [
        &b"BMW and Mercedes\n"[..],
        b"MZ-80 was a computer\n",
        b"SQLite is a library\n",
    ] {
        assert_eq!(sniff(text), Sniff::Text, "{text:?}");
    }
}

#[test]
fn bson_and_ubjson_are_binary() {
    // BSON: {"hello": "world"}, its length first and a NUL last.
    let bson = b"\x16\x00\x00\x00\x02hello\x00\x06\x00\x00\x00world\x00\x00";
    assert_eq!(signature_of(bson), Some("bson"));
    // UBJSON: {"name": "caf\xE9 \xE9t\xE9"} with one-byte lengths.
    let ubjson = b"{i\x04nameSi\x09caf\xC3\xA9 \xE9t\xE9}";
    assert_eq!(signature_of(ubjson), Some("ubj"));
    assert!(u005(ubjson).is_none());
}

#[test]
fn an_ascii_file_with_one_nul_is_not_utf16() {
    let mut bytes = b"first line of the file\nsecond line\n".to_vec();
    bytes.push(0);
    bytes.extend_from_slice(b"third line\n");
    assert!(
        matches!(sniff(&bytes), Sniff::Binary(_)),
        "{:?}",
        sniff(&bytes)
    );
    assert!(u005(&bytes).is_none());
}

#[test]
fn a_utf16_bom_before_utf8_text_is_a_wrong_bom() {
    let mut bytes = b"\xFF\xFE".to_vec();
    bytes.extend_from_slice("Le café est crème\nПривет, мир\n".as_bytes());
    assert_eq!(sniff(&bytes), Sniff::Text);
    let d = u005(&bytes).expect("a finding");
    assert!(
        d.message.contains("byte-order mark, but its text is UTF-8"),
        "{}",
        d.message
    );
    let fixed = apply_fixes(&bytes, [d.fix.as_ref().unwrap()]).bytes;
    assert_eq!(fixed, &bytes[2..]);
    // UTF-16 text after the mark is UTF-16.
    let mut utf16 = b"\xFF\xFE".to_vec();
    utf16.extend("Le café\n".encode_utf16().flat_map(u16::to_le_bytes));
    assert!(
        u005(&utf16)
            .unwrap()
            .message
            .contains("UTF-16LE, not UTF-8")
    );
}

#[test]
fn an_rfc_2279_form_in_ascii_text_is_u001_naming_it() {
    let ds = run(b"x \xF8\x88\x80\x80\x80 y\n");
    assert!(ds.iter().all(|d| d.rule == Rule::InvalidUtf8), "{ds:#?}");
    assert!(
        ds.iter().any(|d| format!("{d:?}").contains("RFC 2279")),
        "{ds:#?}"
    );
}

/// Thin evidence stays a defect: a handful of impossible bytes in ASCII
/// text is one U001 per sequence, each named; "not identified" needs four
/// sequences in three places, or eight.
#[test]
fn a_handful_of_impossible_bytes_in_ascii_text_is_u001() {
    let only_u001 = |bytes: &[u8]| {
        let ds = run(bytes);
        assert!(
            !ds.is_empty() && ds.iter().all(|d| d.rule == Rule::InvalidUtf8),
            "{bytes:02X?}: {:?}",
            ds.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
        ds.len()
    };
    // Four bytes in one place: four U001, each naming its byte.
    assert_eq!(only_u001(b"abc \xFF\xFE\xFD\xFC def\n"), 1);
    assert!(run(b"abc \xFF\xFE\xFD\xFC def\n")[0].subparts.len() == 4);
    // Four in two places, seven in two: still U001.
    only_u001(b"one \xFF\xFE two \xFD\xFC three\n");
    only_u001(b"one \xFF\xFE\xFD\xFC two \xFB\xFA\xF9 three\n");
    // Eight in two places, or four in three, are enough text to say so.
    assert!(u005(b"one \xFF\xFE\xFD\xFC two \xFB\xFA\xF9\xF8 three\n").is_some());
    assert!(u005(b"one \xFF\xFE two \xFD three \xFC four\n").is_some());
    // RFC 2279 forms are broken UTF-8, never text: each a U001 naming it.
    let forms = b"x \xF8\x88\x80\x80\x80 y \xFC\x84\x80\x80\x80\x80 z \xF8\x88\x80\x80\x80 w \xFC\x84\x80\x80\x80\x80\n";
    only_u001(forms);
    assert!(
        run(forms).iter().all(|d| d.message.contains("RFC 2279")),
        "{:?}",
        run(forms).iter().map(|d| &d.message).collect::<Vec<_>>()
    );
}

/// Turkish and Maltese in ISO-8859-3, which the detector does not know,
/// read as windows-1250 or ISO-8859-2 with letters of Czech (`ť`, `ř`),
/// Romanian (`ş`) and Slovak in one text (`doťuda`, `batšda`): no one
/// language, so no conversion.
#[test]
fn letters_of_languages_that_exclude_each_other_are_not_named() {
    for text in [
        "Türkçe, batıda Balkanlardan başlayıp doğuda Hazar Denizi kıyılarına kadar geniş bir alanda konuşulan bir dildir. Yazı dili olarak çok eski belgelere sahiptir; bugün Türkiye'de ve Kıbrıs'ta resmî dildir. Öğrenciler okulda dilbilgisi, yazım kuralları ve edebiyat dersleri görürler. Bu dilde ünlü uyumu önemlidir.\n",
        "Malti huwa l-ilsien nazzjonali ta' Malta. Għandu l-għeruq fl-Għarbi, imma ħafna kliem ġej mit-Taljan u mill-Ingliż. Il-ħajja ta' kuljum u x-xogħol tal-ħaddiema jitkellmu bil-Malti; iż-żgħażagħ jiktbu ħafna messaġġi bih ukoll.\n",
    ] {
        let bytes = encoding_rs::ISO_8859_3.encode(text).0;
        unidentified(&bytes);
    }
    // Czech in windows-1250 is still named and converted.
    let czech = "Příliš žluťoučký kůň úpěl ďábelské ódy. Čeština má háčky a čárky, ř je jen česká. Večer jsme šli do divadla a potom domů.\n";
    assert!(named(&encoding_rs::WINDOWS_1250.encode(czech).0).contains("windows-1250"));
}

/// A windows-1252 reading with `¤` as a symbol out of its place (Danish
/// `eurotegnet (€)` in ISO-8859-15): either encoding may be meant, and
/// neither is converted.
#[test]
fn a_latin9_byte_out_of_place_leaves_the_encoding_unnamed() {
    let text = "Eurosymbolet eller eurotegnet (€) anvendes som valutasymbol for møntenheden euro. Symbolet kombinerer et græsk epsilon med de to parallelle streger, man ofte ser i valutasymboler, og det blev skabt af Europa-Kommissionen. Også på tastaturet findes tegnet.\n";
    let bytes = encoding_rs::ISO_8859_15.encode(text).0;
    let d = u005(&bytes).expect("a verdict");
    assert!(
        d.fix.is_none() || apply_fixes(&bytes, [d.fix.as_ref().unwrap()]).bytes == text.as_bytes(),
        "{}",
        d.message
    );
}

/// DOS Hebrew (code page 862) puts its letters where IBM866 has Cyrillic
/// capitals: read so it is words of capitals, not Russian.
#[test]
fn hebrew_dos_text_is_not_named_cyrillic() {
    let cp862 = b"\x80\x9A\x8E\x85\x8C \x81\x92\x98\x81 \x84\x8C\x8B\x90\x85 \x8C\x88\x89\x89\x8C \x92\x8C \x99\x94\x9A \x84\x89\x8D \x85\x83\x89\x81\x98\x90\x85 \x92\x8C \x84\x92\x9A\x89\x83. \x84\x91\x94\x98\x89\x89\x84 \x94\x9A\x85\x87\x84 \x8E\x9A\x99\x92 \x81\x81\x85\x97\x98 \x92\x83 \x99\x99 \x81\x92\x98\x81, \x87\x85\x95 \x8E\x89\x85\x8D \x99\x89\x99\x89. \x83\x82 \x91\x97\x98\x8F \x99\x88 \x81\x89\x8D \x8E\x80\x85\x8B\x86\x81 \x85\x8C\x94\x9A\x92 \x8E\x96\x80 \x87\x81\x98\x84.\n";
    unidentified(cp862);
}

/// Mac Greek's small letters are KOI8's Cyrillic capitals.
#[test]
fn mac_greek_text_is_not_named_cyrillic() {
    let mac_greek = b"\xC6\xEF \xEB\xE1\xEC\xEF\xEB\xE1\xDD\xF2\xE9 \xF0\xE8\xE7\xE1\xDD\xEE\xEF\xF9\xED\xE5 \xF3\xF4\xEF \xEE\xE8\xF3\xDD \xEB\xE1\xE9 \xEB\xEF\xEC\xF9\xED\xF0\xC0\xED\xE5 \xEB\xC0\xF5\xE5 \xF0\xF2\xF6\xDD \xF3\xF4\xE8 \xF5\xC0\xEC\xE1\xF3\xF3\xE1. \xB8 \xE2\xE9\xE2\xEC\xE9\xEF\xF5\xDC\xEB\xE8 \xF4\xEF\xF9 \xF0\xE1\xEE\xE5\xF0\xE9\xF3\xF4\xE8\xED\xDD\xEF\xF9 \xE5\xDD\xEE\xE1\xE9 \xE1\xEE\xEF\xE9\xF8\xF4\xDC \xED\xDB\xF8\xF2\xE9 \xE1\xF2\xE7\xC0 \xF4\xEF \xE2\xF2\xC0\xE4\xF9.\n";
    assert!(
        u005(mac_greek).is_none_or(|d| d.fix.is_none()),
        "{:?}",
        u005(mac_greek).map(|d| d.message)
    );
}

/// Georgian in an 8-bit Georgian encoding (the 33 letters from 0xC0 on, as
/// Georgian-Academy has them) reads as Cyrillic in windows-1251: capitals
/// mostly, never running Russian.
#[test]
fn georgian_text_is_not_named_cyrillic() {
    let text = "საქართველო მდებარეობს კავკასიაში, შავი ზღვის აღმოსავლეთ სანაპიროზე. თბილისი არის ქვეყნის დედაქალაქი და უდიდესი ქალაქი.\n";
    let bytes: Vec<u8> = text
        .chars()
        .map(|c| match c {
            'ა'..='ჰ' => 0xC0 + (u32::from(c) - 0x10D0) as u8,
            c => c as u8,
        })
        .collect();
    assert!(
        u005(&bytes).is_none_or(|d| d.fix.is_none()),
        "{:?}",
        u005(&bytes).map(|d| d.message)
    );
}

/// MacCyrillic's small letters are windows-1251's, its capitals are not:
/// read as windows-1251, `я` is `Я` inside words and `А` is `Ђ`.
#[test]
fn mac_cyrillic_text_is_not_converted_as_windows_1251() {
    let text = "Афиша на август. Концертный зал книжного магазина Буквоед, площадь Восстания. Сольный концерт в Санкт-Петербурге. Я знаю, что моя семья придёт.\n";
    let bytes = encoding_rs::X_MAC_CYRILLIC.encode(text).0;
    unidentified(&bytes);
}

#[test]
fn iso_8859_15_is_named_by_its_euro_sign() {
    let text = "Le menu coûte 25 € et le vin 12 €, service compris à côté de la gare.\n";
    let bytes = encoding_rs::ISO_8859_15.encode(text).0;
    assert!(named(&bytes).contains("ISO-8859-15"));
    let d = u005(&bytes).unwrap();
    let fixed = apply_fixes(&bytes, [d.fix.as_ref().unwrap()]).bytes;
    assert_eq!(std::str::from_utf8(&fixed).unwrap(), text);
}

#[test]
fn french_with_oe_starting_words_is_named() {
    let text = "L'œuvre de sa vie, Œuvres complètes, était à cœur ouvert: un œuf, des œufs et sœur Thérèse.\n";
    for enc in [encoding_rs::WINDOWS_1252, encoding_rs::ISO_8859_15] {
        let bytes = enc.encode(text).0;
        let d = u005(&bytes).expect("a verdict");
        let fixed = apply_fixes(&bytes, [d.fix.as_ref().expect("a conversion")]).bytes;
        assert_eq!(std::str::from_utf8(&fixed).unwrap(), text, "{}", d.message);
    }
}

#[test]
fn spanish_full_of_symbols_is_named() {
    let text = "¿Dónde está la tienda? ¡Qué precio! Marca® registrada, 20 € cada uno, 15 € el menú. ¿Cuánto cuesta el café? Está a 30° en verano.\n";
    let bytes = encoding_rs::WINDOWS_1252.encode(text).0;
    assert!(named(&bytes).contains("windows-1252"));
}

#[test]
fn hungarian_is_named_central_european() {
    let text = "Árvíztűrő tükörfúrógép. Az őszi szél fújt, és a gyerekek hazamentek az iskolából. Ő mindig első volt, a kőből épült házban lakott, ahol a tűz mellett ültünk.\n";
    for enc in [encoding_rs::WINDOWS_1250, encoding_rs::ISO_8859_2] {
        let bytes = enc.encode(text).0;
        let d = u005(&bytes).expect("a verdict");
        let fixed = apply_fixes(&bytes, [d.fix.as_ref().expect("a conversion")]).bytes;
        assert_eq!(std::str::from_utf8(&fixed).unwrap(), text, "{}", d.message);
    }
    // Portuguese `õ` comes with `ã` and `ç`: windows-1252 all the same.
    let portuguese = "As informações estão disponíveis, mas as eleições põem em questão a situação das nações.\n";
    let bytes = encoding_rs::WINDOWS_1252.encode(portuguese).0;
    let d = u005(&bytes).expect("a verdict");
    let fixed = apply_fixes(&bytes, [d.fix.as_ref().expect("a conversion")]).bytes;
    assert_eq!(std::str::from_utf8(&fixed).unwrap(), portuguese);
}

/// Shift_JIS and Big5 byte pairs sometimes form well-formed UTF-8; the
/// file is legacy when its ill-formed bytes read as one CJK encoding.
#[test]
fn cjk_with_incidental_utf8_is_legacy() {
    let japanese = "芥川龍之介の羅生門を読んだ。下人は雨やみを待っていた。鬱蒼とした森の中で、老婆は死人の髪の毛を抜いていた。讃岐の國から來た男は黙って聞いていた。\n";
    let chinese = "龍門石窟位於河南省洛陽市南郊，是中國著名的佛教石窟藝術寶庫。鬱鬱蔥蔥的山林環繞著古老的寺廟，遊客絡繹不絕。\n";
    for (text, enc) in [
        (japanese, encoding_rs::SHIFT_JIS),
        (chinese, encoding_rs::BIG5),
    ] {
        let bytes = enc.encode(text).0;
        let incidental = utf8lint_codec::Utf8Chunks::new(&bytes)
            .flat_map(|c| c.valid().chars())
            .filter(|c| !c.is_ascii())
            .count();
        assert!(
            incidental > 5,
            "the test needs well-formed pairs: {incidental}"
        );
        let d = u005(&bytes).expect("a verdict");
        let fixed = apply_fixes(&bytes, [d.fix.as_ref().expect("a conversion")]).bytes;
        assert_eq!(std::str::from_utf8(&fixed).unwrap(), text, "{}", d.message);
    }
}

/// A legacy file gets its one U005 and no finding from its bytes read as
/// UTF-8; allowing U005 ("legacy on purpose") leaves nothing in its place.
#[test]
fn a_legacy_file_has_no_phantom_findings() {
    let text = "Съешь же ещё этих мягких французских булок, да выпей чаю.\nВчера вечером мы долго гуляли по набережной.\n";
    let bytes = encoding_rs::WINDOWS_1251.encode(text).0;
    let ds = run(&bytes);
    assert_eq!(
        ds.iter().map(|d| d.rule).collect::<Vec<_>>(),
        [Rule::NotUtf8],
        "{ds:#?}"
    );
    let mut policy = Policy::default();
    policy.levels.set(Rule::NotUtf8, Level::Allow);
    let allowed = check(&bytes, CheckOptions::new(Path::new("a.txt"), &policy));
    assert!(allowed.is_empty(), "{allowed:#?}");
    // UTF-8 with a defect keeps its U001 when U005 is allowed.
    let defect = check(
        b"caf\xC3\xA9 \xFF ok\n",
        CheckOptions::new(Path::new("a.txt"), &policy),
    );
    assert_eq!(
        defect.iter().map(|d| d.rule).collect::<Vec<_>>(),
        [Rule::InvalidUtf8]
    );
}

/// Allowing U005 silences UTF-16 text read as UTF-8 as well.
#[test]
fn an_allowed_utf16_file_has_no_findings() {
    let mut utf16 = b"\xFF\xFE".to_vec();
    utf16.extend("Le café crème\n".encode_utf16().flat_map(u16::to_le_bytes));
    let mut policy = Policy::default();
    policy.levels.set(Rule::NotUtf8, Level::Allow);
    let ds = check(&utf16, CheckOptions::new(Path::new("a.txt"), &policy));
    assert!(ds.is_empty(), "{ds:#?}");
    assert_eq!(run(&utf16).len(), 1);
}

/// MessagePack has no signature: it is told by its structure, the whole
/// file maps and arrays of well-formed objects.
#[test]
fn messagepack_is_binary_by_its_structure() {
    // {"name": "Ålesund", "tags": ["by", "kyst"], "pop": 67114, "ok": true}
    let mut record =
        b"\x84\xA4name\xA8\xC3\x85lesund\xA4tags\x92\xA2by\xA4kyst\xA3pop\xCE".to_vec();
    record.extend(67114u32.to_be_bytes());
    record.extend(b"\xA2ok\xC3");
    assert_eq!(signature_of(&record), Some("msgpack"));
    assert!(matches!(sniff(&record), Sniff::Binary(_)));
    assert!(u005(&record).is_none());
    // A stream of records, and a map16 whose keys look like Shift_JIS.
    let stream = [&record[..], &record[..]].concat();
    assert_eq!(signature_of(&stream), Some("msgpack"));
    let mut table = b"\xDE\x00\x03".to_vec();
    for (n, word) in ["ひらがな", "カタカナ", "漢字"].into_iter().enumerate() {
        table.push(0xA0 | word.len() as u8);
        table.extend(word.as_bytes());
        table.push(n as u8);
    }
    assert_eq!(signature_of(&table), Some("msgpack"));
    // In an array, or as a map's integer keys, the same objects are not
    // recognised: nothing tells them from text.
    assert_eq!(signature_of(&[b"\x96", &table[3..]].concat()), None);
    assert_eq!(signature_of(b"\x82\x01\xA1a\x02\xA1b"), None);
    // Cut short, followed by anything, or with a string that is not UTF-8:
    // not MessagePack.
    assert_eq!(signature_of(&record[..record.len() - 1]), None);
    assert_eq!(signature_of(&[&record[..], b"\n"].concat()), None);
    let mut latin1 = record.clone();
    latin1.splice(6..14, b"\xA7\xC5lesund".iter().copied());
    latin1.remove(6);
    assert_eq!(signature_of(&latin1), None);
    // Empty maps and arrays alone are no evidence.
    assert_eq!(signature_of(b"\x80\x90"), None);
    // Text: a windows-1252 line starting with `€`, a UTF-8 line starting
    // with a Syriac letter (`DC 90`, an array16's type byte).
    for text in [
        &b"\x80 12 for two\n"[..],
        "\u{0710}\u{0712} text\n".as_bytes(),
        b"\x85 ellipsis\n",
    ] {
        assert_eq!(signature_of(text), None, "{text:02X?}");
    }
}

/// Vietnamese in windows-1258 writes its tones as combining marks after
/// the letter (`ê` then `U+0301`): they are part of the word.
#[test]
fn vietnamese_with_combining_tones_is_named() {
    let text = "Tiê\u{301}ng Viê\u{323}t la\u{300} ngôn ngư\u{303} cu\u{309}a ngươ\u{300}i Viê\u{323}t va\u{300} la\u{300} ngôn ngư\u{303} chi\u{301}nh thư\u{301}c ta\u{323}i Viê\u{323}t Nam. Đây la\u{300} tiê\u{301}ng me\u{323} đe\u{309} cu\u{309}a khoa\u{309}ng 85% dân cư.\n";
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1258.encode(text);
    assert!(!unmappable);
    assert!(named(&bytes).contains("windows-1258"), "{}", named(&bytes));
    let d = u005(&bytes).unwrap();
    let fixed = apply_fixes(&bytes, [d.fix.as_ref().unwrap()]).bytes;
    assert_eq!(std::str::from_utf8(&fixed).unwrap(), text);
}

/// A language that adds one letter to ASCII (Finnish `ä`) is text, not
/// one byte value repeated as padding.
#[test]
fn one_letter_beside_ascii_letters_is_text_and_padding_is_not() {
    let finnish = b"Hyv\xE4\xE4 p\xE4iv\xE4\xE4! T\xE4n\xE4\xE4n on kaunis s\xE4\xE4, ja lapset leikkiv\xE4t pihalla, ja k\xE4velemme j\xE4rvelle.\n";
    let d = u005(finnish).expect("a verdict");
    let fixed = apply_fixes(finnish, [d.fix.as_ref().expect("a conversion")]).bytes;
    assert_eq!(
        std::str::from_utf8(&fixed).unwrap(),
        encoding_rs::WINDOWS_1252.decode(finnish).0
    );
    // One value that reads as no letter (a no-break space) is no evidence.
    assert!(u005(b"one\xA0two three\xA0four five\xA0six seven\xA0eight nine\xA0ten\n").is_none());
    // The same byte as padding between fields is data.
    let padding = b"id=1 \xC0\xC0\xC0\xC0\xC0\xC0\xC0\xC0 id=2 \xC0\xC0\xC0\xC0\xC0\xC0\xC0\xC0\n";
    assert!(u005(padding).is_none());
}

/// A multi-byte legacy text's pairs that form UTF-8 by accident, each
/// alone between two ill-formed bytes (Big5 `C5 E9 A4 A4 A4 E5` holds
/// UTF-8 `餤`), are no UTF-8 text: the file is Big5.
#[test]
fn a_well_formed_character_alone_between_errors_is_an_accident() {
    let text = "繁體中文。".repeat(12) + "\n";
    let (bytes, _, unmappable) = encoding_rs::BIG5.encode(&text);
    assert!(!unmappable);
    assert!(std::str::from_utf8(&bytes).is_err());
    let d = u005(&bytes).expect("a verdict");
    let fixed = apply_fixes(&bytes, [d.fix.as_ref().expect("a conversion")]).bytes;
    assert_eq!(std::str::from_utf8(&fixed).unwrap(), text, "{}", d.message);
}

/// Eight stray bytes with no text around them (the conformance corpus's
/// `80..87`, nothing else) are a defect: one U001 per sequence, every
/// position listed; with a word beside them, they are text that does not
/// identify its encoding.
#[test]
fn stray_bytes_alone_are_u001() {
    let alone = b"\x80\x81\x82\x83\x84\x85\x86\x87";
    let found = run(alone);
    assert!(found.iter().all(|d| d.rule != Rule::NotUtf8), "{found:?}");
    let subparts: usize = found
        .iter()
        .filter(|d| d.rule == Rule::InvalidUtf8)
        .map(|d| d.subparts.len())
        .sum();
    assert_eq!(subparts, 8);
    unidentified(b"\x80\x81\x82\x83\x84\x85\x86\x87 x\n");
}

/// U005 lists the ill-formed subparts U001's findings would have shown
/// under the same cap: those of the first `max-per-file` runs of adjacent
/// subparts (50 by default), all of them with no cap, never more than the
/// absolute ceiling.
#[test]
fn u005_lists_the_subparts_u001_would_show() {
    let text = "Съешь же ещё этих мягких французских булок, да выпей чаю.\n".repeat(40);
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
    let offsets = |d: &Diagnostic| d.subparts.iter().map(|s| s.offset).collect::<Vec<_>>();
    let all: Vec<usize> = utf8lint_codec::subparts(&bytes).map(|s| s.offset).collect();
    // The words are U001's runs: each starts where the one before did not
    // end right before it.
    let run_starts: Vec<usize> = (0..all.len())
        .filter(|&i| i == 0 || all[i - 1] + 1 != all[i])
        .collect();
    assert!(run_starts.len() > 50, "{}", run_starts.len());
    let d = u005(&bytes).expect("a U005 finding");
    assert_eq!(offsets(&d), all[..run_starts[50]]);
    let uncapped = Policy {
        max_per_rule: 0,
        ..Policy::default()
    };
    let every = |bytes: &[u8]| {
        check(bytes, CheckOptions::new(Path::new("a.txt"), &uncapped))
            .into_iter()
            .find(|d| d.rule == Rule::NotUtf8)
            .expect("a U005 finding")
    };
    assert_eq!(offsets(&every(&bytes)), all);
    // With no cap, the list stops where U001's would: at the most findings
    // a report shows of one rule, one run each.
    let most = utf8lint_diagnostics::testing::MAX_SHOWN_PER_RULE;
    let long = bytes.repeat(most / run_starts.len() + 1);
    let all: Vec<usize> = utf8lint_codec::subparts(&long).map(|s| s.offset).collect();
    let nth_run = (0..all.len())
        .filter(|&i| i == 0 || all[i - 1] + 1 != all[i])
        .nth(most)
        .expect("more runs than the cap");
    assert_eq!(offsets(&every(&long)), all[..nth_run]);
}

/// Thin evidence: two or three `±` bytes (Latin-1 `\xB1`) in the same word
/// of an assembler file are no language's text, however ISO-8859-4 reads
/// them (`ąInf`): U001 per sequence, with the readings as notes, and no
/// conversion.
#[test]
fn one_word_repeated_is_no_verdict() {
    let asm = b"\t.text\n# returns \xB1Inf on overflow\nf:\tmovsd %xmm0, %xmm1\n# and \xB1Inf when x is \xB1Inf\n\tret\n";
    let found = run(asm);
    assert!(found.iter().all(|d| d.rule != Rule::NotUtf8), "{found:?}");
    let u001: Vec<_> = found
        .iter()
        .filter(|d| d.rule == Rule::InvalidUtf8)
        .collect();
    assert_eq!(u001.len(), 3);
    assert!(
        u001.iter()
            .all(|d| d.notes.iter().any(|n| n.contains("windows-1252"))),
        "{u001:?}"
    );
}
