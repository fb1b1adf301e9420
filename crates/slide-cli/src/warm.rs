//! The server's background warm-up: one thread loads or builds, one goal at a time, the tables and pattern
//! databases that solves will want, and says how far it is (`GET /api/status`) from the library's progress reports.
//!
//! Solves never wait for it (the library's planning point with `wait_for_builds` off answers from what is in memory,
//! else by IDA* with linear conflicts); analyses and statistics of 11 and 12 cells, and MTM solves of those sizes and
//! of 4 × 4, wait for their table (see `serve.rs`). One build at a time, on a rayon pool of its own so that the small
//! tables the solver threads build in memory (and fast mode's) never queue behind a build of minutes.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Mutex;

use slide::engine::frame::Frame;
use slide::engine::table::MAX_TABLE_CELLS;
use slide::engine::{build_here, PdbNeed, SolverExt};
use slide::{Board, Metric, PartitionSpec, Shape, SolveOptions, Solver};
use slide::{Method as SolveMethod, Progress};

/// With `serve --no-large-builds`, data whose build searches more states than this (over all its steps) is neither
/// loaded nor built: today only the 5 × 5 pattern databases (the default pair `zbdefault|zbalt`: 6 × 2.4·10⁹
/// states, 2 minutes of two cores and 6.4 GB; plain 6-6-6-6 under a smaller `--max-memory`: 4 × 2.4·10⁹ states, 245
/// MB each). The largest built otherwise: the 4 × 4 MTM label tables (2 × 5.0·10⁸) and the 12-cell tables (2.4·10⁸).
/// Counted in states rather than bytes: plain 6-6-6-6 takes less memory than a label table, and minutes.
pub const LARGE_BUILD_STATES: u64 = 2_000_000_000;

/// What the warm-up keeps per goal: its shape, the goal's blank cell (all a complete table or an MTM label table
/// depends on; pattern databases are only asked for the default goal) and the metric.
type Key = (Shape, usize, Metric);

/// Where a goal's data stands, as the request handlers see it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WarmState {
    /// Waiting its turn, being loaded or being built.
    Pending,
    /// In memory: solves use it.
    Ready,
    /// It could not be loaded or built (or is off, `--no-large-builds`): solves go on without it.
    Failed,
}

/// The state of one goal's data, with its progress.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Queued,
    /// Being loaded from the cache (or prepared); no build has reported yet.
    Loading,
    Building,
    Ready,
    Failed,
    /// Not loaded nor built: over [`LARGE_BUILD_STATES`] states with `--no-large-builds`.
    Off,
}

struct Entry {
    phase: Phase,
    /// What is built: "pattern databases", "distance table", …
    what: &'static str,
    /// Steps finished (databases or tables) and the number of them.
    step: u32,
    steps: u32,
    /// The current step's units done and its total (the library's `Progress`).
    done: u64,
    total: u64,
    /// Each finished build phase counts as a step (tables, label tables); the pattern databases are counted one
    /// by one by the warm-up thread instead (some may come from the cache without a build).
    count_phases: bool,
    /// The library's error, when failed; why it is off.
    error: Option<String>,
    /// The memory its build needs at its peak, in bytes.
    bytes: u64,
}

impl Entry {
    /// The fraction done over every step, 0 to 1.
    fn fraction(&self) -> f64 {
        if self.phase == Phase::Ready {
            return 1.0;
        }
        let within = if self.total == 0 {
            0.0
        } else {
            (self.done as f64 / self.total as f64).min(1.0)
        };
        ((f64::from(self.step) + within) / f64::from(self.steps.max(1))).min(1.0)
    }
}

thread_local! {
    /// True on the thread that runs the warm-up's work: only its progress reports are the warm-up's (fast mode
    /// on a solver thread may build the small 3 × 3 table with the same solver).
    static WARMING: Cell<bool> = const { Cell::new(false) };
}

