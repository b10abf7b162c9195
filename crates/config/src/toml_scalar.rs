//! One decoded TOML scalar, as serde sees it: the same `visit_*` calls the
//! `toml` crate's deserializer makes, so a value of the wrong type is
//! refused by the schema's own `Deserialize` impls with serde's words
//! ("invalid type: integer `3`, expected a table").

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};

/// A scalar's value, decoded by `toml_parser`.
pub(crate) enum Scalar<'i> {
    Str(Cow<'i, str>),
    Bool(bool),
    /// The digits (`from_str_radix`'s form) and the radix.
    Int(Cow<'i, str>, u32),
    Float(Cow<'i, str>),
    /// A date or time: the `toml` crate hands it to serde as a map (of a
    /// private key), which the schema never wants.
    DateTime,
}

/// What a schema's `Deserialize` impl said, in serde's words.
#[derive(Debug)]
pub(crate) struct Refusal(pub(crate) String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl de::Error for Refusal {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Refusal(msg.to_string())
    }
}

/// A value that is not a scalar where the schema wants `expected`: serde's
/// message for a sequence (`array` true) or a map.
pub(crate) fn not_a_scalar(array: bool, expected: &str) -> String {
    let unexpected = if array {
        de::Unexpected::Seq
    } else {
        de::Unexpected::Map
    };
    <Refusal as de::Error>::invalid_type(unexpected, &expected).0
}

impl<'de> Deserializer<'de> for &Scalar<'_> {
    type Error = Refusal;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self {
            Scalar::Str(s) => visitor.visit_str(s),
            Scalar::Bool(b) => visitor.visit_bool(*b),
            Scalar::Int(digits, radix) => {
                if let Ok(v) = i64::from_str_radix(digits, *radix) {
                    visitor.visit_i64(v)
                } else if let Ok(v) = u64::from_str_radix(digits, *radix) {
                    visitor.visit_u64(v)
                } else if let Ok(v) = i128::from_str_radix(digits, *radix) {
                    visitor.visit_i128(v)
                } else if let Ok(v) = u128::from_str_radix(digits, *radix) {
                    visitor.visit_u128(v)
                } else {
                    Err(de::Error::custom("integer number overflowed"))
                }
            }
            Scalar::Float(text) => match text.parse::<f64>() {
                // An overflow reads as infinite: only `inf` may be.
                Ok(f) if !f.is_infinite() || text.contains("inf") => visitor.visit_f64(f),
                _ => Err(de::Error::custom("floating-point number overflowed")),
            },
            Scalar::DateTime => Err(de::Error::invalid_type(de::Unexpected::Map, &visitor)),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
