//! `slide serve`: a small local HTTP server for the web page (`assets/`: HTML, CSS, scripts) and its JSON API.
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
//!   tile numbers, at most [`MAX_ANALYSE_MOVES`] moves; the goal may be a partial goal (a pattern string with `x`,
//!   or rows with `"x"`: [`request::goal_from_value`]). The answer is the object of `slide analyse --json` (`board`,
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
//! - `POST /api/solves`, `GET /api/solves`, `GET /api/averages`, `GET /api/solves/plot` — the practice history
//!   (`solves.rs` over `crate::history`): a finished solve replayed, checked and stored with its optimum; the
//!   records; the averages and bests of a series; its times as a chart. When the history file (`--db`) cannot be
//!   used they answer 503 with the reason and the rest of the server goes on.
//!
//! Errors are JSON `{"error": "..."}`: 400 for bad input (and two `Host` headers), 403 for a foreign `Host` or a
//! request to the API from another site's page, 404 for unknown paths, 405
//! for a wrong method, 408 when the body does not arrive in time, 413 for bodies over [`MAX_BODY`], 415 for a
//! POST whose body is not declared as JSON, 503 when every solver stays busy for [`QUEUE_WAIT`] (or a library
//! error says the work cannot be done now, see [`error_status`]), 500 for an internal error.
//!
//! Only pages of this machine's user may drive it: a request's `Host` must name the bound address, `localhost`,
//! or a name given with `--allow-host` (any IP address when bound to all interfaces), so a web page whose name
//! is rebound to 127.0.0.1 (DNS rebinding) is refused; a POST must say `Content-Type: application/json`, which a
//! cross-site form or `text/plain` fetch cannot send without the browser asking first (and nothing here answers
//! that CORS preflight). Every `/api/` route refuses what a page of another site makes the browser send (its
//! `Sec-Fetch-Site` or `Origin` says so: see `connection.rs`), and every answer forbids framing
//! (`Content-Security-Policy: frame-ancestors 'none'`, `X-Frame-Options: DENY`).
//!
//! Nothing holds the server long (the stalled-connection test, `scripts/stall-serve.py`, measures it):
//! - It runs on a small tokio runtime ([`RUNTIME_THREADS`] threads) with hyper's HTTP/1.1 server: a connection
//!   costs a task and its buffers, not a thread. At start the soft open-file limit is raised to the hard one; at
//!   most [`MAX_CONNECTIONS`] connections are open at once, fewer when that limit, less 64 files, is lower (at
//!   least 16). A connection past the cap (or one the file limit refuses) closes the oldest connection with no
//!   request under way rather than wait.
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
//!   it is asked for, one shape at a time, for shapes of at most [`slide::engine::FAST_DEFAULT_CELLS`] cells with the
//!   default goal only (and the complete table of an analysis's goal, which depends only on the goal's shape and
//!   blank cell; each custom goal would be another build). The 5x5 pattern databases (the default pair
//!   `zbdefault|zbalt`) take about 2 minutes of two cores the first time, then 5.9 GB in memory (plain 6-6-6-6, 488
//!   MB, under a `--max-memory` below the pair's 6.4 GB), loaded from the cache in seconds; meanwhile 5x5 boards are
//!   searched with linear conflicts, and `GET /api/status` says how far the build is. `--no-large-builds` keeps
//!   whatever searches more than `warm::LARGE_BUILD_STATES` states off (the 5x5 databases); the table option
//!   `--max-memory` makes the library refuse the builds over it (files already in the cache are still loaded).
//! - So its threads are: the main thread, the runtime's, the solver threads, the warm-up thread and its rayon pool
//!   (one thread per core, for the builds), and the library's global rayon pool (small tables built in memory)
//!   — a fixed number, whatever the clients do.
//! - Ctrl-C (or SIGTERM) stops accepting connections, gives the requests under way up to [`SHUTDOWN_GRACE`] to
//!   finish, and exits with status 0 (a second Ctrl-C exits at once).
//!
//! The module's files: this one starts the server and routes; `connection.rs` accepts connections under their
//! limits, checks the Host and reads bodies; `reply.rs` is the answer and the status of a library error; `jobs.rs`
//! the solver threads, their permits and the handlers' shared state; `warmup.rs` what the handlers ask of the
//! background builds; `solve.rs` the POST handlers (solve, analyse, moves) over the body parsing of
//! [`request`] (public: the fuzz target `api_body` runs it too); `render.rs` and `stats.rs` the GET handlers
//! (render; stats, scramble) over the query parsing of `query.rs`; `solves.rs` the practice history's routes.

