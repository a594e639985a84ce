//! A table's own content pack laid over the kind's bundled one, so a table
//! with its own box writes only what differs: an entry with the `id` (or
//! `name`, or `page`) of a bundled one changes the fields it gives, a new
//! one is added, and everything else stays as bundled. A pack that says
//! `"whole": true` is read alone instead, and `"whole": ["locations", ...]`
//! reads just those lists as the table gives them (a board of the table's
//! own has its own locations, not the bundled ones and more). Keys named `//` are comments, for
//! the table's own notes in the file (`tabletape pack new` writes some).
//!
//! The kind then reads the laid pack as it reads any (see
//! [`crate::DynRules::canonical_pack`]); an error it finds in an entry that
//! came from the table's file is told by that entry's place in the file.

use serde_json::{json, Map, Value};

use crate::error::ContentError;
use crate::game::DynRules;

/// A kind's bundled sample pack named `name`, each of its `parts` taken
/// from a field of a bundled content file: (the pack's key, the file's
/// text, the file's field). The files are a part of the build, so they read.
pub(crate) fn bundled_sample(name: &str, parts: &[(&str, &str, &str)]) -> Value {
    let mut pack = json!({ "pack": name, "version": 1, "sample": true });
    for (key, text, field) in parts {
        let mut file: Value = serde_json::from_str(text).expect("bundled content is valid JSON");
        pack[*key] = file[*field].take();
    }
    pack
}

/// The key of a pack that asks to be read alone, not over the bundled one.
pub const WHOLE: &str = "whole";

/// The key of a comment.
pub const COMMENT: &str = "//";

/// What makes an entry of a list the same entry in both packs, in the order
/// tried: the first that every entry of both lists has.
const IDENTITIES: [&str; 3] = ["id", "name", "page"];

/// A pack laid over the bundled one, and where its entries came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Laid {
    pub pack: Value,
    /// For each list entry that came from the table's file: its path in
    /// the laid pack and its path in the file.
    from_file: Vec<(String, String)>,
}

