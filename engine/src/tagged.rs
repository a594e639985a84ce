//! Facts read fast from stored JSON.
//!
//! Every kind's facts are an internally tagged enum (`{"type": "...", ...}`).
//! serde reads such an enum by first copying the whole object into a buffer
//! of its own, then reading the variant from that copy; in a fold that copy
//! was nine tenths of the work. A fact already parsed into a [`Value`] has
//! its tag at hand, so [`by_tag!`] also derives a reader for the same enum
//! as if it were externally tagged, and [`read`] hands it the tag as the
//! variant and the object's other fields as the variant's fields, borrowed,
//! with no copy. [`read_json`] does the same from JSON text: it notes where
//! each field's value lies (no parsing) and parses each once, into its
//! type. The enum's own `Deserialize` (used for everything else, and for the
//! error message when a fact is malformed) is left as derived.

use std::borrow::Cow;

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

/// An enum whose stored form is internally tagged, readable by its tag.
pub trait ByTag: Sized {
    /// The name of the tag field (`type`).
    const TAG: &'static str;

    /// Reads the variant a tagged object names from its other fields.
    fn by_tag<'de, D: de::Deserializer<'de>>(variant: D) -> Result<Self, D::Error>;
}

/// Reads `value` as a `T`: by its tag when it has one, else as derived
/// (whose error then says what is wrong).
pub fn read<T: ByTag + de::DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    if let Value::Object(fields) = value {
        if let Some(Value::String(name)) = fields.get(T::TAG) {
            let fields = fields.iter().map(|(key, value)| (key.as_str(), value));
            if let Ok(read) = T::by_tag(variant(T::TAG, name, fields)) {
                return Ok(read);
            }
        }
    }
    T::deserialize(value)
}

/// Reads a JSON array of tagged objects as `T`s (see [`read_json`]). The
/// usual array, every item an object that reads by its tag, is gone over
/// once, its items' fields noted as it goes (a fold from storage went over
/// each array once more to find its items first); any other is read item
/// by item, for serde's error about the one that is wrong.
pub fn read_all_json<T: ByTag + de::DeserializeOwned>(
    json: &str,
) -> Result<Vec<T>, serde_json::Error> {
    if let Ok(items) = serde_json::from_str::<Vec<RawFields<'_>>>(json) {
        let read: Option<Vec<T>> = items.iter().map(|item| by_tag(&item.0)).collect();
        if let Some(read) = read {
            return Ok(read);
        }
    }
    let items: Vec<&RawValue> = serde_json::from_str(json)?;
    items
        .into_iter()
        .map(|item| read_json(item.get()))
        .collect()
}

/// Reads one JSON object as a `T`, by its tag wherever it is in the object;
/// a malformed one is read as derived, for serde's own error.
pub fn read_json<T: ByTag + de::DeserializeOwned>(json: &str) -> Result<T, serde_json::Error> {
    if let Ok(RawFields(fields)) = serde_json::from_str::<RawFields<'_>>(json) {
        if let Some(read) = by_tag(&fields) {
            return Ok(read);
        }
    }
    serde_json::from_str(json)
}

/// An object's fields, noted as text, read as the variant its tag names;
/// `None` when it has no tag or does not read so.
fn by_tag<T: ByTag>(fields: &[(Cow<'_, str>, &RawValue)]) -> Option<T> {
    let name = fields
        .iter()
        .find(|(key, _)| key == T::TAG)
        .and_then(|(_, raw)| serde_json::from_str::<Cow<'_, str>>(raw.get()).ok())?;
    let fields = fields.iter().map(|(key, raw)| (key.as_ref(), Text(raw)));
    T::by_tag(variant(T::TAG, &name, fields)).ok()
}

/// An object's fields in order, each value left as JSON text.
struct RawFields<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> de::Deserialize<'de> for RawFields<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for Fields<'a> {
            type Value = RawFields<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut fields = Vec::with_capacity(map.size_hint().unwrap_or(8));
                while let Some(Key(key)) = map.next_key::<Key<'a>>()? {
                    fields.push((key, map.next_value::<&'a RawValue>()?));
                }
                Ok(RawFields(fields))
            }
        }
        d.deserialize_map(Fields(std::marker::PhantomData))
    }
}

/// An object's key, borrowed from the text unless it has escapes (serde's
/// own `Cow<str>` copies every key it reads).
struct Key<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> de::Deserialize<'de> for Key<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for KeyVisitor<'a> {
            type Value = Key<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Owned(key.to_owned())))
            }
            fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Key<'a>, E> {
                let key = std::str::from_utf8(key).map_err(E::custom)?;
                Ok(Key(Cow::Owned(key.to_owned())))
            }
        }
        d.deserialize_str(KeyVisitor(std::marker::PhantomData))
    }
}

/// A field's value, read into whatever type the variant wants there.
trait FieldValue<'de> {
    fn read<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, serde_json::Error>;
}

impl<'de> FieldValue<'de> for &'de Value {
    fn read<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, serde_json::Error> {
        seed.deserialize(self)
    }
}

