use core::fmt;

/// A scalar value encoded as 1 to 4 bytes of UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodedScalar {
    buf: [u8; 4],
    len: u8,
}

impl EncodedScalar {
    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// The encoded character as text.
    pub fn as_str(&self) -> &str {
        // SAFETY: encode_utf8 writes only well-formed sequences for scalar
        // values (surrogates and values above U+10FFFF are refused).
        unsafe { core::str::from_utf8_unchecked(self.as_bytes()) }
    }
}

/// Why a value cannot be encoded: UTF-8 encodes scalar values only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeError {
    /// U+D800..U+DFFF: UTF-16 surrogates are not characters.
    Surrogate(u32),
    /// Above U+10FFFF, the last code point RFC 3629 allows.
    AboveMax(u32),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EncodeError::Surrogate(v) => write!(f, "U+{v:04X} is a surrogate, not a scalar value"),
            EncodeError::AboveMax(v) => write!(f, "U+{v:04X} is above U+10FFFF"),
        }
    }
}

impl core::error::Error for EncodeError {}

/// Encodes the scalar value `value` as UTF-8 (RFC 3629 section 3).
///
/// ```
/// use utf8lint_codec::{encode_utf8, EncodeError};
/// assert_eq!(encode_utf8(0x233B4).unwrap().as_bytes(), b"\xF0\xA3\x8E\xB4");
/// assert_eq!(encode_utf8(0xD800), Err(EncodeError::Surrogate(0xD800)));
/// ```
pub fn encode_utf8(value: u32) -> Result<EncodedScalar, EncodeError> {
    let (buf, len) = match value {
        0..=0x7F => ([value as u8, 0, 0, 0], 1),
        0x80..=0x7FF => ([0xC0 | (value >> 6) as u8, cont(value), 0, 0], 2),
        0xD800..=0xDFFF => return Err(EncodeError::Surrogate(value)),
        0x800..=0xFFFF => (
            [0xE0 | (value >> 12) as u8, cont(value >> 6), cont(value), 0],
            3,
        ),
        0x1_0000..=0x10_FFFF => (
            [
                0xF0 | (value >> 18) as u8,
                cont(value >> 12),
                cont(value >> 6),
                cont(value),
            ],
            4,
        ),
        _ => return Err(EncodeError::AboveMax(value)),
    };
    Ok(EncodedScalar { buf, len })
}

const fn cont(bits: u32) -> u8 {
    0x80 | (bits & 0x3F) as u8
}
