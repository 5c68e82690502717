//! Single-observer Information Set Monte Carlo Tree Search (SO-ISMCTS; Cowling, Powley and
//! Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).
//!
//! One tree is grown for the whole decision, over the moves of every seat from the bot's
//! position on. A node is the sequence of moves that leads to it (each child is keyed by its
//! [`Move`]), so it stands for every world in which those moves were made. Each iteration:
//!
//! 1. **Determinize.** Draw a complete world consistent with the bot's [`View`](crate::View)
//!    ([`determinize`](crate::determinize): the unseen cards dealt uniformly into the other hands and the stock).
//! 2. **Select.** From the root, while the hand goes on and every legal move of the world at the
//!    node has a child, step to the child with the best UCB1 score among those *available* in
//!    this world (its move is legal here), counting availability instead of the parent's visits:
//!    `mean + c * sqrt(ln(available) / visits)`. The mean is taken for the side of the seat to
//!    move: partners (4 players) share one side, so a seat maximises its side's value and the
//!    other side minimises it.
//! 3. **Expand** one untried legal move of the world, chosen uniformly.
//! 4. **Play out** the rest of the hand with a cheap default policy: uniform among the captures
//!    (claims included) when there is one, with probability 7/8, else uniform among all moves.
//! 5. **Back up** the hand-point difference at the end of the hand ([`State::hand_score`]: the
//!    bot's side minus the other), divided by [`REWARD_SCALE`].
//!
//! The move played is the root's most visited child (ties: the higher mean, then the first in
//! legal-move order). Cut decisions, claims and optional trails are moves like any other.
//!
//! The budget is a number of iterations, optionally cut short by a time limit. Under an
//! iteration budget alone the bot is deterministic under its seed: every random draw (worlds,
//! expansions, play-outs) comes from its own [`Rng`]. It never reads more than the view: the
//! worlds are drawn from it alone.

use std::time::Duration;

use crate::game::action::{Move, MoveKind};
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::LazyView;
use crate::game::world::{Draw, Draws};
use crate::search::solver::Interrupt;

/// Iterations per decision of the built-in `ismcts` bot: 4000 beat `expert` in all three games
/// over 1000 duplicate deals, where 1000 did not (README, "Simulation, bots and tournaments").
pub const DEFAULT_ITERATIONS: u32 = 4000;

/// The default UCB1 exploration constant (rewards are hand points / [`REWARD_SCALE`]).
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// Hand points are divided by this for UCB1: a hand's difference is mostly within ±10.
pub const REWARD_SCALE: f64 = 10.0;

/// No node (the end of a sibling list).
const NONE: u32 = u32::MAX;

/// Iterations between two reads of the clock under a time limit.
const CLOCK_EVERY: u32 = 16;

/// A node of the tree: the move that leads to it from its parent, and its statistics.
#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Move,
    first_child: u32,
    next_sibling: u32,
    /// Play-outs through this node.
    visits: u32,
    /// Iterations in which its move was legal when its parent was visited.
    available: u32,
    /// Sum of the rewards for the bot's side (not the mover's) over the visits.
    total: f64,
}

impl Node {
    fn new(mv: Move) -> Node {
        Node {
            mv,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            total: 0.0,
        }
    }
}

/// Single-observer ISMCTS (see the module doc). Deterministic under its seed when the budget is
/// iterations only.
#[derive(Clone, Debug)]
pub struct IsmctsBot {
    iterations: u32,
    time_limit: Option<Duration>,
    /// What else ends a decision early ([`IsmctsBot::set_interrupt`]).
    interrupt: Interrupt,
    /// Whether the last decision was ended early ([`IsmctsBot::stopped`]).
    stopped: bool,
    exploration: f64,
    rng: Rng,
    /// The tree, an arena reused from one decision to the next (node 0 is the root).
    nodes: Vec<Node>,
    /// The path of the current iteration (node indices, root first).
    path: Vec<u32>,
    moves: Vec<Move>,
    untried: Vec<Move>,
    captures: Vec<Move>,
    /// Iterations run by the last decision.
    last_iterations: u32,
}

impl IsmctsBot {
    /// An ISMCTS bot running `iterations` iterations per decision (at least 1), drawing from
    /// `seed`.
    pub fn new(iterations: u32, seed: u64) -> IsmctsBot {
        IsmctsBot {
            iterations: iterations.max(1),
            time_limit: None,
            interrupt: Interrupt::default(),
            stopped: false,
            exploration: DEFAULT_EXPLORATION,
            rng: Rng::new(seed),
            nodes: Vec::new(),
            path: Vec::new(),
            moves: Vec::new(),
            untried: Vec::new(),
            captures: Vec::new(),
            last_iterations: 0,
        }
    }

    /// Also stops a decision once `limit` has passed (checked every few iterations; at least
    /// one iteration runs). A time limit makes the choices depend on the machine's speed.
    pub fn with_time_limit(mut self, limit: Duration) -> IsmctsBot {
        self.time_limit = Some(limit);
        self
    }

