//! A typed value's canonical JSON text (what the store keeps and hashes of
//! a fact, see [`FactText`]), written straight from the value: the keys of
//! every object in byte order, no space, exactly as `serde_json` writes the
//! value's `Value`, without building that tree of maps and strings (a
//! tenth of an append's work went to building and dropping it).
//!
//! serde_json writes the value as the type declares it; a formatter of ours
//! takes every byte into one buffer, notes where each object's members
//! start and end, and puts them in key order when the object closes (an
//! inner object is in order before its outer one is sorted, and keeps its
//! length, so the outer one's places hold).

use std::borrow::Cow;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
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
    let mut serializer = serde_json::Serializer::with_formatter(io::sink(), Sorting(text));
    value
        .serialize(&mut serializer)
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

/// The formatter: every write goes to [`Text`], compactly, whatever the
/// serializer's own writer (a sink).
struct Sorting<'t>(&'t mut Text);

impl Sorting<'_> {
    #[inline]
    fn push(&mut self, byte: u8) -> io::Result<()> {
        self.0.buf.push(byte);
        Ok(())
    }

    /// The comma before every element or member but the first.
    #[inline]
    fn between(&mut self, first: bool) -> io::Result<()> {
        if !first {
            self.0.buf.push(b',');
        }
        Ok(())
    }
}

macro_rules! compact {
    ($($name:ident($ty:ty)),* $(,)?) => {
        $(
            fn $name<W: ?Sized + io::Write>(&mut self, _: &mut W, value: $ty) -> io::Result<()> {
                CompactFormatter.$name(&mut self.0.buf, value)
            }
        )*
    };
}

impl Formatter for Sorting<'_> {
    compact! {
        write_bool(bool), write_i8(i8), write_i16(i16), write_i32(i32), write_i64(i64),
        write_i128(i128), write_u8(u8), write_u16(u16), write_u32(u32), write_u64(u64),
        write_u128(u128), write_f64(f64), write_number_str(&str),
        write_string_fragment(&str), write_char_escape(CharEscape), write_byte_array(&[u8]),
        write_raw_fragment(&str),
    }

    fn write_null<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        CompactFormatter.write_null(&mut self.0.buf)
    }

    /// A value keeps an `f32` as the `f64` it widens to, and writes that.
    fn write_f32<W: ?Sized + io::Write>(&mut self, _: &mut W, value: f32) -> io::Result<()> {
        CompactFormatter.write_f64(&mut self.0.buf, f64::from(value))
    }

    fn begin_string<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.push(b'"')
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.push(b'"')
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.push(b'[')
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.push(b']')
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.between(first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.0.buf.push(b'{');
        let first = self.0.members.len();
        self.0.objects.push(first);
        Ok(())
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.0.close_object();
        self.0.buf.push(b'}');
        Ok(())
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        _: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.between(first)?;
        let start = self.0.buf.len();
        self.0.members.push(Member {
            start,
            key_end: start,
            end: start,
            escaped: false,
            prefix: 0,
        });
        Ok(())
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let at = self.0.buf.len();
        let member = self.0.members.last_mut().expect("a key is open");
        member.key_end = at;
        let inner = &self.0.buf[member.start + 1..at - 1];
        member.escaped = inner.contains(&b'\\');
        let key = match member.escaped {
            false => Cow::Borrowed(inner),
            true => key_in(&self.0.buf, 0, member),
        };
        let mut first = [0; 8];
        let n = key.len().min(8);
        first[..n].copy_from_slice(&key[..n]);
        member.prefix = u64::from_be_bytes(first);
        Ok(())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.push(b':')
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        let at = self.0.buf.len();
        self.0.members.last_mut().expect("a value is open").end = at;
        Ok(())
    }
}
