//! A typed value's canonical JSON text (what the store keeps and hashes of
//! a fact, see [`FactText`]), written straight from the value: the keys of
//! every object in byte order, no space, exactly as `serde_json` writes the
//! value's `Value`, without building that tree of maps and strings (a
//! tenth of an append's work went to building and dropping it).
//!
//! A serializer of ours writes the value as the type declares it, with
//! serde_json's escapes and numbers, into one buffer; it notes where each
//! object's members start and end, and puts them in key order when the
//! object closes (an inner object is in order before its outer one is
//! sorted, and keeps its length, so the outer one's places hold). It
//! writes a struct's field names straight from the type: going through
//! serde_json's own serializer, which takes every key for a map's, was
//! over half the cost of checking an imported fact.

use std::borrow::Cow;
use std::cell::RefCell;
use std::cmp::Ordering;

use serde::ser::{self, Serialize, Serializer};
use serde_json::ser::{CompactFormatter, Formatter};
use serde_json::Error;
use tabletape_events::FactText;

/// `value`'s canonical JSON text, as a fact is stored.
pub fn of<T: Serialize + ?Sized>(value: &T) -> FactText {
    FactText::from_canonical(canonical(value)).expect("canonical text is JSON")
}

/// `value`'s JSON with every object's keys in byte order: the text of
/// `serde_json::to_value(value)`, written without building the value.
pub fn canonical<T: Serialize + ?Sized>(value: &T) -> String {
    // Written in the thread's room and copied out at its length: the
    // room's lists of members and its buffer are made once per thread,
    // not grown again for every fact.
    in_room(value, |text| {
        String::from_utf8(text.to_vec()).expect("serde_json writes UTF-8")
    })
}

thread_local! {
    /// A thread's room to write text in, kept from one fact to the next.
    static ROOM: RefCell<Text> = RefCell::default();
}

/// Whether `text` is `value`'s canonical text: what a check of stored
/// facts asks of each, with no copy of the text kept or checked as JSON.
pub fn is<T: Serialize + ?Sized>(value: &T, text: &str) -> bool {
    in_room(value, |written| written == text.as_bytes())
}

/// Writes `value`'s canonical text in the thread's room and gives it to `then`.
fn in_room<T: Serialize + ?Sized, R>(value: &T, then: impl FnOnce(&[u8]) -> R) -> R {
    ROOM.with_borrow_mut(|room| {
        // All of it: a write a panic cut short (a kind's, caught by the
        // engine's guard) may have left objects open.
        room.buf.clear();
        room.objects.clear();
        room.members.clear();
        write(value, room);
        let answer = then(&room.buf);
        // A rare large fact leaves no large room behind on every thread
        // that once wrote one.
        if room.buf.capacity() > ROOM_KEPT {
            *room = Text::default();
        }
        answer
    })
}

/// The most room a thread keeps between facts, in bytes.
const ROOM_KEPT: usize = 64 * 1024;

/// Writes `value`'s canonical text at the end of `text`.
fn write<T: Serialize + ?Sized>(value: &T, text: &mut Text) {
    value
        .serialize(&mut Canon(text))
        .expect("values serialize to JSON");
    debug_assert!(text.objects.is_empty() && text.members.is_empty());
}

/// The text written so far, and the members of each object still open.
#[derive(Default)]
struct Text {
    buf: Vec<u8>,
    /// For each open object, where its members begin in `members`.
    objects: Vec<usize>,
    members: Vec<Member>,
    /// Room to reorder an object in, kept from one object to the next.
    order: Vec<usize>,
    region: Vec<u8>,
}

/// One member of an open object, by its place in the text.
struct Member {
    /// Where its key's opening quote is.
    start: usize,
    /// Just after its key's closing quote.
    key_end: usize,
    /// Just after its value.
    end: usize,
    /// Whether its key is written with an escape (`\"`), and so is not
    /// compared by its bytes as written.
    escaped: bool,
    /// The key's first eight bytes (unescaped), big-endian, zero after its
    /// end: most keys are told apart by these alone, in one comparison.
    prefix: u64,
}

impl Text {
    /// How the keys of two members of the object being written compare.
    fn order(&self, a: &Member, b: &Member) -> Ordering {
        a.prefix
            .cmp(&b.prefix)
            .then_with(|| key_in(&self.buf, 0, a).cmp(&key_in(&self.buf, 0, b)))
    }

