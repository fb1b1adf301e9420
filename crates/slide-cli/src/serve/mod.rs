//! `slide serve`: a small local HTTP server for the web page (`assets/index.html`) and its JSON API.
//!
//! - `GET /` — the page.
//! - `POST /api/solve` — body `{"board": B, "goal"?: B, "moves"?: bool, "shape"?: "RxC", "metric"?: "stm" | "mtm"}`
//!   (`Content-Type: application/json`) where `B` is a board in any text format `slide solve` reads, or an array of
//!   rows of whole numbers. The answer has the fields of `slide solve --json` (`board` as rows, `moves` — -1 when
//!   unsolvable, null when the budget stopped the search first —, `metric`, `optimal`, `nodes`, `seconds`,
//!   `lower_bound` when not optimal, `bound` for a weighted fallback answer, `method: "fast"` for a fast-mode one,
//!   `solution` when moves are asked for) plus `reason` when the board cannot be solved. `"metric": "mtm"` counts
//!   multi-tile moves: boards of at most 12 cells (complete tables), 4x4 (IDA* with the MTM label tables, under the
//!   budget, without a fallback) and single rows or columns; tables of 11 cells and more come from the background
//!   thread, waited for as an analysis's (below).
//! - `POST /api/analyse` — body `{"board": B, "moves": M, "goal"?: B, "blank"?: bool, "shape"?: "RxC"}` where `M`
//!   is a move sequence in any notation `slide analyse` reads (tile numbers `"5 4 1"`, tile letters long or short
//!   `"R2U2LD"`, any case, spaces allowed; `"blank": true` reads letters as the blank's directions) or an array of
//!   tile numbers, at most [`MAX_ANALYSE_MOVES`] moves. The answer is the object of `slide analyse --json` (`board`,
//!   `solves`, `length`, `mtm_length`, `optimal`, `over`, `distances`, `mistakes`). A bad move is a 400 naming it
//!   (`moves: move 7 (U): no tile below the blank`); an analysis the budget stops is a 503 saying so. Up to 12 cells
//!   every distance comes from the complete table: under [`SMALL_TABLE_CELLS`] cells one the solver thread builds
//!   in memory if needed (about a second or less), for 11 and 12 cells the one the background thread loads or
//!   builds, which the request waits for (without holding a solver) up to [`QUEUE_WAIT`], then 503. Above 12 cells
//!   from IDA* at each position that needs it, under the solve budget per search and `--timeout` for the whole
//!   analysis.
//! - `POST /api/moves` — the body of `/api/analyse`; the moves read and played on the board (at most
//!   [`MAX_ANALYSE_MOVES`], boards of at most [`MAX_SCRAMBLE_CELLS`] cells), without a solver: `{"board", "tiles":
//!   [the tiles that slide], "end": the board they leave, "length", "mtm_length"}`; a bad move is a 400 naming it.
//! - `GET /api/scramble?shape=RxC[&seed=S]` — `{"board": [[...]], "shape": "RxC"}`, a uniformly random solvable
//!   board of at most [`MAX_SCRAMBLE_CELLS`] cells.
//! - `GET /api/render?board=B[&format=png|gif|svg][&moves=M|&solve=1[&metric=stm|mtm]][&size=PX]
//!   [&scheme=plain|fringe][&theme=light|dark]` — a picture from [`slide::render`], as a file to save
//!   (`Content-Disposition: attachment`): the board as PNG (the default) or SVG, or an animation (GIF, the default,
//!   or animated SVG) of the moves `M` (any notation `slide analyse` reads) or of the solution the server finds
//!   under its budget (`X-Slide-Optimal` says whether it is proven shortest). Boards of at most
//!   [`MAX_SCRAMBLE_CELLS`] cells, at most [`MAX_ANALYSE_MOVES`] moves; the size and the GIF limits are the render
//!   module's. Drawn on a solver thread,
//!   under a permit like a solve.
//! - `GET /api/status` — what the background thread has loaded or is building (see below): `{"builds": [{"shape",
//!   "metric", "blank", "what", "state", "fraction", "step", "steps", "memory_mb", "error"?}]}`, one entry per goal
//!   asked for, `state` one of `queued`, `loading`, `building`, `ready`, `failed`, `off`; `fraction` (0 to 1) is
//!   the part of the work done over its `steps` (pattern databases, or tables).
//! - `GET /api/stats?shape=RxC[&metric=stm|mtm]` — `{"shape", "metric", "goal", "states", "gods_number",
//!   "histogram", "antipodes"}` for shapes of at most 12 cells (or a single row or column of at most
//!   [`MAX_SCRAMBLE_CELLS`]), from the complete table: built in memory under [`SMALL_TABLE_CELLS`] cells, waited for
//!   from the background thread above (503 after [`QUEUE_WAIT`]). `GET /api/stats/plot?…` — the same histogram as
//!   an SVG chart ([`slide::render::plot::distance_chart`]). Unknown or repeated query parameters are a 400.
//!
//! Errors are JSON `{"error": "..."}`: 400 for bad input, 403 for a foreign `Host`, 404 for unknown paths, 405
//! for a wrong method, 408 when the body does not arrive in time, 413 for bodies over [`MAX_BODY`], 415 for a
//! POST whose body is not declared as JSON, 503 when every solver stays busy for [`QUEUE_WAIT`] (or a library
//! error says the work cannot be done now, see [`error_status`]), 500 for an internal error.
//!
//! Only pages of this machine's user may drive it: a request's `Host` must name the bound address, `localhost`,
//! or a name given with `--allow-host` (any IP address when bound to all interfaces), so a web page whose name
//! is rebound to 127.0.0.1 (DNS rebinding) is refused; a POST must say `Content-Type: application/json`, which a
//! cross-site form or `text/plain` fetch cannot send without the browser asking first (and nothing here answers
//! that CORS preflight).
//!
//! Nothing holds the server long (the stalled-connection test, `scripts/stall-serve.py`, measures it):
//! - It runs on a small tokio runtime ([`RUNTIME_THREADS`] threads) with hyper's HTTP/1.1 server: a connection
//!   costs a task and its buffers, not a thread. At most [`MAX_CONNECTIONS`] are open at once; more wait to be
//!   accepted.
//! - Request headers must arrive within [`HEADER_DEADLINE`] (also the longest a kept-alive connection may stay
//!   idle), the whole body within [`BODY_DEADLINE`] (408), and a response write that makes no progress for
//!   [`WRITE_DEADLINE`] (a client that does not read) closes the connection. Headers may take at most
//!   [`MAX_HEADER_BYTES`]; bodies are read at most [`MAX_BODY`] + 1 bytes far (a too-large Content-Length is
//!   refused before reading).
//! - Solves and analyses never run on the runtime's threads: at most `--threads` of them run at once, on as many
//!   solver threads of their own; other requests wait for a turn (a permit), the newest first, for at most
//!   [`QUEUE_WAIT`]. A request whose client has left is dropped without being solved.
//! - Every solve runs under a node and time budget (`--max-nodes`, `--timeout`), with the library's fallback
//!   ([`slide::SolveOptions::fallback`]): when the optimal search does not finish within a quarter of it, the answer
//!   is still a solution, `"optimal": false` with the proven `lower_bound`, from weighted IDA* (`"bound": W`, the
//!   factor it is proven within) or else fast mode (`"method": "fast"`).
//! - No solve ever waits for a table or pattern database to be built (an analysis of 11 or 12 cells waits for
//!   its table without holding a solver, see above): the method is the library's planning
//!   point's ([`slide::Solver::plan`]) with `wait_for_builds` off, which answers from what is in memory and
//!   otherwise by IDA* with the Manhattan + linear-conflict heuristic, which needs no tables (still exact when it
//!   finishes within the budget). One background thread (`warm.rs`) loads or builds a shape's data the first time
//!   it is asked for, one shape at a time, for shapes of at most [`slide::FAST_DEFAULT_CELLS`] cells with the
//!   default goal only (and the complete table of an analysis's goal, which depends only on the goal's shape and
//!   blank cell; each custom goal would be another build). The 5x5 pattern databases (the default pair
//!   `zbdefault|zbalt`) take about 2 minutes of two cores the first time, then 5.9 GB in memory (plain 6-6-6-6, 488
//!   MB, under a `--max-memory` below the pair's 6.4 GB), loaded from the cache in seconds; meanwhile 5x5 boards are
//!   searched with linear conflicts, and `GET /api/status` says how far the build is. `--no-large-builds` keeps
//!   whatever searches more than [`crate::warm::LARGE_BUILD_STATES`] states off (the 5x5 databases); the global
//!   `--max-memory` makes the library refuse the builds over it (files already in the cache are still loaded).
//! - So its threads are: the main thread, the runtime's, the solver threads, the warm-up thread and its rayon pool
//!   (one thread per core, for the builds), and the library's global rayon pool (small tables built in memory)
//!   — a fixed number, whatever the clients do.
//! - Ctrl-C (or SIGTERM) stops accepting connections, gives the requests under way up to [`SHUTDOWN_GRACE`] to
//!   finish, and exits with status 0 (a second Ctrl-C exits at once).

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use http_body_util::BodyExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::sync::{oneshot, Semaphore};
use tokio_io_timeout::TimeoutStream;
use tower_http::catch_panic::CatchPanicLayer;

