//! Declarations that say nothing (U009): a gettext header still naming its
//! template placeholder `CHARSET` over translations, a misspelt name
//! (`uft8`), a name no decoder knows, and a whole HTML page with UTF-8 text
//! and no declaration (windows-1252 to a browser). Each is found once and
//! fixed to declare UTF-8 where the bytes are UTF-8; the consumer reads the
//! fixed file cleanly: `msgfmt -c` stops warning, Python's `html.parser`
//! finds the `<meta>` and reads the same text. A consumer missing from the
//! machine is skipped with a note.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use utf8lint_diagnostics::{CheckOptions, Diagnostic, Policy, Rule, apply_fixes, check};

fn mismatches(bytes: &[u8], path: &str) -> Vec<Diagnostic> {
    check(
        bytes,
        CheckOptions::new(Path::new(path), &Policy::default()),
    )
    .into_iter()
    .filter(|d| d.rule == Rule::CharsetMismatch)
    .collect()
}

/// The one U009 finding's fix applied, and the file checked again: clean.
fn fixed(bytes: &[u8], path: &str) -> Vec<u8> {
    let ds = mismatches(bytes, path);
    assert_eq!(ds.len(), 1, "{path}: {ds:#?}");
    let fix = ds[0]
        .fix
        .as_ref()
        .unwrap_or_else(|| panic!("{path}: no fix"));
    let out = apply_fixes(bytes, [fix]).bytes;
    assert_eq!(mismatches(&out, path), vec![], "{path}: one run settles it");
    out
}

/// `program` run on `bytes` written to a file named `name` in a fresh
/// directory (removed after), or `None` when the program is missing.
fn run_on(program: &str, args: &[&str], name: &str, bytes: &[u8]) -> Option<Output> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "utf8lint-empty-declarations-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, bytes).unwrap();
    let ran = Command::new(program).args(args).arg(&file).output();
    std::fs::remove_dir_all(&dir).unwrap();
    ran.ok()
}

fn catalogue(charset: &str) -> String {
    format!(
        "msgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: demo 1.0\\n\"\n\"Language: fr\\n\"\n\"MIME-Version: 1.0\\n\"\n\"Content-Type: text/plain; charset={charset}\\n\"\n\"Content-Transfer-Encoding: 8bit\\n\"\n\nmsgid \"Open file\"\nmsgstr \"Ouvrir le fichier déjà créé\"\n"
    )
}

/// `msgfmt -c`'s complaints about the charset, or `None` without msgfmt.
fn msgfmt_charset_warnings(bytes: &[u8]) -> Option<Vec<String>> {
    let out = run_on("msgfmt", &["-c", "-o", "/dev/null"], "fr.po", bytes)?;
    Some(
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains("charset") || l.contains("portable encoding"))
            .map(str::to_owned)
            .collect(),
    )
}

#[test]
fn a_catalogue_declaring_the_placeholder_or_a_misspelling_is_fixed_to_utf8() {
    for (charset, message) in [
        ("CHARSET", "still gettext's placeholder `CHARSET`"),
        (
            "uft8",
            "says `uft8`, which names no encoding: a misspelling of UTF-8",
        ),
        (
            "no-such-encoding",
            "says `no-such-encoding`, a name utf8lint knows no decoder for, over well-formed UTF-8 text",
        ),
    ] {
        let po = catalogue(charset);
        let ds = mismatches(po.as_bytes(), "fr.po");
        assert_eq!(ds.len(), 1, "{charset}: {ds:#?}");
        assert!(ds[0].message.contains(message), "{}", ds[0].message);
        let after = fixed(po.as_bytes(), "fr.po");
        // In the case the name was written in: `UTF-8` for `CHARSET`.
        let utf8 = if charset == "CHARSET" {
            "UTF-8"
        } else {
            "utf-8"
        };
        assert_eq!(String::from_utf8(after.clone()).unwrap(), catalogue(utf8));
        match (
            msgfmt_charset_warnings(po.as_bytes()),
            msgfmt_charset_warnings(&after),
        ) {
            (Some(before), Some(after)) => {
                assert!(!before.is_empty(), "msgfmt says nothing about {charset}");
                assert_eq!(after, Vec::<String>::new(), "{charset}");
            }
            _ => eprintln!("msgfmt is not installed: the catalogue is not compiled"),
        }
    }
}

#[test]
fn a_template_with_its_placeholder_and_no_translations_is_left_alone() {
    let pot = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=CHARSET\\n\"\n\nmsgid \"Open file\"\nmsgstr \"\"\n";
    assert_eq!(mismatches(pot.as_bytes(), "demo.pot"), vec![]);
    // A misspelling is one even over ASCII (msgfmt warns about it), and
    // ASCII is UTF-8.
    let ascii = pot.replace("CHARSET", "uft8");
    assert_eq!(
        fixed(ascii.as_bytes(), "demo.pot"),
        pot.replace("CHARSET", "utf-8").as_bytes()
    );
}

/// An encoding this crate cannot decode (a DOS code page in a LaTeX test,
/// Vim's `cp932`) over legacy bytes is probably right: not U009's.
#[test]
fn a_real_encoding_without_a_decoder_over_legacy_bytes_is_left_to_u005() {
    let tex = b"\\documentclass{article}\n\\usepackage[cp850]{inputenc}\n\\begin{document}\n\x82t\x82\n\\end{document}\n";
    assert_eq!(mismatches(tex, "enc_cp850.tex"), vec![]);
    let vim = b"scriptencoding cp932\nlet s = '\x82\xa0'\n";
    assert_eq!(mismatches(vim, "menu.vim"), vec![]);
}

