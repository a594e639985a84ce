//! The wire shapes of the events crate's types that the store's answers
//! carry, for the API's OpenAPI document (`events` stays serde-only). Each
//! mirrors its type's serde form; the tests hold them to it.

use serde::Serialize;

/// Who made an event happen: `"owner"`, or `{"seat": N}` for a player.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Actor)]
pub enum ActorSchema {
    /// The game's owner.
    Owner,
    /// A player, by seat (from 0).
    Seat(u32),
}

/// How chance is resolved: `digital` (Tabletape rolls and draws) or
/// `physical` (the table does, and each action carries the outcomes).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = DiceMode)]
pub enum DiceModeSchema {
    Digital,
    Physical,
}
