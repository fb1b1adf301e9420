//! `slide serve`: a small local HTTP server for the web page (`assets/index.html`) and its JSON API.
//!
//! - `GET /` — the page.
//! - `POST /api/solve` — body `{"board": B, "goal"?: B, "moves"?: bool, "shape"?: "RxC"}` where `B` is a board in
//!   any text format `slide solve` reads, or an array of rows of whole numbers. The answer has the fields of
//!   `slide solve --json` (`board` as rows, `moves` — -1 when unsolvable, null when the budget stopped the search
//!   first —, `optimal`, `nodes`, `seconds`, `lower_bound` when not optimal, `solution` when moves are asked for)
//!   plus `reason` when the board cannot be solved.
//! - `GET /api/scramble?shape=RxC[&seed=S]` — `{"board": [[...]], "shape": "RxC"}`, a uniformly random solvable
//!   board of at most [`MAX_SCRAMBLE_CELLS`] cells.
//!
//! Errors are JSON `{"error": "..."}`: 400 for bad input, 404 for unknown paths, 405 for a wrong method, 408 when
//! the body does not arrive in time, 413 for bodies over [`MAX_BODY`], 503 when every solver stays busy for
//! [`QUEUE_WAIT`].
//!
//! Nothing holds the server long:
//! - Each request is handled on a thread of its own (tiny_http already keeps a thread for each connection), so a
//!   client that sends its body slowly, or not at all, holds only that thread; the body must also arrive within
//!   [`BODY_DEADLINE`] (checked between reads) and is read at most [`MAX_BODY`] + 1 bytes far. tiny_http 0.12 has
//!   no socket timeouts; setting `SO_RCVTIMEO` on the listening socket would make its accept loop stop at the
//!   first idle timeout, so there are none.
//! - At most `--threads` solves run at once (a counting semaphore): other requests wait for a turn, the newest
//!   first, for at most [`QUEUE_WAIT`].
//! - Every solve runs under a node and time budget (`--max-nodes`, `--timeout`): the answer is then
//!   `"optimal": false` with a `lower_bound`.
//! - No request ever waits for a table or pattern database to be built. Those are built by one background thread
//!   the first time a shape is asked for; until its data is ready, a shape's boards are answered by IDA* with the
//!   Manhattan + linear-conflict heuristic, which needs no tables (still exact when it finishes within the
//!   budget). Boards of [`LC_ONLY_CELLS`] cells or more (4x5, 5x5, ...) always use linear conflicts: their default
//!   pattern databases take minutes and gigabytes to build (5x5), far beyond what one request may hold. So do
//!   boards with a custom goal, whose tables would each be another build.

use std::collections::HashMap;
use std::io::ErrorKind;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::report::{answer_json, Moves};
use slide::request::{parse_solve, shorten};
use slide::Scrambler;
use slide::{Board, Shape, Solver};
use slide::{HeuristicChoice, Method, SolveOptions};
use tiny_http::{Header, Request, Response, Server};

use crate::{EXIT_OK, EXIT_USAGE};

/// The page, compiled into the binary.
const PAGE: &str = include_str!("../assets/index.html");
/// Largest request body accepted (64 KiB); larger ones get 413.
pub const MAX_BODY: usize = 64 << 10;
/// Most cells of a scrambled board.
pub const MAX_SCRAMBLE_CELLS: usize = 64;
/// Boards of at least this many cells are always searched with linear conflicts (see the module comment).
pub const LC_ONLY_CELLS: usize = 20;
/// The whole body must arrive within this time (checked between reads).
pub const BODY_DEADLINE: Duration = Duration::from_secs(10);
/// How long a request waits for a free solver before it gets 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(30);
/// After a 413 on a body without a Content-Length (chunked), read and throw away at most this much more of it, so
/// the connection stays usable for a well-behaved client.
const DISCARD_AFTER_413: usize = 1 << 20;
/// A Content-Length above this is refused without ever touching the body (see [`refuse_huge`]).
const HUGE_BODY: usize = 64 << 20;

#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free one (the URL printed on the first line of standard output tells which).
    #[arg(long, default_value_t = 8773, allow_hyphen_values = true)]
    pub port: u16,
    /// Address to listen on (an IP address or a host name). The default only accepts connections from this
    /// machine; 0.0.0.0 accepts them from anywhere.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: String,
    /// Time budget of one solve, in seconds (more than 0, at most 86400); the answer is then marked as not proven
    /// optimal.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = crate::numbers::serve_timeout)]
    pub timeout: f64,
    /// Node budget of one solve (0 to 18446744073709551615).
    #[arg(
        long,
        default_value_t = 50_000_000,
        value_name = "N",
        allow_hyphen_values = true
    )]
    pub max_nodes: u64,
    /// Most solves running at once, 1 to 256 (default: the number of cores, at least 2); other requests wait for
    /// a turn.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::numbers::serve_threads)]
    pub threads: Option<usize>,
}

