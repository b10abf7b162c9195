//! The conversion U005 offers for a file in a legacy encoding, made so that
//! the file works after one run: its bytes are decoded to UTF-8, every
//! declaration of its encoding in it ([`declarations`]) is rewritten to say
//! UTF-8, a UTF-8 byte-order mark in front of the legacy text is removed
//! (decoded, it would be `ï»¿`), and lines that are already UTF-8 are kept
//! as they are (decoded, `café` would be `cafÃ©`).

use std::ops::Range;
use std::path::Path;

use encoding_rs::Encoding;

use super::reading::{Script, Support, script_of};
use super::verdict::{DeclaredReading, LegacyVerdict};
use crate::rules::declared::{
    Declaration, declarations, declared_legacy_encoding, is_html_page, meta_charset_offset,
};
use crate::{Edit, Fix};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The evidence weighed: a declaration naming an encoding the whole file
/// decodes in to text ([`declared_legacy_encoding`]) names the file's
/// encoding, identified, whatever the detector's verdict (`detect`) says
/// (the declaration is what the file's readers follow); without one, the
/// detector's verdict stands. With the verdict: the declaration followed,
/// and the encoding the detector identified when it is another one (U009
/// shows both readings). The detector, the verdict's costliest step, is
/// asked only when its answer can matter.
pub(crate) fn weigh<'a>(
    bytes: &'a [u8],
    path: &Path,
    detect: impl FnOnce() -> Option<LegacyVerdict>,
) -> Option<(
    LegacyVerdict,
    Option<Declaration<'a>>,
    Option<&'static Encoding>,
)> {
    let Some((declaration, encoding)) = declared_legacy_encoding(bytes, path) else {
        return detect().map(|v| (v, None, None));
    };
    // A declared reading that is text of its script is not contradicted
    // by the detector's other guess (a table of Spanish vowels that
    // windows-1255 also reads as letters), so the detector is not asked;
    // one that is not text is.
    let declared = DeclaredReading::of(encoding, bytes);
    let rival = (!declared.is_text)
        .then(detect)
        .flatten()
        .filter(|v| v.support == Support::Identified && v.encoding != encoding)
        .map(|v| v.encoding);
    let verdict = LegacyVerdict {
        encoding,
        name: declared.name,
        support: Support::Identified,
    };
    Some((verdict, Some(declaration), rival))
}

/// Why no conversion is offered for the file at `path`, if its name
/// declares a legacy encoding (`index.html.ko.euc-kr`): a web server maps
/// the extension to the charset it sends (Apache's `AddCharset`, and the
/// type maps of content negotiation list it), so converted bytes would be
/// served as the old encoding. The file must be renamed with its
/// conversion, which an edit of its bytes cannot do.
pub(crate) fn refused_by_name(path: &Path) -> Option<String> {
    let (ext, encoding) = crate::rules::declared::charset_in_name(path)?;
    Some(format!(
        "no fix is offered: the file's name declares {} (`.{ext}`), which servers send with it (Apache's `AddCharset`, content negotiation's type maps); convert it with `iconv -f {} -t UTF-8` and rename it (`.utf8`), updating what lists it",
        encoding.name(),
        encoding.name()
    ))
}

/// The note of a U005 finding whose encoding `declaration` named.
pub(crate) fn declared_note(declaration: &Declaration<'_>) -> String {
    format!(
        "{} declares `{}`, and the whole file decodes in it to text",
        declaration.syntax.describe(),
        declaration.name
    )
}

