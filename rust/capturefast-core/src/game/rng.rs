//! The engine's random numbers: `SplitMix64` and a Fisher–Yates shuffle of our own.
//!
//! The algorithms are fixed in `docs/conventions.md` so that a seed means the same deal forever
//! (no generator whose output may change between crate versions) and the Python reference can
//! reproduce every deal.

use crate::game::card::{Card, NUM_CARDS};

/// `SplitMix64` (Steele, Lea, Flood 2014): one `u64` of state, cheap to copy with a [`State`].
///
/// [`State`]: crate::State
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The raw state (for serialization).
    pub fn state(self) -> u64 {
        self.0
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (Lemire's multiply-high; the bias is below 2^-58 for n <= 40).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A shuffled deck: `[0..40)` permuted by Fisher–Yates from the top index down.
    pub fn shuffled_deck(&mut self) -> [Card; NUM_CARDS] {
        let mut deck: [Card; NUM_CARDS] =
            std::array::from_fn(|i| Card::new(i as u8).expect("i < 40"));
        self.shuffle(&mut deck);
        deck
    }

    /// Shuffles `cards` in place (Fisher-Yates, from the last card down), as the deal does.
    pub fn shuffle(&mut self, cards: &mut [Card]) {
        for i in (1..cards.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            cards.swap(i, j);
        }
    }

    /// A seed for item `index` of a batch seeded with `seed`, independent of thread count.
    pub fn derive(seed: u64, index: u64) -> u64 {
        let mut r = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_published_values() {
        // Reference outputs of SplitMix64 seeded with 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn shuffle_is_a_permutation_and_seeded() {
        let a = Rng::new(7).shuffled_deck();
        let b = Rng::new(7).shuffled_deck();
        assert_eq!(a, b);
        let mut ids: Vec<u8> = a.iter().map(|c| c.id()).collect();
        ids.sort_unstable();
        assert_eq!(ids, (0..40).collect::<Vec<u8>>());
        assert_ne!(a, Rng::new(8).shuffled_deck());
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(1);
        for n in 1..50 {
            for _ in 0..100 {
                assert!(r.below(n) < n);
            }
        }
    }
}
