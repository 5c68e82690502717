//! Whether the round search's sweep term is calibrated: at every new deal of `expert`'s hands,
//! the chance that the round's leader sweeps the table (`sweep_chance`, the term `pimc` adds at
//! its horizon, unweighted) against the sweeps the leader's side then makes minus the other
//! side's, to the end of the hand.
//!
//! ```text
//! cargo run --release -p capturefast-bench --bin sweep_calibration -- [--hands N] [--seed S]
//! ```
//!
//! For each 2-player game, `expert` plays both seats of `N` hands (default 200,000) dealt from
//! `Rng::derive(S, h)`, on one thread. Prints the least-squares slope and intercept of the sweep
//! margin on the chance (a calibrated term has slope 1) and the mean margin per tenth of the
//! chance. The pool of the chance is every card outside the table and the piles: the leader's
//! view before its new hand is seen.

use std::fmt::Write as _;
use std::io::Write as _;

use capturefast_core::{
    Bot, CardSet, ExpertBot, Game, LazyView, MoveKind, Rng, Rules, State, sweep_chance,
};

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

fn parse_args() -> Result<(u64, u64), String> {
    let (mut hands, mut seed) = (200_000, 1);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--hands" => hands = value.parse().map_err(|_| format!("bad --hands: {value}"))?,
            "--seed" => seed = value.parse().map_err(|_| format!("bad --seed: {value}"))?,
            _ => return Err(format!("unknown flag: {flag}")),
        }
    }
    Ok((hands, seed))
}

/// Least-squares sums of (chance, margin) pairs and the margins per tenth of the chance.
#[derive(Default)]
struct Fit {
    n: f64,
    x: f64,
    y: f64,
    xx: f64,
    xy: f64,
    tenths: [(f64, u64); 11],
}

impl Fit {
    fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.xy += x * y;
        let t = &mut self.tenths[(x * 10.0).round() as usize];
        t.0 += y;
        t.1 += 1;
    }

    fn slope(&self) -> f64 {
        (self.xy - self.x * self.y / self.n) / (self.xx - self.x * self.x / self.n)
    }
}

fn main() {
    let (hands, seed) = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("sweep_calibration: {e}");
            std::process::exit(2);
        }
    };
    let mut moves = Vec::new();
    let mut out = String::new();
    for game in GAMES {
        let rules = Rules::profile(game, 2).expect("standard profile");
        let mut fit = Fit::default();
        // Per deal kept: the chance, the leader's side, the sweeps then.
        let mut kept: Vec<(f64, usize, [u8; 2])> = Vec::new();
        for h in 0..hands {
            let deal = Rng::derive(seed, h);
            let mut state = State::new(&rules, deal);
            let mut bots = [0, 1].map(|s| ExpertBot::new(Rng::derive(deal ^ 0xB07, s)));
            kept.clear();
            let score = loop {
                let seat = state
                    .to_move()
                    .expect("a hand in play has a player to move");
                state.legal_moves(&rules, &mut moves);
                let mv =
                    bots[usize::from(seat)].choose(&rules, &LazyView::new(&state, seat), &moves);
                let last_of_round = state.hand(0).len() + state.hand(1).len() == 1;
                if let Some(score) = state.apply_scored(&rules, mv) {
                    break score;
                }
                if mv.kind() == MoveKind::Play && last_of_round {
                    let leader = state.to_move().expect("a new deal has a leader");
                    let pool: CardSet = !(state.table() | state.pile(0) | state.pile(1));
                    let p = f64::from(sweep_chance(&rules, &state, pool));
                    kept.push((p, Rules::side(leader), state.sweeps()));
                }
            };
            for &(p, side, then) in &kept {
                let gained = |s: usize| f64::from(score.sweeps[s]) - f64::from(then[s]);
                fit.add(p, gained(side) - gained(1 - side));
            }
        }
        let slope = fit.slope();
        let _ = writeln!(
            out,
            "{game:?} 2 players: {hands} hands, {} deals; sweep margin = {:.3} + {slope:.3} x chance",
            fit.n,
            (fit.y - slope * fit.x) / fit.n,
        );
        for (i, &(sum, count)) in fit.tenths.iter().enumerate() {
            if count > 0 {
                let _ = writeln!(
                    out,
                    "  chance {:.1}: {count:>7} deals, mean margin {:+.3}",
                    i as f64 / 10.0,
                    sum / count as f64
                );
            }
        }
        let _ = std::io::stdout().write_all(out.as_bytes());
        out.clear();
    }
}
