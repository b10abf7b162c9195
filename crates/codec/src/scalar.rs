//! The byte-at-a-time decoder that every other path falls back to at an
//! error. It is a direct transcription of Unicode Table 3-7.

use crate::ErrorKind;

/// What one step from a position finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A well-formed character of this many bytes.
    Valid(u8),
    /// An ill-formed maximal subpart of this kind and length.
    Invalid(ErrorKind, u8),
}

#[inline(always)]
pub(crate) const fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Decodes one character or one maximal subpart starting at `bytes[0]`.
/// `bytes` must not be empty.
#[inline]
pub(crate) fn step(bytes: &[u8]) -> Step {
    let Some(&lead) = bytes.first() else {
        // Never called on empty input; answer something harmless anyway.
        return Step::Invalid(ErrorKind::Truncated, 0);
    };
    // `need` continuation bytes follow; the first of them must lie in lo..=hi.
    let (need, lo, hi): (u8, u8, u8) = match lead {
        0x00..=0x7F => return Step::Valid(1),
        0x80..=0xBF => return Step::Invalid(ErrorKind::UnexpectedContinuation, 1),
        0xC0 | 0xC1 | 0xF5..=0xFF => return Step::Invalid(ErrorKind::InvalidLeadByte, 1),
        0xC2..=0xDF => (1, 0x80, 0xBF),
        0xE0 => (2, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE | 0xEF => (2, 0x80, 0xBF),
        0xED => (2, 0x80, 0x9F),
        0xF0 => (3, 0x90, 0xBF),
        0xF1..=0xF3 => (3, 0x80, 0xBF),
        0xF4 => (3, 0x80, 0x8F),
    };
    let Some(&second) = bytes.get(1) else {
        return Step::Invalid(ErrorKind::Truncated, 1);
    };
    if !(lo..=hi).contains(&second) {
        // A continuation byte outside the lead's range names the defect; any
        // other byte simply cuts the sequence short.
        let kind = if is_continuation(second) {
            match lead {
                0xE0 | 0xF0 => ErrorKind::Overlong,
                0xED => ErrorKind::Surrogate,
                _ => ErrorKind::AboveMax, // 0xF4: the only other narrowed lead
            }
        } else {
            ErrorKind::Truncated
        };
        return Step::Invalid(kind, 1);
    }
    let mut i = 2u8;
    while i <= need {
        match bytes.get(usize::from(i)) {
            Some(&b) if is_continuation(b) => i += 1,
            _ => return Step::Invalid(ErrorKind::Truncated, i),
        }
    }
    Step::Valid(need + 1)
}

/// Finds the first error at or after `from` by stepping byte by byte, but
/// looks at no more than about `window` bytes. Returns `Ok(pos)` with the
/// character boundary where it stopped when it found no error.
#[inline]
pub(crate) fn scan_window(
    bytes: &[u8],
    from: usize,
    window: usize,
) -> Result<usize, (usize, ErrorKind, u8)> {
    let end = bytes.len().min(from.saturating_add(window));
    let mut i = from;
    while i < end {
        let Some(rest) = bytes.get(i..) else { break };
        match step(rest) {
            Step::Valid(n) => i += usize::from(n),
            Step::Invalid(kind, len) => return Err((i, kind, len)),
        }
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ErrorKind::*;

    #[test]
    fn steps_follow_table_3_7() {
        let cases: &[(&[u8], Step)] = &[
            (b"A", Step::Valid(1)),
            (&[0xC2, 0x80], Step::Valid(2)),
            (&[0xDF, 0xBF], Step::Valid(2)),
            (&[0xE0, 0xA0, 0x80], Step::Valid(3)),
            (&[0xE0, 0x9F, 0x80], Step::Invalid(Overlong, 1)),
            (&[0xED, 0x9F, 0xBF], Step::Valid(3)),
            (&[0xED, 0xA0, 0x80], Step::Invalid(Surrogate, 1)),
            (&[0xF0, 0x90, 0x80, 0x80], Step::Valid(4)),
            (&[0xF0, 0x8F, 0xBF, 0xBF], Step::Invalid(Overlong, 1)),
            (&[0xF4, 0x8F, 0xBF, 0xBF], Step::Valid(4)),
            (&[0xF4, 0x90, 0x80, 0x80], Step::Invalid(AboveMax, 1)),
            (&[0xF1, 0x80, 0x80], Step::Invalid(Truncated, 3)),
            (&[0xF1, 0x80, 0x41], Step::Invalid(Truncated, 2)),
            (&[0xF1, 0x80, 0x80, 0x41], Step::Invalid(Truncated, 3)),
            (&[0xE1, 0x41], Step::Invalid(Truncated, 1)),
            (&[0xC0, 0x80], Step::Invalid(InvalidLeadByte, 1)),
            (&[0x80], Step::Invalid(UnexpectedContinuation, 1)),
            (&[0xFF], Step::Invalid(InvalidLeadByte, 1)),
        ];
        for (bytes, want) in cases {
            assert_eq!(step(bytes), *want, "{bytes:02X?}");
        }
    }
}
