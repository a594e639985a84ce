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

/// Hashes, salts and commitments are written as `hex` writes them.
#[test]
fn hex_text_writes_bytes_as_lowercase_hex() {
    use tabletape_engine::hex_text;
    assert_eq!(hex_text::of([]), "");
    assert_eq!(hex_text::of([0x00, 0x0f, 0xa0, 0xff]), "000fa0ff");
    let bytes: Vec<u8> = (0..=255).collect();
    for len in [1, 31, 32, 33, 256] {
        assert_eq!(hex_text::of(&bytes[..len]), hex::encode(&bytes[..len]));
    }
}