pub fn run(solver: &Solver, args: &ServeArgs) -> anyhow::Result<u8> {
    let addr: SocketAddr = match (args.bind.as_str(), args.port).to_socket_addrs() {
        Ok(mut a) => match a.next() {
            Some(a) => a,
            None => {
                eprintln!("slide: --bind: {:?} has no address", args.bind);
                return Ok(EXIT_USAGE);
            }
        },
        Err(e) => {
            eprintln!("slide: --bind: {:?}: {e}", args.bind);
            return Ok(EXIT_USAGE);
        }
    };
    let listener =
        TcpListener::bind(addr).map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    let server = Server::from_listener(listener, None)
        .map_err(|e| anyhow::anyhow!("cannot serve on {local}: {e}"))?;

    let url = if local.ip().is_unspecified() {
        let here = SocketAddr::new(
            if local.is_ipv4() {
                [127, 0, 0, 1].into()
            } else {
                std::net::Ipv6Addr::LOCALHOST.into()
            },
            local.port(),
        );
        format!("http://{here}/ (listening on all interfaces, {local})")
    } else {
        format!("http://{local}/")
    };
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "slide: serving on {url} (Ctrl-C to stop)")?;
        out.flush()?;
    }

    let workers = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .max(2)
    });
    let (tx, rx) = sync_channel::<Shape>(16);
    let app = App {
        solver,
        budget: Budget {
            // Checked by the value parser: more than 0 and at most a day.
            time: Duration::try_from_secs_f64(args.timeout)?,
            nodes: args.max_nodes,
        },
        warm: Warm {
            state: Mutex::new(HashMap::new()),
            queue: tx,
        },
        permits: Permits::new(workers),
    };
    std::thread::scope(|s| {
        let app = &app;
        s.spawn(move || app.warm_loop(rx));
        loop {
            let rq = match server.recv() {
                Ok(rq) => rq,
                Err(e) => {
                    eprintln!("slide: serve: {e}");
                    break;
                }
            };
            let spawned = std::thread::Builder::new()
                .name("slide-request".into())
                .spawn_scoped(s, move || {
                    // A panic answers 500 (tiny_http does that for a dropped request); the server goes on.
                    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.handle(rq)))
                        .is_err()
                    {
                        eprintln!("slide: serve: a request handler panicked");
                    }
                });
            if let Err(e) = spawned {
                eprintln!("slide: serve: cannot start a thread: {e}");
            }
        }
        // Only reached when the listener fails; the warming thread may be in the middle of a build.
        std::process::exit(i32::from(crate::EXIT_BAD_INPUT));
    });
    #[allow(unreachable_code)]
    Ok(EXIT_OK)
}

/// A counting semaphore: at most so many solves at once. Waiting requests get their turn newest first: the page
/// asks again after every move and drops the answers to older boards (the server cannot tell that their clients
/// left), so the newest request is the one somebody is waiting for.
struct Permits {
    state: Mutex<PermitState>,
    freed: Condvar,
}

struct PermitState {
    free: usize,
    next_ticket: u64,
    waiting: std::collections::BTreeSet<u64>,
}

struct Permit<'a>(&'a Permits);

impl Permits {
    fn new(n: usize) -> Permits {
        Permits {
            state: Mutex::new(PermitState {
                free: n,
                next_ticket: 0,
                waiting: Default::default(),
            }),
            freed: Condvar::new(),
        }
    }

    /// A permit, or `None` when none came free for this request within `wait`.
    fn acquire(&self, wait: Duration) -> Option<Permit<'_>> {
        let deadline = Instant::now() + wait;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let ticket = st.next_ticket;
        st.next_ticket += 1;
        st.waiting.insert(ticket);
        loop {
            if st.free > 0 && st.waiting.last() == Some(&ticket) {
                st.waiting.remove(&ticket);
                st.free -= 1;
                if st.free > 0 && !st.waiting.is_empty() {
                    self.freed.notify_all(); // the next newest may go too
                }
                return Some(Permit(self));
            }
            let now = Instant::now();
            if now >= deadline {
                st.waiting.remove(&ticket);
                if st.free > 0 {
                    self.freed.notify_all(); // this one was perhaps the newest: let another take the permit
                }
                return None;
            }
            st = self
                .freed
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.0.state.lock().unwrap_or_else(|e| e.into_inner()).free += 1;
        self.0.freed.notify_all();
    }
}

