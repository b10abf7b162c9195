//! Byte patterns that the fused validator ([`crate::validate_scanning`])
//! looks for while it validates, given by the caller as data.
//!
//! A [`Pattern`] is three sets of bytes: it *ends* at a byte `cur` in its
//! third set when the byte before it (`prev1`) is in its second and the
//! one before that (`prev2`) in its first. The caller groups its patterns
//! in [`Family`]s, each with a *kind* (one bit, which the validator reports
//! with each block), builds them with `const fn`s ([`ByteSet`],
//! [`Pattern::new`]) and compiles them once ([`Patterns::new`], in a
//! `const`) into the lookup tables of every kernel:
//!
//! * the 256-bit kernel looks each byte up by nibble (two 16-entry tables
//!   per byte, as the validator classifies its errors, after Keiser and
//!   Lemire), so each set is split into products of a set of high nibbles
//!   and a set of low nibbles (`C2`, `80..=9F` and `E1 E3 F1 F3` are one
//!   product each; `CD..=D7` is two), and a pattern takes one bit per
//!   product of its three sets: at most [`NIBBLE_BITS`] in all. Its test is
//!   exact.
//! * the 512-bit kernel looks each byte up in 128-entry tables (by its low
//!   seven bits), one bit per family: the patterns of a family are tested
//!   as one, the union of their sets at each position, at most
//!   [`FAMILIES`] families. Its test is a superset: put in one family the
//!   patterns whose union still ends nothing in ordinary text, or whose
//!   extra triples are not well-formed UTF-8.
//! * a pattern that looks at no byte before its end ([`ByteSet::ANY`]
//!   twice) is tested by that byte alone, in every chunk (two lookups, at
//!   most [`CUR_BITS`] nibble products in all): only such a pattern may end
//!   at an ASCII byte, so that ASCII chunks, most of most files, cost two
//!   lookups a register.
//!
//! Compiling patterns that break a rule or a budget fails (at build time,
//! in a `const`). Adding a pattern never touches the kernels.

/// A set of byte values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    /// No byte.
    pub const NONE: ByteSet = ByteSet([0; 4]);
    /// Every byte.
    pub const ANY: ByteSet = ByteSet([u64::MAX; 4]);

    /// The bytes listed.
    pub const fn of(bytes: &[u8]) -> ByteSet {
        let mut set = ByteSet::NONE;
        let mut i = 0;
        while i < bytes.len() {
            set = set.with(bytes[i]);
            i += 1;
        }
        set
    }

    /// The bytes `first..=last`.
    pub const fn range(first: u8, last: u8) -> ByteSet {
        let mut set = ByteSet::NONE;
        let mut b = first as usize;
        while b <= last as usize {
            set = set.with(b as u8);
            b += 1;
        }
        set
    }

    /// The bytes in either set.
    pub const fn union(self, other: ByteSet) -> ByteSet {
        let mut words = self.0;
        let mut i = 0;
        while i < 4 {
            words[i] |= other.0[i];
            i += 1;
        }
        ByteSet(words)
    }

    /// The bytes of this set that are not in `other`.
    pub const fn minus(self, other: ByteSet) -> ByteSet {
        let mut words = self.0;
        let mut i = 0;
        while i < 4 {
            words[i] &= !other.0[i];
            i += 1;
        }
        ByteSet(words)
    }

    /// Whether `b` is in the set.
    pub const fn contains(self, b: u8) -> bool {
        self.0[(b >> 6) as usize] & (1 << (b & 63)) != 0
    }

    const fn with(self, b: u8) -> ByteSet {
        let mut words = self.0;
        words[(b >> 6) as usize] |= 1 << (b & 63);
        ByteSet(words)
    }

    const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    const fn is_any(self) -> bool {
        self.0[0] & self.0[1] & self.0[2] & self.0[3] == u64::MAX
    }

    /// The set's ASCII bytes.
    const fn ascii(self) -> ByteSet {
        ByteSet([self.0[0], self.0[1], 0, 0])
    }

    /// For each high nibble, the set of low nibbles whose byte is in the set.
    const fn lows(self) -> [Nibbles; 16] {
        let mut lows = [0; 16];
        let mut b = 0;
        while b < 256 {
            if self.contains(b as u8) {
                lows[b >> 4] |= 1 << (b & 15);
            }
            b += 1;
        }
        lows
    }

    /// The set as a union of products of a set of high nibbles and a set of
    /// low nibbles: the high nibbles that allow the same low nibbles, with
    /// them. Exact; at most 16 products.
    const fn products(self) -> ([Product; 16], usize) {
        let lows = self.lows();
        let mut out = [Product { high: 0, low: 0 }; 16];
        let mut n = 0;
        let mut h = 0;
        while h < 16 {
            let mut first = lows[h] != 0;
            let mut k = 0;
            while k < h {
                if lows[k] == lows[h] {
                    first = false;
                }
                k += 1;
            }
            if first {
                let mut high = 0;
                let mut k = h;
                while k < 16 {
                    if lows[k] == lows[h] {
                        high |= 1 << k;
                    }
                    k += 1;
                }
                out[n] = Product { high, low: lows[h] };
                n += 1;
            }
            h += 1;
        }
        (out, n)
    }
}

