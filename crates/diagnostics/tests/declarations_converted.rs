//! A legacy file's declarations, wherever its format puts them and whatever
//! its name, are rewritten by U005's conversion: content-negotiated pages
//! (`index.html.de`, `index.html.ko`; one whose name declares a charset, `index.html.ko.euc-kr`, is not converted), HTML under any name, POD's `=encoding` in Perl
//! sources, inputenc in every TeX source kind, and XML declarations in
//! XML-based formats of any extension. After the conversion the next check
//! is clean, and the file's consumer reads the same text as before:
//! `xmllint` (well-formed, and the same canonical form), Python's
//! `html.parser` following the page's `<meta>`, `podchecker` and
//! `pod2text`. A consumer missing from the machine is skipped with a note.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use encoding_rs::Encoding;
use utf8lint_diagnostics::{CheckOptions, Policy, Rule, apply_fixes, check};

/// The file converted by its U005 fix, after asserting that the fix
/// converts from `encoding` and that the converted file has no U001, U005
/// or U009 left.
fn converted(bytes: &[u8], path: &str, encoding: &'static Encoding) -> Vec<u8> {
    let found = check(
        bytes,
        CheckOptions::new(Path::new(path), &Policy::default()),
    );
    let d = found
        .iter()
        .find(|d| d.rule == Rule::NotUtf8)
        .unwrap_or_else(|| panic!("{path}: no U005 in {found:#?}"));
    let fix = d.fix.as_ref().unwrap_or_else(|| panic!("{path}: no fix"));
    assert_eq!(fix.transcoded_from(), Some(encoding.name()), "{path}");
    let fixed = apply_fixes(bytes, [fix]).bytes;
    let again = check(
        &fixed,
        CheckOptions::new(Path::new(path), &Policy::default()),
    );
    assert!(
        again.iter().all(|d| !matches!(
            d.rule,
            Rule::InvalidUtf8 | Rule::NotUtf8 | Rule::CharsetMismatch
        )),
        "{path}: {again:#?}"
    );
    fixed
}

/// `text` encoded in `encoding`, every character of it mappable.
fn encoded(text: &str, encoding: &'static Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{}", encoding.name());
    bytes.into_owned()
}

/// What `program args... file` prints for `bytes` written to a file named
/// `name`, or None when the program is not installed. Fails when it runs
/// and reports an error.
fn consumer(program: &str, args: &[&str], name: &str, bytes: &[u8]) -> Option<String> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "utf8lint-declarations-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name.rsplit('/').next().unwrap());
    std::fs::write(&file, bytes).unwrap();
    let ran = Command::new(program).args(args).arg(&file).output();
    std::fs::remove_dir_all(&dir).unwrap();
    let out = match ran {
        Ok(out) => out,
        Err(_) => {
            eprintln!("{program} is not installed: its reading of {name} is not compared");
            return None;
        }
    };
    assert!(
        out.status.success(),
        "{program} {args:?} {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("the consumer prints UTF-8"))
}

/// The text Python's `html.parser` reads in a page decoded as its
/// `<meta>` says (the first charset the parser finds in a `<meta>`, as a
/// browser's prescan takes it), with the charset it followed.
const HTML_READER: &str = r#"
import sys, html.parser, re, codecs
raw = open(sys.argv[1], 'rb').read()
class Meta(html.parser.HTMLParser):
    charset = None
    def handle_starttag(self, tag, attrs):
        if tag != 'meta' or self.charset:
            return
        attrs = dict(attrs)
        found = attrs.get('charset') or (re.search(r'charset=([-\w.:]+)', attrs.get('content') or '') or [None, None])[1]
        if found:
            self.charset = found
meta = Meta()
meta.feed(raw.decode('latin-1'))
codec = codecs.lookup(meta.charset).name
class Text(html.parser.HTMLParser):
    parts = []
    def handle_data(self, data):
        self.parts.append(data)
text = Text()
text.feed(raw.decode(codec))
sys.stdout.write(''.join(text.parts))
"#;

/// The text of a page as [`HTML_READER`] reads it.
fn html_text(name: &str, bytes: &[u8]) -> Option<String> {
    consumer("python3", &["-c", HTML_READER], name, bytes)
}

