//! Tests of `dice`.

use tabletape_engine::dice::*;

#[test]
fn the_key_and_commitments_are_pinned() {
    // If these move, every game keyed by its seats would replay
    // differently, and every page's commitments would stop matching.
    // (Worked out independently: Python's hashlib on the same bytes.)
    let key = joint_key(7, &[[1; 32], [2; 32]]);
    assert_eq!(
        hex::encode(key),
        "f955bd049e1f4cbb35c1fbad743fb6d09456f29fc6b870fa110647fd2a6f51f1"
    );
    assert_eq!(
        commitment_of(&[1; 32]),
        "fca34c2f934031d66629a581dfd136306a3025bc5604fcb3cf8cd93307becd04"
    );
    assert_ne!(key, joint_key(7, &[[2; 32], [1; 32]]), "seat order counts");
    assert_ne!(key, joint_key(8, &[[1; 32], [2; 32]]), "the seed counts");
}
