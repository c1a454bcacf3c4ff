//! The random source: ChaCha8, seeded per input, and the few draws the
//! generators make.
//!
//! Every input is drawn from its own generator, seeded with the run's seed
//! and the input's number, so any input of any run can be made again alone.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// The random source of one input.
#[derive(Debug)]
pub struct Dice(ChaCha8Rng);

impl Dice {
    /// The source of input `index` (drawn for the `attempt`th time) of a run with `seed`.
    pub fn new(seed: u64, index: u64, attempt: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&index.to_le_bytes());
        key[16..24].copy_from_slice(&attempt.to_le_bytes());
        Self(ChaCha8Rng::from_seed(key))
    }

    /// The source of the part `tag` (not 0) of input `index` of a run with
    /// `seed`: what a transport wraps around the message [`Self::new`]
    /// draws, apart from it, so the message stays the one it would be.
    pub fn tagged(seed: u64, index: u64, tag: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&index.to_le_bytes());
        key[24..32].copy_from_slice(&tag.to_le_bytes());
        Self(ChaCha8Rng::from_seed(key))
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        self.0.random_range(low..=high)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.0.random_bool(p)
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        self.0.random()
    }

    /// A random 64-bit number.
    pub fn word(&mut self) -> u64 {
        self.0.random()
    }

    /// One of `items`.
    ///
    /// # Panics
    ///
    /// When `items` is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index drawn by `weights`: `i` with probability `weights[i] / sum`.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut roll = self.0.random_range(0..total.max(1));
        for (i, weight) in weights.iter().enumerate() {
            if roll < *weight {
                return i;
            }
            roll -= weight;
        }
        weights.len().saturating_sub(1)
    }

    /// A size, mostly small, now and then large, rarely huge (up to `huge`).
    pub fn size(&mut self, huge: usize) -> usize {
        match self.weighted(&[70, 22, 7, 1]) {
            0 => self.between(0, 16),
            1 => self.between(17, 512),
            2 => self.between(513, (huge / 64).max(513)),
            _ => self.between((huge / 64).max(513), huge.max(513)),
        }
    }
}
