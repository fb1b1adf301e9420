//! Planning: which method answers a board ([`Solver::plan`]), and what is ready in memory.

use crate::board::frame::Frame;
use crate::board::Board;
use crate::error::{Error, Result, SolveError};
use crate::exact::table::MAX_TABLE_CELLS;
use crate::metric::Metric;
use crate::search::heuristic::MAX_SEARCH_CELLS;
use crate::search::partition::{self, PartitionSpec};

use super::loaded::metric_slot;
use super::memory::pdb_needs_memory;
use super::{HeuristicChoice, Method, Plan, SolveOptions, Solver, FAST_DEFAULT_CELLS};
#[cfg(doc)]
use crate::engine::SolverExt;

impl Solver {
    /// Which method answers `board` under `opts`: **the** one place where slide chooses (the CLI, the server and
    /// the Python package all ask here).
    ///
    /// With [`Method::Auto`]: single rows and columns by arithmetic; at most 12 cells the complete tables (unless a
    /// weight asks for bounded-suboptimal search); up to [`FAST_DEFAULT_CELLS`] cells, or with any search option
    /// given (a weight or a heuristic), IDA*; above that, fast mode. The heuristic [`HeuristicChoice::Auto`] is
    /// linear conflicts up to 9 cells and the shape's default pattern databases above. With
    /// [`SolveOptions::wait_for_builds`] off, nothing that is not loaded yet is built: a table or pattern database
    /// that is not in memory is replaced by IDA* with linear conflicts, which needs none.
    ///
    /// In [`Metric::Mtm`] the complete tables answer boards of at most 12 cells, and IDA* over pushes guided by
    /// label tables ([`Plan::MtmSearch`]) answers larger ones (and smaller ones with [`Method::Search`]); lines are
    /// arithmetic. A weight, a heuristic choice or fast mode is refused with [`SolveError::InvalidOption`] (`metric`),
    /// as is a shape whose label tables would be too large, and [`Method::Table`] above 12 cells with
    /// [`SolveError::NoTable`]. MTM tables and label tables are always loaded or built, whatever
    /// [`SolveOptions::wait_for_builds`] says.
    ///
    /// ```
    /// use slide::{Board, HeuristicChoice, Plan, SolveOptions, Solver};
    /// let solver = Solver::global();
    /// let plan = |text: &str| {
    ///     let b = Board::parse(text).unwrap();
    ///     solver.plan(&b, &Board::goal(b.shape()), &SolveOptions::default()).unwrap()
    /// };
    /// assert_eq!(plan("[[1,2,0,3]]"), Plan::Line);
    /// assert_eq!(plan("1 2 3/4 0 5"), Plan::Table);
    /// assert!(matches!(plan("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"), Plan::Search(HeuristicChoice::Pdb(_))));
    /// let big = Board::goal("6x6".parse().unwrap()).to_string();
    /// assert_eq!(plan(&big), Plan::Fast);
    /// ```
    pub fn plan(&self, board: &Board, goal: &Board, opts: &SolveOptions) -> Result<Plan> {
        let shape = board.shape();
        if goal.shape() != shape {
            return Err(Error::Solve(SolveError::ShapeMismatch {
                board: shape,
                goal: goal.shape(),
            }));
        }
        if shape.is_line() {
            return Ok(Plan::Line);
        }
        let cells = shape.cells();
        if opts.metric == Metric::Mtm {
            let refuse = |reason: String| {
                Err(Error::Solve(SolveError::InvalidOption {
                    option: "metric".into(),
                    reason,
                }))
            };
            if opts.weight.is_some() || !matches!(opts.heuristic, HeuristicChoice::Auto) {
                return refuse(
                    "MTM takes no weight and no heuristic choice (the tables or the label tables answer)"
                        .into(),
                );
            }
            return match opts.method {
                Method::Auto | Method::Table if cells <= MAX_TABLE_CELLS => Ok(Plan::Table),
                Method::Search if cells <= MAX_TABLE_CELLS => Ok(Plan::MtmSearch),
                Method::Auto | Method::Search => {
                    for (s, blank, layout) in
                        crate::search::mtm::label_tables_needed(shape, goal.blank())
                    {
                        crate::search::mtm::LabelSpace::new(s, blank, layout)?;
                    }
                    Ok(Plan::MtmSearch)
                }
                Method::Table => Err(Error::Solve(SolveError::NoTable { shape })),
                Method::Fast => refuse("MTM has no fast mode".into()),
            };
        }
        let explicit = opts.weight.is_some() || opts.heuristic != HeuristicChoice::Auto;
        let method = match opts.method {
            Method::Auto if cells <= MAX_TABLE_CELLS && opts.weight.is_none() => Method::Table,
            Method::Auto if cells > FAST_DEFAULT_CELLS && !explicit => Method::Fast,
            Method::Auto => Method::Search,
            m => m,
        };
        let lc = Plan::Search(HeuristicChoice::LinearConflict);
        Ok(match method {
            Method::Table if cells > MAX_TABLE_CELLS => {
                return Err(Error::Solve(SolveError::NoTable { shape }))
            }
            Method::Table if opts.wait_for_builds || self.table_ready_in(goal, Metric::Stm) => {
                Plan::Table
            }
            Method::Table => lc,
            Method::Fast => Plan::Fast,
            _ if cells > MAX_SEARCH_CELLS => {
                return Err(Error::Solve(SolveError::SearchTooLarge { shape }))
            }
            _ => match &opts.heuristic {
                HeuristicChoice::Auto => match auto_heuristic(cells) {
                    HeuristicChoice::Pdb(spec) => self.pdb_plan(goal, spec, opts),
                    h => Plan::Search(h),
                },
                HeuristicChoice::Pdb(spec) => self.pdb_plan(goal, spec.clone(), opts),
                h => Plan::Search(h.clone()),
            },
        })
    }

