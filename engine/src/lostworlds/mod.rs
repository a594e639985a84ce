//! PLACEHOLDER: replaced by the real Lost Worlds kind.
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabletape_events::Seat;

use crate::chance::Chance;
use crate::error::{ContentError, Rejection};
use crate::rules::{KindInfo, Legal, Rules, Setup, Viewer};

pub struct LostWorlds;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State;

impl Rules for LostWorlds {
    const KIND: &'static str = "lostworlds";
    type Options = Value;
    type Pack = Value;
    type State = State;
    type Action = Value;
    type Fact = Value;
    fn info() -> KindInfo {
        KindInfo { kind: "lostworlds", title: "Lost Worlds", summary: "", min_players: 2, max_players: 5, options: vec![], default_pack: "" }
    }
    fn default_pack() -> Value { Value::Null }
    fn validate_pack(_: &Value, _: &str) -> Result<(), ContentError> { Ok(()) }
    fn setup(_: Setup<'_, Value, Value>, _: &mut Chance) -> Result<State, Rejection> { Ok(State) }
    fn legal(_: &State, _: Option<Seat>) -> Vec<Legal<Value>> { vec![] }
    fn decide(_: &State, _: Option<Seat>, a: &Value, _: &mut Chance) -> Result<Vec<Value>, Rejection> { Ok(vec![a.clone()]) }
    fn apply(_: &mut State, _: &Value) {}
    fn narrate(_: &State, _: &Value) -> Vec<String> { vec![] }
    fn chapter(_: &State) -> String { String::new() }
    fn epilogue(_: &State) -> Vec<String> { vec![] }
    fn is_over(_: &State) -> bool { false }
    fn render(_: &State, _: Viewer) -> String { String::new() }
}
