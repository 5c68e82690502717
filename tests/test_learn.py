"""The learning interfaces from Python: the action space against the reference engine, the
vector env's arrays and errors, and the framework adapters through their own checkers
(Gymnasium's `check_env`, PettingZoo's `api_test` and seed test, OpenSpiel's
`random_sim_test` and its MCTS bot).
"""

from __future__ import annotations

import doctest
import pathlib
import pickle
import random
import threading
import warnings
from typing import Any

import capturefast as cf
import numpy as np
import pytest
from capturefast import variants
from capturefast.envs import (
    ActionState,
    VecEnv,
    action_name,
    actions_of,
    num_actions,
    random_actions,
)
from reference import RefRules, RefState, format_move

PRESETS = variants.preset_names()


def _walk(state: ActionState, out: dict[str, int]) -> None:
    """Every action sequence from `state` to a completed move, counted per move."""
    for a in state.legal_actions():
        nxt, move = state.apply(a)
        if move is None:
            _walk(nxt, out)
        else:
            out[str(move)] = out.get(str(move), 0) + 1


CASES = [
    pytest.param(p, n, id=f"{p}-{n}p")
    for p in PRESETS
    for n in (2, 4)
    if n == 4 or variants.PRESETS[p].overrides.get("players", 2) == 2
]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_action_sequences_reach_the_reference_engines_moves_once(preset: str, players: int) -> None:
    rules = variants.rules(preset, players=players)
    overrides = {k: v for k, v in variants.PRESETS[preset].overrides.items() if k != "players"}
    ref_rules = RefRules(rules.game, players, **overrides)
    rng = random.Random(f"{preset}-{players}")
    for seed in range(12):
        state = cf.State.new(rules, seed)
        ref = RefState.new(ref_rules, seed)
        while not state.hand_over:
            reached: dict[str, int] = {}
            _walk(ActionState(state), reached)
            want = sorted(format_move(m) for m in ref.legal_moves())
            assert sorted(reached) == want
            assert set(reached.values()) == {1}
            move = rng.choice(state.legal_moves())
            assert actions_of(state, move)[0] in ActionState(state).legal_actions()
            state, ref = state.play(move), ref.play(str(move))


def test_action_names_and_bad_ids() -> None:
    assert num_actions() == 84
    assert [action_name(a) for a in (0, 40 + 25, 80, 81, 82, 83)] == [
        "play AC",
        "take 7D",
        "finish",
        "keep",
        "table",
        "claim",
    ]
    for bad in (84, -1):
        with pytest.raises(cf.ArgumentError, match=f"action must be from 0 to 83, got: {bad}"):
            action_name(bad)
    state = ActionState(cf.State.new(cf.Rules.scopa(), 1))
    illegal = next(a for a in range(84) if a not in state.legal_actions())
    with pytest.raises(cf.IllegalMoveError, match=f"not a legal action now: {illegal}"):
        state.apply(illegal)


def _env(num_envs: int = 8, **kw: object) -> VecEnv:
    return VecEnv(cf.Rules.scopa(), num_envs, **kw)  # type: ignore[arg-type]


def test_random_actions_are_legal_and_uniform_within_each_row() -> None:
    rng = np.random.default_rng(3)
    mask = np.zeros((6, 84), dtype=bool)
    for row, legal in enumerate([[0], [5, 83], [1, 2, 3], list(range(84)), [40, 80, 81], [7]]):
        mask[row, legal] = True
    draws = np.stack([random_actions(mask, rng) for _ in range(6000)])
    assert draws.dtype == np.int64 and draws.shape == (6000, 6)
    for row in range(6):
        legal = np.flatnonzero(mask[row])
        counts = np.array([(draws[:, row] == a).sum() for a in legal])
        assert counts.sum() == 6000, "every draw is legal"
        expected = 6000 / len(legal)
        # Binomial spread: 5 standard deviations either side of the expected count.
        spread = 5 * np.sqrt(expected * (1 - 1 / len(legal))) + 1
        assert np.abs(counts - expected).max() <= spread, (row, counts)
    with pytest.raises(cf.ArgumentError, match="row 1 has none"):
        random_actions(np.array([[True, False], [False, False]]), rng)
    with pytest.raises(cf.ArgumentError, match="2-D bool or 0/1 mask"):
        random_actions(np.ones((2, 3), dtype=np.float32), rng)
    with pytest.raises(cf.ArgumentError, match="2-D bool or 0/1 mask"):
        random_actions(np.ones(3, dtype=bool), rng)
    # PettingZoo's int8 masks: nonzero is legal.
    int_mask = np.array([[0, 1, 0, 1], [1, 0, 0, 0]], dtype=np.int8)
    for _ in range(20):
        picks = random_actions(int_mask, rng)
        assert picks[0] in (1, 3) and picks[1] == 0
    assert random_actions(np.zeros((0, 84), dtype=bool), rng).shape == (0,)