/// A set of nibble values, one bit per value.
type Nibbles = u16;

/// The bytes whose high nibble is in `high` and low nibble in `low`.
#[derive(Clone, Copy)]
struct Product {
    high: Nibbles,
    low: Nibbles,
}

/// Three consecutive bytes: `prev2`, then `prev1`, then `cur`, where the
/// pattern ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// The bytes allowed two before the end.
    pub prev2: ByteSet,
    /// The bytes allowed just before the end.
    pub prev1: ByteSet,
    /// The bytes at which the pattern may end.
    pub cur: ByteSet,
}

impl Pattern {
    /// `prev2`, `prev1`, then `cur`.
    pub const fn new(prev2: ByteSet, prev1: ByteSet, cur: ByteSet) -> Pattern {
        Pattern { prev2, prev1, cur }
    }

    /// Whether the pattern ends at `cur` after `prev1` and `prev2`.
    pub const fn matches(&self, prev2: u8, prev1: u8, cur: u8) -> bool {
        self.prev2.contains(prev2) && self.prev1.contains(prev1) && self.cur.contains(cur)
    }
}

/// How many nibble products (one per bit: two registers of eight) the
/// 256-bit kernel tests for the patterns that look at the bytes before
/// their end.
pub const NIBBLE_BITS: usize = 16;

/// How many families of patterns that look at the bytes before their end
/// the 512-bit kernel tests (one bit each).
pub const FAMILIES: usize = 8;

/// How many nibble products (one bit each) the last bytes of the patterns
/// that look at no byte before their end may make in all.
pub const CUR_BITS: usize = 8;

/// Patterns that a 512-bit kernel may test as one (the union of their
/// sets at each position), and what the caller calls what they find: a
/// *kind*, one of the bits 1, 2, 4 and 8, which [`crate::Found::Block`]
/// reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// The kind of what the patterns find (1, 2, 4 or 8).
    pub kind: u8,
    /// The patterns.
    pub patterns: &'static [Pattern],
}

impl Family {
    /// `patterns`, which find `kind`.
    pub const fn new(kind: u8, patterns: &'static [Pattern]) -> Family {
        Family { kind, patterns }
    }
}

