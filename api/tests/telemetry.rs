//! Tests of `telemetry`.

use tabletape_api::telemetry::*;

#[test]
fn the_game_is_the_segment_the_route_calls_id() {
    assert_eq!(
        game_of("/games/{id}/actions", "/games/g-1a2b/actions").as_deref(),
        Some("g-1a2b")
    );
    assert_eq!(game_of("/g/{id}", "/g/duel").as_deref(), Some("duel"));
    let token = "ab".repeat(32);
    let logged = game_of("/games/{id}", &format!("/games/{token}")).unwrap();
    assert!(!logged.contains(&token), "{logged}");
    assert_eq!(game_of("/games", "/games"), None);
    assert_eq!(game_of("(no route)", "/nowhere/at/all"), None);
}
