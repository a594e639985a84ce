//! Bytes as lowercase hex text, as hashes, salts and commitments are
//! written. The `hex` crate's `encode` builds its string a char at a
//! time; this writes the digits straight into the string's buffer (a
//! tenth of an import's hashing went to the other way).

/// `bytes` as lowercase hex, two digits a byte.
pub fn of(bytes: impl AsRef<[u8]>) -> String {
    let bytes = bytes.as_ref();
    let mut text = vec![0; bytes.len() * 2];
    hex::encode_to_slice(bytes, &mut text).expect("the buffer is twice the bytes");
    String::from_utf8(text).expect("hex digits are ASCII")
}