    /// Puts the members of the object closing now in key order (the last
    /// of a repeated key kept, as a map keeps it).
    fn close_object(&mut self) {
        let first = self.objects.pop().expect("an object is open");
        let members = &self.members[first..];
        let in_order = members
            .windows(2)
            .all(|pair| self.order(&pair[0], &pair[1]).is_lt());
        if !in_order {
            let mut order = std::mem::take(&mut self.order);
            order.clear();
            order.extend(0..members.len());
            // Stable: of a repeated key, the later member comes last.
            order.sort_by(|&a, &b| self.order(&members[a], &members[b]));
            let mut region = std::mem::take(&mut self.region);
            let start = members[0].start;
            region.clear();
            region.extend_from_slice(&self.buf[start..]);
            self.buf.truncate(start);
            let mut written = 0;
            for (n, &i) in order.iter().enumerate() {
                let key = |i: usize| key_in(&region, start, &members[i]);
                let repeated = order.get(n + 1).is_some_and(|&next| {
                    members[next].prefix == members[i].prefix && key(next) == key(i)
                });
                if repeated {
                    continue;
                }
                if written > 0 {
                    self.buf.push(b',');
                }
                let member = &members[i];
                self.buf
                    .extend_from_slice(&region[member.start - start..member.end - start]);
                written += 1;
            }
            self.order = order;
            self.region = region;
        }
        self.members.truncate(first);
    }
}

/// The key of `member`, unquoted (and unescaped, when it has escapes), in
/// `text`, which begins at `start` of the whole.
fn key_in<'t>(text: &'t [u8], start: usize, member: &Member) -> Cow<'t, [u8]> {
    let quoted = &text[member.start - start..member.key_end - start];
    if member.escaped {
        let key: String = serde_json::from_slice(quoted).expect("a key is a JSON string");
        Cow::Owned(key.into_bytes())
    } else {
        Cow::Borrowed(&quoted[1..quoted.len() - 1])
    }
}

/// The serializer: writes JSON as serde_json writes it, compactly, into
/// [`Text`], noting each object's members so [`Text::close_object`] can put
/// them in key order. A struct's field names are written straight from the
/// type's own names, with none of the work a map's keys need.
struct Canon<'t>(&'t mut Text);

/// What serde_json calls a raw value when it serializes one: its text is
/// written as it is.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

impl Canon<'_> {
    #[inline]
    fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.0.buf
    }

    /// Opens an object's member: the comma before it, then its key, quoted.
    fn open_member(&mut self, first: bool, key: &str) {
        if !first {
            self.0.buf.push(b',');
        }
        let start = self.0.buf.len();
        let escaped = write_quoted(&mut self.0.buf, key);
        let key_end = self.0.buf.len();
        self.0.buf.push(b':');
        self.0.members.push(Member {
            start,
            key_end,
            end: key_end,
            escaped,
            prefix: prefix_of(key.as_bytes()),
        });
    }

    /// Closes the member just written: its value ends here.
    fn close_member(&mut self) {
        let at = self.0.buf.len();
        self.0.members.last_mut().expect("a member is open").end = at;
    }

    fn open_object(&mut self) {
        self.0.buf.push(b'{');
        let first = self.0.members.len();
        self.0.objects.push(first);
    }

    fn close_object(&mut self) {
        self.0.close_object();
        self.0.buf.push(b'}');
    }

    /// `{"variant":`, an object of one member, which needs no sorting.
    fn open_variant(&mut self, variant: &str) {
        self.0.buf.push(b'{');
        write_quoted(&mut self.0.buf, variant);
        self.0.buf.push(b':');
    }
}