/// Patterns compiled into every kernel's tables; see the module's
/// documentation.
///
/// ```
/// use utf8lint_codec::{ByteSet, Family, Pattern, Patterns};
/// // U+202E, and any C0 control but LF: two kinds.
/// const PATTERNS: Patterns = Patterns::new(&[
///     Family::new(1, &[Pattern::new(ByteSet::of(&[0xE2]), ByteSet::of(&[0x80]), ByteSet::of(&[0xAE]))]),
///     Family::new(2, &[Pattern::new(ByteSet::ANY, ByteSet::ANY, ByteSet::range(0, 9).union(ByteSet::range(11, 31)))]),
/// ]);
/// assert_eq!(PATTERNS.ends(b'a', b'\n', 0x1B), 2);
/// assert_eq!(PATTERNS.ends(0xE2, 0x80, 0xAE), 1);
/// assert_eq!(PATTERNS.ends(0xE2, 0x80, 0x99), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Patterns {
    families: &'static [Family],
    /// The 256-bit kernel's tables of the patterns that look at the bytes
    /// before their end, by register of eight bits, in the order `prev2`
    /// high and low nibble, `prev1` high and low, `cur` high and low.
    pub(crate) nibble: [[[u8; 16]; 6]; 2],
    /// The kind of each of their bits.
    pub(crate) nibble_kinds: [u8; NIBBLE_BITS],
    /// The 256-bit kernel's tables of the patterns that look at no byte
    /// before their end, by `cur`'s high and low nibble.
    pub(crate) cur: [[u8; 16]; 2],
    /// The kind of each of their bits.
    pub(crate) cur_kinds: [u8; CUR_BITS],
    /// The 512-bit kernel's tables: by `prev2`'s low seven bits, `prev1`'s
    /// low seven bits and a non-ASCII `cur`'s low seven bits (one bit per
    /// family); by `cur`'s low seven bits, the kinds of the patterns that
    /// look at no byte before their end, those that end at the ASCII byte
    /// in the low four bits and those that end at the non-ASCII one in the
    /// high four (one lookup serves both).
    pub(crate) bytes: [[u8; 128]; 4],
    /// The kind of each family's bit.
    pub(crate) family_kinds: [u8; FAMILIES],
    /// Whether a family of the 512-bit tables also ends at the second byte
    /// of every U+FEFF and U+FFFD (`EF BB`, `EF BF`), so that the kernel
    /// finds them in the blocks the patterns report.
    pub(crate) marks_in_bytes: bool,
}

/// The bytes `EF` and `BB` or `BF`: the first two of U+FEFF and U+FFFD.
const MARK_PREV1: u8 = 0xEF;
const MARK_SECOND: [u8; 2] = [0xBB, 0xBF];

impl Patterns {
    /// No pattern: nothing ends anywhere.
    pub const NONE: Patterns = Patterns::new(&[]);