/// The warm-up's shared state: the queue to its thread, where each goal stands, and the [`Progress`] receiver of
/// the server's solver (forwarded to the terminal bar).
pub struct Warm {
    entries: Mutex<Entries>,
    queue: SyncSender<(Board, Metric)>,
    bar: crate::progress::Bar,
    no_large: bool,
    /// A solver with the server's memory budget and index choice that only plans (what the default's databases
    /// are, what they cost): it never loads nor builds.
    planner: Solver,
}

#[derive(Default)]
struct Entries {
    map: HashMap<Key, Entry>,
    /// The goal the warm-up thread works on.
    current: Option<Key>,
}

impl Warm {
    /// The shared state and the receiving end of its queue (for [`run`]); `quiet` silences the terminal bar and
    /// warnings; `no_large` turns off what searches more than [`LARGE_BUILD_STATES`] states; `planner` has the
    /// server solver's memory budget and index choice (it is asked what the databases are, never to load them).
    pub fn new(quiet: bool, no_large: bool, planner: Solver) -> (Warm, Receiver<(Board, Metric)>) {
        let (queue, rx) = sync_channel(16);
        (
            Warm {
                entries: Mutex::new(Entries::default()),
                queue,
                bar: crate::progress::Bar::new(quiet),
                no_large,
                planner,
            },
            rx,
        )
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the goal's data is loaded; when it was never asked for, asks the background thread to load or build
    /// it (and says `Pending`), unless it is off.
    pub fn state(&self, goal: &Board, metric: Metric) -> WarmState {
        let key = (goal.shape(), goal.blank(), metric);
        let known = |e: &Entries| {
            e.map.get(&key).map(|entry| match entry.phase {
                Phase::Ready => WarmState::Ready,
                Phase::Failed | Phase::Off => WarmState::Failed,
                _ => WarmState::Pending,
            })
        };
        if let Some(state) = known(&self.lock()) {
            return state;
        }
        // Planned without the lock: the 5 × 5 databases' build memory sizes their blank-region indexes (a pass
        // over each pattern's cell subsets, about 0.5 s), and the status page and other requests should not wait on
        // it. The request that first asks for the goal pays it, once.
        let (what, steps, count_phases, bytes, states) = plan(&self.planner, goal, metric);
        let mut e = self.lock();
        // Another request may have asked for the same goal meanwhile.
        if let Some(state) = known(&e) {
            return state;
        }
        let mut entry = Entry {
            phase: Phase::Queued,
            what,
            step: 0,
            steps,
            done: 0,
            total: 0,
            count_phases,
            error: None,
            bytes,
        };
        if self.no_large && states > LARGE_BUILD_STATES {
            entry.phase = Phase::Off;
            entry.error = Some(format!(
                "off on this server (serve --no-large-builds): building them searches {:.1e} states in {} MB",
                states as f64,
                bytes.div_ceil(1_000_000)
            ));
            e.map.insert(key, entry);
            return WarmState::Failed;
        }
        match self.queue.try_send((goal.clone(), metric)) {
            Ok(()) => {
                e.map.insert(key, entry);
            }
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {} // asked again later
        }
        WarmState::Pending
    }

    /// True when the goal's data is loaded; otherwise asks the background thread to load or build it.
    pub fn ready(&self, goal: &Board) -> bool {
        self.state(goal, Metric::Stm) == WarmState::Ready
    }

    fn update(&self, f: impl FnOnce(&mut Entry)) {
        let mut e = self.lock();
        if let Some(key) = e.current {
            if let Some(entry) = e.map.get_mut(&key) {
                f(entry);
            }
        }
    }

    /// `GET /api/status`: every goal the warm-up was asked for, in a stable order (shape, blank cell, metric):
    /// `{"builds": [{"shape", "metric", "blank", "what", "state", "fraction", "step", "steps", "memory_mb",
    /// "error"?}]}`. `state` is `queued`, `loading` (from the cache, or preparing), `building`, `ready`, `failed`
    /// or `off`; `fraction` (0 to 1) is the part done over all `steps` (databases or tables).
    pub fn status_json(&self) -> String {
        let e = self.lock();
        let mut keys: Vec<&Key> = e.map.keys().collect();
        keys.sort_by_key(|(shape, blank, metric)| {
            (shape.rows(), shape.cols(), *blank, metric.name())
        });
        let builds: Vec<serde_json::Value> = keys
            .into_iter()
            .map(|key| {
                let entry = &e.map[key];
                let (shape, blank, metric) = key;
                let state = match entry.phase {
                    Phase::Queued => "queued",
                    Phase::Loading => "loading",
                    Phase::Building => "building",
                    Phase::Ready => "ready",
                    Phase::Failed => "failed",
                    Phase::Off => "off",
                };
                let mut v = serde_json::json!({
                    "shape": shape.to_string(),
                    "metric": metric.name(),
                    "blank": blank,
                    "what": entry.what,
                    "state": state,
                    "fraction": (entry.fraction() * 1000.0).floor() / 1000.0,
                    "step": (entry.step + u32::from(matches!(entry.phase, Phase::Loading | Phase::Building)))
                        .min(entry.steps),
                    "steps": entry.steps,
                    "memory_mb": entry.bytes.div_ceil(1_000_000),
                });
                if let Some(err) = &entry.error {
                    v["error"] = serde_json::Value::String(err.clone());
                }
                v
            })
            .collect();
        serde_json::json!({ "builds": builds }).to_string()
    }
}

/// What a goal needs in `metric`: its name, the number of steps, whether each build phase is a step, the memory of
/// its largest build (for pattern databases, of them all held and the largest build's excess: `pdb_needs_memory`)
/// and the states its builds search in all.
fn plan(planner: &Solver, goal: &Board, metric: Metric) -> (&'static str, u32, bool, u64, u64) {
    let frame = Frame::new(goal);
    let shape = frame.shape();
    // A complete table searches every board of one parity class.
    let table_states = || {
        (1..=shape.cells() as u64)
            .try_fold(1u64, |f, k| f.checked_mul(k))
            .map_or(u64::MAX, |f| f / 2)
    };
    match metric {
        Metric::Mtm if shape.cells() > MAX_TABLE_CELLS => {
            // The planner's list; a pair that names one table twice is one build.
            let mut tables = slide::engine::mtm::label_tables_needed(goal.shape(), goal.blank());
            tables.dedup();
            let bytes = tables
                .iter()
                .map(|&(s, b, l)| slide::engine::mtm::label_build_bytes(s, b, l))
                .max()
                .unwrap_or(0);
            let states = tables
                .iter()
                .map(|&(s, b, l)| slide::engine::mtm::label_space_size(s, b, l).unwrap_or(u64::MAX))
                .fold(0u64, u64::saturating_add);
            ("MTM label tables", tables.len() as u32, true, bytes, states)
        }
        Metric::Mtm => (
            "MTM distance table",
            1,
            true,
            slide::engine::table_build_bytes(shape),
            table_states(),
        ),
        Metric::Stm if shape.cells() <= MAX_TABLE_CELLS => (
            "distance table",
            1,
            true,
            slide::engine::table_build_bytes(shape),
            table_states(),
        ),
        Metric::Stm => {
            // The default's databases as the server's solver takes them (the 5 × 5 pair within its budget).
            let needs = default_pdbs(planner, goal, &frame).unwrap_or_default();
            let states = needs.iter().fold(0u64, |s, d| s.saturating_add(d.states));
            (
                "pattern databases",
                needs.len() as u32,
                false,
                slide::engine::pdb_needs_memory(&needs),
                states,
            )
        }
    }
}

impl Progress for Warm {
    fn start(&self, label: &str, total: u64) {
        self.bar.start(label, total);
        if WARMING.get() {
            self.update(|e| {
                e.phase = Phase::Building;
                e.done = 0;
                e.total = total;
            });
        }
    }

