//! The bad-input catalogue (`crates/slide/tests/data/bad_input.json`), read for the library's tests and, through
//! `#[path]`, for the command line's: malformed boards with the error each face gives, and HTTP bodies that are
//! not a request. The Python package's tests read the same file.
#![allow(dead_code)] // each crate's tests use their part

use serde_json::Value;

/// The catalogue, as written.
const DATA: &str = include_str!("../data/bad_input.json");

/// A malformed board and the error each face gives for it.
pub struct BadBoard {
    /// Its name in the catalogue.
    pub name: String,
    /// The board's bytes (not always UTF-8).
    pub text: Vec<u8>,
    /// The same board as a JSON value, where there is one (the server then gets it as such, not as text).
    pub value: Option<Value>,
    /// The shape passed along with it (`--shape`, `"shape"`), if any.
    pub shape: Option<String>,
    /// Words the library's message holds (`Board::parse_with_shape`); `None` where the library cannot take it.
    pub lib: Option<Vec<String>>,
    /// Words `slide solve`'s message holds; `None` where the command line cannot take it.
    pub cli: Option<Vec<String>>,
    /// Words the error of `POST /api/solve` holds; `None` where the server cannot take it.
    pub http: Option<Vec<String>>,
    /// The exact sentence the server and Python give for `value` (cells, with row and column), if it is not one
    /// of `error`'s.
    pub value_error: Option<String>,
    /// Whether the faces cannot see the same input (exempt from the comparison of the faces' messages).
    pub differs: bool,
    /// Why they cannot, for an entry that `differs`.
    pub why: Option<String>,
    /// Whether any face has words of its own for this board (then the faces are not compared whole).
    pub face_words: bool,
}

impl BadBoard {
    /// The board as text, when it is UTF-8.
    pub fn utf8(&self) -> Option<&str> {
        std::str::from_utf8(&self.text).ok()
    }
}

/// A request body for `POST /api/solve` that is not a request, with the answer's status and words of its error.
pub struct BadBody {
    /// Its name in the catalogue.
    pub name: String,
    /// The body's bytes.
    pub body: Vec<u8>,
    /// The status expected.
    pub status: u16,
    /// Words the JSON error holds.
    pub error: Vec<String>,
}

fn data() -> Value {
    serde_json::from_str(DATA).expect("bad_input.json is JSON")
}

/// The bytes an input stands for: a string, `{"hex": …}`, or a list of pieces (strings, `{"hex": …}`,
/// `{"repeat": s, "times": n}`, `{"row_of": n}`: the JSON rows `[[0,1,…,n-1]]`).
pub fn bytes_of(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    add_bytes(v, &mut out);
    out
}

fn add_bytes(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::String(s) => out.extend_from_slice(s.as_bytes()),
        Value::Array(pieces) => pieces.iter().for_each(|p| add_bytes(p, out)),
        Value::Object(o) => {
            if let Some(h) = o.get("hex") {
                let h = h.as_str().expect("hex is a string");
                out.extend(
                    (0..h.len())
                        .step_by(2)
                        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex digits")),
                );
            } else if let Some(s) = o.get("repeat") {
                let times = o["times"].as_u64().expect("times is a number") as usize;
                out.extend_from_slice(
                    s.as_str()
                        .expect("repeat is a string")
                        .repeat(times)
                        .as_bytes(),
                );
            } else if let Some(n) = o.get("row_of") {
                let n = n.as_u64().expect("row_of is a number");
                out.extend_from_slice(b"[[");
                for i in 0..n {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(i.to_string().as_bytes());
                }
                out.extend_from_slice(b"]]");
            } else {
                panic!("not an input: {v}")
            }
        }
        _ => panic!("not an input: {v}"),
    }
}

/// Words a message must hold: a string, or a list of strings.
fn words(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .map(|w| w.as_str().expect("words are strings").to_string())
            .collect(),
        _ => panic!("not words: {v}"),
    }
}

/// The words of `face` for an entry: its own, none (null), or the entry's `error`.
fn face(entry: &Value, face: &str) -> Option<Vec<String>> {
    match entry.get(face) {
        Some(Value::Null) => None,
        Some(v) => Some(words(v)),
        None => Some(words(&entry["error"])),
    }
}

/// The malformed boards.
pub fn boards() -> Vec<BadBoard> {
    data()["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|e| BadBoard {
            name: e["name"].as_str().expect("a name").to_string(),
            text: bytes_of(&e["board"]),
            value: e.get("value").cloned(),
            shape: e
                .get("shape")
                .map(|s| s.as_str().expect("shape").to_string()),
            lib: face(e, "lib"),
            cli: face(e, "cli"),
            http: face(e, "http"),
            value_error: e
                .get("value_error")
                .map(|v| v.as_str().expect("value_error").to_string()),
            differs: e.get("differs").and_then(Value::as_bool).unwrap_or(false),
            why: e.get("why").map(|v| v.as_str().expect("why").to_string()),
            face_words: ["lib", "cli", "http", "python"]
                .iter()
                .any(|f| e.get(*f).is_some()),
        })
        .collect()
}

/// A value of a solve's option outside the library's range, with the library's exact sentence for it.
pub struct BadOption {
    /// Its name in the catalogue.
    pub name: String,
    /// The option's library name (`timeout`, `weight`, `max_nodes`).
    pub option: String,
    /// The value as the command line writes it (`-1`, `0.5`, `NaN`).
    pub text: String,
    /// The value as a JSON number, where JSON can hold it.
    pub json: Option<Value>,
    /// The library's sentence.
    pub error: String,
    /// The flag of `slide solve` that sets it, if any.
    pub cli: Option<String>,
    /// The field of `POST /api/solve` that sets it, if any.
    pub http: Option<String>,
}

/// The bad option values.
pub fn options() -> Vec<BadOption> {
    section("options")
}

/// The names that are not one of an enumerated option's values (`choices`), read as [`options`] reads its.
pub fn choices() -> Vec<BadOption> {
    section("choices")
}

/// The entries of `options` or `choices`.
fn section(key: &str) -> Vec<BadOption> {
    let d = data();
    let names = &d["option_names"];
    let name_of = |option: &str, face: &str| names[option][face].as_str().map(str::to_string);
    d[key]
        .as_array()
        .expect(key)
        .iter()
        .map(|e| {
            let option = e["option"].as_str().expect("an option").to_string();
            let (text, json) = match &e["value"] {
                Value::String(s) => (s.clone(), None),
                v @ Value::Number(_) => (v.to_string(), Some(v.clone())),
                v => panic!("not a value: {v}"),
            };
            BadOption {
                name: e["name"].as_str().expect("a name").to_string(),
                cli: name_of(&option, "cli"),
                http: name_of(&option, "http"),
                option,
                text,
                json,
                error: e["error"].as_str().expect("an error").to_string(),
            }
        })
        .collect()
}

/// The HTTP bodies that are not a request.
pub fn bodies() -> Vec<BadBody> {
    data()["http"]
        .as_array()
        .expect("http")
        .iter()
        .map(|e| BadBody {
            name: e["name"].as_str().expect("a name").to_string(),
            body: bytes_of(&e["body"]),
            status: e["status"].as_u64().expect("a status") as u16,
            error: words(&e["error"]),
        })
        .collect()
}

/// Whether `message` holds every one of `words`.
pub fn holds(message: &str, words: &[String]) -> bool {
    words.iter().all(|w| message.contains(w.as_str()))
}
