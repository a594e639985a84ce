//! Facts in a compact binary form, for folds.
//!
//! A fold spends most of its time turning stored JSON into the kind's types
//! (about 1.6 µs a Lost Worlds fact, against 0.12 µs to clone one). The
//! store keeps each accepted action's facts a second time in this form,
//! derived from the same typed facts as the JSON, and folds read it: the JSON
//! stays the record (hashes, seals, exports and views are made from it).
//!
//! The form is self-describing, like JSON, so it keeps JSON's rules for a
//! type that changes: fields are found by name, a missing one takes its
//! default, an internally tagged or untagged enum reads as it does from JSON.
//! It differs only in how a value is written: a marker byte, then lengths
//! and numbers as varints and strings as their bytes, so reading a field
//! is a length and a compare, and a string is borrowed, never unescaped. A
//! kind's fact enum is tagged inside its object (`{"type": ..}`); serde
//! writes the tag first, so [`read_all`] reads the variant straight from it
//! (see [`crate::tagged`]) instead of buffering the object to find it.

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde::ser::{self, Serialize};
use serde::{forward_to_deserialize_any, Deserialize};
use serde_json::Error;

use crate::tagged::{AsVariant, ByTag};

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
/// An unsigned integer, varint.
const UINT: u8 = 3;
/// A negative integer `n`, as the varint of `-1 - n`.
const NEG: u8 = 4;
/// An `f64`, little-endian.
const FLOAT: u8 = 5;
/// A string: its length (varint), then its UTF-8.
const STR: u8 = 6;
const BYTES: u8 = 7;
const SOME: u8 = 8;
/// A sequence: its length (u32, little-endian), then its items.
const SEQ: u8 = 9;
/// A map: its length (u32), then keys and values, each marked.
const MAP: u8 = 10;
/// A struct: its length (u32), then each field's name (a length and its
/// UTF-8, no marker) and value.
const STRUCT: u8 = 11;
/// An externally tagged enum's variant with content: its name (as a
/// struct's field name), then its content. A unit variant is its name
/// alone, a string, as in JSON.
const VARIANT: u8 = 12;

/// `value` in the compact form.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    // Written in a room the thread keeps and copied out at its length,
    // rather than grown by doubling from nothing (an exchange's facts are
    // a few KiB).
    thread_local! {
        static ROOM: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    const KEPT: usize = 64 * 1024;
    ROOM.with_borrow_mut(|room| {
        room.clear();
        write(room, value);
        let out = room.to_vec();
        if room.capacity() > KEPT {
            *room = Vec::new();
        }
        out
    })
}

/// Appends `value` in the compact form to `out`.
pub fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    value
        .serialize(&mut Writer { out })
        .expect("the compact form takes any value serde_json takes");
}

/// Reads one value of the compact form, and what follows it.
pub fn read_one<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<(T, &'de [u8]), Error> {
    let mut reader = Reader { bytes, depth: 0 };
    let value = T::deserialize(&mut reader)?;
    Ok((value, reader.bytes))
}

/// Reads `bytes`, the compact form of one `T` and nothing after it.
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, Error> {
    let (value, rest) = read_one(bytes)?;
    match rest.is_empty() {
        true => Ok(value),
        false => Err(bad("bytes after the value")),
    }
}

/// Reads a sequence of tagged enums (a kind's facts), each by its tag.
pub fn read_all<T: ByTag + de::DeserializeOwned>(bytes: &[u8]) -> Result<Vec<T>, Error> {
    let mut reader = Reader { bytes, depth: 0 };
    if reader.byte()? != SEQ {
        return Err(bad("facts are not a sequence"));
    }
    let n = reader.count()?;
    let mut items = Vec::with_capacity(n.min(64));
    for _ in 0..n {
        items.push(reader.by_tag::<T>()?);
    }
    match reader.bytes.is_empty() {
        true => Ok(items),
        false => Err(bad("bytes after the facts")),
    }
}

fn bad(what: &str) -> Error {
    de::Error::custom(format_args!("compact form: {what}"))
}

// ------------------------------------------------------------------ writing

struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