use crate::report::{analysis_json, answer_json, Moves};
use crate::warm::{Warm, WarmState};
use slide::engine::table::MAX_TABLE_CELLS;
use slide::render::{self, Scheme, Style, Theme};
use slide::request::{parse_analyse, parse_solve, shorten};
use slide::Scrambler;
use slide::SolveOptions;
use slide::{Board, Metric, Shape, Solver};

use crate::{EXIT_OK, EXIT_USAGE};

/// The page, compiled into the binary.
const PAGE: &str = include_str!("../assets/index.html");
/// Largest request body accepted (64 KiB); larger ones get 413.
pub const MAX_BODY: usize = 64 << 10;
/// Most cells of a board the server scrambles, solves or analyses (boards over 25 cells are answered by fast mode).
pub const MAX_SCRAMBLE_CELLS: usize = 64;
/// Longest move sequence `POST /api/analyse` takes (single-tile moves; `R3` is three). Above 12 cells each move may
/// cost a search; the whole analysis also stays within one time budget.
pub const MAX_ANALYSE_MOVES: usize = 10_000;
/// Analyses of boards under this many cells (not single lines) build their small table on the solver thread, in
/// memory, with a solver of their own (about a second or less in an optimised build), so that they never wait
/// behind the background thread's long builds; from this size up (11 and 12 cells: minutes to build, or a load
/// from the cache) they wait for the background thread.
pub const SMALL_TABLE_CELLS: usize = slide::DEFAULT_CACHE_FROM_CELLS;
/// A request's headers must arrive within this time, counted from the first wait for them (for a kept-alive
/// connection: from the end of the previous response); otherwise the connection is closed.
pub const HEADER_DEADLINE: Duration = Duration::from_secs(10);
/// The whole body must arrive within this time after the headers; otherwise 408.
pub const BODY_DEADLINE: Duration = Duration::from_secs(10);
/// A connection whose response makes no progress for this long (the client does not read) is closed.
pub const WRITE_DEADLINE: Duration = Duration::from_secs(10);
/// How long a request waits for a free solver before it gets 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(30);
/// Most connections open at once; further ones wait in the listening socket's backlog until one closes.
pub const MAX_CONNECTIONS: usize = 4096;
/// Most bytes of request headers (hyper's read buffer); more get 431.
pub const MAX_HEADER_BYTES: usize = 16 << 10;
/// Worker threads of the async runtime that runs the connections (solves run on threads of their own).
pub const RUNTIME_THREADS: usize = 2;
/// After Ctrl-C, how long the requests under way may take to finish.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// After a 413 on a body without a Content-Length (chunked), read and throw away at most this much more of it, so
/// the connection stays usable for a well-behaved client.
const DISCARD_AFTER_413: usize = 1 << 20;
/// The listening socket's backlog: connections the kernel completes before they are accepted.
const BACKLOG: u32 = 1024;

#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free one (the URL printed on the first line of standard output tells which).
    #[arg(long, default_value_t = 8773, allow_hyphen_values = true, value_parser = crate::numbers::port)]
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
    /// The longest time budget a solve may ask for (`"timeout"` in `POST /api/solve`: the page's "Keep searching"),
    /// in seconds (0 to 86400; 0: none longer than --timeout). The node budget grows in proportion.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS", allow_hyphen_values = true,
          value_parser = crate::numbers::serve_max_timeout)]
    pub max_timeout: f64,
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
    /// Also answer requests whose Host is NAME (repeatable); by default only the bound address and localhost
    /// are answered, so that other web sites cannot reach the server through their own names.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Never load or build the tables and pattern databases whose build searches more than 2·10⁹ states (today the 5x5
    /// pattern databases: minutes of two cores the first time); those boards are then searched
    /// with linear conflicts (weaker). To use databases already in the cache without ever building them, give
    /// `slide --max-memory 100 serve` instead: under a budget below the 5x5 default pair's 6.4 GB, the 5x5
    /// default is plain 6-6-6-6 (each database needs 245 MB to build, 154 MB by the compact build).
    #[arg(long)]
    pub no_large_builds: bool,
}

/// Serves until Ctrl-C. `solver` reports its progress to `warm` (see `main.rs`), whose queue `warm_rx` the warm-up
/// thread reads.
pub fn run(
    solver: &Solver,
    warm: Arc<Warm>,
    warm_rx: Receiver<(Board, Metric)>,
    args: &ServeArgs,
) -> anyhow::Result<u8> {
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
    let hosts = match Hosts::new(addr.ip(), &args.bind, &args.allow_host) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("slide: --allow-host: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let workers = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .max(2)
    });

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(RUNTIME_THREADS)
        .max_blocking_threads(2)
        .thread_name("slide-http")
        .enable_io()
        .enable_time()
        .build()?;
    let listener = rt.block_on(listen(addr))?;
    let local = listener.local_addr()?;

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

    // The small tables of analyses (see [`SMALL_TABLE_CELLS`]): built in memory, under a lock of their own.
    let small = Solver::with_store(None, Arc::new(slide::NoProgress));
    let (job_tx, job_rx) = sync_channel::<Job>(workers);
    let job_rx = Mutex::new(job_rx);
    let app = Arc::new(App {
        budget: Budget {
            // Checked by the value parsers: more than 0 and at most a day; 0 to a day.
            time: Duration::try_from_secs_f64(args.timeout)?,
            nodes: args.max_nodes,
        },
        max_time: Duration::try_from_secs_f64(args.max_timeout.max(args.timeout))?,
        warm: Arc::clone(&warm),
        permits: Permits::new(workers),
        jobs: job_tx,
        hosts,
    });
    std::thread::scope(|s| -> anyhow::Result<u8> {
        let cannot = |e: std::io::Error| anyhow::anyhow!("cannot start a thread: {e}");
        let warm = &warm;
        std::thread::Builder::new()
            .name("slide-warm".into())
            .spawn_scoped(s, move || crate::warm::run(solver, warm, warm_rx))
            .map_err(cannot)?;
        let small = &small;
        for _ in 0..workers {
            let job_rx = &job_rx;
            std::thread::Builder::new()
                .name("slide-solve".into())
                .spawn_scoped(s, move || solve_loop(solver, small, job_rx))
                .map_err(cannot)?;
        }
        let code = rt.block_on(serve(listener, app));
        rt.shutdown_timeout(Duration::from_secs(1));
        // The warm-up thread may be in the middle of a build (minutes); table files are written atomically, so
        // the process may end under it.
        std::process::exit(i32::from(code))
    })
}

