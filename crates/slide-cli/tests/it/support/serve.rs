//! A running `slide serve` for the tests, and a tiny HTTP/1.1 client over a plain `TcpStream`: each server is the
//! real binary on a free port (`--port 0`, the URL is read from the first line it prints) with its own empty cache
//! directory, killed when dropped (also on failure).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A running `slide serve`; killed on drop.
pub struct Serve {
    /// The server process.
    pub child: Child,
    /// host:port
    pub addr: String,
    /// Its cache directory, removed when dropped.
    pub cache: tempfile::TempDir,
}

impl Serve {
    /// `slide serve --port 0`.
    pub fn start() -> Serve {
        Serve::with_args(&[])
    }

    /// `slide serve --port 0 EXTRA...`.
    pub fn with_args(extra: &[&str]) -> Serve {
        Serve::with_global_args(&[], extra)
    }

    /// `slide GLOBAL... serve --port 0 EXTRA...`.
    pub fn with_global_args(global: &[&str], extra: &[&str]) -> Serve {
        Serve::under(&[], global, extra)
    }

    /// `WRAPPER... slide GLOBAL... serve --port 0 EXTRA...`, for a wrapper that runs the server in its own process
    /// (`exec`s it), such as `prlimit --nofile=80`.
    pub fn under(wrapper: &[&str], global: &[&str], extra: &[&str]) -> Serve {
        let cache = tempfile::tempdir().unwrap();
        let slide = assert_cmd::cargo::cargo_bin("slide");
        let mut command = match wrapper.split_first() {
            Some((program, args)) => {
                let mut c = Command::new(program);
                c.args(args).arg(&slide);
                c
            }
            None => Command::new(&slide),
        };
        command
            .args(global)
            .args(["serve", "--port", "0"])
            .args(extra);
        Serve::spawn(command, cache)
    }

    /// Starts `command` (a `slide … serve --port 0 …` made by the caller, for instance run as another user) with
    /// `cache` as its cache directory, and waits for the URL it prints.
    pub fn spawn(mut command: Command, cache: tempfile::TempDir) -> Serve {
        let mut child = command
            .env("SLIDE_CACHE_DIR", cache.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start slide serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // From here on the guard kills the child, whatever happens.
        let mut s = Serve {
            child,
            addr: String::new(),
            cache,
        };
        assert!(
            line.starts_with("slide: serving on http://") && line.contains("(Ctrl-C to stop)"),
            "first line: {line:?}"
        );
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap();
        s.addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        assert!(s.addr.starts_with("127.0.0.1:"), "{url}");
        s
    }

    /// A new connection, with a read timeout of a minute.
    pub fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s
    }

    /// Sends raw bytes on a new connection and reads one response.
    pub fn raw(&self, bytes: &[u8]) -> Resp {
        let mut s = self.connect();
        s.write_all(bytes).unwrap();
        read_response(&mut BufReader::new(s), bytes.starts_with(b"HEAD "))
    }

    /// One request on a new connection (closed after it); its response.
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> Resp {
        self.raw(&request_bytes(&self.addr, method, path, body, true))
    }

    /// GET `path`.
    pub fn get(&self, path: &str) -> Resp {
        self.request("GET", path, None)
    }

    /// POST `body` (JSON) to `path`.
    pub fn post(&self, path: &str, body: &str) -> Resp {
        self.request("POST", path, Some(body))
    }

    /// POST /api/solve with a JSON body; the answer must be 200 with a JSON object.
    pub fn solve(&self, body: Value) -> Value {
        let r = self.post("/api/solve", &body.to_string());
        assert_eq!(r.status, 200, "{body} -> {}", r.body);
        r.json()
    }

    /// POST /api/solve expecting an error status; returns the error message.
    pub fn solve_error(&self, body: &str, status: u16) -> String {
        self.error_from("/api/solve", body, status)
    }

    /// POST /api/analyse with a JSON body; the answer must be 200 with a JSON object.
    pub fn analyse(&self, body: Value) -> Value {
        let r = self.post("/api/analyse", &body.to_string());
        assert_eq!(r.status, 200, "{body} -> {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/json"));
        r.json()
    }

    /// POST to `path` expecting an error status; returns the error message.
    pub fn error_from(&self, path: &str, body: &str, status: u16) -> String {
        let r = self.post(path, body);
        assert_eq!(r.status, status, "{body} -> {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/json"));
        let v = r.json();
        let e = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {v}"));
        assert!(!e.is_empty());
        e.to_string()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request to `host` (the Host header: the server refuses names it does not know).
pub fn request_bytes(
    host: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
    close: bool,
) -> Vec<u8> {
    let mut r = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n");
    if close {
        r.push_str("Connection: close\r\n");
    }
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
    r.into_bytes()
}

/// A response read.
pub struct Resp {
    /// The status code.
    pub status: u16,
    /// The headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body as text (invalid UTF-8 replaced: see `bytes` for pictures).
    pub body: String,
    /// The body.
    pub bytes: Vec<u8>,
}

impl Resp {
    /// The value of a header (its name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (it must be).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }
}

/// Reads one response: status line, headers, and (unless it answers a HEAD request) a body delimited by
/// Content-Length, chunks or the end of the connection.
pub fn read_response(r: &mut impl BufRead, head: bool) -> Resp {
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let mut parts = line.split_whitespace();
    assert_eq!(
        parts.next().map(|v| v.starts_with("HTTP/1.")),
        Some(true),
        "status line {line:?}"
    );
    let status: u16 = parts.next().unwrap().parse().unwrap();
    let mut headers = Vec::new();
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (k, v) = l.split_once(':').unwrap();
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let mut resp = Resp {
        status,
        headers,
        body: String::new(),
        bytes: Vec::new(),
    };
    let mut body = Vec::new();
    if head {
    } else if let Some(n) = resp.header("content-length") {
        body.resize(n.parse().unwrap(), 0);
        r.read_exact(&mut body).unwrap();
    } else if resp
        .header("transfer-encoding")
        .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
    {
        loop {
            line.clear();
            r.read_line(&mut line).unwrap();
            let n = usize::from_str_radix(line.trim().split(';').next().unwrap(), 16).unwrap();
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        r.read_to_end(&mut body).unwrap();
    }
    resp.body = String::from_utf8_lossy(&body).into_owned();
    resp.bytes = body;
    resp
}