def test_vec_env_arrays_have_fixed_dtypes_and_shapes() -> None:
    env = _env(8)
    obs, mask, reward, terminated, truncated, seat = env.reset(seed=1)
    assert obs.shape == (8, env.obs_size) and obs.dtype == np.float32
    assert mask.shape == (8, 84) and mask.dtype == np.bool_
    assert reward.shape == (8,) and reward.dtype == np.float32
    assert terminated.dtype == truncated.dtype == np.bool_
    assert seat.dtype == np.int64 and (seat == 0).all()
    assert env.side_rewards.shape == (8, 2) and env.final_obs.shape == obs.shape
    fields = env.observation_fields()
    assert sum(length for _, _, length in fields) == env.obs_size
    assert env.seats == [None, "random"] and env.sides == [0, 1]
    assert mask.any(1).all()


def test_vec_env_is_deterministic_and_auto_resets() -> None:
    def run(threads: int) -> list[np.ndarray]:
        env = _env(64, threads=threads, seats=[None, "greedy"])
        out = list(env.reset(seed=5))
        rng = np.random.default_rng(0)
        seen = []
        for _ in range(60):
            out = list(env.step(random_actions(out[1], rng)))
            seen += [a.copy() for a in out]
        return seen

    one, two = run(1), run(2)
    assert all((a == b).all() for a, b in zip(one, two, strict=True))
    terminated = np.concatenate([a for a in one[3::6]])
    assert terminated.any(), "hands ended and the games went on"


def test_vec_env_refuses_bad_actions_and_moves_no_game() -> None:
    env = _env(4)
    obs, mask, *_ = env.reset(seed=2)
    before = [env.state(i).to_bytes() for i in range(4)]
    obs0 = obs.copy()
    good = random_actions(mask, np.random.default_rng(1))
    bad = good.copy()
    bad[2] = next(a for a in range(84) if not mask[2, a])
    with pytest.raises(cf.IllegalMoveError, match=f"game 2 of the env .*: {bad[2]}"):
        env.step(bad)
    for actions, pattern in [
        (good[:3], "needs one action each"),
        (good.astype(np.float32), "int64 array"),
        ("play", "int64 array"),
    ]:
        with pytest.raises(cf.ArgumentError, match=pattern):
            env.step(actions)
    assert [env.state(i).to_bytes() for i in range(4)] == before
    assert (env.current()[0] == obs0).all()
    env.step(good)


def test_vec_env_config_errors() -> None:
    with pytest.raises(cf.ArgumentError, match="num_envs"):
        _env(0)
    with pytest.raises(cf.ArgumentError, match="learner"):
        _env(2, seats=["random", "random"])
    with pytest.raises(cf.VariantError, match="unknown bot"):
        _env(2, seats=[None, "nobody"])
    with pytest.raises(cf.ArgumentError, match="reward"):
        _env(2, reward="points")
    env = _env(2)
    with pytest.raises(cf.ArgumentError, match="game must be an integer from 0 to"):
        env.state(-1)
    with pytest.raises(cf.ArgumentError, match="the env has 2 games, no game: 2"):
        env.observe(2, 0)


def test_vec_env_releases_the_gil() -> None:
    env = _env(2048, seats=[None, "expert"], threads=1)
    _, mask, *_ = env.current()
    actions = random_actions(mask, np.random.default_rng(0))
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    env.step(actions)
    done.set()
    t.join()
    assert ticks > 0