/// The listening socket (with a backlog of [`BACKLOG`] connections).
async fn listen(addr: SocketAddr) -> anyhow::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()
    } else {
        tokio::net::TcpSocket::new_v6()
    }
    .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket
        .bind(addr)
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    socket
        .listen(BACKLOG)
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))
}

/// Accepts and serves connections until Ctrl-C; returns the exit status.
async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> u8 {
    let router = router(app);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_DEADLINE)
        .max_buf_size(MAX_HEADER_BYTES)
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut stop = std::pin::pin!(stop_signal());
    let mut last_error_report: Option<Instant> = None;
    loop {
        let slot = tokio::select! {
            s = Arc::clone(&slots).acquire_owned() => match s {
                Ok(s) => s,
                Err(_) => break, // never closed
            },
            () = &mut stop => break,
        };
        let tcp = tokio::select! {
            r = listener.accept() => match r {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    // Out of file descriptors (EMFILE) and the like: wait a little rather than spin; a
                    // connection the client aborted before it was accepted is no news.
                    use std::io::ErrorKind::{ConnectionAborted, ConnectionReset};
                    if !matches!(e.kind(), ConnectionAborted | ConnectionReset)
                        && last_error_report.is_none_or(|t| t.elapsed() > Duration::from_secs(10))
                    {
                        eprintln!("slide: serve: cannot accept a connection: {e}");
                        last_error_report = Some(Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = tcp.set_nodelay(true);
        let mut io = TimeoutStream::new(tcp);
        io.set_write_timeout(Some(WRITE_DEADLINE));
        let conn = http.serve_connection(
            TokioIo::new(Box::pin(io)),
            TowerToHyperService::new(router.clone()),
        );
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // Errors here are the client's (gone, too slow, not HTTP): nothing to do but close.
            let _ = conn.await;
            drop(slot);
        });
    }
    drop(listener);
    let open = graceful.count();
    if open > 0 {
        eprintln!(
            "slide: stopping: waiting up to {} s for {open} open connections",
            SHUTDOWN_GRACE.as_secs()
        );
    }
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            eprintln!("slide: stopping: requests still under way are dropped");
        }
        () = stop_signal() => {}
    }
    EXIT_OK
}

/// Resolves on Ctrl-C (SIGINT) or, on Unix, SIGTERM. Never resolves when no handler can be installed.
async fn stop_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

/// The routes, behind the Host check and a panic catcher (a panicking handler answers 500; the server goes on).
fn router(app: Arc<App>) -> Router {
    let page = || get(|| std::future::ready(Reply::page())).fallback(not_allowed("GET"));
    Router::new()
        .route("/", page())
        .route("/index.html", page())
        .route("/api/solve", post(solve).fallback(not_allowed("POST")))
        .route("/api/analyse", post(analyse).fallback(not_allowed("POST")))
        .route("/api/moves", post(moves).fallback(not_allowed("POST")))
        .route(
            "/api/render",
            get(|State(app): State<Arc<App>>, uri: Uri| async move {
                app.render(uri.query().unwrap_or("")).await
            })
            .fallback(not_allowed("GET")),
        )
        .route(
            "/api/stats",
            get(|State(app): State<Arc<App>>, uri: Uri| async move {
                app.stats(uri.query().unwrap_or(""), false).await
            })
            .fallback(not_allowed("GET")),
        )
        .route(
            "/api/stats/plot",
            get(|State(app): State<Arc<App>>, uri: Uri| async move {
                app.stats(uri.query().unwrap_or(""), true).await
            })
            .fallback(not_allowed("GET")),
        )
        .route(
            "/api/status",
            get(|State(app): State<Arc<App>>| {
                std::future::ready(Reply::json(200, app.status_json()))
            })
            .fallback(not_allowed("GET")),
        )
        .route(
            "/api/scramble",
            get(|uri: Uri| std::future::ready(scramble(uri.query().unwrap_or(""))))
                .fallback(not_allowed("GET")),
        )
        .fallback(|uri: Uri| {
            std::future::ready(Reply::error(
                404,
                format!("not found: {}", shorten(uri.path(), 200)),
            ))
        })
        .layer(middleware::from_fn_with_state(Arc::clone(&app), check_host))
        .layer(CatchPanicLayer::custom(|_| {
            eprintln!("slide: serve: a request handler panicked");
            Reply::error(500, "internal error: the request handler failed").into_response()
        }))
        .with_state(app)
}

/// The handler for a method a path does not take: 405 with an `Allow` header.
fn not_allowed(
    allow: &'static str,
) -> impl Fn(Method, Uri) -> std::future::Ready<Reply> + Clone + Send + Sync + 'static {
    move |method, uri| {
        std::future::ready(Reply::error_with_allow(
            405,
            format!(
                "method {method} is not allowed on {}: use {allow}",
                shorten(uri.path(), 200)
            ),
            allow,
        ))
    }
}

/// Refuses (403) a request whose Host the server does not answer for, before anything else looks at it.
async fn check_host(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    // An absolute request target (`GET http://name/ HTTP/1.1`) names the host instead of the header.
    let host = match req.uri().authority() {
        Some(a) => Some(a.as_str()),
        None => req
            .headers()
            .get(header::HOST)
            .map(|h| h.to_str().unwrap_or("\u{fffd}")),
    };
    match host {
        Some(h) if app.hosts.allows(h) => next.run(req).await,
        Some(h) => Reply::error(
            403,
            format!(
                "this server does not answer for the host {:?}: use {}, or start it with --allow-host NAME",
                shorten(h, 100),
                app.hosts.example()
            ),
        )
        .into_response(),
        None => Reply::error(403, "the request has no Host header").into_response(),
    }
}

/// The host names a request may be addressed to.
struct Hosts {
    /// The bound address.
    ip: IpAddr,
    /// Bound to all interfaces: any IP address is fine (DNS rebinding needs a name).
    any_ip: bool,
    /// `localhost`, the `--bind` name if it is one, and the `--allow-host` names, lower case.
    names: Vec<String>,
}

