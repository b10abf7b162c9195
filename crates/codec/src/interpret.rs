//! What an ill-formed sequence would have meant to a lax decoder. This is
//! for messages ("an overlong form of U+002E"), never for decoding.

use crate::scalar::is_continuation;

/// A reading of an ill-formed byte sequence by the bit pattern alone, as a
/// lax or legacy decoder would have read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpretation {
    /// A form longer than necessary for `value` (`C0 AE` is U+002E in two
    /// bytes). `len` is 2 to 6.
    Overlong {
        /// The value the bits spell.
        value: u32,
        /// The length of the form, 2 to 6 bytes.
        len: u8,
    },
    /// A UTF-16 surrogate encoded on its own as three bytes (WTF-8).
    Surrogate {
        /// The surrogate, U+D800..U+DFFF.
        value: u32,
    },
    /// A high and a low surrogate, each encoded as three bytes (CESU-8,
    /// WTF-8 written by a UTF-16 program): six bytes meaning one character.
    SurrogatePair {
        /// The character the pair stands for, U+10000..U+10FFFF.
        value: u32,
        /// The high surrogate.
        high: u16,
        /// The low surrogate.
        low: u16,
    },
    /// A four-byte form of a value above U+10FFFF.
    AboveMax {
        /// The value, U+110000..U+1FFFFF.
        value: u32,
    },
    /// An RFC 2279 five- or six-byte form (lead `F8..FD`), for values up to
    /// U+7FFFFFFF, which RFC 3629 removed.
    Rfc2279 {
        /// The value the bits spell.
        value: u32,
        /// 5 or 6.
        len: u8,
    },
}

impl Interpretation {
    /// How many bytes of input this reading covers.
    pub const fn len(&self) -> usize {
        match *self {
            Interpretation::Overlong { len, .. } | Interpretation::Rfc2279 { len, .. } => {
                len as usize
            }
            Interpretation::Surrogate { .. } => 3,
            Interpretation::SurrogatePair { .. } => 6,
            Interpretation::AboveMax { .. } => 4,
        }
    }

    /// Never true: every reading covers at least two bytes.
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The value the bytes spell.
    pub const fn value(&self) -> u32 {
        match *self {
            Interpretation::Overlong { value, .. }
            | Interpretation::Surrogate { value }
            | Interpretation::SurrogatePair { value, .. }
            | Interpretation::AboveMax { value }
            | Interpretation::Rfc2279 { value, .. } => value,
        }
    }
}

/// Reads the ill-formed sequence at the start of `bytes` by its bit pattern,
/// if it has a reading: a lead byte with 1 to 5 leading one bits followed by
/// as many continuation bytes, spelling an overlong form, a surrogate (or a
/// CESU-8 pair of them), a value above U+10FFFF, or an RFC 2279 form.
/// Returns `None` for a well-formed sequence and for bytes with no reading
/// (a stray continuation byte, a cut-short sequence, `FE`, `FF`).
///
/// ```
/// use utf8lint_codec::{interpret, Interpretation};
/// assert_eq!(interpret(b"\xC0\xAE"), Some(Interpretation::Overlong { value: 0x2E, len: 2 }));
/// assert_eq!(interpret(b"\xED\xA1\x8C\xED\xBE\xB4").map(|i| i.value()), Some(0x233B4));
/// assert_eq!(interpret(b"\xF8\x88\x80\x80\x80"), Some(Interpretation::Rfc2279 { value: 0x200000, len: 5 }));
/// ```
pub fn interpret(bytes: &[u8]) -> Option<Interpretation> {
    let (value, len) = read_lax(bytes)?;
    const MIN_FOR_LEN: [u32; 7] = [0, 0, 0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000];
    if value < MIN_FOR_LEN[usize::from(len)] {
        return Some(Interpretation::Overlong { value, len });
    }
    match (len, value) {
        (3, 0xD800..=0xDBFF) => {
            let low = bytes
                .get(3..)
                .and_then(read_lax)
                .filter(|&(v, l)| l == 3 && (0xDC00..=0xDFFF).contains(&v));
            Some(match low {
                Some((low, _)) => Interpretation::SurrogatePair {
                    value: 0x1_0000 + ((value - 0xD800) << 10) + (low - 0xDC00),
                    high: value as u16,
                    low: low as u16,
                },
                None => Interpretation::Surrogate { value },
            })
        }
        (3, 0xDC00..=0xDFFF) => Some(Interpretation::Surrogate { value }),
        (4, 0x11_0000..) => Some(Interpretation::AboveMax { value }),
        (5 | 6, _) => Some(Interpretation::Rfc2279 { value, len }),
        _ => None, // well-formed
    }
}

