"""SplitMix64 random numbers and the deck shuffle, exactly as in ``docs/conventions.md``."""

from __future__ import annotations

from .cards import DECK

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB


class SplitMix64:
    """The SplitMix64 generator (64-bit state, wrapping arithmetic).

    Attributes:
        state: The current 64-bit state.
    """

    def __init__(self, seed: int) -> None:
        """Create a generator.

        Args:
            seed: The seed; it is reduced modulo 2**64.
        """
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """Advance the state and return the next 64-bit output."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MIX_1) & MASK64
        z = ((z ^ (z >> 27)) * MIX_2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a number in ``0..n-1`` as ``(next_u64() * n) >> 64``.

        Args:
            n: The bound, at least 1.

        Returns:
            The high 64 bits of the 128-bit product.

        Raises:
            ValueError: If ``n`` is smaller than 1.
        """
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        return (self.next_u64() * n) >> 64

    def copy(self) -> SplitMix64:
        """Return an independent generator with the same state."""
        return SplitMix64(self.state)


def shuffled_deck(rng: SplitMix64) -> list[str]:
    """Shuffle a fresh deck (conventions, "Deal a hand", step 1).

    ``deck = [0, 1, ..., 39]``; for ``i`` from 39 down to 1, ``j = below(i + 1)`` and swap.

    Args:
        rng: The generator; it is advanced by 39 draws.

    Returns:
        The 40 cards, top of the deck first.
    """
    deck = list(DECK)
    for i in range(39, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