/// A key's first eight bytes, big-endian, zero after its end.
fn prefix_of(key: &[u8]) -> u64 {
    let mut first = [0; 8];
    let n = key.len().min(8);
    first[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(first)
}

/// Writes `text` as a JSON string, escaped as serde_json escapes it;
/// whether any of it needed an escape.
fn write_quoted(buf: &mut Vec<u8>, text: &str) -> bool {
    buf.push(b'"');
    let bytes = text.as_bytes();
    let mut escaped = false;
    let mut from = 0;
    let mut at = 0;
    while at < bytes.len() {
        // Most text needs no escape: passed over eight bytes at a time
        // (the last few padded with spaces, which need none).
        let word = match bytes.get(at..at + 8) {
            Some(word) => word.try_into().expect("eight bytes"),
            None => {
                let mut padded = [b' '; 8];
                padded[..bytes.len() - at].copy_from_slice(&bytes[at..]);
                padded
            }
        };
        if !any_to_escape(u64::from_le_bytes(word)) {
            at += 8;
            continue;
        }
        let byte = bytes[at];
        if byte < 0x20 || byte == b'"' || byte == b'\\' {
            buf.extend_from_slice(&bytes[from..at]);
            push_escape(buf, byte);
            from = at + 1;
            escaped = true;
        }
        at += 1;
    }
    buf.extend_from_slice(&bytes[from..]);
    buf.push(b'"');
    escaped
}

/// Whether any of a word's eight bytes is a control character, a quote
/// or a backslash (each test is exact about whether some byte matches).
#[inline]
fn any_to_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    let quote = zero_byte(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_byte(word ^ (ONES * u64::from(b'\\')));
    control | quote | backslash != 0
}

/// Writes `byte` (a control character, a quote or a backslash) escaped
/// as serde_json escapes it.
fn push_escape(buf: &mut Vec<u8>, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            let (high, low) = (HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]);
            buf.extend_from_slice(&[b'\\', b'u', b'0', b'0', high, low]);
            return;
        }
    };
    buf.extend_from_slice(&[b'\\', short]);
}

/// Writes a finite float as serde_json does, and any other as `null`.
fn write_f64(buf: &mut Vec<u8>, value: f64) {
    if value.is_finite() {
        CompactFormatter
            .write_f64(buf, value)
            .expect("writing to memory");
    } else {
        buf.extend_from_slice(b"null");
    }
}

/// What a sequence, map or struct being written closes with.
#[derive(Clone, Copy)]
enum Close {
    /// `]`
    Array,
    /// `]}`: a tuple variant's items, inside its one-member object.
    ArrayInVariant,
    /// An object's members sorted, then `}`.
    Object,
    /// An object's members sorted, then `}}`: a struct variant's fields.
    ObjectInVariant,
    /// A raw value's text, written as it is: nothing to close.
    Raw,
}

/// A sequence, map or struct being written.
struct Compound<'a, 't> {
    canon: &'a mut Canon<'t>,
    first: bool,
    close: Close,
}

impl Compound<'_, '_> {
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if !std::mem::take(&mut self.first) {
            self.canon.buf().push(b',');
        }
        value.serialize(&mut *self.canon)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        if let Close::Raw = self.close {
            let text: String = serde_json::from_str(&serde_json::to_string(value)?)?;
            self.canon.buf().extend_from_slice(text.as_bytes());
            return Ok(());
        }
        let first = std::mem::take(&mut self.first);
        self.canon.open_member(first, key);
        value.serialize(&mut *self.canon)?;
        self.canon.close_member();
        Ok(())
    }

    fn close(self) -> Result<(), Error> {
        match self.close {
            Close::Array => self.canon.buf().push(b']'),
            Close::ArrayInVariant => self.canon.buf().extend_from_slice(b"]}"),
            Close::Object => self.canon.close_object(),
            Close::ObjectInVariant => {
                self.canon.close_object();
                self.canon.buf().push(b'}');
            }
            Close::Raw => {}
        }
        Ok(())
    }
}

macro_rules! ints {
    ($($name:ident($ty:ty) => $write:ident),* $(,)?) => {
        $(
            fn $name(self, value: $ty) -> Result<(), Error> {
                CompactFormatter.$write(self.buf(), value).map_err(Error::io)
            }
        )*
    };
}

