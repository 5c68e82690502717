"""The reference game state: deals, moves, sweeps, end of hand and match.

Plain Python written straight from ``docs/rules.md`` (rule IDs in comments) and
``docs/conventions.md`` (card ids, SplitMix64, shuffle, deal order, cut card, move order and
notation). It exists to be compared step by step with the fast engine.

A move is a tuple ``(kind, card, captures)``: ``kind`` is ``"play"``, ``"keep_cut"``,
``"table_cut"`` or ``"claim"`` (renuncio, docs/variants.md), ``card`` a card string and
``captures`` the frozenset of captured table cards (empty for a trail and for the cut decisions).

Options (docs/variants.md) are read from :class:`RefRules`: deal shapes, direction, redeal and
opening sweeps, capture modes, compulsory capture, ace takes all, renuncio claims, declarations.
"""

from __future__ import annotations

from typing import Any

from .cards import DECK, card_from_id, card_id, card_set_mask, check_card, parse_card, sort_cards
from .rng import SplitMix64, shuffled_deck
from .rules import RefRules

Move = tuple[str, str, frozenset[str]]

MOVE_KINDS: tuple[str, ...] = ("play", "keep_cut", "table_cut", "claim")  # packed kinds 0-3
HAND_SIZE = 3  # G3
TABLE_SIZE = 4  # G3


# --------------------------------------------------------------------- move helpers


def _normalize_move(move: Move | tuple[str, str, Any] | str) -> Move:
    """Return ``move`` as a canonical tuple, parsing strings.

    Raises:
        ValueError: If it is not a well-formed move.
    """
    if isinstance(move, str):
        return parse_move(move)
    if not isinstance(move, tuple) or len(move) != 3:
        raise ValueError(f"not a move: {move!r}")
    kind, card, captures = move
    if kind not in MOVE_KINDS:
        raise ValueError(f"unknown move kind {kind!r}")
    check_card(card)
    caps = frozenset(captures)
    for c in caps:
        check_card(c)
    if kind in ("keep_cut", "table_cut") and caps:
        raise ValueError(f"a {kind} move captures nothing: {move!r}")
    if kind == "claim" and not caps:
        raise ValueError(f"a claim names the captured cards: {move!r}")
    return kind, card, caps


def format_move(move: Move | tuple[str, str, Any]) -> str:
    """Write a move in the conventional notation.

    Args:
        move: ``(kind, card, captures)``.

    Returns:
        ``"7D x 3C+4S"`` (captures in id order), ``"7D"`` for a trail, ``"keep 7D"`` or
        ``"table 7D"`` for the Chkobba cut decisions, ``"claim 7D x 3C+5S"`` for a renuncio
        claim.
    """
    kind, card, captures = _normalize_move(move)
    if kind == "claim":
        return f"claim {card} x {'+'.join(sort_cards(captures))}"
    if kind == "keep_cut":
        return f"keep {card}"
    if kind == "table_cut":
        return f"table {card}"
    if not captures:
        return card
    return f"{card} x {'+'.join(sort_cards(captures))}"


def parse_move(text: str, numerals: bool = True) -> Move:
    """Read a move written in the conventional notation.

    Args:
        text: ``"7D x 3C+4S"``, ``"7D"``, ``"keep 7D"``, ``"table 7D"`` or
            ``"claim 7D x 3C+5S"``.
        numerals: Accept ``8``/``9``/``10`` for J/Q/K (docs/variants.md "Naming"; a
            :class:`RefState` of Chkobba passes False).

    Returns:
        The move tuple ``(kind, card, captures)``.

    Raises:
        ValueError: If the text is not a move.
    """

    def card_of(word: str) -> str:
        return parse_card(word, numerals)

    words = text.split()
    if len(words) == 2 and words[0] == "keep":
        return "keep_cut", card_of(words[1]), frozenset()
    if len(words) == 2 and words[0] == "table":
        return "table_cut", card_of(words[1]), frozenset()
    kind = "play"
    if len(words) == 4 and words[0] == "claim":
        kind = "claim"
        words = words[1:]
    if len(words) == 1 and kind == "play":
        return "play", card_of(words[0]), frozenset()
    if len(words) == 3 and words[1] == "x":
        captured = [card_of(c.strip()) for c in words[2].split("+")]
        if len(set(captured)) != len(captured):
            raise ValueError(f"repeated captured card in {text!r}")
        return kind, card_of(words[0]), frozenset(captured)
    raise ValueError(f"cannot parse move {text!r}")


