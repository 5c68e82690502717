"""docs/variants.md's tables, typed once for the tests: the options with their values and the
games they apply to, each game's defaults, and the presets.

The tests check both engines and the Python layer against these tables; they are data copied
from the documentation by hand, never produced by the code under test.
"""

from __future__ import annotations

from typing import Any

ALL_GAMES = ("scopa", "escoba", "chkobba")
PRIMIERA_GAMES = ("scopa", "escoba")

# "The options": name -> (some legal values, the first being the default where the default does
# not depend on the game; the games it applies to).
OPTIONS: dict[str, tuple[list[Any], tuple[str, ...]]] = {
    "target": ([11, 1, 21, 51, 10000], ALL_GAMES),
    "direction": (["counterclockwise", "clockwise"], ALL_GAMES),
    "deal": (["standard", "scopone", "scientifico"], ALL_GAMES),
    "redeal": (["off", "three_kings", "three_of_a_rank", "two_aces", "any_ace"], ALL_GAMES),
    "opening_sweeps": (["off", "sum", "partition"], ALL_GAMES),
    "capture": (["match", "fifteen", "match_or_fifteen"], ALL_GAMES),
    "fewest_cards": ([False, True], ALL_GAMES),
    "compulsory_capture": ([True, False], ALL_GAMES),
    "renuncio": ([False, True], ALL_GAMES),
    "ace_takes_all": ([False, True], ALL_GAMES),
    "ace_takes_ace_only": ([True, False], ALL_GAMES),
    "ace_sweep": ([False, True], ALL_GAMES),
    "declarations": ([False, True], ALL_GAMES),
    "declaration_low": ([3, 0, 40], ALL_GAMES),
    "declaration_triple": ([10, 0, 40], ALL_GAMES),
    "declaration_wild": ([True, False], ALL_GAMES),
    "last_play_sweep": (["void", "counts"], ALL_GAMES),
    "primiera_mode": (["table", "most_sevens", "three_sevens"], PRIMIERA_GAMES),
    "primiera_figures": (["flat", "graded", "zero"], PRIMIERA_GAMES),
    "primiera_missing_suit": (["invalid", "zero"], PRIMIERA_GAMES),
    "bermila": (["sevens_then_sixes", "cascade", "primiera"], ("chkobba",)),
    "re_bello": ([False, True], ALL_GAMES),
    "napola": ([False, True], ALL_GAMES),
    "napola_cap": ([0, 3, 10], ALL_GAMES),
    "grande": ([0, 5, 100], ALL_GAMES),
    "all_coins_wins": ([False, True], ALL_GAMES),
    "all_coins_bonus": ([0, 1, 100], ALL_GAMES),
    "all_sevens_bonus": ([0, 1, 100], ALL_GAMES),
    "chkobba_face_values": (["tunisian", "italian"], ("chkobba",)),
    "cut_card": ([True, False], ("chkobba",)),
    "deck": (["standard", "numerals"], PRIMIERA_GAMES),
}

# Options that apply to only some games.
GAME_ONLY: dict[str, tuple[str, ...]] = {
    name: games for name, (_, games) in OPTIONS.items() if games != ALL_GAMES
}

# The default of every option, per game ("The options", column "default").
_GAME_SPECIFIC: dict[str, dict[str, Any]] = {
    "scopa": {"target": 11, "redeal": "three_kings", "opening_sweeps": "off", "capture": "match"},
    "escoba": {"target": 21, "redeal": "off", "opening_sweeps": "sum", "capture": "fifteen"},
    "chkobba": {
        "target": 21,
        "redeal": "three_of_a_rank",
        "opening_sweeps": "off",
        "capture": "match",
        "bermila": "sevens_then_sixes",
        "chkobba_face_values": "tunisian",
        "cut_card": True,
    },
}
DEFAULTS: dict[str, dict[str, Any]] = {
    game: {
        name: _GAME_SPECIFIC[game].get(name, values[0])
        for name, (values, games) in OPTIONS.items()
        if game in games
    }
    for game in ALL_GAMES
}

# "Presets": name -> (game, players, overrides).
PRESETS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "scopa": ("scopa", 2, {}),
    "scopone": ("scopa", 4, {"deal": "scopone"}),
    "scopone_scientifico": ("scopa", 4, {"deal": "scientifico"}),
    "scopa_a_15": ("scopa", 2, {"capture": "fifteen"}),
    "scopa_d_assi": ("scopa", 2, {"ace_takes_all": True}),
    "cirulla": (
        "scopa",
        2,
        {
            "capture": "match_or_fifteen",
            "ace_takes_all": True,
            "ace_sweep": True,
            "redeal": "two_aces",
            "opening_sweeps": "sum",
            "declarations": True,
            "napola": True,
            "grande": 5,
            "all_coins_wins": True,
            "target": 51,
        },
    ),
    "escoba": ("escoba", 2, {}),
    "chkobba": ("chkobba", 2, {}),
}