def test_gymnasium_env_passes_check_env() -> None:
    gym_env = pytest.importorskip("capturefast.envs.gym")
    from gymnasium.utils.env_checker import check_env

    for rules in [cf.Rules.scopa(), cf.Rules.chkobba(players=4), cf.Rules.escoba()]:
        env = gym_env.CaptureEnv(rules, opponents="greedy")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(env)


def test_gymnasium_env_masks_and_illegal_actions() -> None:
    gym_env = pytest.importorskip("capturefast.envs.gym")
    env = gym_env.CaptureEnv(cf.Rules.scopa(), opponents="random")
    obs, info = env.reset(seed=3)
    assert (info["action_mask"] == env.action_masks()).all()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    strict = gym_env.CaptureEnv(cf.Rules.scopa(), illegal_action="raise")
    before, info = strict.reset(seed=3)
    # A single env names no game of a batch, and points at the mask it hands out.
    with pytest.raises(cf.IllegalMoveError, match=rf"not in the mask\): {illegal}\n.*action_mask"):
        strict.step(illegal)
    with pytest.raises(cf.IllegalMoveError, match=r"ids are 0 to \d+\): 100000"):
        strict.step(100_000)
    # Nothing changed: the same decision is still there, and a legal action then plays as it
    # does in an env that was never given the bad ones.
    assert (strict.action_masks() == info["action_mask"]).all()
    legal = int(np.flatnonzero(info["action_mask"])[0])
    clean = gym_env.CaptureEnv(cf.Rules.scopa(), illegal_action="raise")
    clean_before, _ = clean.reset(seed=3)
    assert (clean_before == before).all()
    assert (strict.step(legal)[0] == clean.step(legal)[0]).all()
    with pytest.raises(cf.ArgumentError, match="illegal_action"):
        gym_env.CaptureEnv(illegal_action="ignore")
    # A whole episode: rewards 0 until the hand ends with the learner's point difference.
    rng = np.random.default_rng(0)
    total, steps = 0.0, 0
    _, info = env.reset(seed=4)
    while True:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(a)
        total, steps = total + reward, steps + 1
        if terminated:
            break
    phase = next(off for name, off, _ in env._env.observation_fields() if name == "phase")
    assert obs[phase + 3] == 1.0, "the last observation shows the hand over"
    assert steps >= 18


def test_gymnasium_vector_env() -> None:
    gym_env = pytest.importorskip("capturefast.envs.gym")
    venv = gym_env.CaptureVectorEnv(cf.Rules.scopa(), 16, seats=[None, "greedy"], threads=2)
    obs, info = venv.reset(seed=1)
    assert obs.shape == (16, venv.single_observation_space.shape[0])
    assert venv.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(40):
        actions = random_actions(info["action_mask"], rng)
        obs, _, terminated, truncated, info = venv.step(actions)
        if terminated.any():
            ended += 1
            assert info["_final_obs"].tolist() == (terminated | truncated).tolist()
    assert ended > 0


def test_pettingzoo_env_passes_api_and_seed_tests() -> None:
    pz = pytest.importorskip("capturefast.envs.pettingzoo")
    from pettingzoo.test import api_test, seed_test

    for rules in [cf.Rules.scopa(), cf.Rules.chkobba(players=4)]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(pz.CaptureAECEnv(rules), num_cycles=200)
            seed_test(lambda rules=rules: pz.CaptureAECEnv(rules), num_cycles=200)


def test_pettingzoo_rewards_are_the_sides_point_differences() -> None:
    pz = pytest.importorskip("capturefast.envs.pettingzoo")
    env = pz.CaptureAECEnv(cf.Rules.scopa(players=4))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    returns: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] = returns.get(agent, 0.0) + reward
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert env._state is not None
    margins = env._state.hand_margins()
    assert margins is not None and margins[0] == -margins[1]
    assert [returns[f"player_{s}"] for s in range(4)] == [margins[s % 2] for s in range(4)]


