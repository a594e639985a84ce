//! Tests of `operator`.

use tabletape_api::operator::*;

#[test]
fn a_drawn_token_is_fresh_and_only_it_is_held() {
    let (operator, token) = Operator::draw().unwrap();
    let (_, other) = Operator::draw().unwrap();
    assert_eq!(token.len(), 64);
    assert_ne!(token, other);
    assert!(operator.holds(&token));
    assert!(!operator.holds(&other));
    assert!(!operator.holds(""));
    assert!(!format!("{operator:?}").contains(&token));
}
