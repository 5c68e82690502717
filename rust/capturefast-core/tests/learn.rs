//! The learning interfaces: the action space is a bijection onto the legal moves, observations
//! hide what the seat cannot see, and the vector environment is deterministic whatever the
//! threads and refuses bad actions without moving any game.

mod common;

use std::collections::BTreeMap;

use capturefast_core::learn::actions::{
    CLAIM, Decision, FINISH, KEEP_CUT, NUM_ACTIONS, TABLE_CUT, TAKE, actions_of,
};
use capturefast_core::learn::env::{EnvConfig, Outputs, Reward, VecEnv};
use capturefast_core::learn::obs::ObsLayout;
use capturefast_core::{BotKind, CardSet, Game, Move, Position, Rng, Rules, State};
use common::{OFF, ON, move_variants, position, rules, shuffle_hidden};

/// Every game for 2 and 4 players, and the rule sets whose move lists differ.
fn all_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for game in [Game::Scopa, Game::Escoba, Game::Chkobba] {
        for players in [2, 4] {
            all.push(rules(game, players, &[]));
        }
    }
    all.extend(move_variants());
    all
}

/// Every complete action sequence from a fresh decision of `state`, as the moves they reach,
/// with the number of sequences reaching each; also checks that every sequence is the one
/// `actions_of` gives for its move, and that a decision in progress reports the steps that
/// led to it.
fn reached(rules: &Rules, state: &State) -> BTreeMap<Move, usize> {
    fn walk(d: &Decision, path: &mut Vec<usize>, legal: &[Move], out: &mut BTreeMap<Move, usize>) {
        let actions = d.legal_actions();
        assert!(!actions.is_empty(), "a decision in progress has an action");
        assert_eq!(d.steps(), *path, "the steps taken so far");
        let mut mask = [false; NUM_ACTIONS];
        d.write_mask(&mut mask);
        for (a, &allowed) in mask.iter().enumerate() {
            assert_eq!(allowed, actions.contains(&a));
            assert_eq!(d.is_legal(a), allowed);
        }
        for a in actions {
            let mut next = d.clone();
            path.push(a);
            match next.step(a).unwrap() {
                Some(m) => {
                    assert_eq!(actions_of(legal, m), *path, "{m}");
                    *out.entry(m).or_default() += 1;
                }
                None => walk(&next, path, legal, out),
            }
            path.pop();
        }
    }
    let mut d = Decision::new();
    d.reset(rules, state);
    let legal = d.legal_moves().to_vec();
    let mut out = BTreeMap::new();
    walk(&d, &mut Vec::new(), &legal, &mut out);
    out
}

fn check_bijection(rules: &Rules, state: &State) -> usize {
    let mut legal = Vec::new();
    state.legal_moves(rules, &mut legal);
    let got = reached(rules, state);
    let want: BTreeMap<Move, usize> = legal.iter().map(|&m| (m, 1)).collect();
    assert_eq!(got, want, "{state:?}");
    legal.len()
}

#[test]
fn action_sequences_are_exactly_the_legal_moves_each_once() {
    let mut moves = Vec::new();
    let mut cut_seen = false;
    let mut claims_seen = false;
    for rules in all_rules() {
        for seed in 0..12 {
            let mut state = State::new(&rules, seed);
            let mut rng = Rng::new(seed ^ 0xabc);
            while !state.hand_over() {
                check_bijection(&rules, &state);
                state.legal_moves(&rules, &mut moves);
                cut_seen |= moves
                    .iter()
                    .any(|m| m.kind() == capturefast_core::MoveKind::KeepCut);
                claims_seen |= moves
                    .iter()
                    .any(|m| m.kind() == capturefast_core::MoveKind::Claim);
                let m = moves[rng.below(moves.len() as u64) as usize];
                state.apply_unchecked(&rules, m);
            }
        }
    }
    assert!(
        cut_seen && claims_seen,
        "the cut and claim decisions were exercised"
    );
}