impl Hosts {
    fn new(ip: IpAddr, bind: &str, allow: &[String]) -> Result<Hosts, String> {
        let mut names = vec!["localhost".to_string()];
        if bind.parse::<IpAddr>().is_err() {
            names.push(bind.trim_end_matches('.').to_ascii_lowercase());
        }
        for a in allow {
            let n = a.trim_end_matches('.').to_ascii_lowercase();
            if n.is_empty()
                || !n
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))
            {
                return Err(format!(
                    "{:?} is not a host name (letters, digits, '-', '_' and '.'; no port)",
                    shorten(a, 100)
                ));
            }
            names.push(n);
        }
        Ok(Hosts {
            ip,
            any_ip: ip.is_unspecified(),
            names,
        })
    }

    /// Whether a Host value (`name`, `name:port`, `1.2.3.4:port`, `[::1]:port`) is answered. The port is not
    /// checked: only a name can be rebound to this machine.
    fn allows(&self, host: &str) -> bool {
        let port_ok =
            |p: &str| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit());
        let name = match host.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((ip, "")) => ip,
                Some((ip, port)) if port.strip_prefix(':').is_some_and(port_ok) => ip,
                _ => return false,
            },
            None => match host.split_once(':') {
                Some((name, port)) if port_ok(port) => name,
                Some(_) => return false,
                None => host,
            },
        };
        let name = name.strip_suffix('.').unwrap_or(name);
        if let Ok(ip) = name.parse::<IpAddr>() {
            return self.any_ip || ip == self.ip;
        }
        !host.starts_with('[') && self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// How to name the server, for the refusal message.
    fn example(&self) -> String {
        match self.ip {
            IpAddr::V6(ip) if !self.any_ip => format!("[{ip}]"),
            IpAddr::V4(ip) if !self.any_ip => ip.to_string(),
            _ => "localhost".into(),
        }
    }
}

/// The HTTP status for a library error from a solve or an analysis (the message goes in the body): 400 when the
/// request is at fault, 503 when the server cannot do the work now (memory, a table it lacks, an analysis its budget
/// stopped), 500 for its own failures. New
/// variants of the (non-exhaustive) enum are 500 until they are placed here.
pub fn error_status(e: &slide::Error) -> u16 {
    use slide::Error as E;
    match e {
        E::Empty
        | E::NotANumber { .. }
        | E::NumberTooLarge { .. }
        | E::JsonNumber { .. }
        | E::Syntax { .. }
        | E::Ragged { .. }
        | E::WrongCount { .. }
        | E::NotTheShape { .. }
        | E::UnknownShape { .. }
        | E::Duplicate { .. }
        | E::OutOfRange { .. }
        | E::NoBlank
        | E::TooLarge { .. }
        | E::BadShape { .. }
        | E::ShapeMismatch { .. }
        | E::IllegalMove { .. }
        | E::BadInstance { .. }
        | E::Unsolvable { .. }
        | E::NoTable { .. }
        | E::SearchTooLarge { .. }
        | E::BadPartition { .. }
        | E::InvalidOption { .. }
        | E::BadMove { .. }
        | E::MoveSyntax { .. }
        | E::TooManyMoves { .. }
        | E::UnknownNotation { .. }
        | E::NeedsBoard
        | E::PictureTooLarge { .. } => 400,
        E::TooMuchMemory { .. } | E::Cancelled | E::LimitReached { .. } => 503,
        E::Cache(_) | E::Internal(_) => 500,
        _ => 500,
    }
}

/// A counting semaphore for the solver threads: at most so many solves at once. Waiting requests get their turn
/// newest first: the page asks again after every move and drops the answers to older boards, so the newest
/// request is the one somebody is waiting for. Waiting is async (no thread is held); a request dropped while it
/// waits (its client left) leaves the queue, and a permit handed to it just then goes to the next.
struct Permits {
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
    fn new(n: usize) -> Arc<Permits> {
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

struct Budget {
    time: Duration,
    nodes: u64,
}

/// What the request handlers share.
struct App {
    budget: Budget,
    /// The longest time budget a solve may ask for (`--max-timeout`, at least `--timeout`).
    max_time: Duration,
    warm: Arc<Warm>,
    permits: Arc<Permits>,
    /// To the solver threads; never more than the permits in flight.
    jobs: SyncSender<Job>,
    hosts: Hosts,
}

/// A solve or an analysis for a solver thread, with its permit and where the answer goes.
struct Job {
    board: Board,
    goal: Board,
    opts: SolveOptions,
    work: Work,
    permit: Permit,
    reply: oneshot::Sender<Reply>,
}

/// What a solver thread does with a board.
enum Work {
    /// Solve it; `moves`: the answer carries the solution.
    Solve { moves: bool },
    /// Analyse these moves played from it ([`Solver::analyse`]).
    Analyse(slide::Moves),
    /// Draw it, or an animation of moves played from it.
    Render(Picture),
    /// The distance histogram of the goal (the job's board) in the options' metric: JSON, or the chart as SVG.
    Stats { plot: bool },
}

/// A picture `GET /api/render` asks for.
struct Picture {
    format: Format,
    style: Style,
    /// What to animate: nothing (a still picture), these moves, or the solution found under the job's options.
    play: Play,
}

/// The file format of a picture.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Png,
    Gif,
    Svg,
}

/// What an animation plays.
enum Play {
    Still,
    Moves(slide::Moves),
    Solve,
}

/// Sets a cancel flag when dropped: an analysis stops when its handler ends (its budget ran out, or its client
/// left).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// An answer: status, content type, body, extra headers.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    allow: Option<&'static str>,
    /// A `Content-Disposition` value (a file to save, with its name).
    disposition: Option<String>,
    /// `X-Slide-Optimal` of a rendered solution: whether it is proven shortest.
    optimal: Option<bool>,
}

impl Reply {
    fn json(status: u16, body: String) -> Reply {
        Reply::bytes(status, "application/json", body.into_bytes())
    }

    fn bytes(status: u16, content_type: &'static str, body: Vec<u8>) -> Reply {
        Reply {
            status,
            content_type,
            body,
            allow: None,
            disposition: None,
            optimal: None,
        }
    }

    fn page() -> Reply {
        Reply::bytes(200, "text/html; charset=utf-8", PAGE.as_bytes().to_vec())
    }

    fn error(status: u16, message: impl AsRef<str>) -> Reply {
        Reply::json(
            status,
            serde_json::json!({ "error": message.as_ref() }).to_string(),
        )
    }

    fn error_with_allow(status: u16, message: impl AsRef<str>, allow: &'static str) -> Reply {
        let mut r = Reply::error(status, message);
        r.allow = Some(allow);
        r
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let mut r = Response::new(Body::from(self.body));
        *r.status_mut() =
            StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(self.content_type),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        if let Some(a) = self.allow {
            h.insert(header::ALLOW, HeaderValue::from_static(a));
        }
        if let Some(v) = self
            .disposition
            .and_then(|d| HeaderValue::from_str(&d).ok())
        {
            h.insert(header::CONTENT_DISPOSITION, v);
        }
        if let Some(o) = self.optimal {
            h.insert(
                "x-slide-optimal",
                HeaderValue::from_static(if o { "true" } else { "false" }),
            );
        }
        r
    }
}

/// `POST /api/solve`: checked in this order — announced length (413), content type (415), the body itself
/// (408, 413, 400), the request (400), a permit (503), the solve.
async fn solve(State(app): State<Arc<App>>, req: Request) -> Reply {
    match json_body(req).await {
        Ok(body) => app.solve(&body).await,
        Err(r) => r,
    }
}