/// The fix converting `bytes`, a file in `encoding` whose bytes after a
/// UTF-8 byte-order mark decode in it without errors (the caller checked),
/// to UTF-8, declarations and all. `errors`: every stretch of ill-formed
/// UTF-8 in `bytes`, in order, when the caller has them all (they tell
/// which lines are well-formed without reading each line again).
pub(crate) fn conversion(
    bytes: &[u8],
    path: &Path,
    encoding: &'static Encoding,
    errors: Option<&[Range<usize>]>,
) -> Fix {
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let mut edits = Vec::new();
    if start > 0 {
        edits.push(Edit::delete(0..start));
    }
    let mut rewritten: Vec<&str> = Vec::new();
    for d in declarations(bytes, path) {
        // Only names that stand for another encoding: `utf8` stays, and so
        // does a template's placeholder (`charset=CHARSET`).
        if d.encoding().is_some_and(|e| e != encoding_rs::UTF_8) {
            rewritten.push(d.syntax.describe());
            edits.push(d.to_utf8());
        }
    }
    // An HTML page that declared nothing was read by its detector's guess;
    // in UTF-8 it must say so, or a browser reads it as windows-1252.
    let meta = (rewritten.is_empty()
        && is_html_page(bytes, path)
        && !bytes.windows(7).any(|w| w.eq_ignore_ascii_case(b"charset")))
    .then(|| meta_charset_offset(bytes))
    .flatten();
    if let Some(at) = meta {
        edits.push(Edit::insert(at, &b"<meta charset=\"utf-8\">"[..]));
    }
    let (decoded, kept) = decoded_lines(bytes, start, encoding, errors);
    let mut title = format!(
        "convert the file from {} to UTF-8 (rewrites every non-ASCII byte",
        encoding.name()
    );
    if kept > 0 {
        title.push_str(&format!(
            " but those of the {kept} line{} already in UTF-8",
            if kept == 1 { "" } else { "s" }
        ));
    }
    title.push(')');
    if !rewritten.is_empty() {
        title.push_str(&format!(", and make {} say UTF-8", rewritten.join(" and ")));
    }
    if meta.is_some() {
        title.push_str(", and declare it with `<meta charset=\"utf-8\">`");
    }
    if start > 0 {
        title.push_str(", and remove the UTF-8 byte-order mark in front of it");
    }
    Fix::decode_around(encoding, title, &decoded, edits)
}

/// `text`, a file already converted to UTF-8 as a whole (from UTF-16,
/// UTF-32 or ISO-2022-JP), with every declaration in it that names
/// another encoding made to say UTF-8, as [`conversion`] does.
pub(crate) fn declarations_to_utf8(text: Vec<u8>, path: &Path) -> Vec<u8> {
    let edits: Vec<Edit> = declarations(&text, path)
        .into_iter()
        .filter(|d| d.encoding().is_some_and(|e| e != encoding_rs::UTF_8))
        .map(|d| d.to_utf8())
        .collect();
    if edits.is_empty() {
        return text;
    }
    let fix = Fix::unsafe_("", edits);
    crate::apply_fixes(&text, [&fix]).bytes
}

/// The stretches of `bytes` from `start` to decode, and how many lines
/// are left out of them: a line that is well-formed UTF-8 is kept when its
/// non-ASCII characters read as text in the script of the legacy text
/// ([`reads_as_utf8`]), and converted otherwise (legacy text whose bytes
/// happen to form UTF-8: Russian `Лё` in windows-1251 is UTF-8 `˸`). A line
/// with an ill-formed byte is converted whole. Cut at line ends only, which
/// are character boundaries in every ASCII-compatible encoding.
fn decoded_lines(
    bytes: &[u8],
    start: usize,
    encoding: &'static Encoding,
    errors: Option<&[Range<usize>]>,
) -> (Vec<Range<usize>>, usize) {
    let mut script = None;
    let mut decoded = Vec::new();
    let mut run = start;
    let mut kept = 0;
    let mut keep = |line: Range<usize>| {
        if let Ok(text) = std::str::from_utf8(&bytes[line.clone()])
            && reads_as_utf8(text, *script.get_or_insert_with(|| legacy_script(encoding)))
        {
            if run < line.start {
                decoded.push(run..line.start);
            }
            run = line.end;
            kept += 1;
        }
    };
    match errors {
        Some(errors) => utf8_lines_between(bytes, start, errors, &mut keep),
        None => utf8_lines(bytes, start, &mut keep),
    }
    if run < bytes.len() {
        decoded.push(run..bytes.len());
    }
    (decoded, kept)
}

