"""A PettingZoo AEC environment of every seat (extra `capturefast[pettingzoo]`).

`CaptureAECEnv` plays one hand an episode: agents `player_0` ... `player_{n-1}` are the seats,
the agent to act is the seat to move, and an observation is a dict of the seat's
`observation` (float32, the core's layout, docs/learning.md) and its `action_mask` (int8, all
zeros for an agent not to act), as PettingZoo's card games do. When the hand is over every
agent is terminated and rewarded with its side's point difference for the hand.

Actions are the core's ids. An illegal action raises `IllegalMoveError` and changes nothing
(PettingZoo's convention is to raise, or to wrap the env in its `TerminateIllegalWrapper`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from capturefast._core import ActionState, Rules, State, num_actions, observation_fields
from capturefast.envs._common import rules_arg
from capturefast.errors import ArgumentError, IllegalMoveError

__all__ = ["CaptureAECEnv", "env"]


class CaptureAECEnv(AECEnv[str, dict[str, Any], int]):
    """Every seat of one game, one hand an episode.

    Args:
        rules: the game, or a preset's name such as `"escoba"` (default: 2-player Scopa).
        render_mode: `None` or `ansi` (the state as text).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "capturefast_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: Rules | str | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ArgumentError(f"render_mode expects None or `ansi`: {render_mode!r}")
        self.render_mode = render_mode
        self.rules = rules_arg(rules)
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents: list[str] = []
        size = sum(length for _, _, length in observation_fields(self.rules))
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(num_actions(),), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(num_actions()))
        self._rng = np.random.default_rng()
        self._state: ActionState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new hand: from `seed`, or from the env's own generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(0, 2**63 - 1))
        self._state = ActionState(State.new(self.rules, deal))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self._state is not None
        seat = self._state.state.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        if self._state is None:
            raise IllegalMoveError("no hand is dealt: call reset() before observe()")
        if agent not in self.possible_agents:
            raise ArgumentError(f"agent must be one of {self.possible_agents}, got: {agent!r}")
        seat = self.possible_agents.index(agent)
        mask = np.zeros(num_actions(), dtype=np.int8)
        if self._state.state.to_move == seat:
            mask[self._state.legal_actions()] = 1
        return {"observation": self._state.observation(seat), "action_mask": mask}

    def step(self, action: int) -> None:
        if self._state is None:
            raise IllegalMoveError("no hand is dealt: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._state, _ = self._state.apply(action)
        self._cumulative_rewards[agent] = 0.0
        margins = self._state.hand_margins()
        if margins is not None:
            sides = self._state.sides
            for s, a in enumerate(self.agents):
                self.rewards[a] = float(margins[sides[s]])
                self.terminations[a] = True
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The state as text under `render_mode="ansi"`."""
        if self.render_mode == "ansi" and self._state is not None:
            return str(self._state.state)
        return None

    def close(self) -> None:
        pass


def env(rules: Rules | str | None = None, render_mode: str | None = None) -> CaptureAECEnv:
    """A `CaptureAECEnv` (PettingZoo's module-level constructor)."""
    return CaptureAECEnv(rules, render_mode=render_mode)