/// Decodes one sequence by the bit pattern alone (RFC 2279's rules): the
/// lead's leading one bits give the length, 2 to 6, and that many bytes
/// minus one must be continuation bytes.
fn read_lax(bytes: &[u8]) -> Option<(u32, u8)> {
    let lead = *bytes.first()?;
    let len = lead.leading_ones() as u8;
    if !(2..=6).contains(&len) {
        return None;
    }
    let mut value = u32::from(lead) & (0x7F >> len);
    for i in 1..usize::from(len) {
        let b = *bytes.get(i)?;
        if !is_continuation(b) {
            return None;
        }
        value = (value << 6) | u32::from(b & 0x3F);
    }
    Some((value, len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Interpretation::*;

    #[test]
    fn readings() {
        let cases: &[(&[u8], Option<Interpretation>)] = &[
            (
                b"\xC0\xAE",
                Some(Overlong {
                    value: 0x2E,
                    len: 2,
                }),
            ),
            (
                b"\xC0\xAF",
                Some(Overlong {
                    value: 0x2F,
                    len: 2,
                }),
            ),
            (
                b"\xE0\x80\xAF",
                Some(Overlong {
                    value: 0x2F,
                    len: 3,
                }),
            ),
            (
                b"\xF0\x80\x80\xAF",
                Some(Overlong {
                    value: 0x2F,
                    len: 4,
                }),
            ),
            (
                b"\xF8\x80\x80\x80\xAF",
                Some(Overlong {
                    value: 0x2F,
                    len: 5,
                }),
            ),
            (
                b"\xFC\x80\x80\x80\x80\xAF",
                Some(Overlong {
                    value: 0x2F,
                    len: 6,
                }),
            ),
            (
                b"\xC1\xBF",
                Some(Overlong {
                    value: 0x7F,
                    len: 2,
                }),
            ),
            (b"\xC0\x80", Some(Overlong { value: 0, len: 2 })),
            (b"\xED\xA0\x80", Some(Surrogate { value: 0xD800 })),
            (b"\xED\xBF\xBF", Some(Surrogate { value: 0xDFFF })),
            (b"\xED\xA0\x80A", Some(Surrogate { value: 0xD800 })),
            (
                b"\xED\xA1\x8C\xED\xBE\xB4",
                Some(SurrogatePair {
                    value: 0x233B4,
                    high: 0xD84C,
                    low: 0xDFB4,
                }),
            ),
            (
                b"\xED\xAF\xBF\xED\xBF\xBF",
                Some(SurrogatePair {
                    value: 0x10FFFF,
                    high: 0xDBFF,
                    low: 0xDFFF,
                }),
            ),
            (b"\xF4\x90\x80\x80", Some(AboveMax { value: 0x110000 })),
            (b"\xF7\xBF\xBF\xBF", Some(AboveMax { value: 0x1FFFFF })),
            (
                b"\xF8\x88\x80\x80\x80",
                Some(Rfc2279 {
                    value: 0x200000,
                    len: 5,
                }),
            ),
            (
                b"\xFD\xBF\xBF\xBF\xBF\xBF",
                Some(Rfc2279 {
                    value: 0x7FFF_FFFF,
                    len: 6,
                }),
            ),
            (b"\xE2\x82\xAC", None), // well-formed
            (b"\xE6\x97x", None),    // cut short: no reading
            (b"\x80", None),
            (b"\xFE", None),
            (b"\xFF", None),
            (b"", None),
        ];
        for (bytes, want) in cases {
            assert_eq!(interpret(bytes), *want, "{bytes:02X?}");
            if let Some(i) = want {
                assert!(i.len() <= bytes.len());
            }
        }
    }

    #[test]
    fn no_reading_is_ever_a_well_formed_sequence() {
        // Every reading must be of bytes that a strict decoder rejects.
        for lead in 0xC0..=0xFFu8 {
            for second in 0x80..=0xBFu8 {
                let bytes = [lead, second, 0x80, 0x80, 0x80, 0x80];
                if let Some(i) = interpret(&bytes) {
                    let covered = &bytes[..i.len()];
                    assert!(core::str::from_utf8(covered).is_err(), "{covered:02X?}");
                }
            }
        }
    }
}
