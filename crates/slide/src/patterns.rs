//! Hints, analyses and distance statistics towards partial goals ([`Pattern`]: goal boards whose `x` cells take any
//! tile): [`Solver::hint_pattern`], [`Solver::analyse_pattern`] and [`Solver::pattern_stats`].
//!
//! A board's distance to a partial goal is the least number of moves to any board that matches. It comes from the
//! path [`Solver::solve_pattern`] takes: the complete table of the pattern's abstract states (the cells of the tiles
//! it names and of the blank) when it is loaded or fits the memory budget, in either metric; else, in STM, IDA*
//! with the Manhattan distance of the named tiles, under the options' limits. Unlike a goal board's, this distance
//! may stay the same after a move (two free tiles give matching boards of both parities), so an analysis finds
//! each position's distance afresh when the move leaves the known shortest solution.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::analyse::{children, closer, proven, pushes, Analysis, Hint};
use crate::board::{Board, Pattern, Tile};
use crate::error::{Error, Result, SolveError};
use crate::exact::rank::PartialRanker;
use crate::exact::table::MAX_ANTIPODES;
use crate::metric::Metric;
use crate::notation::Moves;
use crate::search::partial::{PartialKey, PartialTable};
use crate::solver::{Method, Plan, SolveOptions, Solver};

/// Distance statistics towards a partial goal ([`Solver::pattern_stats`]), over the pattern's abstract states: where
/// the tiles it names stand and where the blank stands (the other tiles are not told apart). Each abstract state's
/// distance is the least number of moves from any board in that state to a matching board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternStats {
    /// Abstract states that can reach the goal.
    pub states: u64,
    /// `histogram[d]` = abstract states at distance `d`.
    pub histogram: Vec<u64>,
    /// Some abstract states at the largest distance, as patterns: each named tile on its cell, `0` on the blank's,
    /// `x` elsewhere (all of them when `antipodes.len() as u64 == histogram.last()`; at most 64 are kept).
    pub antipodes: Vec<Pattern>,
}

impl PatternStats {
    /// The largest distance: god's number for this partial goal.
    pub fn diameter(&self) -> u32 {
        self.histogram.len().saturating_sub(1) as u32
    }
}

/// How exact distances to a partial goal are found.
enum Toward {
    /// The complete table of the pattern's abstract states, and the tiles the pattern names, in the table's order.
    Table(Arc<PartialTable>, Vec<Tile>),
    /// IDA* with the Manhattan distance of the named tiles (STM), under these options.
    Search(SolveOptions),
}

impl Solver {
    /// The way [`Solver::solve_pattern`] answers `board` towards `goal` (a pattern that leaves a choice).
    fn toward(&self, board: &Board, goal: &Pattern, opts: &SolveOptions) -> Result<Toward> {
        if self.plan_pattern(board, goal, opts)? == Plan::Partial {
            let table = self.partial_table(&PartialKey::of(goal, opts.metric))?;
            let tiles = goal.fixed_tiles().iter().map(|&(_, t)| t).collect();
            return Ok(Toward::Table(table, tiles));
        }
        Ok(Toward::Search(SolveOptions {
            method: Method::Search,
            weight: None,
            max_depth: None,
            ..opts.clone()
        }))
    }

    /// [`Solver::hint`] towards a partial goal: the least number of moves from `board` to any board matching
    /// `goal` (0 on a matching board, -1 when none can be reached) and every tile whose move starts a shortest
    /// solution, ascending. In MTM ([`SolveOptions::metric`]) a hint is a push, named by the tile farthest from
    /// the blank that it slides. A pattern that leaves no choice ([`Pattern::board`]) is [`Solver::hint`]'s.
    ///
    /// From the table of the pattern's states (each move's distance looked up) where [`Solver::solve_pattern`]
    /// takes it; else by IDA* under `opts` (STM): the board is solved once and every other move is checked by a
    /// search no deeper than the distance less one. A limit that stops a search gives
    /// [`SolveError::LimitReached`]. Errors as [`Solver::plan_pattern`]'s (shape mismatch, fast mode, MTM over
    /// the memory budget).
    ///
    /// ```
    /// use slide::{Board, Pattern, SolveOptions, Solver};
    /// let b = Board::parse("1 2 0/4 5 3/7 8 6").unwrap();
    /// let row = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// let h = Solver::global().hint_pattern(&b, &row, &SolveOptions::default()).unwrap();
    /// assert_eq!((h.distance, h.tiles), (1, vec![3]));
    /// ```
    pub fn hint_pattern(&self, board: &Board, goal: &Pattern, opts: &SolveOptions) -> Result<Hint> {
        if let Some(g) = goal.board() {
            return self.hint(board, &g, opts);
        }
        let mut tiles = Vec::new();
        let distance = match self.toward(board, goal, opts)? {
            Toward::Table(table, named) => {
                let at = |b: &Board| table.distance(b, &named).map_or(-1, i64::from);
                let d = at(board);
                if d > 0 {
                    match opts.metric {
                        Metric::Stm => tiles.extend(
                            children(board)
                                .into_iter()
                                .filter(|(_, c)| at(c) == d - 1)
                                .map(|(t, _)| t),
                        ),
                        Metric::Mtm => tiles.extend(
                            pushes(board)
                                .into_iter()
                                .filter(|(_, c)| at(c) == d - 1)
                                .filter_map(|(moved, _)| moved.last().copied()),
                        ),
                    }
                }
                d
            }
            Toward::Search(opts) => {
                let s = self.solve_pattern(board, goal, &opts)?;
                let d = proven(&s, || "the least number of moves from the board".into())?;
                let first = s.moves().and_then(|m| m.first().copied());
                if d > 0 {
                    for (t, c) in children(board) {
                        if Some(t) == first
                            || closer(
                                d,
                                &opts,
                                || format!("moving tile {t}"),
                                |bounded| self.solve_pattern(&c, goal, bounded),
                            )?
                        {
                            tiles.push(t);
                        }
                    }
                }
                d
            }
        };
        tiles.sort_unstable();
        Ok(Hint { distance, tiles })
    }

