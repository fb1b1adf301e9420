//! The query strings of `slide serve`'s GET requests: parameters decoded, unknown or repeated ones refused.

use std::collections::HashMap;

use super::reply::Reply;
use super::request::shorten;

/// The parameters of a query string, decoded. A name not in `known`, or given twice, is a 400 naming it.
pub(super) fn query_params(
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
pub(super) fn percent_decode(s: &str) -> String {
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

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("3x4"), "3x4");
        assert_eq!(percent_decode("3%78%34"), "3x4");
        assert_eq!(percent_decode("a+b"), "a b");
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%zz1"), "%zz1");
    }
}
