//! The control bytes text does not use: what the binary sniff counts in
//! the head of every file a scan reads (the codec counts, this says which).
//!
//! Below 0x20 but tab, line feed, form feed, carriage return and escape
//! (terminal colours in logs and captured output), and DEL. NUL is one.

use utf8lint_codec::{ByteClass, ByteSet, count_in};

/// The control bytes text does not use, as five ranges.
const NOT_IN_TEXT: ByteClass<5> = ByteClass::new(
    ByteSet::range(0x00, 0x1F)
        .minus(ByteSet::of(b"\t\n\x0C\r\x1B"))
        .union(ByteSet::of(b"\x7F")),
);

/// How many bytes of `bytes` are control bytes text does not use.
pub(crate) fn count_controls(bytes: &[u8]) -> usize {
    count_in(bytes, &NOT_IN_TEXT)
}

#[cfg(test)]
mod tests {
    use super::count_controls;

    /// Exactly the 28 byte values: every C0 control but the five text
    /// uses, and DEL.
    #[test]
    fn the_set_is_the_28_controls_text_does_not_use() {
        let counted: Vec<u8> = (0..=255u8).filter(|&b| count_controls(&[b]) == 1).collect();
        let expected: Vec<u8> = (0..0x20)
            .filter(|b| !b"\t\n\x0C\r\x1B".contains(b))
            .chain([0x7F])
            .collect();
        assert_eq!(counted, expected);
        assert_eq!(count_controls(b"tab\tlf\ncr\rff\x0Cesc\x1B"), 0);
        assert_eq!(count_controls(b"\0\x7F\x0B\x1F"), 4);
    }
}