    /// Pattern databases of `spec`, or linear conflicts when they are not loaded and may not be built.
    fn pdb_plan(&self, goal: &Board, spec: PartitionSpec, opts: &SolveOptions) -> Plan {
        if opts.wait_for_builds || self.pdbs_ready(goal, &spec) {
            Plan::Search(HeuristicChoice::Pdb(spec))
        } else {
            Plan::Search(HeuristicChoice::LinearConflict)
        }
    }

    /// True when the complete table of `metric` for `goal` is in memory (no load or build needed).
    pub(crate) fn table_ready_in(&self, goal: &Board, metric: Metric) -> bool {
        let frame = Frame::new(goal);
        metric_slot(frame.shape(), frame.blank_goal(), metric)
            .is_some_and(|i| self.tables[i].get().is_some())
    }

    /// True when every pattern database of `spec` for `goal` is in memory (no load or build needed).
    pub(crate) fn pdbs_ready(&self, goal: &Board, spec: &PartitionSpec) -> bool {
        let frame = Frame::new(goal);
        let goal_pos = goal.positions();
        let spec = self.partition_for(&frame, spec);
        let loaded = self.pdbs.lock().unwrap_or_else(|e| e.into_inner());
        spec.parts().into_iter().all(|part| {
            partition::resolve(part, frame.shape(), frame.blank_goal(), |t| {
                goal_pos.get(t as usize).map(|&c| frame.cell(c))
            })
            .is_ok_and(|sets| {
                sets.iter().all(|cells| {
                    loaded.contains_key(&self.pdb_key(
                        frame.shape(),
                        frame.blank_goal(),
                        cells,
                        part.layout_on(frame.shape()),
                    ))
                })
            })
        })
    }

    /// The partitions `spec` stands for in a search towards the goal of `frame`
    /// ([`SolverExt::partition_for`]).
    pub(crate) fn partition_for(&self, frame: &Frame, spec: &PartitionSpec) -> PartitionSpec {
        let shape = frame.shape();
        if *spec != PartitionSpec::Default
            || (shape.rows(), shape.cols()) != (5, 5)
            || frame.blank_goal() != 24
        {
            return spec.clone();
        }
        let pair = PartitionSpec::Either(vec![
            PartitionSpec::ZeroBits(Box::new(PartitionSpec::Default)),
            PartitionSpec::ZeroBits(Box::new(PartitionSpec::Alternate)),
        ]);
        let fits = || match self.max_memory {
            None => true,
            Some(limit) => self
                .pdb_needs(frame, &pair, |_| None)
                .is_ok_and(|needs| pdb_needs_memory(&needs) <= limit),
        };
        let known = *self.pair_fits.lock().unwrap_or_else(|e| e.into_inner());
        let fits = known.unwrap_or_else(|| {
            let f = fits();
            *self.pair_fits.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
            f
        });
        if fits {
            pair
        } else {
            spec.clone()
        }
    }

    /// The heuristic `heuristic` stands for in a search towards the goal of `frame`: [`HeuristicChoice::Auto`] as
    /// the shape takes it, the default partition as [`SolverExt::partition_for`] says.
    pub(super) fn heuristic_for(
        &self,
        frame: &Frame,
        heuristic: &HeuristicChoice,
    ) -> HeuristicChoice {
        match heuristic {
            HeuristicChoice::Auto => {
                self.heuristic_for(frame, &auto_heuristic(frame.shape().cells()))
            }
            HeuristicChoice::Pdb(spec) => HeuristicChoice::Pdb(self.partition_for(frame, spec)),
            h => h.clone(),
        }
    }
}

/// The heuristic [`HeuristicChoice::Auto`] stands for on a board of `cells` cells: linear conflicts up to 9 cells,
/// the shape's default pattern databases above.
fn auto_heuristic(cells: usize) -> HeuristicChoice {
    if cells <= 9 {
        HeuristicChoice::LinearConflict
    } else {
        HeuristicChoice::Pdb(PartitionSpec::Default)
    }
}