/// `POST /api/analyse`: checked as `/api/solve` — announced length (413), content type (415), the body itself
/// (408, 413, 400), the request and its moves (400), the table it needs (503 when it is still being built after
/// [`QUEUE_WAIT`]), a permit (503), the analysis (503 when the budget stops it).
async fn analyse(State(app): State<Arc<App>>, req: Request) -> Reply {
    match json_body(req).await {
        Ok(body) => app.analyse(&body).await,
        Err(r) => r,
    }
}

/// `POST /api/moves`: checked as `/api/analyse`, then the moves read and played on the board (no solver).
async fn moves(req: Request) -> Reply {
    match json_body(req).await {
        Ok(body) => play_moves(&body),
        Err(r) => r,
    }
}

/// Reads a body of `POST /api/analyse`'s form and plays its moves: `{"board": [[…]], "tiles": [t, …], "end":
/// [[…]], "length": n, "mtm_length": m}` (the tiles that slide, the board they leave); a bad move is a 400 naming it.
fn play_moves(body: &[u8]) -> Reply {
    let req = match parse_analyse(body) {
        Ok(r) => r,
        Err(e) => return Reply::error(400, e),
    };
    let board = req.board;
    if board.shape().cells() > MAX_SCRAMBLE_CELLS {
        return Reply::error(
            400,
            format!(
                "the board has {} cells: the server plays moves on boards of at most {MAX_SCRAMBLE_CELLS} cells",
                board.shape().cells()
            ),
        );
    }
    let count = req.moves.len();
    if count > MAX_ANALYSE_MOVES {
        return Reply::error(
            400,
            format!(
                "\"moves\": {count} moves: the server plays sequences of at most {MAX_ANALYSE_MOVES} moves"
            ),
        );
    }
    let played = req.moves.apply(&board).and_then(|end| {
        let m = req.moves.resolve(&board)?;
        Ok((end, m.tiles(&board)?, m.mtm_len()))
    });
    match played {
        Ok((end, tiles, mtm)) => Reply::json(
            200,
            serde_json::json!({
                "board": board.rows(),
                "tiles": tiles,
                "end": end.rows(),
                "length": tiles.len(),
                "mtm_length": mtm,
            })
            .to_string(),
        ),
        Err(e) => Reply::error(error_status(&e), format!("moves: {e}")),
    }
}

/// The body of a POST that must be JSON: its announced length, its content type, then the body itself.
async fn json_body(req: Request) -> Result<Vec<u8>, Reply> {
    let (parts, body) = req.into_parts();
    if content_length(&parts.headers).is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    if !is_json(&parts.headers) {
        let got = parts
            .headers
            .get(header::CONTENT_TYPE)
            .map(|v| format!("{:?}", shorten(&String::from_utf8_lossy(v.as_bytes()), 80)));
        return Err(Reply::error(
            415,
            format!(
                "the body must be JSON sent with Content-Type: application/json, not {}",
                got.as_deref().unwrap_or("no Content-Type")
            ),
        ));
    }
    read_body(body).await
}

fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Whether the Content-Type is `application/json` (any parameters, any case).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

fn too_large() -> Reply {
    Reply::error(
        413,
        format!("request body too large: at most {} KiB", MAX_BODY >> 10),
    )
}

fn too_slow() -> Reply {
    Reply::error(408, "the request body did not arrive in time")
}

/// Reads a request body of at most [`MAX_BODY`] bytes within [`BODY_DEADLINE`]. Past the limit (a chunked body)
/// it reads on and throws away at most [`DISCARD_AFTER_413`] more bytes before answering 413.
async fn read_body(mut body: Body) -> Result<Vec<u8>, Reply> {
    let deadline = tokio::time::Instant::now() + BODY_DEADLINE;
    let mut out = Vec::new();
    let mut over = false;
    let mut discarded = 0usize;
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) if over => return Err(too_large()),
            Err(_) => return Err(too_slow()),
            Ok(None) => break,
            Ok(Some(Err(e))) if over => {
                let _ = e;
                return Err(too_large());
            }
            Ok(Some(Err(e))) => {
                return Err(Reply::error(
                    400,
                    format!("could not read the request body: {e}"),
                ))
            }
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else {
            continue; // trailers
        };
        if over {
            discarded += data.len();
            if discarded > DISCARD_AFTER_413 {
                break;
            }
        } else {
            out.extend_from_slice(&data);
            over = out.len() > MAX_BODY;
        }
    }
    if over {
        return Err(too_large());
    }
    Ok(out)
}

impl App {
    /// `GET /api/status`: the background builds ([`crate::warm::Warm::status_json`]) and the solve budgets:
    /// `{"builds": [...], "timeout": S, "max_timeout": S}` (seconds; a solve may ask for up to `max_timeout`).
    fn status_json(&self) -> String {
        let mut v: serde_json::Value = serde_json::from_str(&self.warm.status_json())
            .unwrap_or_else(|_| serde_json::json!({}));
        v["timeout"] = serde_json::json!(self.budget.time.as_secs_f64());
        v["max_timeout"] = serde_json::json!(self.max_time.as_secs_f64());
        v.to_string()
    }

    async fn solve(&self, body: &[u8]) -> Reply {
        let req = match parse_solve(body) {
            Ok(r) => r,
            Err(e) => return Reply::error(400, e),
        };
        let board = req.board;
        let goal = req.goal.unwrap_or_else(|| Board::goal(board.shape()));
        if let Err(r) = check_board(&board, &goal) {
            return r;
        }
        // The options first: they ask the background thread for the STM data (seconds, even for 4 x 4) before an
        // MTM request asks for its tables (the 4 x 4 label tables take minutes), as the page asks both at once.
        let mut opts = SolveOptions {
            metric: req.metric,
            ..self.options(&board, &goal)
        };
        if let Some(t) = req.timeout {
            let max = self.max_time.as_secs_f64();
            if t > max {
                return Reply::error(
                    400,
                    format!("\"timeout\": {t} s is above this server's limit of {max} s (--max-timeout)"),
                );
            }
            // The node budget in proportion to the time asked for.
            let scale = t / self.budget.time.as_secs_f64();
            opts.timeout = Some(Duration::from_secs_f64(t));
            opts.max_nodes = Some((self.budget.nodes as f64 * scale).min(u64::MAX as f64) as u64);
        }
        if let Err(r) = self.metric_ready(&board, &goal, req.metric).await {
            return r;
        }
        self.run(board, goal, opts, Work::Solve { moves: req.moves }, None)
            .await
    }

