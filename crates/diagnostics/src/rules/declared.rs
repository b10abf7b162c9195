//! Declarations of a file's encoding inside the file, read where each
//! format allows them and nowhere else (U009 checks them against the bytes,
//! U005's conversion rewrites them: both read [`declarations`]). A file's
//! format is the last of its extensions that names one (`index.html.de`,
//! `index.html.ko.euc-kr`, `setup.py.in`), or its content:
//!
//! * XML: the declaration's `encoding="..."`, only at byte 0 (after a BOM),
//!   in any file whatever its name (`.svg`, `.xsl`, `.plist`, Qt's `.ts`);
//! * HTML (`.html`, `.htm`, `.xhtml`, `.shtml`, or a file that opens with
//!   `<!DOCTYPE html` or `<html`): `<meta charset="...">` or
//!   `<meta http-equiv="Content-Type" content="...; charset=...">` in the
//!   first 1024 bytes, the encoding sniffing prescan's window;
//! * CSS (`.css`, `.scss`, `.less`): `@charset "...";` exactly, at byte 0;
//! * Python (`.py`, `.pyw`, `.pyi`, a `#!...python` line): the PEP 263
//!   cookie on line 1 or 2;
//! * Ruby (`.rb`, `.rake`, `.gemspec`, a `#!...ruby` line): the magic
//!   comment (`# encoding: NAME`, `# -*- coding: NAME -*-`) on line 1, or
//!   line 2 after a `#!` line, read as Ruby reads it;
//! * Perl and POD (`.pl`, `.pm`, `.pod`, `.t`, a `#!...perl` line): the
//!   first line that starts with `=encoding NAME`;
//! * gettext catalogues (`.po`, `.pot`): the header entry's
//!   `"Content-Type: text/plain; charset=NAME\n"`, in the `msgstr` of the
//!   first entry when its `msgid` is empty (msgfmt reads nothing else);
//! * TeX sources (`.tex`, `.sty`, `.cls`, `.ltx`, `.dtx`, `.ins`, `.lvt`,
//!   `.bib`, ...): the last option of the first `\usepackage[...]{inputenc}`
//!   or `\RequirePackage[...]{inputenc}` (inputenc's own names: `latin1`,
//!   `latin9`, `ansinew`, `applemac`, `cp1250`, ...);
//! * Texinfo (`.texi`, `.texinfo`, `.txi`): `@documentencoding NAME`;
//! * Vim scripts (`.vim`, `.vimrc`, `_vimrc`, ...): `scriptencoding NAME`;
//! * any other text: an Emacs `-*- coding: ... -*-` between the first and
//!   last `-*-` of line 1 (line 2 after a `#!` line; Emacs's own names,
//!   `hebrew-iso-8bit`, are known), and a Vim modeline (`vim: set fileencoding=...:`,
//!   `fenc=`) in the first or last 5 lines, Vim's `modelines` default.
//!
//! Mail (`Content-Type` headers of each MIME part) and HTTP headers are not
//! read: a message's parts may each have their own charset.

use std::ops::Range;
use std::path::Path;

use encoding_rs::Encoding;

use super::charset_names::{self, Charset};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A search with its finder built once (`find!`).
type Search = fn(&[u8]) -> Option<usize>;

/// `memchr::memmem::find(haystack, needle)`, the needle's finder built once
/// per call site: `find` builds one per call (its vectors and hash) for a
/// haystack of 64 bytes or more, and declarations are looked for in every
/// file a scan checks (building finders took 1% of a whole-tree scan).
macro_rules! find {
    ($haystack:expr, $needle:literal) => {{
        static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new($needle));
        FINDER.find($haystack)
    }};
}

/// The syntax a declaration is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    Xml,
    HtmlMeta,
    Css,
    PythonCookie,
    RubyMagic,
    PoHeader,
    LatexInputenc,
    PodEncoding,
    TexinfoEncoding,
    VimScriptencoding,
    Emacs,
    Vim,
}

impl Syntax {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Syntax::Xml => "the XML declaration",
            Syntax::HtmlMeta => "the HTML `<meta>` charset",
            Syntax::Css => "the CSS `@charset` rule",
            Syntax::PythonCookie => "the PEP 263 coding cookie",
            Syntax::RubyMagic => "the Ruby magic encoding comment",
            Syntax::PoHeader => "the gettext header's `Content-Type` charset",
            Syntax::LatexInputenc => "the LaTeX `inputenc` option",
            Syntax::PodEncoding => "the POD `=encoding` command",
            Syntax::TexinfoEncoding => "the Texinfo `@documentencoding` command",
            Syntax::VimScriptencoding => "the Vim script's `scriptencoding` command",
            Syntax::Emacs => "the Emacs `coding:` line",
            Syntax::Vim => "the Vim modeline's `fileencoding`",
        }
    }

    /// The name that declares UTF-8 in this syntax, in the case `written`
    /// (the name it replaces) uses: `utf8` for LaTeX, whose inputenc knows
    /// no other spelling; `UTF-8` or `utf-8` elsewhere.
    pub(crate) fn utf8_name(self, written: &str) -> &'static str {
        if self == Syntax::LatexInputenc {
            "utf8"
        } else if written.bytes().any(|b| b.is_ascii_uppercase()) {
            "UTF-8"
        } else {
            "utf-8"
        }
    }
}

/// One declaration: its syntax, the name as written and where the name is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Declaration<'a> {
    pub syntax: Syntax,
    pub name: &'a str,
    /// The name's bytes in the file.
    pub at: Range<usize>,
}

impl Declaration<'_> {
    /// The encoding the name stands for, if utf8lint knows it.
    pub(crate) fn encoding(&self) -> Option<&'static Encoding> {
        match self.syntax {
            Syntax::LatexInputenc => resolve_inputenc(self.name),
            _ => resolve(self.name),
        }
    }

    /// The usual name of the charset declared, when it is one the decoder
    /// cannot read (`IBM855`, `cp850`): declared but not supported here.
    pub(crate) fn unsupported(&self) -> Option<&'static str> {
        match charset_names::lookup(self.name)? {
            Charset::Unsupported(usual) if self.encoding().is_none() => Some(usual),
            _ => None,
        }
    }

    /// The edit that makes this declaration say UTF-8.
    pub(crate) fn to_utf8(&self) -> crate::Edit {
        crate::Edit::replace(
            self.at.clone(),
            self.syntax.utf8_name(self.name).as_bytes().to_vec(),
        )
    }
}

/// The encoding an inputenc option stands for: LaTeX's own names first
/// (`latin9` is ISO-8859-15, `ansinew` windows-1252, `applemac` Mac Roman,
/// `utf8x` the `ucs` package's UTF-8), then the general ones.
fn resolve_inputenc(name: &str) -> Option<&'static Encoding> {
    let spelled = match name.trim().to_ascii_lowercase().as_str() {
        "utf8x" => "utf-8",
        "latin9" => "iso-8859-15",
        "latin10" => "iso-8859-16",
        "ansinew" => "windows-1252",
        "applemac" => "macintosh",
        "koi8-ru" => "koi8-u",
        _ => return resolve(name),
    };
    Encoding::for_label(spelled.as_bytes())
}

/// The encoding a declared name stands for: WHATWG's labels (what browsers
/// accept: `latin1` is windows-1252), then the spellings Python, Emacs and
/// Vim accept (`latin-1`, `iso8859-15`, `utf-8-unix`, `utf8`, `cp1252`).
pub(crate) fn resolve(name: &str) -> Option<&'static Encoding> {
    let lower = name.trim().to_ascii_lowercase().replace('_', "-");
    // Emacs's end-of-line suffixes and Python's signature variant.
    let base = ["-unix", "-dos", "-mac", "-sig"]
        .iter()
        .find_map(|suffix| lower.strip_suffix(suffix))
        .unwrap_or(&lower);
    let spelled = match base {
        "latin-1" | "latin1" | "l1" => "iso-8859-1",
        "utf8" | "u8" => "utf-8",
        _ => emacs_coding_system(base).unwrap_or(base),
    };
    Encoding::for_label(spelled.as_bytes())
        .or_else(|| {
            // `iso8859-2`, `iso88592`: ISO's names without the first hyphen.
            let iso = spelled.strip_prefix("iso8859")?;
            let number = iso.trim_start_matches('-');
            Encoding::for_label(format!("iso-8859-{number}").as_bytes())
        })
        // IANA's, Python's, glibc's and Java's names (`MacCyrillic`).
        .or_else(|| match charset_names::lookup(base)? {
            Charset::Decoded(encoding) => Some(encoding),
            Charset::Unsupported(_) => None,
        })
}

