//! The charset names people write that WHATWG's labels (`encoding_rs`'s
//! `Encoding::for_label`, what browsers accept) do not list: IANA's
//! registry, Python's codecs, glibc iconv and Java, mapped to the encoding
//! that decodes them, or named as one this decoder does not support (DOS,
//! EBCDIC and Mac code pages beyond Mac Roman and Mac Cyrillic, Johab,
//! JIS X 0213), so that a file's own statement is never thrown away.
//!
//! Names are compared compacted: lowercase, without `-`, `_`, `.`, `:` or
//! spaces (`MacCyrillic`, `mac_cyrillic`, `MAC-CYRILLIC` are one name).

use encoding_rs::Encoding;

/// What a declared name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Charset {
    /// An encoding the decoder reads.
    Decoded(&'static Encoding),
    /// A real charset the decoder cannot read, by its usual name.
    Unsupported(&'static str),
}

/// The name compacted as [`lookup`] compares it.
fn compact(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | ':' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The charset `name` stands for among the names WHATWG's labels lack.
/// A name in both tables is decoded: the decoded table is asked first.
pub(crate) fn lookup(name: &str) -> Option<Charset> {
    let key = compact(name);
    if let Some(&(_, label)) = DECODED.iter().find(|(k, _)| k.contains(&key.as_str())) {
        return Encoding::for_label(label.as_bytes()).map(Charset::Decoded);
    }
    UNSUPPORTED
        .iter()
        .find(|(k, _)| k.contains(&key.as_str()))
        .map(|&(_, usual)| Charset::Unsupported(usual))
}

/// Compacted names, and the WHATWG label of the encoding that reads them.
const DECODED: &[(&[&str], &str)] = &[
    (&["utf8", "cp65001", "utf8unix", "unicode11utf8"], "utf-8"),
    (
        &["utf16le", "unicodelittleunmarked", "xutf16le"],
        "utf-16le",
    ),
    (&["utf16be", "unicodebigunmarked"], "utf-16be"),
    (
        &[
            "ascii",
            "usascii",
            "646",
            "ansix341968",
            "iso646us",
            "cp367",
            "ibm367",
        ],
        "windows-1252",
    ),
    (
        &["iso88591", "latin1", "l1", "cp819", "ibm819"],
        "iso-8859-1",
    ),
    (&["iso88592", "latin2", "l2"], "iso-8859-2"),
    (&["iso88593", "latin3", "l3"], "iso-8859-3"),
    (&["iso88594", "latin4", "l4"], "iso-8859-4"),
    (&["iso88595", "cyrillic"], "iso-8859-5"),
    (&["iso88596", "arabic", "asmo708", "ecma114"], "iso-8859-6"),
    (
        &["iso88597", "greek", "greek8", "elot928", "ecma118"],
        "iso-8859-7",
    ),
    (&["iso88598", "hebrew"], "iso-8859-8"),
    (&["iso88599", "latin5", "l5"], "windows-1254"),
    (&["iso885910", "latin6", "l6"], "iso-8859-10"),
    (
        &[
            "iso885911",
            "tis620",
            "tis6200",
            "tis62025331",
            "cp874",
            "ms874",
            "xibm874",
        ],
        "windows-874",
    ),
    (&["iso885913", "latin7", "l7"], "iso-8859-13"),
    (&["iso885914", "latin8", "l8"], "iso-8859-14"),
    (&["iso885915", "latin9", "l9", "latin0"], "iso-8859-15"),
    (&["iso885916", "latin10", "l10"], "iso-8859-16"),
    (
        &["windows1250", "cp1250", "ms1250", "cswindows1250"],
        "windows-1250",
    ),
    (
        &["windows1251", "cp1251", "ms1251", "cswindows1251"],
        "windows-1251",
    ),
    (
        &["windows1252", "cp1252", "ms1252", "cswindows1252"],
        "windows-1252",
    ),
    (
        &["windows1253", "cp1253", "ms1253", "cswindows1253"],
        "windows-1253",
    ),
    (
        &["windows1254", "cp1254", "ms1254", "cswindows1254"],
        "windows-1254",
    ),
    (
        &["windows1255", "cp1255", "ms1255", "cswindows1255"],
        "windows-1255",
    ),
    (
        &["windows1256", "cp1256", "ms1256", "cswindows1256"],
        "windows-1256",
    ),
    (
        &["windows1257", "cp1257", "ms1257", "cswindows1257"],
        "windows-1257",
    ),
    (
        &["windows1258", "cp1258", "ms1258", "cswindows1258"],
        "windows-1258",
    ),
    (&["koi8r", "cskoi8r", "koi8"], "koi8-r"),
    (&["koi8u", "koi8ru"], "koi8-u"),
    (&["cp866", "ibm866", "866", "csibm866"], "ibm866"),
    (
        &["macintosh", "macroman", "mac", "xmacroman", "csmacintosh"],
        "macintosh",
    ),
    (
        &["maccyrillic", "xmaccyrillic", "macukrainian"],
        "x-mac-cyrillic",
    ),
    (
        &[
            "shiftjis",
            "sjis",
            "mskanji",
            "cp932",
            "ms932",
            "windows31j",
            "csshiftjis",
            "xsjis",
            "csmswindows31j",
        ],
        "shift_jis",
    ),
    (
        &["eucjp", "ujis", "xeucjp", "cseucpkdfmtjapanese", "eucjpms"],
        "euc-jp",
    ),
    (&["iso2022jp", "csiso2022jp", "jis"], "iso-2022-jp"),
    (
        &[
            "euckr",
            "cp949",
            "ms949",
            "uhc",
            "windows949",
            "ksc5601",
            "ksx1001",
            "ksc56011987",
            "cseuckr",
            "korean",
        ],
        "euc-kr",
    ),
    (
        &[
            "gbk",
            "gb2312",
            "cp936",
            "ms936",
            "windows936",
            "euccn",
            "eucgb2312cn",
            "chinese",
            "csgb2312",
            "gb231280",
        ],
        "gbk",
    ),
    (&["gb18030", "gb180302000", "gb180302005"], "gb18030"),
    (
        &[
            "big5",
            "cp950",
            "ms950",
            "csbig5",
            "big5tw",
            "big5hkscs",
            "cp951",
        ],
        "big5",
    ),
];

/// Compacted names of real charsets this decoder cannot read, and the name
/// they are usually known by.
const UNSUPPORTED: &[(&[&str], &str)] = &[
    (&["cp437", "ibm437", "437", "cspc8codepage437"], "IBM437"),
    (&["cp737", "ibm737"], "IBM737"),
    (&["cp775", "ibm775", "cspc775baltic"], "IBM775"),
    (&["cp850", "ibm850", "850", "cspc850multilingual"], "IBM850"),
    (&["cp852", "ibm852", "852", "cspcp852"], "IBM852"),
    (&["cp855", "ibm855", "855", "csibm855"], "IBM855"),
    (&["cp857", "ibm857", "857", "csibm857"], "IBM857"),
    (&["cp858", "ibm858", "858"], "IBM00858"),
    (&["cp860", "ibm860", "860"], "IBM860"),
    (&["cp861", "ibm861", "861", "cpis"], "IBM861"),
    (&["cp862", "ibm862", "862", "cspc862latinhebrew"], "IBM862"),
    (&["cp863", "ibm863", "863"], "IBM863"),
    (&["cp864", "ibm864", "864"], "IBM864"),
    (&["cp865", "ibm865", "865"], "IBM865"),
    (&["cp869", "ibm869", "869", "cpgr"], "IBM869"),
    (&["cp1125", "ibm1125", "rst2018191"], "CP1125"),
    (
        &["cp037", "ibm037", "ebcdiccpus", "ebcdiccpca", "csibm037"],
        "IBM037",
    ),
    (&["cp273", "ibm273"], "IBM273"),
    (&["cp500", "ibm500", "ebcdiccpbe", "ebcdiccpch"], "IBM500"),
    (&["cp1026", "ibm1026"], "IBM1026"),
    (&["cp1047", "ibm1047"], "IBM1047"),
    (&["cp1140", "ibm1140"], "IBM01140"),
    (&["macgreek", "xmacgreek"], "x-mac-greek"),
    (&["macturkish", "xmacturkish"], "x-mac-turkish"),
    (
        &[
            "maccentraleurope",
            "maclatin2",
            "xmaccentraleurope",
            "xmacce",
        ],
        "x-mac-ce",
    ),
    (&["maciceland", "xmaciceland"], "x-mac-icelandic"),
    (&["macarabic", "xmacarabic"], "x-mac-arabic"),
    (&["machebrew", "xmachebrew"], "x-mac-hebrew"),
    (&["macthai", "xmacthai"], "x-mac-thai"),
    (&["johab", "cp1361", "ms1361"], "Johab"),
    (
        &["shiftjis2004", "shiftjisx0213", "sjis2004", "sjisx0213"],
        "Shift_JIS-2004",
    ),
    (&["eucjis2004", "eucjisx0213"], "EUC-JIS-2004"),
    (
        &["iso2022jp2", "csiso2022jp2", "iso2022jp3", "iso2022jp2004"],
        "ISO-2022-JP-2",
    ),
    (&["euctw", "cseuctw", "cns11643"], "EUC-TW"),
    (&["iso2022kr", "csiso2022kr"], "ISO-2022-KR"),
    (&["iso2022cn", "iso2022cnext"], "ISO-2022-CN"),
    (&["hz", "hzgb2312"], "HZ-GB-2312"),
    (&["utf7", "unicode11utf7", "csunicode11utf7"], "UTF-7"),
    (
        &["utf32", "utf32le", "utf32be", "ucs4", "ucs4le", "ucs4be"],
        "UTF-32",
    ),
    (&["tcvn", "tcvn5712", "tcvn57121"], "TCVN5712-1"),
    (&["viscii", "csviscii"], "VISCII"),
    (&["armscii8"], "ARMSCII-8"),
    (&["georgianps"], "GEORGIAN-PS"),
    (&["georgianacademy"], "GEORGIAN-ACADEMY"),
    (&["pt154", "ptcp154", "cp154", "cyrillicasian"], "PTCP154"),
    (&["kz1048", "strk10482002", "rk1048"], "KZ-1048"),
    (&["iso646de", "iso646fr", "iso646es", "iso646it"], "ISO646"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every alias in both tables: decoded in the encoding its label names,
    /// or refused as the charset it is.
    #[test]
    fn every_alias_is_decoded_or_refused_as_listed() {
        for (names, label) in DECODED {
            let want = Encoding::for_label(label.as_bytes()).expect(label);
            for name in *names {
                assert_eq!(lookup(name), Some(Charset::Decoded(want)), "{name}");
            }
        }
        for (names, usual) in UNSUPPORTED {
            for name in *names {
                if DECODED.iter().any(|(k, _)| k.contains(name)) {
                    continue;
                }
                assert_eq!(lookup(name), Some(Charset::Unsupported(usual)), "{name}");
            }
        }
    }

    #[test]
    fn names_are_compared_compacted() {
        let cyrillic = Some(Charset::Decoded(encoding_rs::X_MAC_CYRILLIC));
        for name in [
            "MacCyrillic",
            "mac_cyrillic",
            "MAC-CYRILLIC",
            "x-mac-cyrillic",
        ] {
            assert_eq!(lookup(name), cyrillic, "{name}");
        }
        assert_eq!(lookup("IBM855"), Some(Charset::Unsupported("IBM855")));
        assert_eq!(lookup("cp850"), Some(Charset::Unsupported("IBM850")));
        assert_eq!(lookup("CP-850"), Some(Charset::Unsupported("IBM850")));
        assert_eq!(lookup("klingon"), None);
    }
}