mod connection;
mod jobs;
mod query;
mod render;
mod reply;
pub mod request;
mod solve;
mod solves;
mod stats;
mod warmup;

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{Method, Uri};
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use slide::{Board, Metric, Solver};
use tower_http::catch_panic::CatchPanicLayer;

use crate::warm::Warm;
use crate::EXIT_USAGE;
use connection::{check_host, connection_cap, listen, serve, Hosts};
use jobs::{solve_loop, App, Budget, Job, Permits};
pub use reply::error_status;
use reply::Reply;
use request::shorten;

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
pub const SMALL_TABLE_CELLS: usize = slide::engine::DEFAULT_CACHE_FROM_CELLS;
/// A request's headers must arrive within this time, counted from the first wait for them (for a kept-alive
/// connection: from the end of the previous response); otherwise the connection is closed.
pub const HEADER_DEADLINE: Duration = Duration::from_secs(10);
/// The whole body must arrive within this time after the headers; otherwise 408.
pub const BODY_DEADLINE: Duration = Duration::from_secs(10);
/// A connection whose response makes no progress for this long (the client does not read) is closed.
pub const WRITE_DEADLINE: Duration = Duration::from_secs(10);
/// How long a request waits for a free solver before it gets 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(30);
/// Most connections open at once (fewer under a low open-file limit); a connection past it closes the oldest idle
/// one.
pub const MAX_CONNECTIONS: usize = 4096;
/// Most bytes of request headers (hyper's read buffer); more get 431.
pub const MAX_HEADER_BYTES: usize = 16 << 10;
/// Worker threads of the async runtime that runs the connections (solves run on threads of their own).
pub const RUNTIME_THREADS: usize = 2;
/// After Ctrl-C, how long the requests under way may take to finish.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

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
    /// The practice history file (SQLite) the page records solves into (default: history.sqlite3 in the
    /// platform data directory, such as ~/.local/share/slide, opened at the first solve recorded). When it cannot
    /// be used the page still plays; the history routes answer 503 with the reason.
    #[arg(long, value_name = "PATH")]
    pub db: Option<std::path::PathBuf>,
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
    let cap = connection_cap();
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
    let small = Solver::builder().cache_dir(slide::CacheDir::None).build();
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
        practice: Arc::new(solves::Practice::new(args.db.as_deref(), args.db.is_some())),
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
        let code = rt.block_on(serve(listener, app, cap));
        rt.shutdown_timeout(Duration::from_secs(1));
        // The warm-up thread may be in the middle of a build (minutes); table files are written atomically, so
        // the process may end under it.
        std::process::exit(i32::from(code))
    })
}

/// The routes, behind the Host check and a panic catcher (a panicking handler answers 500; the server goes on).
fn router(app: Arc<App>) -> Router {
    let asset =
        |i: usize| get(move || std::future::ready(Reply::asset(i))).fallback(not_allowed("GET"));
    let mut router = Router::new().route("/", asset(0));
    for (i, (path, _, _)) in reply::ASSETS.iter().enumerate() {
        router = router.route(path, asset(i));
    }
    router
        .route(
            "/api/solve",
            post(solve::solve).fallback(not_allowed("POST")),
        )
        .route(
            "/api/analyse",
            post(solve::analyse).fallback(not_allowed("POST")),
        )
        .route(
            "/api/moves",
            post(solve::moves).fallback(not_allowed("POST")),
        )
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
            get(|uri: Uri| std::future::ready(stats::scramble(uri.query().unwrap_or(""))))
                .fallback(not_allowed("GET")),
        )
        .route(
            "/api/solves",
            post(solves::post)
                .get(|State(app): State<Arc<App>>, uri: Uri| async move {
                    app.history_get("list", uri.query().unwrap_or("")).await
                })
                .fallback(not_allowed("GET, POST")),
        )
        .route(
            "/api/solves/plot",
            get(|State(app): State<Arc<App>>, uri: Uri| async move {
                app.history_get("plot", uri.query().unwrap_or("")).await
            })
            .fallback(not_allowed("GET")),
        )
        .route(
            "/api/averages",
            get(|State(app): State<Arc<App>>, uri: Uri| async move {
                app.history_get("averages", uri.query().unwrap_or("")).await
            })
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