/// The WHATWG label of an Emacs coding system's name (`hebrew-iso-8bit`,
/// `iso-latin-2`, `euc-japan`), for the names Emacs has of its own.
fn emacs_coding_system(name: &str) -> Option<&'static str> {
    Some(match name {
        "iso-latin-1" => "iso-8859-1",
        "iso-latin-2" | "latin-2" => "iso-8859-2",
        "iso-latin-3" | "latin-3" => "iso-8859-3",
        "iso-latin-4" | "latin-4" => "iso-8859-4",
        "iso-latin-5" | "latin-5" => "iso-8859-9",
        "iso-latin-6" | "latin-6" => "iso-8859-10",
        "iso-latin-7" | "latin-7" => "iso-8859-13",
        "iso-latin-8" | "latin-8" => "iso-8859-14",
        "iso-latin-9" | "latin-9" | "latin-0" => "iso-8859-15",
        "iso-latin-10" | "latin-10" => "iso-8859-16",
        "cyrillic-iso-8bit" => "iso-8859-5",
        "arabic-iso-8bit" => "iso-8859-6",
        "greek-iso-8bit" => "iso-8859-7",
        "hebrew-iso-8bit" => "iso-8859-8",
        "cyrillic-koi8" => "koi8-r",
        "cyrillic-alternativnyj" => "ibm866",
        "thai-tis620" => "tis-620",
        "japanese-iso-8bit" | "euc-japan" => "euc-jp",
        "japanese-shift-jis" => "shift_jis",
        "korean-iso-8bit" | "euc-korea" => "euc-kr",
        "chinese-iso-8bit" | "euc-china" | "cn-gb-2312" | "cn-gb" => "gbk",
        "chinese-big5" | "cn-big5" => "big5",
        "mule-utf-8" | "utf-8-emacs" | "prefer-utf-8" => "utf-8",
        _ => return None,
    })
}

/// The formats whose declarations depend on the file's name or content.
/// Found once per file ([`Format::of`]) by U009, which asks both for the
/// declarations and whether the file is an HTML page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Html,
    Css,
    Po,
    Latex,
    Python,
    Ruby,
    Perl,
    Texinfo,
    VimScript,
    Other,
}

/// How many of a name's extensions, from the last, are looked at for its
/// format: `index.html.ko.euc-kr` has its type third from the end.
const MAX_EXTENSIONS: usize = 4;

impl Format {
    /// The format the extension `ext` names, in any case, if any. Asked
    /// for every extension of every file: lower-cased once into a buffer
    /// and matched whole, which the compiler turns into a switch on the
    /// length and a few word compares (most extensions name none of these
    /// formats).
    fn named(ext: &[u8]) -> Option<Format> {
        let mut lower = [0u8; 7];
        let buf = lower.get_mut(..ext.len())?;
        buf.copy_from_slice(ext);
        buf.make_ascii_lowercase();
        Some(match &*buf {
            b"html" | b"htm" | b"xhtml" | b"shtml" => Format::Html,
            b"css" | b"scss" | b"less" => Format::Css,
            b"po" | b"pot" => Format::Po,
            // Every TeX source kind that loads packages: documents,
            // packages, classes, docstrip sources and installers, l3build
            // tests, bibliographies, font and option files, Sweave.
            b"tex" | b"sty" | b"cls" | b"ltx" | b"dtx" | b"ins" | b"lvt" | b"bib" | b"drv"
            | b"fd" | b"clo" | b"bbx" | b"cbx" | b"lbx" | b"tikz" | b"rnw" => Format::Latex,
            b"py" | b"pyw" | b"pyi" => Format::Python,
            b"rb" | b"rake" | b"gemspec" | b"ru" => Format::Ruby,
            // Perl sources, which hold POD, and POD files.
            b"pl" | b"pm" | b"pod" | b"t" | b"plx" | b"psgi" => Format::Perl,
            b"texi" | b"texinfo" | b"txi" => Format::Texinfo,
            b"vim" => Format::VimScript,
            _ => return None,
        })
    }

    /// The format of the file at `path`: the last of its extensions that
    /// names one. Content negotiation puts a page's language and charset
    /// after its type (`index.html.de`, `index.html.ko.euc-kr`), and
    /// templates add a suffix (`setup.py.in`).
    pub(crate) fn of(path: &Path) -> Format {
        extension_bytes(path)
            .find_map(Format::named)
            .unwrap_or_else(|| {
                // Vim's startup files, which have no extension.
                let name = file_name(path);
                let vimrc = [
                    &b".vimrc"[..],
                    b"_vimrc",
                    b"vimrc",
                    b".gvimrc",
                    b"_gvimrc",
                    b"gvimrc",
                ];
                if vimrc.contains(&name) {
                    Format::VimScript
                } else {
                    Format::Other
                }
            })
    }
}

/// The bytes of `path` after its last separator (asked for every file:
/// one search from the end, not a walk over the components).
fn file_name(path: &Path) -> &[u8] {
    let bytes = path.as_os_str().as_encoded_bytes();
    let last = if cfg!(windows) {
        memchr::memrchr2(b'/', b'\\', bytes)
    } else {
        memchr::memrchr(b'/', bytes)
    };
    &bytes[last.map_or(0, |i| i + 1)..]
}

/// The extensions of the file name `path` ends in, the last first, at most
/// [`MAX_EXTENSIONS`], as bytes: the parts after each dot of the name but a
/// leading one (`.bashrc` has none). Read from the end of the path's bytes,
/// the dots looked for byte by byte: a name is a few bytes, shorter than a
/// vector search takes to set up, and parsing the path's components would
/// be a tenth of the declarations' cost in a file without any.
fn extension_bytes(path: &Path) -> impl Iterator<Item = &[u8]> {
    let mut name = file_name(path);
    // A path that does not end in a plain name (`a/b/`, `a/b/.`): its
    // components say which name it is.
    if name.is_empty() || name == b"." || name == b".." {
        name = path.file_name().map_or(&[], |n| n.as_encoded_bytes());
    }
    let mut rest = name.strip_prefix(b".").unwrap_or(name);
    std::iter::from_fn(move || {
        let dot = rest.iter().rposition(|&b| b == b'.')?;
        let ext = &rest[dot + 1..];
        rest = &rest[..dot];
        Some(ext)
    })
    .take(MAX_EXTENSIONS)
}

/// [`extension_bytes`] that are UTF-8, as text.
fn extensions(path: &Path) -> impl Iterator<Item = &str> {
    extension_bytes(path).filter_map(|ext| std::str::from_utf8(ext).ok())
}

/// The legacy encoding the file's name declares, with the extension that
/// does: a charset among its last extensions (`index.html.ko.euc-kr`,
/// `README.koi8-r`), as Apache's `AddCharset` and content negotiation read
/// them. A name that declares UTF-8 (`index.html.fr.utf8`) declares no
/// legacy encoding.
pub(crate) fn charset_in_name(path: &Path) -> Option<(&str, &'static Encoding)> {
    extensions(path).find_map(|ext| {
        // `.ascii` names no legacy encoding (WHATWG's label for
        // windows-1252), and a format's extension names no charset.
        let ascii = ext.to_ascii_lowercase().contains("ascii");
        let encoding =
            resolve(ext).filter(|_| !ascii && Format::named(ext.as_bytes()).is_none())?;
        (encoding != encoding_rs::UTF_8
            && encoding != encoding_rs::UTF_16LE
            && encoding != encoding_rs::UTF_16BE)
            .then_some((ext, encoding))
    })
}

/// Whether the file is an HTML page by its content, whatever its name:
/// after a byte-order mark, spaces, an XML declaration and comments, it
/// opens with `<!DOCTYPE html` or `<html` (in any case), as XHTML pages and
/// negotiated variants under any suffix do.
fn html_by_content(bytes: &[u8], start: usize) -> bool {
    let mut head = bytes[start..bytes.len().min(start + 1024)].trim_ascii_start();
    if head.starts_with(b"<?xml") {
        let Some(end) = find!(head, b"?>") else {
            return false;
        };
        head = head[end + 2..].trim_ascii_start();
    }
    while head.starts_with(b"<!--") {
        let Some(end) = find!(head, b"-->") else {
            return false;
        };
        head = head[end + 3..].trim_ascii_start();
    }
    let opens = |tag: &[u8]| {
        head.get(..tag.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(tag))
            && head
                .get(tag.len())
                .is_none_or(|&b| b.is_ascii_whitespace() || b == b'>')
    };
    opens(b"<!doctype html") || opens(b"<html")
}

/// Where `<meta charset="utf-8">` goes in an HTML page: right after its
/// `<head>` tag, else after its doctype or `<html>` tag, else at its start;
/// within the first 1024 bytes, which HTML's prescan reads (it honours a
/// `<meta charset>` there wherever it stands).
pub(crate) fn meta_charset_offset(bytes: &[u8]) -> Option<usize> {
    let after_tag = |tag: &[u8]| {
        let window = &bytes[..bytes.len().min(1024)];
        let open = window
            .windows(tag.len())
            .position(|w| w.eq_ignore_ascii_case(tag))?;
        memchr::memchr(b'>', &window[open..]).map(|k| open + k + 1)
    };
    let at = head_tag_end(bytes)
        .or_else(|| after_tag(b"<!doctype"))
        .or_else(|| after_tag(b"<html"))
        .unwrap_or(0);
    (at < 1024).then_some(at)
}

