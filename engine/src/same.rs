//! Whether a typed value is a stored JSON value, without building one.
//!
//! `verify` and an import decide every stored action again and ask whether
//! the facts come out as stored. Turning the typed facts into JSON values to
//! compare them (`serde_json::to_value(x) == v`) was two fifths of that
//! check: a tree built, walked and dropped for every fact. [`same_json`]
//! serializes the typed value against the stored one instead, field by
//! field, and stops at the first difference. It answers as `to_value` and
//! `==` would for every value `to_value` can make; where it is unsure (a
//! map key `to_value` would turn into text another way) it says they
//! differ, and the caller builds the JSON to be certain.

use serde::ser::{self, Serialize};
use serde_json::{Map, Value};

/// Whether `value` serializes to `json` (as `serde_json::to_value(value)
/// == json` says), or may not: a `false` is only "not shown the same".
pub fn same_json<T: Serialize + ?Sized>(value: &T, json: &Value) -> bool {
    value.serialize(Against(json)).is_ok()
}

/// The one error: not the same (or not sure).
#[derive(Debug)]
pub struct Differs;

impl std::fmt::Display for Differs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("differs from the stored JSON")
    }
}

impl std::error::Error for Differs {}

impl ser::Error for Differs {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Differs
    }
}

fn check(same: bool) -> Result<(), Differs> {
    match same {
        true => Ok(()),
        false => Err(Differs),
    }
}

/// Serializes against the JSON value it should come out as.
#[derive(Clone, Copy)]
struct Against<'a>(&'a Value);

impl<'a> Against<'a> {
    fn int(self, n: i64) -> Result<(), Differs> {
        match n {
            0.. => self.uint(n as u64),
            _ => check(matches!(self.0, Value::Number(m) if !m.is_f64() && m.as_i64() == Some(n))),
        }
    }

    fn uint(self, n: u64) -> Result<(), Differs> {
        check(matches!(self.0, Value::Number(m) if m.is_u64() && m.as_u64() == Some(n)))
    }

    fn text(self, s: &str) -> Result<(), Differs> {
        check(matches!(self.0, Value::String(t) if t == s))
    }

    fn object(self) -> Result<&'a Map<String, Value>, Differs> {
        match self.0 {
            Value::Object(map) => Ok(map),
            _ => Err(Differs),
        }
    }

    /// The one entry of an externally tagged variant's object.
    fn variant(self, name: &str) -> Result<Against<'a>, Differs> {
        let map = self.object()?;
        match (map.len(), map.get(name)) {
            (1, Some(content)) => Ok(Against(content)),
            _ => Err(Differs),
        }
    }
}

