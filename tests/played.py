"""Hands played by `expert` in every seat, as the history a search or a bot is told: each
state with the move played in it."""

from __future__ import annotations

import capturefast as cf


def expert_history(
    rules: cf.Rules, seed: int, plies: int | None = None
) -> tuple[cf.State, list[tuple[cf.State, cf.Move]]]:
    """The hand dealt from `seed` after `plies` moves of `expert` (None: to its end), and each
    move with the state before it."""
    bot, state = cf.Bot("expert", seed=seed), cf.State.new(rules, seed=seed)
    played: list[tuple[cf.State, cf.Move]] = []
    while not state.hand_over and (plies is None or len(played) < plies):
        move = bot.choose(state)
        played.append((state, move))
        state = state.play(move)
    return state, played