/// The offset just after the first `<head>` tag (with or without
/// attributes), if there is one.
pub(crate) fn head_tag_end(bytes: &[u8]) -> Option<usize> {
    let window = &bytes[..bytes.len().min(64 * 1024)];
    let open = window
        .windows(5)
        .position(|w| w.eq_ignore_ascii_case(b"<head"))?;
    match window.get(open + 5)? {
        b'>' => Some(open + 6),
        b if b.is_ascii_whitespace() => memchr::memchr(b'>', &window[open..]).map(|k| open + k + 1),
        _ => None, // `<header>`
    }
}

/// Whether the file is a whole HTML page served as `text/html` (not a
/// fragment a template includes, not XHTML, whose XML default is UTF-8):
/// an HTML file by name or content that opens an `<html>`, `<head>` or
/// doctype. Without a declaration or a BOM, such a page is windows-1252 to
/// a browser ("Proceeding using windows-1252", the HTML validator says).
pub(crate) fn is_html_page(bytes: &[u8], path: &Path) -> bool {
    is_html_page_of(bytes, path, Format::of(path))
}

/// [`is_html_page`] for a file whose [`Format`] is known.
pub(crate) fn is_html_page_of(bytes: &[u8], path: &Path, format: Format) -> bool {
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let head = bytes[start..].trim_ascii_start();
    // A page by content opens with a tag (`html_by_content`): a file of
    // another format that does not is no page, settled before its name is
    // read again.
    if format != Format::Html && !head.starts_with(b"<") {
        return false;
    }
    if head.starts_with(b"<?xml")
        || extension_bytes(path)
            .next()
            .is_some_and(|e| e.eq_ignore_ascii_case(b"xhtml"))
    {
        return false;
    }
    let html = format == Format::Html || html_by_content(bytes, start);
    let window = &bytes[start..bytes.len().min(start + 4096)];
    html && [&b"<html"[..], b"<head", b"<!doctype"].iter().any(|tag| {
        window
            .windows(tag.len())
            .any(|w| w.eq_ignore_ascii_case(tag))
    })
}

/// Every declaration of the file's encoding that its format allows. U009
/// and U005's conversion both read this list, so a declaration the
/// conversion does not rewrite is one U009 does not check either.
pub(crate) fn declarations<'a>(bytes: &'a [u8], path: &Path) -> Vec<Declaration<'a>> {
    declarations_of(bytes, Format::of(path))
}

/// [`declarations`] for a file whose [`Format`] is known.
pub(crate) fn declarations_of(bytes: &[u8], format: Format) -> Vec<Declaration<'_>> {
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let mut out = Vec::new();
    out.extend(xml(bytes, start));
    match format {
        Format::Html => out.extend(html_meta(bytes, start)),
        Format::Css => out.extend(css(bytes, start)),
        _ if html_by_content(bytes, start) => out.extend(html_meta(bytes, start)),
        _ => {}
    }
    // Both need `coding` in the first two lines, each read up to
    // `LINE_HEAD` bytes: one search of those lines' bytes rules them out in
    // nearly every file.
    let coding = find!(lines_span(bytes, head_lines(bytes, start, 2)), b"coding").is_some();
    match format {
        Format::Po => out.extend(po_header(bytes, start)),
        Format::Latex => out.extend(latex_inputenc(bytes)),
        _ => {}
    }
    let shebang = shebang(bytes);
    let by_shebang = |name: &[u8]| shebang.is_some_and(|l| memchr::memmem::find(l, name).is_some());
    if format == Format::Perl || by_shebang(b"perl") {
        out.extend(pod_encoding(bytes, start));
    }
    match format {
        Format::Texinfo => out.extend(command_line(
            bytes,
            start,
            b"@documentencoding",
            Syntax::TexinfoEncoding,
        )),
        Format::VimScript => out.extend(command_line(
            bytes,
            start,
            b"scriptencoding",
            Syntax::VimScriptencoding,
        )),
        _ => {}
    }
    if format == Format::Python || by_shebang(b"python") {
        out.extend(python_cookie(bytes).filter(|_| coding));
    } else if format == Format::Ruby || by_shebang(b"ruby") {
        out.extend(ruby_magic(bytes).filter(|_| coding));
    } else {
        if coding {
            out.extend(emacs(bytes, start));
        }
        out.extend(vim(bytes));
    }
    out
}

/// The legacy encoding the file declares, as evidence for U005: the first
/// declaration ([`declarations`]' order) naming an encoding other than
/// UTF-8 and UTF-16 in which the whole file (after a UTF-8 byte-order mark,
/// which does not belong to legacy text) decodes without an error to text
/// ([`decodes_to_text`]). encoding_rs's names are WHATWG's: `ISO-8859-1`
/// and `latin1` name windows-1252, `ISO-8859-9` windows-1254 (supersets
/// of them in the bytes text uses).
pub(crate) fn declared_legacy_encoding<'a>(
    bytes: &'a [u8],
    path: &Path,
) -> Option<(Declaration<'a>, &'static Encoding)> {
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    declarations(bytes, path).into_iter().find_map(|d| {
        let encoding = d.encoding()?;
        let legacy = encoding != encoding_rs::UTF_8
            && encoding != encoding_rs::UTF_16LE
            && encoding != encoding_rs::UTF_16BE
            && encoding != encoding_rs::REPLACEMENT
            && encoding != encoding_rs::ISO_2022_JP
            && encoding.is_ascii_compatible();
        (legacy && !mostly_utf8(body) && !binary(body) && decodes_to_text(body, encoding))
            .then_some((d, encoding))
    })
}

/// Whether well-formed multi-byte characters outnumber the ill-formed
/// sequences: UTF-8 with defects under a wrong label (a UTF-8 page that
/// says `iso-8859-1`), which the declaration does not make legacy text.
///
/// Counted in bytes, not decoded characters: each multi-byte character
/// has one lead byte (`C0` and above), and so does each ill-formed
/// sequence that starts with one (the bytes after a sequence's first are
/// continuation bytes), so the characters are the lead bytes less those.
/// A lead byte that no continuation byte follows, or that never leads
/// (`C0`, `C1`, `F5`..`FF`), starts an ill-formed sequence of its own:
/// counting those first, in one pass the compiler vectorizes, settles
/// legacy text (where nearly every lead byte is one) without walking its
/// sequences. Otherwise they are walked, and only until the characters
/// left can no longer outnumber them.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (leads, lone) = lead_bytes(bytes);
    // `lone` lead bytes are ill-formed sequences: at most `leads - lone`
    // characters against at least `lone` sequences.
    if leads - lone <= lone {
        return false;
    }
    let (mut errors, mut erroneous_leads) = (0usize, 0usize);
    for sub in utf8lint_codec::subparts(bytes) {
        errors += 1;
        erroneous_leads += usize::from(bytes[sub.offset] >= 0xC0);
        // Both only grow: once the characters do not outnumber the
        // sequences, they never will.
        if leads - erroneous_leads <= errors {
            return false;
        }
    }
    true
}

/// How many bytes of `bytes` are lead bytes (`C0` and above), and how many
/// of those start an ill-formed sequence by themselves: no continuation
/// byte follows them, or they are `C0`, `C1` or `F5`..`FF`.
fn lead_bytes(bytes: &[u8]) -> (usize, usize) {
    /// Bytes per step: the counts are kept in byte lanes, which a step
    /// must not overflow.
    const STEP: usize = 192;
    let lone = |b: u8, next: u8| {
        let never = (b == 0xC0) | (b == 0xC1) | (b >= 0xF5);
        (b >= 0xC0) & (never | (next & 0xC0 != 0x80))
    };
    let (mut leads, mut lonely) = (0usize, 0usize);
    let mut at = 0;
    // Each step reads one byte past its end: the last byte is counted on
    // its own, below.
    while let Some(window) = bytes
        .get(at..at + STEP + 1)
        .and_then(|w| <&[u8; STEP + 1]>::try_from(w).ok())
    {
        let (mut l, mut o) = (0u8, 0u8);
        for i in 0..STEP {
            l = l.wrapping_add(u8::from(window[i] >= 0xC0));
            o = o.wrapping_add(u8::from(lone(window[i], window[i + 1])));
        }
        leads += usize::from(l);
        lonely += usize::from(o);
        at += STEP;
    }
    for (i, &b) in bytes.iter().enumerate().skip(at) {
        // The file's last byte: no continuation byte follows it.
        let next = bytes.get(i + 1).copied().unwrap_or(0);
        leads += usize::from(b >= 0xC0);
        lonely += usize::from(lone(b, next));
    }
    (leads, lonely)
}

/// Whether `bytes` are binary data by the sniff's evidence (a signature, or
/// its share of control bytes): a declaration in a binary file names no
/// text. The same test as the verdict's, and the only one about ASCII
/// control bytes, which read alike in every encoding a declaration names
/// and so say nothing about which one the text is in (Info's `\x1F` node
/// separator quoted in texinfo's Romanian catalogue).
fn binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(crate::sniff::BINARY_SNIFF_BYTES)];
    crate::sniff::binary_signature(bytes).is_some()
        || crate::sniff::control_percent(head) >= crate::sniff::MIN_BINARY_CONTROL_PERCENT
}