impl<'a> ser::Serializer for Against<'a> {
    type Ok = ();
    type Error = Differs;
    type SerializeSeq = Items<'a>;
    type SerializeTuple = Items<'a>;
    type SerializeTupleStruct = Items<'a>;
    type SerializeTupleVariant = Items<'a>;
    type SerializeMap = Entries<'a>;
    type SerializeStruct = Entries<'a>;
    type SerializeStructVariant = Entries<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Differs> {
        check(self.0 == &Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Differs> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Differs> {
        self.int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Differs> {
        self.int(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Differs> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), Differs> {
        match (u64::try_from(v), i64::try_from(v)) {
            (Ok(n), _) => self.uint(n),
            (_, Ok(n)) => self.int(n),
            _ => Err(Differs),
        }
    }
    fn serialize_u8(self, v: u8) -> Result<(), Differs> {
        self.uint(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Differs> {
        self.uint(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Differs> {
        self.uint(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Differs> {
        self.uint(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Differs> {
        u64::try_from(v).map_or(Err(Differs), |n| self.uint(n))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Differs> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Differs> {
        // `to_value` makes a float a number when it is finite, else null.
        match v.is_finite() {
            true => {
                check(matches!(self.0, Value::Number(m) if m.is_f64() && m.as_f64() == Some(v)))
            }
            false => check(self.0.is_null()),
        }
    }
    fn serialize_char(self, v: char) -> Result<(), Differs> {
        self.text(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Differs> {
        self.text(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Differs> {
        match self.0 {
            Value::Array(items) if items.len() == v.len() => items
                .iter()
                .zip(v)
                .try_for_each(|(item, &b)| Against(item).uint(b.into())),
            _ => Err(Differs),
        }
    }
    fn serialize_none(self) -> Result<(), Differs> {
        check(self.0.is_null())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Differs> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Differs> {
        check(self.0.is_null())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Differs> {
        check(self.0.is_null())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Differs> {
        self.text(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Differs> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Differs> {
        value.serialize(self.variant(variant)?)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Items<'a>, Differs> {
        Items::of(self.0, len)
    }
    fn serialize_tuple(self, len: usize) -> Result<Items<'a>, Differs> {
        Items::of(self.0, Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Items<'a>, Differs> {
        Items::of(self.0, Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items<'a>, Differs> {
        let Against(content) = self.variant(variant)?;
        Items::of(content, Some(len))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Entries<'a>, Differs> {
        Entries::of(self.0)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Entries<'a>, Differs> {
        Entries::of(self.0)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Entries<'a>, Differs> {
        let Against(content) = self.variant(variant)?;
        Entries::of(content)
    }
}

/// A sequence's items, against the stored array's, in order.
pub struct Items<'a> {
    items: std::slice::Iter<'a, Value>,
}

impl<'a> Items<'a> {
    fn of(json: &'a Value, len: Option<usize>) -> Result<Self, Differs> {
        match json {
            Value::Array(items) if len.is_none_or(|n| n == items.len()) => Ok(Items {
                items: items.iter(),
            }),
            _ => Err(Differs),
        }
    }

    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        value.serialize(Against(self.items.next().ok_or(Differs)?))
    }

    fn end(self) -> Result<(), Differs> {
        check(self.items.len() == 0)
    }
}

/// serde's four sequence traits, each taking an item at a time.
macro_rules! items_take {
    ($($serialize:ident :: $item:ident),*) => {$(
        impl ser::$serialize for Items<'_> {
            type Ok = ();
            type Error = Differs;
            fn $item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
                self.item(value)
            }
            fn end(self) -> Result<(), Differs> {
                Items::end(self)
            }
        }
    )*};
}

items_take!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// An object's entries, each found by its key in the stored object; the
/// same number of them at the end (a key written twice counts twice, and
/// so is said to differ).
pub struct Entries<'a> {
    map: &'a Map<String, Value>,
    seen: usize,
    /// The value of the key just written, for its value.
    next: Option<&'a Value>,
}

impl<'a> Entries<'a> {
    fn of(json: &'a Value) -> Result<Self, Differs> {
        Ok(Entries {
            map: Against(json).object()?,
            seen: 0,
            next: None,
        })
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Differs> {
        self.seen += 1;
        value.serialize(Against(self.map.get(key).ok_or(Differs)?))
    }

    fn end(self) -> Result<(), Differs> {
        check(self.seen == self.map.len())
    }
}

impl ser::SerializeMap for Entries<'_> {
    type Ok = ();
    type Error = Differs;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Differs> {
        let key = key_text(key)?;
        self.seen += 1;
        self.next = Some(self.map.get(&key).ok_or(Differs)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Differs> {
        value.serialize(Against(self.next.take().ok_or(Differs)?))
    }
    fn end(self) -> Result<(), Differs> {
        Entries::end(self)
    }
}

/// serde's two struct traits, each taking a named field at a time.
macro_rules! fields_take {
    ($($serialize:ident),*) => {$(
        impl ser::$serialize for Entries<'_> {
            type Ok = ();
            type Error = Differs;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Differs> {
                self.field(key, value)
            }
            fn end(self) -> Result<(), Differs> {
                Entries::end(self)
            }
        }
    )*};
}

fields_take!(SerializeStruct, SerializeStructVariant);

/// A map key as the text JSON keeps it: a string as it is, an integer in
/// decimal, as `to_value` writes them; any other key is not sure. (Keys
/// are few in facts, so the value made to read it costs little.)
fn key_text<T: Serialize + ?Sized>(key: &T) -> Result<String, Differs> {
    match key.serialize(serde_json::value::Serializer) {
        Ok(Value::String(text)) => Ok(text),
        Ok(Value::Number(n)) if !n.is_f64() => Ok(n.to_string()),
        _ => Err(Differs),
    }
}
