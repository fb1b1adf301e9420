//! The work of `slide serve` off the async runtime: what the handlers share ([`App`]), the permits that let at most
//! `--threads` solves run at once (newest waiter first), the jobs sent to the solver threads, and those threads.

use crate::explain::explain_http;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use slide::{Board, Listing, Metric, Pattern, SolveOptions, Solver};
use tokio::sync::oneshot;

use super::connection::Hosts;
use super::render::{draw, Picture};
use super::reply::{error_status, Reply};
use super::stats::statistics;
use super::{QUEUE_WAIT, SMALL_TABLE_CELLS};
use crate::report::{analysis_json, answer_json};
use crate::warm::Warm;

/// The budget of one solve: `--timeout` and `--max-nodes`.
pub(super) struct Budget {
    pub(super) time: Duration,
    pub(super) nodes: u64,
}

/// What the request handlers share.
pub(super) struct App {
    pub(super) budget: Budget,
    /// The longest time budget a solve may ask for (`--max-timeout`, at least `--timeout`).
    pub(super) max_time: Duration,
    pub(super) warm: Arc<Warm>,
    pub(super) permits: Arc<Permits>,
    /// To the solver threads; never more than the permits in flight.
    pub(super) jobs: SyncSender<Job>,
    pub(super) hosts: Hosts,
    /// The practice history (`solves.rs`).
    pub(super) practice: Arc<super::solves::Practice>,
}

/// A solve or an analysis for a solver thread, with its permit and where the answer goes.
pub(super) struct Job {
    board: Board,
    goal: Board,
    opts: SolveOptions,
    work: Work,
    permit: Permit,
    reply: oneshot::Sender<Reply>,
}

/// What a solver thread does with a board.
pub(super) enum Work {
    /// Solve it; `moves`: the answer carries the solution.
    Solve { moves: bool },
    /// Analyse these moves played from it towards this goal, a board or a partial goal
    /// ([`Solver::analyse_pattern`]).
    Analyse(slide::Moves, Pattern),
    /// Draw it, or an animation of moves played from it.
    Render(Picture),
    /// The distance histogram of the goal (the job's board) in the options' metric: JSON, or the chart as SVG.
    Stats { plot: bool },
    /// Any other work that needs a solver (a recorded solve's optimum, then its storing).
    Call(Box<dyn FnOnce(&Solver) -> Reply + Send>),
}

/// A counting semaphore for the solver threads: at most so many solves at once. Waiting requests get their turn
/// newest first: the page asks again after every move and drops the answers to older boards, so the newest
/// request is the one somebody is waiting for. Waiting is async (no thread is held); a request dropped while it
/// waits (its client left) leaves the queue, and a permit handed to it just then goes to the next.
pub(super) struct Permits {
    state: Mutex<PermitState>,
}

struct PermitState {
    free: usize,
    next_ticket: u64,
    /// The waiting requests by ticket (later is newer); a permit is handed over by a send.
    waiting: BTreeMap<u64, oneshot::Sender<()>>,
}

/// The right to run one solve; given back on drop.
struct Permit(Arc<Permits>);