#[test]
fn content_negotiated_pages_have_their_meta_rewritten() {
    let korean = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x\">\n<html><head>\n<meta content=\"text/html; charset=EUC-KR\" http-equiv=\"Content-Type\" />\n<title>아파치 HTTP 서버 문서</title>\n</head><body><p>이 문서는 아파치 웹서버의 설치와 설정에 대한 안내서입니다. 모듈과 지시어를 설명합니다.</p></body></html>\n";
    let german = "<html><head><meta charset=\"ISO-8859-1\"><title>Übersicht</title></head>\n<body><p>Diese Übersetzung enthält die wichtigsten Anweisungen für Größe und Schlüssel.</p></body></html>\n";
    for (name, text, encoding, want) in [
        (
            "index.html.ko",
            korean,
            encoding_rs::EUC_KR,
            "charset=UTF-8",
        ),
        (
            "index.html.de",
            german,
            encoding_rs::WINDOWS_1252,
            "charset=\"UTF-8\"",
        ),
        // A page whose name says nothing: its content says HTML.
        (
            "welcome",
            german,
            encoding_rs::WINDOWS_1252,
            "charset=\"UTF-8\"",
        ),
    ] {
        let bytes = encoded(text, encoding);
        let fixed = converted(&bytes, name, encoding);
        let fixed_text = String::from_utf8(fixed.clone()).unwrap();
        assert!(fixed_text.contains(want), "{name}: {fixed_text}");
        assert!(fixed_text.contains("Übersetzung") || fixed_text.contains("아파치"));
        if let (Some(before), Some(after)) = (html_text(name, &bytes), html_text(name, &fixed)) {
            assert_eq!(before, after, "{name}");
            assert!(
                after.contains("Größe") || after.contains("아파치"),
                "{after}"
            );
        }
    }
}

/// A page whose name declares its charset (`.euc-kr`, which Apache's
/// `AddCharset` and the type maps send as the page's charset) is not
/// converted: the converted bytes would be served as EUC-KR. U005 says to
/// convert and rename it.
#[test]
fn a_page_whose_name_declares_its_charset_is_not_converted() {
    let korean = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=EUC-KR\"></head><body><p>이 문서는 아파치 웹서버의 설치와 설정에 대한 안내서입니다. 모듈과 지시어를 설명합니다.</p></body></html>\n";
    let bytes = encoded(korean, encoding_rs::EUC_KR);
    let name = "manual/index.html.ko.euc-kr";
    let found = check(
        &bytes,
        CheckOptions::new(Path::new(name), &Policy::default()),
    );
    let d = found
        .iter()
        .find(|d| d.rule == Rule::NotUtf8)
        .unwrap_or_else(|| panic!("{name}: no U005 in {found:#?}"));
    assert!(d.fix.is_none(), "{name}: {:?}", d.fix);
    assert!(
        d.help
            .iter()
            .any(|h| h.contains("`.euc-kr`") && h.contains("rename")),
        "{:?}",
        d.help
    );
    assert!(found.iter().all(|d| d.fix.is_none()), "{found:#?}");
}

#[test]
fn xml_declarations_are_rewritten_whatever_the_extension() {
    let svg = "<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><title>Příliš žluťoučký kůň</title><text>úpěl ďábelské ódy, zatímco děti čekaly</text></svg>\n";
    let qt = "<?xml version=\"1.0\" encoding=\"windows-1250\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" language=\"pl\"><context><name>Main</name><message><source>Open file</source><translation>Otwórz plik, zażółć gęślą jaźń</translation></message><message><source>Quit</source><translation>Zakończ pracę</translation></message></context></TS>\n";
    let plist = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist version=\"1.0\"><dict><key>Name</key><string>Café crème brûlée, déjà vu</string><key>Copyright</key><string>© Société Générale à Genève</string></dict></plist>\n";
    for (name, text, encoding) in [
        ("icon.svg", svg, encoding_rs::ISO_8859_2),
        ("app_pl.ts", qt, encoding_rs::WINDOWS_1250),
        ("Info", plist, encoding_rs::WINDOWS_1252),
        ("style.xsl.in", plist, encoding_rs::WINDOWS_1252),
    ] {
        let bytes = encoded(text, encoding);
        let fixed = converted(&bytes, name, encoding);
        let fixed_text = String::from_utf8(fixed.clone()).unwrap();
        assert!(
            fixed_text
                .to_ascii_lowercase()
                .starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>"),
            "{name}: {fixed_text}"
        );
        // The name's case is kept: `utf-8` for `windows-1250`.
        let readable = text
            .replace("windows-1250", "utf-8")
            .replace("ISO-8859-2", "UTF-8");
        let readable = readable.replace("ISO-8859-1", "UTF-8");
        assert_eq!(fixed_text, readable, "{name}");
        let canonical = |bytes: &[u8]| consumer("xmllint", &["--c14n"], name, bytes);
        if let (Some(before), Some(after)) = (canonical(&bytes), canonical(&fixed)) {
            assert_eq!(before, after, "{name}");
        }
    }
}

