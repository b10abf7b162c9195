//! Binary formats that the `infer` crate does not know, told by their first
//! bytes, and the words that name every format the sniff recognises.
//!
//! Each test is a few byte compares on the file's start, so every file can
//! be asked; the costlier confirmations (a netpbm header's grammar, a zlib
//! stream inflated) run only when those bytes match.

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

/// The short name (as [`super::BinaryEvidence::Signature`] holds it) of a
/// binary format that `bytes` start with and `infer` does not recognise:
/// raw netpbm images, zlib streams and git's loose objects, git's packs,
/// pack indexes, index and other files, ICC profiles, gettext catalogues,
/// terminfo entries, compiled Python; and PDF, which `infer` knows, but
/// whose header is printable ASCII.
pub(super) fn own_format(bytes: &[u8]) -> Option<&'static str> {
    let magic = |sig: &[u8]| bytes.starts_with(sig);
    // `%PDF-1.4`: a PDF's cross-reference table holds byte offsets, so
    // even one with no control byte in its first 8 KiB is no text to edit.
    if magic(b"%PDF-")
        && matches!(bytes.get(5..8), Some([major, b'.', minor])
            if major.is_ascii_digit() && minor.is_ascii_digit())
    {
        return Some("pdf");
    }
    // git's binary files: a four-byte magic, then a version (big-endian).
    let git_version = |v: &[u8]| bytes.len() >= 8 && v.contains(&bytes[7]) && bytes[4..7] == [0; 3];
    if magic(b"PACK") && git_version(&[2, 3]) {
        return Some("git-pack");
    }
    if magic(b"\xFFtOc") && git_version(&[2, 3]) {
        return Some("git-pack-index");
    }
    if magic(b"DIRC") && git_version(&[2, 3, 4]) {
        return Some("git-index");
    }
    if (magic(b"CGPH") || magic(b"MIDX") || magic(b"RIDX") || magic(b"BITM"))
        && bytes.get(4) == Some(&1)
    {
        return Some("git-graph");
    }
    // gettext's compiled catalogue, in either byte order, revision 0 or 1.
    if (magic(b"\xDE\x12\x04\x95") || magic(b"\x95\x04\x12\xDE")) && bytes.len() >= 28 {
        return Some("mo");
    }
    // A compiled terminfo entry: legacy (0432) or extended-number (01036)
    // magic, little-endian, then the sizes of its sections.
    if (magic(b"\x1A\x01") || magic(b"\x1E\x02")) && bytes.len() >= 12 {
        return Some("terminfo");
    }
    // Compiled Python: a two-byte version magic, then `\r\n`, then flags.
    // Python 3.7 on: a flags word of 0 to 3 (text does not hold `\r\r\n`
    // then three NUL bytes).
    if bytes.len() >= 16 && bytes[1..4] == *b"\r\r\n" && bytes[4] <= 3 && bytes[5..8] == [0; 3] {
        return Some("pyc");
    }
    // An ICC profile: its size first (at least the 128-byte header, at
    // most the file), `acsp` at offset 36.
    let icc_size = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize;
    if bytes.len() >= 128
        && bytes[36..40] == *b"acsp"
        && (128..=bytes.len()).contains(&icc_size(bytes))
    {
        return Some("icc");
    }
    if let Some(format) = netpbm(bytes) {
        return Some(format);
    }
    zlib(bytes)
}

/// Whether `bytes` may start a zlib stream: the CMF byte says deflate
/// (method 8, window up to 32 KiB), the CMF/FLG pair is a multiple of 31
/// (`78 01`, `78 5E`, `78 9C`, `78 DA`, ...), and there is no preset
/// dictionary. Two bytes that text can hold (`x^`), so the weak half.
fn zlib_header(bytes: &[u8]) -> bool {
    matches!(bytes, [cmf, flg, ..]
        if cmf & 0x0F == 8 && cmf >> 4 <= 7 && flg & 0x20 == 0
            && (u16::from(*cmf) << 8 | u16::from(*flg)).is_multiple_of(31))
}

/// How much of a zlib stream is inflated to confirm it.
const INFLATE_OUT: usize = 512;
/// How many bytes of the stream are given to the inflater at most.
const INFLATE_IN: usize = 16 * 1024;