    /// [`Solver::analyse`] towards a partial goal: whether `moves` played from `board` end on a board matching
    /// `goal`, their length (STM and MTM), the least number of moves to a matching board, the moves over it, the
    /// distance after each move and the mistakes (the 1-based moves after which the board was not closer: a move
    /// may leave the distance to a partial goal unchanged, and that counts as a mistake). In MTM the moves are
    /// taken as pushes, as [`Solver::analyse`] takes them. A pattern that leaves no choice is
    /// [`Solver::analyse`]'s.
    ///
    /// Each distance comes from the table of the pattern's states where [`Solver::solve_pattern`] takes it; else
    /// from IDA* under `opts` (STM): the board is solved once, a move along the shortest solution known costs
    /// nothing, any other move a search no deeper than the distance plus one. A limit that stops a search gives
    /// [`SolveError::LimitReached`]; an illegal move [`ParseError::BadMove`](crate::ParseError::BadMove).
    ///
    /// ```
    /// use slide::{Board, Moves, Pattern, SolveOptions, Solver};
    /// let b = Board::parse("1 2 0/4 5 3/7 8 6").unwrap();
    /// let row = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// let moves = Moves::from_tiles(&b, &[2, 2, 3]).unwrap(); // a move and back, then the row
    /// let a = Solver::global().analyse_pattern(&b, &row, &moves, &SolveOptions::default()).unwrap();
    /// assert!(a.solves);
    /// assert_eq!((a.optimal, a.over), (1, Some(2)));
    /// assert_eq!((a.distances, a.mistakes), (vec![2, 1, 0], vec![1]));
    /// ```
    pub fn analyse_pattern(
        &self,
        board: &Board,
        goal: &Pattern,
        moves: &Moves,
        opts: &SolveOptions,
    ) -> Result<Analysis> {
        if let Some(g) = goal.board() {
            return self.analyse(board, &g, moves, opts);
        }
        let end = moves.apply(board)?;
        let toward = self.toward(board, goal, opts)?;
        // The positions judged, with the tiles moved to reach each: after every move in STM, every push in MTM.
        let mtm = opts.metric == Metric::Mtm;
        let dirs = moves.directions();
        let mut positions: Vec<(Vec<Tile>, Board)> = Vec::new();
        let mut b = board.clone();
        let mut moved = Vec::new();
        for (i, &d) in dirs.iter().enumerate() {
            let t = b
                .apply_direction(d)
                .ok_or_else(|| Error::Internal("a checked move is illegal".into()))?;
            moved.push(t);
            if !mtm || dirs.get(i + 1) != Some(&d) {
                positions.push((std::mem::take(&mut moved), b.clone()));
            }
        }
        let mut a = Analysis {
            solves: goal.matches(&end),
            length: moves.stm_len(),
            mtm_length: moves.mtm_len(),
            optimal: -1,
            over: None,
            distances: vec![-1; positions.len()],
            mistakes: vec![],
        };
        match toward {
            Toward::Table(table, named) => {
                let at = |b: &Board| table.distance(b, &named).map_or(-1, i64::from);
                a.optimal = at(board);
                for (slot, (_, here)) in a.distances.iter_mut().zip(&positions) {
                    *slot = at(here);
                }
            }
            Toward::Search(opts) => {
                let s = self.solve_pattern(board, goal, &opts)?;
                let mut d = proven(&s, || "the least number of moves from the board".into())?;
                a.optimal = d;
                if d < 0 {
                    return Ok(a);
                }
                // A shortest solution from the current board, when one is known: following it needs no search.
                let mut path: Option<VecDeque<Tile>> = s.into_moves().map(VecDeque::from);
                for (i, (slot, (moved, here))) in a.distances.iter_mut().zip(&positions).enumerate()
                {
                    let along = path.as_ref().is_some_and(|p| {
                        p.len() >= moved.len() && p.iter().zip(moved).all(|(a, b)| a == b)
                    });
                    if along {
                        path.as_mut().map(|p| p.drain(..moved.len()));
                        d -= moved.len() as i64;
                    } else {
                        // Each move changes the distance by at most one: search no deeper than that.
                        let bounded = SolveOptions {
                            max_depth: Some((d + moved.len() as i64) as u64),
                            ..opts.clone()
                        };
                        let s = self.solve_pattern(here, goal, &bounded)?;
                        d = proven(&s, || format!("the distance after move {}", i + 1))?;
                        path = s.into_moves().map(VecDeque::from);
                    }
                    *slot = d;
                }
            }
        }
        let mut prev = a.optimal;
        for (i, &d) in a.distances.iter().enumerate() {
            if d >= prev {
                a.mistakes.push(i + 1);
            }
            prev = d;
        }
        let counted = if mtm { a.mtm_length } else { a.length };
        a.over = a.solves.then(|| counted as i64 - a.optimal);
        Ok(a)
    }

