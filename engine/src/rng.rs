//! The table's random numbers: ChaCha20 with Tabletape's own sampling.
//!
//! Every event draws from its own ChaCha20 stream, keyed by the game's seed and
//! selected by the event's seq. So the RNG has no position to carry through the
//! fold, a fork inherits exactly the future its parent would have had, and a
//! reseed only changes the key. Sampling is done here on raw `u32` output
//! (rejection sampling, Fisher-Yates) so no library change can move a roll.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// A ChaCha20 stream for one event of one game.
#[derive(Debug, Clone)]
pub struct TableRng {
    inner: ChaCha20Rng,
}

impl TableRng {
    /// The stream for the event at `seq` of a game seeded with `seed`.
    pub fn for_event(seed: u64, seq: u64) -> Self {
        Self::keyed(Self::seed_key(seed), seq)
    }

    /// Stream `stream` of ChaCha20 keyed by `key` (see `dice`).
    pub fn keyed(key: [u8; 32], stream: u64) -> Self {
        let mut inner = ChaCha20Rng::from_seed(key);
        inner.set_stream(stream);
        TableRng { inner }
    }

    /// The key a seed alone makes: its 8 bytes, little endian, then zeros.
    pub fn seed_key(seed: u64) -> [u8; 32] {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key
    }

    pub fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    /// A uniform integer in `0..n`, by rejection sampling on `u32`. `n` must be > 0.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0) has no outcome");
        // Reject the top sliver of the u32 range that would bias small values.
        let zone = u32::MAX - (u32::MAX % n + 1) % n;
        loop {
            let x = self.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        if lo == 0 && hi == u32::MAX {
            return self.next_u32();
        }
        lo + self.below(hi - lo + 1)
    }

    /// One die with `sides` faces, 1..=sides.
    pub fn die(&mut self, sides: u32) -> u32 {
        self.range(1, sides)
    }

    /// Fisher-Yates shuffle, drawing from the back.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}