/// `zlib` or `git-object` for bytes that start with a zlib header and
/// inflate: a whole stream whose Adler-32 checksum matches, or
/// [`INFLATE_OUT`] bytes out without an error (text after `x^` fails
/// within a few bytes: an invalid block type, a stored block's length
/// that its complement does not match, a distance before the start). A git
/// loose object is a zlib stream that inflates to `TYPE SIZE\0`.
fn zlib(bytes: &[u8]) -> Option<&'static str> {
    if !zlib_header(bytes) {
        return None;
    }
    let input = &bytes[..bytes.len().min(INFLATE_IN)];
    let mut flags = inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER
        | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    if input.len() < bytes.len() {
        flags |= inflate_flags::TINFL_FLAG_HAS_MORE_INPUT;
    }
    let mut out = [0u8; INFLATE_OUT];
    // About 11 KiB: on the heap, and only for what starts with a header.
    let mut inflater = Box::<DecompressorOxide>::default();
    let (status, _, written) = decompress(&mut inflater, input, &mut out, 0, flags);
    let inflates = match status {
        TINFLStatus::Done | TINFLStatus::HasMoreOutput => true,
        // The sample ended inside the stream: only if the file goes on.
        TINFLStatus::NeedsMoreInput => input.len() < bytes.len() && written >= 64,
        _ => false,
    };
    if !inflates {
        return None;
    }
    Some(if git_object_header(&out[..written]) {
        "git-object"
    } else {
        "zlib"
    })
}

/// `blob 12\0`, `tree 345\0`, `commit 240\0` or `tag 150\0`.
fn git_object_header(inflated: &[u8]) -> bool {
    let Some(space) = inflated.iter().take(7).position(|&b| b == b' ') else {
        return false;
    };
    let size = &inflated[space + 1..];
    let digits = size.iter().take_while(|b| b.is_ascii_digit()).count();
    matches!(&inflated[..space], b"blob" | b"tree" | b"commit" | b"tag")
        && (1..=20).contains(&digits)
        && size.get(digits) == Some(&0)
}

/// A netpbm header's fields are at most this long (a size of 10 digits is
/// more than any image).
const MAX_NETPBM_FIELD: usize = 10;

/// `pbm`, `pgm`, `ppm` or `pfm` for a raw netpbm image (`P4`, `P5`, `P6`;
/// `PF`, `Pf` float maps) whose header follows the grammar (the magic,
/// whitespace and `#` comments, decimal width, height and, but for a
/// bitmap, maximum value or scale, one whitespace byte) and whose file
/// holds the pixels that header announces; `pam` for a `P7` header
/// (`WIDTH`, `HEIGHT`, `DEPTH`, `MAXVAL` lines, `ENDHDR`) likewise. Plain
/// images (`P1`-`P3`) are ASCII digits and whitespace, text to libmagic
/// and to their readers alike: not binary.
fn netpbm(bytes: &[u8]) -> Option<&'static str> {
    let (&[b'P', kind], rest) = bytes.split_first_chunk::<2>()? else {
        return None;
    };
    if kind == b'7' {
        return pam(bytes);
    }
    let (format, channels, has_max) = match kind {
        b'4' => ("pbm", 1, false),
        b'5' => ("pgm", 1, true),
        b'6' => ("ppm", 3, true),
        b'f' => ("pfm", 1, true),
        b'F' => ("pfm", 3, true),
        _ => return None,
    };
    let mut fields = NetpbmFields { bytes: rest, at: 0 };
    let width = fields.number()?;
    let height = fields.number()?;
    let max = if has_max { fields.token()? } else { b"1" };
    // One whitespace byte ends the header.
    let header = 2 + fields.at + 1;
    if !bytes.get(header - 1)?.is_ascii_whitespace() || width == 0 || height == 0 {
        return None;
    }
    let sample_bytes = if kind == b'f' || kind == b'F' {
        // The scale: a decimal number, negative for little-endian.
        let scale = std::str::from_utf8(max).ok()?;
        scale.parse::<f64>().ok().filter(|s| *s != 0.0)?;
        4
    } else {
        let max: u64 = std::str::from_utf8(max).ok()?.parse().ok()?;
        match max {
            1..=255 => 1,
            256..=65535 => 2,
            _ => return None,
        }
    };
    let pixels = if kind == b'4' {
        width.div_ceil(8).checked_mul(height)?
    } else {
        width
            .checked_mul(height)?
            .checked_mul(channels * sample_bytes)?
    };
    (bytes.len() as u64 >= header as u64 + pixels).then_some(format)
}

