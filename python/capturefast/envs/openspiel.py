"""The game `python_capturefast` for OpenSpiel (extra `capturefast[openspiel]`).

Importing this module registers the game with `pyspiel.register_game`; load it with
`pyspiel.load_game("python_capturefast")`, or with parameters, e.g.
`"python_capturefast(variant=escoba,players=4)"`: `variant` is a preset name
(`capturefast.variants.preset_names()`), `players` 2 or 4 (0: the preset's), `target` the
match target (0: the preset's; it shows in the observation). One game is one hand.

- **Chance.** The deal is three chance nodes of 1024 equally likely outcomes each, which
  together choose one of 2^30 seeds of the core's shuffle (docs/conventions.md): every later
  card (the stock) is fixed by the deal, so no chance node follows.
- **Actions.** The core's fixed action space (84 ids, docs/learning.md): a move is its card,
  then its captured cards in increasing id order, then `finish` where needed.
- **Returns.** When the hand is over, each player's side's point difference for the hand
  (zero-sum: partners share their side's).
- **Tensors.** The observation tensor is the core's observation of the player's seat. The
  information-state tensor appends what makes it perfect recall: every card the player has
  held in the hand (40), and for each card the move that played it, per relative seat, and
  the move that captured it, each as (move number + 1) / 64.
- **Strings.** The observation string is the nonzero entries of the observation tensor. The
  information-state string is the player's seat and, for the deal and each action since,
  the entries of its observation that the action changed: what the player saw happen, in
  order. Two histories give a player the same string exactly when they look the same to it
  (a kept Chkobba cut card, or another seat's later hands, change nothing it sees).
- **Pickling.** States pickle (`pyspiel.serialize_game_and_state`, `pickle`), and
  `pyspiel.random_sim_test(..., serialize=True)` passes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from capturefast import variants
from capturefast._core import (
    ActionState,
    Card,
    Rules,
    State,
    action_name,
    num_actions,
    observation_fields,
)

__all__ = ["CaptureGame", "CaptureState"]

_CHANCE_NODES = 3
_OUTCOMES = 1024
# More moves than a hand has (40 cards, each played once, plus claims and cut decisions).
_MOVE_SCALE = 64.0

# `players` and `target` 0: the preset's own (OpenSpiel's parameters have one fixed default).
_DEFAULTS: dict[str, Any] = {"variant": "scopa", "players": 0, "target": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_capturefast",
    long_name="Python capturefast (Scopa, Escoba, Chkobba)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _rules(params: dict[str, Any]) -> Rules:
    players = int(params["players"]) or None
    target = int(params["target"])
    overrides: dict[str, int] = {"target": target} if target else {}
    return variants.rules(str(params["variant"]), players=players, **overrides)


class CaptureGame(pyspiel.Game):
    """One hand of a capture game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.rules = _rules(params)
        n = self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(),
            max_chance_outcomes=_OUTCOMES,
            num_players=n,
            # A hand's margin is at most what one side can score in it.
            min_utility=-float(self.rules.max_hand_points),
            max_utility=float(self.rules.max_hand_points),
            utility_sum=0.0,
            # 40 plays, 40 takes, a finish per move, cut decisions and claims: under 200.
            max_game_length=200,
        )
        # The game's parameters are the resolved ones (`players=0`, `target=0` in a request mean
        # the preset's), so `str(game)` names the game played and loads it again.
        resolved = {
            "variant": str(params["variant"]),
            "players": n,
            "target": self.rules.target,
        }
        super().__init__(_GAME_TYPE, info, resolved)

    def new_initial_state(self) -> CaptureState:
        return CaptureState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.rules, perfect_recall)