    fn advance(&self, delta: u64) {
        self.bar.advance(delta);
        if WARMING.get() {
            self.update(|e| e.done = e.done.saturating_add(delta));
        }
    }

    fn finish(&self) {
        self.bar.finish();
        if WARMING.get() {
            self.update(|e| {
                if e.count_phases {
                    e.step = (e.step + 1).min(e.steps);
                    e.done = 0;
                    e.total = 0;
                } else {
                    e.done = e.total;
                }
            });
        }
    }

    fn warn(&self, message: &str) {
        self.bar.warn(message);
    }
}

/// The warm-up thread: loads or builds, one goal and metric at a time, what the solver needs for it — a complete
/// table up to 12 cells, the default pattern databases above (one by one, so the progress counts them) in STM, the
/// MTM label tables above 12 cells in MTM — on a rayon pool of its own.
pub fn run(solver: &Solver, warm: &Warm, rx: Receiver<(Board, Metric)>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("slide-build-{i}"))
        .build();
    for (goal, metric) in rx {
        let key = (goal.shape(), goal.blank(), metric);
        {
            let mut e = warm.lock();
            e.current = Some(key);
            if let Some(entry) = e.map.get_mut(&key) {
                entry.phase = Phase::Loading;
            }
        }
        // The pool runs nothing but this, so builds may stay on it (and report their progress from this thread).
        let work = || {
            WARMING.set(true);
            let r = build_here(|| load(solver, warm, &goal, metric));
            WARMING.set(false);
            r
        };
        let result = match &pool {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        };
        let mut e = warm.lock();
        e.current = None;
        if let Some(entry) = e.map.get_mut(&key) {
            match result {
                Ok(()) => {
                    entry.phase = Phase::Ready;
                    entry.step = entry.steps;
                }
                Err(err) => {
                    let err = crate::explain::explain_http(&err);
                    eprintln!(
                        "slide: serve: {} ({metric}): {err}; searching without them",
                        goal.shape()
                    );
                    entry.phase = Phase::Failed;
                    entry.error = Some(err);
                }
            }
        }
    }
}

