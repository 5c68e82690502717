"""Scoring reports: what a hand scored, per side and per category, with the evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["HandReport"]

_SWEEP_NAME = {"scopa": "scope", "escoba": "escobas", "chkobba": "chkobbas"}
_SEVEN_OF_COINS = "7D"


@dataclass(frozen=True)
class HandReport:
    """The score of one hand.

    Attributes:
        game: `scopa`, `escoba` or `chkobba`.
        points: points per side (categories plus sweeps).
        awards: category name -> side index that won it, or None for a tie. The names follow the
            game (`settebello`/`velo`/`7ayya`, `primiera`/`setenta`/`bermila`, ...).
        counts: per side, what the categories count (`cards`, `coins`, and `primiera` or
            `sevens`/`sixes`); a primiera of None is invalid (a suit is missing).
        sweeps: sweeps per side.
        piles: per side, the captured cards (card strings).
        scores: the match score after the hand, when the report comes from a played hand.
    """

    game: str
    points: list[int]
    awards: dict[str, int | None]
    counts: list[dict[str, int | None]]
    sweeps: list[int]
    piles: list[list[str]] = field(default_factory=list)
    scores: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-ready) of every field."""
        return {
            "game": self.game,
            "points": list(self.points),
            "awards": dict(self.awards),
            "counts": [dict(c) for c in self.counts],
            "sweeps": list(self.sweeps),
            "piles": [list(p) for p in self.piles],
            "scores": None if self.scores is None else list(self.scores),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandReport:
        """The report of `to_dict()`'s output."""
        return cls(**d)

    def _evidence(self, category: str) -> str:
        a, b = self.counts
        if category in ("cards", "karta"):
            return f"{a['cards']} v {b['cards']}"
        if category in ("coins", "dinari"):
            return f"{a['coins']} v {b['coins']}"
        if category in ("settebello", "velo", "7ayya"):
            holder = next(
                (i for i, p in enumerate(self.piles) if _SEVEN_OF_COINS in p),
                self.awards[category],
            )
            return "7D held by " + ("nobody" if holder is None else "AB"[holder])
        if category == "bermila":
            return f"sevens {a['sevens']} v {b['sevens']}, sixes {a['sixes']} v {b['sixes']}"

        def prim(c: dict[str, int | None]) -> str:
            return "invalid" if c["primiera"] is None else str(c["primiera"])

        return f"{prim(a)} v {prim(b)}"

    def __str__(self) -> str:
        rows = [("category", "evidence", "won by")]
        for cat, side in self.awards.items():
            rows.append((cat, self._evidence(cat), "tie" if side is None else "AB"[side]))
        sweep = _SWEEP_NAME.get(self.game, "sweeps")
        rows.append((sweep, f"{self.sweeps[0]} v {self.sweeps[1]}", ""))
        rows.append(("points", f"{self.points[0]} v {self.points[1]}", ""))
        if self.scores is not None:
            rows.append(("match score", f"{self.scores[0]} v {self.scores[1]}", ""))
        w = [max(len(r[i]) for r in rows) for i in range(3)]
        lines = [f"{self.game} hand: side A v side B"]
        for r in rows:
            lines.append(f"  {r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]}".rstrip())
        return "\n".join(lines)
