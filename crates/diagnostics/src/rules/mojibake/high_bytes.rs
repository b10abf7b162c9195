//! The bytes a character of U008's chains stands for (windows-1252 and
//! ISO-8859-1, Mac Roman), and a well-formed window of a file's text: what
//! the rule and its judges (`common`, `quoted`) all read, kept in a leaf
//! so that none of them imports another back.

/// windows-1252's characters for `80`..`9F` (U+FFFD where it has none:
/// those bytes read as the C1 control of the same value, as ISO-8859-1
/// and "sloppy" decoders do).
pub(super) const WINDOWS_1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// Mac Roman's characters for `80`..`FF`.
pub(super) const MAC_ROMAN_HIGH: [char; 128] = [
    'Ä', 'Å', 'Ç', 'É', 'Ñ', 'Ö', 'Ü', 'á', 'à', 'â', 'ä', 'ã', 'å', 'ç', 'é', 'è', 'ê', 'ë', 'í',
    'ì', 'î', 'ï', 'ñ', 'ó', 'ò', 'ô', 'ö', 'õ', 'ú', 'ù', 'û', 'ü', '†', '°', '¢', '£', '§', '•',
    '¶', 'ß', '®', '©', '™', '´', '¨', '≠', 'Æ', 'Ø', '∞', '±', '≤', '≥', '¥', 'µ', '∂', '∑', '∏',
    'π', '∫', 'ª', 'º', 'Ω', 'æ', 'ø', '¿', '¡', '¬', '√', 'ƒ', '≈', '∆', '«', '»', '…', '\u{A0}',
    'À', 'Ã', 'Õ', 'Œ', 'œ', '–', '—', '“', '”', '‘', '’', '÷', '◊', 'ÿ', 'Ÿ', '⁄', '€', '‹', '›',
    'ﬁ', 'ﬂ', '‡', '·', '‚', '„', '‰', 'Â', 'Ê', 'Á', 'Ë', 'È', 'Í', 'Î', 'Ï', 'Ì', 'Ó', 'Ô',
    '\u{F8FF}', 'Ò', 'Ú', 'Û', 'Ù', 'ı', 'ˆ', '˜', '¯', '˘', '˙', '˚', '¸', '˝', '˛', 'ˇ',
];

/// The byte `c` stands for in windows-1252 or ISO-8859-1 (`80`..`FF`), and
/// whether only ISO-8859-1 reads it so (a C1 control).
pub(super) fn latin_byte(c: char) -> Option<(u8, bool)> {
    let v = u32::from(c);
    match v {
        0xA0..=0xFF => Some((v as u8, false)),
        0x80..=0x9F => Some((v as u8, true)),
        _ => WINDOWS_1252_HIGH
            .iter()
            .position(|&w| w == c)
            .map(|i| (0x80 + i as u8, false)),
    }
}

pub(super) fn mac_byte(c: char) -> Option<u8> {
    MAC_ROMAN_HIGH
        .iter()
        .position(|&m| m == c)
        .map(|i| 0x80 + i as u8)
}

/// The well-formed text of `bytes[from..to]` (well-formed UTF-8) cut to
/// whole characters inside those bounds.
pub(super) fn window(bytes: &[u8], from: usize, to: usize) -> (usize, &str) {
    let continuation = |b: u8| (0x80..0xC0).contains(&b);
    let mut start = from;
    while start < to && continuation(bytes[start]) {
        start += 1;
    }
    let text = match std::str::from_utf8(&bytes[start..to]) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&bytes[start..start + e.valid_up_to()]).unwrap_or_default(),
    };
    (start, text)
}
