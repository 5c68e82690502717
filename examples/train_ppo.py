"""Train a masked PPO policy for 2-player Scopa on capturefast's vector env, on one CPU core.

    pip install -e ".[examples]"       # torch, matplotlib
    python examples/train_ppo.py       # about 25 minutes on one core

The learner sits in seat 0 of a `capturefast.envs.VecEnv` (the dealer is drawn per deal, so it
plays both positions) and acts in the env's 84-id action space under the exact action mask;
an episode is one hand, rewarded with the learner's point difference. Stage 1 trains against
`random`, stage 2 against `greedy`. The PPO is the usual clipped-objective one (one network
with a policy and a value head, GAE, several epochs of minibatches per rollout), with the
logits of illegal actions masked out.

Every `--eval-every` steps, the policy (its most likely action at each decision) plays a
duplicate simulation against `random` and against `greedy` through `cf.simulate(...,
duplicate=True)`, seated as a Python bot (`PolicyBot`): each deal is played twice with the
seats swapped, and the figure is the mean of its points per hand minus the opponent's, with a
95% confidence interval over deals. The curve goes to a CSV and a PNG (docs/learning.md
shows both).
"""

from __future__ import annotations

import argparse
import csv
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import capturefast as cf
import matplotlib
import numpy as np
import torch
from capturefast.envs import ActionState, VecEnv
from capturefast.sim import Estimate
from torch import nn

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt

RULES = cf.Rules.scopa(players=2)
OBS_SIZE = VecEnv(RULES, 1, threads=1).obs_size
EVAL_SEED = 7  # every checkpoint plays the same deals, so the curve compares like with like
FINAL_SEED = 8  # the final figures are measured on other deals than the curve's


class Agent(nn.Module):
    """A shared two-layer trunk with a policy head (logits over the actions) and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)
        # Small initial logits: the first policy is close to uniform over the legal actions.
        nn.init.orthogonal_(self.policy.weight, gain=0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits `(B, num_actions)` (illegal actions at -1e9) and values `(B,)`."""
        h: torch.Tensor = self.trunk(obs)
        logits: torch.Tensor = self.policy(h)
        value: torch.Tensor = self.value(h)
        return logits.masked_fill(~mask, -1e9), value.squeeze(-1)


