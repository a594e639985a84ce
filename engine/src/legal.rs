//! What the table is offered: one action open now, as JSON ready to be
//! recorded once what it needs is filled in, and the placeholders that mark
//! the free text the table writes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rules::{Pick, Typed};

/// One action open now, as JSON ready to submit once `needs` is met.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LegalAction {
    pub action: Value,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// The same choice made sealed (see [`crate::rules::Seal`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<SealJson>,
    /// Fields the table may add (see `Legal::may`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub may: Vec<String>,
    /// The values a needed field can take (see `Legal::picks`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picks: Vec<Pick>,
    /// What to ask the table before recording it (see `Legal::confirm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<String>,
    /// What the action does, in the box's words (see `Rules::describe`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub says: Option<String>,
    /// How a device with the seat's link finds its sealed choice's reveal
    /// (see [`crate::rules::Unseal`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseal: Option<UnsealJson>,
    /// The cards a needed field may take typed whole (see `Legal::typed`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub typed: Vec<Typed>,
}

/// A [`crate::rules::Unseal`] with its reveals as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct UnsealJson {
    pub commitment: String,
    pub nonce: String,
    pub options: Vec<UnsealedJson>,
}

/// One choice a sealed commitment may hide: its preimage (`<salt>` to be
/// replaced) and its reveal action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct UnsealedJson {
    pub preimage: String,
    pub reveal: Value,
}

/// A [`crate::rules::Seal`] with its actions as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SealJson {
    pub commit: Value,
    pub preimage: String,
    pub reveal: Value,
}

/// What a need for free text says after the field's path.
pub(crate) const OWN_WORDS: &str = "the table's own words in place of ";

impl LegalAction {
    /// The action with each placeholder replaced by its own words without
    /// the brackets (`<avatar of Bo>` becomes `avatar of Bo`) and the needs
    /// for them met: plain, distinct text for tests and quick tables.
    pub fn with_words(&self) -> LegalAction {
        fn fill(value: &mut Value) {
            match value {
                Value::String(s) if is_placeholder(s) => *s = s[1..s.len() - 1].to_string(),
                Value::Array(items) => items.iter_mut().for_each(fill),
                Value::Object(map) => map.values_mut().for_each(fill),
                _ => {}
            }
        }
        let mut action = self.action.clone();
        fill(&mut action);
        LegalAction {
            action,
            needs: self
                .needs
                .iter()
                .filter(|n| !n.contains(OWN_WORDS))
                .cloned()
                .collect(),
            seal: self.seal.clone(),
            may: self.may.clone(),
            picks: self.picks.clone(),
            confirm: self.confirm.clone(),
            says: self.says.clone(),
            unseal: self.unseal.clone(),
            typed: self.typed.clone(),
        }
    }
}

/// Whether a string is a `legal` placeholder (`<avatar of Bo>`).
fn is_placeholder(s: &str) -> bool {
    s.len() > 2 && s.starts_with('<') && s.ends_with('>')
}

/// Every placeholder `legal` left in an action, with its path
/// (`avatar.name`), in document order: free text the table must write.
pub fn placeholders(action: &Value) -> Vec<(String, String)> {
    // The path is kept as borrowed steps and joined only at a placeholder:
    // `legal` asks this of every action it offers, and most have none.
    enum Step<'a> {
        Key(&'a str),
        Index(usize),
    }
    fn walk<'a>(value: &'a Value, path: &mut Vec<Step<'a>>, out: &mut Vec<(String, String)>) {
        match value {
            Value::String(s) if is_placeholder(s) => {
                let joined = path
                    .iter()
                    .map(|step| match step {
                        Step::Key(k) => k.to_string(),
                        Step::Index(i) => i.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(".");
                out.push((joined, s.clone()))
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    path.push(Step::Index(i));
                    walk(v, path, out);
                    path.pop();
                }
            }
            Value::Object(map) => {
                for (k, v) in map {
                    path.push(Step::Key(k));
                    walk(v, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(action, &mut Vec::new(), &mut out);
    out
}
