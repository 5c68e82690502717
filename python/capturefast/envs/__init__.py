"""Learning environments over the core's vector env (docs/learning.md).

Each adapter lives in its own module and imports its framework there, so the base install
needs none of them:

- `capturefast.envs.gym`: `CaptureEnv`, a Gymnasium single-agent env (the learner in one seat,
  built-in bots in the others), and `CaptureVectorEnv`, a `gymnasium.vector.VectorEnv`
  (extra `capturefast[gym]`);
- `capturefast.envs.pettingzoo`: `CaptureAECEnv`, a PettingZoo AEC env of all seats (extra
  `capturefast[pettingzoo]`);
- `capturefast.envs.openspiel`: the game `python_capturefast` registered with OpenSpiel
  (extra `capturefast[openspiel]`).

The action space, the observation layout and the rewards are the core's
(`capturefast._core.VecEnv`, `capturefast._core.ActionState`); `random_actions` draws a
uniformly random legal action per game from a `VecEnv`'s mask.
"""

from __future__ import annotations

from capturefast._core import (
    ActionState,
    VecEnv,
    action_name,
    actions_of,
    num_actions,
    observation_fields,
)
from capturefast.envs._common import random_actions, seat_players

__all__ = [
    "ActionState",
    "VecEnv",
    "action_name",
    "actions_of",
    "num_actions",
    "observation_fields",
    "random_actions",
    "seat_players",
]
