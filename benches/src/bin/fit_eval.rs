//! Fits the tables of the fitted evaluation (`capturefast_core::eval::fitted`) from the
//! engine's own hands and writes them as Rust source.
//!
//! ```text
//! cargo run --release -p capturefast-bench --bin fit_eval -- [--hands N] [--seed S] [--out PATH]
//! ```
//!
//! For each game with 2 players (`N` hands) and 4 players (`N / 2` hands), `expert` plays every
//! seat of hands dealt from `Rng::derive(config seed, h)`, on one thread. Each position where the
//! round search of `pimc` can stop is kept (2 players: every new deal from the stock; 4 players:
//! also every position with at most 4 cards in the hands, the search's 8-play limit), and when
//! the hand ends each kept position gets, per category, the award from the dealer's side (+1
//! won, -1 lost, 0 tied) minus the hand-made equity. A cell's correction is the sum of those
//! residuals over (its samples + `SHRINK`). The run prints, on the hands `h % 5 == 4` held out
//! from a fit of the others, the mean squared error of the hand-made and of the fitted values.
//! Deterministic: the same arguments write the same file.

use std::fmt::Write as _;
use std::path::PathBuf;

use capturefast_core::eval::fitted::{
    BERMILA_CELLS, CARD_CELLS, COIN_CELLS, Leaf, PRIMIERA_CELLS, SETTEBELLO_CELLS, SHRINK, cells,
};
use capturefast_core::{
    Bot, ExpertBot, Game, LazyView, Move, MoveKind, PrimeCategory, Rng, Rules, State,
};

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

/// Sums of residuals and sample counts per cell, per category.
#[derive(Clone)]
struct Stats {
    sum: [Vec<f64>; 4],
    n: [Vec<u64>; 4],
}

impl Stats {
    fn new(sizes: [usize; 4]) -> Stats {
        Stats {
            sum: sizes.map(|s| vec![0.0; s]),
            n: sizes.map(|s| vec![0; s]),
        }
    }

    fn add(&mut self, k: usize, cell: usize, residual: f64) {
        self.sum[k][cell] += residual;
        self.n[k][cell] += 1;
    }

    fn correction(&self, k: usize, cell: usize) -> f64 {
        self.sum[k][cell] / (self.n[k][cell] as f64 + SHRINK)
    }
}

/// A held-out sample: its cells and what each category finally gave the dealer's side.
struct Sample {
    base: [f32; 4],
    cell: [Option<usize>; 4],
    award: [f64; 4],
}

struct Args {
    hands: u64,
    seed: u64,
    out: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        hands: 400_000,
        seed: 1,
        out: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../rust/capturefast-core/src/eval/fitted_tables.rs"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--hands" => {
                args.hands = value
                    .parse()
                    .map_err(|_| format!("--hands is a whole number, got: {value}"))?;
            }
            "--seed" => {
                args.seed = value
                    .parse()
                    .map_err(|_| format!("--seed is a whole number, got: {value}"))?;
            }
            "--out" => args.out = PathBuf::from(value),
            _ => return Err(format!("unknown argument: {flag}")),
        }
    }
    Ok(args)
}

/// Plays `hands` hands of `rules` and fits them, returning the fit on every hand and the report
/// line of the held-out check.
fn fit(rules: &Rules, hands: u64, seed: u64) -> (Stats, usize, String) {
    let prime = match rules.prime_category() {
        PrimeCategory::Primiera => PRIMIERA_CELLS,
        PrimeCategory::Bermila => BERMILA_CELLS,
    };
    let sizes = [CARD_CELLS, COIN_CELLS, SETTEBELLO_CELLS, prime];
    let (mut all, mut train) = (Stats::new(sizes), Stats::new(sizes));
    let mut held_out = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    let mut kept: Vec<Leaf> = Vec::new();
    let mut samples = 0;
    let players = rules.num_players();
    for h in 0..hands {
        let deal = Rng::derive(seed, h);
        let mut state = State::new(rules, deal);
        let mut bots: Vec<ExpertBot> = (0..players)
            .map(|s| ExpertBot::new(Rng::derive(deal ^ 0xB07, u64::from(s))))
            .collect();
        kept.clear();
        let score = loop {
            let seat = state
                .to_move()
                .expect("a hand in play has a player to move");
            state.legal_moves(rules, &mut moves);
            let mv = bots[usize::from(seat)].choose(rules, &LazyView::new(&state, seat), &moves);
            let held = |s: &State| (0..players).map(|p| s.hand(p).len()).sum::<u32>();
            let before = held(&state);
            if let Some(score) = state.apply_scored(rules, mv) {
                break score;
            }
            let new_deal = mv.kind() == MoveKind::Play && before == 1;
            if new_deal || (players == 4 && held(&state) <= 4) {
                kept.push(Leaf::of(&state));
            }
        };
        let test = h % 5 == 4;
        for leaf in &kept {
            let c = cells(rules, leaf);
            let award = score.awards.map(|a| match a {
                Some(side) if usize::from(side) == leaf.dealer_side => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            });
            for (k, &a) in award.iter().enumerate() {
                if let Some(cell) = c.cell[k] {
                    let r = a - f64::from(c.base[k]);
                    all.add(k, cell, r);
                    if !test {
                        train.add(k, cell, r);
                    }
                }
            }
            if test {
                held_out.push(Sample {
                    base: c.base,
                    cell: c.cell,
                    award,
                });
            }
            samples += 1;
        }
    }
    // Mean squared errors on the held-out hands, per category and of the four summed.
    let mut hand_made = [0.0f64; 5];
    let mut fitted = [0.0f64; 5];
    for s in &held_out {
        let (mut sum_a, mut sum_h, mut sum_f) = (0.0, 0.0, 0.0);
        for k in 0..4 {
            let h = f64::from(s.base[k]);
            let f = h + s.cell[k].map_or(0.0, |c| train.correction(k, c));
            hand_made[k] += (s.award[k] - h).powi(2);
            fitted[k] += (s.award[k] - f).powi(2);
            sum_a += s.award[k];
            sum_h += h;
            sum_f += f;
        }
        hand_made[4] += (sum_a - sum_h).powi(2);
        fitted[4] += (sum_a - sum_f).powi(2);
    }
    let n = held_out.len().max(1) as f64;
    let mut line = format!(
        "{:?} {} players: {hands} hands, {samples} positions; held-out MSE hand-made -> fitted:",
        rules.game(),
        players
    );
    for (k, name) in ["cards", "coins", "seven", "fourth", "all"]
        .iter()
        .enumerate()
    {
        let _ = write!(
            line,
            " {name} {:.4} -> {:.4}",
            hand_made[k] / n,
            fitted[k] / n
        );
    }
    (all, samples, line)
}

