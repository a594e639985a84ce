//! Readers for the option values every kind takes the same way: values
//! arrive from `--option K=V` as strings, or from the API as JSON strings,
//! numbers or lists, and an error names the option.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::rules::About;

/// A list of names: a JSON list of strings, or one comma-separated string.
/// Each name is trimmed; an empty one is refused.
pub fn names(option: &str, v: &Value) -> Result<Vec<String>, String> {
    let items: Vec<String> = match v {
        Value::Array(a) => a
            .iter()
            .map(|x| match x {
                Value::String(s) => Ok(s.trim().to_string()),
                other => Err(format!("option `{option}`: `{other}` is not a name")),
            })
            .collect::<Result<_, _>>()?,
        Value::String(s) => s.split(',').map(|p| p.trim().to_string()).collect(),
        other => return Err(format!("option `{option}`: expected a list, not {other}")),
    };
    if items.iter().any(String::is_empty) {
        return Err(format!("option `{option}`: a name in the list is empty"));
    }
    Ok(items)
}

/// A whole number of at least `min`, as a JSON number or a string.
pub fn whole(option: &str, v: &Value, min: u32) -> Result<u32, String> {
    let t = match v {
        Value::String(s) => s.trim().to_string(),
        other => other.to_string(),
    };
    match t.parse::<u32>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(format!(
            "option `{option}`: `{t}` is not a whole number of at least {min}"
        )),
    }
}

/// On or off: a JSON bool, or `on`/`off` (`true`/`false`, `yes`/`no`, `1`/`0`).
pub fn switch(option: &str, v: &Value) -> Result<bool, String> {
    let word = match v {
        Value::Bool(b) => return Ok(*b),
        Value::String(s) => s.trim().to_ascii_lowercase(),
        Value::Number(n) => n.to_string(),
        other => {
            return Err(format!(
                "option `{option}`: expected on or off, not {other}"
            ))
        }
    };
    match word.as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        other => Err(format!("option `{option}`: `{other}` is not on or off")),
    }
}

/// A kind's options as a table gives them: a map from option name to value,
/// each read by the kind's own `set`, over the kind's defaults. A name the
/// kind does not know is refused, and the error lists those its
/// `about.json` names.
pub trait TableOptions: Default {
    /// Reads one option into `self`: `Ok(false)` for a name the kind does
    /// not know, an error naming the option for a value it cannot take.
    fn set(&mut self, option: &str, v: &Value) -> Result<bool, String>;

    /// The options a map gives, over the kind's defaults.
    fn from_map(map: &BTreeMap<String, Value>, about: &About) -> Result<Self, String> {
        let mut options = Self::default();
        for (option, v) in map {
            if !options.set(option, v)? {
                let known: Vec<&str> = about.options.iter().map(|o| o.name.as_str()).collect();
                return Err(format!(
                    "unknown option `{option}`; {} knows {}",
                    about.title,
                    known.join(", ")
                ));
            }
        }
        Ok(options)
    }
}

/// A kind's options read from JSON as their map, through
/// [`TableOptions::from_map`]: `options_from_map!(Options, Kind)`.
macro_rules! options_from_map {
    ($options:ty, $kind:ty) => {
        impl<'de> serde::Deserialize<'de> for $options {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let map = <std::collections::BTreeMap<String, serde_json::Value>>::deserialize(d)?;
                let about = <$kind as $crate::rules::Rules>::about();
                <$options as $crate::option_read::TableOptions>::from_map(&map, about)
                    .map_err(<D::Error as serde::de::Error>::custom)
            }
        }
    };
}
pub(crate) use options_from_map;
