//! Tests of `upcast`.

use serde_json::json;
use tabletape_events::SCHEMA_VERSION;
use tabletape_store::error::StoreError;
use tabletape_store::upcast::*;

#[test]
fn every_old_version_has_a_step() {
    for v in 0..SCHEMA_VERSION {
        assert!(
            STEPS.iter().any(|s| s.from == v),
            "no upcaster from version {v}"
        );
    }
}

#[test]
fn current_version_passes_through_unchanged() {
    let v = json!({"seq": 3, "schema_version": SCHEMA_VERSION, "recorded_at_ms": 5});
    assert_eq!(upcast(v.clone(), SCHEMA_VERSION).unwrap(), v);
}

#[test]
fn future_version_is_refused() {
    let err = upcast(json!({}), SCHEMA_VERSION + 1).unwrap_err();
    assert!(matches!(err, StoreError::Upcast { from, .. } if from == SCHEMA_VERSION + 1));
}

#[test]
fn v0_without_time_is_refused_naming_the_field() {
    let err = upcast(json!({"seq": 1}), 0).unwrap_err();
    assert!(err.to_string().contains("time_ms"), "{err}");
}