/// Whether all of `bytes` decodes in `encoding` without an error, to text:
/// no non-ASCII byte read as a control character (a C1 control, `C2 80` to
/// `C2 9F` in UTF-8: windows-1252 text declared ISO-8859-2 is not text).
pub(crate) fn decodes_to_text(bytes: &[u8], encoding: &'static Encoding) -> bool {
    decodes(bytes, encoding, true)
}

/// Whether all of `bytes` decodes in `encoding` without an error, and,
/// when `text_only`, to text ([`decodes_to_text`]). A single-byte encoding
/// decodes each byte on its own: a table of the 256 bytes says which
/// decode (to text) and the bytes are looked up, nothing is decoded. Any
/// other is decoded a block at a time into a scratch buffer, which is not
/// kept.
pub(crate) fn decodes(bytes: &[u8], encoding: &'static Encoding, text_only: bool) -> bool {
    if encoding.is_single_byte() {
        let table = single_byte_table(encoding, text_only);
        // Every such encoding decodes ASCII as ASCII, and in most of them
        // every byte from `0xA0` (or nearly) up, where the letters are: the
        // bytes from `floor` up all decode. A chunk holding no byte between
        // those (ASCII and letters, most chunks of legacy text) is settled
        // in vector compares, and only another chunk is looked up.
        let floor = (0x80..=0xFF)
            .rev()
            .find(|&b| !table[usize::from(b)])
            .map_or(0x80, |b: u8| u16::from(b) + 1);
        // Bytes below `floor` and not ASCII: `b - 0x80 < unsure` (at most
        // 0x80, which fits).
        let unsure = u8::try_from(floor - 0x80).unwrap_or(0x80);
        let decodes = |chunk: &[u8]| {
            let other = chunk.iter().fold(0u8, |other, &b| {
                other | u8::from(b.wrapping_sub(0x80) < unsure)
            });
            // Looked up without a branch each.
            other == 0 || chunk.iter().fold(true, |ok, &b| ok & table[usize::from(b)])
        };
        let mut chunks = bytes.chunks_exact(64);
        return chunks.all(decodes) && decodes(chunks.remainder());
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut scratch = String::with_capacity(64 * 1024);
    let mut rest = bytes;
    loop {
        scratch.clear();
        let (result, read) = decoder.decode_to_string_without_replacement(rest, &mut scratch, true);
        rest = &rest[read..];
        let control = text_only && has_c1_control(scratch.as_bytes());
        if control {
            return false;
        }
        match result {
            encoding_rs::DecoderResult::InputEmpty => return true,
            encoding_rs::DecoderResult::OutputFull => {}
            encoding_rs::DecoderResult::Malformed(..) => return false,
        }
    }
}

/// For each byte, whether the single-byte `encoding` decodes it (to text,
/// when `text_only`: [`has_c1_control`] finds nothing in it).
fn single_byte_table(encoding: &'static Encoding, text_only: bool) -> [bool; 256] {
    crate::text::single_byte_chars(encoding).map(|c| {
        let mut utf8 = [0; 4];
        c.is_some_and(|c| !(text_only && has_c1_control(c.encode_utf8(&mut utf8).as_bytes())))
    })
}

/// Whether the UTF-8 `text` holds a C1 control character (`C2 80`..`C2
/// 9F`), the controls only a non-ASCII byte decodes to. A byte search,
/// where asking each decoded character was a tenth of the legacy verdict.
fn has_c1_control(text: &[u8]) -> bool {
    memchr::memchr_iter(0xC2, text).any(|i| matches!(text.get(i + 1), Some(0x80..=0x9F)))
}

/// A declaration whose name is `name` (a subslice of `bytes`).
fn declared<'a>(bytes: &'a [u8], name: &'a [u8], syntax: Syntax) -> Option<Declaration<'a>> {
    let offset = name.as_ptr() as usize - bytes.as_ptr() as usize;
    Some(Declaration {
        syntax,
        name: std::str::from_utf8(name).ok()?,
        at: offset..offset + name.len(),
    })
}

/// The run of name characters (`[-\w.:]`) at the start of `text`.
fn name_at(text: &[u8]) -> &[u8] {
    let len = text
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
        .count();
    &text[..len]
}

/// A quoted value at the start of `text` (after spaces): its contents.
fn quoted(text: &[u8]) -> Option<&[u8]> {
    let text = text.trim_ascii_start();
    let quote = *text.first().filter(|q| matches!(q, b'"' | b'\''))?;
    let end = memchr::memchr(quote, &text[1..])?;
    Some(&text[1..1 + end])
}

/// `<?xml version="1.0" encoding="NAME"?>` at the start.
fn xml(bytes: &[u8], start: usize) -> Option<Declaration<'_>> {
    let head = bytes.get(start..)?;
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = find!(&head[..head.len().min(1024)], b"?>")?;
    let decl = &head[..end];
    let at = find!(decl, b"encoding")?;
    let after = decl[at + 8..].trim_ascii_start().strip_prefix(b"=")?;
    declared(bytes, quoted(after)?, Syntax::Xml)
}

/// The first `<meta>` charset in the first 1024 bytes.
fn html_meta(bytes: &[u8], start: usize) -> Option<Declaration<'_>> {
    let window = &bytes[..bytes.len().min(start + 1024)];
    let lower = window.to_ascii_lowercase();
    let mut from = start;
    while let Some(i) = find!(&lower[from..], b"<meta") {
        let tag_start = from + i;
        let tag_end =
            memchr::memchr(b'>', &lower[tag_start..]).map_or(lower.len(), |e| tag_start + e);
        let tag = &lower[tag_start..tag_end];
        if let Some(c) = find!(tag, b"charset") {
            let after = tag[c + 7..].trim_ascii_start();
            if let Some(rest) = after.strip_prefix(b"=") {
                let value_at = tag_start + c + 7 + (tag[c + 7..].len() - after.len()) + 1;
                let rest_trimmed = rest.trim_ascii_start();
                let skip = rest.len() - rest_trimmed.len();
                let value_start = value_at + skip;
                let name_start = match rest_trimmed.first() {
                    Some(b'"' | b'\'') => value_start + 1,
                    _ => value_start,
                };
                let name = name_at(&window[name_start..tag_end]);
                if !name.is_empty() {
                    return declared(bytes, name, Syntax::HtmlMeta);
                }
            }
        }
        from = tag_end;
    }
    None
}

/// `@charset "NAME";` exactly, at the start (CSS Syntax 3).
fn css(bytes: &[u8], start: usize) -> Option<Declaration<'_>> {
    let rest = bytes.get(start..)?.strip_prefix(b"@charset \"")?;
    let end = memchr::memchr(b'"', &rest[..rest.len().min(64)])?;
    rest[end..].starts_with(b"\";").then_some(())?;
    declared(bytes, &rest[..end], Syntax::Css)
}

/// The first line, when it is a `#!` line.
fn shebang(bytes: &[u8]) -> Option<&[u8]> {
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if !body.starts_with(b"#!") {
        return None;
    }
    Some(&body[..memchr::memchr(b'\n', body).unwrap_or(body.len())])
}

/// Ruby's magic comment: a comment holding `coding[:=]\s*NAME` (which
/// `-*- coding: NAME -*-` and `encoding: NAME` do) on line 1, or on line 2
/// when line 1 is a `#!` line.
fn ruby_magic(bytes: &[u8]) -> Option<Declaration<'_>> {
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    for (number, text) in head_lines(bytes, start, 2).enumerate() {
        if let Some(found) = text.strip_prefix(b"#").and_then(name_after_coding) {
            return declared(bytes, found, Syntax::RubyMagic);
        }
        if number == 0 && !text.starts_with(b"#!") {
            return None;
        }
    }
    None
}

/// How far into a catalogue its header entry is looked for: past the
/// translators' comments, which hold licences.
const PO_HEADER_WINDOW: usize = 16 * 1024;

/// The charset in a gettext catalogue's header: the first entry, when its
/// `msgid` is `""`, whose `msgstr` lines hold
/// `"Content-Type: text/plain; charset=NAME\n"`.
fn po_header(bytes: &[u8], start: usize) -> Option<Declaration<'_>> {
    let window = &bytes[start..bytes.len().min(start + PO_HEADER_WINDOW)];
    let mut lines = window
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .skip_while(|l| l.is_empty() || l.starts_with(b"#"));
    if lines.next()? != b"msgid \"\"" {
        return None;
    }
    let first = lines.next()?.strip_prefix(b"msgstr")?;
    for line in std::iter::once(first.trim_ascii()).chain(lines) {
        if !line.starts_with(b"\"") {
            return None; // the header's msgstr ended
        }
        let Some(at) = find!(line, b"Content-Type:") else {
            continue;
        };
        let value = &line[at..];
        let c = find!(value, b"charset=")?;
        let name = name_at(&value[c + 8..]);
        return (!name.is_empty()).then(|| declared(bytes, name, Syntax::PoHeader))?;
    }
    None
}