    /// Compiles `families` into every kernel's tables. Panics (in a
    /// `const`, the build fails) if a kind is not one bit, if a pattern
    /// that may end at an ASCII byte looks at a byte before it, or if the
    /// patterns outgrow a kernel: more than [`NIBBLE_BITS`] nibble products
    /// of the patterns that look at the bytes before their end, more than
    /// [`FAMILIES`] families of them, more than [`CUR_BITS`] products of
    /// the others' last bytes.
    pub const fn new(families: &'static [Family]) -> Patterns {
        let mut out = Patterns {
            families,
            nibble: [[[0; 16]; 6]; 2],
            nibble_kinds: [0; NIBBLE_BITS],
            cur: [[0; 16]; 2],
            cur_kinds: [0; CUR_BITS],
            bytes: [[0; 128]; 4],
            family_kinds: [0; FAMILIES],
            marks_in_bytes: false,
        };
        let (mut nibble_bits, mut cur_bits, mut family_bits) = (0, 0, 0);
        let mut f = 0;
        while f < families.len() {
            let Family { kind, patterns } = families[f];
            assert!(
                kind.count_ones() == 1 && kind < 16,
                "a kind is 1, 2, 4 or 8"
            );
            let (mut z, mut a, mut b) = (ByteSet::NONE, ByteSet::NONE, ByteSet::NONE);
            let mut p = 0;
            while p < patterns.len() {
                let pattern = patterns[p];
                p += 1;
                if pattern.prev2.is_any() && pattern.prev1.is_any() {
                    // By its last byte alone, in every kernel.
                    let (products, n) = pattern.cur.products();
                    let mut i = 0;
                    while i < n {
                        assert!(cur_bits < CUR_BITS, "too many products of last bytes");
                        add(&mut out.cur[0], products[i].high, cur_bits);
                        add(&mut out.cur[1], products[i].low, cur_bits);
                        out.cur_kinds[cur_bits] = kind;
                        cur_bits += 1;
                        i += 1;
                    }
                    let mut c = 0;
                    while c < 128 {
                        if pattern.cur.contains(c as u8) {
                            out.bytes[3][c] |= kind;
                        }
                        if pattern.cur.contains(c as u8 | 0x80) {
                            out.bytes[3][c] |= kind << 4;
                        }
                        c += 1;
                    }
                    continue;
                }
                assert!(
                    pattern.cur.ascii().is_empty(),
                    "a pattern that may end at an ASCII byte must look at no byte before it"
                );
                let (zs, zn) = pattern.prev2.products();
                let (as_, an) = pattern.prev1.products();
                let (bs, bn) = pattern.cur.products();
                let mut i = 0;
                while i < zn * an * bn {
                    assert!(nibble_bits < NIBBLE_BITS, "too many nibble products");
                    let (zp, ap, bp) = (zs[i / (an * bn)], as_[i / bn % an], bs[i % bn]);
                    let space = &mut out.nibble[nibble_bits / 8];
                    let bit = nibble_bits % 8;
                    add(&mut space[0], zp.high, bit);
                    add(&mut space[1], zp.low, bit);
                    add(&mut space[2], ap.high, bit);
                    add(&mut space[3], ap.low, bit);
                    add(&mut space[4], bp.high, bit);
                    add(&mut space[5], bp.low, bit);
                    out.nibble_kinds[nibble_bits] = kind;
                    nibble_bits += 1;
                    i += 1;
                }
                z = z.union(pattern.prev2);
                a = a.union(pattern.prev1);
                b = b.union(pattern.cur);
            }
            if !b.is_empty() {
                assert!(family_bits < FAMILIES, "too many families");
                if !out.marks_in_bytes && z.is_any() && a.contains(MARK_PREV1) {
                    b = b.union(ByteSet::of(&MARK_SECOND));
                    out.marks_in_bytes = true;
                }
                let bit = 1 << family_bits;
                let mut n = 0;
                while n < 128 {
                    let (low, high) = (n as u8, n as u8 | 0x80);
                    if z.contains(low) || z.contains(high) {
                        out.bytes[0][n] |= bit;
                    }
                    if a.contains(low) || a.contains(high) {
                        out.bytes[1][n] |= bit;
                    }
                    if b.contains(high) {
                        out.bytes[2][n] |= bit;
                    }
                    n += 1;
                }
                out.family_kinds[family_bits] = kind;
                family_bits += 1;
            }
            f += 1;
        }
        out
    }

    /// The kinds of the patterns that end at `cur`, after `prev1` and
    /// `prev2`: exactly what the caller gave (0: none). The kernels report
    /// every block in which a pattern ends, with its kind (and the 512-bit
    /// one may report more: see the module's documentation).
    pub const fn ends(&self, prev2: u8, prev1: u8, cur: u8) -> u8 {
        let mut kinds = 0;
        let mut f = 0;
        while f < self.families.len() {
            let family = self.families[f];
            let mut p = 0;
            while p < family.patterns.len() {
                if family.patterns[p].matches(prev2, prev1, cur) {
                    kinds |= family.kind;
                }
                p += 1;
            }
            f += 1;
        }
        kinds
    }

    /// Every kind of the patterns.
    pub const fn kinds(&self) -> u8 {
        let mut kinds = 0;
        let mut f = 0;
        while f < self.families.len() {
            kinds |= self.families[f].kind;
            f += 1;
        }
        kinds
    }

    /// The kinds of the bits set in `bits`, a register of eight bits whose
    /// kinds are `kinds`. For the x86-64 kernels and their tests.
    #[cfg(any(test, all(target_arch = "x86_64", not(feature = "portable"))))]
    #[inline]
    pub(crate) fn kinds_of(bits: u8, kinds: &[u8]) -> u8 {
        let mut out = 0;
        for (k, &kind) in kinds.iter().enumerate().take(8) {
            if bits & (1 << k) != 0 {
                out |= kind;
            }
        }
        out
    }