impl Writer<'_> {
    fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.out.push(n as u8 | 0x80);
            n >>= 7;
        }
        self.out.push(n as u8);
    }

    fn text(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.out.extend_from_slice(s.as_bytes());
    }

    /// Starts an externally tagged variant's content.
    fn variant(&mut self, name: &str) {
        self.out.push(VARIANT);
        self.text(name);
    }

    /// Opens a container whose length is written when it closes.
    fn open(&mut self, marker: u8) -> Container<'_> {
        self.out.push(marker);
        let at = self.out.len();
        self.out.extend_from_slice(&[0; 4]);
        Container {
            writer: Writer { out: self.out },
            at,
            len: 0,
        }
    }
}

struct Container<'a> {
    writer: Writer<'a>,
    at: usize,
    len: u32,
}

impl Container<'_> {
    fn close(self) -> Result<(), Error> {
        self.writer.out[self.at..self.at + 4].copy_from_slice(&self.len.to_le_bytes());
        Ok(())
    }

    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.len += 1;
        value.serialize(&mut self.writer)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.len += 1;
        self.writer.text(key);
        value.serialize(&mut self.writer)
    }
}

/// Numbers written as the widest of their kind.
macro_rules! widened {
    ($($method:ident($from:ty) as $to:ident),* $(,)?) => {$(
        fn $method(self, v: $from) -> Result<(), Error> {
            self.$to(v.into())
        }
    )*};
}

impl<'a, 'b> ser::Serializer for &'a mut Writer<'b> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Container<'a>;
    type SerializeTuple = Container<'a>;
    type SerializeTupleStruct = Container<'a>;
    type SerializeTupleVariant = Container<'a>;
    type SerializeMap = Container<'a>;
    type SerializeStruct = Container<'a>;
    type SerializeStructVariant = Container<'a>;

    widened! {
        serialize_i8(i8) as serialize_i64,
        serialize_i16(i16) as serialize_i64,
        serialize_i32(i32) as serialize_i64,
        serialize_u8(u8) as serialize_u64,
        serialize_u16(u16) as serialize_u64,
        serialize_u32(u32) as serialize_u64,
        serialize_f32(f32) as serialize_f64,
    }

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        match u64::try_from(v) {
            Ok(v) => self.serialize_u64(v),
            Err(_) => {
                self.out.push(NEG);
                self.varint(!(v as u64));
                Ok(())
            }
        }
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.out.push(UINT);
        self.varint(v);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.out.push(FLOAT);
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.out.push(STR);
        self.text(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.out.push(BYTES);
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.out.push(SOME);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push(NULL);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        // A bare name, as JSON writes it.
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.variant(variant);
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Container<'a>, Error> {
        Ok(self.open(SEQ))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Container<'a>, Error> {
        Ok(self.open(SEQ))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Container<'a>, Error> {
        Ok(self.open(SEQ))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Container<'a>, Error> {
        self.variant(variant);
        Ok(self.open(SEQ))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Container<'a>, Error> {
        Ok(self.open(MAP))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Container<'a>, Error> {
        Ok(self.open(STRUCT))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Container<'a>, Error> {
        self.variant(variant);
        Ok(self.open(STRUCT))
    }
}

/// The compound serializers: each item or field goes to the container.
macro_rules! compound {
    ($($trait:ident::$method:ident($($key:ident)?)),* $(,)?) => {$(
        impl ser::$trait for Container<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(
                &mut self,
                $($key: &'static str,)?
                value: &T,
            ) -> Result<(), Error> {
                compound!(@put self $($key)? value)
            }
            fn end(self) -> Result<(), Error> {
                self.close()
            }
        }
    )*};
    (@put $self:ident $value:ident) => { $self.item($value) };
    (@put $self:ident $key:ident $value:ident) => { $self.field($key, $value) };
}

compound! {
    SerializeSeq::serialize_element(),
    SerializeTuple::serialize_element(),
    SerializeTupleStruct::serialize_field(),
    SerializeTupleVariant::serialize_field(),
    SerializeStruct::serialize_field(key),
    SerializeStructVariant::serialize_field(key),
}

impl ser::SerializeMap for Container<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        // A map's length counts its entries: its key and value together.
        self.len += 1;
        key.serialize(&mut self.writer)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut self.writer)
    }
    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

// ------------------------------------------------------------------ reading

struct Reader<'de> {
    bytes: &'de [u8],
    /// How many values the one being read is inside.
    depth: u32,
}

/// How deep values may nest (as in serde_json): a damaged form cannot
/// run a reader out of stack.
const MAX_DEPTH: u32 = 128;