/// A field's value still as JSON text, parsed once when read.
struct Text<'de>(&'de RawValue);

impl<'de> FieldValue<'de> for Text<'de> {
    fn read<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, serde_json::Error> {
        seed.deserialize(&mut serde_json::Deserializer::from_str(self.0.get()))
    }
}

/// One tagged object of `fields`, seen as the variant its tag names (see
/// [`AsVariant`]).
fn variant<'de, F: FieldValue<'de>, I: Iterator<Item = (&'de str, F)>>(
    tag: &'de str,
    name: &'de str,
    fields: I,
) -> AsVariant<'de, Fields<'de, I, F>> {
    AsVariant {
        name,
        map: Fields {
            tag,
            iter: fields,
            value: None,
        },
    }
}

/// The object's fields other than the tag, as a map.
struct Fields<'de, I, F> {
    tag: &'de str,
    iter: I,
    value: Option<F>,
}

impl<'de, F: FieldValue<'de>, I: Iterator<Item = (&'de str, F)>> MapAccess<'de>
    for Fields<'de, I, F>
{
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

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, Self::Error> {
        self.value
            .take()
            .ok_or_else(|| de::Error::custom("a value asked before its key"))?
            .read(seed)
    }
}

/// Reads a tagged enum nested in another value, from any format: by its tag
/// when that comes first (as serde writes it, and as JSON's sorted keys put
/// it when no field sorts before it), with the other fields read in place
/// into the variant; otherwise the object is gathered first and read by its
/// tag. serde's own reading of such an enum buffers every object (in a
/// Lost Worlds fold, a third of the time went to a blow's restriction
/// clauses). For [`in_place!`].
pub fn in_place<'de, T: ByTag, D: de::Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(TagFirst(std::marker::PhantomData))
}

struct TagFirst<T>(std::marker::PhantomData<T>);

impl<'de, T: ByTag> Visitor<'de> for TagFirst<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an object tagged by its `{}`", T::TAG)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let Some(Key(first)) = map.next_key::<Key<'de>>()? else {
            return Err(de::Error::missing_field(T::TAG));
        };
        if first == T::TAG {
            let Key(name) = map.next_value::<Key<'de>>()?;
            return T::by_tag(AsVariant { name: &name, map });
        }
        let mut fields = serde_json::Map::new();
        fields.insert(first.into_owned(), map.next_value::<Value>()?);
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            fields.insert(key.into_owned(), map.next_value::<Value>()?);
        }
        let Some(Value::String(name)) = fields.get(T::TAG) else {
            return Err(de::Error::missing_field(T::TAG));
        };
        let read = fields.iter().map(|(key, value)| (key.as_str(), value));
        T::by_tag(variant(T::TAG, name, read)).map_err(de::Error::custom)
    }
}

/// A tagged object seen as the enum variant its tag names, with its other
/// fields (`map`, the tag left out) as that variant's: how every reader by
/// tag hands an object to [`ByTag::by_tag`], whatever it reads from.
pub(crate) struct AsVariant<'a, A> {
    pub(crate) name: &'a str,
    pub(crate) map: A,
}

impl<'de, A: MapAccess<'de>> de::Deserializer<'de> for AsVariant<'_, A> {
    type Error = A::Error;

    fn deserialize_enum<W: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: W,
    ) -> Result<W::Value, Self::Error> {
        visitor.visit_enum(self)
    }

    fn deserialize_any<W: Visitor<'de>>(self, _visitor: W) -> Result<W::Value, Self::Error> {
        Err(de::Error::custom("a tagged object reads only as an enum"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for AsVariant<'_, A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), A::Error> {
        let name = seed.deserialize(de::value::StrDeserializer::<A::Error>::new(self.name))?;
        Ok((name, self))
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for AsVariant<'_, A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        while self
            .map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        // Internally tagged, a newtype's fields sit beside the tag.
        seed.deserialize(MapAccessDeserializer::new(self.map))
    }

    fn tuple_variant<W: Visitor<'de>>(
        self,
        _len: usize,
        _visitor: W,
    ) -> Result<W::Value, A::Error> {
        Err(de::Error::custom("a tagged object has no tuple variants"))
    }

    fn struct_variant<W: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: W,
    ) -> Result<W::Value, A::Error> {
        visitor.visit_map(self.map)
    }
}

/// [`by_tag!`] for an enum nested in facts or state: its `Deserialize` is
/// [`in_place`] instead of derived (leave `Deserialize` out of its derives).
#[macro_export]
macro_rules! in_place {
    ($remote:literal, $($enum:tt)*) => {
        $crate::by_tag! { $remote, $($enum)* }
        $crate::in_place!(@deserialize $($enum)*);
    };
    (@deserialize $(#[$attr:meta])* $vis:vis enum $name:ident { $($body:tt)* }) => {
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::tagged::in_place(d)
            }
        }
    };
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

            fn by_tag<'de, D: serde::Deserializer<'de>>(variant: D) -> Result<Self, D::Error> {
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