fn const_name(game: Game, players: u8) -> String {
    format!("{}_{players}", format!("{game:?}").to_uppercase())
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fit_eval: {e}");
            std::process::exit(2);
        }
    };
    let mut src = String::new();
    let _ = write!(
        src,
        "//! The fitted evaluation's tables (`crate::eval::fitted`). Generated: do not edit.\n\
         //!\n\
         //! Written by `cargo run --release -p capturefast-bench --bin fit_eval -- --hands {} \
         --seed {}`\n\
         //! (`benches/src/bin/fit_eval.rs`): `expert` in every seat, {} hands of each 2-player \
         game and\n\
         //! {} of each 4-player one; per category and cell, the mean of (award - hand-made \
         equity) over\n\
         //! the positions where the round search can stop, shrunk by {SHRINK} pseudo-samples \
         of 0.\n\n\
         // Fitted values that happen to be near a named constant are not that constant.\n\
         #![allow(clippy::approx_constant)]\n\n\
         use crate::game::rules::{{Game, PrimeCategory}};\n\n",
        args.hands,
        args.seed,
        args.hands,
        args.hands / 2
    );
    let mut names = Vec::new();
    for (g, &game) in GAMES.iter().enumerate() {
        for players in [2u8, 4] {
            let rules = Rules::profile(game, players).expect("a profile of the game");
            let hands = if players == 2 {
                args.hands
            } else {
                args.hands / 2
            };
            let seed = Rng::derive(args.seed, (g as u64) * 8 + u64::from(players));
            let (stats, _, line) = fit(&rules, hands, seed);
            eprintln!("{line}");
            let name = const_name(game, players);
            let _ = writeln!(src, "// {line}");
            let cats = ["CARDS", "COINS", "SEVEN", "FOURTH"];
            for (k, cat) in cats.iter().enumerate() {
                let values = &stats.sum[k];
                let _ = writeln!(src, "#[rustfmt::skip]");
                let _ = writeln!(src, "static {name}_{cat}: [f32; {}] = [", values.len());
                for chunk in (0..values.len()).collect::<Vec<_>>().chunks(10) {
                    let row: Vec<String> = chunk
                        .iter()
                        .map(|&c| {
                            let v = stats.correction(k, c);
                            if v.abs() < 5e-5 {
                                "0.0".to_string()
                            } else {
                                format!("{v:.4}")
                            }
                        })
                        .collect();
                    let _ = writeln!(src, "    {},", row.join(", "));
                }
                let _ = writeln!(src, "];");
            }
            let _ = writeln!(
                src,
                "#[rustfmt::skip]\nstatic {name}: Fitted = (Game::{game:?}, {players}, \
                 PrimeCategory::{:?}, [&{name}_CARDS, &{name}_COINS, &{name}_SEVEN, \
                 &{name}_FOURTH]);\n",
                rules.prime_category()
            );
            names.push(name);
        }
    }
    let list: Vec<String> = names.iter().map(|n| format!("&{n}")).collect();
    let _ = writeln!(
        src,
        "/// A fitted game: the game, its number of players, its fourth category and the \
         corrections\n/// per category (`crate::eval::fitted::Tables`).\n\
         pub(crate) type Fitted = (Game, u8, PrimeCategory, [&'static [f32]; 4]);\n\n\
         /// The fitted games.\n#[rustfmt::skip]\npub(crate) static TABLES: &[&Fitted] = &[{}];",
        list.join(", ")
    );
    if let Err(e) = std::fs::write(&args.out, src) {
        eprintln!("fit_eval: cannot write {}: {e}", args.out.display());
        std::process::exit(1);
    }
    eprintln!("fit_eval: wrote {}", args.out.display());
}
