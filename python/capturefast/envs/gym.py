"""Gymnasium environments over the core's vector env (extra `capturefast[gym]`).

- `CaptureEnv`: one game, the learner in one seat and built-in bots in the others, stepped in
  Rust (the bots' moves too). It passes `gymnasium.utils.env_checker.check_env`. The mask of
  legal actions is `info["action_mask"]` and `env.action_masks()` (what sb3-contrib's
  `MaskablePPO` reads).
- `CaptureVectorEnv`: a `gymnasium.vector.VectorEnv` of `num_envs` games in one Rust call,
  with the same-step autoreset of the core (`metadata["autoreset_mode"]`).

Importing this module registers `CaptureEnv` as `ENV_ID` (`"capturefast/Capture-v0"`), so
`gymnasium.make("capturefast/Capture-v0", rules="escoba", opponents="greedy")` builds it with
Gymnasium's usual wrappers (the order of `reset` and `step` enforced, the passive checker);
`gymnasium.make("capturefast.envs.gym:capturefast/Capture-v0")` imports the module first.

Illegal actions follow Gymnasium's convention rather than the core's: `check_env` samples
actions without the mask, so `CaptureEnv(illegal_action="terminate")` (the default) ends the
episode with `illegal_reward` for the learner, as PettingZoo's `TerminateIllegalWrapper` does;
`illegal_action="raise"` raises the core's `IllegalMoveError` and changes nothing. The vector
env always raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from capturefast._core import Rules, VecEnv
from capturefast.envs._common import rules_arg, seat_players
from capturefast.errors import ArgumentError

__all__ = ["ENV_ID", "CaptureEnv", "CaptureVectorEnv"]

ENV_ID = "capturefast/Capture-v0"

_ILLEGAL = ("terminate", "raise")

Obs = npt.NDArray[np.float32]


def _observation_space(size: int) -> spaces.Box:
    # Every field is at least 0; the scores (score / target) may pass 1, so no upper bound.
    return spaces.Box(low=0.0, high=np.inf, shape=(size,), dtype=np.float32)


class CaptureEnv(gym.Env[Obs, np.int64]):
    """One game of Scopa, Escoba or Chkobba for a learner against built-in bots.

    Args:
        rules: the game, or a preset's name such as `"escoba"` (default: 2-player Scopa).
        seat: the learner's seat.
        opponents: the bot of every other seat (`random`, `random_card`, `greedy`, `expert`,
            `pimc`, `ismcts`), or one name per other seat.
        reward: `hand` (an episode is a hand, rewarded with the learner's side's point
            difference) or `match` (an episode is a match, +1 won, -1 lost).
        illegal_action: `terminate` (the episode ends with `illegal_reward`) or `raise`.
        illegal_reward: the reward of an illegal action under `terminate`.
        max_steps: truncate an episode after this many steps (0: never).
        render_mode: `None` or `ansi` (the state as text).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        rules: Rules | str | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        reward: str = "hand",
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        max_steps: int = 0,
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules_arg(rules)
        if illegal_action not in _ILLEGAL:
            raise ArgumentError(
                f"illegal_action expects `terminate` or `raise`: {illegal_action!r}"
            )
        if render_mode not in (None, "ansi"):
            raise ArgumentError(f"render_mode expects None or `ansi`: {render_mode!r}")
        self.render_mode = render_mode
        self.seat = seat
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        seats = seat_players(self.rules, seat, opponents)
        self._env = VecEnv(
            self.rules, 1, seats=seats, reward=reward, max_steps=max_steps, threads=1
        )
        self.action_space = spaces.Discrete(VecEnv.num_actions)
        self.observation_space = cast("spaces.Space[Obs]", _observation_space(self._env.obs_size))
        self._mask = np.zeros(VecEnv.num_actions, dtype=bool)
        # Whether the core's game is at the start of an episode nobody has played yet (after
        # its auto-reset), which the next `reset()` then hands out as it is.
        self._fresh = False
        self._started = False

    def _info(self, mask: npt.NDArray[np.bool_]) -> dict[str, Any]:
        self._mask = mask[0].copy()
        return {"action_mask": self._mask.copy()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Starts an episode: from `seed`, or the next one of the env's stream."""
        super().reset(seed=seed)
        if seed is None and not self._started:
            # Gymnasium's generator, seeded from the OS unless a seed was given.
            seed = int(self.np_random.integers(0, 2**63 - 1))
        self._started, fresh, self._fresh = True, self._fresh, False
        if seed is None and fresh:
            # The core has dealt the next episode already (auto-reset after the last step).
            return self._env.observe(0, self.seat), {"action_mask": self._mask.copy()}
        obs, mask, *_ = self._env.reset(seed=seed)
        return obs[0].copy(), self._info(mask)

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Takes one action of the learner; the bots reply inside the core."""
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise ArgumentError(f"an action is an int id: {action!r}") from None
        legal = 0 <= a < VecEnv.num_actions and self._mask[a]
        if not legal and self.illegal_action == "terminate":
            info = {"action_mask": self._mask.copy(), "illegal_action": True}
            obs = self._env.observe(0, self.seat)
            self._fresh = False
            return obs, self.illegal_reward, True, False, info
        obs, mask, reward, terminated, truncated = self._env.step_one(0, a)
        self._fresh = terminated or truncated
        # The next decision's mask (the next episode's after an auto-reset).
        self._mask = mask
        return obs, reward, terminated, truncated, {"action_mask": mask.copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the current decision (bool, `num_actions`)."""
        return self._mask

    def render(self) -> str | None:
        """The state as text under `render_mode="ansi"`."""
        if self.render_mode == "ansi":
            return str(self._env.state(0))
        return None


class CaptureVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """`num_envs` games stepped in one call of the core, with the Gymnasium vector API.

    Observations are `(num_envs, obs_size)` float32, actions `(num_envs,)` ints; the infos hold
    `action_mask` `(num_envs, num_actions)`, `seat` and, for games whose episode ended in the
    step (same-step autoreset: the observation returned is the next episode's first),
    `final_obs` with its mask `_final_obs`. An illegal action raises `IllegalMoveError` and
    moves no game.

    Args:
        rules: the game, or a preset's name such as `"escoba"` (default: 2-player Scopa).
        num_envs: the number of games.
        seats: each seat's player: `None` for a learner seat, or a bot name (default: the
            learner in seat 0, `random` elsewhere).
        reward: `hand` or `match`.
        max_steps: truncate an episode after this many steps (0: never).
        threads: worker threads (0: one per core).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        rules: Rules | str | None = None,
        num_envs: int = 1,
        *,
        seats: Sequence[str | None] | None = None,
        reward: str = "hand",
        max_steps: int = 0,
        threads: int = 0,
    ) -> None:
        self.rules = rules_arg(rules)
        self._env = VecEnv(
            self.rules, num_envs, seats=seats, reward=reward, max_steps=max_steps, threads=threads
        )
        self.num_envs = num_envs
        self.single_observation_space = _observation_space(self._env.obs_size)
        self.single_action_space = spaces.Discrete(VecEnv.num_actions)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self._started = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Resets every game: from `seed` (game `i` from a seed derived from it), or each
        game's next episode."""
        if isinstance(seed, list):
            raise ArgumentError("the games' seeds derive from one int seed, got a list")
        if seed is None and not self._started:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)
        self._started = True
        obs, mask, _, _, _, seat = self._env.reset(seed=seed)
        return obs.copy(), {"action_mask": mask.copy(), "seat": seat.copy()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Takes one action per game."""
        a = np.asarray(actions)
        if a.dtype != np.int64 and np.issubdtype(a.dtype, np.integer):
            a = a.astype(np.int64)
        obs, mask, reward, terminated, truncated, seat = self._env.step(a)
        ended = terminated | truncated
        info: dict[str, Any] = {"action_mask": mask.copy(), "seat": seat.copy()}
        if ended.any():
            info["final_obs"] = self._env.final_obs.copy()
            info["_final_obs"] = ended.copy()
        return obs.copy(), reward.copy(), terminated.copy(), truncated.copy(), info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game's current decision (bool, `(num_envs, num_actions)`)."""
        return self._env.current()[1].copy()


if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="capturefast.envs.gym:CaptureEnv")
