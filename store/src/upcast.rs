//! Upcasters: bring stored events of older schema versions to the current one.
//!
//! Events are never rewritten in the log; instead every stored JSON value is
//! passed through [`upcast`] on read, which applies one step per version
//! (`0 -> 1`, `1 -> 2`, ...) until it reaches [`SCHEMA_VERSION`]. Adding a
//! version is adding its step to [`STEPS`]. A stored event without a
//! `schema_version` field is version 0.
//!
//! An upcast event keeps the `hash` it was stored with, which was computed over
//! its old shape; `verify` reports such events as hash mismatches until they
//! are re-exported, so upcasters are for reading old logs, not for laundering them.

use serde_json::{Map, Value};
use tabletape_events::SCHEMA_VERSION;

use crate::error::StoreError;

/// A stored event as its JSON object.
type RawEvent = Map<String, Value>;

/// One migration step: turns an event of version `from` into version `from + 1`.
pub struct Step {
    pub from: u32,
    /// What changed, for the docs and error messages.
    what: &'static str,
    apply: fn(RawEvent) -> Result<RawEvent, String>,
}

/// Every step, in version order.
pub const STEPS: &[Step] = &[
    Step {
        from: 0,
        what: "the envelope's `time_ms` became `recorded_at_ms` and `schema_version` was added",
        apply: v0_to_v1,
    },
    Step {
        from: 1,
        what: "events gained a secret `salt` and a hash over salted commitments",
        apply: v1_to_v2,
    },
];

/// Version 1 events have no salt: their shape is already version 2's (the
/// salt is optional), and they keep their clear hash, which `seal` checks
/// for any event without a salt.
fn v1_to_v2(event: RawEvent) -> Result<RawEvent, String> {
    Ok(event)
}

/// Version 0 called the accept time `time_ms` and had no schema version.
fn v0_to_v1(mut event: RawEvent) -> Result<RawEvent, String> {
    let time = event
        .remove("time_ms")
        .ok_or_else(|| "a version 0 event has no `time_ms`".to_string())?;
    if !time.is_u64() {
        return Err(format!("`time_ms` is not a millisecond count: {time}"));
    }
    event.insert("recorded_at_ms".into(), time);
    Ok(event)
}

/// Brings a stored event of schema version `from_version` to [`SCHEMA_VERSION`].
pub fn upcast(value: Value, from_version: u32) -> Result<Value, StoreError> {
    if from_version > SCHEMA_VERSION {
        return Err(StoreError::Upcast {
            from: from_version,
            why: format!(
                "this build reads schema versions up to {SCHEMA_VERSION}; upgrade Tabletape"
            ),
        });
    }
    let Value::Object(mut event) = value else {
        return Err(StoreError::Upcast {
            from: from_version,
            why: "a stored event must be a JSON object".into(),
        });
    };
    for version in from_version..SCHEMA_VERSION {
        let step = STEPS
            .iter()
            .find(|s| s.from == version)
            .ok_or_else(|| StoreError::Upcast {
                from: version,
                why: "no upcaster is registered for this version".into(),
            })?;
        event = (step.apply)(event).map_err(|why| StoreError::Upcast {
            from: version,
            why: format!("{why} (step: {})", step.what),
        })?;
        event.insert("schema_version".into(), Value::from(version + 1));
    }
    Ok(Value::Object(event))
}