    /// `GET /api/render`: the parameters checked (400 naming the wrong one), then the picture drawn on a solver
    /// thread under a permit like a solve (503 when none comes within [`QUEUE_WAIT`]).
    async fn render(&self, query: &str) -> Reply {
        const EXAMPLE: &str = "/api/render?board=4+1+2/5+0+3&format=png";
        let q = match query_params(
            query,
            &[
                "board", "format", "moves", "solve", "size", "scheme", "theme", "metric",
            ],
            EXAMPLE,
        ) {
            Ok(q) => q,
            Err(r) => return r,
        };
        let Some(text) = q.get("board") else {
            return Reply::error(400, format!("missing board: ask for {EXAMPLE}"));
        };
        let board = match Board::parse_with_shape(text, None) {
            Ok(b) => b,
            Err(e) => return Reply::error(400, format!("board: {e}")),
        };
        let goal = Board::goal(board.shape());
        if let Err(r) = check_board(&board, &goal) {
            return r;
        }
        let solve = match q.get("solve").map(|v| v.trim()) {
            None | Some("0" | "false") => false,
            Some("1" | "true") => true,
            Some(v) => {
                return Reply::error(
                    400,
                    format!("solve: {:?} is not 1 or 0 (true or false)", shorten(v, 40)),
                )
            }
        };
        let play = match (q.get("moves"), solve) {
            (Some(_), true) => {
                return Reply::error(
                    400,
                    "give moves=... or solve=1, not both: the animation plays one or the other",
                )
            }
            (Some(text), false) => {
                if text.trim().is_empty() {
                    return Reply::error(400, "moves: no moves given");
                }
                let written = match slide::notation::read(text, false) {
                    Ok(w) => w,
                    Err(e) => return Reply::error(400, format!("moves: {e}")),
                };
                let count = written.len();
                if count > MAX_ANALYSE_MOVES {
                    return Reply::error(
                        400,
                        format!("moves: {count} moves: the server animates at most {MAX_ANALYSE_MOVES} moves"),
                    );
                }
                match written.apply(&board).and_then(|_| written.resolve(&board)) {
                    Ok(m) => Play::Moves(m),
                    Err(e) => return Reply::error(error_status(&e), format!("moves: {e}")),
                }
            }
            (None, true) => Play::Solve,
            (None, false) => Play::Still,
        };
        let animated = !matches!(play, Play::Still);
        let format = match q.get("format").map(|v| v.trim().to_ascii_lowercase()) {
            None => {
                if animated {
                    Format::Gif
                } else {
                    Format::Png
                }
            }
            Some(f) => match f.as_str() {
                "png" => Format::Png,
                "gif" => Format::Gif,
                "svg" => Format::Svg,
                _ => {
                    return Reply::error(
                        400,
                        format!(
                            "format: unknown format {:?}: expected png, gif or svg",
                            shorten(&f, 20)
                        ),
                    )
                }
            },
        };
        match (format, animated) {
            (Format::Png, true) => {
                return Reply::error(
                    400,
                    "format png is a still picture: animate moves as format=gif or format=svg",
                )
            }
            (Format::Gif, false) => {
                return Reply::error(
                    400,
                    "format gif is an animation: add moves=... or solve=1 (or ask for format=png or svg)",
                )
            }
            _ => {}
        }
        let mut style = Style::default();
        if let Some(v) = q.get("size") {
            match v.trim().parse::<u32>() {
                Ok(n) => style.size = n,
                Err(_) => {
                    return Reply::error(
                        400,
                        format!(
                            "size: {:?} is not a whole number of pixels from {} to {}",
                            shorten(v, 20),
                            render::MIN_SIZE,
                            render::MAX_SIZE
                        ),
                    )
                }
            }
        }
        if let Some(v) = q.get("scheme") {
            match v.trim().parse::<Scheme>() {
                Ok(sc) => style.scheme = sc,
                Err(e) => return Reply::error(400, e.to_string()),
            }
        }
        if let Some(v) = q.get("theme") {
            match v.trim().parse::<Theme>() {
                Ok(t) => style.theme = t,
                Err(e) => return Reply::error(400, e.to_string()),
            }
        }
        // The size's range (and the board's cells) before any work.
        if let Err(e) = render::dimensions(&board, &style) {
            return Reply::error(error_status(&e), e.to_string());
        }
        let metric = match q.get("metric") {
            None => Metric::Stm,
            Some(_) if !solve => {
                return Reply::error(
                    400,
                    "metric: only with solve=1 (the metric of the solution to animate)",
                )
            }
            Some(m) => match m.parse::<Metric>() {
                Ok(m) => m,
                Err(e) => return Reply::error(400, e.to_string()),
            },
        };
        if let Err(r) = self.metric_ready(&board, &goal, metric).await {
            return r;
        }
        let opts = SolveOptions {
            metric,
            ..self.options(&board, &goal)
        };
        let picture = Picture {
            format,
            style,
            play,
        };
        self.run(board, goal, opts, Work::Render(picture), None)
            .await
    }

    /// `GET /api/stats` and `GET /api/stats/plot` (`plot`): the shape and metric checked (400), the table waited for
    /// from [`SMALL_TABLE_CELLS`] cells up (503 after [`QUEUE_WAIT`]), then the histogram read on a solver thread.
    async fn stats(&self, query: &str, plot: bool) -> Reply {
        let example = if plot {
            "/api/stats/plot?shape=3x3&metric=stm"
        } else {
            "/api/stats?shape=3x3&metric=stm"
        };
        let q = match query_params(query, &["shape", "metric"], example) {
            Ok(q) => q,
            Err(r) => return r,
        };
        let Some(text) = q.get("shape") else {
            return Reply::error(400, format!("missing shape: ask for {example} (RxC)"));
        };
        let shape: Shape = match text.parse() {
            Ok(s) => s,
            Err(e) => return Reply::error(400, format!("shape: {e}")),
        };
        let cells = shape.cells();
        if (shape.is_line() && cells > MAX_SCRAMBLE_CELLS)
            || (!shape.is_line() && cells > MAX_TABLE_CELLS)
        {
            return Reply::error(
                400,
                format!(
                    "shape {shape} has {cells} cells: statistics count every board, for shapes of at most {MAX_TABLE_CELLS} cells (or a single row or column of at most {MAX_SCRAMBLE_CELLS})"
                ),
            );
        }
        let metric = match q.get("metric") {
            None => Metric::Stm,
            Some(m) => match m.parse::<Metric>() {
                Ok(m) => m,
                Err(e) => return Reply::error(400, e.to_string()),
            },
        };
        let goal = Board::goal(shape);
        if !shape.is_line() && cells >= SMALL_TABLE_CELLS {
            if let Err(r) = self.table_for(&goal, metric).await {
                return r;
            }
        }
        let opts = SolveOptions {
            metric,
            ..SolveOptions::default()
        };
        self.run(goal.clone(), goal, opts, Work::Stats { plot }, None)
            .await
    }

    /// Whether the server solves `board` in `metric` (MTM: at most [`MAX_TABLE_CELLS`] cells, 4 × 4, or a single row
    /// or column; else 400), and, for MTM from [`SMALL_TABLE_CELLS`] cells up, the wait for its tables (see
    /// [`App::table_for`]). Smaller MTM tables are built on the solver thread, in memory.
    async fn metric_ready(&self, board: &Board, goal: &Board, metric: Metric) -> Result<(), Reply> {
        let shape = board.shape();
        if metric == Metric::Stm || shape.is_line() {
            return Ok(());
        }
        let four = shape.rows() == 4 && shape.cols() == 4;
        if shape.cells() > MAX_TABLE_CELLS && !four {
            return Err(Reply::error(
                400,
                format!(
                    "metric \"mtm\": the server solves boards of at most {MAX_TABLE_CELLS} cells, 4x4 boards and single rows or columns in multi-tile moves; this board is {shape}"
                ),
            ));
        }
        if shape.cells() >= SMALL_TABLE_CELLS {
            self.table_for(goal, metric).await?;
        }
        Ok(())
    }