#[test]
fn pod_encoding_commands_are_rewritten() {
    let module = "package Acme::Grüße;\nuse strict;\n1;\n__END__\n\n=encoding iso-8859-1\n\n=head1 NAME\n\nAcme::Grüße - schöne Grüße für alle, die größere Bücher lesen\n\n=head1 DESCRIPTION\n\nDiese Übersetzung enthält Umlaute: äöü ÄÖÜ ß, und Akzente: café, crème.\n\n=cut\n";
    // (A test script, `.t`, is test data: its strings get no fix.)
    for name in ["Grüsse.pm", "Grüsse.pod", "grüsse.pl", "Makefile.PL"] {
        let bytes = encoded(module, encoding_rs::WINDOWS_1252);
        let fixed = converted(&bytes, name, encoding_rs::WINDOWS_1252);
        let fixed_text = String::from_utf8(fixed.clone()).unwrap();
        assert_eq!(fixed_text, module.replace("iso-8859-1", "utf-8"), "{name}");
        let text = |bytes: &[u8]| consumer("pod2text", &["--utf8"], "a.pod", bytes);
        if let (Some(before), Some(after)) = (text(&bytes), text(&fixed)) {
            assert_eq!(before, after, "{name}");
            assert!(after.contains("schöne Grüße"), "{after}");
        }
        for pod in [&bytes, &fixed] {
            consumer("podchecker", &[], "a.pod", pod);
        }
    }
    // A Perl script named by its `#!` line.
    let script = "#!/usr/bin/perl\nprint \"ok\\n\";\n\n=encoding latin1\n\n=head1 NAME\n\nwerkzeug - prüft Größe und Länge der Einträge, schön\n\n=cut\n";
    let bytes = encoded(script, encoding_rs::WINDOWS_1252);
    let fixed = converted(&bytes, "bin/werkzeug", encoding_rs::WINDOWS_1252);
    assert_eq!(
        String::from_utf8(fixed).unwrap(),
        script.replace("=encoding latin1", "=encoding utf-8")
    );
}

#[test]
fn inputenc_is_rewritten_in_every_tex_source_kind() {
    let package = "\\NeedsTeXFormat{LaTeX2e}\n\\ProvidesPackage{abc}\n\\RequirePackage[latin1]{inputenc}\n% Übersetzung der Bezeichnungen: Größe, Länge, Schlüssel\n\\newcommand{\\abcname}{Größe der Übersicht für Bücher}\n";
    let document = "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[latin1]{inputenc}\n\\begin{document}\nÉtude: la crème brûlée, déjà vue à Genève, coûte très cher.\n\\end{document}\n";
    for (name, text) in [
        ("abc.sty", package),
        ("abc.cls", package),
        ("abc.dtx", document),
        ("abc.ins", package),
        ("testfiles/abc.lvt", document),
        ("abc.ltx", document),
        ("abc.tex", document),
    ] {
        let bytes = encoded(text, encoding_rs::WINDOWS_1252);
        let fixed = converted(&bytes, name, encoding_rs::WINDOWS_1252);
        // TeX reads bytes: the converted file is the text in UTF-8 with
        // inputenc told so, byte for byte.
        assert_eq!(
            fixed,
            text.replace("[latin1]{inputenc}", "[utf8]{inputenc}")
                .as_bytes(),
            "{name}"
        );
    }
}

