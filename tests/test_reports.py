"""Hand and match reports: evidence, round trips, rows, rich, and bad input.

Expected values are worked out by hand from the spec (S11, E11, K14) and docs/variants.md.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable
from typing import Any

import pytest
from capturefast import (
    CaptureFastError,
    HandReport,
    InvalidCardError,
    MatchReport,
    ReportError,
    Rules,
    State,
    VariantError,
    play_match_report,
    variants,
)
from reference import OPTIONS as REF_OPTIONS
from reference import RefRules
from reference.rules import CATEGORIES as REF_CATEGORIES

RANKS = "A234567JQK"
SUITS = "CDHS"
ALL = [r + s for r in RANKS for s in SUITS]


def rest_of(used: Iterable[str]) -> list[str]:
    u = set(used)
    return [c for c in ALL if c not in u]


def piles(a: list[str]) -> list[list[str]]:
    return [list(a), rest_of(a)]


def evidence(rep: HandReport) -> dict[str, str]:
    return {r["category"]: r["evidence"] for r in rep.rows()}


# S11: A = 7H 7D 6C 5S (75); B: clubs 7C 21, diamonds 6D 18, hearts 6H 18, spades 7S 21 = 78.
SCOPA_A = ["7H", "7D", "6C", "5S"]
# K14 seed example: 22 cards, 6 coins, 7D, sevens 2-2, sixes 3-1.
CHKOBBA_A = [
    "AD", "2D", "3D", "4D", "5D", "7D", "7C", "6C", "6H", "6S", "AC",
    "2C", "3C", "4C", "5C", "QC", "JC", "KC", "AH", "2H", "3H", "4H",
]  # fmt: skip
# E11: A holds the four sevens (84); B: 2C 12, 6D 18, 3H 13, 3S 13 = 56.
ESCOBA_A = ["AD", "2D", "3D", "4D", "5D", "7D", "7C", "7H", "7S", "6C", "6H", "6S"]
ESCOBA_A += ["AC", "AH", "AS", "5C", "5H", "5S", "4C", "4H", "4S", "3C"]
MISSING_SPADES = ["7C", "7D", "7H", "6C", "6D", "6H", "AC", "AD", "AH", "5C", "5D", "5H"]
MISSING_SPADES += ["4C", "4D", "4H"]


# --------------------------------------------------------------------------- evidence


def test_scopa_evidence() -> None:
    rep = Rules.scopa().score(piles(SCOPA_A), [2, 0])
    assert evidence(rep) == {
        "cards": "4 v 36",
        "coins": "1 v 9",
        "settebello": "7D held by A",
        "primiera": "75 (6C 7D 7H 5S) v 78 (7C 6D 6H 7S)",
        "scope": "2 v 0",
    }
    text = str(rep)
    assert "7D held by A" in text and "75 (6C 7D 7H 5S) v 78" in text
    assert "scope" in text and "points" in text


def test_escoba_evidence() -> None:
    rep = Rules.escoba().score(piles(ESCOBA_A), [2, 0])
    assert evidence(rep) == {
        "cards": "22 v 18",
        "coins": "6 v 4",
        "velo": "7D held by A",
        "setenta": "84 (7C 7D 7H 7S) v 56 (2C 6D 3H 3S)",
        "escobas": "2 v 0",
    }


def test_chkobba_evidence() -> None:
    rep = Rules.chkobba().score(piles(CHKOBBA_A), [1, 0])
    assert evidence(rep) == {
        "karta": "22 v 18",
        "dinari": "6 v 4",
        "7ayya": "7D held by A",
        "bermila": "sevens 2 v 2, sixes 3 v 1",
        "chkobbas": "1 v 0",
    }


def test_evidence_follows_the_rule_that_decided() -> None:
    # Sevens 2-2, sixes 2-2, aces 3-1 (A lacks diamonds and spades: no primiera; B has one).
    a = ["7C", "7H", "6C", "6H", "AC", "AH", "AS", "2C"]
    b = rest_of(a)
    cases = [
        (Rules.chkobba(), None, "sevens 2 v 2, sixes 2 v 2"),  # K14: tied, nobody
        (Rules.chkobba(bermila="cascade"), 0, "sevens 2 v 2, sixes 2 v 2, aces 3 v 1"),
        (Rules.scopa(primiera_mode="most_sevens"), 0, "sevens 2 v 2, sixes 2 v 2, aces 3 v 1"),
    ]
    for rules, award, text in cases:
        rep = rules.score([a, b])
        prime = rules.categories[3]
        assert (rep.awards[prime], rep.evidence(prime)) == (award, text), rules
    # The bermila by primiera shows the primieras (A has no diamond or spade: invalid).
    rep = Rules.chkobba(bermila="primiera").score([a, b])
    assert rep.awards["bermila"] == 1
    assert rep.evidence("bermila").startswith("invalid (")
    # Escoba's sevens stop after the fives (V-E2): 7 6 A 5 tied, fours 3-1 decide nothing.
    g = ["7C", "7D", "6C", "6D", "AC", "AD", "5C", "5D", "4C", "4D", "4H"]
    rep = Rules.escoba(primiera_mode="most_sevens").score([g, rest_of(g)])
    assert rep.awards["setenta"] is None
    assert rep.evidence("setenta") == "sevens 2 v 2, sixes 2 v 2, aces 2 v 2, fives 2 v 2"
    # Three sevens win outright, and the evidence says so.
    rep = Rules.scopa(primiera_mode="three_sevens").score(
        [["7C", "7D", "7H"], rest_of(["7C", "7D", "7H"])]
    )
    assert (rep.awards["primiera"], rep.evidence("primiera")) == (0, "sevens 3 v 1")


def test_evidence_names() -> None:
    rep = Rules.chkobba().score(piles(CHKOBBA_A), [3, 1])
    # The spec's name for one sweep (K-A9 `chkobba`), the report's plural and `sweeps` agree.
    assert rep.evidence("chkobba") == rep.evidence("chkobbas") == rep.evidence("sweeps") == "3 v 1"
    for name in ("no_such", "primiera", "napola"):  # napola: not scored by these rules
        with pytest.raises(ReportError, match=name):
            rep.evidence(name)


def test_missing_suit_evidence() -> None:
    # A lacks spades; B: 3C 3D 3H 7S = 13 + 13 + 13 + 21 = 60.
    rep = Rules.scopa().score(piles(MISSING_SPADES))
    # The invalid side still shows its best card of each suit it holds.
    assert evidence(rep)["primiera"] == "invalid (7C 7D 7H, no S) v 60 (3C 3D 3H 7S)"
    # V-S4 zero: A = 7C 7D 7H = 63 and spades count 0.
    rep = Rules.scopa(primiera_missing_suit="zero").score(piles(MISSING_SPADES))
    assert evidence(rep)["primiera"] == "63 (7C 7D 7H, no S) v 60 (3C 3D 3H 7S)"
    # CHKOBBA_A holds every club, so B has no primiera; A = 7C 7D 6H 6S = 21+21+18+18 = 78.
    rep = Rules.scopa().score(piles(CHKOBBA_A))
    # B's best: diamonds 6D (A holds A-5 and 7), hearts 7H, spades 7S.
    assert evidence(rep)["primiera"] == "78 (7C 7D 6H 6S) v invalid (6D 7H 7S, no C)"


def test_primiera_cards_from_the_core_are_used() -> None:
    d = Rules.scopa().score(piles(SCOPA_A)).to_dict()
    d["counts"][0]["primiera_cards"] = ["6C", "7D", "7H", "5S"]
    d["counts"][1]["primiera_cards"] = ["7C", "6D", "6H", "7S"]
    rep = HandReport.from_dict(d)
    assert evidence(rep)["primiera"] == "75 (6C 7D 7H 5S) v 78 (7C 6D 6H 7S)"
    # Without piles the cards still show.
    d["piles"] = []
    assert evidence(HandReport.from_dict(d))["primiera"] == "75 (6C 7D 7H 5S) v 78 (7C 6D 6H 7S)"


# A: A-2-3-4 and J-Q-K of coins (napola 4, grande, re bello), 7H 7D 6C 5S (75). 11 cards, 8 coins.
# B: 29 cards, 2 coins (5D 6D), primiera 7C 6D 6H 7S = 78. Awards: cards B, coins A,
# settebello A, primiera B.
BONUS_A = ["AD", "2D", "3D", "4D", "JD", "QD", "KD", "7H", "7D", "6C", "5S"]


def bonus_report(bonuses: dict[str, list[int]]) -> HandReport:
    base = Rules.scopa().score(piles(BONUS_A)).to_dict()
    assert base["awards"] == {"cards": 1, "coins": 0, "settebello": 0, "primiera": 1}
    base["bonuses"] = bonuses
    base["points"] = [2 + sum(p[i] for p in bonuses.values()) for i in (0, 1)]
    return HandReport.from_dict(base)


def test_bonus_evidence() -> None:
    rep = bonus_report(
        {
            "re_bello": [1, 0],
            "napola": [4, 0],
            "grande": [5, 0],
            "declarations": [3, 0],
            "all_coins": [0, 0],
            "all_sevens": [0, 0],
        }
    )
    ev = evidence(rep)
    assert ev["re_bello"] == "KD held by A"
    assert ev["napola"] == "A-2-3-4 of coins held by A"
    assert ev["grande"] == "J-Q-K of coins held by A"
    assert ev["declarations"] == "declared 3 v 0"
    assert ev["all_coins"] == "all ten coins held by nobody"
    assert ev["all_sevens"] == "all four sevens held by nobody"
    assert rep.points == [2 + 1 + 4 + 5 + 3, 2]
    rows = rep.rows()
    assert sum(r["points_a"] for r in rows) == rep.points[0]
    assert sum(r["points_b"] for r in rows) == rep.points[1]
    assert "A-2-3-4 of coins" in str(rep)


def test_all_coins_and_all_sevens_evidence() -> None:
    a = [r + "D" for r in RANKS] + ["7C", "7H", "7S"]
    base = Rules.scopa().score(piles(a)).to_dict()
    base["bonuses"] = {"all_coins": [2, 0], "all_sevens": [3, 0]}
    base["points"][0] += 5
    ev = evidence(HandReport.from_dict(base))
    assert ev["all_coins"] == "all ten coins held by A"
    assert ev["all_sevens"] == "all four sevens held by A"


def test_core_bonuses_match_the_hand_computation() -> None:
    # Cirulla with re bello: napola A-2-3-4 = 4, grande 5, re bello 1, all for A.
    r = variants.rules("cirulla", re_bello=True)
    rep = r.score(piles(BONUS_A))
    assert set(rep.bonuses) == {"re_bello", "napola", "grande", "declarations"}
    assert rep.bonuses["napola"] == [4, 0]
    assert rep.bonuses["grande"] == [5, 0]
    assert rep.bonuses["re_bello"] == [1, 0]
    assert rep.points[0] == 2 + 4 + 5 + 1 + rep.bonuses.get("declarations", [0, 0])[0]
    assert evidence(rep)["napola"] == "A-2-3-4 of coins held by A"


# --------------------------------------------------------------------------- data


def played_report(game: str = "scopa", seed: int = 3) -> HandReport:
    m = play_match_report(Rules(game), seed)
    return m.hands[0]


@pytest.mark.parametrize("game", ["scopa", "escoba", "chkobba"])
def test_round_trips(game: str) -> None:
    reps = [Rules(game).score(piles(CHKOBBA_A), [1, 0]), played_report(game)]
    for rep in reps:
        d = rep.to_dict()
        assert json.loads(json.dumps(d)) == d
        assert HandReport.from_dict(d) == rep
        assert HandReport.from_dict(d).to_dict() == d
        assert HandReport.from_json(rep.to_json()) == rep
        assert HandReport.from_json(rep.to_json(indent=2)).to_dict() == d
    assert reps[1].scores is not None
    b = bonus_report({"napola": [4, 0]})
    assert HandReport.from_json(b.to_json()) == b


def test_cards_in_piles_are_read_as_the_engine_spells_them() -> None:
    d = Rules.chkobba().score(piles(CHKOBBA_A), [1, 0]).to_dict()
    d["piles"][1] = [c.lower() for c in d["piles"][1]]
    rep = HandReport.from_dict(d)
    assert rep.piles[1] == rest_of(CHKOBBA_A)
    assert rep == Rules.chkobba().score(piles(CHKOBBA_A), [1, 0])


def test_a_hand_left_to_nobody_round_trips() -> None:
    # V-E6: every card trailed, nobody captured: the 40 cards are the report's leftovers.
    rules = Rules.escoba(compulsory_capture=False)
    state = State.new(rules, seed=5)
    while not state.hand_over:
        state = state.play(next(m for m in state.legal_moves() if m.is_trail))
    rep = state.hand_report()
    assert rep.piles == [[], []] and len(rep.leftovers) == 40
    assert rep.points == [0, 0] and set(rep.awards.values()) == {None}
    assert HandReport.from_dict(rep.to_dict()) == rep
    assert "leftovers" in str(rep)
    d = rep.to_dict()
    d["leftovers"] = d["leftovers"][1:]
    bad(d, "missing")


def test_old_dicts_without_bonuses_still_load() -> None:
    d = Rules.scopa().score(piles(SCOPA_A)).to_dict()
    del d["bonuses"], d["piles"], d["scores"]
    rep = HandReport.from_dict(d)
    assert rep.bonuses == {} and rep.piles == [] and rep.scores is None


def test_rows_and_pandas() -> None:
    rep = Rules.scopa().score(piles(SCOPA_A), [2, 0])
    assert rep.rows() == [
        {"category": "cards", "evidence": "4 v 36", "points_a": 0, "points_b": 1, "won_by": "B"},
        {"category": "coins", "evidence": "1 v 9", "points_a": 0, "points_b": 1, "won_by": "B"},
        {
            "category": "settebello",
            "evidence": "7D held by A",
            "points_a": 1,
            "points_b": 0,
            "won_by": "A",
        },
        {
            "category": "primiera",
            "evidence": "75 (6C 7D 7H 5S) v 78 (7C 6D 6H 7S)",
            "points_a": 0,
            "points_b": 1,
            "won_by": "B",
        },
        {"category": "scope", "evidence": "2 v 0", "points_a": 2, "points_b": 0, "won_by": "A"},
    ]
    tie = Rules.scopa().score(piles(MISSING_SPADES)).rows()
    assert tie[1] == {
        "category": "coins",
        "evidence": "5 v 5",
        "points_a": 0,
        "points_b": 0,
        "won_by": None,
    }
    pd = pytest.importorskip("pandas")
    df = rep.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["category", "evidence", "points_a", "points_b", "won_by"]
    assert df["points_a"].sum() == 3 and df["points_b"].sum() == 3


def render(obj: Any) -> str:
    rich_console = pytest.importorskip("rich.console")
    console = rich_console.Console(record=True, width=140, color_system=None)
    console.print(obj)
    return str(console.export_text())


@pytest.mark.parametrize("game", ["scopa", "escoba", "chkobba"])
def test_rich_rendering(game: str) -> None:
    rep = played_report(game)
    text = render(rep)
    for cat in Rules(game).categories:
        assert cat in text
    assert {"scopa": "scope", "escoba": "escobas", "chkobba": "chkobbas"}[game] in text
    assert "7D held by" in text
    assert "match score" in text


# --------------------------------------------------------------------------- bad input


def bad(d: dict[str, Any], word: str, cls: type[Exception] = ReportError) -> None:
    with pytest.raises(cls) as e:
        HandReport.from_dict(d)
    assert isinstance(e.value, ValueError) and isinstance(e.value, CaptureFastError)
    assert word in str(e.value), str(e.value)


def test_bad_report_dicts() -> None:
    good = Rules.scopa().score(piles(SCOPA_A), [2, 0]).to_dict()

    def edit(**kw: Any) -> dict[str, Any]:
        d = copy.deepcopy(good)
        d.update(kw)
        return d

    bad(edit(colour="red"), "colour")
    d = edit()
    del d["awards"]
    bad(d, "awards")
    bad(edit(game="poker"), "poker")
    bad(edit(awards={**good["awards"], "velo": 0}), "velo")
    awards = dict(good["awards"])
    del awards["primiera"]
    bad(edit(awards=awards), "primiera")
    bad(edit(awards={**good["awards"], "cards": 2}), "2")
    bad(edit(points=[3, 3, 0]), "[3, 3, 0]")
    bad(edit(sweeps=[2]), "[2]")
    bad(edit(scores=[1]), "[1]")
    bad(edit(counts=[good["counts"][0]]), "counts")
    bad(edit(counts=[{**good["counts"][0], "colour": 1}, good["counts"][1]]), "colour")
    bad(edit(bonuses={"jackpot": [1, 0]}), "jackpot")
    bad(edit(bonuses={"napola": [1]}), "[1]")
    bad(edit(points=[4, 3]), "4")  # 2 sweeps + 1 category = 3, not 4
    # Cards: unknown, twice, missing, and piles that disagree with the counts.
    bad(edit(piles=[["ZZ", *SCOPA_A[1:]], rest_of(SCOPA_A)]), "ZZ", InvalidCardError)
    bad(edit(piles=[[*SCOPA_A, "7D"], rest_of(SCOPA_A)]), "7D", InvalidCardError)
    bad(edit(piles=[SCOPA_A, rest_of(SCOPA_A)[1:]]), "AC")
    moved = [[*SCOPA_A, "AC"], rest_of([*SCOPA_A, "AC"])]
    bad(edit(piles=moved), "4")
    # Awards that contradict the counts and piles, and counts past the deck.
    bad(edit(awards={**good["awards"], "settebello": 1}), "settebello")
    bad(edit(awards={**good["awards"], "cards": None}), "cards")
    bad(edit(awards={**good["awards"], "primiera": 0}), "primiera")  # table: B's 78 beats 75
    sevens = copy.deepcopy(good["counts"])
    sevens[0]["sevens"] = 9
    bad(edit(counts=sevens, piles=[]), "sevens")
    ranks = copy.deepcopy(good["counts"])
    ranks[0]["ranks"][0] += 1  # an ace more than the pile holds
    bad(edit(counts=ranks), "rank")
    bad(edit(prime_mode="cascade"), "cascade")  # Chkobba's word, not Scopa's
    bad(edit(leftovers="7D"), "leftovers")
    with pytest.raises(ReportError):
        HandReport.from_json("{not json")
    with pytest.raises(ReportError):
        HandReport.from_dict([1, 2])  # type: ignore[arg-type]


# Every game and every value of the option deciding its fourth category, from the reference's
# table of options (docs/variants.md), not from the code under test.
PRIME_CASES = [
    pytest.param(game, option, mode, id=f"{game}-{mode}")
    for option in ("primiera_mode", "bermila")
    for game in sorted(REF_OPTIONS[option].games)
    for mode in REF_OPTIONS[option].choices
]


def random_piles(rng: random.Random) -> list[list[str]]:
    """All 40 cards in two piles: half the time each rank mostly split 2-2 (cascades run deep
    and tie), half the time each card to A with one chance (lopsided piles miss suits)."""
    if rng.random() < 0.5:
        a: list[str] = []
        for r in RANKS:
            suits = list(SUITS)
            rng.shuffle(suits)
            a += [r + s for s in suits[: 2 if rng.random() < 0.6 else rng.randint(0, 4)]]
    else:
        p = rng.uniform(0.05, 0.95)
        a = [c for c in ALL if rng.random() < p]
    return [a, rest_of(a)]


def with_award(d: dict[str, Any], category: str, side: int | None) -> dict[str, Any]:
    """`d` with `category` awarded to `side` and the points moved with it (so they still add
    up, and only the award is wrong)."""
    d = copy.deepcopy(d)
    was = d["awards"][category]
    d["awards"][category] = side
    d["points"] = [n - (was == i) + (side == i) for i, n in enumerate(d["points"])]
    return d


@pytest.mark.parametrize(("game", "option", "mode"), PRIME_CASES)
def test_report_checks_the_fourth_category_as_the_engine_awards_it(
    game: str, option: str, mode: str
) -> None:
    # The reference engine decides the award; the report must accept it (from the engine's
    # report and from the reference's counts, with and without the piles) and refuse the others.
    rng = random.Random(f"{game}-{mode}")
    prime = REF_CATEGORIES[game]["best"]
    seen: set[int | None] = set()
    for _ in range(100):
        options: dict[str, Any] = {option: mode}
        if option == "primiera_mode":  # valid over invalid, or a missing suit counting 0
            options["primiera_missing_suit"] = rng.choice(
                REF_OPTIONS["primiera_missing_suit"].choices
            )
        split = random_piles(rng)
        ref = RefRules(game, **options).score(split, [0, 0])
        want = ref["awards"][prime]
        seen.add(want)
        rep = Rules(game, **options).score(split)
        assert rep.awards[prime] == want, (options, split)
        from_reference = {
            "game": game,
            "points": ref["points"],
            "awards": ref["awards"],
            "counts": ref["counts"],
            "sweeps": ref["sweeps"],
            "piles": split,
            "bonuses": ref["bonuses"],
            "prime_mode": mode,
        }
        for d in (rep.to_dict(), from_reference):
            for told in (d, {**d, "piles": []}):
                assert HandReport.from_dict(told).awards[prime] == want, (options, split)
                for wrong in {0, 1, None} - {want}:
                    with pytest.raises(ReportError, match=f"`{prime}` goes to"):
                        HandReport.from_dict(with_award(told, prime, wrong))
    assert seen == {0, 1, None}, "every award, nobody too"


def test_bad_scoring_input_is_a_clear_error() -> None:
    with pytest.raises(InvalidCardError, match="7D"):
        Rules.scopa().score([["7D", "7D"], rest_of(["7D"])])
    with pytest.raises(CaptureFastError) as e:
        Rules.scopa().score([["7D"], ["KS"]])
    assert isinstance(e.value, ValueError)
    assert "40" in str(e.value)
    with pytest.raises(InvalidCardError, match="XX"):
        Rules.scopa().score([["XX"], rest_of([])])


# --------------------------------------------------------------------------- match report


def hand(a: int, b: int, game: str = "scopa", coins: tuple[int, int] = (5, 5)) -> HandReport:
    """A hand scoring `a` v `b`, all from sweeps (every category tied or ignored)."""
    cats = {"scopa": ("cards", "coins", "settebello", "primiera")}[game]
    return HandReport(
        game=game,
        points=[a, b],
        awards=dict.fromkeys(cats),
        counts=[
            {"cards": 20, "coins": coins[0], "primiera": None},
            {"cards": 20, "coins": coins[1], "primiera": None},
        ],
        sweeps=[a, b],
    )


def test_match_one_side_reaches_the_target() -> None:
    m = MatchReport(Rules.scopa(), [hand(6, 2), hand(6, 3)])
    assert m.scores == [[6, 2], [12, 5]]
    assert m.winner == 0 and m.over
    assert "reached 11 alone" in m.why and "12 v 5" in m.why
    assert m.rows() == [
        {
            "hand": 1,
            "points_a": 6,
            "points_b": 2,
            "score_a": 6,
            "score_b": 2,
            "sweeps_a": 6,
            "sweeps_b": 2,
        },
        {
            "hand": 2,
            "points_a": 6,
            "points_b": 3,
            "score_a": 12,
            "score_b": 5,
            "sweeps_a": 6,
            "sweeps_b": 3,
        },
    ]
    assert "side A reached 11 alone" in str(m)


def test_match_both_reach_the_target_higher_wins() -> None:
    m = MatchReport.from_hands(Rules.scopa(), [hand(5, 6), hand(7, 5)])
    assert m.scores[-1] == [12, 11]
    assert m.winner == 0
    assert "both sides reached 11" in m.why and "higher" in m.why


def test_match_tie_at_the_target_plays_on() -> None:
    m = MatchReport(Rules.scopa(), [hand(6, 6), hand(5, 5)])
    assert m.winner is None and not m.over
    assert "another hand" in m.why and "11 v 11" in m.why
    m = MatchReport(Rules.scopa(), [hand(6, 6), hand(5, 5), hand(0, 1)])
    assert m.winner == 1
    assert m.scores[-1] == [11, 12]
    m = MatchReport(Rules.scopa(), [hand(3, 2)])
    assert m.winner is None and "goes on" in m.why


def test_match_all_coins_wins() -> None:
    rules = Rules.scopa(all_coins_wins=True)
    # A passes the target on hand 2, but B captured every coin in that hand.
    m = MatchReport(rules, [hand(8, 0), hand(4, 2, coins=(0, 10))])
    assert m.winner == 1
    assert "all ten coins" in m.why and "hand 2" in m.why
    # Without the option the scores decide.
    assert MatchReport(Rules.scopa(), [hand(8, 0), hand(4, 2, coins=(0, 10))]).winner == 0
    # The napola includes Napoleone (V-S7).
    napola = Rules.scopa(napola=True)
    assert MatchReport(napola, [hand(8, 0), hand(4, 2, coins=(0, 10))]).winner == 1


def test_match_round_trip_and_rendering() -> None:
    m = MatchReport(Rules.escoba(), [])
    assert m.winner is None and m.scores == []
    m = play_match_report(Rules.chkobba(), 5)
    d = m.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert MatchReport.from_dict(d) == m
    assert MatchReport.from_json(m.to_json()).to_dict() == d
    assert MatchReport(d["rules"], m.hands) == m
    text = str(m)
    assert "chkobbas" in text and m.why in text
    rich_text = render(m)
    assert "won" in rich_text or "reached" in rich_text
    pd = pytest.importorskip("pandas")
    df = m.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(m.hands)


def test_played_match_is_consistent_and_deterministic() -> None:
    for game in ("scopa", "escoba", "chkobba"):
        rules = Rules(game)
        m = play_match_report(rules, 11)
        assert m == play_match_report(rules, 11)
        assert m.winner is not None
        final = m.scores[-1]
        assert final[m.winner] >= rules.target
        assert final[m.winner] > final[1 - m.winner]
        for h, s in zip(m.hands, m.scores, strict=True):
            assert h.scores == s


def test_bad_match_input() -> None:
    with pytest.raises(ReportError, match="3"):
        MatchReport(Rules.scopa(), [hand(6, 2), hand(6, 3), hand(1, 1)])  # over after hand 2
    scored = hand(3, 1)
    wrong = HandReport(**{**scored.__dict__, "scores": [4, 1]})
    with pytest.raises(ReportError, match="4 v 1"):
        MatchReport(Rules.scopa(), [wrong])
    with pytest.raises(ReportError, match="escoba"):
        MatchReport(Rules.scopa(), [HandReport(**{**scored.__dict__, "game": "escoba"})])
    d = MatchReport(Rules.scopa(), [hand(6, 2), hand(6, 3)]).to_dict()
    with pytest.raises(ReportError, match="winner"):
        MatchReport.from_dict({**d, "winner": 1})
    with pytest.raises(ReportError, match="extra"):
        MatchReport.from_dict({**d, "extra": 1})
    with pytest.raises(VariantError):
        MatchReport.from_dict({**d, "rules": {"game": "scopa", "target": 0}})
    with pytest.raises(ReportError, match="rules"):
        MatchReport.from_dict({**d, "rules": 5})


def test_play_match_report_refuses_an_unknown_bot() -> None:
    with pytest.raises(VariantError, match=r"unknown bot .*: greedy"):
        play_match_report(Rules.scopa(), 1, bot="greedy")


# --------------------------------------------------------------------------- evidence v piles


def variant_overrides(game: str) -> list[dict[str, Any]]:
    """Overrides that change what the evidence holds: the primiera options (Scopa, Escoba) or
    the bermila (Chkobba), each with the pile bonuses on."""
    bonuses: dict[str, Any] = {"napola": True}
    if game == "chkobba":
        return [{"bermila": m, **bonuses} for m in REF_OPTIONS["bermila"].choices]
    return [
        {},
        {"primiera_figures": "graded", **bonuses},
        {"primiera_figures": "zero", "primiera_missing_suit": "zero", **bonuses},
        {"primiera_mode": "most_sevens", "primiera_figures": "graded", **bonuses},
        {"primiera_mode": "three_sevens", "primiera_missing_suit": "zero", **bonuses},
        {
            "re_bello": True,
            "napola": True,
            "napola_cap": 3,
            "grande": 4,
            "all_coins_bonus": 2,
            "all_sevens_bonus": 3,
        },
    ]


# The Scopone deals are for 4 players only (their deals would not use the deck with 2).
_FOUR_ONLY = {"scopone", "scopone_scientifico"}
PRESET_CASES = [
    pytest.param(name, players, id=f"{name}-{players}")
    for name in variants.PRESETS
    for players in (2, 4)
    if players == 4 or name not in _FOUR_ONLY
]


def finished_hand(rules: Rules, seed: int) -> HandReport:
    rng = random.Random(seed)
    state = State.new(rules, seed)
    while not state.hand_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state.hand_report()


@pytest.mark.parametrize(("preset", "players"), PRESET_CASES)
def test_finished_hands_of_every_preset_round_trip(preset: str, players: int) -> None:
    game = variants.rules(preset, players=players).game
    for overrides in variant_overrides(game):
        rules = variants.rules(preset, players=players, **overrides)
        for seed in range(3):
            rep = finished_hand(rules, seed)
            d = rep.to_dict()
            assert HandReport.from_dict(d) == rep, (preset, players, overrides, seed)
            assert HandReport.from_json(rep.to_json()) == rep
            # Without piles the evidence still loads (checked against itself).
            assert HandReport.from_dict({**d, "piles": []}).counts == rep.counts


def bonus_rules() -> Rules:
    return Rules.scopa(re_bello=True, napola=True, grande=5, all_coins_bonus=2, all_sevens_bonus=3)


def tampered(d: dict[str, Any], side: int, key: str, value: Any) -> dict[str, Any]:
    """`d` with side `side`'s count `key` (or bonus `key`, its points moved along) set."""
    d = copy.deepcopy(d)
    if key in d["bonuses"]:
        d["points"][side] += value - d["bonuses"][key][side]
        d["bonuses"][key][side] = value
    else:
        d["counts"][side][key] = value
    return d


