"""capturefast: a fast, exact rules engine for Scopa, Escoba and Chkobba.

    >>> import capturefast as cf
    >>> rules = cf.Rules.scopa(players=2)
    >>> state = cf.State.new(rules, seed=7)
    >>> move = state.legal_moves()[0]
    >>> state = state.play(move)
    >>> result = cf.simulate(rules, hands=10_000, bots=("greedy", "random"), duplicate=True)
    >>> print(result)  # doctest: +ELLIPSIS
    scopa, 2 players, 10,000 deals x 2 (duplicate: 20,000 hands), seed 0: A = greedy, B = random
    ...
    >>> cirulla = cf.variants.rules("cirulla", target=100)   # a named variant, overridden
    >>> print(cf.variants.describe(cirulla))  # doctest: +ELLIPSIS
    Scopa for 2 players.
    ...

Cards are written rank then suit (`7D`); ranks `A 2 3 4 5 6 7 J Q K`, suits `C D H S` with
diamonds the coin suit. Seats are numbered counterclockwise, the order of play but under
`direction="clockwise"`; side = seat % 2.
"""

from __future__ import annotations

from capturefast import variants
from capturefast._core import (
    Bot,
    Card,
    Move,
    Opening,
    Rules,
    State,
    View,
    __version__,
    bot_names,
    random_hands,
)
from capturefast.errors import (
    ArgumentError,
    CaptureFastError,
    DecodeError,
    IllegalMoveError,
    InvalidCardError,
    NotationError,
    PositionError,
    RecordError,
    ReportError,
    StoppedError,
    VariantError,
)
from capturefast.records import GameRecord, HandRecord, read_records, write_records
from capturefast.report import HandReport, MatchReport, play_match_report
from capturefast.sim import Estimate, ProgressBar, SimulationResult, Summary, simulate
from capturefast.solve import (
    Analysis,
    MoveStat,
    ReviewRow,
    Solution,
    Solver,
    StopFlag,
    analyze,
    analyze_many,
    review,
    solve,
    solve_many,
)
from capturefast.tournament import Standing, TournamentResult, tournament

__all__ = [
    "Analysis",
    "ArgumentError",
    "Bot",
    "CaptureFastError",
    "Card",
    "DecodeError",
    "Estimate",
    "GameRecord",
    "HandRecord",
    "HandReport",
    "IllegalMoveError",
    "InvalidCardError",
    "MatchReport",
    "Move",
    "MoveStat",
    "NotationError",
    "Opening",
    "PositionError",
    "ProgressBar",
    "RecordError",
    "ReportError",
    "ReviewRow",
    "Rules",
    "SimulationResult",
    "Solution",
    "Solver",
    "Standing",
    "State",
    "StopFlag",
    "StoppedError",
    "Summary",
    "TournamentResult",
    "VariantError",
    "View",
    "__version__",
    "analyze",
    "analyze_many",
    "bot_names",
    "play_match_report",
    "random_hands",
    "read_records",
    "review",
    "simulate",
    "solve",
    "solve_many",
    "tournament",
    "variants",
    "write_records",
]