impl<'a, 't> Serializer for &'a mut Canon<'t> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 't>;
    type SerializeTuple = Compound<'a, 't>;
    type SerializeTupleStruct = Compound<'a, 't>;
    type SerializeTupleVariant = Compound<'a, 't>;
    type SerializeMap = Compound<'a, 't>;
    type SerializeStruct = Compound<'a, 't>;
    type SerializeStructVariant = Compound<'a, 't>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.buf().extend_from_slice(text);
        Ok(())
    }

    // Integers as serde_json writes them (its formatter, by `itoa`).
    ints! {
        serialize_i8(i8) => write_i8, serialize_i16(i16) => write_i16,
        serialize_i32(i32) => write_i32, serialize_i64(i64) => write_i64,
        serialize_i128(i128) => write_i128, serialize_u8(u8) => write_u8,
        serialize_u16(u16) => write_u16, serialize_u32(u32) => write_u32,
        serialize_u64(u64) => write_u64, serialize_u128(u128) => write_u128,
    }

    /// A value keeps an `f32` as the `f64` it widens to, and writes that.
    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        write_f64(self.buf(), f64::from(value));
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        write_f64(self.buf(), value);
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        write_quoted(self.buf(), value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        write_quoted(self.buf(), value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        let mut seq = self.serialize_seq(Some(value.len()))?;
        for byte in value {
            seq.item(byte)?;
        }
        seq.close()
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.buf().extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.buf().push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, 't>, Error> {
        self.buf().push(b'[');
        Ok(Compound {
            canon: self,
            first: true,
            close: Close::Array,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 't>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 't>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 't>, Error> {
        self.open_variant(variant);
        self.buf().push(b'[');
        Ok(Compound {
            canon: self,
            first: true,
            close: Close::ArrayInVariant,
        })
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, 't>, Error> {
        self.open_object();
        Ok(Compound {
            canon: self,
            first: true,
            close: Close::Object,
        })
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a, 't>, Error> {
        if name == RAW_VALUE {
            return Ok(Compound {
                canon: self,
                first: true,
                close: Close::Raw,
            });
        }
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 't>, Error> {
        self.open_variant(variant);
        self.open_object();
        Ok(Compound {
            canon: self,
            first: true,
            close: Close::ObjectInVariant,
        })
    }
}

/// The items of a sequence, tuple or tuple variant, and the fields of a
/// struct or struct variant, are all written by [`Compound`].
macro_rules! compound {
    ($($trait:ident::$method:ident),* $(,)?) => {
        $(
            impl ser::$trait for Compound<'_, '_> {
                type Ok = ();
                type Error = Error;

                fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                    self.item(value)
                }

                fn end(self) -> Result<(), Error> {
                    self.close()
                }
            }
        )*
    };
    ($(fields $trait:ident),* $(,)?) => {
        $(
            impl ser::$trait for Compound<'_, '_> {
                type Ok = ();
                type Error = Error;

                fn serialize_field<T: Serialize + ?Sized>(
                    &mut self,
                    key: &'static str,
                    value: &T,
                ) -> Result<(), Error> {
                    self.field(key, value)
                }

                fn end(self) -> Result<(), Error> {
                    self.close()
                }
            }
        )*
    };
}

compound! {
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
}

compound! { fields SerializeStruct, fields SerializeStructVariant }

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        let first = std::mem::take(&mut self.first);
        key.serialize(MapKey {
            canon: &mut *self.canon,
            first,
        })
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.canon)?;
        self.canon.close_member();
        Ok(())
    }

    fn end(self) -> Result<(), Error> {
        self.close()
    }
}

/// Opens a map's member with its key written as serde_json writes one: a
/// string as it is, a number or a bool in quotes; anything else refused.
struct MapKey<'a, 't> {
    canon: &'a mut Canon<'t>,
    first: bool,
}

fn key_must_be_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

macro_rules! key_as_text {
    ($($name:ident($ty:ty)),* $(,)?) => {
        $(
            fn $name(self, value: $ty) -> Result<(), Error> {
                self.serialize_str(&value.to_string())
            }
        )*
    };
}

macro_rules! not_a_key {
    ($($name:ident($($arg:ty),*) -> $ok:ty),* $(,)?) => {
        $(
            fn $name(self, $(_: $arg),*) -> Result<$ok, Error> {
                Err(key_must_be_a_string())
            }
        )*
    };
}

impl Serializer for MapKey<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    key_as_text! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128),
    }

    not_a_key! {
        serialize_bytes(&[u8]) -> (),
        serialize_none() -> (),
        serialize_unit() -> (),
        serialize_unit_struct(&'static str) -> (),
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeTupleVariant,
        serialize_map(Option<usize>) -> Self::SerializeMap,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeStructVariant,
    }

    /// An `f32` key is written as the `f64` it widens to, as a value is.
    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        self.serialize_f64(f64::from(value))
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(ser::Error::custom("float key must be finite"));
        }
        let mut text = Vec::new();
        write_f64(&mut text, value);
        self.serialize_str(std::str::from_utf8(&text).expect("numbers are written in ASCII"))
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.canon.open_member(self.first, value);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
}