# BONUS_A under `bonus_rules`: A 75 (6C 7D 7H 5S), run 4, re bello 1, napola 4, grande 5;
# B 78 (7C 6D 6H 7S), run 0, no bonus.
TAMPERED = [
    (0, "primiera", 1, r"side A's `primiera` is 1 but its pile gives: 75"),
    (1, "primiera", None, r"side B's `primiera` is null \(invalid\) but its pile gives: 78"),
    (
        0,
        "primiera_cards",
        ["KC", "KD", "KH", "KS"],
        r"side A's `primiera_cards` is \[KC KD KH KS\] but its pile gives: \[6C 7D 7H 5S\]",
    ),
    (0, "primiera_cards", ["6C", "7D", "7H"], r"`primiera_cards` is \[6C 7D 7H\] but"),
    (1, "primiera_cards", ["6C", "6D", "6H", "7S"], r"side B's `primiera_cards` is \[6C"),
    (0, "coin_run", 7, r"side A's `coin_run` is 7 but its pile gives: 4"),
    (1, "coin_run", 3, r"side B's `coin_run` is 3 but its pile gives: 0"),
    (0, "re_bello", 0, r"side A's `re_bello` bonus is 0 but its pile gives: 1"),
    (1, "re_bello", 1, r"side B's `re_bello` bonus is 1 but its pile gives: 0"),
    (0, "napola", 5, r"side A's `napola` bonus is 5 but its pile gives: 4 \(or from 3"),
    (0, "napola", 2, r"side A's `napola` bonus is 2 but"),
    (1, "napola", 3, r"side B's `napola` bonus is 3 but its pile gives: 0"),
    (0, "grande", 0, r"side A's `grande` bonus is 0 but its pile gives: the rules' points"),
    (1, "grande", 5, r"side B's `grande` bonus is 5 but its pile gives: 0"),
    (0, "all_coins", 2, r"side A's `all_coins` bonus is 2 but its pile gives: 0"),
    (1, "all_sevens", 3, r"side B's `all_sevens` bonus is 3 but its pile gives: 0"),
]