/// The whitespace-separated fields of a netpbm header, `#` comments to
/// the end of the line skipped.
struct NetpbmFields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> NetpbmFields<'a> {
    /// The next field, which must follow whitespace; `at` is left on the
    /// byte after it.
    fn token(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        loop {
            match *self.bytes.get(self.at)? {
                b'#' => {
                    let line = memchr::memchr(b'\n', &self.bytes[self.at..])?;
                    self.at += line;
                }
                b if b.is_ascii_whitespace() => self.at += 1,
                _ => break,
            }
        }
        if self.at == start {
            return None;
        }
        let field = &self.bytes[self.at..];
        let len = field
            .iter()
            .take(MAX_NETPBM_FIELD + 1)
            .take_while(|b| b.is_ascii_graphic() && **b != b'#')
            .count();
        if len == 0 || len > MAX_NETPBM_FIELD {
            return None;
        }
        self.at += len;
        Some(&field[..len])
    }

    /// The next field, a decimal number.
    fn number(&mut self) -> Option<u64> {
        let token = self.token()?;
        if !token.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(token).ok()?.parse().ok()
    }
}

/// The `P7` header: `P7\n`, then lines of a keyword and its value up to
/// `ENDHDR\n`, which must hold `WIDTH`, `HEIGHT`, `DEPTH` and `MAXVAL`,
/// and the pixels they announce after it.
fn pam(bytes: &[u8]) -> Option<&'static str> {
    let body = bytes.strip_prefix(b"P7\n")?;
    let (mut width, mut height, mut depth, mut max) = (None, None, None, None);
    let mut at = 0;
    // A header of a few lines: bounded, so that text is given up on soon.
    for _ in 0..32 {
        let rest = body.get(at..)?;
        let len = memchr::memchr(b'\n', &rest[..rest.len().min(256)])?;
        let line = &body[at..at + len];
        at += len + 1;
        if line == b"ENDHDR" {
            let sample = if max? < 256 { 1 } else { 2 };
            let pixels = [width?, height?, depth?, sample]
                .into_iter()
                .try_fold(1u64, |n: u64, f| n.checked_mul(f))?;
            let header = 3 + at;
            return (pixels > 0 && bytes.len() as u64 >= header as u64 + pixels).then_some("pam");
        }
        if line.first() == Some(&b'#') {
            continue;
        }
        let text = std::str::from_utf8(line).ok()?;
        let mut words = text.split_ascii_whitespace();
        let (key, value) = (words.next()?, words.next());
        let number = || value.and_then(|v| v.parse::<u64>().ok());
        match key {
            "WIDTH" => width = Some(number()?),
            "HEIGHT" => height = Some(number()?),
            "DEPTH" => depth = Some(number()?),
            "MAXVAL" => max = Some(number().filter(|m| (1..=65535).contains(m))?),
            "TUPLTYPE" => {}
            _ => return None,
        }
    }
    None
}