    /// The 256-bit kernel's test, byte by byte, with its tables.
    #[cfg(test)]
    pub(crate) fn ends_nibble(&self, prev2: u8, prev1: u8, cur: u8) -> u8 {
        let high = |b: u8| usize::from(b >> 4);
        let low = |b: u8| usize::from(b & 0x0F);
        let mut kinds = Patterns::kinds_of(
            self.cur[0][high(cur)] & self.cur[1][low(cur)],
            &self.cur_kinds,
        );
        for (space, t) in self.nibble.iter().enumerate() {
            let bits = t[0][high(prev2)]
                & t[1][low(prev2)]
                & t[2][high(prev1)]
                & t[3][low(prev1)]
                & t[4][high(cur)]
                & t[5][low(cur)];
            kinds |= Patterns::kinds_of(bits, &self.nibble_kinds[space * 8..]);
        }
        kinds
    }

    /// The 512-bit kernel's test, byte by byte, with its tables.
    #[cfg(test)]
    pub(crate) fn ends_bytes(&self, prev2: u8, prev1: u8, cur: u8) -> u8 {
        let low = |b: u8| usize::from(b & 0x7F);
        if cur < 0x80 {
            return self.bytes[3][low(cur)] & 0x0F;
        }
        let bits = self.bytes[0][low(prev2)] & self.bytes[1][low(prev1)] & self.bytes[2][low(cur)];
        self.bytes[3][low(cur)] >> 4 | Patterns::kinds_of(bits, &self.family_kinds)
    }
}

/// A sample of patterns for the kernels' tests, of two kinds: a family
/// that holds `EF` (the 512-bit tables then stand for the marks' test), a
/// pattern over two-byte sets, three-byte ones, a four-byte one; ASCII
/// controls and two-byte leads, by their last byte alone (kind 2).
#[cfg(test)]
const SAMPLE_FAMILIES: [Family; 5] = [
    Family::new(
        1,
        &[
            Pattern::new(
                ByteSet::ANY,
                ByteSet::of(&[0xEF]),
                ByteSet::of(&[0xB7, 0xB8, 0xBE, 0xBF]),
            ),
            Pattern::new(
                ByteSet::ANY,
                ByteSet::of(&[0xC2]),
                ByteSet::range(0x80, 0x9F),
            ),
        ],
    ),
    Family::new(
        1,
        &[Pattern::new(
            ByteSet::range(0xCD, 0xD7),
            ByteSet::range(0x80, 0xBF),
            ByteSet::range(0xC3, 0xC9),
        )],
    ),
    Family::new(
        1,
        &[Pattern::new(
            ByteSet::of(&[0xE2]),
            ByteSet::of(&[0x80]),
            ByteSet::range(0x8A, 0x8F).union(ByteSet::range(0xAA, 0xAF)),
        )],
    ),
    Family::new(
        1,
        &[Pattern::new(
            ByteSet::range(0xF0, 0xF4),
            ByteSet::of(&[0x8F, 0x9F, 0xAF, 0xBF]),
            ByteSet::of(&[0xBF]),
        )],
    ),
    Family::new(
        2,
        &[
            Pattern::new(
                ByteSet::ANY,
                ByteSet::ANY,
                ByteSet::range(0, 8)
                    .union(ByteSet::of(&[0x0B, 0x7F]))
                    .union(ByteSet::range(0x0E, 0x1F)),
            ),
            Pattern::new(ByteSet::ANY, ByteSet::ANY, ByteSet::range(0xCD, 0xCF)),
        ],
    ),
];

#[cfg(test)]
pub(crate) const SAMPLE: Patterns = Patterns::new(&SAMPLE_FAMILIES);

/// [`SAMPLE`] but its first family: no family holds `EF`.
#[cfg(test)]
pub(crate) const SAMPLE_WITHOUT_MARKS: Patterns = Patterns::new(SAMPLE_FAMILIES.split_at(1).1);