/// The distinct databases of the default partition for `goal` (in the canonical `frame`) as `solver` takes it.
fn default_pdbs(solver: &Solver, goal: &Board, frame: &Frame) -> slide::Result<Vec<PdbNeed>> {
    let goal_pos = goal.positions();
    solver.pdb_needs(frame, &PartitionSpec::Default, |t| {
        goal_pos.get(t as usize).map(|&c| frame.cell(c))
    })
}

fn load(solver: &Solver, warm: &Warm, goal: &Board, metric: Metric) -> slide::Result<()> {
    let shape = goal.shape();
    if metric == Metric::Stm && shape.cells() > MAX_TABLE_CELLS {
        // The default pattern databases one by one (as `SolverExt::pdb_set` takes them), so that the progress counts
        // them: some may come from the cache.
        let frame = Frame::new(goal);
        let needs = default_pdbs(solver, goal, &frame)?;
        for (i, need) in needs.iter().enumerate() {
            warm.update(|e| {
                e.step = i as u32;
                e.steps = needs.len() as u32;
                e.done = 0;
                e.total = 0;
            });
            solver.pdb(frame.shape(), frame.blank_goal(), &need.cells, need.layout)?;
        }
    }
    let opts = SolveOptions::builder()
        .metric(metric)
        .method(if shape.cells() <= MAX_TABLE_CELLS {
            SolveMethod::Table
        } else {
            SolveMethod::Search
        })
        .build();
    // Solving the goal itself loads the table or the pattern databases (found in memory now) and then finds nothing
    // to do.
    solver.solve_with(goal, goal, &opts).map(|_| ())
}