    /// An analysis: the moves read and checked on the board, its table ready (up to 12 cells), then
    /// [`Solver::analyse`] on a solver thread under the budget: each search under `--timeout` and `--max-nodes`
    /// (without the fallback: an analysis needs proven distances), and the whole analysis stopped `--timeout` after
    /// it starts.
    async fn analyse(&self, body: &[u8]) -> Reply {
        let req = match parse_analyse(body) {
            Ok(r) => r,
            Err(e) => return Reply::error(400, e),
        };
        let board = req.board;
        let goal = req.goal.unwrap_or_else(|| Board::goal(board.shape()));
        if let Err(r) = check_board(&board, &goal) {
            return r;
        }
        let count = req.moves.len();
        if count > MAX_ANALYSE_MOVES {
            return Reply::error(
                400,
                format!(
                    "\"moves\": {count} moves: the server analyses sequences of at most {MAX_ANALYSE_MOVES} moves (slide analyse on the command line takes longer ones)"
                ),
            );
        }
        // Every move checked, a bad one named as it was written (`move 7 (U): no tile below the blank`).
        let moves = match req
            .moves
            .apply(&board)
            .and_then(|_| req.moves.resolve(&board))
        {
            Ok(m) => m,
            Err(e) => return Reply::error(error_status(&e), format!("moves: {e}")),
        };
        let shape = board.shape();
        if !shape.is_line() && (SMALL_TABLE_CELLS..=MAX_TABLE_CELLS).contains(&shape.cells()) {
            if let Err(r) = self.table_for(&goal, Metric::Stm).await {
                return r;
            }
        }
        let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
        let opts = SolveOptions {
            fallback: false,
            cancel: Some(Arc::clone(&cancel.0)),
            ..self.options(&board, &goal)
        };
        self.run(board, goal, opts, Work::Analyse(moves), Some(&cancel.0))
            .await
    }

