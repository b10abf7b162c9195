//! Strict UTF-8 by the rules of RFC 3629 and Unicode Table 3-7.
//!
//! * [`from_utf8`] validates, agreeing with [`core::str::from_utf8`] on every
//!   input, through a SIMD fast path (simdutf8).
//! * [`subparts`] yields every ill-formed *maximal subpart* (Unicode 3.9) with
//!   its byte offset, length and [`ErrorKind`]; valid stretches between errors
//!   are skipped at validation speed ([`for_each_subpart`]: the same, in one
//!   loop). [`Utf8Chunks`] pairs each valid stretch
//!   with the error that ends it, as `core::str::Utf8Chunks` does.
//! * [`Utf8Decoder`] does the same over input that arrives in chunks of any
//!   size, with absolute offsets.
//! * With the `alloc` feature, [`decode_lossy`] replaces each maximal subpart
//!   with one U+FFFD (equal to `String::from_utf8_lossy`), and [`LossyMap`]
//!   maps offsets between the input and the lossy output.
//! * [`encode_utf8`] encodes a scalar value, refusing surrogates and values
//!   above U+10FFFF.
//! * [`interpret`] says what an ill-formed sequence would have meant
//!   (an overlong form, a CESU-8 pair, an RFC 2279 5- or 6-byte form). It is
//!   for messages only: nothing in this crate ever decodes such a sequence.
//! * [`validate_marking`] validates and, in the same pass, finds every
//!   U+FEFF and U+FFFD ([`Mark`]); [`find_marks`] finds them in any bytes.
//!   [`validate_scanning`] also reports the blocks in which a caller's
//!   byte patterns ([`Patterns`], data the caller compiles in a `const`)
//!   or pair of bytes end.
//! * [`Signature`] recognises the UTF-8, UTF-16 and UTF-32 byte-order marks.
//! * [`find_nul`] finds the first NUL byte, [`count_in`] counts the
//!   bytes of a caller's set ([`ByteClass`], compiled in a `const`): the
//!   binary-file sniff's questions; [`find_by_bits`] gives which bytes of
//!   each 64 are in each of a caller's sets, as bits.
//!
//! The crate does no I/O, never panics, and allocates only in the functions
//! that return owned values.
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod count;
mod encode;
mod error;
mod interpret;
#[cfg(feature = "alloc")]
mod lossy;
mod marks;
mod nul;
mod patterns;
mod scalar;
mod signature;
mod stream;
mod subparts;
mod validate;

pub use count::{BITS_CHUNK, ByteClass, count_in, find_by_bits};
pub use encode::{EncodeError, EncodedScalar, encode_utf8};
pub use error::{ErrorKind, REPLACEMENT_CHARACTER, Subpart, Utf8Error};
pub use interpret::{Interpretation, interpret};
#[cfg(feature = "alloc")]
pub use lossy::{LossyMap, decode_lossy};
pub use marks::{Found, Mark, Wanted, find_marks, validate_marking, validate_scanning};
pub use nul::find_nul;
pub use patterns::{ByteSet, CUR_BITS, FAMILIES, Family, NIBBLE_BITS, Pattern, Patterns};
pub use signature::Signature;
pub use stream::{Event, Utf8Decoder};
pub use subparts::{
    Subparts, Utf8Chunk, Utf8Chunks, for_each_error_stretch, for_each_subpart, subparts,
};
pub use validate::{from_utf8, is_valid};

/// The builds of the fused validator side by side, for tests and
/// benchmarks (the `testing` feature): every build this CPU runs, and each
/// one's validation alone.
#[cfg(feature = "testing")]
pub mod testing {
    pub use crate::count::count_in_using;
    pub use crate::marks::{
        Kernel, validate_marking_using, validate_scanning_using, validate_using,
    };
}