def chosen(logp: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
    """The log-probabilities `(B,)` of `actions` under the log-policy `logp` `(B, A)`."""
    return logp.gather(1, actions.unsqueeze(1)).squeeze(1)


def entropy(logp: torch.Tensor) -> torch.Tensor:
    """The entropy `(B,)` of each row of `logp` (masked actions have probability 0)."""
    return -(logp.exp() * logp).sum(-1)


class PolicyBot:
    """The agent as a capturefast Python bot: the most likely action at each decision.

    `simulate` hands it the seat's `View`. The observation is a function of the view alone,
    so any world drawn from the view (`determinize`) gives the env's observation; the move is
    then built action by action in an `ActionState` until it is complete.
    """

    name = "ppo"

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def choose(self, view: cf.View, /) -> cf.Move:
        """The move the policy builds in this view."""
        state = ActionState(view.determinize(0))
        with torch.inference_mode():
            while True:
                obs = torch.from_numpy(state.observation(view.seat)).unsqueeze(0)
                mask = torch.from_numpy(state.action_mask()).unsqueeze(0)
                logits, _ = self.agent(obs, mask)
                state, move = state.apply(int(logits.argmax()))
                if move is not None:
                    return move


def evaluate(agent: Agent, opponent: str, deals: int, seed: int) -> Estimate:
    """Points per hand of the policy minus `opponent`'s over `deals` duplicate deals."""
    result = cf.simulate(
        RULES, hands=deals, bots=(PolicyBot(agent), opponent), duplicate=True, seed=seed
    )
    return result.summary().difference


@dataclass(frozen=True)
class Config:
    """What a run does; every field is a command-line option."""

    steps_random: int = 6_000_000
    steps_greedy: int = 14_000_000
    num_envs: int = 256
    rollout: int = 32
    epochs: int = 4
    minibatches: int = 4
    lr: float = 1e-3
    gamma: float = 1.0
    gae_lambda: float = 0.9
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    reward_scale: float = 0.25
    hidden: int = 256
    eval_every: int = 2_000_000
    eval_deals: int = 2_000
    final_deals: int = 10_000
    seed: int = 1
    csv: Path = Path("docs/learning_curve.csv")
    plot: Path = Path("docs/learning_curve.png")
    save: Path | None = None


@dataclass(frozen=True)
class Point:
    """One row of the curve: a checkpoint's figures against both bots.

    `step` counts learner steps (actions) over all games, `stage` the opponent trained
    against so far, `minutes` the wall time since the start (evaluations included); each
    `*_mean` is the policy's points per hand minus that bot's over `deals` duplicate deals,
    `*_low` and `*_high` the ends of its 95% interval.
    """

    step: int
    stage: str
    minutes: float
    deals: int
    random_mean: float
    random_low: float
    random_high: float
    greedy_mean: float
    greedy_low: float
    greedy_high: float


class Trainer:
    """PPO over a `VecEnv`: rollouts of `rollout` steps of every game, then minibatch epochs."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.agent = Agent(OBS_SIZE, VecEnv.num_actions, config.hidden)
        self.optimizer = torch.optim.Adam(self.agent.parameters(), lr=config.lr, eps=1e-5)
        self.step = 0
        self.start = time.perf_counter()
        self.curve: list[Point] = []

    def train(self, opponent: str, steps: int) -> None:
        """Trains against `opponent` for `steps` learner steps, measuring on the way."""
        c = self.config
        env = VecEnv(RULES, c.num_envs, seats=[None, opponent], threads=1)
        obs_np, mask_np, _, _, _, _ = env.reset(seed=c.seed + self.step)
        n, t_len = c.num_envs, c.rollout
        obs = torch.zeros((t_len, n, env.obs_size))
        masks = torch.zeros((t_len, n, VecEnv.num_actions), dtype=torch.bool)
        actions = torch.zeros((t_len, n), dtype=torch.int64)
        logprobs = torch.zeros((t_len, n))
        rewards = torch.zeros((t_len, n))
        dones = torch.zeros((t_len, n))
        values = torch.zeros((t_len, n))
        next_obs = torch.from_numpy(obs_np.copy())
        next_mask = torch.from_numpy(mask_np.copy())
        next_done = torch.zeros(n)
        end = self.step + steps
        while self.step < end:
            for t in range(t_len):
                obs[t], masks[t], dones[t] = next_obs, next_mask, next_done
                with torch.no_grad():
                    logits, value = self.agent(next_obs, next_mask)
                logp = logits.log_softmax(-1)
                action = torch.multinomial(logp.exp(), 1).squeeze(-1)
                actions[t], logprobs[t], values[t] = action, chosen(logp, action), value
                obs_np, mask_np, reward, terminated, truncated, _ = env.step(action.numpy())
                rewards[t] = torch.from_numpy(reward * c.reward_scale)
                next_obs = torch.from_numpy(obs_np.copy())
                next_mask = torch.from_numpy(mask_np.copy())
                next_done = torch.from_numpy((terminated | truncated).astype(np.float32))
            with torch.no_grad():
                _, next_value = self.agent(next_obs, next_mask)
            self.update(
                obs, masks, actions, logprobs, rewards, dones, values, next_value, next_done
            )
            before, self.step = self.step, self.step + t_len * n
            if self.step // c.eval_every > before // c.eval_every or self.step >= end:
                self.measure(opponent)

    def update(
        self,
        obs: torch.Tensor,
        masks: torch.Tensor,
        actions: torch.Tensor,
        logprobs: torch.Tensor,
        rewards: torch.Tensor,
        dones: torch.Tensor,
        values: torch.Tensor,
        next_value: torch.Tensor,
        next_done: torch.Tensor,
    ) -> None:
        """One PPO update from a rollout (`dones[t]`: step `t` starts a new episode)."""
        c = self.config
        t_len = rewards.shape[0]
        advantages = torch.zeros_like(rewards)
        last = torch.zeros_like(next_value)
        for t in reversed(range(t_len)):
            if t == t_len - 1:
                keep, after = 1.0 - next_done, next_value
            else:
                keep, after = 1.0 - dones[t + 1], values[t + 1]
            delta = rewards[t] + c.gamma * after * keep - values[t]
            last = delta + c.gamma * c.gae_lambda * keep * last
            advantages[t] = last
        returns = advantages + values
        b_obs, b_masks = obs.flatten(0, 1), masks.flatten(0, 1)
        b_actions, b_logprobs = actions.flatten(), logprobs.flatten()
        b_adv, b_returns = advantages.flatten(), returns.flatten()
        size = b_obs.shape[0]
        mb = size // c.minibatches
        for _ in range(c.epochs):
            order = torch.randperm(size)
            for start in range(0, size, mb):
                idx = order[start : start + mb]
                logits, value = self.agent(b_obs[idx], b_masks[idx])
                logp = logits.log_softmax(-1)
                ratio = (chosen(logp, b_actions[idx]) - b_logprobs[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clipped = ratio.clamp(1 - c.clip, 1 + c.clip)
                policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
                value_loss = 0.5 * (value - b_returns[idx]).square().mean()
                loss = policy_loss + c.vf_coef * value_loss - c.ent_coef * entropy(logp).mean()
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.agent.parameters(), 0.5)
                self.optimizer.step()

    def measure(self, stage: str) -> None:
        """Plays the duplicate evaluation against both bots and appends it to the curve."""
        c = self.config
        vs_random = evaluate(self.agent, "random", c.eval_deals, EVAL_SEED)
        vs_greedy = evaluate(self.agent, "greedy", c.eval_deals, EVAL_SEED)
        point = Point(
            step=self.step,
            stage=stage,
            minutes=(time.perf_counter() - self.start) / 60,
            deals=c.eval_deals,
            random_mean=vs_random.mean,
            random_low=vs_random.low,
            random_high=vs_random.high,
            greedy_mean=vs_greedy.mean,
            greedy_low=vs_greedy.low,
            greedy_high=vs_greedy.high,
        )
        self.curve.append(point)
        print(
            f"step {self.step:>11,}  {point.minutes:5.1f} min"
            f"  vs random {vs_random.format(sign=True)}  vs greedy {vs_greedy.format(sign=True)}",
            flush=True,
        )


def write_csv(curve: list[Point], path: Path) -> None:
    """The curve, one row per checkpoint."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(asdict(curve[0])))
        writer.writeheader()
        for point in curve:
            writer.writerow(
                {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(point).items()}
            )


def draw(curve: list[Point], switch: int, greedy_vs_random: Estimate, path: Path) -> None:
    """Points per hand against each bot over training steps, with the 95% intervals."""
    steps = np.array([p.step for p in curve]) / 1e6
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    for name, color in (("random", "tab:blue"), ("greedy", "tab:orange")):
        mean = np.array([getattr(p, f"{name}_mean") for p in curve])
        low = np.array([getattr(p, f"{name}_low") for p in curve])
        high = np.array([getattr(p, f"{name}_high") for p in curve])
        ax.plot(steps, mean, marker="o", ms=3, color=color, label=f"PPO minus {name}")
        ax.fill_between(steps, low, high, color=color, alpha=0.25, lw=0)
    ax.axhline(0, color="black", lw=0.8)
    ax.axhline(
        greedy_vs_random.mean, color="tab:gray", ls=":", label="greedy minus random (reference)"
    )
    ax.axvline(switch / 1e6, color="tab:gray", ls="--", lw=0.8)
    ax.text(switch / 1e6, ax.get_ylim()[0], "  against greedy from here", va="bottom", fontsize=8)
    ax.set_xlabel("learner steps (millions)")
    ax.set_ylabel("points per hand, difference (95% CI)")
    ax.set_title(f"2-player Scopa, duplicate deals ({curve[0].deals:,} per point)")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def parse_args() -> Config:
    """A `Config` from the command line (defaults: `Config`'s)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, default in asdict(Config()).items():
        kind = float if isinstance(default, float) else int if isinstance(default, int) else Path
        flag = "--" + name.replace("_", "-")
        parser.add_argument(flag, type=kind, default=default, help=f"default: {default}")
    return Config(**vars(parser.parse_args()))


def main() -> None:
    """Stage 1 against random, stage 2 against greedy, then the final figures and the plot."""
    config = parse_args()
    torch.set_num_threads(1)  # one core: the env runs on one thread too (`threads=1`)
    torch.manual_seed(config.seed)
    trainer = Trainer(config)
    trainer.measure("start")
    trainer.train("random", config.steps_random)
    trainer.train("greedy", config.steps_greedy)
    minutes = (time.perf_counter() - trainer.start) / 60
    write_csv(trainer.curve, config.csv)
    reference = (
        cf.simulate(
            RULES,
            hands=config.eval_deals,
            bots=("greedy", "random"),
            duplicate=True,
            seed=EVAL_SEED,
        )
        .summary()
        .difference
    )
    draw(trainer.curve, config.steps_random, reference, config.plot)
    if config.save is not None:
        torch.save(trainer.agent.state_dict(), config.save)
    final = {
        opponent: evaluate(trainer.agent, opponent, config.final_deals, FINAL_SEED)
        for opponent in ("random", "greedy")
    }
    print(f"{trainer.step:,} learner steps in {minutes:.1f} min on one core")
    for opponent, estimate in final.items():
        low, high = estimate.low, estimate.high
        print(
            f"final, {config.final_deals:,} duplicate deals: PPO minus {opponent} "
            f"{estimate.format(sign=True)} points per hand (95% CI {low:+.3f} to {high:+.3f})"
        )
    print(f"curve: {config.csv}, plot: {config.plot}")


if __name__ == "__main__":
    main()