def test_openspiel_game_passes_random_sim_test_and_mcts_plays() -> None:
    pytest.importorskip("pyspiel")
    import capturefast.envs.openspiel  # noqa: F401  (registers the game)
    import pyspiel
    from open_spiel.python.algorithms import mcts

    for spec in ["", "(variant=chkobba)", "(variant=escoba,players=4)", "(variant=cirulla)"]:
        game = pyspiel.load_game("python_capturefast" + spec)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # A game shows the parameters it plays (the 0s of a request mean the preset's), and its
    # name loads the same game again.
    for spec, shown in [
        ("", "players=2,target=11,variant=scopa"),
        ("(variant=escoba,players=4)", "players=4,target=21,variant=escoba"),
        ("(variant=cirulla,target=30)", "players=2,target=30,variant=cirulla"),
    ]:
        game = pyspiel.load_game("python_capturefast" + spec)
        assert str(game) == f"python_capturefast({shown})"
        # A hand's margin is bounded by what one side can score in it (Rules.max_hand_points).
        bound = game.rules.max_hand_points
        assert game.max_utility() == bound == -game.min_utility()
        assert bound == (99 if "cirulla" in spec else 24 if "escoba" in spec else 22)
        assert str(pyspiel.load_game(str(game))) == str(game)
    game = pyspiel.load_game("python_capturefast")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(1024)))
        else:
            state.apply_action(bot.step(state))
    returns = state.returns()
    assert returns[0] == -returns[1], "partners share, sides oppose"
    info = state.information_state_tensor(0)
    assert len(info) == game.information_state_tensor_size() > game.observation_tensor_size()


def _dealt(game: Any, seed: int) -> Any:
    """A state of `game` past its three chance nodes, which together choose `seed`."""
    state = game.new_initial_state()
    for k in range(3):
        state.apply_action((seed >> (10 * (2 - k))) & 1023)
    return state


def test_openspiel_information_states_tell_apart_what_the_player_saw() -> None:
    """The information-state string is perfect recall: each player's string at a state starts
    with its string at every earlier state; states that share a string have the same legal
    actions and the same information-state tensor; and deals that differ in a player's cards
    (the opening table, a later round's hand) give it different strings."""
    pytest.importorskip("pyspiel")
    import capturefast.envs.openspiel  # noqa: F401  (registers the game)
    import pyspiel

    # Two Scopa deals in which player 0 holds the same first hand and plays the same card,
    # but the opening tables differ, so the card's legal captures do.
    game = pyspiel.load_game("python_capturefast")
    a, b = _dealt(game, 6), _dealt(game, 2743)
    a.apply_action(37)
    b.apply_action(37)
    assert a.legal_actions() != b.legal_actions()
    assert a.information_state_string(0) != b.information_state_string(0)

    # A kept Chkobba cut card is the cutter's secret, in the tensor as in the string.
    game = pyspiel.load_game("python_capturefast(variant=chkobba)")
    state = _dealt(game, 11)
    cutter = state.current_player()
    kept = state._state.state.cut_card
    state.apply_action(81)  # keep
    other = 1 - cutter
    tensor = np.asarray(state.information_state_tensor(other))
    width = game.observation_tensor_size()
    played = tensor[width + 40 : width + 40 + 80].reshape(2, 40)
    assert not played[:, kept.id].any(), "the kept card shows as played to the other seat"

    rng = np.random.RandomState(5)
    for spec in ["", "(variant=chkobba)", "(variant=escoba,players=4)", "(variant=cirulla)"]:
        game = pyspiel.load_game("python_capturefast" + spec)
        n = game.num_players()
        seen: dict[str, tuple[list[int], list[float]]] = {}
        for _ in range(6):
            state = _dealt(game, int(rng.randint(2**30)))
            before = [state.information_state_string(p) for p in range(n)]
            hands = [len(state._state.state.hands[p]) for p in range(n)]
            while not state.is_terminal():
                # A clone played on does not change the string of the state it came from.
                ahead = state.clone()
                ahead.apply_action(int(rng.choice(ahead.legal_actions())))
                ahead.information_state_string(0)
                assert state.information_state_string(0) == before[0]
                state.apply_action(int(rng.choice(state.legal_actions())))
                for p in range(n):
                    now = state.information_state_string(p)
                    assert now.startswith(before[p]), (spec, p)
                    size = len(state._state.state.hands[p])
                    if size > hands[p]:  # a new hand dealt: the player sees new cards
                        assert now != before[p]
                    before[p], hands[p] = now, size
                if state.is_terminal():
                    break
                p = state.current_player()
                key = state.information_state_string(p)
                facts = (state.legal_actions(), state.information_state_tensor(p))
                assert seen.setdefault(key, facts) == facts, (spec, key)


