//! Reading a [`Body`] without serde's buffering of internally tagged enums.
//!
//! A derived reader of a `type`-tagged enum first copies the whole object
//! into serde's private buffer, then reads the variant from that copy: for
//! an event, every fact twice over. No field name is shared by two bodies
//! with different types (`seed` is a number in both that have it), so each
//! field can be read straight into its own type whatever the order of the
//! keys, and the body is put together once `type` is known. Errors read as
//! the derived ones did: unknown, missing and duplicate fields by name.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use crate::{ActionAccepted, Body, BranchName, DiceMode, Draw, FactText, GameCreated, Note};

const TYPES: &[&str] = &[
    "game_created",
    "action_accepted",
    "reseeded",
    "noted",
    "branch_named",
    "contribution_committed",
    "contribution_revealed",
];
const CREATED_FIELDS: &[&str] = &[
    "type",
    "kind",
    "players",
    "seed",
    "dice",
    "options",
    "pack",
    "public",
    "title",
    "rules_version",
    "chance_version",
];
const ACCEPTED_FIELDS: &[&str] = &["type", "action", "facts", "chance"];
const RESEEDED_FIELDS: &[&str] = &["type", "seed"];
const NOTED_FIELDS: &[&str] = &["type", "at", "title", "text", "private"];
const NAMED_FIELDS: &[&str] = &["type", "title", "description"];
const COMMITTED_FIELDS: &[&str] = &["type", "commitment"];
const REVEALED_FIELDS: &[&str] = &["type", "contribution"];
const ALL_FIELDS: &[&str] = &[
    "type",
    "kind",
    "players",
    "seed",
    "dice",
    "options",
    "pack",
    "public",
    "title",
    "rules_version",
    "action",
    "facts",
    "chance",
    "at",
    "text",
    "private",
    "description",
    "chance_version",
    "commitment",
    "contribution",
];

impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Body, D::Error> {
        deserializer.deserialize_map(BodyVisitor)
    }
}

/// Every field any body has, each read as its own type when present.
#[derive(Default)]
struct Fields {
    kind: Option<String>,
    players: Option<Vec<String>>,
    seed: Option<u64>,
    dice: Option<DiceMode>,
    options: Option<BTreeMap<String, Value>>,
    pack: Option<Value>,
    public: Option<bool>,
    title: Option<Option<String>>,
    rules_version: Option<Option<u32>>,
    action: Option<Value>,
    facts: Option<Vec<FactText>>,
    chance: Option<Vec<Draw>>,
    at: Option<u64>,
    text: Option<String>,
    private: Option<bool>,
    description: Option<Option<String>>,
    chance_version: Option<Option<u32>>,
    commitment: Option<String>,
    contribution: Option<String>,
}

impl Fields {
    /// The name of a field present that a body of this type does not have.
    fn foreign(&self, allowed: &[&str]) -> Option<&'static str> {
        let present = [
            ("kind", self.kind.is_some()),
            ("players", self.players.is_some()),
            ("seed", self.seed.is_some()),
            ("dice", self.dice.is_some()),
            ("options", self.options.is_some()),
            ("pack", self.pack.is_some()),
            ("public", self.public.is_some()),
            ("title", self.title.is_some()),
            ("rules_version", self.rules_version.is_some()),
            ("action", self.action.is_some()),
            ("facts", self.facts.is_some()),
            ("chance", self.chance.is_some()),
            ("at", self.at.is_some()),
            ("text", self.text.is_some()),
            ("private", self.private.is_some()),
            ("description", self.description.is_some()),
            ("chance_version", self.chance_version.is_some()),
            ("commitment", self.commitment.is_some()),
            ("contribution", self.contribution.is_some()),
        ];
        present
            .into_iter()
            .find(|(name, here)| *here && !allowed.contains(name))
            .map(|(name, _)| name)
    }
}

fn once<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    slot: &mut Option<T>,
    name: &'static str,
    map: &mut A,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

fn needed<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| de::Error::missing_field(name))
}

