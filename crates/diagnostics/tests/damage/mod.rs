//! Mojibake made on purpose, for the U008 corpus tests: text's UTF-8 (or
//! CESU-8) read as windows-1252, ISO-8859-1 or Mac Roman, once or more.

/// A decoding that makes mojibake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Chain {
    Windows1252,
    Latin1,
    MacRoman,
}

impl Chain {
    pub(crate) const ALL: [Chain; 3] = [Chain::Windows1252, Chain::Latin1, Chain::MacRoman];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Chain::Windows1252 => "windows-1252",
            Chain::Latin1 => "ISO-8859-1",
            Chain::MacRoman => "Mac Roman",
        }
    }

    /// The chain a fixture names (`windows-1252`, `ISO-8859-1`, `Mac Roman`).
    #[allow(dead_code)]
    pub(crate) fn named(name: &str) -> Option<Chain> {
        Chain::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The text that `bytes` reads as (windows-1252's five undefined bytes
    /// as the C1 control of the same value, as "sloppy" decoders and ftfy
    /// have it).
    pub(crate) fn read(self, bytes: &[u8]) -> String {
        match self {
            Chain::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
            Chain::Windows1252 => bytes
                .iter()
                .map(|&b| {
                    let one = [b];
                    let (text, errors) =
                        encoding_rs::WINDOWS_1252.decode_without_bom_handling(&one);
                    match text.chars().next() {
                        Some(c) if !errors => c,
                        _ => char::from(b),
                    }
                })
                .collect(),
            Chain::MacRoman => encoding_rs::MACINTOSH
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
        }
    }
}

/// `text` damaged `layers` times through `chain`.
#[allow(dead_code)]
pub(crate) fn damage(text: &str, chain: Chain, layers: usize) -> String {
    let mut out = text.to_owned();
    for _ in 0..layers {
        out = chain.read(out.as_bytes());
    }
    out
}

/// `text` as CESU-8: an astral character as its two surrogates, each
/// written as a three-byte sequence (as Java writes "UTF-8").
#[allow(dead_code)]
pub(crate) fn cesu8(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        if c.len_utf8() < 4 {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            continue;
        }
        for &unit in c.encode_utf16(&mut [0; 2]).iter() {
            let u = u32::from(unit);
            out.extend_from_slice(&[
                0xE0 | (u >> 12) as u8,
                0x80 | ((u >> 6) & 0x3F) as u8,
                0x80 | (u & 0x3F) as u8,
            ]);
        }
    }
    out
}