@pytest.mark.parametrize(("side", "key", "value", "message"), TAMPERED)
def test_evidence_that_contradicts_the_piles_is_refused(
    side: int, key: str, value: Any, message: str
) -> None:
    good = bonus_rules().score(piles(BONUS_A)).to_dict()
    assert HandReport.from_dict(good).to_dict() == good
    with pytest.raises(ReportError, match=message):
        HandReport.from_dict(tampered(good, side, key, value))


def test_a_capped_napola_and_the_rules_bonus_points_load() -> None:
    good = bonus_rules().score(piles(BONUS_A)).to_dict()
    for key, value in (("napola", 3), ("grande", 1), ("grande", 100)):
        HandReport.from_dict(tampered(good, 0, key, value))
    capped = variants.rules("scopa", napola=True, napola_cap=3).score(piles(BONUS_A))
    assert capped.bonuses["napola"] == [3, 0]
    assert HandReport.from_dict(capped.to_dict()) == capped


def test_the_trial_escoba_setenta_is_refused() -> None:
    d = finished_hand(Rules.escoba(), 1).to_dict()
    pile = d["piles"][0]
    assert "7D" in pile
    d["counts"][0]["primiera"] = 1
    d["counts"][0]["primiera_cards"] = ["KC", "KD", "KH", "KS"]
    with pytest.raises(ReportError, match=r"side A's `primiera_cards` is \[KC KD KH KS\]"):
        HandReport.from_dict(d)


