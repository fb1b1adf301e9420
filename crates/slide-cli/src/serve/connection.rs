//! The connections of `slide serve`: the listening socket, the accept loop under its limits (connections open at
//! once, header, body and write deadlines, header size), the stop on Ctrl-C, the Host check, and the reading of a
//! JSON body within [`MAX_BODY`].

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio_io_timeout::TimeoutStream;

use super::jobs::App;
use super::reply::Reply;
use super::request::shorten;
use super::{
    router, BODY_DEADLINE, HEADER_DEADLINE, MAX_BODY, MAX_CONNECTIONS, MAX_HEADER_BYTES,
    SHUTDOWN_GRACE, WRITE_DEADLINE,
};
use crate::EXIT_OK;

/// After a 413 on a body without a Content-Length (chunked), read and throw away at most this much more of it, so
/// the connection stays usable for a well-behaved client.
const DISCARD_AFTER_413: usize = 1 << 20;

/// The listening socket's backlog: connections the kernel completes before they are accepted.
const BACKLOG: u32 = 1024;

/// The listening socket (with a backlog of [`BACKLOG`] connections).
pub(super) async fn listen(addr: SocketAddr) -> anyhow::Result<tokio::net::TcpListener> {
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

/// File descriptors kept for other uses than connections (the listener, the runtime, standard streams, table and
/// lock files) when the connection cap is derived from the open-file limit.
const RESERVED_FILES: u64 = 64;

/// The fewest connections the cap allows, however low the open-file limit.
const MIN_CONNECTIONS: usize = 16;

/// Raises the soft open-file limit (`RLIMIT_NOFILE`) to the hard one and returns the most connections to keep
/// open at once: [`MAX_CONNECTIONS`], or fewer when the limit, less [`RESERVED_FILES`], is lower (at least
/// [`MIN_CONNECTIONS`]).
pub(super) fn connection_cap() -> usize {
    let files = raise_file_limit();
    files.map_or(MAX_CONNECTIONS, |n| {
        usize::try_from(n.saturating_sub(RESERVED_FILES))
            .unwrap_or(usize::MAX)
            .clamp(MIN_CONNECTIONS, MAX_CONNECTIONS)
    })
}

/// The soft open-file limit after raising it to the hard one (where allowed), or `None` when unknown or unlimited.
#[cfg(unix)]
fn raise_file_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read or write the struct they are given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return None;
    }
    if lim.rlim_cur < lim.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: lim.rlim_max,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: as above. Refused (an unlimited hard limit above the kernel's maximum): the soft one stays.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            lim = raised;
        }
    }
    (lim.rlim_cur != libc::RLIM_INFINITY).then_some(lim.rlim_cur)
}

#[cfg(not(unix))]
fn raise_file_limit() -> Option<u64> {
    None
}

/// The open connections, oldest first, each with its count of requests under way and the means to close it.
#[derive(Default)]
struct Open {
    next: u64,
    conns: std::collections::BTreeMap<u64, (Arc<AtomicUsize>, tokio::sync::oneshot::Sender<()>)>,
}

impl Open {
    /// Closes the oldest connection with no request under way (waiting for its first or next request); `false`
    /// when every connection has one.
    fn shed_oldest_idle(&mut self) -> bool {
        let oldest = self
            .conns
            .iter()
            .find(|(_, (busy, _))| busy.load(Ordering::Relaxed) == 0)
            .map(|(&id, _)| id);
        match oldest.and_then(|id| self.conns.remove(&id)) {
            Some((_, close)) => {
                let _ = close.send(());
                true
            }
            None => false,
        }
    }
}

fn lock_open(o: &Mutex<Open>) -> std::sync::MutexGuard<'_, Open> {
    o.lock().unwrap_or_else(|e| e.into_inner())
}

