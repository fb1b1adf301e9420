//! The answers of `slide serve`: a status, a content type, a body and a few headers ([`Reply`]), and the HTTP
//! status of a library error ([`error_status`]).

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use slide::{ParseError, RenderError, SolveError, StoreError};

/// The page and the files it loads, compiled into the binary: (path, content type, body).
pub(super) const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_str!("../../assets/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../assets/style.css"),
    ),
    (
        "/core.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/core.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/board.js"),
    ),
    (
        "/practice.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/practice.js"),
    ),
    (
        "/records.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/records.js"),
    ),
    (
        "/controls.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/controls.js"),
    ),
    (
        "/replay.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/replay.js"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/app.js"),
    ),
];

/// An answer: status, content type, body, extra headers.
pub(super) struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    allow: Option<&'static str>,
    /// A `Content-Disposition` value (a file to save, with its name).
    pub(super) disposition: Option<String>,
    /// `X-Slide-Optimal` of a rendered solution: whether it is proven shortest.
    pub(super) optimal: Option<bool>,
}

impl Reply {
    pub(super) fn json(status: u16, body: String) -> Reply {
        Reply::bytes(status, "application/json", body.into_bytes())
    }

    pub(super) fn bytes(status: u16, content_type: &'static str, body: Vec<u8>) -> Reply {
        Reply {
            status,
            content_type,
            body,
            allow: None,
            disposition: None,
            optimal: None,
        }
    }

    /// One of the page's files ([`ASSETS`]), by its index there.
    pub(super) fn asset(index: usize) -> Reply {
        let (_, content_type, body) = ASSETS[index];
        Reply::bytes(200, content_type, body.as_bytes().to_vec())
    }

    pub(super) fn error(status: u16, message: impl AsRef<str>) -> Reply {
        Reply::json(
            status,
            serde_json::json!({ "error": message.as_ref() }).to_string(),
        )
    }

    pub(super) fn error_with_allow(
        status: u16,
        message: impl AsRef<str>,
        allow: &'static str,
    ) -> Reply {
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
        // No other site may frame the page or an answer (clickjacking); older browsers read X-Frame-Options.
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("frame-ancestors 'none'"),
        );
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
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

/// The HTTP status for a library error from a solve or an analysis (the message goes in the body): 400 when the
/// request is at fault, 503 when the server cannot do the work now (memory, a table it lacks, an analysis its budget
/// stopped), 500 for its own failures. New
/// variants of the (non-exhaustive) layer enums are 500 until they are placed here.
pub fn error_status(e: &slide::Error) -> u16 {
    use slide::Error as E;
    match e {
        E::Parse(ParseError::Empty)
        | E::Parse(ParseError::NotANumber { .. })
        | E::Parse(ParseError::NumberTooLarge { .. })
        | E::Parse(ParseError::JsonNumber { .. })
        | E::Parse(ParseError::Syntax { .. })
        | E::Parse(ParseError::Ragged { .. })
        | E::Parse(ParseError::WrongCount { .. })
        | E::Parse(ParseError::NotTheShape { .. })
        | E::Parse(ParseError::UnknownShape { .. })
        | E::Parse(ParseError::Duplicate { .. })
        | E::Parse(ParseError::OutOfRange { .. })
        | E::Parse(ParseError::NoBlank)
        | E::Parse(ParseError::TooLarge { .. })
        | E::Parse(ParseError::BadShape { .. })
        | E::Solve(SolveError::ShapeMismatch { .. })
        | E::Parse(ParseError::IllegalMove { .. })
        | E::Parse(ParseError::BadInstance { .. })
        | E::Solve(SolveError::Unsolvable { .. })
        | E::Solve(SolveError::NoTable { .. })
        | E::Solve(SolveError::SearchTooLarge { .. })
        | E::Solve(SolveError::BadPartition { .. })
        | E::Solve(SolveError::InvalidOption { .. })
        | E::Parse(ParseError::BadMove { .. })
        | E::Parse(ParseError::MoveSyntax { .. })
        | E::Parse(ParseError::TooManyMoves { .. })
        | E::Parse(ParseError::UnknownNotation { .. })
        | E::Parse(ParseError::NeedsBoard)
        | E::Render(RenderError::PictureTooLarge { .. })
        | E::Parse(ParseError::BadCell { .. })
        | E::Parse(ParseError::RowNotAList { .. }) => 400,
        E::Solve(SolveError::TooMuchMemory { .. } | SolveError::OutOfMemory { .. })
        | E::Cancelled
        | E::Solve(SolveError::LimitReached { .. }) => 503,
        E::Store(
            StoreError::Unusable(_)
            | StoreError::Unreadable { .. }
            | StoreError::Damaged { .. }
            | StoreError::OtherVersion { .. }
            | StoreError::OtherTable { .. },
        )
        | E::Render(RenderError::Draw { .. } | RenderError::NoPixmap { .. })
        | E::Solve(SolveError::Threads { .. })
        | E::Internal(_) => 500,
        _ => 500,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_errors_map_to_statuses() {
        assert_eq!(
            error_status(&slide::Error::Parse(slide::ParseError::NoBlank)),
            400
        );
        assert_eq!(
            error_status(&slide::Error::Solve(slide::SolveError::NoTable {
                shape: "4x4".parse().unwrap()
            })),
            400
        );
        assert_eq!(error_status(&slide::Error::Cancelled), 503);
        assert_eq!(
            error_status(&slide::Error::Solve(slide::SolveError::LimitReached {
                what: "the distance after move 7".into(),
                lower_bound: 40
            })),
            503
        );
        assert_eq!(
            error_status(&slide::Error::Parse(slide::ParseError::JsonNumber {
                token: "+5".into(),
                column: 15,
                reason: "JSON numbers have no '+' sign".into()
            })),
            400
        );
        assert_eq!(
            error_status(&slide::Error::Parse(slide::ParseError::BadMove {
                index: 7,
                token: "U".into(),
                reason: "no tile below the blank".into()
            })),
            400
        );
        assert_eq!(error_status(&slide::Error::Internal("x".into())), 500);
        assert_eq!(
            error_status(&slide::Error::Solve(slide::SolveError::TooMuchMemory {
                what: "a table".into(),
                needed: 2,
                limit: 1
            })),
            503
        );
        assert_eq!(
            error_status(&slide::Error::Store(slide::StoreError::Unusable(
                "disk".into()
            ))),
            500
        );
        assert_eq!(
            error_status(&slide::Error::Render(slide::RenderError::PictureTooLarge {
                reason: "a GIF of 9 frames".into()
            })),
            400
        );
    }
}