/// A crowded table: `table` cards face up, three in each hand, the rest in the stock.
fn crowded(rules: &Rules, seed: u64, table: usize) -> State {
    let mut rng = Rng::new(seed);
    let deck = rng.shuffled_deck();
    let n = usize::from(rules.num_players());
    let hands: Vec<CardSet> = (0..n)
        .map(|s| {
            deck[table + 3 * s..table + 3 * s + 3]
                .iter()
                .copied()
                .collect()
        })
        .collect();
    State::from_position(
        rules,
        &Position {
            hands,
            table: deck[..table].iter().copied().collect(),
            stock: deck[table + 3 * n..].to_vec(),
            to_move: 0,
            dealer: (n - 1) as u8,
            last_capturer: None,
            piles: [CardSet::EMPTY; 2],
            sweeps: [0, 0],
            scores: [0, 0],
            seed,
        },
    )
    .unwrap()
}

#[test]
fn crowded_escoba_tables_build_every_capture_once() {
    let mut most = 0;
    for rules in [
        rules(Game::Escoba, 2, &[]),
        rules(Game::Escoba, 2, &[("compulsory_capture", OFF)]),
        rules(Game::Scopa, 2, &[]),
        rules(Game::Scopa, 2, &[("fewest_cards", ON)]),
    ] {
        for seed in 0..30 {
            most = most.max(check_bijection(&rules, &crowded(&rules, seed, 16)));
        }
    }
    assert!(
        most >= 100,
        "a crowded table lists hundreds of moves, here at most {most}"
    );
}

#[test]
fn the_cut_and_the_claim_have_their_own_ids() {
    let chk = rules(Game::Chkobba, 2, &[]);
    let state = State::new(&chk, 3);
    let mut d = Decision::new();
    d.reset(&chk, &state);
    assert_eq!(d.legal_actions(), vec![KEEP_CUT, TABLE_CUT]);
    let esc = rules(
        Game::Escoba,
        2,
        &[("compulsory_capture", OFF), ("renuncio", ON)],
    );
    let mut moves = Vec::new();
    for seed in 0..200 {
        let mut state = State::new(&esc, seed);
        while !state.hand_over() {
            state.legal_moves(&esc, &mut moves);
            if let Some(claim) = moves
                .iter()
                .find(|m| m.kind() == capturefast_core::MoveKind::Claim)
            {
                let path = actions_of(&moves, *claim);
                assert_eq!(path[0], CLAIM);
                assert!(path[1..].iter().all(|&a| (TAKE..=FINISH).contains(&a)));
                return;
            }
            // Trail whenever possible, to make claims appear.
            state.apply_unchecked(&esc, moves[0]);
        }
    }
    panic!("no claim in 200 hands");
}

#[test]
fn an_illegal_action_is_refused_and_changes_nothing() {
    let rules = rules(Game::Scopa, 2, &[]);
    let state = State::new(&rules, 1);
    let mut d = Decision::new();
    d.reset(&rules, &state);
    let before = d.legal_actions();
    for a in [FINISH, KEEP_CUT, CLAIM, TAKE, NUM_ACTIONS, usize::MAX] {
        if !before.contains(&a) {
            assert!(d.step(a).is_err(), "{a}");
            assert_eq!(d.legal_actions(), before);
        }
    }
}

/// Every observation a seat can get along a decision: before it and after each action of a
/// path chosen by `rng` (the same draws on both sides of the comparison).
fn observations(rules: &Rules, state: &State, layout: &ObsLayout, seed: u64) -> Vec<Vec<f32>> {
    let seat = state.to_move().unwrap();
    let mut d = Decision::new();
    d.reset(rules, state);
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    loop {
        let mut obs = vec![0.0; layout.len()];
        layout.write(rules, state, seat, Some(&d), &mut obs);
        out.push(obs);
        let actions = d.legal_actions();
        let a = actions[rng.below(actions.len() as u64) as usize];
        if d.step(a).unwrap().is_some() {
            return out;
        }
    }
}