/// Counts a request under way on its connection while it lives.
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn new(count: &Arc<AtomicUsize>) -> Busy {
        count.fetch_add(1, Ordering::Relaxed);
        Busy(Arc::clone(count))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Accepts and serves connections until Ctrl-C, at most `cap` open at once ([`connection_cap`]); returns the exit
/// status. A connection past the cap, or one the open-file limit refuses, closes the oldest idle connection (one
/// with no request under way: a client that keeps it alive, or stalls before its headers) rather than wait for
/// one to end; only when every open connection has a request under way is the new one closed at once.
pub(super) async fn serve(listener: tokio::net::TcpListener, app: Arc<App>, cap: usize) -> u8 {
    let router = router(app);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_DEADLINE)
        .max_buf_size(MAX_HEADER_BYTES)
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    let open = Arc::new(Mutex::new(Open::default()));
    let mut stop = std::pin::pin!(stop_signal());
    let mut last_error_report: Option<Instant> = None;
    loop {
        let tcp = tokio::select! {
            r = listener.accept() => match r {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    // Out of file descriptors (EMFILE, ENFILE): make room by closing the oldest idle
                    // connection, or wait a little rather than spin; a connection the client aborted before it
                    // was accepted is no news.
                    use std::io::ErrorKind::{ConnectionAborted, ConnectionReset};
                    if matches!(e.kind(), ConnectionAborted | ConnectionReset) {
                        continue;
                    }
                    let out_of_files = matches!(e.raw_os_error(), Some(code) if is_out_of_files(code));
                    if out_of_files && lock_open(&open).shed_oldest_idle() {
                        tokio::task::yield_now().await;
                        continue;
                    }
                    if last_error_report.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
                        eprintln!("slide: serve: cannot accept a connection: {e}");
                        last_error_report = Some(Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let busy = Arc::new(AtomicUsize::new(0));
        let (close_tx, close_rx) = tokio::sync::oneshot::channel::<()>();
        let id = {
            let mut o = lock_open(&open);
            if o.conns.len() >= cap && !o.shed_oldest_idle() {
                continue; // every connection has a request under way: this one is closed (dropped) at once
            }
            let id = o.next;
            o.next += 1;
            o.conns.insert(id, (Arc::clone(&busy), close_tx));
            id
        };
        let _ = tcp.set_nodelay(true);
        let mut io = TimeoutStream::new(tcp);
        io.set_write_timeout(Some(WRITE_DEADLINE));
        let service = TowerToHyperService::new(router.clone());
        let counted = hyper::service::service_fn(move |req| {
            let busy = Busy::new(&busy);
            let answer = hyper::service::Service::call(&service, req);
            async move {
                let r = answer.await;
                drop(busy);
                r
            }
        });
        let conn = http.serve_connection(TokioIo::new(Box::pin(io)), counted);
        let conn = graceful.watch(conn);
        let open = Arc::clone(&open);
        tokio::spawn(async move {
            // Errors here are the client's (gone, too slow, not HTTP): nothing to do but close. Shed: the
            // connection is dropped, which closes it.
            tokio::select! {
                _ = conn => {}
                _ = close_rx => {}
            }
            lock_open(&open).conns.remove(&id);
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

/// Whether an OS error code says the process (EMFILE) or the system (ENFILE) has no file descriptor left.
fn is_out_of_files(code: i32) -> bool {
    #[cfg(unix)]
    {
        code == libc::EMFILE || code == libc::ENFILE
    }
    #[cfg(not(unix))]
    {
        let _ = code;
        false
    }
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

/// Refuses a request the server must not answer, before anything else looks at it: 400 for two `Host` headers,
/// 403 for a Host the server does not answer for (or none), and 403 for a request to the API that a page of
/// another site made the browser send ([`cross_site`]).
pub(super) async fn check_host(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if req.headers().get_all(header::HOST).iter().nth(1).is_some() {
        return Reply::error(400, "the request has more than one Host header").into_response();
    }
    // An absolute request target (`GET http://name/ HTTP/1.1`) names the host instead of the header.
    let host = match req.uri().authority() {
        Some(a) => Some(a.as_str()),
        None => req
            .headers()
            .get(header::HOST)
            .map(|h| h.to_str().unwrap_or("\u{fffd}")),
    };
    match host {
        Some(h) if app.hosts.allows(h) => {
            if req.uri().path().starts_with("/api/") {
                if let Some(why) = cross_site(req.headers(), h) {
                    return Reply::error(403, why).into_response();
                }
            }
            next.run(req).await
        }
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

/// Why a request to the API (addressed to `host`) comes from a page of another site, or `None` when it does not:
/// the browser's `Sec-Fetch-Site` must be `same-origin` or `none` (typed in, a bookmark) and its `Origin`, when
/// sent, must be this server's own (`http://` or `https://` and the request's host and port). Requests that send
/// neither (`curl`, scripts, older browsers' same-origin GETs) pass: only a browser acts for another site.
fn cross_site(headers: &HeaderMap, host: &str) -> Option<String> {
    const WHY: &str = "the API answers only this server's own page, not pages of other sites";
    let mut fetch_site = headers.get_all("sec-fetch-site").iter();
    match (fetch_site.next(), fetch_site.next()) {
        (None, _) => {}
        (Some(v), None)
            if v.as_bytes().eq_ignore_ascii_case(b"same-origin")
                || v.as_bytes().eq_ignore_ascii_case(b"none") => {}
        (Some(v), _) => {
            return Some(format!(
                "{WHY} (Sec-Fetch-Site: {})",
                shorten(&String::from_utf8_lossy(v.as_bytes()), 40)
            ))
        }
    }
    let mut origins = headers.get_all(header::ORIGIN).iter();
    match (origins.next(), origins.next()) {
        (None, _) => None,
        (Some(v), None) if same_origin(v.as_bytes(), host) => None,
        (Some(v), _) => Some(format!(
            "{WHY} (Origin: {})",
            shorten(&String::from_utf8_lossy(v.as_bytes()), 100)
        )),
    }
}

/// Whether an `Origin` value is `http://HOST` or `https://HOST` for the request's `host` (any case).
fn same_origin(origin: &[u8], host: &str) -> bool {
    let Ok(origin) = std::str::from_utf8(origin) else {
        return false;
    };
    let lower = origin.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"));
    rest.is_some_and(|r| r.eq_ignore_ascii_case(host))
}

/// The host names a request may be addressed to.
pub(super) struct Hosts {
    /// The bound address.
    ip: IpAddr,
    /// Bound to all interfaces: any IP address is fine (DNS rebinding needs a name).
    any_ip: bool,
    /// `localhost`, the `--bind` name if it is one, and the `--allow-host` names, lower case.
    names: Vec<String>,
}

impl Hosts {
    pub(super) fn new(ip: IpAddr, bind: &str, allow: &[String]) -> Result<Hosts, String> {
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

/// The body of a POST that must be JSON: its announced length, its content type, then the body itself.
pub(super) async fn json_body(req: Request) -> Result<Vec<u8>, Reply> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

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
}