def test_learning_doc_examples_run() -> None:
    doc = pathlib.Path(__file__).resolve().parents[1] / "docs" / "learning.md"
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(doc), module_relative=False, optionflags=flags)
    assert result.attempted > 0
    assert result.failed == 0


def test_action_states_pickle_mid_move() -> None:
    """An `ActionState` pickles with the move being built: the copy has the same state, the
    same steps taken and the same legal actions, at every step of random hands."""
    rng = random.Random(4)
    built = 0
    for rules in [cf.Rules.escoba(), cf.Rules.chkobba(), variants.rules("cirulla")]:
        for seed in range(6):
            a = ActionState(cf.State.new(rules, seed))
            while not a.state.hand_over:
                copy = pickle.loads(pickle.dumps(a))
                assert copy.state == a.state
                assert copy.building() == a.building()
                assert copy.legal_actions() == a.legal_actions()
                built += a.building() is not None
                a, _ = a.apply(rng.choice(a.legal_actions()))
    assert built > 0, "some moves took more than one action"


def test_action_state_from_actions_refuses_bad_steps() -> None:
    state = cf.State.new(cf.Rules.scopa(), 1)
    with pytest.raises(cf.ArgumentError, match="-1"):
        ActionState.from_actions(state, [-1])
    with pytest.raises(cf.ArgumentError, match="99"):
        ActionState.from_actions(state, [99])
    illegal = next(a for a in range(84) if a not in ActionState(state).legal_actions())
    with pytest.raises(cf.IllegalMoveError, match=f"not a legal action now: {illegal}"):
        ActionState.from_actions(state, [illegal])
    with pytest.raises(TypeError):
        ActionState.from_actions(state, "7D")  # type: ignore[arg-type]
    whole = next(a for a in ActionState(state).legal_actions() if ActionState(state).apply(a)[1])
    with pytest.raises(cf.IllegalMoveError, match="completes a move"):
        ActionState.from_actions(state, [whole])


def test_adapters_take_a_preset_name_and_refuse_wrong_types() -> None:
    gym_env = pytest.importorskip("capturefast.envs.gym")
    pz = pytest.importorskip("capturefast.envs.pettingzoo")
    assert gym_env.CaptureEnv("escoba").rules == variants.rules("escoba")
    assert pz.CaptureAECEnv("chkobba").rules == variants.rules("chkobba")
    with pytest.raises(TypeError, match=r"rules must be a capturefast\.Rules or a preset name"):
        gym_env.CaptureEnv(5)
    with pytest.raises(cf.VariantError, match="poker"):
        pz.CaptureAECEnv("poker")
    for bad in (None, [1], 7):
        with pytest.raises(TypeError, match="opponents must be a bot name or a list"):
            gym_env.CaptureEnv(opponents=bad)
    env = pz.CaptureAECEnv()
    with pytest.raises(cf.IllegalMoveError, match="reset"):
        env.step(0)
    with pytest.raises(cf.IllegalMoveError, match="reset"):
        env.observe("player_0")
    env.reset(seed=1)
    with pytest.raises(TypeError, match="action must be an int, got: str"):
        env.step("x")  # type: ignore[arg-type]
    with pytest.raises(cf.ArgumentError, match="agent must be one of"):
        env.observe("nobody")
    action = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.int64(action))  # type: ignore[arg-type]


def test_gymnasium_make_builds_the_registered_env() -> None:
    gym = pytest.importorskip("gymnasium")
    gym_env = pytest.importorskip("capturefast.envs.gym")
    env = gym.make(gym_env.ENV_ID, rules="chkobba", opponents="greedy")
    assert env.spec is not None and env.spec.id == "capturefast/Capture-v0"
    assert env.unwrapped.rules == variants.rules("chkobba")
    with pytest.raises(gym.error.ResetNeeded):
        env.step(0)
    _, info = env.reset(seed=3)
    terminated = False
    while not terminated:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, terminated, truncated, info = env.step(action)
        assert not truncated
    # The "module:id" form imports the module first.
    assert gym.make("capturefast.envs.gym:" + gym_env.ENV_ID).unwrapped.rules == cf.Rules.scopa()