struct Budget {
    time: Duration,
    nodes: u64,
}

/// Which shapes have their tables or pattern databases (for the default goal) loaded.
struct Warm {
    state: Mutex<HashMap<Shape, WarmState>>,
    queue: SyncSender<Shape>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum WarmState {
    Queued,
    Ready,
    Failed,
}

impl Warm {
    /// True when the shape's data is loaded; otherwise asks the background thread to load or build it.
    fn ready(&self, shape: Shape) -> bool {
        let mut m = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match m.get(&shape) {
            Some(s) => *s == WarmState::Ready,
            None => {
                match self.queue.try_send(shape) {
                    Ok(()) => {
                        m.insert(shape, WarmState::Queued);
                    }
                    Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {} // asked again later
                }
                false
            }
        }
    }

    fn set(&self, shape: Shape, s: WarmState) {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(shape, s);
    }
}

struct App<'a> {
    solver: &'a Solver,
    budget: Budget,
    warm: Warm,
    permits: Permits,
}

/// An answer: status, content type, body, extra headers.
struct Reply {
    status: u16,
    html: bool,
    body: String,
    allow: Option<&'static str>,
}

impl Reply {
    fn json(status: u16, body: String) -> Reply {
        Reply {
            status,
            html: false,
            body,
            allow: None,
        }
    }

    fn error(status: u16, message: impl AsRef<str>) -> Reply {
        Reply::json(
            status,
            serde_json::json!({ "error": message.as_ref() }).to_string(),
        )
    }

    /// The same status and headers with an empty body (for [`refuse_huge`], which writes the body itself).
    fn headers_only(&self) -> Reply {
        Reply {
            status: self.status,
            html: self.html,
            body: String::new(),
            allow: self.allow,
        }
    }

    fn method_not_allowed(method: &tiny_http::Method, path: &str, allow: &'static str) -> Reply {
        let mut r = Reply::error(
            405,
            format!("method {method} is not allowed on {path}: use {allow}"),
        );
        r.allow = Some(allow);
        r
    }
}

impl App<'_> {
    fn handle(&self, mut rq: Request) {
        let url = rq.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let method = rq.method().clone();
        use tiny_http::Method::{Get, Head, Post};
        let reply = match path {
            "/" | "/index.html" => match method {
                Get | Head => Reply {
                    status: 200,
                    html: true,
                    body: PAGE.to_string(),
                    allow: None,
                },
                _ => Reply::method_not_allowed(&method, path, "GET"),
            },
            "/api/solve" => match method {
                Post => match read_body(&mut rq) {
                    Ok(body) => self.solve(&body),
                    Err(BodyError::Huge) => return refuse_huge(rq),
                    Err(BodyError::Reply(r)) => r,
                },
                _ => Reply::method_not_allowed(&method, path, "POST"),
            },
            "/api/scramble" => match method {
                Get | Head => scramble(query),
                _ => Reply::method_not_allowed(&method, path, "GET"),
            },
            _ => Reply::error(404, format!("not found: {}", shorten(path, 200))),
        };
        // After a 413, answering drops the request, and tiny_http then reads the rest of the announced body to
        // skip it, on this request's own thread.
        let _ = rq.respond(response(reply));
    }

    fn solve(&self, body: &[u8]) -> Reply {
        let req = match parse_solve(body) {
            Ok(r) => r,
            Err(e) => return Reply::error(400, e),
        };
        let board = req.board;
        let goal = req.goal.unwrap_or_else(|| Board::goal(board.shape()));
        if goal.shape() != board.shape() {
            return Reply::error(
                400,
                format!(
                    "shape mismatch: the board is {} but the goal is {}",
                    board.shape(),
                    goal.shape()
                ),
            );
        }
        let opts = self.options(&board, &goal);
        let Some(_permit) = self.permits.acquire(QUEUE_WAIT) else {
            return Reply::error(
                503,
                "the server is busy with other boards: try again in a moment",
            );
        };
        let start = Instant::now();
        let solution = match self.solver.solve_with(&board, &goal, &opts) {
            Ok(s) => s,
            Err(e @ slide::Error::Cache(_)) => return Reply::error(500, e.to_string()),
            Err(e) => return Reply::error(400, e.to_string()),
        };
        let seconds = start.elapsed().as_secs_f64();
        let moves = if req.moves { Moves::Tiles } else { Moves::Omit };
        let out = answer_json(&board, &solution, seconds, moves, None, None);
        Reply::json(200, out)
    }

    /// The solve options for a board: always under the budget, and never waiting for a table to be built.
    fn options(&self, board: &Board, goal: &Board) -> SolveOptions {
        let shape = board.shape();
        let base = SolveOptions {
            max_nodes: Some(self.budget.nodes),
            timeout: Some(self.budget.time),
            ..SolveOptions::default()
        };
        let lc = SolveOptions {
            method: Method::Search,
            heuristic: HeuristicChoice::LinearConflict,
            ..base.clone()
        };
        if shape.is_line() || !board.is_solvable(goal).unwrap_or(true) {
            return base; // answered at once, without any table
        }
        if shape.cells() >= LC_ONLY_CELLS || !goal.is_default_goal() {
            return lc;
        }
        if self.warm.ready(shape) {
            base // complete table (at most 12 cells) or pattern databases, already in memory
        } else {
            lc
        }
    }

    /// Loads or builds, one shape at a time, what the solver needs for a shape's default goal.
    fn warm_loop(&self, rx: Receiver<Shape>) {
        for shape in rx {
            let goal = Board::goal(shape);
            let opts = SolveOptions {
                method: if shape.cells() <= slide::engine::table::MAX_TABLE_CELLS {
                    Method::Table
                } else {
                    Method::Search
                },
                ..SolveOptions::default()
            };
            // Solving the goal itself loads the table or the pattern databases and then finds nothing to do.
            let state = match self.solver.solve_with(&goal, &goal, &opts) {
                Ok(_) => WarmState::Ready,
                Err(e) => {
                    eprintln!("slide: serve: {shape}: {e}; searching without tables");
                    WarmState::Failed
                }
            };
            self.warm.set(shape, state);
        }
    }
}