def pack_move(move: Move | tuple[str, str, Any] | str) -> int:
    """Pack a move into the conventional integer.

    Captured set in bits 0-39, card id in bits 40-45, kind in bits 46-47 (0 play, 1 keep_cut,
    2 table_cut, 3 claim).

    Args:
        move: A move tuple or string.

    Returns:
        The packed integer; legal moves are listed in increasing packed value.
    """
    kind, card, captures = _normalize_move(move)
    return (MOVE_KINDS.index(kind) << 46) | (card_id(card) << 40) | card_set_mask(captures)


def unpack_move(packed: int) -> Move:
    """Unpack an integer made by :func:`pack_move`.

    Args:
        packed: The packed move.

    Returns:
        The move tuple.

    Raises:
        ValueError: If a field is out of range.
    """
    kind_index = packed >> 46
    if kind_index >= len(MOVE_KINDS):
        raise ValueError(f"bad move kind in {packed:#x}")
    card = card_from_id((packed >> 40) & 0x3F)
    captures = frozenset(DECK[i] for i in range(40) if (packed >> i) & 1)
    return MOVE_KINDS[kind_index], card, captures


def _move_key(move: Move) -> tuple[int, int, int]:
    """Sort key equal in order to the packed value: kind, card id, captured-set mask."""
    kind, card, captures = move
    return MOVE_KINDS.index(kind), card_id(card), card_set_mask(captures)


# --------------------------------------------------------------------- dealing


def layout_deal(
    players: int,
    dealer: int,
    deck: list[str],
    cut_choice: str | None = None,
    hand_size: int = HAND_SIZE,
    table_size: int = TABLE_SIZE,
    clockwise: bool = False,
) -> tuple[list[list[str]], list[str], list[str]]:
    """Lay out one deal from a deck order, without the opening check.

    Conventions "Deal a hand", steps 2-5 (K5, K-A4, G3, S4, E4): with a cut choice the top card
    is the cut card and starts the cutter's hand (``"keep"``) or the table (``"table"``); then
    cards go one at a time round the table from seat ``(dealer + 1) % players``, skipping full
    hands, until every hand holds 3; then the table is filled to 4; the rest is the stock.

    Args:
        players: 2 or 4.
        dealer: The dealer's seat.
        deck: The cards, top first (may be shorter than 40 if it is long enough to deal).
        cut_choice: None (no cut card), ``"keep"`` or ``"table"``.
        hand_size: Cards per hand: 3 (standard), 9 (scopone), 10 (scientifico).
        table_size: Opening table cards: 4, or 0 (scientifico).
        clockwise: Deal to ``(s+n-1) % n`` after ``s`` (and start there) instead of ``s+1``.

    Returns:
        ``(hands, table, stock)`` with hands per seat in the order received and the stock in
        deal order.

    Raises:
        ValueError: For a bad cut choice or a deck too short to deal.
    """
    needed = players * hand_size + table_size
    if len(deck) < needed:
        raise ValueError(f"a deal needs {needed} cards, the deck has {len(deck)}")
    hands: list[list[str]] = [[] for _ in range(players)]
    table: list[str] = []
    step = players - 1 if clockwise else 1  # docs/variants.md "direction": next(s)
    cutter = (dealer + step) % players
    position = 0
    if cut_choice is not None:
        cut = deck[0]
        position = 1
        if cut_choice == "keep":
            hands[cutter].append(cut)  # K5.3
        elif cut_choice == "table":
            if table_size == 0:
                raise ValueError("there is no opening table to put the cut card on")
            table.append(cut)  # K5.4
        else:
            raise ValueError(f"cut choice must be 'keep' or 'table', got {cut_choice!r}")
    seat = cutter
    while any(len(hand) < hand_size for hand in hands):
        if len(hands[seat]) < hand_size:
            hands[seat].append(deck[position])
            position += 1
        seat = (seat + step) % players
    while len(table) < table_size:
        table.append(deck[position])
        position += 1
    return hands, table, list(deck[position:])


