/// A byte-order mark at the start of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signature {
    /// `EF BB BF`: U+FEFF in UTF-8 (it carries no byte order).
    Utf8,
    /// `FF FE`.
    Utf16Le,
    /// `FE FF`.
    Utf16Be,
    /// `FF FE 00 00`.
    Utf32Le,
    /// `00 00 FE FF`.
    Utf32Be,
}

impl Signature {
    /// The signature `bytes` starts with, if any. UTF-32LE is tested before
    /// UTF-16LE, whose mark is its prefix.
    ///
    /// ```
    /// use utf8lint_codec::Signature;
    /// assert_eq!(Signature::detect(b"\xFF\xFE\x00\x00a\x00\x00\x00"), Some(Signature::Utf32Le));
    /// assert_eq!(Signature::detect(b"\xFF\xFEa\x00"), Some(Signature::Utf16Le));
    /// assert_eq!(Signature::detect(b"\xEF\xBB"), None);
    /// ```
    pub fn detect(bytes: &[u8]) -> Option<Signature> {
        const ORDER: [Signature; 5] = [
            Signature::Utf32Le,
            Signature::Utf32Be,
            Signature::Utf8,
            Signature::Utf16Le,
            Signature::Utf16Be,
        ];
        ORDER.into_iter().find(|sig| bytes.starts_with(sig.bytes()))
    }

    /// The bytes of the mark.
    pub const fn bytes(self) -> &'static [u8] {
        match self {
            Signature::Utf8 => b"\xEF\xBB\xBF",
            Signature::Utf16Le => b"\xFF\xFE",
            Signature::Utf16Be => b"\xFE\xFF",
            Signature::Utf32Le => b"\xFF\xFE\x00\x00",
            Signature::Utf32Be => b"\x00\x00\xFE\xFF",
        }
    }

    /// The length of the mark in bytes.
    pub const fn len(self) -> usize {
        self.bytes().len()
    }

    /// Never true: a mark has at least two bytes.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The encoding's name as the WHATWG Encoding Standard and IANA spell it.
    pub const fn encoding_name(self) -> &'static str {
        match self {
            Signature::Utf8 => "UTF-8",
            Signature::Utf16Le => "UTF-16LE",
            Signature::Utf16Be => "UTF-16BE",
            Signature::Utf32Le => "UTF-32LE",
            Signature::Utf32Be => "UTF-32BE",
        }
    }
}