impl<'de> Reader<'de> {
    /// Reads a value inside the one being read.
    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        if self.depth == MAX_DEPTH {
            return Err(bad("values nested too deeply"));
        }
        self.depth += 1;
        let read = read(self);
        self.depth -= 1;
        read
    }

    fn byte(&mut self) -> Result<u8, Error> {
        let (&b, rest) = self.bytes.split_first().ok_or_else(|| bad("cut short"))?;
        self.bytes = rest;
        Ok(b)
    }

    fn peek(&self) -> Result<u8, Error> {
        self.bytes.first().copied().ok_or_else(|| bad("cut short"))
    }

    #[inline]
    fn varint(&mut self) -> Result<u64, Error> {
        // Names, lengths and most numbers are under 128: one byte.
        if let Some((&b, rest)) = self.bytes.split_first() {
            if b < 0x80 {
                self.bytes = rest;
                return Ok(u64::from(b));
            }
        }
        self.long_varint()
    }

    #[cold]
    fn long_varint(&mut self) -> Result<u64, Error> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err(bad("a number longer than 64 bits"))
    }

    fn count(&mut self) -> Result<usize, Error> {
        let Some((len, rest)) = self.bytes.split_first_chunk::<4>() else {
            return Err(bad("cut short"));
        };
        self.bytes = rest;
        Ok(u32::from_le_bytes(*len) as usize)
    }

    fn take(&mut self, n: usize) -> Result<&'de [u8], Error> {
        if n > self.bytes.len() {
            return Err(bad("cut short"));
        }
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(taken)
    }

    /// A struct field's name, unchecked.
    fn name(&mut self) -> Result<&'de [u8], Error> {
        let n = usize::try_from(self.varint()?).map_err(|_| bad("a name too long"))?;
        self.take(n)
    }

    fn text(&mut self) -> Result<&'de str, Error> {
        let n = usize::try_from(self.varint()?).map_err(|_| bad("a string too long"))?;
        std::str::from_utf8(self.take(n)?).map_err(|_| bad("a string that is not UTF-8"))
    }

    /// Reads the next value as a `T` by its tag, when it is an object whose
    /// first field is `T`'s tag (as serde writes one); else as derived.
    fn by_tag<T: ByTag + de::DeserializeOwned>(&mut self) -> Result<T, Error> {
        let start = self.bytes;
        if let Some((name, fields)) = self.tagged(T::TAG)? {
            let mut fields = Fields {
                reader: self,
                left: fields,
                as_bytes: true,
            };
            let map = &mut fields;
            if let Ok(read) = T::by_tag(AsVariant { name, map }) {
                if fields.left == 0 {
                    return Ok(read);
                }
            }
        }
        // Anything else, and the error of a malformed one, as derived.
        self.bytes = start;
        T::deserialize(&mut *self)
    }

    /// The variant name and the number of other fields of a tagged object
    /// (a struct whose first field is `tag`, a string).
    fn tagged(&mut self, tag: &str) -> Result<Option<(&'de str, usize)>, Error> {
        let start = self.bytes;
        if self.byte()? == STRUCT {
            let n = self.count()?;
            if n > 0 && self.name()? == tag.as_bytes() && self.byte()? == STR {
                return Ok(Some((self.text()?, n - 1)));
            }
        }
        self.bytes = start;
        Ok(None)
    }

    /// Skips one value.
    fn skip(&mut self) -> Result<(), Error> {
        match self.byte()? {
            NULL | FALSE | TRUE => {}
            UINT | NEG => {
                self.varint()?;
            }
            FLOAT => {
                self.take(8)?;
            }
            STR | BYTES => {
                let n = usize::try_from(self.varint()?).map_err(|_| bad("too long"))?;
                self.take(n)?;
            }
            SOME => self.nested(Self::skip)?,
            SEQ => {
                for _ in 0..self.count()? {
                    self.nested(Self::skip)?;
                }
            }
            MAP => {
                for _ in 0..self.count()? {
                    self.nested(Self::skip)?;
                    self.nested(Self::skip)?;
                }
            }
            STRUCT => {
                for _ in 0..self.count()? {
                    self.name()?;
                    self.nested(Self::skip)?;
                }
            }
            VARIANT => {
                self.name()?;
                self.nested(Self::skip)?;
            }
            _ => return Err(bad("an unknown marker")),
        }
        Ok(())
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.byte()? {
            NULL => visitor.visit_unit(),
            FALSE => visitor.visit_bool(false),
            TRUE => visitor.visit_bool(true),
            UINT => visitor.visit_u64(self.varint()?),
            NEG => visitor.visit_i64(!(self.varint()? as i64)),
            FLOAT => {
                let b = self.take(8)?;
                visitor.visit_f64(f64::from_le_bytes(b.try_into().expect("8 bytes")))
            }
            STR => visitor.visit_borrowed_str(self.text()?),
            BYTES => {
                let n = usize::try_from(self.varint()?).map_err(|_| bad("too long"))?;
                visitor.visit_borrowed_bytes(self.take(n)?)
            }
            SOME => self.nested(|r| visitor.visit_some(r)),
            SEQ => {
                let left = self.count()?;
                self.nested(|reader| visitor.visit_seq(Items { reader, left }))
            }
            MAP => {
                let left = self.count()?;
                self.nested(|reader| visitor.visit_map(Items { reader, left }))
            }
            STRUCT => {
                let left = self.count()?;
                self.nested(|reader| {
                    visitor.visit_map(Fields {
                        reader,
                        left,
                        as_bytes: false,
                    })
                })
            }
            // Read as JSON reads an externally tagged variant: a map of one.
            VARIANT => self.nested(|reader| {
                visitor.visit_map(Fields {
                    reader,
                    left: 1,
                    as_bytes: false,
                })
            }),
            _ => Err(bad("an unknown marker")),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.peek()? {
            NULL => {
                self.byte()?;
                visitor.visit_none()
            }
            SOME => {
                self.byte()?;
                self.nested(|r| visitor.visit_some(r))
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if self.peek()? != STRUCT {
            return self.deserialize_any(visitor);
        }
        self.byte()?;
        let left = self.count()?;
        self.nested(|reader| {
            visitor.visit_map(Fields {
                reader,
                left,
                as_bytes: true,
            })
        })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.byte()? {
            VARIANT => self.nested(|reader| visitor.visit_enum(reader)),
            STR => visitor.visit_enum(UnitVariant(self.name()?)),
            _ => Err(bad("expected an enum's variant")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.skip()?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        // Every type takes the path it takes to and from JSON.
        true
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map identifier
    }
}

impl<'de> EnumAccess<'de> for &mut Reader<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let value = seed.deserialize(Name(self.name()?))?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for &mut Reader<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.byte()? {
            NULL => Ok(()),
            _ => Err(bad("expected a unit variant")),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, visitor)
    }
}

/// A variant's name as written. A derived enum asks for it as an
/// identifier and matches it as bytes, with no UTF-8 check (most of the
/// names a fold reads are variants); anything else gets it as a string,
/// checked.
struct Name<'de>(&'de [u8]);

impl<'de> de::Deserializer<'de> for Name<'de> {
    type Error = Error;

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_bytes(self.0)
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let name = std::str::from_utf8(self.0).map_err(|_| bad("a name that is not UTF-8"))?;
        visitor.visit_borrowed_str(name)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum ignored_any
    }
}

/// A unit variant, written as its bare name.
struct UnitVariant<'de>(&'de [u8]);

impl<'de> EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let name = seed.deserialize(Name(self.0))?;
        Ok((name, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value, Error> {
        Err(bad("expected a unit variant"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(bad("expected a unit variant"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(bad("expected a unit variant"))
    }
}

/// A sequence's items, or a map's entries, still to be read: each a
/// marked value (a map's key and value one after the other).
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    left: usize,
}

impl<'de> Items<'_, 'de> {
    fn next<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        self.next(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> MapAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        self.next(seed)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(&mut *self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A struct's fields still to be read, each a name and a value.
struct Fields<'a, 'de> {
    reader: &'a mut Reader<'de>,
    left: usize,
    /// Names go as bytes to a derived struct, which matches them as they
    /// are, with no UTF-8 check; as strings to anything else (a JSON value,
    /// serde's buffer for a tagged enum), which may want a string key.
    as_bytes: bool,
}

impl<'de> MapAccess<'de> for Fields<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        if self.as_bytes {
            let name = self.reader.name()?;
            return seed
                .deserialize(de::value::BorrowedBytesDeserializer::<Error>::new(name))
                .map(Some);
        }
        let name = self.reader.text()?;
        seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(name))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(&mut *self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}