#[test]
fn a_misspelt_name_in_other_declarations_is_found() {
    let xml = "<?xml version=\"1.0\" encoding=\"UTF8-X\"?>\n<a>déjà</a>\n";
    let after = fixed(xml.as_bytes(), "a.xml");
    assert_eq!(
        after,
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>d\xC3\xA9j\xC3\xA0</a>\n"
    );
    let meta = "<html><head><meta charset=\"utf-9\"><title>Café</title></head></html>\n";
    assert!(
        String::from_utf8(fixed(meta.as_bytes(), "a.html"))
            .unwrap()
            .contains("<meta charset=\"utf-8\">")
    );
}

/// The text Python's `html.parser` reads in a page, decoded as its first
/// `<meta charset>` says, or as windows-1252 (HTML's default) without one,
/// and the charset it used.
const HTML_READER: &str = r#"
import sys, html.parser, codecs
raw = open(sys.argv[1], 'rb').read()
class Meta(html.parser.HTMLParser):
    charset = None
    def handle_starttag(self, tag, attrs):
        if tag == 'meta' and not self.charset:
            self.charset = dict(attrs).get('charset')
meta = Meta()
meta.feed(raw.decode('latin-1'))
codec = codecs.lookup(meta.charset or 'windows-1252').name
class Text(html.parser.HTMLParser):
    parts = []
    def handle_data(self, data):
        self.parts.append(data)
text = Text()
text.feed(raw.decode(codec))
sys.stdout.buffer.write((codec + '|' + ''.join(text.parts)).encode('utf-8'))
"#;

fn html_reading(bytes: &[u8]) -> Option<String> {
    let out = run_on("python3", &["-c", HTML_READER], "page.html", bytes)
        .filter(|o| o.status.success())?;
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn an_html_page_without_a_declaration_gets_a_meta_after_its_head() {
    let page = "<!DOCTYPE html>\n<html lang=\"fr\">\n<head>\n<title>Accueil</title>\n</head>\n<body><p>Bienvenue à la bibliothèque</p></body>\n</html>\n";
    let ds = mismatches(page.as_bytes(), "index.html");
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert!(
        ds[0].message.contains("browsers read it as windows-1252"),
        "{}",
        ds[0].message
    );
    let after = fixed(page.as_bytes(), "index.html");
    assert_eq!(
        String::from_utf8(after.clone()).unwrap(),
        page.replace("<head>", "<head><meta charset=\"utf-8\">")
    );
    match (html_reading(page.as_bytes()), html_reading(&after)) {
        (Some(before), Some(after)) => {
            assert!(before.starts_with("cp1252|"), "{before}");
            // `à` read as windows-1252: `Ã` and a no-break space.
            assert!(before.contains("Bienvenue \u{C3}\u{A0} la"), "{before}");
            assert!(after.starts_with("utf-8|"), "{after}");
            assert!(after.contains("Bienvenue à la bibliothèque"), "{after}");
        }
        _ => eprintln!("python3 is not installed: the page is not parsed"),
    }
    // With attributes on `<head>`, after its `>`.
    let attrs = page.replace("<head>", "<head profile=\"x\">");
    assert!(
        String::from_utf8(fixed(attrs.as_bytes(), "index.html"))
            .unwrap()
            .contains("<head profile=\"x\"><meta charset=\"utf-8\">")
    );
    // No `<head>`: after the doctype, which HTML's prescan reads the same.
    let headless = "<!DOCTYPE html>\n<title>Accueil</title>\n<p>Bienvenue à la bibliothèque</p>\n";
    let ds = mismatches(headless.as_bytes(), "index.html");
    assert_eq!(ds.len(), 1);
    assert_eq!(
        String::from_utf8(fixed(headless.as_bytes(), "index.html")).unwrap(),
        headless.replace("<!DOCTYPE html>", "<!DOCTYPE html><meta charset=\"utf-8\">")
    );
}

#[test]
fn what_declares_utf8_otherwise_is_left_alone() {
    let page = "<html><head><title>Café</title></head></html>\n";
    // A BOM declares UTF-8.
    let bom = [b"\xEF\xBB\xBF".as_slice(), page.as_bytes()].concat();
    assert_eq!(mismatches(&bom, "a.html"), vec![]);
    // ASCII reads the same in both.
    assert_eq!(
        mismatches(b"<html><head></head></html>\n", "a.html"),
        vec![]
    );
    // A fragment a template includes, and XHTML (XML's default is UTF-8).
    assert_eq!(
        mismatches("<p>Café</p>\n".as_bytes(), "partial.html"),
        vec![]
    );
    assert_eq!(mismatches(page.as_bytes(), "a.xhtml"), vec![]);
    let xhtml = format!("<?xml version=\"1.0\"?>\n{page}");
    assert_eq!(mismatches(xhtml.as_bytes(), "a.html"), vec![]);
    // XML without a declaration is UTF-8 by default.
    assert_eq!(mismatches("<a>déjà</a>\n".as_bytes(), "a.xml"), vec![]);
    // A charset further on (a template's variable, a late `<meta>`).
    let late = page.replace("</head>", "<meta charset=\"{{ charset }}\"></head>");
    assert_eq!(mismatches(late.as_bytes(), "a.html"), vec![]);
}