    /// Waits (without holding a solver) for the background thread to have the complete table of `goal` in
    /// `metric` in memory (above 12 cells: the MTM label tables), at most [`QUEUE_WAIT`]: an analysis of 11 or 12
    /// cells reads every distance from it, an MTM solve or the statistics of 11 or 12 cells too.
    async fn table_for(&self, goal: &Board, metric: Metric) -> Result<(), Reply> {
        let give_up = Instant::now() + QUEUE_WAIT;
        let (what, is) = match metric {
            Metric::Mtm if goal.shape().cells() > MAX_TABLE_CELLS => ("MTM label tables", "are"),
            Metric::Mtm => ("MTM distance table", "is"),
            Metric::Stm => ("distance table", "is"),
        };
        loop {
            match self.warm.state(goal, metric) {
                WarmState::Ready => return Ok(()),
                WarmState::Failed => {
                    return Err(Reply::error(
                        503,
                        format!(
                            "the {what} for {} could not be loaded or built on this server",
                            goal.shape()
                        ),
                    ))
                }
                WarmState::Pending if Instant::now() >= give_up => {
                    return Err(Reply::error(
                        503,
                        format!(
                        "the {what} for {} {is} still being loaded or built: try again in a minute",
                        goal.shape()
                    ),
                    ))
                }
                WarmState::Pending => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }

    /// Runs a job on a solver thread once a permit is free (503 when none comes within [`QUEUE_WAIT`]). With
    /// `stop` (the job's cancel flag), the flag is set `--timeout` after the job starts: the budget of a whole
    /// analysis, whose searches then stop within 2^14 nodes.
    async fn run(
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

    /// The solve options for a board: always under the budget, and never waiting for a build. The method is the
    /// library's choice ([`slide::Solver::plan`] with `wait_for_builds` off): a table or pattern databases when
    /// they are in memory, else IDA* with linear conflicts; fast mode above 25 cells. The first board of a shape
    /// of at most [`slide::FAST_DEFAULT_CELLS`] cells with the default goal asks the background thread to load or
    /// build its data.
    fn options(&self, board: &Board, goal: &Board) -> SolveOptions {
        let shape = board.shape();
        if shape.cells() <= slide::FAST_DEFAULT_CELLS && goal.is_default_goal() && !shape.is_line()
        {
            let _ = self.warm.ready(goal);
        }
        SolveOptions {
            max_nodes: Some(self.budget.nodes),
            timeout: Some(self.budget.time),
            wait_for_builds: false,
            fallback: true,
            ..SolveOptions::default()
        }
    }
}

/// A board and goal the server works on: the same shape, at most [`MAX_SCRAMBLE_CELLS`] cells (else 400).
fn check_board(board: &Board, goal: &Board) -> Result<(), Reply> {
    if goal.shape() != board.shape() {
        return Err(Reply::error(
            400,
            format!(
                "shape mismatch: the board is {} but the goal is {}",
                board.shape(),
                goal.shape()
            ),
        ));
    }
    if board.shape().cells() > MAX_SCRAMBLE_CELLS {
        // Bounded work and answers: fast mode would answer, but its moves grow as the cube of the side.
        let e = slide::Error::SearchTooLarge {
            shape: board.shape(),
        };
        return Err(Reply::error(
            400,
            format!("{e}: the server answers boards of at most {MAX_SCRAMBLE_CELLS} cells"),
        ));
    }
    Ok(())
}

/// A solver thread: runs the jobs it receives, one at a time, until the sending side goes away. `small` analyses
/// the boards under [`SMALL_TABLE_CELLS`] cells.
fn solve_loop(solver: &Solver, small: &Solver, jobs: &Mutex<Receiver<Job>>) {
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
                    Work::Analyse(_) | Work::Stats { .. } => true,
                    Work::Solve { .. } | Work::Render(_) => opts.metric == Metric::Mtm,
                };
            let solver = if in_small { small } else { solver };
            match work {
                Work::Solve { moves } => match solver.solve_with(&board, &goal, &opts) {
                    Ok(solution) => {
                        let seconds = start.elapsed().as_secs_f64();
                        let moves = if moves { Moves::Tiles } else { Moves::Omit };
                        Reply::json(
                            200,
                            answer_json(&board, &solution, seconds, moves, None, None),
                        )
                    }
                    Err(e) => Reply::error(error_status(&e), e.to_string()),
                },
                Work::Render(picture) => draw(solver, &board, &goal, &opts, picture),
                Work::Stats { plot } => statistics(solver, &goal, opts.metric, plot),
                Work::Analyse(moves) => match solver.analyse(&board, &goal, &moves, &opts) {
                    Ok(a) => Reply::json(200, analysis_json(&board, &a)),
                    Err(e @ (slide::Error::LimitReached { .. } | slide::Error::Cancelled)) => {
                        Reply::error(error_status(&e), over_budget(&e, &opts))
                    }
                    Err(e) => Reply::error(error_status(&e), e.to_string()),
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

/// A picture for `GET /api/render`, drawn on a solver thread: the board, or an animation of the given moves or of
/// the solution found under `opts` (the server's budget; the `X-Slide-Optimal` header says whether it is proven
/// shortest), as a file to save.
fn draw(solver: &Solver, board: &Board, goal: &Board, opts: &SolveOptions, p: Picture) -> Reply {
    let shape = board.shape();
    let (moves, optimal, name) = match p.play {
        Play::Still => (None, None, format!("slide-{shape}")),
        Play::Moves(m) => (Some(m), None, format!("slide-{shape}-moves")),
        Play::Solve => {
            let s = match solver.solve_with(board, goal, opts) {
                Ok(s) => s,
                Err(e) => return Reply::error(error_status(&e), format!("solve: {e}")),
            };
            if let Some(reason) = &s.unsolvable_reason {
                return Reply::error(
                    400,
                    format!("solve: the goal cannot be reached from this board: {reason}"),
                );
            }
            let Some(tiles) = &s.moves else {
                return Reply::error(
                    503,
                    format!(
                        "solve: no solution was found within the server's budget (the optimum is at least {} moves); give the moves instead (moves=...)",
                        s.lower_bound
                    ),
                );
            };
            let moves = match slide::Moves::from_tiles(board, tiles) {
                Ok(m) => m,
                Err(e) => return Reply::error(500, format!("internal error: {e}")),
            };
            let kind = if s.optimal { "optimal" } else { "solution" };
            let name = match opts.metric {
                Metric::Stm => format!("slide-{shape}-{kind}"),
                Metric::Mtm => format!("slide-{shape}-{kind}-mtm"),
            };
            (Some(moves), Some(s.optimal), name)
        }
    };
    let animation = render::Animation::default();
    let drawn = match (p.format, &moves) {
        (Format::Png, None) => render::png(board, goal, &p.style),
        (Format::Svg, None) => render::svg(board, goal, &p.style).map(String::into_bytes),
        (Format::Gif, Some(m)) => render::gif(board, m, goal, &p.style, &animation),
        (Format::Svg, Some(m)) => {
            render::animated_svg(board, m, goal, &p.style, &animation).map(String::into_bytes)
        }
        // Refused before the job was queued.
        (Format::Png, Some(_)) | (Format::Gif, None) => {
            return Reply::error(400, "a PNG is a still picture and a GIF an animation")
        }
    };
    let bytes = match drawn {
        Ok(b) => b,
        Err(e) => return Reply::error(error_status(&e), e.to_string()),
    };
    let (ctype, ext) = match p.format {
        Format::Png => ("image/png", "png"),
        Format::Gif => ("image/gif", "gif"),
        Format::Svg => ("image/svg+xml", "svg"),
    };
    let mut r = Reply::bytes(200, ctype, bytes);
    r.disposition = Some(format!("attachment; filename=\"{name}.{ext}\""));
    r.optimal = optimal;
    r
}

/// The statistics of `goal`'s shape in `metric` ([`Solver::stats_in`]): JSON `{"shape", "metric", "states",
/// "gods_number", "histogram", "antipodes"}` (at most 16 boards at the largest distance), or with `plot` the
/// histogram chart as SVG ([`render::plot::distance_chart`]).
fn statistics(solver: &Solver, goal: &Board, metric: Metric, plot: bool) -> Reply {
    let s = match solver.stats_in(goal, metric) {
        Ok(s) => s,
        Err(e) => return Reply::error(error_status(&e), e.to_string()),
    };
    let shape = goal.shape();
    if plot {
        return match render::plot::distance_chart(shape, metric, &s.histogram) {
            Ok(svg) => {
                let mut r = Reply::bytes(200, "image/svg+xml", svg.into_bytes());
                r.disposition = Some(format!(
                    "inline; filename=\"slide-{shape}-{metric}-distances.svg\""
                ));
                r
            }
            Err(e) => Reply::error(error_status(&e), e.to_string()),
        };
    }
    let antipodes: Vec<serde_json::Value> = s
        .antipodes
        .iter()
        .take(16)
        .map(|b| serde_json::json!(b.rows()))
        .collect();
    Reply::json(
        200,
        serde_json::json!({
            "shape": shape.to_string(),
            "metric": metric.name(),
            "goal": goal.rows(),
            "states": s.states,
            "gods_number": s.diameter(),
            "histogram": s.histogram,
            "antipodes": antipodes,
        })
        .to_string(),
    )
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

/// The parameters of a query string, decoded. A name not in `known`, or given twice, is a 400 naming it.
fn query_params(
    query: &str,
    known: &[&str],
    example: &str,
) -> Result<HashMap<String, String>, Reply> {
    let mut out = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = percent_decode(k);
        if !known.contains(&k.as_str()) {
            return Err(Reply::error(
                400,
                format!(
                    "unknown parameter {:?}: this path takes {} (for example {example})",
                    shorten(&k, 40),
                    known.join(", ")
                ),
            ));
        }
        if out.insert(k.clone(), percent_decode(v)).is_some() {
            return Err(Reply::error(400, format!("parameter {k:?} is given twice")));
        }
    }
    Ok(out)
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

    #[test]
    fn hosts_of_a_loopback_server() {
        let h = Hosts::new(
            "127.0.0.1".parse().unwrap(),
            "127.0.0.1",
            &["Box.Example".into()],
        )
        .unwrap();
        for ok in [
            "127.0.0.1",
            "127.0.0.1:8773",
            "localhost",
            "LOCALHOST:1",
            "localhost.",
            "box.example",
            "box.example:443",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for bad in [
            "",
            "evil.example",
            "evil.example:8773",
            "localhost.evil.example",
            "127.0.0.2",
            "10.0.0.1:8773",
            "[::1]:8773",
            "127.0.0.1:",
            "127.0.0.1:x",
            "localhost:8773:1",
            "[localhost]",
            "127.0.0.1@evil.example",
        ] {
            assert!(!h.allows(bad), "{bad}");
        }
        let any = Hosts::new("0.0.0.0".parse().unwrap(), "0.0.0.0", &[]).unwrap();
        assert!(
            any.allows("192.168.1.5:8773") && any.allows("[fe80::1]") && any.allows("localhost")
        );
        assert!(!any.allows("evil.example"));
        let v6 = Hosts::new("::1".parse().unwrap(), "::1", &[]).unwrap();
        assert!(v6.allows("[::1]:8773") && !v6.allows("127.0.0.1"));
        assert_eq!(v6.example(), "[::1]");
        let named = Hosts::new("127.0.0.1".parse().unwrap(), "myhost", &[]).unwrap();
        assert!(named.allows("MyHost:8773"));
        for bad in ["", "a b", "host:80", "a/b"] {
            assert!(
                Hosts::new(h.ip, "127.0.0.1", &[bad.into()]).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn json_content_types() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_str(v).unwrap());
            is_json(&h)
        };
        assert!(with("application/json"));
        assert!(with("Application/JSON; charset=utf-8"));
        for bad in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonx",
            "",
        ] {
            assert!(!with(bad), "{bad}");
        }
        assert!(!is_json(&HeaderMap::new()));
    }

    #[test]
    fn library_errors_map_to_statuses() {
        assert_eq!(error_status(&slide::Error::NoBlank), 400);
        assert_eq!(
            error_status(&slide::Error::NoTable {
                shape: "4x4".parse().unwrap()
            }),
            400
        );
        assert_eq!(error_status(&slide::Error::Cancelled), 503);
        assert_eq!(
            error_status(&slide::Error::LimitReached {
                what: "the distance after move 7".into(),
                lower_bound: 40
            }),
            503
        );
        assert_eq!(
            error_status(&slide::Error::JsonNumber {
                token: "+5".into(),
                column: 15,
                reason: "JSON numbers have no '+' sign".into()
            }),
            400
        );
        assert_eq!(
            error_status(&slide::Error::BadMove {
                index: 7,
                token: "U".into(),
                reason: "no tile below the blank".into()
            }),
            400
        );
        assert_eq!(error_status(&slide::Error::Internal("x".into())), 500);
        assert_eq!(
            error_status(&slide::Error::TooMuchMemory {
                what: "a table".into(),
                needed: 2,
                limit: 1
            }),
            503
        );
        assert_eq!(error_status(&slide::Error::Cache("disk".into())), 500);
        assert_eq!(
            error_status(&slide::Error::PictureTooLarge {
                reason: "a GIF of 9 frames".into()
            }),
            400
        );
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