/// U009 reads the declarations the conversion rewrites: a UTF-8 file that
/// still declares a legacy encoding, in each place found by name or by
/// content, is reported with the fix that makes it say UTF-8, and that fix
/// settles it.
#[test]
fn a_legacy_declaration_left_in_utf8_is_reported_in_every_such_place() {
    let text = "Größe, Länge, Schlüssel: schöne Grüße für Bücher";
    for (name, file, declared) in [
        (
            "index.html.ko",
            format!("<html><head><meta charset=\"EUC-KR\"></head><body>{text}</body></html>\n"),
            "EUC-KR",
        ),
        (
            "page",
            format!("<!DOCTYPE html>\n<meta charset=\"iso-8859-1\">\n<p>{text}</p>\n"),
            "iso-8859-1",
        ),
        (
            "Foo.pm",
            format!("package Foo;\n1;\n__END__\n\n=encoding latin1\n\n=head1 NAME\n\n{text}\n"),
            "latin1",
        ),
        (
            "abc.dtx",
            format!("\\usepackage[latin1]{{inputenc}}\n% {text}\n"),
            "latin1",
        ),
        (
            "icon.svg",
            format!(
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<svg><title>{text}</title></svg>\n"
            ),
            "ISO-8859-1",
        ),
    ] {
        let bytes = file.as_bytes();
        let found = check(
            bytes,
            CheckOptions::new(Path::new(name), &Policy::default()),
        );
        let d = found
            .iter()
            .find(|d| d.rule == Rule::CharsetMismatch)
            .unwrap_or_else(|| panic!("{name}: no U009 in {found:#?}"));
        assert_eq!(&bytes[d.span.clone()], declared.as_bytes(), "{name}");
        let fix = d.fix.as_ref().unwrap_or_else(|| panic!("{name}: no fix"));
        let fixed = apply_fixes(bytes, [fix]).bytes;
        let again = check(
            &fixed,
            CheckOptions::new(Path::new(name), &Policy::default()),
        );
        assert!(
            again.iter().all(|d| d.rule != Rule::CharsetMismatch),
            "{name}: {again:#?}"
        );
    }
}

/// Texinfo's `@documentencoding`, Vim's `scriptencoding`, and Emacs lines
/// whose coding follows another `-*-` block or is one of Emacs's own names
/// (`hebrew-iso-8bit`) are rewritten with the text, byte for byte.
#[test]
fn texinfo_vim_and_emacs_declarations_are_rewritten() {
    let texi = "\\input texinfo   @c -*-texinfo-*-   -*- coding: latin-1 -*-\n@documentencoding ISO-8859-1\n@setfilename recode.info\n@settitle Recode\n@node Top\n@top Recode\n\nCe programme convertit les fichiers: très rapide, déjà prêt, à côté.\n@bye\n";
    let keymap = "\" Vim Keymap file for Canadian French\nscriptencoding latin1\nlet b:keymap_name = \"canfr\"\nloadkeymap\n'a\tà\n'e\té\n`e\tè\n^o\tô\n,c\tç\n\"u\tü\n";
    let catalogue = "# Hebrew messages          -*- coding: hebrew-iso-8bit -*-\nmsgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=ISO-8859-8\\n\"\n\nmsgid \"File\"\nmsgstr \"קובץ\"\n\nmsgid \"Open the file for reading\"\nmsgstr \"פתח את הקובץ לקריאה\"\n";
    for (name, text, encoding, want) in [
        (
            "doc/recode.texi",
            texi,
            encoding_rs::WINDOWS_1252,
            texi.replace("coding: latin-1", "coding: utf-8")
                .replace("@documentencoding ISO-8859-1", "@documentencoding UTF-8"),
        ),
        (
            "keymap/canfr-win.vim",
            keymap,
            encoding_rs::WINDOWS_1252,
            keymap.replace("scriptencoding latin1", "scriptencoding utf-8"),
        ),
        (
            "po/he.po",
            catalogue,
            encoding_rs::ISO_8859_8,
            catalogue
                .replace("hebrew-iso-8bit", "utf-8")
                .replace("charset=ISO-8859-8", "charset=UTF-8"),
        ),
    ] {
        let bytes = encoded(text, encoding);
        let fixed = converted(&bytes, name, encoding);
        assert_eq!(String::from_utf8(fixed.clone()).unwrap(), want, "{name}");
    }
}
