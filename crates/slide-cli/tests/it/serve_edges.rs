//! `slide serve` at its edges, over real sockets: requests other sites make a browser send, work nobody waits for,
//! connections past the cap, and malformed requests (two `Host` headers).

use std::io::Write;
use std::time::{Duration, Instant};

use crate::support::serve::{request_bytes, Resp, Serve};

/// One request on a new connection with extra header lines (each ending in `\r\n`).
fn with_headers(s: &Serve, method: &str, path: &str, extra: &str, body: Option<&str>) -> Resp {
    let mut r = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{extra}",
        s.addr
    );
    if let Some(b) = body {
        r.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    r.push_str("\r\n");
    if let Some(b) = body {
        r.push_str(b);
    }
    s.raw(r.as_bytes())
}

/// Every API route, GET and POST: a request another site's page makes the browser send is refused (403) before
/// any work; the same request from the server's own page, or from `curl` (no such headers), is answered; the
/// page and every answer may not be framed by another site.
#[test]
fn cross_site_requests_are_refused_on_every_api_route() {
    let s = Serve::start();
    let solve = r#"{"board": "4 1 2/5 0 3"}"#;
    let analyse = r#"{"board": "4 1 2/5 0 3", "moves": "5 4 1 2 3"}"#;
    let routes: [(&str, &str, Option<&str>); 9] = [
        ("POST", "/api/solve", Some(solve)),
        ("POST", "/api/analyse", Some(analyse)),
        ("POST", "/api/moves", Some(analyse)),
        ("GET", "/api/render?board=4+1+2/5+0+3&moves=5", None),
        ("GET", "/api/stats?shape=2x3", None),
        ("GET", "/api/stats/plot?shape=2x3", None),
        ("GET", "/api/status", None),
        ("GET", "/api/scramble?shape=3x3", None),
        ("GET", "/api/nope", None),
    ];
    let own = format!("http://{}", s.addr);
    for (method, path, body) in routes {
        for bad in [
            "Sec-Fetch-Site: cross-site\r\n".to_string(),
            "Sec-Fetch-Site: same-site\r\n".to_string(),
            "Origin: https://evil.example\r\n".to_string(),
            "Origin: null\r\n".to_string(),
            format!("Origin: {own}.evil.example\r\n"),
            "Origin: http://localhost:1\r\nSec-Fetch-Site: same-origin\r\n".to_string(),
            "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Site: cross-site\r\n".to_string(),
        ] {
            let r = with_headers(&s, method, path, &bad, body);
            assert_eq!(r.status, 403, "{method} {path} with {bad:?}: {}", r.body);
            let e = r.json()["error"].as_str().unwrap().to_string();
            assert!(e.contains("other sites"), "{e}");
        }
        let want = if path == "/api/nope" { 404 } else { 200 };
        for good in [
            String::new(),
            "Sec-Fetch-Site: same-origin\r\n".to_string(),
            "Sec-Fetch-Site: none\r\n".to_string(),
            format!("Sec-Fetch-Site: same-origin\r\nOrigin: {own}\r\n"),
            format!("Origin: {}\r\n", own.to_uppercase()),
        ] {
            let r = with_headers(&s, method, path, &good, body);
            assert_eq!(r.status, want, "{method} {path} with {good:?}: {}", r.body);
            assert_eq!(r.header("x-frame-options"), Some("DENY"));
            assert_eq!(
                r.header("content-security-policy"),
                Some("frame-ancestors 'none'")
            );
        }
    }
    // The page itself opens from a link on another site (it then waits for a click to load a linked board).
    let r = with_headers(
        &s,
        "GET",
        "/?board=4+1+2/5+0+3",
        "Sec-Fetch-Site: cross-site\r\n",
        None,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-frame-options"), Some("DENY"));
    assert_eq!(
        r.header("content-security-policy"),
        Some("frame-ancestors 'none'")
    );
    assert!(r.body.contains("app.js"), "the page loads its script");
    // The script that reads `?board=` loads it at once only when not framed and not opened from another site.
    let js = with_headers(&s, "GET", "/app.js", "", None);
    assert_eq!(js.status, 200);
    assert!(js.body.contains("window.top === window.self") && js.body.contains("Load this board"));
}

/// Two `Host` headers are a 400 (the first used to win), whichever comes first.
#[test]
fn two_host_headers_are_400() {
    let s = Serve::start();
    for hosts in [
        format!("Host: {}\r\nHost: evil.example\r\n", s.addr),
        format!("Host: evil.example\r\nHost: {}\r\n", s.addr),
        format!("Host: {0}\r\nHost: {0}\r\n", s.addr),
    ] {
        let r = s.raw(
            format!("GET /api/status HTTP/1.1\r\n{hosts}Connection: close\r\n\r\n").as_bytes(),
        );
        assert_eq!(r.status, 400, "{hosts:?}: {}", r.body);
        assert!(
            r.json()["error"].as_str().unwrap().contains("Host"),
            "{}",
            r.body
        );
    }
}

/// The 8x8 goal as query text, and 10,000 moves of one tile back and forth (`RL` repeated): a GIF within the
/// picture limits (40,001 frames of 16 × 16 pixels) that takes a minute or more to draw.
fn long_gif_query() -> String {
    let board: Vec<String> = (0..8)
        .map(|r| {
            (0..8)
                .map(|c| ((r * 8 + c + 1) % 64).to_string())
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect();
    format!(
        "/api/render?board={}&moves={}&size=16&format=gif",
        board.join("/"),
        "RL".repeat(5000)
    )
}

/// The 2x3 solve that shows a solver thread is free: answered within `within`.
fn quick_solve(s: &Serve, within: Duration) {
    let t = Instant::now();
    let v = s.solve(serde_json::json!({"board": "4 1 2/5 0 3"}));
    assert_eq!(v["moves"], 5, "{v}");
    assert!(t.elapsed() < within, "the 2x3 solve took {:?}", t.elapsed());
}

/// Drawing a GIF counts against the request budget: its time (`--timeout`, a 503 naming it once over) and its
/// nodes (each cell of each frame, refused before drawing when over `--max-nodes`).
#[test]
fn drawing_a_gif_counts_against_the_budget() {
    let s = Serve::with_args(&["--timeout", "1", "--threads", "1"]);
    let mut c = s.connect();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let t = Instant::now();
    c.write_all(&request_bytes(
        &s.addr,
        "GET",
        &long_gif_query(),
        None,
        true,
    ))
    .unwrap();
    let r = crate::support::serve::read_response(&mut std::io::BufReader::new(c), false);
    let took = t.elapsed();
    assert_eq!(r.status, 503, "{}", r.body);
    let e = r.json()["error"].as_str().unwrap().to_string();
    assert!(e.contains("budget") && e.contains("1 s"), "{e}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    quick_solve(&s, Duration::from_secs(3));

    let s = Serve::with_args(&["--max-nodes", "400"]);
    let r = s
        .get("/api/render?board=4+1+2/5+0+3&moves=5+4+1+2+3+5+4+1+2+3+5+4+1+2+3+5+4+1+2+3&size=16");
    assert_eq!(r.status, 503, "{}", r.body);
    let e = r.json()["error"].as_str().unwrap().to_string();
    assert!(e.contains("--max-nodes") && e.contains("400 nodes"), "{e}");
    // Within the budget it is drawn.
    let r = s.get("/api/render?board=4+1+2/5+0+3&moves=5+4+1+2+3&size=16");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("image/gif"));
}

/// A solve or a picture whose client has gone is cancelled: with one solver thread and a minute of budget, a
/// 2x3 solve right after the client of a long 5x5 solve (or a long GIF) closes its connection is answered at once.
#[test]
fn work_whose_client_left_is_cancelled() {
    let s = Serve::with_args(&[
        "--threads",
        "1",
        "--timeout",
        "60",
        "--max-timeout",
        "60",
        "--max-nodes",
        "18446744073709551615",
        "--no-large-builds",
    ]);
    let board = s.get("/api/scramble?shape=5x5&seed=5").json()["board"].clone();
    let solve = serde_json::json!({"board": board, "timeout": 60}).to_string();
    let requests = [
        request_bytes(&s.addr, "POST", "/api/solve", Some(&solve), false),
        request_bytes(&s.addr, "GET", &long_gif_query(), None, false),
    ];
    for bytes in requests {
        let mut c = s.connect();
        c.write_all(&bytes).unwrap();
        std::thread::sleep(Duration::from_millis(700));
        drop(c);
        quick_solve(&s, Duration::from_secs(5));
    }
}

/// The open connections of a process (Linux), from /proc.
fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

/// Under a low open-file limit, connections past the cap close the oldest idle ones instead of making new
/// requests wait (they used to wait in the backlog until idle ones timed out, 10 s); the soft limit is raised to
/// the hard one at start, so the cap follows the hard limit.
#[test]
fn connections_past_the_cap_shed_the_oldest_idle_ones() {
    // Soft and hard limit 80: a cap of 16 connections.
    let s = Serve::under(&["prlimit", "--nofile=80:80"], &[], &[]);
    let mut idle = Vec::new();
    for _ in 0..100 {
        idle.push(s.connect());
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..5 {
        quick_solve(&s, Duration::from_secs(2));
    }
    assert!(
        open_files(s.child.id()) < 80,
        "{}",
        open_files(s.child.id())
    );
    // The oldest idle connection was closed by the server (end of stream), not left to time out.
    let mut first = idle.remove(0);
    first
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut buf = [0u8; 16];
    assert_eq!(std::io::Read::read(&mut first, &mut buf).ok(), Some(0));
    drop(idle);

    // Soft limit 80, hard 1000 (not above the usual hard limits, which only root may raise): the soft one is
    // raised, and 300 idle connections all stay open.
    let s = Serve::under(&["prlimit", "--nofile=80:1000"], &[], &[]);
    let mut idle = Vec::new();
    for _ in 0..300 {
        idle.push(s.connect());
    }
    std::thread::sleep(Duration::from_millis(300));
    quick_solve(&s, Duration::from_secs(2));
    assert!(
        open_files(s.child.id()) > 300,
        "{}",
        open_files(s.child.id())
    );
    let first = &mut idle[0];
    first
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    assert!(
        std::io::Read::read(first, &mut buf).is_err(),
        "the first connection was closed"
    );
}

/// The address space a process has mapped (`VmSize`), in bytes.
fn mapped_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmSize:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

/// A table whose memory the system refuses (an address-space limit set on the running server, below what the
/// 3 x 4 table's build takes: 239.5 MB) fails with the library's error, answers 503, and the server goes on
/// serving (it used to die of SIGABRT on the failed allocation).
#[test]
fn a_build_the_system_refuses_memory_for_fails_and_the_server_goes_on() {
    let mut s = Serve::start();
    quick_solve(&s, Duration::from_secs(5));
    let limit = mapped_bytes(s.child.id()) + 200_000_000;
    let set = std::process::Command::new("prlimit")
        .args(["--pid", &s.child.id().to_string(), &format!("--as={limit}")])
        .status()
        .unwrap();
    assert!(set.success());
    let r = s.get("/api/stats?shape=3x4");
    assert_eq!(r.status, 503, "{}", r.body);
    let status = s.get("/api/status").json();
    let build = status["builds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["shape"] == "3x4")
        .unwrap_or_else(|| panic!("{status}"))
        .clone();
    let e = build["error"].as_str().unwrap_or_default();
    assert!(
        build["state"] == "failed"
            && e.contains("the 3x4 table needs 239 MB of memory, which the system refused")
            && e.contains("address-space limit"),
        "{build}"
    );
    quick_solve(&s, Duration::from_secs(5));
    assert!(s.child.try_wait().unwrap().is_none(), "the server ended");
}