    /// Ends each decision once `interrupt` is due (one of its flags set from another thread,
    /// or its deadline passed, whichever comes first with the time limit), as the time limit
    /// does (after at least one iteration). Its node budget is not read.
    pub fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt.without_nodes();
    }

    /// Whether the last decision was ended early, by the time limit or the interrupt, before
    /// its iterations.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Sets the UCB1 exploration constant (default [`DEFAULT_EXPLORATION`]): finite and not
    /// negative to mean anything; an infinite or NaN constant leaves the choice among the
    /// explored moves arbitrary (but legal).
    pub fn with_exploration(mut self, c: f64) -> IsmctsBot {
        self.exploration = c;
        self
    }

    /// Iterations run by the last decision that searched (0 before any).
    pub fn last_iterations(&self) -> u32 {
        self.last_iterations
    }

    /// Nodes of the last decision's tree, the root included.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Per root move (in the order first expanded): visits and mean hand points for the bot's
    /// side, after the last decision.
    pub fn root_stats(&self) -> Vec<(Move, u32, f64)> {
        let mut out = Vec::new();
        let Some(root) = self.nodes.first() else {
            return out;
        };
        let mut c = root.first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            let mean = if n.visits == 0 {
                0.0
            } else {
                n.total / f64::from(n.visits) * REWARD_SCALE
            };
            out.push((n.mv, n.visits, mean));
            c = n.next_sibling;
        }
        out
    }

    /// One iteration on `world`, a fresh determinization.
    fn iterate(&mut self, rules: &Rules, mut world: State, root_side: usize) {
        let mut node = 0u32;
        self.path.clear();
        self.path.push(0);
        loop {
            if world.hand_over() {
                break;
            }
            world.legal_moves(rules, &mut self.moves);
            let mover_side = world.to_move().map_or(root_side, Rules::side);
            let sign = if mover_side == root_side { 1.0 } else { -1.0 };
            // Availability, the best available child, and the untried moves.
            self.untried.clear();
            self.untried.extend_from_slice(&self.moves);
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            let mut c = self.nodes[node as usize].first_child;
            while c != NONE {
                let child = &mut self.nodes[c as usize];
                if let Ok(i) = self.untried.binary_search(&child.mv) {
                    self.untried.remove(i);
                    child.available += 1;
                    let visits = f64::from(child.visits);
                    let score = sign * child.total / visits
                        + self.exploration * (f64::from(child.available).ln() / visits).sqrt();
                    // The first available child stands until one scores higher, so a score that
                    // never compares (a NaN exploration constant) still picks a child.
                    if best == NONE || score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
                c = child.next_sibling;
            }
            if !self.untried.is_empty() {
                // Expand one untried move and play out from it.
                let mv = self.untried[self.rng.below(self.untried.len() as u64) as usize];
                let id = self.nodes.len() as u32;
                let mut fresh = Node::new(mv);
                fresh.available = 1;
                let parent = &mut self.nodes[node as usize];
                fresh.next_sibling = parent.first_child;
                parent.first_child = id;
                self.nodes.push(fresh);
                self.path.push(id);
                world.apply_unchecked(rules, mv);
                break;
            }
            node = best;
            self.path.push(node);
            world.apply_unchecked(rules, self.nodes[node as usize].mv);
        }
        self.play_out(rules, &mut world);
        let reward = world.hand_margin(rules, root_side).map_or(0.0, f64::from) / REWARD_SCALE;
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.total += reward;
        }
    }

    /// Plays the rest of the hand with the default policy.
    fn play_out(&mut self, rules: &Rules, world: &mut State) {
        while !world.hand_over() {
            world.legal_moves(rules, &mut self.moves);
            let mv = if self.moves.len() == 1 {
                self.moves[0]
            } else {
                let r = self.rng.next_u64();
                self.captures.clear();
                if r & 7 != 0 {
                    self.captures.extend(
                        self.moves
                            .iter()
                            .filter(|m| !m.captures().is_empty() || m.kind() == MoveKind::Claim),
                    );
                }
                let from = if self.captures.is_empty() {
                    &self.moves
                } else {
                    &self.captures
                };
                // The high bits: the low three were used above.
                from[((u128::from(r >> 3) * from.len() as u128) >> 61) as usize]
            };
            world.apply_unchecked(rules, mv);
        }
    }
}

impl IsmctsBot {
    /// The most visited move after the iterations (`legal` never empty: the view's legal
    /// moves).
    pub fn choose(&mut self, rules: &Rules, view: &LazyView<'_>, legal: &[Move]) -> Move {
        self.stopped = false;
        if legal.len() == 1 {
            return legal[0];
        }
        let view = &view.get();
        let root_side = Rules::side(view.seat);
        self.nodes.clear();
        self.nodes.push(Node::new(legal[0]));
        let interrupt = self.interrupt.clone().with_time_limit(self.time_limit);
        let mut done = 0;
        let mut draws = Draws::new(view, Draw::Independent);
        while done < self.iterations {
            if done > 0 && done % CLOCK_EVERY == 0 && interrupt.due() {
                self.stopped = true;
                break;
            }
            let Ok(world) = draws.draw(rules, &mut self.rng) else {
                // Only a view that is not to move fails, and a bot is never asked then.
                break;
            };
            self.iterate(rules, world, root_side);
            done += 1;
        }
        self.last_iterations = done;
        // The most visited legal root move; ties by mean, then legal-move order.
        let mut best = legal[0];
        let mut best_key = (0u32, f64::NEG_INFINITY);
        for &mv in legal {
            let mut c = self.nodes[0].first_child;
            while c != NONE {
                let n = &self.nodes[c as usize];
                if n.mv == mv {
                    let key = (n.visits, n.total / f64::from(n.visits.max(1)));
                    if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
                        best_key = key;
                        best = mv;
                    }
                    break;
                }
                c = n.next_sibling;
            }
        }
        best
    }
}