# --------------------------------------------------------------------- the state


class RefState:
    """A complete game position; ``play`` and ``next_hand`` return new states.

    Attributes:
        rules: The rules in force.
        rng: The SplitMix64 stream used for every later shuffle.
        dealer: The dealer's seat.
        hands: The cards of each seat (in the order received).
        table: The face-up cards (in the order they arrived).
        stock: The undealt cards, next card first (while a cut decision is pending: the rest of
            the shuffled deck below the cut card).
        piles: The captured cards of each side.
        sweeps: The sweeps of each side in this hand.
        scores: The match scores of each side.
        to_move: The seat to move, or None when the hand is over.
        last_capturer: The seat that captured last in this hand, or None.
        cut_card: The Chkobba cut card awaiting the keep/table decision, or None.
        hand_over: True once the hand has been scored.
        match_over: True once a side has won.
        winner: The winning side, or None.
        leftover: The table cards given to the last capturer at the end of the hand (G7).
        redeals: How many times the current hand was redealt (S5, K6).
        declarations: The declaration points of each side in this hand (Cirulla, V-S12).
        claimable: The card just trailed that the player to move may claim (renuncio), or None.
    """

    rules: RefRules
    rng: SplitMix64
    dealer: int
    hands: list[list[str]]
    table: list[str]
    stock: list[str]
    piles: list[list[str]]
    sweeps: list[int]
    scores: list[int]
    to_move: int | None
    last_capturer: int | None
    cut_card: str | None
    hand_over: bool
    match_over: bool
    winner: int | None
    leftover: list[str]
    redeals: int
    declarations: list[int]
    claimable: str | None
    _report: dict[str, Any] | None

    def __init__(self, rules: RefRules, rng: SplitMix64, dealer: int) -> None:
        """Create an empty position (no cards dealt); use the static constructors instead.

        Args:
            rules: The rules.
            rng: The random stream.
            dealer: The dealer's seat.
        """
        self.rules = rules
        self.rng = rng
        self.dealer = dealer
        self.hands = [[] for _ in range(rules.players)]
        self.table = []
        self.stock = []
        self.piles = [[], []]
        self.sweeps = [0, 0]
        self.scores = [0, 0]
        self.to_move = None
        self.last_capturer = None
        self.cut_card = None
        self.hand_over = False
        self.match_over = False
        self.winner = None
        self.leftover = []
        self.redeals = 0
        self.declarations = [0, 0]
        self.claimable = None
        self._report = None

    # ----------------------------------------------------------------- constructors

    @staticmethod
    def new(rules: RefRules, seed: int) -> RefState:
        """Start a match (conventions, "A new match and a new hand").

        Args:
            rules: The rules.
            seed: The SplitMix64 seed.

        Returns:
            The state after the first deal (possibly awaiting the Chkobba cut decision).
        """
        rng = SplitMix64(seed)
        dealer = rng.below(rules.players)  # K4: first dealer by lot
        state = RefState(rules, rng, dealer)
        state._deal_shuffled()
        return state

    @staticmethod
    def from_deck(
        rules: RefRules,
        dealer: int,
        deck: list[str],
        seed: int = 0,
        scores: list[int] | None = None,
    ) -> RefState:
        """Start a hand from a given deck order instead of a shuffle (for tests).

        Redeals, if any, shuffle with ``SplitMix64(seed)``.

        Args:
            rules: The rules.
            dealer: The dealer's seat.
            deck: All 40 cards, top first.
            seed: The seed of the stream used for redeals and later hands.
            scores: The match scores so far (default 0-0).

        Returns:
            The state after the deal (possibly awaiting the cut decision).

        Raises:
            ValueError: If ``deck`` is not the 40 cards or the dealer is out of range.
        """
        if sorted(deck) != sorted(DECK):
            raise ValueError("from_deck needs all 40 cards exactly once")
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer out of range: {dealer}")
        state = RefState(rules, SplitMix64(seed), dealer)
        if scores is not None:
            state.scores = [int(scores[0]), int(scores[1])]
        state._begin_deal(list(deck))
        return state

    @staticmethod
    def from_position(
        rules: RefRules,
        hands: list[list[str]],
        table: list[str],
        stock: list[str],
        to_move: int,
        dealer: int,
        last_capturer: int | None,
        piles: list[list[str]],
        sweeps: list[int],
        scores: list[int],
        seed: int = 0,
        declarations: list[int] | None = None,
        claimable: str | None = None,
    ) -> RefState:
        """Build a position in the middle of a hand.

        Args:
            rules: The rules.
            hands: The cards of each seat.
            table: The table cards.
            stock: The undealt cards, next first.
            to_move: The seat to move (must hold a card).
            dealer: The dealer's seat.
            last_capturer: The last seat that captured, or None.
            piles: The captured cards of each side.
            sweeps: The sweeps of each side.
            scores: The match scores of each side.
            seed: The seed of the stream used for later deals.
            declarations: The declaration points of each side so far (default 0-0).
            claimable: A table card just trailed that the mover may claim (renuncio only).

        Returns:
            The state. No cut decision is pending.

        Raises:
            ValueError: For wrong list lengths, bad or repeated cards, out-of-range seats, or a
                position where nobody holds a card.
        """
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"expected {n} hands, got {len(hands)}")
        if len(piles) != 2 or len(sweeps) != 2 or len(scores) != 2:
            raise ValueError("piles, sweeps and scores need one entry per side (2)")
        seen: set[str] = set()
        for group in [*hands, table, stock, *piles]:
            for c in group:
                check_card(c)
                if c in seen:
                    raise ValueError(f"card {c} appears twice")
                seen.add(c)
        for name, seat in (("to_move", to_move), ("dealer", dealer)):
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise ValueError(f"{name} out of range: {seat!r}")
        if last_capturer is not None and not 0 <= last_capturer < n:
            raise ValueError(f"last_capturer out of range: {last_capturer!r}")
        if not any(hands):
            raise ValueError("from_position needs at least one card in hand")
        if not hands[to_move]:
            raise ValueError(f"seat {to_move} is to move but holds no card")
        state = RefState(rules, SplitMix64(seed), dealer)
        state.hands = [list(h) for h in hands]
        state.table = list(table)
        state.stock = list(stock)
        state.piles = [list(p) for p in piles]
        state.sweeps = [int(sweeps[0]), int(sweeps[1])]
        state.scores = [int(scores[0]), int(scores[1])]
        state.to_move = to_move
        state.last_capturer = last_capturer
        if declarations is not None:
            state.declarations = [int(declarations[0]), int(declarations[1])]
        if claimable is not None:
            if not rules.options["renuncio"] or claimable not in table:
                raise ValueError(f"claimable {claimable!r} needs renuncio and a table card")
            state.claimable = claimable
        return state

    def _copy(self) -> RefState:
        """Return an independent copy (the rules object is shared; it is never mutated)."""
        other = RefState(self.rules, self.rng.copy(), self.dealer)
        other.hands = [list(h) for h in self.hands]
        other.table = list(self.table)
        other.stock = list(self.stock)
        other.piles = [list(p) for p in self.piles]
        other.sweeps = list(self.sweeps)
        other.scores = list(self.scores)
        other.to_move = self.to_move
        other.last_capturer = self.last_capturer
        other.cut_card = self.cut_card
        other.hand_over = self.hand_over
        other.match_over = self.match_over
        other.winner = self.winner
        other.leftover = list(self.leftover)
        other.redeals = self.redeals
        other.declarations = list(self.declarations)
        other.claimable = self.claimable
        other._report = _copy_report(self._report)
        return other

    # ----------------------------------------------------------------- small helpers

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @staticmethod
    def side_of(seat: int) -> int:
        """Return the side of a seat: ``seat % 2`` (G2; conventions "Seats and sides")."""
        return seat % 2

    @property
    def leader(self) -> int:
        """The seat that leads every round, ``next(dealer)`` (G5, K7, S6, E6, V-K6)."""
        return self.rules.next_seat(self.dealer)

    def _is_final_play(self) -> bool:
        """Whether the next play is the single final play of the hand (K-A5)."""
        return not self.stock and sum(len(h) for h in self.hands) == 1

    # ----------------------------------------------------------------- dealing

    def _deal_shuffled(self) -> None:
        """Shuffle a fresh deck with the state's stream and deal it."""
        self._begin_deal(shuffled_deck(self.rng))

    def _begin_deal(self, deck: list[str]) -> None:
        """Deal from ``deck``; with the Chkobba cut card, stop at the cut decision (K5)."""
        self.hands = [[] for _ in range(self.players)]
        self.table = []
        self.stock = []
        if self.rules.uses_cut_card:
            # K5.2 / K-A4: the top card is the cut card; the cutter (seat d+1) decides.
            self.cut_card = deck[0]
            self.stock = deck[1:]
            self.to_move = self.leader
            return
        self._finish_deal(deck, None)

    def _finish_deal(self, deck: list[str], cut_choice: str | None) -> None:
        """Lay the deal out, then apply the opening check (S5, K6, E5)."""
        self.cut_card = None
        rules = self.rules
        self.hands, self.table, self.stock = layout_deal(
            self.players,
            self.dealer,
            deck,
            cut_choice,
            rules.hand_size,
            rules.table_size,
            rules.clockwise,
        )
        redeal, dealer_sweeps = self.rules.opening(self.table)
        if redeal:
            # S5 / S-A8, K6 / K-A2: the same dealer reshuffles everything and deals again
            # (with a new cut in Chkobba), continuing the same random stream.
            self.redeals += 1
            self._deal_shuffled()
            return
        if dealer_sweeps:
            # E5 / E-A2: the dealer's side takes the table, scores 1 or 2 escobas and becomes the
            # last capturer; the table is not refilled (E-A3).
            side = self.side_of(self.dealer)
            self.piles[side].extend(self.table)
            self.table = []
            self.sweeps[side] += dealer_sweeps
            self.last_capturer = self.dealer
        self._declare()
        self.to_move = self.leader  # G5

    def _declare(self) -> None:
        """Score the declarations of the cards just dealt (every hand was empty before)."""
        if not self.rules.options["declarations"]:
            return
        for seat, hand in enumerate(self.hands):
            self.declarations[self.side_of(seat)] += self.rules.declaration(hand)

    def _deal_round(self) -> None:
        """Deal a later round: 3 each from the stock, from the leader, table untouched (G3, K12)."""
        seat = self.leader
        while self.stock and any(len(h) < HAND_SIZE for h in self.hands):
            if len(self.hands[seat]) < HAND_SIZE:
                self.hands[seat].append(self.stock.pop(0))
            seat = self.rules.next_seat(seat)
        self._declare()
        self.to_move = self.leader  # G5

    def _end_hand(self) -> None:
        """Give the leftovers to the last capturer, score, update the match (G7, G8)."""
        self.leftover = list(self.table)
        self.claimable = None  # no claim after the final play (no next player)
        if self.table and self.last_capturer is None:
            if self.rules.options["compulsory_capture"]:
                # K-A6 / S-A9 / §6 I4: unreachable from a real deal.
                raise RuntimeError("leftover cards but nobody has captured (I4 violated)")
            # **choice**: without compulsory capture nobody may have captured; G7 gives the
            # leftovers to the last capturer, so with none they stay on the table, unscored.
        elif self.table and self.last_capturer is not None:
            # G7: the leftovers go to the last capturer's side; never a sweep.
            self.piles[self.side_of(self.last_capturer)].extend(self.table)
            self.table = []
        report = self.rules.score(self.piles, self.sweeps, self.declarations)
        self._report = report
        for side in (0, 1):
            self.scores[side] += report["points"][side]
        # S12, E12, K15; all_coins_wins (V-S7): all ten coins wins, the points still added.
        self.winner = self.rules.match_winner(self.scores, report["all_coins"])
        self.match_over = self.winner is not None
        self.hand_over = True
        self.to_move = None

    # ----------------------------------------------------------------- moves

    def legal_moves(self) -> list[Move]:
        """List the legal moves in increasing packed value (conventions, "Moves").

        Returns:
            The cut decisions while a Chkobba cut card is pending (only ``keep`` with the
            ``scientifico`` deal, which has no table); otherwise, for every card in the mover's
            hand, each of its captures, and a trail if it has none or capture is not compulsory
            (K9, S7, E7, K-A3, V-E6); plus the renuncio claims on the card just trailed. Empty
            when the hand is over.
        """
        if self.hand_over or self.to_move is None:
            return []
        if self.cut_card is not None:
            cut_moves: list[Move] = [("keep_cut", self.cut_card, frozenset())]
            if self.rules.table_size > 0:
                # **choice**: with ``scientifico`` there is no table to put the cut card on.
                cut_moves.append(("table_cut", self.cut_card, frozenset()))
            return cut_moves
        compulsory = self.rules.options["compulsory_capture"]
        moves: list[Move] = []
        for card in self.hands[self.to_move]:
            options = self.rules.capture_options(self.table, card)
            moves.extend(("play", card, option) for option in options)
            if not options or not compulsory:
                moves.append(("play", card, frozenset()))  # K9(c): trail
        if self.claimable is not None:
            # Renuncio: the options the trailed card had on the table as it was before.
            before = [c for c in self.table if c != self.claimable]
            for option in self.rules.capture_options(before, self.claimable):
                moves.append(("claim", self.claimable, option))
        return sorted(moves, key=_move_key)

    def _legal(self, move: Move | tuple[str, str, Any] | str) -> Move:
        """Normalize ``move`` and check that it is legal here.

        Raises:
            ValueError: If it is malformed or illegal.
        """
        if isinstance(move, str):
            # docs/variants.md "Naming": 8/9/10 for J/Q/K, never in Chkobba notation.
            normal = parse_move(move, numerals=self.rules.game != "chkobba")
        else:
            normal = _normalize_move(move)
        if normal not in self.legal_moves():
            raise ValueError(f"illegal move {format_move(normal)!r}")
        return normal

    def is_sweep(self, move: Move | tuple[str, str, Any] | str) -> bool:
        """Tell whether a legal move would score a sweep.

        A sweep is a capture equal to the whole non-empty table (K11, S8 / S-A3, E8), except on
        the single final play of the hand when ``last_play_sweep`` is ``"void"`` (K11, S-A4),
        and for an ace-takes-all capture unless ``ace_sweep`` (V-S8). A claim is never a sweep.

        Args:
            move: A legal move (tuple or string).

        Returns:
            True if playing it scores a sweep.

        Raises:
            ValueError: If the move is not legal here.
        """
        return self._sweep_of(self._legal(move))

    def _sweep_of(self, move: Move) -> bool:
        """Tell whether the (already checked) legal ``move`` scores a sweep."""
        kind, card, captures = move
        if kind != "play" or not captures or captures != frozenset(self.table):
            return False
        if self.rules.ace_takes_all(self.table, card) and not self.rules.options["ace_sweep"]:
            return False  # V-S8: the ace taking the whole table is not a scopa
        # K11 / S-A4: the single final play of the hand makes no sweep unless the option says so.
        return self.rules.last_play_sweep_counts or not self._is_final_play()

    def play(self, move: Move | tuple[str, str, Any] | str) -> RefState:
        """Play a move.

        Args:
            move: A legal move, as a tuple or in notation.

        Returns:
            The new state; ``self`` is unchanged.

        Raises:
            ValueError: If the move is malformed or illegal.
        """
        kind, card, captures = self._legal(move)
        sweep = self._sweep_of((kind, card, captures))
        new = self._copy()
        if kind == "keep_cut":
            new._finish_deal([card, *new.stock], "keep")  # K5.3
            return new
        if kind == "table_cut":
            new._finish_deal([card, *new.stock], "table")  # K5.4
            return new
        if kind == "claim":
            # Renuncio: the trailed card and the set go to the claimant's pile; not a turn.
            claimant = new.to_move
            assert claimant is not None
            new.table = [c for c in new.table if c != card and c not in captures]
            new.piles[new.side_of(claimant)].append(card)
            new.piles[new.side_of(claimant)].extend(sort_cards(captures))
            new.last_capturer = claimant
            new.claimable = None
            return new

        seat = new.to_move
        assert seat is not None
        side = new.side_of(seat)
        new.hands[seat].remove(card)
        new.claimable = None  # a pending claim lapses when the player plays instead
        if captures:
            # G6: the played card and the captured cards go to the side's pile.
            new.table = [c for c in new.table if c not in captures]
            new.piles[side].append(card)
            new.piles[side].extend(sort_cards(captures))
            new.last_capturer = seat
            if sweep:
                new.sweeps[side] += 1  # K11, S8, E8
        else:
            if new.rules.options["renuncio"] and new.rules.capture_options(new.table, card):
                new.claimable = card  # V-E7: a missed capture may be claimed by the next player
            new.table.append(card)  # trail

        if any(new.hands):
            # K7: the next seat in playing order (the next one holding cards, which in a real
            # game is always next(seat)).
            nxt = new.rules.next_seat(seat)
            while not new.hands[nxt]:
                nxt = new.rules.next_seat(nxt)
            new.to_move = nxt
        elif new.stock:
            new._deal_round()  # G3, K12, S9, E9
        else:
            new._end_hand()  # G7, K13, S10, E10
        return new

    # ----------------------------------------------------------------- hands and reports

    def hand_report(self) -> dict[str, Any]:
        """Return the score of the finished hand, shaped like :meth:`RefRules.score`.

        Raises:
            ValueError: If the hand is not over.
        """
        if not self.hand_over or self._report is None:
            raise ValueError("the hand is not over")
        report = _copy_report(self._report)
        assert report is not None
        return report

    def next_hand(self) -> RefState:
        """Deal the next hand: dealer ``next(d)``, same stream, match scores kept (K4, V-K6).

        Returns:
            The new state.

        Raises:
            ValueError: If the hand is not over or the match is over.
        """
        if not self.hand_over:
            raise ValueError("the hand is not over")
        if self.match_over:
            raise ValueError("the match is over")
        new = RefState(self.rules, self.rng.copy(), self.rules.next_seat(self.dealer))
        new.scores = list(self.scores)
        new._deal_shuffled()
        return new

    def snapshot(self) -> dict[str, Any]:
        """Return the canonical comparable form of the state.

        Returns:
            ``to_move``, ``dealer``, ``last_capturer``, ``hands`` (each sorted by id), ``table``
            (sorted), ``stock`` (deal order), ``piles`` (each sorted), ``sweeps``, ``scores``,
            ``hand_over``, ``match_over``, ``winner`` and ``cut_card``; plus ``declarations``
            (points per side this hand) when declarations are on and ``claimable`` (the trailed
            card that may be claimed, or None) with renuncio. The two option keys appear only
            with their option, so the default snapshot keeps its shape.
        """
        snap: dict[str, Any] = {
            "to_move": None if self.hand_over else self.to_move,
            "dealer": self.dealer,
            "last_capturer": self.last_capturer,
            "hands": [sort_cards(h) for h in self.hands],
            "table": sort_cards(self.table),
            "stock": list(self.stock),
            "piles": [sort_cards(p) for p in self.piles],
            "sweeps": list(self.sweeps),
            "scores": list(self.scores),
            "hand_over": self.hand_over,
            "match_over": self.match_over,
            "winner": self.winner,
            "cut_card": self.cut_card,
        }
        if self.rules.options["declarations"]:
            snap["declarations"] = list(self.declarations)
        if self.rules.options["renuncio"]:
            snap["claimable"] = self.claimable
        return snap

    def __repr__(self) -> str:
        """Return a short description."""
        return f"RefState({self.rules.game}, {self.snapshot()!r})"


def _copy_report(report: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return a copy of a score report deep enough that callers cannot alter the original."""
    if report is None:
        return None
    return {
        "points": list(report["points"]),
        "awards": dict(report["awards"]),
        "counts": [
            {k: list(v) if isinstance(v, list) else v for k, v in c.items()}
            for c in report["counts"]
        ],
        "sweeps": list(report["sweeps"]),
        "bonuses": {k: list(v) for k, v in report["bonuses"].items()},
        "all_coins": report["all_coins"],
    }
