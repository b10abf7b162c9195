use core::ops::Range;

use crate::scalar::{Step, scan_window, step};
use crate::{Subpart, Utf8Error};

/// How many bytes after an error are stepped through one at a time before
/// handing the rest to the SIMD validator. Errors cluster (text in a legacy
/// encoding, binary data), and starting the SIMD path costs more than
/// stepping a few bytes; but where errors are sparse every byte stepped
/// here is a byte the SIMD path would have checked many times faster. 16
/// keeps Latin-1 text and random bytes within 2% of 64 and brings
/// enumeration with an error every 4 KiB from 0.71x to 0.90x of a
/// `simdutf8::compat` loop (benches/README.md).
const SCALAR_WINDOW: usize = 16;

/// How many bytes of ASCII after an error are skipped eight at a time
/// before stepping. Legacy text (an error at nearly every non-ASCII byte)
/// is ASCII words between errors: stepping them one byte at a time, or
/// starting the SIMD validator for each, took most of the time of counting
/// a legacy file's errors: the mixed tree's 141 legacy files, 13.0 ms
/// before, 9.5, 7.8 and 7.6 ms skipping up to 32, 128 and 256 bytes.
/// Longer ASCII stretches go to the validator.
const ASCII_SKIP: usize = 128;

/// `from` moved past up to about `limit` bytes of ASCII, in whole words.
#[inline]
fn skip_ascii(bytes: &[u8], mut from: usize, limit: usize) -> usize {
    let end = bytes.len().min(from.saturating_add(limit));
    while let Some(word) = bytes.get(from..from + 8).filter(|_| from + 8 <= end) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let high = word & 0x8080_8080_8080_8080;
        if high != 0 {
            // The first non-ASCII byte of the word (little-endian: lowest).
            return from + (high.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    from
}

/// Validates `bytes` as UTF-8, exactly as [`core::str::from_utf8`] does, but
/// through a SIMD fast path, and with the error's [`crate::ErrorKind`].
///
/// ```
/// let err = utf8lint_codec::from_utf8(b"a\xC0\xAE").unwrap_err();
/// assert_eq!(err.valid_up_to(), 1);
/// assert_eq!(err.error_len(), Some(1));
/// assert_eq!(err.kind(), utf8lint_codec::ErrorKind::InvalidLeadByte);
/// ```
pub fn from_utf8(bytes: &[u8]) -> Result<&str, Utf8Error> {
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    match next_error(bytes, 0) {
        Some(sub) => Err(Utf8Error {
            valid_up_to: sub.offset,
            error_len: if sub.end() == bytes.len() && sub.kind == crate::ErrorKind::Truncated {
                None
            } else {
                Some(sub.len)
            },
            kind: sub.kind,
        }),
        // Unreachable if simdutf8 and Table 3-7 agree; core decides if not.
        None => core::str::from_utf8(bytes).map_err(|e| Utf8Error {
            valid_up_to: e.valid_up_to(),
            error_len: e.error_len().map(|l| l as u8),
            kind: crate::ErrorKind::Truncated,
        }),
    }
}

/// Whether `bytes` is well-formed UTF-8 (the SIMD fast path, nothing more).
pub fn is_valid(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

/// The ill-formed sequence of one byte at `from`, if there is one: a
/// continuation byte, a byte that never leads, or a lead byte that no
/// continuation byte follows. What [`step`] says of those bytes, asked
/// first: in legacy text nearly every non-ASCII byte is one, and the
/// general path costs a call per character.
#[inline(always)]
fn lone_byte(bytes: &[u8], from: usize) -> Option<Subpart> {
    let b = *bytes.get(from)?;
    let kind = match b {
        0x80..=0xBF => crate::ErrorKind::UnexpectedContinuation,
        0xC0 | 0xC1 | 0xF5..=0xFF => crate::ErrorKind::InvalidLeadByte,
        0xC2..=0xF4 if bytes.get(from + 1).is_none_or(|&c| c & 0xC0 != 0x80) => {
            crate::ErrorKind::Truncated
        }
        _ => return None,
    };
    Some(Subpart {
        offset: from,
        len: 1,
        kind,
    })
}

/// Calls `each` with every maximal subpart of `bytes`, in order: what
/// [`next_error`] finds from the start, each time after the last. The
/// lone bytes of legacy text, nearly every non-ASCII byte there, are
/// answered in this loop, without a call each.
#[inline]
pub(crate) fn for_each_error(bytes: &[u8], mut each: impl FnMut(Subpart)) {
    let mut pos = 0;
    while let Some(&b) = bytes.get(pos) {
        // Legacy text's errors mostly follow one another (`\xCF\xF0\xE8`,
        // Cyrillic in windows-1251): no ASCII to skip after one.
        let from = if b.is_ascii() {
            skip_ascii(bytes, pos, ASCII_SKIP)
        } else {
            pos
        };
        // Two paths, not one `Option` of either: merged, the lone byte's
        // subpart went through memory, read back wider than it was written
        // (a stalled store forward per error, most of this loop's time).
        if let Some(sub) = lone_byte(bytes, from) {
            pos = from + 1;
            each(sub);
            continue;
        }
        let Some(sub) = next_error(bytes, from) else {
            return;
        };
        pos = sub.end();
        each(sub);
    }
}

/// Calls `each` with every stretch of adjacent ill-formed maximal subparts
/// of `bytes` (a subpart that starts where the last one ended extends the
/// stretch), in order, and how many subparts it holds: the subparts of
/// [`for_each_error`], merged, for a caller that needs only where they are
/// and how many (U005's note and ranges). Within a stretch, lone bytes,
/// nearly every non-ASCII byte of legacy text, are counted in a byte loop,
/// with no subpart built or handed on for each.
pub(crate) fn error_stretches(bytes: &[u8], mut each: impl FnMut(Range<usize>, usize)) {
    let mut pos = 0;
    while let Some(first) = next_error(bytes, pos) {
        let (start, mut end, mut count) = (first.offset, first.end(), 1);
        loop {
            while let Some(&b) = bytes.get(end) {
                let lone = match b {
                    0x80..=0xC1 | 0xF5..=0xFF => true,
                    0xC2..=0xF4 => bytes.get(end + 1).is_none_or(|&c| c & 0xC0 != 0x80),
                    _ => false,
                };
                if !lone {
                    break;
                }
                end += 1;
                count += 1;
            }
            // ASCII, a well-formed character or a subpart of several bytes
            // (overlong, surrogate, a character cut short) starts here.
            match bytes.get(end..).filter(|rest| !rest.is_empty()).map(step) {
                Some(Step::Invalid(_, len)) => {
                    end += usize::from(len);
                    count += 1;
                }
                _ => break,
            }
        }
        each(start..end, count);
        pos = end;
    }
}

/// The first maximal subpart at or after `from`, which must be a character
/// boundary (or an offset just after a previous subpart).
#[inline]
pub(crate) fn next_error(bytes: &[u8], from: usize) -> Option<Subpart> {
    let from = skip_ascii(bytes, from, ASCII_SKIP);
    if let Some(sub) = lone_byte(bytes, from) {
        return Some(sub);
    }
    let resume = match scan_window(bytes, from, SCALAR_WINDOW) {
        Err((offset, kind, len)) => return Some(Subpart { offset, len, kind }),
        Ok(resume) => resume,
    };
    let rest = bytes.get(resume..).filter(|rest| !rest.is_empty())?;
    let err = simdutf8::compat::from_utf8(rest).err()?;
    let at = resume + err.valid_up_to();
    match bytes.get(at..).map(step) {
        Some(Step::Invalid(kind, len)) => Some(Subpart {
            offset: at,
            len,
            kind,
        }),
        // simdutf8 and Table 3-7 disagree: trust the table, slowly.
        _ => scan_window(bytes, at, usize::MAX)
            .err()
            .map(|(offset, kind, len)| Subpart { offset, len, kind }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_core_on_error_len_at_end_of_input() {
        for bytes in [
            &b"\xE0"[..],
            b"\xE0\xA0",
            b"\xE0\x80",
            b"\xF4\x8F\xBF",
            b"ok\xF0\x90\x80",
        ] {
            let ours = from_utf8(bytes).unwrap_err();
            let core = core::str::from_utf8(bytes).unwrap_err();
            assert_eq!(ours.valid_up_to(), core.valid_up_to(), "{bytes:02X?}");
            assert_eq!(ours.error_len(), core.error_len(), "{bytes:02X?}");
        }
    }
}