#[test]
fn observations_do_not_change_when_only_hidden_cards_do() {
    let mut moves = Vec::new();
    let mut compared = 0;
    for rules in all_rules() {
        let layout = ObsLayout::seat(&rules);
        let full = ObsLayout::full(&rules);
        for seed in 0..8 {
            let mut state = State::new(&rules, seed);
            let mut rng = Rng::new(seed);
            while !state.hand_over() {
                if state.phase() == capturefast_core::Phase::Play && state.claimable().is_none() {
                    let p = position(&state);
                    if let Some(q) = shuffle_hidden(&p, &mut rng) {
                        let other =
                            State::from_position(&rules, &Position { seed: p.seed, ..q }).unwrap();
                        let base = State::from_position(&rules, &p).unwrap();
                        assert_eq!(
                            observations(&rules, &base, &layout, seed),
                            observations(&rules, &other, &layout, seed)
                        );
                        // The full-information encoding does see the change.
                        let seat = base.to_move().unwrap();
                        let (mut a, mut b) = (vec![0.0; full.len()], vec![0.0; full.len()]);
                        full.write(&rules, &base, seat, None, &mut a);
                        full.write(&rules, &other, seat, None, &mut b);
                        assert_ne!(a, b);
                        compared += 1;
                    }
                }
                state.legal_moves(&rules, &mut moves);
                let m = moves[rng.below(moves.len() as u64) as usize];
                state.apply_unchecked(&rules, m);
            }
        }
    }
    assert!(compared > 500, "{compared}");
}

/// The card set of the 40-value plane at `at` (every value 0.0 or 1.0).
#[allow(clippy::float_cmp)] // the values are exact: 0, 1 and counts over 10 or 40
fn plane_set(obs: &[f32], at: usize) -> CardSet {
    let mut bits = 0u64;
    for (i, &v) in obs[at..at + 40].iter().enumerate() {
        assert!(v == 0.0 || v == 1.0, "a card plane holds 0 or 1, got {v}");
        if v == 1.0 {
            bits |= 1 << i;
        }
    }
    CardSet(bits)
}