/// The words for a format's short name, as a skipped file is reported:
/// `PNG image`, `git loose object`, ...; `None` for a name this table
/// does not hold (the caller says `NAME data`).
pub(super) fn format_words(format: &str) -> Option<&'static str> {
    Some(match format {
        // This module's.
        "git-pack" => "git pack",
        "git-pack-index" => "git pack index",
        "git-index" => "git index",
        "git-graph" => "git commit-graph or pack metadata",
        "git-object" => "git loose object",
        "zlib" => "zlib-compressed data",
        "mo" => "gettext compiled catalogue",
        "terminfo" => "compiled terminfo entry",
        "pyc" => "compiled Python",
        "icc" => "ICC colour profile",
        "pbm" => "raw PBM image",
        "pgm" => "raw PGM image",
        "ppm" => "raw PPM image",
        "pfm" => "PFM image",
        "pam" => "PAM image",
        // The sniff's own.
        "msgpack" => "MessagePack",
        "bson" => "BSON",
        "ubj" => "UBJSON",
        // `infer`'s, by its extensions.
        "wasm" => "WebAssembly module",
        "elf" => "ELF executable",
        "exe" | "dll" => "Windows executable",
        "class" => "Java class",
        "bc" => "LLVM bitcode",
        "mach" => "Mach-O executable",
        "dex" | "dey" => "Android Dalvik executable",
        "der" => "DER certificate",
        "obj" => "COFF object",
        "qcow2" => "QEMU disk image",
        "epub" => "EPUB book",
        "mobi" => "Mobipocket book",
        "jpg" => "JPEG image",
        "jp2" => "JPEG 2000 image",
        "png" => "PNG image",
        "gif" => "GIF image",
        "webp" => "WebP image",
        "cr2" => "Canon raw image",
        "tif" => "TIFF image",
        "bmp" => "BMP image",
        "jxr" => "JPEG XR image",
        "psd" => "Photoshop image",
        "ico" => "icon",
        "heif" => "HEIF image",
        "avif" => "AVIF image",
        "jxl" => "JPEG XL image",
        "ora" => "OpenRaster image",
        "djvu" => "DjVu document",
        "dwg" => "DWG drawing",
        "mp4" => "MP4 video",
        "m4v" => "M4V video",
        "mkv" => "Matroska video",
        "webm" => "WebM video",
        "mov" => "QuickTime video",
        "avi" => "AVI video",
        "wmv" => "WMV video",
        "mpg" => "MPEG video",
        "flv" => "Flash video",
        "midi" => "MIDI audio",
        "mp3" => "MP3 audio",
        "m4a" => "M4A audio",
        "opus" => "Opus audio",
        "ogg" => "Ogg audio",
        "flac" => "FLAC audio",
        "wav" => "WAV audio",
        "amr" => "AMR audio",
        "aac" => "AAC audio",
        "aiff" => "AIFF audio",
        "dsf" => "DSF audio",
        "ape" => "Monkey's Audio",
        "woff" | "woff2" => "WOFF font",
        "ttf" => "TrueType font",
        "otf" => "OpenType font",
        "eot" => "Embedded OpenType font",
        "doc" => "Word document",
        "docx" => "Word document (OOXML)",
        "xls" => "Excel spreadsheet",
        "xlsx" => "Excel spreadsheet (OOXML)",
        "ppt" => "PowerPoint presentation",
        "pptx" => "PowerPoint presentation (OOXML)",
        "odt" => "OpenDocument text",
        "ods" => "OpenDocument spreadsheet",
        "odp" => "OpenDocument presentation",
        "zip" => "ZIP archive",
        "tar" => "tar archive",
        "par2" => "PAR2 archive",
        "rar" => "RAR archive",
        "gz" => "gzip-compressed data",
        "bz2" => "bzip2-compressed data",
        "bz3" => "bzip3-compressed data",
        "7z" => "7-Zip archive",
        "xz" => "xz-compressed data",
        "pdf" => "PDF document",
        "swf" => "Flash movie",
        "sqlite" => "SQLite database",
        "nes" => "NES ROM",
        "crx" => "Chrome extension",
        "cab" => "CAB archive",
        "deb" => "Debian package",
        "ar" => "ar archive",
        "Z" => "compress'd data",
        "lz" => "lzip-compressed data",
        "rpm" => "RPM package",
        "dcm" => "DICOM image",
        "zst" => "Zstandard-compressed data",
        "lz4" => "LZ4-compressed data",
        "msi" => "OLE compound document",
        "cpio" => "cpio archive",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zlib stream of `data`, stored (uncompressed) blocks: what the
    /// inflater reads the same as compressed ones, built here without a
    /// compressor.
    pub(crate) fn zlib_stored(data: &[u8]) -> Vec<u8> {
        let mut out = vec![0x78, 0x01];
        let chunks: Vec<&[u8]> = data.chunks(0xFFFF).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            out.push(u8::from(i + 1 == chunks.len()));
            let len = chunk.len() as u16;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&(!len).to_le_bytes());
            out.extend_from_slice(chunk);
        }
        if chunks.is_empty() {
            out.extend_from_slice(&[1, 0, 0, 0xFF, 0xFF]);
        }
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in data {
            a = (a + u32::from(byte)) % 65521;
            b = (b + a) % 65521;
        }
        out.extend_from_slice(&(b << 16 | a).to_be_bytes());
        out
    }

    #[test]
    fn zlib_streams_inflate_and_git_objects_are_named() {
        let blob = zlib_stored(b"blob 6\0hello\n");
        assert_eq!(own_format(&blob), Some("git-object"));
        let tree = zlib_stored(b"tree 0\0");
        assert_eq!(own_format(&tree), Some("git-object"));
        let data = zlib_stored(&b"some data ".repeat(100));
        assert_eq!(own_format(&data), Some("zlib"));
        // A wrong checksum: the stream does not end well.
        let mut broken = zlib_stored(b"blob 6\0hello\n");
        *broken.last_mut().unwrap() ^= 1;
        assert_eq!(own_format(&broken), None);
        // Not an object type, or no NUL after the size.
        assert_eq!(own_format(&zlib_stored(b"blub 6\0hello\n")), Some("zlib"));
        assert_eq!(own_format(&zlib_stored(b"blob 6 hello\n")), Some("zlib"));
    }

    /// Text that starts with a zlib header's two bytes does not inflate.
    #[test]
    fn text_after_a_zlib_header_is_not_zlib() {
        assert!(zlib_header(b"x^2 + y^2"));
        for text in [
            &b"x^2 + y^2 = z^2\n"[..],
            b"x^y is exclusive or, x^-1 the inverse\n",
            "xÚ and more Latin-1 text, caf\u{e9}\n".as_bytes(),
            b"x\x9c\xe9t\xe9 caf\xe9 na\xefve text in Latin-1, long enough\n",
            b"x^",
            b"x",
        ] {
            assert_eq!(own_format(text), None, "{text:?}");
        }
    }

    #[test]
    fn raw_netpbm_images_by_their_header_and_size() {
        let mut pbm = b"P4\n9 9\n".to_vec();
        pbm.extend([0x55, 0x80].repeat(9));
        assert_eq!(own_format(&pbm), Some("pbm"));
        // Cut short of its pixels: no image.
        assert_eq!(own_format(&pbm[..pbm.len() - 1]), None);
        let mut pgm = b"P5\n# a comment\n3 2\n255\n".to_vec();
        pgm.extend([0, 1, 2, 3, 4, 5]);
        assert_eq!(own_format(&pgm), Some("pgm"));
        let mut ppm = b"P6 2 1 65535\n".to_vec();
        ppm.extend([7u8; 12]);
        assert_eq!(own_format(&ppm), Some("ppm"));
        let mut pfm = b"PF\n1 1\n-1.0\n".to_vec();
        pfm.extend([0u8; 12]);
        assert_eq!(own_format(&pfm), Some("pfm"));
        let mut pam =
            b"P7\nWIDTH 2\nHEIGHT 2\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n".to_vec();
        pam.extend([1, 2, 3, 4]);
        assert_eq!(own_format(&pam), Some("pam"));
        // Plain images, and text that starts like a header.
        for text in [
            &b"P1\n3 2\n0 1 0\n1 0 1\n"[..],
            b"P3\n1 1\n255\n0 0 0\n",
            b"P4 is the raw bitmap format\n",
            b"P5 and P6 too\n",
            b"P6\n1 1\n255\n",
            b"P7\nWIDTH 1\nthen prose\n",
            b"PF is a float map\n",
        ] {
            assert_eq!(own_format(text), None, "{text:?}");
        }
    }

    #[test]
    fn git_files_icc_and_others_by_their_magic() {
        let cases: [(&[u8], &str); 9] = [
            (b"%PDF-1.4\n1 0 obj\n<<\n/Pages 2 0 R\n>>\nendobj\n", "pdf"),
            (b"PACK\0\0\0\x02\0\0\0\x01", "git-pack"),
            (b"\xFFtOc\0\0\0\x02\0\0\0\0", "git-pack-index"),
            (b"DIRC\0\0\0\x02\0\0\0\x01", "git-index"),
            (b"CGPH\x01\x01\x03\0", "git-graph"),
            (
                b"\xDE\x12\x04\x95\0\0\0\0\x01\0\0\0\x1c\0\0\0\x24\0\0\0\0\0\0\0\0\0\0\0",
                "mo",
            ),
            (b"\x1A\x01\x30\0\x26\0\x0F\0\x9D\x01\xE8\x02", "terminfo"),
            (b"\xCB\x0D\x0D\x0A\0\0\0\0\0\0\0\0\0\0\0\0", "pyc"),
            (
                &[&[0, 0, 0, 128][..], &[0; 32], b"acsp", &[0; 88]].concat(),
                "icc",
            ),
        ];
        for (bytes, format) in cases {
            assert_eq!(own_format(bytes), Some(format), "{bytes:02X?}");
            assert!(format_words(format).is_some());
        }
        for text in [
            &b"PACK of cards\n"[..],
            b"DIRC is no word\n",
            b"a\r\nb\r\nc\r\nd\r\ne\r\n",
            b"%PDF-x is not a version\n",
        ] {
            assert_eq!(own_format(text), None, "{text:?}");
        }
    }
}