/// Calls `each` with every line of `bytes` from `start` that holds a
/// non-ASCII byte and is well-formed UTF-8, in order: each line read.
fn utf8_lines(bytes: &[u8], start: usize, mut each: impl FnMut(Range<usize>)) {
    let mut at = start;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        let line = &bytes[at..end];
        if !line.is_ascii() && std::str::from_utf8(line).is_ok() {
            each(at..end);
        }
        at = end;
    }
}

/// What [`utf8_lines`] finds, found from `errors`, the ill-formed
/// stretches of `bytes` (all of them, in order): such a line lies between
/// two stretches, so only the non-ASCII bytes between them are looked at.
/// A legacy file has an error in nearly every non-ASCII line, and finding
/// each line's end there was most of a conversion's cost.
fn utf8_lines_between(
    bytes: &[u8],
    start: usize,
    errors: &[Range<usize>],
    mut each: impl FnMut(Range<usize>),
) {
    // Where the last line looked at ends: a line can span stretches.
    let mut at = start;
    // Between the stretches: from the end of one to the start of the next.
    let mut from = start;
    for i in 0..=errors.len() {
        let to = errors.get(i).map_or(bytes.len(), |e| e.start);
        at = at.max(from);
        while at < to {
            let found = at + Encoding::ascii_valid_up_to(&bytes[at..to]);
            if found == to {
                break;
            }
            // The line's end, unless the next stretch is in the line.
            let end = match memchr::memchr(b'\n', &bytes[found..to]) {
                Some(i) => found + i + 1,
                None if to == bytes.len() => to,
                None => break,
            };
            // The line's start, unless it is before `from`: then the
            // stretch that ends there (never at a line feed, which is
            // ASCII) is in the line.
            let line_start = match memchr::memrchr(b'\n', &bytes[from..found]) {
                Some(i) => Some(from + i + 1),
                None => (from == start).then_some(start),
            };
            if let Some(line_start) = line_start {
                each(line_start..end);
            }
            at = end;
        }
        from = errors.get(i).map_or(to, |e| e.end);
    }
}