/// The last option of the first `\usepackage[...]{inputenc}` (or
/// `\RequirePackage`, as packages and classes load it) that is not
/// commented out (`%` earlier on its line).
fn latex_inputenc(bytes: &[u8]) -> Option<Declaration<'_>> {
    let mut from = 0;
    while let Some(i) = find!(&bytes[from..], b"]{inputenc}") {
        let close = from + i;
        from = close + 1;
        let line_start = memchr::memrchr(b'\n', &bytes[..close]).map_or(0, |n| n + 1);
        let line = &bytes[line_start..close];
        let Some(open) = memchr::memrchr(b'[', line) else {
            continue;
        };
        let command = line[..open].trim_ascii_end();
        let loads = command.ends_with(b"\\usepackage") || command.ends_with(b"\\RequirePackage");
        if !loads || line[..open].contains(&b'%') {
            continue;
        }
        let options = &line[open + 1..];
        let last = options.rsplit(|&b| b == b',').next()?;
        let name = last.trim_ascii();
        if !name.is_empty() && name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-') {
            return declared(bytes, name, Syntax::LatexInputenc);
        }
    }
    None
}

/// POD's `=encoding NAME` command: the first line that starts with it,
/// anywhere in the file (POD may stand after the code, past `__END__`).
/// Pod::Simple reads the first and ignores the others.
fn pod_encoding(bytes: &[u8], start: usize) -> Option<Declaration<'_>> {
    let mut from = start;
    while let Some(i) = find!(&bytes[from..], b"=encoding") {
        let at = from + i;
        from = at + 9;
        if at != start && bytes[at - 1] != b'\n' {
            continue;
        }
        let after = &bytes[from..bytes.len().min(from + LINE_HEAD)];
        let spaced = after.first().is_some_and(|&b| b == b' ' || b == b'\t');
        let name = name_at(after.trim_ascii_start());
        if spaced && !name.is_empty() {
            return declared(bytes, name, Syntax::PodEncoding);
        }
    }
    None
}

/// How far into a file a command that declares its encoding is looked
/// for: Texinfo's `@documentencoding` stands in the header, Vim's
/// `scriptencoding` before the lines it applies to, at the top.
const COMMAND_WINDOW: usize = 16 * 1024;

/// The first line in the first [`COMMAND_WINDOW`] bytes that starts (after
/// spaces) with `command`, a space and a name: Texinfo's
/// `@documentencoding ISO-8859-1`, Vim's `scriptencoding latin1`.
fn command_line<'a>(
    bytes: &'a [u8],
    start: usize,
    command: &[u8],
    syntax: Syntax,
) -> Option<Declaration<'a>> {
    let window = &bytes[..bytes.len().min(start + COMMAND_WINDOW)];
    let mut from = start;
    while let Some(i) = memchr::memmem::find(&window[from..], command) {
        let at = from + i;
        from = at + command.len();
        let line_start = memchr::memrchr(b'\n', &window[..at]).map_or(start, |n| n + 1);
        if !window[line_start.max(start)..at]
            .iter()
            .all(|&b| b == b' ' || b == b'\t')
        {
            continue;
        }
        let after = &window[from..];
        let spaced = after.first().is_some_and(|&b| b == b' ' || b == b'\t');
        let name = name_at(after.trim_ascii_start());
        if spaced && !name.is_empty() {
            return declared(bytes, name, syntax);
        }
    }
    None
}

/// Declarations are short, and where they may be is near an end of the
/// file: each line is read up to this many bytes, and the last lines are
/// looked for in this many last bytes, so that a file's declarations cost
/// the same whatever its size (a minified file is one long line).
const LINE_HEAD: usize = 512;

/// The first `count` lines from `start`, each cut at [`LINE_HEAD`] bytes;
/// a line longer than that ends the list (its end is not looked for).
/// Iterated, not collected: half the files of a tree hold `enc` near an
/// end and have their lines read, and a vector each was an allocation per
/// file.
fn head_lines(bytes: &[u8], start: usize, count: usize) -> impl Iterator<Item = &[u8]> {
    let mut at = start;
    let mut left = count;
    std::iter::from_fn(move || {
        if left == 0 || at >= bytes.len() {
            return None;
        }
        left -= 1;
        let window = &bytes[at..bytes.len().min(at + LINE_HEAD)];
        match memchr::memchr(b'\n', window) {
            Some(i) => {
                at += i + 1;
                Some(&window[..i])
            }
            None => {
                left = 0;
                Some(window)
            }
        }
    })
}

/// The bytes of `bytes` from the first of `lines` (subslices of it, in
/// order) to the end of the last: where a search for what the lines hold
/// need look. Empty when there are none.
fn lines_span<'a>(bytes: &'a [u8], lines: impl Iterator<Item = &'a [u8]>) -> &'a [u8] {
    let offset = |line: &[u8]| line.as_ptr() as usize - bytes.as_ptr() as usize;
    let mut span: Option<(usize, usize)> = None;
    for line in lines {
        let (start, end) = (offset(line), offset(line) + line.len());
        span = Some(span.map_or((start, end), |(first, _)| (first, end)));
    }
    span.map_or(&bytes[..0], |(start, end)| &bytes[start..end])
}

/// The PEP 263 cookie: `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)` on line 1,
/// or on line 2 when line 1 is a comment or blank.
pub(crate) fn python_cookie(bytes: &[u8]) -> Option<Declaration<'_>> {
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    for (number, text) in head_lines(bytes, start, 2).enumerate() {
        let body = text.trim_ascii_start();
        if let Some(found) = body.strip_prefix(b"#").and_then(name_after_coding) {
            return declared(bytes, found, Syntax::PythonCookie);
        }
        let blank_or_comment = body.is_empty() || body.starts_with(b"#");
        if number == 0 && !blank_or_comment {
            return None;
        }
    }
    None
}

/// The `[-\w.]+` after the first `coding[:=][ \t]*` in `text`.
fn name_after_coding(text: &[u8]) -> Option<&[u8]> {
    let mut from = 0;
    while let Some(i) = find!(&text[from..], b"coding") {
        let after = &text[from + i + 6..];
        if let Some(rest) = after
            .strip_prefix(b":")
            .or_else(|| after.strip_prefix(b"="))
        {
            let rest = rest.trim_ascii_start();
            let name = name_at(rest);
            let name = &name[..name.iter().position(|&b| b == b':').unwrap_or(name.len())];
            return (!name.is_empty()).then_some(name);
        }
        from += i + 6;
    }
    None
}

/// `-*- coding: NAME -*-` (or `-*- mode: x; coding: NAME -*-`) on line 1,
/// or line 2 after a `#!` line: between the line's first and last `-*-`,
/// as Emacs reads it (`@c -*-texinfo-*-   -*- coding: latin-1 -*-`).
fn emacs(bytes: &[u8], start: usize) -> Option<Declaration<'_>> {
    for (number, text) in head_lines(bytes, start, 2).enumerate() {
        if let Some(open) = find!(text, b"-*-") {
            let inside = &text[open + 3..];
            let close = memchr::memmem::rfind(inside, b"-*-")?;
            let found = name_after_coding(&inside[..close])?;
            return declared(bytes, found, Syntax::Emacs);
        }
        if number == 0 && !text.starts_with(b"#!") {
            return None;
        }
    }
    None
}