    /// Distance statistics towards the partial goal `goal` in `metric`: the abstract states (the cells of the tiles
    /// the pattern names, and the blank's) at each distance, god's number and the farthest states. They are read
    /// from the complete table of the pattern's states, the table [`Solver::solve_pattern`] answers from (built,
    /// or loaded from the cache, under the memory budget: [`SolveError::TooMuchMemory`] over it; at most 64
    /// cells: [`SolveError::PatternTooLarge`]). A pattern that leaves no choice has [`Solver::stats_in`]'s
    /// statistics over whole boards; here it is counted by the same abstract states.
    ///
    /// ```
    /// use slide::{Metric, Pattern, Solver};
    /// let row = Pattern::parse("1 2 3/x x x/x x x").unwrap();
    /// let s = Solver::global().pattern_stats(&row, Metric::Stm).unwrap();
    /// assert_eq!(s.states, 9 * 8 * 7 * 6); // every placement of the three tiles and the blank
    /// assert_eq!(s.histogram[0], 6); // the row home, the blank on any other cell
    /// assert!(s.antipodes.iter().all(|p| p.blank().is_some()));
    /// ```
    pub fn pattern_stats(&self, goal: &Pattern, metric: Metric) -> Result<PatternStats> {
        let shape = goal.shape();
        if shape.cells() > 64 {
            return Err(Error::Solve(SolveError::PatternTooLarge { shape }));
        }
        let table = self.partial_table(&PartialKey::of(goal, metric))?;
        let histogram = table.histogram().to_vec();
        let diameter = table.diameter();
        let fixed = goal.fixed_tiles();
        let k = fixed.len();
        let n = shape.cells();
        let ranker = PartialRanker::new(n, k + 1)
            .ok_or_else(|| Error::Internal("a partial goal's table has no ranker".into()))?;
        let packed = table.packed();
        let mut items = vec![0u8; k + 1];
        let mut antipodes = Vec::new();
        for r in 0..packed.len() {
            if packed.get(r) != diameter {
                continue;
            }
            ranker.unrank(r, &mut items);
            let mut cells = vec![None; n];
            for (&(_, t), &c) in fixed.iter().zip(&items) {
                cells[c as usize] = Some(t);
            }
            cells[items[k] as usize] = Some(0);
            antipodes.push(Pattern::from_checked(shape, cells));
            if antipodes.len() == MAX_ANTIPODES {
                break;
            }
        }
        Ok(PatternStats {
            states: histogram.iter().sum(),
            histogram,
            antipodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CacheDir, Scrambler};

    /// The table of the pattern's states and IDA* (a solver whose memory budget refuses the table) give the same
    /// hints and analyses, along shortest solutions and off them.
    #[test]
    fn the_search_agrees_with_the_table() {
        let table = Solver::builder().cache_dir(CacheDir::None).build();
        let search = Solver::builder()
            .cache_dir(CacheDir::None)
            .max_memory(0)
            .build();
        let opts = SolveOptions::default();
        let mut s = Scrambler::new(1);
        for text in [
            "1 2 3/x x x/x x x",
            "1 x x/4 x x/7 x 0",
            "x x x/x 5 x/x x 0",
        ] {
            let goal: Pattern = text.parse().unwrap();
            let b = goal.filled();
            assert_eq!(
                search.plan_pattern(&b, &goal, &opts).unwrap(),
                Plan::Search(crate::HeuristicChoice::Manhattan)
            );
            for _ in 0..12 {
                let b = s.uniform_to(&goal);
                let h = table.hint_pattern(&b, &goal, &opts).unwrap();
                assert_eq!(
                    h,
                    search.hint_pattern(&b, &goal, &opts).unwrap(),
                    "{text} {b}"
                );
                // A detour, then a shortest solution from where it ends.
                let (mid, mut tiles) = s.walk_with_tiles(&b, 6);
                let rest = table.solve_pattern(&mid, &goal, &opts).unwrap();
                tiles.extend(rest.moves().unwrap());
                let moves = Moves::from_tiles(&b, &tiles).unwrap();
                let a = table.analyse_pattern(&b, &goal, &moves, &opts).unwrap();
                assert!(a.solves && a.optimal == h.distance, "{text} {b}: {a:?}");
                assert_eq!(
                    a,
                    search.analyse_pattern(&b, &goal, &moves, &opts).unwrap(),
                    "{text} {b}"
                );
            }
        }
    }
}