fn response(r: Reply) -> Response<std::io::Cursor<Vec<u8>>> {
    let ctype = if r.html {
        "text/html; charset=utf-8"
    } else {
        "application/json"
    };
    let mut resp = Response::from_data(r.body.into_bytes())
        .with_status_code(r.status)
        .with_chunked_threshold(usize::MAX)
        .with_header(header("Content-Type", ctype))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    if let Some(a) = r.allow {
        resp = resp.with_header(header("Allow", a));
    }
    resp
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

enum BodyError {
    /// A Content-Length too large to let tiny_http skip the body.
    Huge,
    Reply(Reply),
}

fn too_large() -> Reply {
    Reply::error(
        413,
        format!("request body too large: at most {} KiB", MAX_BODY >> 10),
    )
}

/// Reads a request body of at most [`MAX_BODY`] bytes within [`BODY_DEADLINE`].
fn read_body(rq: &mut Request) -> Result<Vec<u8>, BodyError> {
    if let Some(n) = rq.body_length() {
        if n > HUGE_BODY {
            return Err(BodyError::Huge);
        }
        if n > MAX_BODY {
            // tiny_http reads and drops the rest of the body (bounded by the socket timeout) after the answer.
            return Err(BodyError::Reply(too_large()));
        }
    }
    let deadline = Instant::now() + BODY_DEADLINE;
    let chunked = rq.body_length().is_none();
    let reader = rq.as_reader();
    let mut body = Vec::new();
    let mut buf = [0u8; 8192];
    let mut over = false;
    let mut discarded = 0usize;
    loop {
        if Instant::now() > deadline {
            return Err(BodyError::Reply(Reply::error(
                408,
                "the request body did not arrive in time",
            )));
        }
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(k) if over => {
                discarded += k;
                if discarded > DISCARD_AFTER_413 {
                    break;
                }
            }
            Ok(k) => {
                body.extend_from_slice(&buf[..k]);
                if body.len() > MAX_BODY {
                    if !chunked {
                        break;
                    }
                    over = true;
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(BodyError::Reply(Reply::error(
                    408,
                    "the request body did not arrive in time",
                )));
            }
            Err(e) => {
                return Err(BodyError::Reply(Reply::error(
                    400,
                    format!("could not read the request body: {e}"),
                )));
            }
        }
    }
    if body.len() > MAX_BODY {
        return Err(BodyError::Reply(too_large()));
    }
    Ok(body)
}

/// Answers 413 to a request whose Content-Length is absurdly large, without ever letting the request be dropped:
/// tiny_http 0.12, on dropping a request, allocates a buffer as large as the unread rest of the body to skip it,
/// and for a length beyond the memory (say `Content-Length: 1000000000000`) that aborts the whole process. The only
/// way tiny_http gives the body reader away is an upgraded connection, so the 413 goes out that way (with
/// `Connection: upgrade` and the body delimited by the end of the connection) and the connection is then
/// abandoned: its reading thread stays parked and the socket open until the client leaves or the process ends.
/// Only a broken or hostile client sends such a request.
fn refuse_huge(rq: Request) {
    let reply = too_large();
    let mut stream = rq.upgrade("none", response(reply.headers_only()));
    use std::io::Write;
    let _ = stream.write_all(reply.body.as_bytes());
    let _ = stream.flush();
    std::mem::forget(stream);
}

fn scramble(query: &str) -> Reply {
    let mut shape_text = None;
    let mut seed_text = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match percent_decode(k).as_str() {
            "shape" => shape_text = Some(percent_decode(v)),
            "seed" => seed_text = Some(percent_decode(v)),
            _ => {}
        }
    }
    let Some(shape_text) = shape_text else {
        return Reply::error(400, "missing shape: ask for /api/scramble?shape=3x3 (RxC)");
    };
    let shape: Shape = match shape_text.parse() {
        Ok(s) => s,
        Err(e) => return Reply::error(400, format!("shape: {e}")),
    };
    if shape.cells() > MAX_SCRAMBLE_CELLS {
        return Reply::error(
            400,
            format!(
                "shape {shape} has {} cells; scrambles go up to {MAX_SCRAMBLE_CELLS} cells",
                shape.cells()
            ),
        );
    }
    let seed = match seed_text.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) => match s.parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                return Reply::error(
                    400,
                    format!(
                        "seed: {:?} is not a whole number from 0 to {}",
                        shorten(s, 40),
                        u64::MAX
                    ),
                )
            }
        },
    };
    let mut rng = match seed {
        Some(s) => Scrambler::new(s),
        None => Scrambler::from_entropy(),
    };
    let board = rng.uniform(&Board::goal(shape));
    let seed = seed.map_or(String::new(), |s| format!(", \"seed\": {s}"));
    Reply::json(
        200,
        format!("{{\"board\": {board}, \"shape\": \"{shape}\"{seed}}}"),
    )
}

