//! How well a model of play predicts a bot's moves, for each softening `beta`: the mean
//! log-likelihood per decision of the moves the bot played, the best `beta` marked. The model
//! is the softened `expert` (`ExpertModel`, what `pimc:infer=expert` weighs worlds by) or, with
//! `--model search`, the round search's own values (`SearchModel`, `pimc:infer=search`).
//!
//! ```text
//! cargo run --release -p capturefast-bench --bin fit_beta -- [--hands N] [--seed S] [--bot SPEC]
//!     [--model expert|search] [--game scopa|escoba|chkobba]
//! ```
//!
//! For each 2-player game (or the one named), the bot `SPEC` (default `pimc`) plays both seats
//! of `N` hands (default 1000) dealt from `Rng::derive(S, h)`, every bot told every move; each
//! decision of the play with more than one legal move that hides something (not a 2-player
//! last round, where inference weighs no world: `is_open`) is scored under the model from the
//! mover's own view (the search model drawing its worlds from a seed of the hand's). One
//! thread, deterministic.

use std::fmt::Write as _;
use std::io::Write as _;

use capturefast_core::play::sim::Player;
use capturefast_core::{
    ExpertModel, Game, LazyView, Move, Phase, PlayModel, Rng, Rules, SearchModel, State, is_open,
};

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];
const BETAS: [f32; 10] = [1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0];

struct Args {
    hands: u64,
    seed: u64,
    bot: String,
    /// The search model (`--model search`) instead of the softened expert.
    search: bool,
    games: Vec<Game>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        hands: 1000,
        seed: 1,
        bot: "pimc".to_string(),
        search: false,
        games: GAMES.to_vec(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--hands" => a.hands = value.parse().map_err(|_| format!("bad --hands: {value}"))?,
            "--seed" => a.seed = value.parse().map_err(|_| format!("bad --seed: {value}"))?,
            "--bot" => a.bot = value,
            "--model" => {
                a.search = match value.as_str() {
                    "expert" => false,
                    "search" => true,
                    _ => return Err(format!("bad --model (expert or search): {value}")),
                }
            }
            "--game" => {
                let game = GAMES
                    .into_iter()
                    .find(|g| format!("{g:?}").eq_ignore_ascii_case(&value))
                    .ok_or_else(|| format!("bad --game (scopa, escoba or chkobba): {value}"))?;
                a.games = vec![game];
            }
            _ => return Err(format!("unknown flag: {flag}")),
        }
    }
    Ok(a)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fit_beta: {e}");
            std::process::exit(2);
        }
    };
    let player = match Player::parse(&args.bot) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fit_beta: {e}");
            std::process::exit(2);
        }
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "mean log-likelihood per decision of `{}`'s moves under {}, {} hands of each 2-player \
         game, seed {}",
        args.bot,
        if args.search {
            "the search model"
        } else {
            "the softened expert"
        },
        args.hands,
        args.seed
    );
    let _ = write!(out, "{:8} {:>9}", "game", "decisions");
    for b in BETAS {
        let _ = write!(out, " {:>8}", format!("beta={b}"));
    }
    let _ = writeln!(out, " {:>8}", "uniform");
    emit(&mut out);
    for &game in &args.games {
        let rules = Rules::profile(game, 2).expect("a profile");
        let mut sums = [0f64; BETAS.len()];
        let mut uniform = 0f64;
        let mut decisions = 0u64;
        let mut legal: Vec<Move> = Vec::new();
        for h in 0..args.hands {
            let deal = Rng::derive(args.seed, h);
            let mut bots = [player.build(deal ^ 1), player.build(deal ^ 2)];
            let mut state = State::new(&rules, deal);
            while let Some(seat) = state.to_move() {
                state.legal_moves(&rules, &mut legal);
                let mv =
                    bots[usize::from(seat)].choose(&rules, &LazyView::new(&state, seat), &legal);
                let view = state.view(seat);
                // Where nothing is hidden (a 2-player last round), no world is weighed.
                if state.phase() == Phase::Play && legal.len() > 1 && !is_open(&view) {
                    for (sum, &beta) in sums.iter_mut().zip(&BETAS) {
                        let p = if args.search {
                            SearchModel::new(beta, deal ^ 3).likelihood(&rules, &view, &legal, mv)
                        } else {
                            ExpertModel::new(beta).likelihood(&rules, &view, &legal, mv)
                        };
                        *sum += p.max(1e-300).ln();
                    }
                    uniform -= (legal.len() as f64).ln();
                    decisions += 1;
                }
                for (s, bot) in bots.iter_mut().enumerate() {
                    if bot.observes() {
                        bot.observe(&rules, &state.view(s as u8), seat, mv);
                    }
                }
                state.apply_unchecked(&rules, mv);
            }
        }
        let n = decisions.max(1) as f64;
        let best = (0..BETAS.len())
            .max_by(|&a, &b| sums[a].total_cmp(&sums[b]))
            .unwrap_or(0);
        let _ = write!(
            out,
            "{:8} {decisions:>9}",
            format!("{game:?}").to_lowercase()
        );
        for (i, s) in sums.iter().enumerate() {
            let mark = if i == best { "*" } else { " " };
            let _ = write!(out, " {:>7.4}{mark}", s / n);
        }
        let _ = writeln!(out, " {:>8.4}", uniform / n);
        emit(&mut out);
    }
}

/// Writes what `out` holds to standard output as soon as it is known (a game takes a while).
fn emit(out: &mut String) {
    let mut stdout = std::io::stdout();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    out.clear();
}