/// A Vim modeline in the first or last 5 lines that sets `fileencoding`
/// (`fenc`): `vim: set fenc=NAME :`, `vi:`, `ex:`, after a space or at the
/// line start.
fn vim(bytes: &[u8]) -> Option<Declaration<'_>> {
    // `fenc=` and `fileencoding=` both hold `enc`, in the first or last
    // lines: a search for `enc` in the bytes of those lines rules a
    // modeline out in half the files of a tree, and one for the keys
    // themselves in nearly all of the rest, before any line is read. The
    // last lines lie in the last `window` bytes, after the sixth line end
    // from the end (a final newline ends the last line): all the lines
    // read below, and maybe more.
    let window = 5 * LINE_HEAD;
    let has_key = |w: &[u8]| {
        find!(w, b"enc").is_some()
            && (find!(w, b"fenc=").is_some() || find!(w, b"fileencoding=").is_some())
    };
    // A file within the window is searched whole: one search of its few
    // bytes costs less than finding where its first and last lines are.
    let keyless = if bytes.len() <= window {
        !has_key(bytes)
    } else {
        let head = lines_span(bytes, head_lines(bytes, 0, 5));
        let floor = bytes.len() - window;
        let mut tail_start = bytes.len();
        for _ in 0..6 {
            match memchr::memrchr(b'\n', &bytes[floor..tail_start]) {
                Some(i) => tail_start = floor + i,
                None => {
                    tail_start = floor;
                    break;
                }
            }
        }
        !has_key(head) && !has_key(&bytes[tail_start..])
    };
    if keyless {
        return None;
    }
    let first = head_lines(bytes, 0, 5);
    // The last 5 lines, the last first: those in the last `5 * LINE_HEAD`
    // bytes (a final newline ends the last line), or, in a file so short
    // that the first lines are most of it, those after the first 5.
    let (tail, count) = if bytes.len() > window {
        let tail = &bytes[bytes.len() - window..];
        (tail.strip_suffix(b"\n").unwrap_or(tail), 5)
    } else {
        let lines = memchr::memchr_iter(b'\n', bytes).count() + 1;
        (bytes, lines.saturating_sub(5).min(5))
    };
    let last = tail.rsplit(|&b| b == b'\n').take(count);
    for text in first.chain(last) {
        let marker_end = |at: Option<usize>, len: usize| {
            at.filter(|&i| i == 0 || text[i - 1].is_ascii_whitespace())
                .map(|i| i + len)
        };
        let Some(marker) = marker_end(find!(text, b"vim:"), 4)
            .or_else(|| marker_end(find!(text, b"vi:"), 3))
            .or_else(|| marker_end(find!(text, b"ex:"), 3))
        else {
            continue;
        };
        let settings = &text[marker..];
        let keys: [(Search, usize); 2] = [
            (|t| find!(t, b"fileencoding="), 13),
            (|t| find!(t, b"fenc="), 5),
        ];
        for (find_key, key_len) in keys {
            let mut from = 0;
            while let Some(i) = find_key(&settings[from..]) {
                let at = from + i;
                let separated = at == 0 || matches!(settings[at - 1], b' ' | b'\t' | b':');
                if separated {
                    let value = &settings[at + key_len..];
                    let name = name_at(value);
                    let name = &name[..name.iter().position(|&b| b == b':').unwrap_or(name.len())];
                    if !name.is_empty() {
                        return declared(bytes, name, Syntax::Vim);
                    }
                }
                from = at + key_len;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last extension read from the path's bytes is
    /// `Path::extension`'s (an empty one matches no format).
    #[test]
    fn the_last_extension_is_the_paths() {
        for path in [
            "a.py",
            "dir/a.PO",
            "dir.d/a",
            ".bashrc",
            "dir/.bashrc",
            ".a.b",
            "a.",
            "a..b",
            "a/b/",
            "a/b/.",
            "a/..",
            "/",
            "",
            ".",
            "..",
            "dir/x.tar.gz",
            "caf\u{e9}.tex",
            "a/.hidden.css",
            "./a.rb",
            "a//b.html",
        ] {
            let path = Path::new(path);
            let last = extensions(path).next().filter(|e| !e.is_empty());
            let theirs = path.extension().and_then(|e| e.to_str());
            assert_eq!(last, theirs.filter(|e| !e.is_empty()), "{path:?}");
        }
        assert_eq!(Format::of(Path::new("x/Y.GemSpec")), Format::Ruby);
        assert_eq!(Format::of(Path::new("x/y.potx")), Format::Other);
        assert_eq!(Format::of(Path::new("x/y")), Format::Other);
    }

    #[test]
    fn a_charset_in_the_name_is_found() {
        fn named(path: &str) -> Option<(String, &'static str)> {
            charset_in_name(Path::new(path)).map(|(e, enc)| (e.to_owned(), enc.name()))
        }
        let some = |ext: &str, name| Some((ext.to_owned(), name));
        assert_eq!(
            named("manual/index.html.ko.euc-kr"),
            some("euc-kr", "EUC-KR")
        );
        assert_eq!(named("README.koi8-r"), some("koi8-r", "KOI8-R"));
        assert_eq!(named("a.html.ja.sjis"), some("sjis", "Shift_JIS"));
        assert_eq!(named("a.txt.latin1"), some("latin1", "windows-1252"));
        for path in [
            "index.html.fr.utf8",
            "index.html.de",
            "a.py",
            "x.tar.gz",
            "v1.2.txt",
            "a.b5",
            "notes.ascii",
        ] {
            assert_eq!(named(path), None, "{path}");
        }
    }

    /// Every extension counts, the last that names a format decides, and
    /// a name's first part is no extension.
    #[test]
    fn the_format_is_the_last_extension_that_names_one() {
        for (path, format) in [
            ("manual/index.html.de", Format::Html),
            ("manual/index.html.ko.euc-kr", Format::Html),
            ("manual/index.HTML.en.utf8", Format::Html),
            ("setup.py.in", Format::Python),
            ("lib/Foo.pm.PL", Format::Perl),
            ("doc/perlfunc.pod", Format::Perl),
            ("t/basic.t", Format::Perl),
            ("base/ltnews.dtx", Format::Latex),
            ("base/latex.ins", Format::Latex),
            ("testfiles/a.lvt", Format::Latex),
            ("refs.bib", Format::Latex),
            ("a.tex.orig", Format::Latex),
            ("html.txt", Format::Other),
            (".html", Format::Other),
            ("x.tar.gz", Format::Other),
            // More than four extensions from the end: not looked at.
            ("a.html.b.c.d.e", Format::Other),
        ] {
            assert_eq!(Format::of(Path::new(path)), format, "{path}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_last_extension_is_the_paths_for_any_path(
            path in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just("a"),
                    proptest::strategy::Just("."),
                    proptest::strategy::Just("/"),
                    proptest::strategy::Just("\u{e9}"),
                ],
                0..12,
            )
        ) {
            let path = Path::new(&path.concat()).to_path_buf();
            let last = extensions(&path).next().filter(|e| !e.is_empty());
            let theirs = path.extension().and_then(|e| e.to_str());
            proptest::prop_assert_eq!(last, theirs.filter(|e| !e.is_empty()));
        }
    }

    /// What the generated files of the declarations' property test are made of.
    const PIECES: &[&[u8]] = &[
        b"\n",
        b" ",
        b"a",
        b"\xE9",
        b"=encoding ",
        b"@documentencoding ",
        b"scriptencoding ",
        b"-*- coding: ",
        b"-*-",
        b"<!DOCTYPE html>",
        b"<html>",
        b"<meta charset=\"",
        b"\"",
        b"<?xml encoding=\"",
        b"?>",
        b"latin1",
        b"\\RequirePackage[",
        b"]{inputenc}",
        b"\xEF\xBB\xBF",
        b"#!/usr/bin/perl",
    ];

    proptest::proptest! {
        /// Any bytes under a name of every format: each declaration found
        /// names the bytes it stands on, and nothing panics.
        #[test]
        fn declarations_stand_on_their_names_in_any_bytes(
            pieces in proptest::collection::vec(
                proptest::sample::select(PIECES),
                0..30,
            )
        ) {
            let bytes = pieces.concat();
            for path in ["a.html.ko.euc-kr", "a.pm", "a.texi", "a.vim", "a.dtx", "page", "a.po"] {
                for d in declarations(&bytes, Path::new(path)) {
                    proptest::prop_assert_eq!(&bytes[d.at.clone()], d.name.as_bytes());
                }
            }
        }
    }

    #[test]
    fn has_c1_control_is_the_control_category_beyond_ascii() {
        for c in (0..0x3000).filter_map(char::from_u32) {
            let expected = c.is_control() && !c.is_ascii();
            let text = format!("a{c}\u{A0}b");
            assert_eq!(has_c1_control(text.as_bytes()), expected, "{c:?}");
        }
    }

    /// An ASCII control byte reads alike in every encoding, so it does not
    /// stop a declared reading from being text (texinfo's Romanian
    /// catalogue quotes Info's `\x1F`); a file the sniff calls binary
    /// names no encoding, whatever it declares.
    #[test]
    fn ascii_controls_are_no_evidence_against_a_declaration_and_binary_is() {
        let po = |body: &[u8]| {
            let mut b =
                b"msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=ISO-8859-2\\n\"\n\n"
                    .to_vec();
            b.extend_from_slice(body);
            b
        };
        let path = Path::new("ro.po");
        let text = po(b"msgid \"a\"\nmsgstr \"\x1f\\n \xBAi \xFEar\xE3 \xEEn \xE2ncheiere\"\n");
        assert_eq!(
            declared_legacy_encoding(&text, path).map(|(_, e)| e),
            Some(encoding_rs::ISO_8859_2)
        );
        let mut controls = po(b"msgstr \"\xBAi \xFEar\xE3\"\n");
        controls.extend(std::iter::repeat_n(0x1Fu8, controls.len() / 4));
        assert_eq!(declared_legacy_encoding(&controls, path), None);
    }

    /// [`mostly_utf8`] as first written: every character decoded.
    fn mostly_utf8_decoded(bytes: &[u8]) -> bool {
        let (mut characters, mut errors) = (0usize, 0usize);
        for chunk in utf8lint_codec::Utf8Chunks::new(bytes) {
            characters += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
            errors += usize::from(!chunk.invalid().is_empty());
        }
        characters > errors
    }

    /// [`decodes`] as first written for every encoding: each decoded.
    fn decodes_decoded(bytes: &[u8], encoding: &'static Encoding, text_only: bool) -> bool {
        encoding
            .decode_without_bom_handling_and_without_replacement(bytes)
            .is_some_and(|text| !(text_only && has_c1_control(text.as_bytes())))
    }

    /// The byte counts give the answer the decoded characters give, also
    /// around the steps of the counting pass and at the file's end.
    #[test]
    fn mostly_utf8_counts_as_the_decoded_characters_do() {
        let mut cases: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"ascii only".to_vec(),
            "café déjà".as_bytes().to_vec(),
            b"caf\xE9 cr\xE8me".to_vec(),
            b"\xC3".to_vec(),
            b"\xE2\x82".to_vec(),
            b"\xC0\x80\xF5\x80\xED\xA0\x80".to_vec(),
        ];
        // One character against one error, or two against one, placed
        // across the counting pass's steps.
        for len in [190, 191, 192, 193, 383, 384, 385] {
            for (utf8, bad) in [("é", &b"\xE9"[..]), ("éé", b"\xFF"), ("é", b"\xE2\x82")] {
                let mut bytes = vec![b'a'; len];
                bytes.extend(utf8.as_bytes());
                bytes.extend(bad);
                cases.push(bytes.clone());
                bytes.reverse();
                cases.push(bytes);
            }
        }
        for bytes in cases {
            assert_eq!(
                mostly_utf8(&bytes),
                mostly_utf8_decoded(&bytes),
                "{bytes:02X?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn mostly_utf8_agrees_on_any_bytes(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(b'a'),
                    0x80u8..=0xBF,
                    0xC0u8..=0xFF,
                    proptest::arbitrary::any::<u8>(),
                ],
                0..900,
            )
        ) {
            proptest::prop_assert_eq!(mostly_utf8(&bytes), mostly_utf8_decoded(&bytes));
        }
    }

    /// A single-byte encoding's table says what decoding says, for every
    /// byte of every such encoding, with and without the text test.
    #[test]
    fn single_byte_tables_decode_as_the_decoder_does() {
        let every: Vec<u8> = (0..=255).collect();
        let mut single = 0;
        for label in [
            "ibm866",
            "iso-8859-2",
            "iso-8859-3",
            "iso-8859-4",
            "iso-8859-5",
            "iso-8859-6",
            "iso-8859-7",
            "iso-8859-8",
            "iso-8859-8-i",
            "iso-8859-10",
            "iso-8859-13",
            "iso-8859-14",
            "iso-8859-15",
            "iso-8859-16",
            "koi8-r",
            "koi8-u",
            "macintosh",
            "windows-874",
            "windows-1250",
            "windows-1251",
            "windows-1252",
            "windows-1253",
            "windows-1254",
            "windows-1255",
            "windows-1256",
            "windows-1257",
            "windows-1258",
            "x-mac-cyrillic",
            "x-user-defined",
            "gbk",
            "shift_jis",
        ] {
            let encoding = Encoding::for_label(label.as_bytes()).unwrap();
            single += usize::from(encoding.is_single_byte());
            for text_only in [false, true] {
                for &b in &every {
                    let bytes = [b'a', b, b'z'];
                    assert_eq!(
                        decodes(&bytes, encoding, text_only),
                        decodes_decoded(&bytes, encoding, text_only),
                        "{label} {b:02X} {text_only}"
                    );
                }
                assert_eq!(
                    decodes(&every, encoding, text_only),
                    decodes_decoded(&every, encoding, text_only),
                    "{label} {text_only}"
                );
                // Each byte inside a whole chunk of one letter, also where
                // the chunk is otherwise settled without a look-up.
                for (&b, &letter) in every.iter().zip(every.iter().cycle().skip(0xA0)) {
                    let mut chunked = vec![letter; 150];
                    chunked[70] = b;
                    assert_eq!(
                        decodes(&chunked, encoding, text_only),
                        decodes_decoded(&chunked, encoding, text_only),
                        "{label} {b:02X} in {letter:02X} {text_only}"
                    );
                }
            }
        }
        assert_eq!(single, 29);
    }

    fn found(bytes: &[u8], path: &str) -> Vec<(Syntax, String)> {
        declarations(bytes, Path::new(path))
            .into_iter()
            .map(|d| (d.syntax, d.name.to_owned()))
            .collect()
    }

    #[test]
    fn each_syntax_where_its_format_allows_it() {
        let one = |syntax, name: &str| vec![(syntax, name.to_owned())];
        assert_eq!(
            found(
                b"<?xml version=\"1.0\" encoding='ISO-8859-1'?>\n<a/>",
                "a.xml"
            ),
            one(Syntax::Xml, "ISO-8859-1")
        );
        // Not at byte 0: no XML declaration.
        assert_eq!(
            found(b"\n<?xml version=\"1.0\" encoding=\"latin1\"?>", "a.xml"),
            vec![]
        );
        assert_eq!(
            found(
                b"<!doctype html><head><META CHARSET=\"windows-1252\">",
                "i.html"
            ),
            one(Syntax::HtmlMeta, "windows-1252")
        );
        assert_eq!(
            found(
                b"<html><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">",
                "i.htm"
            ),
            one(Syntax::HtmlMeta, "iso-8859-1")
        );
        // Past the prescan's 1024 bytes, or in a file that is not HTML.
        let mut late = vec![b' '; 1100];
        late.extend(b"<meta charset=\"latin1\">");
        assert_eq!(found(&late, "i.html"), vec![]);
        assert_eq!(found(b"<meta charset=\"latin1\">", "notes.txt"), vec![]);
        assert_eq!(
            found(b"@charset \"ISO-8859-15\";\nbody{}", "s.css"),
            one(Syntax::Css, "ISO-8859-15")
        );
        assert_eq!(found(b"@charset 'x';", "s.css"), vec![]);
        assert_eq!(
            found(b"# -*- coding: latin-1 -*-\nx = 1\n", "a.py"),
            one(Syntax::PythonCookie, "latin-1")
        );
        assert_eq!(found(b"import os\n# coding: latin-1\n", "a.py"), vec![]);
        assert_eq!(
            found(b";; -*- mode: lisp; coding: iso-8859-2 -*-\n", "a.el"),
            one(Syntax::Emacs, "iso-8859-2")
        );
        assert_eq!(
            found(
                b"text\n\n\n\n\n\n\n\n/* vim: set ts=8 fileencoding=cp1250 : */\n",
                "a.c"
            ),
            one(Syntax::Vim, "cp1250")
        );
        assert_eq!(
            found(
                b"#!/usr/bin/env ruby\n# encoding: iso-8859-1\nputs 1\n",
                "tool"
            ),
            one(Syntax::RubyMagic, "iso-8859-1")
        );
        assert_eq!(found(b"x = 1\n# encoding: latin1\n", "a.rb"), vec![]);
        let po = b"# Translators.\n#\nmsgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: x\\n\"\n\"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n\nmsgid \"a\"\nmsgstr \"b\"\n";
        assert_eq!(found(po, "fr.po"), one(Syntax::PoHeader, "ISO-8859-1"));
        // Only in the header entry, and only in a catalogue.
        assert_eq!(
            found(&po[14..], "fr.pot"),
            one(Syntax::PoHeader, "ISO-8859-1")
        );
        assert_eq!(
            found(
                b"msgid \"a\"\nmsgstr \"Content-Type: text/plain; charset=latin1\"\n",
                "fr.po"
            ),
            vec![]
        );
        assert_eq!(found(po, "fr.txt"), vec![]);
        assert_eq!(
            found(b"\\documentclass{article}\n%\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n\\usepackage[ latin9 ]{inputenc}\n", "a.tex"),
            one(Syntax::LatexInputenc, "latin9")
        );
        assert_eq!(found(b"\\usepackage[latin1]{inputenc}\n", "a.md"), vec![]);
        // A Vim modeline in the middle of a long file is no modeline.
        let mut middle = b"a\n".repeat(10);
        middle.extend(b"vim: set fenc=latin1:\n");
        middle.extend(b"a\n".repeat(10));
        assert_eq!(found(&middle, "a.txt"), vec![]);
    }

    /// Declarations found by every extension and by content: negotiated
    /// pages, HTML under any name, POD in Perl sources, inputenc loaded
    /// by packages, and XML declarations whatever the name.
    #[test]
    fn declarations_by_all_extensions_and_by_content() {
        let one = |syntax, name: &str| vec![(syntax, name.to_owned())];
        let meta = b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=EUC-KR\"></head>";
        for path in ["index.html.ko.euc-kr", "index.html.de", "page"] {
            assert_eq!(found(meta, path), one(Syntax::HtmlMeta, "EUC-KR"), "{path}");
        }
        let xhtml = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!-- a page -->\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x\">\n<html><head><meta charset=\"ISO-8859-1\" /></head>";
        assert_eq!(
            found(xhtml, "index.html.fr"),
            vec![
                (Syntax::Xml, "ISO-8859-1".to_owned()),
                (Syntax::HtmlMeta, "ISO-8859-1".to_owned())
            ]
        );
        assert_eq!(found(xhtml, "page.var"), found(xhtml, "index.html.fr"));
        // A `<meta>` in what is not a page: an XSLT template's output.
        let xsl = b"<?xml version=\"1.0\" encoding=\"latin1\"?>\n<xsl:stylesheet><meta charset=\"latin1\"/>";
        assert_eq!(found(xsl, "a.xsl"), one(Syntax::Xml, "latin1"));
        assert_eq!(found(b"<htmlx><meta charset=\"latin1\">", "x"), vec![]);
        for path in ["a.svg", "a.ts", "Info.plist", "a.glade", "a.xlf", "README"] {
            assert_eq!(
                found(
                    b"<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?>\n<a/>",
                    path
                ),
                one(Syntax::Xml, "ISO-8859-2"),
                "{path}"
            );
        }
        let pod = b"package Foo;\n1;\n__END__\n\n=encoding  latin1\n\n=head1 NAME\n\nFoo\n\n=encoding utf8\n";
        for path in ["lib/Foo.pm", "Foo.pod", "t/a.t", "Makefile.PL", "Foo.pm.PL"] {
            assert_eq!(
                found(pod, path),
                one(Syntax::PodEncoding, "latin1"),
                "{path}"
            );
        }
        let script = b"#!/usr/bin/perl -w\n=encoding iso-8859-1\n\n=cut\nprint 1;\n";
        assert_eq!(
            found(script, "bin/tool"),
            one(Syntax::PodEncoding, "iso-8859-1")
        );
        // Not at a line's start, without a name, or in what is not Perl.
        assert_eq!(found(b"print '=encoding latin1';\n", "a.pl"), vec![]);
        assert_eq!(found(b"=encoding\n", "a.pod"), vec![]);
        assert_eq!(found(b"=encodingx latin1\n", "a.pod"), vec![]);
        assert_eq!(found(b"=encoding latin1\n", "a.txt"), vec![]);
        // Emacs reads the coding between the line's first and last `-*-`,
        // and knows its own names.
        let texi = b"\\input texinfo   @c -*-texinfo-*-   -*- coding: latin-1 -*-\n@documentencoding ISO-8859-1\n@c %**start of header\n";
        assert_eq!(
            found(texi, "doc/recode.texi"),
            vec![
                (Syntax::TexinfoEncoding, "ISO-8859-1".to_owned()),
                (Syntax::Emacs, "latin-1".to_owned())
            ]
        );
        assert_eq!(found(b"@c @documentencoding latin1\n", "a.texi"), vec![]);
        let po = b"# Hebrew messages          -*- coding: hebrew-iso-8bit -*-\n";
        assert_eq!(found(po, "po/he.po"), one(Syntax::Emacs, "hebrew-iso-8bit"));
        for path in ["keymap/canfr-win.vim", "dir/.vimrc", "_vimrc"] {
            assert_eq!(
                found(
                    b"\" Vim keymap file\n  scriptencoding latin1\nloadkeymap\n",
                    path
                ),
                one(Syntax::VimScriptencoding, "latin1"),
                "{path}"
            );
        }
        assert_eq!(found(b"\" scriptencoding latin1\n", "a.vim"), vec![]);
        assert_eq!(found(b"scriptencoding latin1\n", "a.txt"), vec![]);
        let sty = b"\\NeedsTeXFormat{LaTeX2e}\n\\RequirePackage[latin1]{inputenc}\n";
        for path in ["a.sty", "a.cls", "a.dtx", "a.ins", "a.lvt", "a.bib", "a.fd"] {
            assert_eq!(
                found(sty, path),
                one(Syntax::LatexInputenc, "latin1"),
                "{path}"
            );
        }
    }

    /// In a file longer than the windows the modeline keys are looked for
    /// in, a modeline on the first or the last lines is found, one between
    /// them is not, and `enc` without a key finds nothing.
    #[test]
    fn modelines_at_either_end_of_a_long_file() {
        let filler = b"encoded text, not a modeline\n".repeat(5 * LINE_HEAD / 10);
        let modeline = b"# vim: set fenc=latin1 :\n";
        let at = |before: &[u8], after: &[u8]| {
            let mut bytes = before.to_vec();
            bytes.extend(modeline);
            bytes.extend(after);
            assert!(bytes.len() > 2 * 5 * LINE_HEAD);
            found(&bytes, "a.txt")
        };
        let latin1 = vec![(Syntax::Vim, "latin1".to_owned())];
        assert_eq!(at(b"", &filler), latin1);
        assert_eq!(at(&filler, b"last\n"), latin1);
        assert_eq!(at(&filler, &filler), vec![]);
        assert_eq!(found(&filler.repeat(2), "a.txt"), vec![]);
        // The fifth line from the end is read, the sixth is not; in a file
        // with or without a final newline.
        assert_eq!(at(&filler, b"2\n3\n4\n5\n"), latin1);
        assert_eq!(at(&filler, b"2\n3\n4\n5"), latin1);
        assert_eq!(at(&filler, b"2\n3\n4\n5\n6\n"), vec![]);
        // The fifth line from the start is read, the sixth is not.
        assert_eq!(at(b"1\n2\n3\n4\n", &filler), latin1);
        assert_eq!(at(b"1\n2\n3\n4\n5\n", &filler), vec![]);
        // A file shorter than the window is searched whole for the keys;
        // only its first and last lines are read for a modeline.
        let short = b"encoded text, not a modeline\n".repeat(30);
        for (before, after, expected) in [
            (&b""[..], &short[..], latin1.clone()),
            (&short[..], &b""[..], latin1.clone()),
            (&short[..], &short[..], vec![]),
        ] {
            let mut bytes = before.to_vec();
            bytes.extend(modeline);
            bytes.extend(after);
            assert!(bytes.len() < 2 * 5 * LINE_HEAD);
            assert_eq!(found(&bytes, "a.txt"), expected);
        }
    }

    #[test]
    fn a_declared_legacy_encoding_names_the_encoding_only_for_text_it_decodes() {
        let named = |bytes: &[u8], path: &str| {
            declared_legacy_encoding(bytes, Path::new(path)).map(|(d, e)| (d.syntax, e.name()))
        };
        // Hungarian `ő` and `ű`, which windows-1252 has not.
        let hungarian = b"# -*- coding: iso-8859-2 -*-\nprint('t\xF5r\xFBl\xE9s')\n";
        assert_eq!(
            named(hungarian, "a.py"),
            Some((Syntax::PythonCookie, "ISO-8859-2"))
        );
        let mac = b"<?xml version=\"1.0\" encoding=\"x-mac-cyrillic\"?>\n<a>\x8F\xF0\xE8\xE2\xE5\xF2</a>\n";
        assert_eq!(named(mac, "a.xml"), Some((Syntax::Xml, "x-mac-cyrillic")));
        // A byte-order mark is not legacy text: the rest is decoded.
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend(&mac[..]);
        assert_eq!(named(&bom, "a.xml"), Some((Syntax::Xml, "x-mac-cyrillic")));
        // UTF-8 declared, an unknown name, bytes the encoding has not
        // (0xA5 is unmapped in ISO-8859-3) or binary data (a tenth of its
        // bytes controls): none. A few ASCII controls read alike in every
        // encoding and say nothing against the declared one.
        assert_eq!(
            named(
                b"<?xml version=\"1.0\" encoding=\"utf-8\"?><a>\xE9</a>",
                "a.xml"
            ),
            None
        );
        assert_eq!(named(b"# coding: klingon\n\xE9\n", "a.py"), None);
        assert_eq!(named(b"# coding: iso-8859-3\n\xA5\n", "a.py"), None);
        assert_eq!(
            named(b"# coding: latin-1\n\xE9\x01\x02\x03\n", "a.py"),
            None
        );
        assert_eq!(
            named(b"# coding: latin-1\ns = 'caf\xE9 \x01'\n", "a.py"),
            Some((Syntax::PythonCookie, "windows-1252"))
        );
        // UTF-8 with a defect under a wrong label stays UTF-8.
        let mut mislabelled = "<meta charset=\"iso-8859-1\"><p>café, crème, déjà"
            .as_bytes()
            .to_vec();
        mislabelled.extend(b" \xFF</p>");
        assert_eq!(named(&mislabelled, "i.html"), None);
    }

    #[test]
    fn names_resolve_as_their_tools_spell_them() {
        for (name, want) in [
            ("UTF-8", "UTF-8"),
            ("utf8", "UTF-8"),
            ("utf-8-unix", "UTF-8"),
            ("utf_8_sig", "UTF-8"),
            ("latin-1", "windows-1252"),
            ("latin1", "windows-1252"),
            ("iso8859-15", "ISO-8859-15"),
            ("cp1250", "windows-1250"),
            ("Shift_JIS", "Shift_JIS"),
            ("euc-jp", "EUC-JP"),
            ("hebrew-iso-8bit", "ISO-8859-8"),
            ("hebrew-iso-8bit-unix", "ISO-8859-8"),
            ("iso-latin-2", "ISO-8859-2"),
            ("latin-9", "ISO-8859-15"),
            ("euc-japan", "EUC-JP"),
            ("cn-gb-2312", "GBK"),
            ("cyrillic-koi8", "KOI8-R"),
        ] {
            assert_eq!(resolve(name).map(Encoding::name), Some(want), "{name}");
        }
        assert_eq!(resolve("klingon"), None);
        for (name, want) in [
            ("latin1", "windows-1252"),
            ("latin9", "ISO-8859-15"),
            ("latin10", "ISO-8859-16"),
            ("ansinew", "windows-1252"),
            ("applemac", "macintosh"),
            ("cp1250", "windows-1250"),
            ("koi8-r", "KOI8-R"),
            ("utf8", "UTF-8"),
            ("utf8x", "UTF-8"),
        ] {
            assert_eq!(
                resolve_inputenc(name).map(Encoding::name),
                Some(want),
                "{name}"
            );
        }
    }
}