/// Sets `bit` in the entries of `table` that `nibbles` holds.
const fn add(table: &mut [u8; 16], nibbles: Nibbles, bit: usize) {
    let mut n = 0;
    while n < 16 {
        if nibbles & (1 << n) != 0 {
            table[n] |= 1 << bit;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;

    use super::*;

    #[test]
    fn byte_sets_hold_what_they_are_built_from() {
        let set = ByteSet::of(&[0, 0x7F, 0x80, 0xFF]).union(ByteSet::range(0x30, 0x39));
        for b in 0..=255u8 {
            let expected = matches!(b, 0 | 0x7F | 0x80 | 0xFF | 0x30..=0x39);
            assert_eq!(set.contains(b), expected, "{b:02X}");
        }
        assert!(ByteSet::ANY.is_any() && !set.is_any());
        assert!(ByteSet::NONE.is_empty() && !set.is_empty());
        assert_eq!(
            set.ascii(),
            ByteSet::of(&[0, 0x7F]).union(ByteSet::range(0x30, 0x39))
        );
    }

    /// The products of a set hold exactly its bytes.
    #[test]
    fn products_are_exact() {
        let sets = [
            ByteSet::range(0xCD, 0xD7),
            ByteSet::of(&[0xE1, 0xE3, 0xF1, 0xF3]),
            ByteSet::range(0, 8)
                .union(ByteSet::of(&[0x0B, 0x7F]))
                .union(ByteSet::range(0x0E, 0x1F)),
            ByteSet::ANY,
            ByteSet::NONE,
        ];
        for set in sets {
            let (products, n) = set.products();
            for b in 0..=255u8 {
                let hit = products[..n]
                    .iter()
                    .any(|p| p.high & (1 << (b >> 4)) != 0 && p.low & (1 << (b & 15)) != 0);
                assert_eq!(hit, set.contains(b), "{b:02X}");
            }
        }
        assert_eq!(ByteSet::range(0xCD, 0xD7).products().1, 2);
        assert_eq!(ByteSet::of(&[0xE1, 0xE3, 0xF1, 0xF3]).products().1, 1);
    }

    /// The 256-bit tables are exact; the 512-bit ones hold at least every
    /// triple, and the marks' second bytes after `EF`.
    #[test]
    fn every_kernel_finds_what_the_patterns_say() {
        let some: alloc::vec::Vec<u8> = (0..=255u8)
            .step_by(3)
            .chain([0xCD, 0xD7, 0xEF, 0xF4])
            .collect();
        for patterns in [&SAMPLE, &SAMPLE_WITHOUT_MARKS] {
            for &z in &some {
                for a in 0..=255u8 {
                    for c in 0..=255u8 {
                        let exact = patterns.ends(z, a, c);
                        let at = || alloc::format!("{z:02X} {a:02X} {c:02X}");
                        assert_eq!(patterns.ends_nibble(z, a, c), exact, "{}", at());
                        let wide = patterns.ends_bytes(z, a, c);
                        assert_eq!(wide & exact, exact, "{}", at());
                    }
                }
            }
        }
        const { assert!(SAMPLE.marks_in_bytes && !SAMPLE_WITHOUT_MARKS.marks_in_bytes) };
        assert_eq!(SAMPLE.ends_bytes(b'a', 0xEF, 0xBB), 1);
        assert_eq!(SAMPLE.ends(b'a', 0xEF, 0xBB), 0);
        assert_eq!(SAMPLE.ends(b'a', b'b', 0xCE), 2);
        assert_eq!(SAMPLE.ends(0xCE, 0xB1, 0xC3), 1);
        // Four families look at the bytes before their end.
        assert!(SAMPLE.bytes[2].iter().all(|&bits| bits < 16));
        assert_eq!(SAMPLE.family_kinds, [1, 1, 1, 1, 0, 0, 0, 0]);
        assert!(Patterns::NONE.bytes.iter().flatten().all(|&bits| bits == 0));
    }
}
