//! How close a PIMC decision from independent worlds and one from balanced worlds come to the
//! decision of many worlds: the regret of each, in points.
//!
//! ```text
//! cargo run --release -p capturefast-bench --bin draw_regret -- [--positions N] [--repeats R] [--seed S]
//! ```
//!
//! For each 2-player game, `expert` plays both seats of hands dealt from `Rng::derive(S, h)`;
//! every third decision that hides something, up to `N` (default 300), is kept, from the view of
//! the seat to move. Each is valued by `analyze_to` with 10,000 independent worlds to the round's
//! end (the reference), and decided `R` times (default 20, each from another seed) by the uniform
//! player (`pimc:infer=off,eval=equity,endgame=round`) with 100 balanced worlds, and with 100,
//! 200 and 400 independent ones. A decision's regret is the reference value of the best move less
//! that of the move chosen; printed is the mean regret per decision of each (lower is closer).

use std::io::Write as _;

use capturefast_core::{
    Bot, Draw, Evaluation, ExpertBot, Game, Horizon, LazyView, Phase, PimcBot, Rng, Rules, Solver,
    State, analyze_to, is_open,
};

const GAMES: [Game; 3] = [Game::Scopa, Game::Escoba, Game::Chkobba];

fn parse_args() -> Result<(usize, u64, u64), String> {
    let (mut positions, mut repeats, mut seed) = (300, 20, 1);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |_| format!("bad {flag}: {value}");
        match flag.as_str() {
            "--positions" => positions = value.parse().map_err(bad)?,
            "--repeats" => repeats = value.parse().map_err(bad)?,
            "--seed" => seed = value.parse().map_err(bad)?,
            _ => return Err(format!("unknown flag: {flag}")),
        }
    }
    Ok((positions, repeats, seed))
}

/// Every third decision of `expert`'s hands that hides something and offers a choice, as a
/// state and its seat to move, `count` of them.
fn positions(rules: &Rules, count: usize, seed: u64) -> Vec<(State, u8)> {
    let (mut out, mut moves, mut decision) = (Vec::new(), Vec::new(), 0u64);
    for h in 0.. {
        let mut state = State::new(rules, Rng::derive(seed, h));
        let mut bots = [ExpertBot::new(2 * h), ExpertBot::new(2 * h + 1)];
        while let Some(seat) = state.to_move() {
            state.legal_moves(rules, &mut moves);
            let view = state.view(seat);
            if moves.len() > 1 && !is_open(&view) && state.phase() == Phase::Play {
                decision += 1;
                if decision % 3 == 0 {
                    out.push((state, seat));
                    if out.len() == count {
                        return out;
                    }
                }
            }
            let mv = bots[usize::from(seat)].choose(rules, &LazyView::new(&state, seat), &moves);
            state.apply_unchecked(rules, mv);
        }
    }
    out
}

fn main() {
    let (count, repeats, seed) = match parse_args() {
        Ok(args) => args,
        Err(why) => {
            eprintln!("draw_regret: {why}");
            std::process::exit(2);
        }
    };
    let players = [
        ("100 balanced worlds", 100, Draw::Balanced),
        ("100 independent", 100, Draw::Independent),
        ("200 independent", 200, Draw::Independent),
        ("400 independent", 400, Draw::Independent),
    ];
    let mut solver = Solver::new(1 << 16);
    let mut moves = Vec::new();
    for game in GAMES {
        let rules = Rules::profile(game, 2).expect("standard profile");
        let mut regret = [0.0f64; 4];
        let states = positions(&rules, count, seed);
        for (i, (state, seat)) in states.iter().enumerate() {
            let view = state.view(*seat);
            let reference = analyze_to(
                &rules,
                &view,
                10_000,
                Rng::derive(seed ^ 0xF00D, i as u64),
                Horizon::Round,
                &mut solver,
            )
            .expect("a view to move");
            let best = reference.iter().map(|m| m.1).fold(f64::MIN, f64::max);
            state.legal_moves(&rules, &mut moves);
            for (p, &(_, worlds, draw)) in players.iter().enumerate() {
                for r in 0..repeats {
                    let mut bot = PimcBot::with_horizon(
                        worlds,
                        Horizon::Round,
                        Rng::derive(seed ^ r, i as u64),
                    )
                    .with_evaluation(Evaluation::Equity)
                    .with_endgame(false)
                    .with_draw(draw);
                    let mv = bot.choose(&rules, &LazyView::from(&view), &moves);
                    let value = reference
                        .iter()
                        .find(|m| m.0 == mv)
                        .expect("a legal move")
                        .1;
                    regret[p] += best - value;
                }
            }
        }
        let n = (states.len() as u64 * repeats) as f64;
        let cells: Vec<String> = players
            .iter()
            .zip(regret)
            .map(|((name, _, _), r)| format!("{name} {:.5}", r / n))
            .collect();
        let line = format!(
            "{game:?}, {} positions x {repeats}: mean regret {}\n",
            states.len(),
            cells.join(", ")
        );
        let _ = std::io::stdout().write_all(line.as_bytes());
    }
}