impl Permits {
    pub(super) fn new(n: usize) -> Arc<Permits> {
        Arc::new(Permits {
            state: Mutex::new(PermitState {
                free: n,
                next_ticket: 0,
                waiting: BTreeMap::new(),
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, PermitState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A permit, or `None` when none came free for this request within `wait`.
    async fn acquire(self: &Arc<Self>, wait: Duration) -> Option<Permit> {
        let mut waiter = {
            let mut st = self.lock();
            if st.free > 0 {
                st.free -= 1;
                return Some(Permit(Arc::clone(self)));
            }
            let ticket = st.next_ticket;
            st.next_ticket += 1;
            let (tx, rx) = oneshot::channel();
            st.waiting.insert(ticket, tx);
            Waiter {
                permits: self,
                ticket,
                rx,
                done: false,
            }
        };
        match tokio::time::timeout(wait, &mut waiter.rx).await {
            Ok(Ok(())) => {
                waiter.done = true;
                Some(Permit(Arc::clone(self)))
            }
            _ => None, // the waiter's drop leaves the queue (or passes on a permit that came just now)
        }
    }

    /// Hands a permit to the newest waiter still there, or keeps it.
    fn release(&self) {
        let mut st = self.lock();
        while let Some((_, tx)) = st.waiting.pop_last() {
            if tx.send(()).is_ok() {
                return;
            }
        }
        st.free += 1;
    }
}

/// A request's place in the queue.
struct Waiter<'a> {
    permits: &'a Arc<Permits>,
    ticket: u64,
    rx: oneshot::Receiver<()>,
    /// The permit was received (and is now a [`Permit`]).
    done: bool,
}

impl Drop for Waiter<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut st = self.permits.lock();
        if st.waiting.remove(&self.ticket).is_none() && self.rx.try_recv().is_ok() {
            // A permit was sent after the wait ended: pass it on.
            drop(st);
            self.permits.release();
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// Sets a cancel flag when dropped: an analysis stops when its handler ends (its budget ran out, or its client
/// left).
pub(super) struct CancelOnDrop(pub(super) Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl App {
    /// Runs a job on a solver thread once a permit is free (503 when none comes within [`QUEUE_WAIT`]). With
    /// `stop` (the job's cancel flag), the flag is set `--timeout` after the job starts: the budget of a whole
    /// analysis, whose searches then stop within 2^14 nodes.
    pub(super) async fn run(
        &self,
        board: Board,
        goal: Board,
        opts: SolveOptions,
        work: Work,
        stop: Option<&AtomicBool>,
    ) -> Reply {
        let busy = || {
            Reply::error(
                503,
                "the server is busy with other boards: try again in a moment",
            )
        };
        let failed = || Reply::error(500, "internal error: the solver thread failed");
        let Some(permit) = self.permits.acquire(QUEUE_WAIT).await else {
            return busy();
        };
        let (tx, rx) = oneshot::channel();
        let job = Job {
            board,
            goal,
            opts,
            work,
            permit,
            reply: tx,
        };
        if self.jobs.try_send(job).is_err() {
            return busy(); // cannot happen: there are as many places as permits
        }
        // With a permit a solver thread is free: the job starts now.
        let mut rx = rx;
        if let Some(flag) = stop {
            tokio::select! {
                r = &mut rx => return r.unwrap_or_else(|_| failed()),
                () = tokio::time::sleep(self.budget.time) => flag.store(true, Ordering::Relaxed),
            }
        }
        rx.await.unwrap_or_else(|_| failed())
    }
}

/// A solver thread: runs the jobs it receives, one at a time, until the sending side goes away. `small` analyses
/// the boards under [`SMALL_TABLE_CELLS`] cells.
pub(super) fn solve_loop(solver: &Solver, small: &Solver, jobs: &Mutex<Receiver<Job>>) {
    loop {
        let job = match jobs.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(j) => j,
            Err(_) => return,
        };
        let Job {
            board,
            goal,
            opts,
            work,
            permit,
            reply,
        } = job;
        if reply.is_closed() {
            continue; // the client left while the request waited: nobody reads the answer
        }
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let start = Instant::now();
            // Small tables (analyses, statistics, MTM) are built in memory by `small`, never waiting behind the
            // background thread.
            let shape = board.shape();
            let in_small = shape.cells() < SMALL_TABLE_CELLS
                && !shape.is_line()
                && match &work {
                    Work::Analyse(..) | Work::Stats { .. } => true,
                    Work::Solve { .. } | Work::Render(_) => opts.metric == Metric::Mtm,
                    Work::Call(_) => false,
                };
            let solver = if in_small { small } else { solver };
            match work {
                Work::Solve { moves } => match solver.solve_with(&board, &goal, &opts) {
                    Ok(solution) => {
                        let seconds = start.elapsed().as_secs_f64();
                        let moves = if moves { Listing::Tiles } else { Listing::Omit };
                        Reply::json(
                            200,
                            answer_json(&board, &solution, seconds, moves, None, None),
                        )
                    }
                    Err(e) => Reply::error(error_status(&e), explain_http(&e)),
                },
                Work::Render(picture) => draw(solver, &board, &goal, &opts, picture),
                Work::Stats { plot } => statistics(solver, &goal, opts.metric, plot),
                Work::Call(f) => f(solver),
                Work::Analyse(moves, pattern) => match solver
                    .analyse_pattern(&board, &pattern, &moves, &opts)
                {
                    Ok(a) if opts.metric == Metric::Mtm => {
                        // The answer says that its distances count pushes.
                        let mut v: serde_json::Value =
                            serde_json::from_str(&analysis_json(&board, &a)).unwrap_or_default();
                        v["metric"] = serde_json::json!("mtm");
                        Reply::json(200, v.to_string())
                    }
                    Ok(a) => Reply::json(200, analysis_json(&board, &a)),
                    Err(
                        e @ (slide::Error::Solve(slide::SolveError::LimitReached { .. })
                        | slide::Error::Cancelled),
                    ) => Reply::error(error_status(&e), over_budget(&e, &opts)),
                    Err(e) => Reply::error(error_status(&e), explain_http(&e)),
                },
            }
        }))
        .unwrap_or_else(|_| {
            eprintln!("slide: serve: a solve panicked");
            Reply::error(500, "internal error: the solver failed on this board")
        });
        drop(permit);
        let _ = reply.send(answer);
    }
}

/// Why an analysis stopped: the library's words and the server's budget.
fn over_budget(e: &slide::Error, opts: &SolveOptions) -> String {
    let time = opts.timeout.map_or(0.0, |t| t.as_secs_f64());
    let nodes = opts.max_nodes.unwrap_or(u64::MAX);
    let what = match e {
        slide::Error::Cancelled => String::new(),
        e => format!(": {e}"),
    };
    format!(
        "the analysis did not finish within the server's budget ({time} s in all, {nodes} nodes per search){what}; `slide analyse` on the command line has no budget"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn permits_go_to_the_newest_waiter() {
        let p = Permits::new(1);
        let held = p.acquire(Duration::from_secs(1)).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..3 {
            let (p2, order) = (Arc::clone(&p), Arc::clone(&order));
            tasks.push(tokio::spawn(async move {
                let _permit = p2.acquire(Duration::from_secs(20)).await.unwrap();
                order.lock().unwrap().push(i);
                tokio::time::sleep(Duration::from_millis(5)).await;
            }));
            while p.lock().waiting.len() <= i {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
        drop(held);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [2, 1, 0]);
        let one = p.acquire(Duration::from_secs(1)).await.unwrap();
        assert!(p.acquire(Duration::from_millis(20)).await.is_none());
        assert!(p.lock().waiting.is_empty());
        drop(one);
        assert_eq!(p.lock().free, 1);
    }

    #[tokio::test]
    async fn a_waiter_that_leaves_gives_its_turn_away() {
        let p = Permits::new(1);
        let held = p.acquire(Duration::from_secs(1)).await.unwrap();
        // An older waiter that stays, and a newer one whose client leaves (its future is dropped).
        let p2 = Arc::clone(&p);
        let stays =
            tokio::spawn(async move { p2.acquire(Duration::from_secs(20)).await.is_some() });
        while p.lock().waiting.is_empty() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let p3 = Arc::clone(&p);
        let leaves =
            tokio::spawn(async move { p3.acquire(Duration::from_secs(20)).await.is_some() });
        while p.lock().waiting.len() < 2 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        leaves.abort();
        assert!(leaves.await.is_err());
        assert_eq!(p.lock().waiting.len(), 1);
        drop(held);
        assert!(stays.await.unwrap());
        assert_eq!(p.lock().free, 1);
        // A permit sent to a waiter whose wait ended at that moment is passed on, not lost.
        let w = Waiter {
            permits: &p,
            ticket: 99,
            rx: {
                let (tx, rx) = oneshot::channel();
                tx.send(()).unwrap();
                rx
            },
            done: false,
        };
        p.lock().free -= 1; // the permit in flight
        drop(w);
        assert_eq!(p.lock().free, 1);
    }
}