class CaptureState(pyspiel.State):
    """A hand in progress: the deal's chance outcomes, then an `ActionState`."""

    def __init__(self, game: CaptureGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._deal: list[int] = []
        self._state: ActionState | None = None
        # Every card each seat has held in the hand so far.
        self._held: list[set[Card]] = []
        # (seat, played card id, captured card ids) of every card played so far.
        self._moves: list[tuple[int, int, tuple[int, ...]]] = []
        # The action state after the deal and after each action since: what the
        # information-state strings are read from.
        self._steps: list[ActionState] = []
        # Per player, what it saw change at each step read so far, and its observation at the
        # last: the information-state string, extended as steps are added.
        self._seen: dict[int, tuple[list[str], np.ndarray[Any, Any]]] = {}

    def current_player(self) -> int:
        if self._state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._state.state.hand_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self._state.state.to_move
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self._state is not None
        return self._state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / _OUTCOMES
        return [(o, p) for o in range(_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        if self._state is None:
            self._deal.append(int(action))
            if len(self._deal) == _CHANCE_NODES:
                seed = 0
                for outcome in self._deal:
                    seed = seed * _OUTCOMES + outcome
                self._state = ActionState(State.new(self._rules, seed))
                self._held = [set() for _ in range(self._rules.players)]
                self._record()
            return
        seat = self._state.state.to_move
        assert seat is not None
        self._state, move = self._state.apply(int(action))
        # Played cards only: a cut decision plays none (and a kept cut card is hidden).
        if move is not None and move.kind in ("play", "claim"):
            self._moves.append((seat, move.card.id, tuple(c.id for c in move.captures)))
        self._record()

    def _record(self) -> None:
        """Keeps the action state reached, and the cards each seat holds in it."""
        assert self._state is not None
        self._steps.append(self._state)
        for held, hand in zip(self._held, self._state.state.hands, strict=True):
            held.update(hand)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return action_name(int(action))

    def is_terminal(self) -> bool:
        return self._state is not None and self._state.state.hand_over

    def returns(self) -> list[float]:
        n = self._rules.players
        if self._state is None:
            return [0.0] * n
        margins = self._state.hand_margins()
        if margins is None:
            return [0.0] * n
        sides = self._state.sides
        return [float(margins[sides[s]]) for s in range(n)]

    def __str__(self) -> str:
        if self._state is None:
            return f"dealing {self._deal}"
        return str(self._state.state)


class _Observer:
    """The observation (or, with perfect recall, information-state) tensor of a player."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self._perfect_recall = perfect_recall
        self._n = rules.players
        pieces = [(name, length) for name, _, length in observation_fields(rules)]
        if perfect_recall:
            pieces += [("held", 40), ("played_by", 40 * self._n), ("captured_at", 40)]
        self.tensor = np.zeros(sum(length for _, length in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        for name, length in pieces:
            self.dict[name] = self.tensor[at : at + length]
            at += length
        self._obs_len = sum(length for _, _, length in observation_fields(rules))

    def set_from(self, state: CaptureState, player: int) -> None:
        self.tensor.fill(0.0)
        if state._state is None:
            return
        self.tensor[: self._obs_len] = state._state.observation(player)
        if not self._perfect_recall:
            return
        for held in state._held[player]:
            self.dict["held"][held.id] = 1.0
        played, captured = self.dict["played_by"], self.dict["captured_at"]
        for k, (seat, card, taken) in enumerate(state._moves):
            when = (k + 1) / _MOVE_SCALE
            rel = (seat - player) % self._n
            played[40 * rel + card] = when
            for c in taken:
                captured[c] = when

    def string_from(self, state: CaptureState, player: int) -> str:
        if state._state is None:
            return f"p{player} dealing"
        if not self._perfect_recall:
            obs = state._state.observation(player)
            return f"p{player} " + _entries(obs, np.flatnonzero(obs))
        # What the player saw change at each step: the observation before the deal is all
        # zeros, so the sequence of changes is the sequence of observations. Each step is read
        # once per player: the lists and the dict are replaced, never changed in place, so a
        # clone that shares them keeps its own.
        start = ([f"p{player}"], np.zeros(self._obs_len, np.float32))
        seen, before = state._seen.get(player, start)
        if len(seen) - 1 < len(state._steps):
            seen = list(seen)
            for step in state._steps[len(seen) - 1 :]:
                now = step.observation(player)
                seen.append(_entries(now, np.flatnonzero(now != before)))
                before = now
            state._seen = {**state._seen, player: (seen, before)}
        return " | ".join(seen)


def _entries(obs: np.ndarray[Any, Any], at: np.ndarray[Any, Any]) -> str:
    """The entries of `obs` at `at`, as `index:value`."""
    return " ".join(f"{i}:{obs[i]:g}" for i in at)


pyspiel.register_game(_GAME_TYPE, CaptureGame)