#[test]
#[allow(clippy::float_cmp)] // the values are exact: 0, 1 and counts over 10 or 40
fn observations_read_back_as_the_seats_cards_whatever_the_buffer_held() {
    let mut moves = Vec::new();
    let mut checked = 0;
    for rules in all_rules() {
        let layout = ObsLayout::seat(&rules);
        let n = usize::from(rules.num_players());
        let at = |name: &str| {
            layout
                .fields()
                .iter()
                .find(|f| f.name == name)
                .unwrap()
                .offset
        };
        for seed in 0..6 {
            let mut state = State::new(&rules, seed);
            let mut rng = Rng::new(seed);
            while !state.hand_over() {
                for seat in 0..n as u8 {
                    let mut clean = vec![0.0; layout.len()];
                    layout.write(&rules, &state, seat, None, &mut clean);
                    // A buffer holding an earlier observation, or anything, is overwritten whole.
                    let mut dirty = vec![7.5; layout.len()];
                    layout.write(&rules, &state, seat, None, &mut dirty);
                    assert_eq!(clean, dirty);
                    let obs = clean;
                    let side = Rules::side(seat);
                    assert_eq!(plane_set(&obs, at("hand")), state.hand(seat));
                    assert_eq!(plane_set(&obs, at("table")), state.table());
                    assert_eq!(plane_set(&obs, at("piles")), state.pile(side));
                    assert_eq!(plane_set(&obs, at("piles") + 40), state.pile(1 - side));
                    let mut hidden = CardSet(0);
                    for other in (0..n as u8).filter(|&s| s != seat) {
                        hidden |= state.hand(other);
                    }
                    for &c in state.stock() {
                        hidden |= CardSet::single(c);
                    }
                    if let Some(c) = state.cut_card().filter(|_| state.to_move() != Some(seat)) {
                        hidden |= CardSet::single(c);
                    }
                    assert_eq!(plane_set(&obs, at("unseen")), hidden);
                    for (k, s) in (0..n).map(|k| (k, (usize::from(seat) + k) % n)) {
                        let cards = state.hand(s as u8).len() as f32 / 10.0;
                        assert_eq!(obs[at("hand_sizes") + k], cards);
                    }
                    assert_eq!(obs[at("stock_size")], state.stock().len() as f32 / 40.0);
                    let rel_mover = state
                        .to_move()
                        .map(|m| (usize::from(m) + n - usize::from(seat)) % n);
                    let to_move = &obs[at("to_move")..at("to_move") + n];
                    for (k, &v) in to_move.iter().enumerate() {
                        assert_eq!(v, if Some(k) == rel_mover { 1.0 } else { 0.0 });
                    }
                    let phase = &obs[at("phase")..at("phase") + 5];
                    assert_eq!(phase.iter().sum::<f32>(), 1.0);
                    checked += 1;
                }
                state.legal_moves(&rules, &mut moves);
                let m = moves[rng.below(moves.len() as u64) as usize];
                state.apply_unchecked(&rules, m);
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn layouts_carry_seats_and_sides_as_data() {
    for rules in all_rules() {
        let layout = ObsLayout::seat(&rules);
        let n = usize::from(rules.num_players());
        assert_eq!(layout.num_seats(), n);
        assert_eq!(layout.num_sides(), 2);
        let len: usize = layout.fields().iter().map(|f| f.len).sum();
        assert_eq!(len, layout.len());
        let seat_fields = ["hand_sizes", "dealer", "to_move", "last_capturer"];
        for f in layout.fields() {
            if seat_fields.contains(&f.name) {
                assert_eq!(f.len, n, "{}", f.name);
            }
        }
        let full = ObsLayout::full(&rules);
        assert_eq!(full.len(), layout.len() + 40 * n + 80);
        assert_eq!(&full.fields()[..layout.fields().len()], layout.fields());
    }
}

// ----- the vector environment -----

struct Buffers {
    obs: Vec<f32>,
    final_obs: Vec<f32>,
    mask: Vec<bool>,
    reward: Vec<f32>,
    side_rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    seat: Vec<i64>,
}

impl Buffers {
    fn new(env: &VecEnv) -> Buffers {
        let n = env.num_envs();
        Buffers {
            obs: vec![0.0; n * env.layout().len()],
            final_obs: vec![0.0; n * env.layout().len()],
            mask: vec![false; n * NUM_ACTIONS],
            reward: vec![0.0; n],
            side_rewards: vec![0.0; n * env.layout().num_sides()],
            terminated: vec![false; n],
            truncated: vec![false; n],
            seat: vec![0; n],
        }
    }

    fn out(&mut self) -> Outputs<'_> {
        Outputs {
            obs: &mut self.obs,
            final_obs: &mut self.final_obs,
            mask: &mut self.mask,
            reward: &mut self.reward,
            side_rewards: &mut self.side_rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            seat: &mut self.seat,
        }
    }

    /// A uniformly random legal action per game, from the mask.
    fn random_actions(&self, rng: &mut Rng) -> Vec<i64> {
        self.mask
            .chunks(NUM_ACTIONS)
            .map(|m| {
                let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&a| m[a]).collect();
                legal[rng.below(legal.len() as u64) as usize] as i64
            })
            .collect()
    }
}

fn config(seats: Vec<Option<BotKind>>, reward: Reward, threads: usize) -> EnvConfig {
    EnvConfig {
        num_envs: 37,
        seats,
        reward,
        max_steps: 0,
        full_information: false,
        threads,
    }
}

/// The concatenated outputs of `steps` random steps.
fn run(rules: &Rules, cfg: EnvConfig, steps: usize) -> (Vec<f32>, Vec<f32>, Vec<bool>, Vec<i64>) {
    let mut env = VecEnv::new(rules, cfg, 7).unwrap();
    let mut b = Buffers::new(&env);
    env.reset(Some(7), &mut b.out()).unwrap();
    let mut rng = Rng::new(1);
    let (mut obs, mut rew, mut term, mut seat) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..steps {
        let actions = b.random_actions(&mut rng);
        env.step(&actions, &mut b.out()).unwrap();
        let d = env.layout().len();
        let phase = env
            .layout()
            .fields()
            .iter()
            .find(|f| f.name == "phase")
            .unwrap()
            .offset;
        for (k, &t) in b.terminated.iter().enumerate() {
            // The final observation shows the hand over (or the match over).
            let last = &b.final_obs[k * d..(k + 1) * d];
            assert!(!t || last[phase + 3] + last[phase + 4] > 0.5);
        }
        obs.extend_from_slice(&b.obs);
        rew.extend_from_slice(&b.side_rewards);
        term.extend_from_slice(&b.terminated);
        seat.extend_from_slice(&b.seat);
    }
    (obs, rew, term, seat)
}

#[test]
fn the_env_gives_the_same_results_whatever_the_threads() {
    for (r, seats) in [
        (
            rules(Game::Scopa, 2, &[]),
            vec![None, Some(BotKind::Greedy)],
        ),
        (
            rules(Game::Chkobba, 4, &[]),
            vec![None, Some(BotKind::Random), None, Some(BotKind::Expert)],
        ),
        (rules(Game::Escoba, 2, &[]), vec![None, None]),
    ] {
        let one = run(&r, config(seats.clone(), Reward::Hand, 1), 120);
        let three = run(&r, config(seats, Reward::Hand, 3), 120);
        assert!(one == three);
        assert!(one.2.iter().any(|&t| t), "some hands ended");
    }
}

#[test]
fn env_rewards_are_hand_margins_and_match_results() {
    let r = rules(Game::Scopa, 2, &[]);
    let (_, rew, term, seat) = run(
        &r,
        config(vec![None, Some(BotKind::Random)], Reward::Hand, 0),
        200,
    );
    assert!(seat.iter().all(|&s| s == 0), "only the learner seat acts");
    for (k, t) in term.iter().enumerate() {
        let (a, b) = (rew[2 * k], rew[2 * k + 1]);
        // Rewards are small integers, exact in f32.
        assert_eq!(
            a as i32,
            -(b as i32),
            "the hand's point difference is zero-sum"
        );
        if !t {
            assert_eq!((a as i32, b as i32), (0, 0));
        }
    }
    let (_, rew, term, _) = run(&r, config(vec![None, None], Reward::Match, 0), 400);
    let ended: Vec<(f32, f32)> = term
        .iter()
        .enumerate()
        .filter(|(_, t)| **t)
        .map(|(k, _)| (rew[2 * k], rew[2 * k + 1]))
        .collect();
    assert!(!ended.is_empty(), "some matches ended in 400 steps");
    for (a, b) in ended {
        let (a, b) = (a as i32, b as i32);
        assert!((a, b) == (1, -1) || (a, b) == (-1, 1));
    }
}

#[test]
fn a_bad_action_in_the_batch_moves_no_game() {
    let r = rules(Game::Escoba, 2, &[]);
    let mut env = VecEnv::new(
        &r,
        config(vec![None, Some(BotKind::Greedy)], Reward::Hand, 2),
        3,
    )
    .unwrap();
    let mut b = Buffers::new(&env);
    env.reset(None, &mut b.out()).unwrap();
    let mut rng = Rng::new(5);
    for _ in 0..5 {
        let a = b.random_actions(&mut rng);
        env.step(&a, &mut b.out()).unwrap();
    }
    let states: Vec<State> = (0..env.num_envs()).map(|i| *env.state(i)).collect();
    let masks = b.mask.clone();
    let good = b.random_actions(&mut rng);
    let illegal = (0..NUM_ACTIONS)
        .find(|&a| !masks[5 * NUM_ACTIONS + a])
        .unwrap() as i64;
    for (bad, what) in [
        (illegal, "not in the mask"),
        (-1, "ids are 0 to 83"),
        (84, "ids are 0 to 83"),
    ] {
        let mut actions = good.clone();
        actions[5] = bad;
        let e = env.step(&actions, &mut b.out()).unwrap_err().to_string();
        assert!(
            e.contains("game 5 of the env") && e.contains(what) && e.contains(&format!(": {bad}")),
            "{e}"
        );
        let after: Vec<State> = (0..env.num_envs()).map(|i| *env.state(i)).collect();
        assert!(after == states);
    }
    assert!(env.step(&good[1..], &mut b.out()).is_err());
    env.step(&good, &mut b.out()).unwrap();
}

#[test]
fn env_configs_are_checked() {
    let r = rules(Game::Scopa, 2, &[]);
    assert!(VecEnv::new(&r, config(vec![None], Reward::Hand, 1), 0).is_err());
    assert!(
        VecEnv::new(
            &r,
            config(vec![Some(BotKind::Random); 2], Reward::Hand, 1),
            0
        )
        .is_err()
    );
    let mut c = config(vec![None, None], Reward::Hand, 1);
    c.num_envs = 0;
    assert!(VecEnv::new(&r, c, 0).is_err());
}
