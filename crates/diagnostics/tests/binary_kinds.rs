//! The kinds the sniff names binary files by, on small synthetic files of
//! the shapes of real ones; and, where a copy of the real files is at
//! hand, on those. The real files were taken from Debian bookworm's source
//! packages (`apt-get source NAME=VERSION`, unpacked with `dpkg-source -x`):
//! set `UTF8LINT_REAL_TREES` to a directory that holds each unpacked source
//! as `NAME_VERSION/` to check them too. None of them is kept here.

use std::path::Path;

use utf8lint_diagnostics::{Sniff, sniff};

/// (source package and version, path in it, SHA-256 of the file, kind).
const REAL: &[(&str, &str, &str, &str)] = &[
    (
        "emacs_28.2+1",
        "etc/images/separator.pbm",
        "e5a3a55efaac8fc69c55b60fc7d38c42264cc5c85509a75a776daa8f2f866f0e",
        "raw PBM image",
    ),
    (
        "emacs_28.2+1",
        "etc/images/splash.bmp",
        "da36c5c3c3a0439128011310221c2bba9a1cfb853a5900773df1991b66b95294",
        "BMP image",
    ),
    (
        "emacs_28.2+1",
        "etc/e/eterm-color",
        "607100ee449bde2299d035d5d9f0758318139863362456423bd340488009988a",
        "compiled terminfo entry",
    ),
    (
        "libgit2_1.5.1+ds",
        "tests/resources/submod3/.gitted/modules/One/objects/6b/31c659545507c381e9cd34ec508f16c04e149e",
        "921e0164ddcf9c1c33c5ddb3bbcd59ebe7c19b311f3f5c534fd1db78ae3afac4",
        "git loose object",
    ),
    (
        "libgit2_1.5.1+ds",
        "tests/resources/shallow.git/objects/pack/pack-706e49b161700946489570d96153e5be4dc31ad4.pack",
        "b20838c2509220af794516cdf39d6d7c15051eabc3ed8dd95415d3b84c45a159",
        "git pack",
    ),
    (
        "libgit2_1.5.1+ds",
        "tests/resources/shallow.git/objects/pack/pack-706e49b161700946489570d96153e5be4dc31ad4.idx",
        "953059413cf9a9489ad3fdaeaf36947bed54d397994f6a00f9edc46878341030",
        "git pack index",
    ),
    (
        "libgit2_1.5.1+ds",
        "tests/resources/submod3/.gitted/modules/One/index",
        "76a9319926b3b6f94e3d59fb196ffc8d9f6c755ecb06a27a6b6b90ef808cc825",
        "git index",
    ),
    (
        "file_1:5.44-3",
        "tests/pnm2.testfile",
        "41d37cf9dde83ef36609cf1a9e7fbd1cb7e97882413d4db2af14ae71b824cf6c",
        "raw PGM image",
    ),
    (
        "recode_3.6-25",
        "i18n/el.mo",
        "abac51724e4fe93ab6dbb9c417e14380caab7042dd44528c906b6586ca821880",
        "gettext compiled catalogue",
    ),
    (
        "apache2_2.4.68-1~deb12u1",
        "debian/perl-framework/t/htdocs/modules/deflate/apache_pb.gif",
        "1654416fec35a8b5d36ee0257025cec63e56dfe8572b6ff67c6b0d0d43158cbb",
        "GIF image",
    ),
    (
        "groff_1.22.4-10",
        "contrib/mom/examples/penguin.pdf",
        "564a521995ae8a647ff9664c701759fa055655827d844db63bdf35cc706fb8f9",
        "PDF document",
    ),
];

fn kind(bytes: &[u8]) -> Option<String> {
    match sniff(bytes) {
        Sniff::Binary(evidence) => Some(evidence.to_string()),
        _ => None,
    }
}

/// `blob 10\0synthetic\n` as a zlib stream of one stored block: the
/// header, the block's length and its complement, the bytes, Adler-32.
const GIT_OBJECT: &[u8] = b"\x78\x01\x01\x12\x00\xED\xFFblob 10\x00synthetic\n\x38\xEC\x06\x06";

/// Each real file's kind, on a synthetic file of its shape: its header
/// and a little of its body, written here.
#[test]
fn synthetic_files_of_each_shape_get_their_kind() {
    let mut pbm = b"P4\n24 4\n".to_vec();
    pbm.extend([0xC0, 0x80, 0x80].repeat(4));
    let mut pgm = b"P5\n# written by hand\n4 2\n255\n".to_vec();
    pgm.extend([0x10, 0x80, 0xFF, 0x7E, 0x01, 0xC3, 0xA9, 0x41]);
    let shapes: Vec<(Vec<u8>, &str)> = vec![
        (pbm, "raw PBM image"),
        (b"BM\x8a\x7b\x0c\x00\x00\x00\x00\x00\x8a\x00\x00\x00|\x00".to_vec(), "BMP image"),
        (b"\x1a\x01\x30\x00\x26\x00\x0f\x00\x9d\x01\xe8\x02eterm-color|x\x00".to_vec(), "compiled terminfo entry"),
        (GIT_OBJECT.to_vec(), "git loose object"),
        (b"PACK\x00\x00\x00\x02\x00\x00\x00\x03\x95\x0ex\x9c".to_vec(), "git pack"),
        (b"\xfftOc\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x01".to_vec(), "git pack index"),
        (b"DIRC\x00\x00\x00\x02\x00\x00\x00\x01T\x9e\x0b\x01".to_vec(), "git index"),
        (pgm, "raw PGM image"),
        (
            b"\xde\x12\x04\x95\x00\x00\x00\x00\x02\x00\x00\x00\x1c\x00\x00\x00,\x00\x00\x00\x00\x00\x00\x00<\x00\x00\x00".to_vec(),
            "gettext compiled catalogue",
        ),
        (b"GIF89a\x02\x01\x02\x01\xf7\x00\x00".to_vec(), "GIF image"),
        (b"%PDF-1.4\n1 0 obj\n<<\n/Pages 2 0 R\n/Type /Catalog\n>>\nendobj\n".to_vec(), "PDF document"),
    ];
    assert_eq!(shapes.len(), REAL.len());
    for ((bytes, expected), (_, path, _, real)) in shapes.iter().zip(REAL) {
        assert_eq!(expected, real, "{path}");
        assert_eq!(kind(bytes).as_deref(), Some(*expected), "{bytes:02X?}");
    }
}

/// The real files, when `UTF8LINT_REAL_TREES` holds them: each is the one
/// measured (its SHA-256, by `sha256sum`) and gets its kind.
#[test]
fn real_files_get_their_kind_where_present() {
    let Some(root) = std::env::var_os("UTF8LINT_REAL_TREES") else {
        return;
    };
    let mut seen = 0;
    for (tree, path, sha256, expected) in REAL {
        let file = Path::new(&root).join(tree).join(path);
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let sum = std::process::Command::new("sha256sum")
            .arg(&file)
            .output()
            .expect("sha256sum runs");
        let sum = String::from_utf8_lossy(&sum.stdout);
        assert!(sum.starts_with(sha256), "{}: {sum}", file.display());
        assert_eq!(
            kind(&bytes).as_deref(),
            Some(*expected),
            "{}",
            file.display()
        );
        seen += 1;
    }
    assert!(
        seen > 0,
        "none of the real files is under {}",
        Path::new(&root).display()
    );
}