/// The script of an encoding's letters: CJK for the multi-byte encodings,
/// else the most common script of the letters its upper half decodes to.
fn legacy_script(encoding: &'static Encoding) -> Script {
    if !encoding.is_single_byte() {
        return Script::Cjk;
    }
    let upper: Vec<u8> = (0x80..=0xFF).collect();
    let text = encoding.decode_without_bom_handling(&upper).0;
    let mut counts: Vec<(Script, usize)> = Vec::new();
    for script in text.chars().filter_map(script_of) {
        match counts.iter_mut().find(|(s, _)| *s == script) {
            Some((_, n)) => *n += 1,
            None => counts.push((script, 1)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .map_or(Script::Other, |(s, _)| s)
}

/// Whether a well-formed line's non-ASCII characters are UTF-8 text in a
/// file whose legacy text is in `script`: letters of that script or
/// typographic punctuation (`’`, `—`, `€`: three-byte forms no 8-bit text
/// makes by accident), and nothing of another script.
fn reads_as_utf8(text: &str, script: Script) -> bool {
    let mut evidence = false;
    for c in text.chars().filter(|c| !c.is_ascii()) {
        match script_of(c) {
            Some(s) if s == script => evidence = true,
            Some(_) => return false,
            None => evidence |= ('\u{2010}'..='\u{20CF}').contains(&c),
        }
    }
    evidence
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A declaration whose reading is text names the file without the
    /// detector being asked, by its family's name; one whose reading is
    /// not text asks it, and its other guess is the rival U009 shows.
    #[test]
    fn the_detector_is_asked_only_against_a_declared_reading_that_is_not_text() {
        let path = Path::new("fr.py");
        let latin = b"# -*- coding: latin-1 -*-\ns = 'fran\xe7ais tr\xe8s \xe2g\xe9 d\xe9j\xe0 \xe9t\xe9'\n";
        let asked = std::cell::Cell::new(0);
        let detect = || {
            asked.set(asked.get() + 1);
            None
        };
        let (verdict, declaration, rival) = weigh(latin, path, detect).unwrap();
        assert_eq!(asked.get(), 0);
        assert_eq!(verdict.name, "ISO-8859-1 or windows-1252");
        assert_eq!(verdict.encoding, encoding_rs::WINDOWS_1252);
        assert!(declaration.is_some() && rival.is_none());

        // Cyrillic declared Latin-1 reads `Ïðèâåò`: not text, so the
        // detector's windows-1251 is asked for and kept as the rival.
        let cyrillic =
            b"# -*- coding: latin-1 -*-\ns = '\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0 \xe8 \xe4\xf0\xf3\xe7\xfc\xff'\n";
        let detect = || {
            asked.set(asked.get() + 1);
            Some(LegacyVerdict {
                encoding: encoding_rs::WINDOWS_1251,
                name: "windows-1251",
                support: Support::Identified,
            })
        };
        let (verdict, _, rival) = weigh(cyrillic, path, detect).unwrap();
        assert_eq!(asked.get(), 1);
        assert_eq!(verdict.encoding, encoding_rs::WINDOWS_1252);
        assert_eq!(rival, Some(encoding_rs::WINDOWS_1251));

        // A declared KOI8-R is named as declared.
        let koi8 = b"# -*- coding: koi8-r -*-\ns = '\xf0\xd2\xc9\xd7\xc5\xd4 \xcd\xc9\xd2'\n";
        let (verdict, _, _) = weigh(koi8, path, || None).unwrap();
        assert_eq!(verdict.name, "KOI8-R");
    }

    /// The conversion's text and title, the same whether the lines are
    /// read one by one or found from the file's ill-formed stretches.
    fn converted(bytes: &[u8], path: &str, encoding: &'static Encoding) -> (String, String) {
        let errors = crate::errors::Errors::of(bytes).ranges;
        let by_lines = conversion(bytes, Path::new(path), encoding, None);
        let by_errors = conversion(bytes, Path::new(path), encoding, Some(&errors));
        assert_eq!(by_lines, by_errors);
        let out = crate::apply_fixes(bytes, [&by_lines]).bytes;
        (String::from_utf8(out).unwrap(), by_lines.title().to_owned())
    }

    fn lines_both_ways(bytes: &[u8], start: usize) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
        let errors = crate::errors::Errors::of(bytes).ranges;
        let (mut read, mut found) = (Vec::new(), Vec::new());
        utf8_lines(bytes, start, |line| read.push(line));
        utf8_lines_between(bytes, start, &errors, |line| found.push(line));
        (read, found)
    }

    #[test]
    fn well_formed_lines_are_found_from_the_errors_as_by_reading_each() {
        let cases: [&[u8]; 8] = [
            b"",
            b"ascii\nonly\n",
            b"caf\xC3\xA9\ncaf\xE9\n\xC3\xA9 first\n",
            b"\xE9 at the start\ncaf\xC3\xA9 then\xE9 both\nd\xC3\xA9j\xC3\xA0",
            b"\xEF\xBB\xBFcaf\xC3\xA9\n\xE9\n",
            b"no newline \xC3\xA9 at all \xE9 here \xC3\xA9",
            b"\n\n\xC3\xA9\n\n\xFF\xFE\n\xD0\xBF\xD1\x80\n",
            b"a\xE9b\xC3\xA9c\xE9\nx\xC3\xA9\ny\xE9",
        ];
        for bytes in cases {
            let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
            let (read, found) = lines_both_ways(bytes, start);
            assert_eq!(read, found, "{bytes:02X?}");
        }
        let (read, _) = lines_both_ways(cases[2], 0);
        assert_eq!(read, [0..6, 11..20]);
    }

    /// What the generated files are made of: ASCII, line ends, a Latin-1
    /// byte, characters in UTF-8, cut ones, a stray continuation, a BOM.
    const PIECES: &[&[u8]] = &[
        b"a",
        b" ",
        b"\n",
        b"\r",
        b"\xE9",
        b"\xC3\xA9",
        b"\xD0\xBF",
        b"\xE2\x80\x94",
        b"\xE2\x80",
        b"\xC3",
        b"\xBF",
        b"\xEF\xBB\xBF",
    ];

    proptest::proptest! {
        #[test]
        fn well_formed_lines_are_found_alike_in_any_bytes(
            pieces in proptest::collection::vec(
                proptest::sample::select(PIECES),
                0..40,
            )
        ) {
            let bytes = pieces.concat();
            let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
            let (read, found) = lines_both_ways(&bytes, start);
            proptest::prop_assert_eq!(read, found);
        }
    }

    #[test]
    fn lines_already_in_utf8_are_kept_and_the_rest_decoded() {
        let mixed = b"caf\xE9 cr\xE8me\ncaf\xC3\xA9 d\xC3\xA9j\xC3\xA0 \xE2\x80\x94 ok\nna\xEFve\n";
        let (text, title) = converted(mixed, "a.txt", encoding_rs::WINDOWS_1252);
        assert_eq!(text, "café crème\ncafé déjà — ok\nnaïve\n");
        assert!(title.contains("the 1 line already in UTF-8"), "{title}");
    }

    /// Legacy text whose bytes form UTF-8 by accident is converted: the
    /// UTF-8 reading is in another script than the file's letters.
    #[test]
    fn legacy_lines_that_happen_to_be_utf8_are_converted() {
        // windows-1251 `Лё` is C8 B8... here `Пё` (CF B8): UTF-8 `ϸ`, Greek.
        let cyrillic = b"\xCF\xB8\n\xEF\xF0\xE8\xE2\xE5\xF2\n";
        let (text, _) = converted(cyrillic, "a.txt", encoding_rs::WINDOWS_1251);
        assert_eq!(text, "Пё\nпривет\n");
        // Real UTF-8 Cyrillic in the same file stays.
        let mixed = "привет\n"
            .as_bytes()
            .iter()
            .chain(b"\xEF\xF0\xE8\xE2\xE5\xF2\n")
            .copied();
        let (text, _) = converted(
            &mixed.collect::<Vec<_>>(),
            "a.txt",
            encoding_rs::WINDOWS_1251,
        );
        assert_eq!(text, "привет\nпривет\n");
    }

    #[test]
    fn a_bom_before_legacy_text_is_removed_and_declarations_rewritten() {
        let xml = b"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>caf\xE9</a>\n";
        let (text, title) = converted(xml, "a.xml", encoding_rs::WINDOWS_1252);
        assert_eq!(
            text,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>café</a>\n"
        );
        assert!(title.contains("the XML declaration say UTF-8"), "{title}");
        assert!(title.contains("byte-order mark"), "{title}");
        let tex = b"\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[latin1]{inputenc}\n\\begin{document}\nd\xE9j\xE0\n\\end{document}\n";
        let (text, _) = converted(tex, "a.tex", encoding_rs::WINDOWS_1252);
        assert!(
            text.contains("\\usepackage[utf8]{inputenc}\n\\begin{document}\ndéjà\n"),
            "{text}"
        );
    }

    #[test]
    fn a_file_converted_whole_gets_its_declarations_rewritten() {
        let text = b"<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a>caf\xC3\xA9</a>\n".to_vec();
        assert_eq!(
            declarations_to_utf8(text, Path::new("a.xml")),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>café</a>\n".as_bytes()
        );
        let html = b"<meta charset=\"utf-8\"><p>x</p>".to_vec();
        assert_eq!(
            declarations_to_utf8(html.clone(), Path::new("a.html")),
            html
        );
    }

    #[test]
    fn every_script_of_the_8_bit_encodings_is_found() {
        for (encoding, script) in [
            (encoding_rs::WINDOWS_1252, Script::Latin),
            (encoding_rs::ISO_8859_2, Script::Latin),
            (encoding_rs::WINDOWS_1251, Script::Cyrillic),
            (encoding_rs::X_MAC_CYRILLIC, Script::Cyrillic),
            (encoding_rs::KOI8_U, Script::Cyrillic),
            (encoding_rs::ISO_8859_7, Script::Greek),
            (encoding_rs::WINDOWS_1255, Script::Hebrew),
            (encoding_rs::ISO_8859_6, Script::Arabic),
            (encoding_rs::WINDOWS_874, Script::Thai),
            (encoding_rs::SHIFT_JIS, Script::Cjk),
        ] {
            assert_eq!(legacy_script(encoding), script, "{}", encoding.name());
        }
    }
}