def test_both_sides_totals_follow_one_setting_of_the_primiera_options() -> None:
    # A: 7C 7D 7H QS (flat 73, graded 72); B: QC 6D 6H 7S (flat 67, graded 66).
    a = [r + "C" for r in "A234567JK"] + ["QS", "7D", "7H"]
    flat = Rules.scopa().score(piles(a)).to_dict()
    graded = Rules.scopa(primiera_figures="graded").score(piles(a)).to_dict()
    assert [c["primiera"] for c in flat["counts"]] == [73, 67]
    assert [c["primiera"] for c in graded["counts"]] == [72, 66]
    for d in (flat, graded):
        HandReport.from_dict(d)
    mixed = tampered(flat, 0, "primiera", 72)
    with pytest.raises(ReportError, match=r"side B's `primiera` is 67 but its pile gives: 66"):
        HandReport.from_dict(mixed)


def test_evidence_without_piles_is_checked_against_itself() -> None:
    good = bonus_rules().score(piles(BONUS_A)).to_dict()
    bare = {**good, "piles": []}
    assert HandReport.from_dict(bare).counts == good["counts"]
    cases = [
        (0, "primiera", 80, r"side A's `primiera` is 80 but its primiera cards give"),
        (0, "primiera_cards", ["6C", "7C", "7H", "5S"], r"side A's `primiera_cards` is"),
        (1, "coin_run", 3, r"side B's `coin_run` is 3 but its `coins` are: 2"),
        (0, "napola", 5, r"side A's `napola` bonus is 5 but its coin_run gives: 4"),
    ]
    for side, key, value, message in cases:
        with pytest.raises(ReportError, match=message):
            HandReport.from_dict(tampered(bare, side, key, value))


def test_primiera_cards_are_read_as_the_engine_spells_them() -> None:
    rep = Rules.scopa().score(piles(SCOPA_A))
    d = rep.to_dict()
    d["counts"][1]["primiera_cards"] = ["7c", "6d", "6h", "7s"]
    assert HandReport.from_dict(d) == rep