/// Decodes `%XX` escapes and `+` (a space) in a query component; bad escapes are kept as they are.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(b[i + 1]), hex(b[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 3;
                        continue;
                    }
                    _ => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// At most `max` characters of `s`, with an ellipsis when cut.
#[cfg(test)]
mod tests {
    use super::*;
    use slide::request::board_from_value;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("3x4"), "3x4");
        assert_eq!(percent_decode("3%78%34"), "3x4");
        assert_eq!(percent_decode("a+b"), "a b");
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%zz1"), "%zz1");
    }

    #[test]
    fn permits_go_to_the_newest_waiter() {
        let p = Permits::new(1);
        let held = p.acquire(Duration::from_secs(1)).unwrap();
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for i in 0..3 {
                let (p, order) = (&p, &order);
                s.spawn(move || {
                    let _permit = p.acquire(Duration::from_secs(20)).unwrap();
                    order.lock().unwrap().push(i);
                    std::thread::sleep(Duration::from_millis(5));
                });
                while p.state.lock().unwrap().waiting.len() <= i {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            drop(held);
        });
        assert_eq!(*order.lock().unwrap(), [2, 1, 0]);
        let _one = p.acquire(Duration::from_secs(1)).unwrap();
        assert!(p.acquire(Duration::from_millis(20)).is_none());
        assert!(p.state.lock().unwrap().waiting.is_empty());
    }

    #[test]
    fn boards_from_json_values() {
        let v: serde_json::Value = serde_json::from_str("[[1,2,3],[4,0,5]]").unwrap();
        assert_eq!(
            board_from_value(&v, None, "board").unwrap().to_string(),
            "[[1,2,3],[4,0,5]]"
        );
        let bad = |s: &str| {
            board_from_value(&serde_json::from_str(s).unwrap(), None, "board").unwrap_err()
        };
        assert!(
            bad("[[1,2,3],[4,0.5,5]]").contains("0.5 is not a whole number"),
            "{}",
            bad("[[1,2,3],[4,0.5,5]]")
        );
        assert!(bad("[[1,2,3],[4,-1,5]]").contains("-1 is negative"));
        assert!(bad("[[1,2,3],[4,\"x\",5]]").contains("\"x\" is not a number"));
        assert!(bad("[[1,2,3],[4,0]]").contains("ragged"));
        assert!(bad("[[1,2,3],[4,4,0]]").contains("duplicate value 4"));
        assert!(bad("[[1,2,3],5]").contains("row 2 is not an array"));
        assert!(bad("7").contains("must be a string"));
    }
}