struct BodyVisitor;

impl<'de> Visitor<'de> for BodyVisitor {
    type Value = Body;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an event body: an object with its `type`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Body, A::Error> {
        let mut kind_of_body: Option<String> = None;
        let mut f = Fields::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "type" => once(&mut kind_of_body, "type", &mut map)?,
                "kind" => once(&mut f.kind, "kind", &mut map)?,
                "players" => once(&mut f.players, "players", &mut map)?,
                "seed" => once(&mut f.seed, "seed", &mut map)?,
                "dice" => once(&mut f.dice, "dice", &mut map)?,
                "options" => once(&mut f.options, "options", &mut map)?,
                "pack" => once(&mut f.pack, "pack", &mut map)?,
                "public" => once(&mut f.public, "public", &mut map)?,
                "title" => once(&mut f.title, "title", &mut map)?,
                "rules_version" => once(&mut f.rules_version, "rules_version", &mut map)?,
                "action" => once(&mut f.action, "action", &mut map)?,
                "facts" => once(&mut f.facts, "facts", &mut map)?,
                "chance" => once(&mut f.chance, "chance", &mut map)?,
                "at" => once(&mut f.at, "at", &mut map)?,
                "text" => once(&mut f.text, "text", &mut map)?,
                "private" => once(&mut f.private, "private", &mut map)?,
                "description" => once(&mut f.description, "description", &mut map)?,
                "chance_version" => once(&mut f.chance_version, "chance_version", &mut map)?,
                "commitment" => once(&mut f.commitment, "commitment", &mut map)?,
                "contribution" => once(&mut f.contribution, "contribution", &mut map)?,
                other => return Err(de::Error::unknown_field(other, ALL_FIELDS)),
            }
        }
        let kind_of_body = needed(kind_of_body, "type")?;
        let allowed = match kind_of_body.as_str() {
            "game_created" => CREATED_FIELDS,
            "action_accepted" => ACCEPTED_FIELDS,
            "reseeded" => RESEEDED_FIELDS,
            "noted" => NOTED_FIELDS,
            "branch_named" => NAMED_FIELDS,
            "contribution_committed" => COMMITTED_FIELDS,
            "contribution_revealed" => REVEALED_FIELDS,
            other => return Err(de::Error::unknown_variant(other, TYPES)),
        };
        if let Some(name) = f.foreign(allowed) {
            return Err(de::Error::unknown_field(name, allowed));
        }
        Ok(match kind_of_body.as_str() {
            "game_created" => Body::GameCreated(GameCreated {
                kind: needed(f.kind, "kind")?,
                players: needed(f.players, "players")?,
                seed: needed(f.seed, "seed")?,
                dice: needed(f.dice, "dice")?,
                options: f.options.unwrap_or_default(),
                pack: needed(f.pack, "pack")?,
                public: f.public.unwrap_or_default(),
                title: f.title.flatten(),
                rules_version: f.rules_version.flatten(),
                chance_version: f.chance_version.flatten(),
            }),
            "action_accepted" => Body::ActionAccepted(ActionAccepted {
                action: needed(f.action, "action")?,
                facts: needed(f.facts, "facts")?,
                chance: f.chance.unwrap_or_default(),
                fold_form: Default::default(),
            }),
            "noted" => Body::Noted(Note {
                at: needed(f.at, "at")?,
                title: f.title.flatten(),
                text: f.text.unwrap_or_default(),
                private: f.private.unwrap_or_default(),
            }),
            "branch_named" => Body::BranchNamed(BranchName {
                title: needed(f.title.flatten(), "title")?,
                description: f.description.flatten(),
            }),
            "contribution_committed" => Body::ContributionCommitted {
                commitment: needed(f.commitment, "commitment")?,
            },
            "contribution_revealed" => Body::ContributionRevealed {
                contribution: needed(f.contribution, "contribution")?,
            },
            _ => Body::Reseeded {
                seed: needed(f.seed, "seed")?,
            },
        })
    }
}
