//! `slide serve` at its edges, over real sockets: requests other sites make a browser send, work nobody waits for,
//! connections past the cap, and malformed requests (two `Host` headers).

use crate::support::serve::{Resp, Serve};

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
            format!("Origin: http://localhost:1\r\nSec-Fetch-Site: same-origin\r\n"),
            format!("Sec-Fetch-Site: same-origin\r\nSec-Fetch-Site: cross-site\r\n"),
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
    assert!(r.body.contains("window.top === window.self") && r.body.contains("Load this board"));
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
