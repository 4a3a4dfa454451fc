//! JSON as the peer scripts write it: serde serializes, and [`to_line`] lays the value out on one
//! line with `", "` and `": "` between items, as Python's `json.dumps` does by default. The bench's
//! runs and the self-test's report then read the same as the peers' lines, so a script (or a
//! person) comparing them sees one form; readers parse it with any JSON parser.
//!
//! Pure: this module only builds strings.

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, Serializer};

/// `json.dumps`'s separators: compact otherwise.
struct Spaced;

impl Formatter for Spaced {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// `value` as one line of JSON in the peers' layout.
///
/// # Panics
/// Never for the plain structs this crate serializes (strings, numbers, booleans, lists).
pub fn to_line<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    value
        .serialize(&mut Serializer::with_formatter(&mut out, Spaced))
        .expect("plain data serializes");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Line<'a> {
        peer: &'a str,
        n: usize,
        tags: Vec<&'a str>,
        check: bool,
    }

    #[test]
    fn lays_out_as_json_dumps_and_escapes() {
        let line = to_line(&Line {
            peer: "said \"hi\"\n\u{1}",
            n: 3,
            tags: vec!["a", "b"],
            check: true,
        });
        assert_eq!(
            line,
            r#"{"peer": "said \"hi\"\n\u0001", "n": 3, "tags": ["a", "b"], "check": true}"#
        );
    }
}