impl Laid {
    /// `path` in the laid pack as the table's file names it: an entry the
    /// file gave is named by its place in the file; anything else keeps
    /// its path (it is the bundled pack's, or the same in both).
    pub fn file_path(&self, path: &str) -> String {
        self.from_file
            .iter()
            .filter(|(laid, _)| {
                path.strip_prefix(laid.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
            })
            .max_by_key(|(laid, _)| laid.len())
            .map_or_else(
                || path.to_string(),
                |(laid, file)| format!("{file}{}", &path[laid.len()..]),
            )
    }
}

/// A table's pack as `kind` reads it: laid over the kind's bundled pack,
/// read and checked, and an error told by its place in the table's `file`.
pub fn read(kind: &dyn DynRules, table: &Value, file: &str) -> Result<Value, ContentError> {
    let laid = lay_over(&kind.default_pack(), table);
    kind.canonical_pack(&laid.pack, file)
        .map_err(|e| ContentError {
            path: laid.file_path(&e.path),
            ..e
        })
}

/// The most errors [`check_all`] names in one file.
pub const MOST_ERRORS: usize = 50;

/// Every error in a table's pack that can be named, in the order found:
/// after each, the entry of the table's file at fault is set aside and the
/// rest read again. An error that only follows from an entry set aside (a
/// card naming a location that was at fault) is named too. The reading
/// stops at an error outside the file's lists (a board, a bundled entry),
/// or at [`MOST_ERRORS`]. Empty when the pack reads.
pub fn check_all(kind: &dyn DynRules, table: &Value, file: &str) -> Vec<ContentError> {
    let mut table = table.clone();
    // For each list trimmed so far, the file's index of each entry left.
    let mut kept: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    let mut errors = Vec::new();
    while errors.len() < MOST_ERRORS {
        let Err(mut e) = read(kind, &table, file) else {
            break;
        };
        let entry = list_entry(&e.path).filter(|(key, at, _)| {
            table
                .get(*key)
                .and_then(Value::as_array)
                .is_some_and(|list| *at < list.len())
        });
        let Some((key, at, rest)) = entry else {
            errors.push(e);
            break;
        };
        let (key, rest) = (key.to_string(), rest.to_string());
        let list = table[&key].as_array_mut().expect("checked to be a list");
        let indices = kept
            .entry(key.clone())
            .or_insert_with(|| (0..list.len()).collect());
        list.remove(at);
        e.path = format!("{key}[{}]{rest}", indices.remove(at));
        errors.push(e);
    }
    errors
}

/// `key`, the index and what follows, when `path` names an entry of a
/// top-level list of the file (`characters[1].start`).
fn list_entry(path: &str) -> Option<(&str, usize, &str)> {
    let (key, tail) = path.split_once('[')?;
    if key.is_empty() || key.contains('.') {
        return None;
    }
    let (digits, rest) = tail.split_once(']')?;
    Some((key, digits.parse().ok()?, rest))
}

/// A starting point for a table's own pack of `kind`: the first bundled
/// entry of each list whose entries are named, to change or copy, with
/// comments saying how the file is read.
pub fn starting_point(kind: &dyn DynRules) -> Value {
    let bundled = kind.default_pack();
    let mut out = Map::new();
    out.insert(
        COMMENT.into(),
        json!(format!(
            "Your own box's content for {}. It is laid over the bundled pack (`tabletape pack show {}` prints it): \
             an entry with the id (or name) of a bundled one changes the fields it gives, an entry with a new one \
             is added, and every list left out stays as bundled. Add \"whole\": true to read this file alone, \
             or \"whole\": [\"locations\", ...] to give just those lists (or objects) whole, as your box has them. \
             Keys named // are comments.",
            kind.game_title(),
            kind.name()
        )),
    );
    if let Some(pack) = bundled.as_object() {
        if pack.contains_key("sample") {
            out.insert("sample".into(), false.into());
        }
        for (key, value) in pack {
            let Some(list) = value.as_array() else {
                continue;
            };
            let Some(first) = list.first().and_then(Value::as_object) else {
                continue;
            };
            let Some(name) = IDENTITIES.into_iter().find(|k| names_apart(list, k)) else {
                continue;
            };
            let mut entry = Map::new();
            entry.insert(
                COMMENT.into(),
                json!(format!(
                    "The first of the bundled {key}: change it to what your box prints, or give it a new {name} to add one."
                )),
            );
            entry.extend(first.clone());
            out.insert(key.clone(), json!([entry]));
        }
    }
    Value::Object(out)
}

/// `table` laid over `bundled` (see the module's docs).
pub fn lay_over(bundled: &Value, table: &Value) -> Laid {
    let table = without_comments(table);
    if table.get(WHOLE) == Some(&Value::Bool(true)) {
        let mut pack = table;
        if let Some(o) = pack.as_object_mut() {
            o.remove(WHOLE);
        }
        return Laid {
            pack,
            from_file: Vec::new(),
        };
    }
    // `"whole": ["locations", ...]`: those lists are the table's own,
    // read as given; the rest is laid over the bundled pack.
    let own: Vec<String> = table
        .get(WHOLE)
        .and_then(Value::as_array)
        .map(|keys| {
            keys.iter()
                .filter_map(|k| k.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut over = table;
    if let Some(o) = over.as_object_mut() {
        o.remove(WHOLE);
    }
    let mut from_file = Vec::new();
    let mut pack = merge(bundled, &over, "", "", &mut from_file);
    for key in own {
        if let (Some(given), Some(p)) = (over.get(&key), pack.as_object_mut()) {
            p.insert(key.clone(), given.clone());
            from_file.retain(|(laid, _)| {
                !laid
                    .strip_prefix(key.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
            });
            from_file.push((key.clone(), key));
        }
    }
    Laid { pack, from_file }
}

/// `value` without its comments, at any depth.
pub fn without_comments(value: &Value) -> Value {
    match value {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| k.as_str() != COMMENT)
                .map(|(k, v)| (k.clone(), without_comments(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_comments).collect()),
        other => other.clone(),
    }
}

fn merge(
    base: &Value,
    over: &Value,
    laid_at: &str,
    file_at: &str,
    from_file: &mut Vec<(String, String)>,
) -> Value {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            let mut out: Map<String, Value> = b.clone();
            for (k, v) in o {
                let laid = join(laid_at, k);
                let file = join(file_at, k);
                let merged = match b.get(k) {
                    Some(old) => merge(old, v, &laid, &file, from_file),
                    None => v.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Value::Object(out)
        }
        (Value::Array(b), Value::Array(o)) => match identity(b, o) {
            Some(key) => {
                let mut out = b.clone();
                for (i, entry) in o.iter().enumerate() {
                    let file = format!("{file_at}[{i}]");
                    let at = out.iter().position(|e| e.get(key) == entry.get(key));
                    let j = match at {
                        Some(j) => {
                            let laid = format!("{laid_at}[{j}]");
                            out[j] = merge(&out[j], entry, &laid, &file, from_file);
                            j
                        }
                        None => {
                            out.push(entry.clone());
                            out.len() - 1
                        }
                    };
                    from_file.push((format!("{laid_at}[{j}]"), file));
                }
                Value::Array(out)
            }
            // A list of plain values (a die's faces) is the table's whole.
            None => over.clone(),
        },
        _ => over.clone(),
    }
}

/// The key that names every entry of both lists, each list's entries apart
/// (Ludovia has a white-edged and a black-edged Silver Spoons), if one does.
fn identity(base: &[Value], over: &[Value]) -> Option<&'static str> {
    IDENTITIES
        .into_iter()
        .find(|key| names_apart(base, key) && names_apart(over, key))
}

fn names_apart(list: &[Value], key: &str) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    list.iter().all(|e| {
        e.get(key)
            .filter(|v| v.is_string() || v.is_u64() || v.is_i64())
            .is_some_and(|v| seen.insert(v.to_string()))
    })
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}
