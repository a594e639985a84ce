//! Facts read fast from stored JSON.
//!
//! Every kind's facts are an internally tagged enum (`{"type": "...", ...}`).
//! serde reads such an enum by first copying the whole object into a buffer
//! of its own, then reading the variant from that copy; in a fold that copy
//! was nine tenths of the work. A fact already parsed into a [`Value`] has
//! its tag at hand, so [`by_tag!`] also derives a reader for the same enum
//! as if it were externally tagged, and [`read`] hands it the tag as the
//! variant and the object's other fields as the variant's fields, borrowed,
//! with no copy. The enum's own `Deserialize` (used for everything else, and
//! for the error message when a fact is malformed) is left as derived.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

/// An enum whose stored form is internally tagged, readable by its tag.
pub trait ByTag: Sized {
    /// The name of the tag field (`type`).
    const TAG: &'static str;

    /// Reads the variant `variant.name` from the object's other fields.
    fn by_tag(variant: Variant<'_>) -> Result<Self, serde_json::Error>;
}

/// Reads `value` as a `T`: by its tag when it has one, else as derived
/// (whose error then says what is wrong).
pub fn read<T: ByTag + de::DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    if let Value::Object(fields) = value {
        if let Some(Value::String(name)) = fields.get(T::TAG) {
            let variant = Variant {
                tag: T::TAG,
                name,
                fields,
            };
            if let Ok(read) = T::by_tag(variant) {
                return Ok(read);
            }
        }
    }
    T::deserialize(value)
}

/// One tagged object, seen as the variant its tag names.
pub struct Variant<'a> {
    tag: &'a str,
    name: &'a str,
    fields: &'a Map<String, Value>,
}

impl<'de> de::Deserializer<'de> for Variant<'de> {
    type Error = serde_json::Error;

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_enum(self)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("a tagged object reads only as an enum"))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = serde_json::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self), Self::Error> {
        let name = seed.deserialize(BorrowedStrDeserializer::new(self.name))?;
        Ok((name, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'de> {
    type Error = serde_json::Error;

    fn unit_variant(self) -> Result<(), Self::Error> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, Self::Error> {
        // Internally tagged, a newtype's fields sit beside the tag.
        seed.deserialize(Rest(self.fields()))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("a tagged object has no tuple variants"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_map(self.fields())
    }
}

impl<'de> Variant<'de> {
    fn fields(&self) -> Fields<'de> {
        Fields {
            tag: self.tag,
            iter: self.fields.iter(),
            value: None,
        }
    }
}

/// The object's fields other than the tag, as a map.
struct Fields<'de> {
    tag: &'de str,
    iter: serde_json::map::Iter<'de>,
    value: Option<&'de Value>,
}

impl<'de> MapAccess<'de> for Fields<'de> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        for (key, value) in self.iter.by_ref() {
            if key != self.tag {
                self.value = Some(value);
                return seed
                    .deserialize(BorrowedStrDeserializer::new(key))
                    .map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let value = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a value asked before its key"))?;
        seed.deserialize(value)
    }
}

/// A newtype variant's fields, read as the struct it wraps.
struct Rest<'de>(Fields<'de>);

impl<'de> de::Deserializer<'de> for Rest<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(self.0)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Declares an internally tagged enum (derive and `#[serde(tag = ..,
/// rename_all = ..)]` as usual) and its [`ByTag`] reader. The first token is
/// the enum's name as a string, for serde's `remote`.
#[macro_export]
macro_rules! by_tag {
    (
        $remote:literal,
        $(#[doc = $doc:expr])*
        #[derive($($derive:path),* $(,)?)]
        #[serde(tag = $tag:literal, rename_all = $rename:literal)]
        $vis:vis enum $name:ident { $($body:tt)* }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive),*)]
        #[serde(tag = $tag, rename_all = $rename)]
        $vis enum $name { $($body)* }

        impl $crate::tagged::ByTag for $name {
            const TAG: &'static str = $tag;

            fn by_tag(
                variant: $crate::tagged::Variant<'_>,
            ) -> Result<Self, serde_json::Error> {
                // The same variants, read as if externally tagged.
                #[derive(serde::Deserialize)]
                #[serde(remote = $remote, rename_all = $rename)]
                #[allow(dead_code)]
                enum Mirror { $($body)* }
                Mirror::deserialize(variant)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    use super::read;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Blow {
        damage: u32,
        #[serde(default)]
        landed: bool,
    }

    crate::by_tag! {
        "Fact",
        /// A fact of a small test kind.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        enum Fact {
            Chosen { seat: u32, #[serde(default)] page: Option<u32> },
            Struck(Blow),
            Closed,
        }
    }

    #[test]
    fn every_variant_reads_as_serde_reads_it() {
        for fact in [
            json!({"type": "chosen", "seat": 1, "page": 36}),
            json!({"seat": 0, "type": "chosen"}),
            json!({"damage": 4, "type": "struck"}),
            json!({"damage": 4, "landed": true, "type": "struck"}),
            json!({"type": "closed"}),
        ] {
            let fast: Fact = read(&fact).unwrap();
            let derived = Fact::deserialize(&fact).unwrap();
            assert_eq!(fast, derived);
            assert_eq!(serde_json::to_value(&fast).unwrap()["type"], fact["type"]);
        }
    }

    #[test]
    fn a_malformed_fact_is_refused_with_serdes_own_words() {
        for fact in [
            json!({"type": "chosen"}),
            json!({"type": "vanished", "seat": 1}),
            json!({"type": "struck", "damage": "four"}),
            json!({"seat": 1}),
            json!([1, 2]),
        ] {
            let fast = read::<Fact>(&fact).unwrap_err().to_string();
            let derived = Fact::deserialize(&fact).unwrap_err().to_string();
            assert_eq!(fast, derived, "{fact}");
        }
    }
}
