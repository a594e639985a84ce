//! Canonical input: what reaches the log is the kind's own typed reading of
//! what the table sent, serialised again, never the caller's raw JSON.
//!
//! A raw action could carry anything JSON allows: an extra field holding a
//! float that does not read back as it was written (so the stored bytes no
//! longer hash to the stored hash), a value nested deeper than a reader can
//! follow, a control character that splits a line of the story. Reading it
//! into the kind's typed action and writing that back keeps only what the
//! rules understand, in one form. Fields the typed reading does not know
//! are refused by name rather than dropped, and every string is checked.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// The longest string an action, option or pack may hold, in characters: a
/// story's worth of free text, far below what would burden a log.
pub const TEXT_MAX_CHARS: usize = 2000;

/// Why an input has no canonical form: where, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// Dotted path of the field at fault (`avatar.name`, `seen.1`); empty
    /// for the whole value.
    pub path: String,
    pub message: String,
}

impl Refused {
    /// " at `path`", or nothing for the whole value.
    pub fn at(&self) -> String {
        if self.path.is_empty() || self.path == "." {
            String::new()
        } else {
            format!(" at `{}`", self.path)
        }
    }
}

/// Reads `input` as a `T` and returns it with its canonical JSON. Refuses a
/// value that does not read as a `T`, a field the reading would drop, and a
/// string that is too long or holds a control character or line break.
pub fn read<T: Serialize + DeserializeOwned>(input: &Value) -> Result<(T, Value), Refused> {
    // Read plainly first: tracking the path costs every field of every
    // action (a tenth of an import's check), and is needed only to say
    // where a reading failed.
    let typed: T = match T::deserialize(input) {
        Ok(typed) => typed,
        Err(_) => serde_path_to_error::deserialize(input).map_err(|e| {
            let message = e.inner().to_string();
            Refused {
                path: e.path().to_string(),
                message: format!("{message}{}", crate::suggest::for_serde_message(&message)),
            }
        })?,
    };
    let canonical = serde_json::to_value(&typed).expect("typed values serialize");
    if let Some(path) = unknown_fields(input, &canonical).into_iter().next() {
        return Err(Refused {
            message: format!("unknown field `{path}`: it is not part of this input"),
            path,
        });
    }
    check_text(&canonical)?;
    Ok((typed, canonical))
}

/// Whether a value says nothing a typed reading could drop without
/// changing meaning (a default left out on writing).
fn says_nothing(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::Number(n) => n.as_u64() == Some(0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Bool(true) => false,
    }
}

/// A step of a path into a value: a key, or an index. Paths are kept as
/// borrowed steps and written out only for a fault (every action is read
/// this way, an import's every one again: cloning each key it passed cost
/// each action that has nothing wrong).
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// `path`, dotted (`avatar.name`, `seen.1`).
fn dotted(path: &[Step<'_>]) -> String {
    let steps: Vec<String> = path
        .iter()
        .map(|step| match step {
            Step::Key(key) => key.to_string(),
            Step::Index(n) => n.to_string(),
        })
        .collect();
    steps.join(".")
}

/// The paths of fields in `input` that the canonical form dropped. A field
/// that says nothing (a default the writing leaves out) is not counted, and
/// an object with as many keys on both sides is taken for a map whose keys
/// the reading normalised.
pub fn unknown_fields(input: &Value, canonical: &Value) -> Vec<String> {
    fn walk<'a>(
        input: &'a Value,
        canonical: &Value,
        path: &mut Vec<Step<'a>>,
        out: &mut Vec<String>,
    ) {
        match (input, canonical) {
            (Value::Object(i), Value::Object(c)) => {
                // As many keys on both sides: a map whose keys the reading
                // normalised, not a struct that dropped a field.
                let renamed = i.len() == c.len();
                for (k, v) in i {
                    path.push(Step::Key(k));
                    match c.get(k) {
                        Some(cv) => walk(v, cv, path, out),
                        None if !says_nothing(v) && !renamed => out.push(dotted(path)),
                        None => {}
                    }
                    path.pop();
                }
            }
            (Value::Array(i), Value::Array(c)) if i.len() == c.len() => {
                for (n, (v, cv)) in i.iter().zip(c).enumerate() {
                    path.push(Step::Index(n));
                    walk(v, cv, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(input, canonical, &mut Vec::new(), &mut out);
    out
}

/// Why a string may not be stored, if it may not.
fn text_fault(s: &str) -> Option<String> {
    // Plain ASCII text short enough in bytes is short enough in characters,
    // and holds a control character only below a space or at DEL.
    if s.len() <= TEXT_MAX_CHARS && s.bytes().all(|b| (b' '..0x7f).contains(&b)) {
        return None;
    }
    if let Some(c) = s
        .chars()
        .find(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return Some(format!(
            "holds the control character or line break {c:?}: free text is one line of printable characters"
        ));
    }
    let n = s.chars().count();
    (n > TEXT_MAX_CHARS).then(|| format!("is {n} characters long; the most is {TEXT_MAX_CHARS}"))
}

/// Checks every string (and object key) in a value.
pub fn check_text(value: &Value) -> Result<(), Refused> {
    fn walk<'a>(value: &'a Value, path: &mut Vec<Step<'a>>) -> Result<(), Refused> {
        let refuse = |path: &[Step<'_>], why: String| Refused {
            path: dotted(path),
            message: format!("the text {why}"),
        };
        match value {
            Value::String(s) => match text_fault(s) {
                Some(why) => Err(refuse(path, why)),
                None => Ok(()),
            },
            Value::Array(items) => {
                for (n, v) in items.iter().enumerate() {
                    path.push(Step::Index(n));
                    walk(v, path)?;
                    path.pop();
                }
                Ok(())
            }
            Value::Object(map) => {
                for (k, v) in map {
                    path.push(Step::Key(k));
                    if let Some(why) = text_fault(k) {
                        return Err(refuse(path, why));
                    }
                    walk(v, path)?;
                    path.pop();
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    walk(value, &mut Vec::new())
}
