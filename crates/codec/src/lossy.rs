use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::REPLACEMENT_CHARACTER;
use crate::subparts::{Utf8Chunks, subparts};

/// Decodes `bytes`, replacing each ill-formed maximal subpart with one
/// U+FFFD: the same output as `String::from_utf8_lossy`, borrowed when the
/// input is valid.
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = crate::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    for chunk in Utf8Chunks::new(bytes) {
        out.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            out.push(REPLACEMENT_CHARACTER);
        }
    }
    Cow::Owned(out)
}

/// Maps byte offsets between an input and its lossy decoding
/// ([`decode_lossy`]), where each maximal subpart of 1 to 3 bytes became the
/// three bytes of U+FFFD.
///
/// ```
/// use utf8lint_codec::LossyMap;
/// let input = b"a\xFF\xFEb";
/// let map = LossyMap::new(input);
/// assert_eq!(map.to_lossy(3), 7); // "b" is after two U+FFFD
/// assert_eq!(map.to_input(7), 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LossyMap {
    /// For each subpart, in order: its input offset, its length, and the
    /// offset of its U+FFFD in the output.
    spans: Vec<(usize, u8, usize)>,
}

const REPLACEMENT_LEN: usize = REPLACEMENT_CHARACTER.len_utf8();

impl LossyMap {
    /// The map for `bytes`. Costs one validation pass and one entry per error.
    pub fn new(bytes: &[u8]) -> Self {
        let mut spans = Vec::new();
        let mut shift: isize = 0;
        for sub in subparts(bytes) {
            let out = sub.offset as isize + shift;
            spans.push((sub.offset, sub.len, out as usize));
            shift += REPLACEMENT_LEN as isize - isize::from(sub.len);
        }
        LossyMap { spans }
    }

    /// How many maximal subparts the input has.
    pub fn error_count(&self) -> usize {
        self.spans.len()
    }

    /// The offset in the lossy output of input offset `offset`. An offset
    /// inside a subpart maps to the start of its U+FFFD.
    pub fn to_lossy(&self, offset: usize) -> usize {
        // The last subpart starting at or before `offset`.
        let idx = self.spans.partition_point(|&(start, _, _)| start <= offset);
        let Some(&(start, len, out)) = idx.checked_sub(1).and_then(|i| self.spans.get(i)) else {
            return offset;
        };
        let end = start + usize::from(len);
        if offset < end {
            out
        } else {
            out + REPLACEMENT_LEN + (offset - end)
        }
    }

    /// The input offset of lossy-output offset `offset`. An offset inside a
    /// U+FFFD that stands for a subpart maps to the start of the subpart.
    pub fn to_input(&self, offset: usize) -> usize {
        let idx = self.spans.partition_point(|&(_, _, out)| out <= offset);
        let Some(&(start, len, out)) = idx.checked_sub(1).and_then(|i| self.spans.get(i)) else {
            return offset;
        };
        if offset < out + REPLACEMENT_LEN {
            start
        } else {
            start + usize::from(len) + (offset - out - REPLACEMENT_LEN)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_both_ways_around_subparts_of_every_length() {
        // "x", F0 9F 92 (3-byte truncated), "y", C0 (1 byte), "z"
        let input = b"x\xF0\x9F\x92y\xC0z";
        let lossy = decode_lossy(input);
        assert_eq!(lossy, "x\u{FFFD}y\u{FFFD}z");
        let map = LossyMap::new(input);
        assert_eq!(map.error_count(), 2);
        let pairs = [(0, 0), (1, 1), (4, 4), (5, 5), (6, 8), (7, 9)];
        for (input_off, lossy_off) in pairs {
            assert_eq!(map.to_lossy(input_off), lossy_off, "to_lossy({input_off})");
            assert_eq!(map.to_input(lossy_off), input_off, "to_input({lossy_off})");
        }
        // Inside a subpart / inside a U+FFFD: the start.
        assert_eq!(map.to_lossy(2), 1);
        assert_eq!(map.to_input(2), 1);
        assert_eq!(map.to_input(6), 5);
    }
}
