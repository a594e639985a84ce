//! Whole numbers in request bodies as JSON may write them: `165` or
//! `165.0`. JSON has one number type, and tools that generate requests
//! from a schema (an OpenAPI `integer` admits `165.0`) or languages whose
//! numbers are all floats send either. A fraction, a negative number or
//! one past 2^53 (where a float stops being exact) is refused by name, as
//! any wrong type is. Stored events never pass through here: what is
//! stored is written by this build, in integers.

use serde::de::{self, Deserializer, Visitor};

/// The largest whole number a float holds exactly.
const EXACT: f64 = 9_007_199_254_740_992.0;

struct Whole;

impl Visitor<'_> for Whole {
    type Value = u64;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a whole number, 0 or more")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<u64, E> {
        Ok(n)
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<u64, E> {
        u64::try_from(n).map_err(|_| E::invalid_value(de::Unexpected::Signed(n), &self))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<u64, E> {
        if n.fract() == 0.0 && (0.0..=EXACT).contains(&n) {
            Ok(n as u64)
        } else {
            Err(E::invalid_value(de::Unexpected::Float(n), &self))
        }
    }
}

/// A `u64` field: `#[serde(deserialize_with = "whole::number")]`.
pub fn number<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    d.deserialize_any(Whole)
}

/// An optional seat (a `u32`), as [`optional`] reads a `u64`.
pub fn optional_seat<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    optional(d)?
        .map(|n| {
            u32::try_from(n).map_err(|_| {
                de::Error::invalid_value(de::Unexpected::Unsigned(n), &"a seat number")
            })
        })
        .transpose()
}

/// An optional `u64` field (`null` or left out is `None`):
/// `#[serde(default, deserialize_with = "whole::optional")]`.
pub fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    struct Maybe;
    impl<'de> Visitor<'de> for Maybe {
        type Value = Option<u64>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a whole number, 0 or more, or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Option<u64>, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Option<u64>, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<u64>, D::Error> {
            number(d).map(Some)
        }
    }
    d.deserialize_option(Maybe)
}
