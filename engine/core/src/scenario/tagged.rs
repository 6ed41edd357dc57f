//! Deserialising `{"kind": ..., ...}` enums without losing the error path.
//!
//! serde's derived internally tagged enums buffer their content, so an error inside
//! (say a bad weight in `model.scheduler.table[3]`) would only be reported at the enum
//! (`model`). Here the tag is split off by hand and the variant's own struct is
//! deserialised with path tracking; the inner path travels inside the error message
//! (see [`encode`]) and [`locate`] turns it back into a full path.
//!
//! Serialisation, the JSON Schema and the TypeScript types still come from the derived
//! `#[serde(tag = "kind")]` attributes, so all representations agree.

use serde::de::{DeserializeOwned, Error as _};
use serde_json::{Map, Value};

/// Marks an error message that carries a path (`\u{1}path\u{1}message`).
const MARK: char = '\u{1}';

/// A message carrying the path where it occurred, relative to the enum being read.
fn encode(path: &str, message: &str) -> String {
    if path.is_empty() {
        message.to_string()
    } else {
        format!("{MARK}{path}{MARK}{message}")
    }
}

/// Joins two path fragments with a dot (none before an index: `a[2]`, `a[""]`).
fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ if b.starts_with('[') => format!("{a}{b}"),
        _ => format!("{a}.{b}"),
    }
}

/// Turns a path reported by serde (`.` for the root) and a message (possibly carrying a
/// deeper path, possibly "missing field `x`") into the full path and a plain message.
pub(crate) fn locate(path: &str, message: &str) -> (String, String) {
    let mut path = if path == "." {
        String::new()
    } else {
        path.to_string()
    };
    let mut message = message.to_string();
    if let Some(rest) = message.strip_prefix(MARK) {
        if let Some((inner, msg)) = rest.split_once(MARK) {
            path = join(&path, inner);
            message = msg.to_string();
        }
    }
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|r| r.split('`').next())
    {
        path = join(&path, field);
        message = "is required but missing".to_string();
    } else if let Some(field) = message
        .strip_prefix("unknown field `")
        .and_then(|r| r.split('`').next())
    {
        let expected = message
            .split_once(", expected ")
            .map(|(_, e)| e.to_string());
        if field.is_empty() {
            // A key with no name (`{"": 1}`): named as an index, so the path still shows it.
            path = format!("{}[\"\"]", path.trim_end_matches('.'));
        } else if path.rsplit('.').next() != Some(field) {
            // serde_path_to_error already ends the path with the unknown key.
            path = join(&path, field);
        }
        message = match expected {
            Some(e) => format!("is not a known field here (expected {e})"),
            None => "is not a known field here".to_string(),
        };
    }
    (path, message)
}

/// Reads a tagged object: returns its `kind` and the remaining fields.
pub(crate) fn split<'de, D: serde::Deserializer<'de>>(
    d: D,
    what: &str,
) -> Result<(String, Map<String, Value>), D::Error> {
    let mut map = <Map<String, Value> as serde::Deserialize>::deserialize(d)?;
    match map.remove("kind") {
        Some(Value::String(kind)) => Ok((kind, map)),
        Some(other) => Err(D::Error::custom(encode(
            "kind",
            &format!("must be a string naming the {what} (got {other})"),
        ))),
        None => Err(D::Error::custom(encode(
            "kind",
            &format!("is required: it names the {what}"),
        ))),
    }
}

/// Deserialises a variant's struct from the remaining fields, keeping the inner path.
pub(crate) fn variant<'de, D: serde::Deserializer<'de>, T: DeserializeOwned>(
    rest: Map<String, Value>,
) -> Result<T, D::Error> {
    serde_path_to_error::deserialize::<_, T>(Value::Object(rest)).map_err(|e| {
        let (path, message) = locate(&e.path().to_string(), &e.inner().to_string());
        D::Error::custom(encode(&path, &message))
    })
}

/// Checks that a variant without parameters got none.
pub(crate) fn unit<'de, D: serde::Deserializer<'de>>(
    rest: Map<String, Value>,
) -> Result<(), D::Error> {
    match rest.keys().next() {
        None => Ok(()),
        Some(k) => Err(D::Error::custom(encode(
            k,
            "is not a known field here (this kind takes no parameters)",
        ))),
    }
}

/// The error for an unknown `kind`.
pub(crate) fn unknown<E: serde::de::Error>(kind: &str, what: &str, known: &[&str]) -> E {
    E::custom(encode(
        "kind",
        &format!(
            "\"{kind}\" is not a known {what}; expected one of: {}",
            known.join(", ")
        ),
    ))
}

/// Implements `Deserialize` for a `kind`-tagged enum whose variants are unit variants or
/// newtypes around a struct: `tagged_enum!(Size, "packet-size distribution",
/// { "fixed" => Fixed(FixedSize), "none" => None })`.
macro_rules! tagged_enum {
    ($ty:ident, $what:literal, { $($tag:literal => $variant:ident $(($inner:ty))?),* $(,)? }) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let (kind, rest) = $crate::scenario::tagged::split(d, $what)?;
                match kind.as_str() {
                    $($tag => tagged_enum!(@variant D, $ty, $variant, rest $(, $inner)?),)*
                    other => Err($crate::scenario::tagged::unknown(other, $what, &[$($tag),*])),
                }
            }
        }
    };
    (@variant $d:ident, $ty:ident, $variant:ident, $rest:ident, $inner:ty) => {
        $crate::scenario::tagged::variant::<$d, $inner>($rest).map($ty::$variant)
    };
    (@variant $d:ident, $ty:ident, $variant:ident, $rest:ident) => {
        $crate::scenario::tagged::unit::<$d>($rest).map(|()| $ty::$variant)
    };
}

pub(crate) use tagged_enum;
