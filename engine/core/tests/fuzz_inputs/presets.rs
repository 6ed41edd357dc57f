//! Mutated presets: every scenario in `public/presets/` with a few of its values replaced
//! by edge values, scaled, removed, duplicated, or swapped for the value of the same key
//! in another preset. The structured generators in `mod.rs` build their scenarios from
//! a fixed grammar; starting from the presets instead reaches every model the presets
//! use (switch architectures, topologies, routings, lane maps and credit policies,
//! messages, admission, network processors), and a model added with its preset is fuzzed
//! without touching this file.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde_json::{Value, json};

/// The presets (every `*.json` of `public/presets/` but the index), parsed.
fn presets() -> &'static [Value] {
    static PRESETS: OnceLock<Vec<Value>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/presets");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && p.file_name().is_some_and(|n| n != "index.json")
            })
            .collect();
        files.sort();
        let presets: Vec<Value> = files
            .iter()
            .map(|p| {
                let text = std::fs::read_to_string(p).unwrap();
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            })
            .collect();
        assert!(
            presets.len() >= 10,
            "presets not found in {}",
            dir.display()
        );
        presets
    })
}

/// Every value under each object key, across all presets: what a swap may bring in.
fn values_by_key() -> &'static BTreeMap<String, Vec<Value>> {
    static BY_KEY: OnceLock<BTreeMap<String, Vec<Value>>> = OnceLock::new();
    BY_KEY.get_or_init(|| {
        let mut by_key: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        fn walk(v: &Value, by_key: &mut BTreeMap<String, Vec<Value>>) {
            match v {
                Value::Object(m) => {
                    for (k, child) in m {
                        let seen = by_key.entry(k.clone()).or_default();
                        if !seen.contains(child) {
                            seen.push(child.clone());
                        }
                        walk(child, by_key);
                    }
                }
                Value::Array(items) => items.iter().for_each(|c| walk(c, by_key)),
                _ => {}
            }
        }
        for p in presets() {
            walk(p, &mut by_key);
        }
        by_key
    })
}

/// One step of a path into a JSON document.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Item(usize),
}

/// Every path in `v` (the root excluded), parents before children.
fn paths(v: &Value) -> Vec<Vec<Step>> {
    fn walk(v: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    at.push(Step::Key(k.clone()));
                    out.push(at.clone());
                    walk(child, at, out);
                    at.pop();
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    at.push(Step::Item(i));
                    out.push(at.clone());
                    walk(child, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

/// The parent container of `path` (None if the path no longer leads anywhere).
fn parent_mut<'a>(root: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut v = root;
    for step in &path[..path.len() - 1] {
        v = match (step, v) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Step::Item(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(v)
}

/// Replacement values from the edges (and wrong types).
fn edge_values() -> Vec<Value> {
    vec![
        json!(0),
        json!(1),
        json!(2),
        json!(-1),
        json!(63),
        json!(64),
        json!(65),
        json!(255),
        json!(256),
        json!(65_535),
        json!(65_536),
        json!(u32::MAX),
        json!(u64::from(u32::MAX) + 1),
        json!(1u64 << 53),
        json!(u64::MAX),
        json!(0.5),
        json!(-0.0),
        json!(1e-320),
        json!(1e-9),
        json!(0.999_999),
        json!(1.000_001),
        json!(1e9),
        json!(1e300),
        json!(""),
        json!("x"),
        json!(null),
        json!(true),
        json!([]),
        json!({}),
    ]
}

/// How a mutation changes the value at its path.
#[derive(Clone, Debug)]
enum Change {
    /// Replace it with an edge value (any number: taken modulo their count).
    Edge(usize),
    /// Multiply a number by a factor (numbers only; others are left alone).
    Scale(f64),
    /// Remove it from its object or array.
    Remove,
    /// Append a copy of it to its array (arrays only).
    Duplicate,
    /// Replace it with a value the same key has in some preset (any number: taken
    /// modulo their count).
    Swap(usize),
}

fn change() -> BoxedStrategy<Change> {
    prop_oneof![
        4 => any::<usize>().prop_map(Change::Edge),
        3 => prop::sample::select(vec![0.0, 0.001, 0.5, 1.5, 2.0, 10.0, 1000.0, 1e6, -1.0])
            .prop_map(Change::Scale),
        2 => Just(Change::Remove),
        1 => Just(Change::Duplicate),
        4 => any::<usize>().prop_map(Change::Swap),
    ]
    .boxed()
}

/// Applies `change` at path number `at` (modulo their count) of `doc` (paths counted
/// afresh, so earlier changes may move them).
fn apply(doc: &mut Value, at: usize, change: &Change) {
    let all = paths(doc);
    if all.is_empty() {
        return;
    }
    let path = &all[at % all.len()];
    let Some(parent) = parent_mut(doc, path) else {
        return;
    };
    let last = &path[path.len() - 1];
    let slot = match (last, &mut *parent) {
        (Step::Key(k), Value::Object(m)) => m.get_mut(k),
        (Step::Item(i), Value::Array(a)) => a.get_mut(*i),
        _ => None,
    };
    let Some(slot) = slot else {
        return;
    };
    match change {
        Change::Edge(i) => {
            let edges = edge_values();
            *slot = edges[i % edges.len()].clone();
        }
        Change::Scale(f) => {
            if let Some(x) = slot.as_f64() {
                let scaled = x * f;
                *slot = if slot.is_u64() && scaled >= 0.0 && scaled.fract() == 0.0 {
                    json!(scaled as u64)
                } else {
                    json!(scaled)
                };
            }
        }
        Change::Swap(i) => {
            if let Step::Key(k) = last
                && let Some(values) = values_by_key().get(k)
            {
                *slot = values[i % values.len()].clone();
            }
        }
        Change::Remove | Change::Duplicate => match (last, parent) {
            (Step::Key(k), Value::Object(m)) if matches!(change, Change::Remove) => {
                m.remove(k);
            }
            (Step::Item(i), Value::Array(a)) => {
                if matches!(change, Change::Remove) {
                    a.remove(*i);
                } else {
                    let copy = a[*i].clone();
                    a.push(copy);
                }
            }
            _ => {}
        },
    }
}

/// A preset with one to four changes, as text.
pub fn mutated_preset() -> BoxedStrategy<String> {
    let count = presets().len();
    (
        0..count,
        prop::collection::vec((any::<usize>(), change()), 1..5),
    )
        .prop_map(|(p, changes)| {
            let mut doc = presets()[p].clone();
            for (at, c) in &changes {
                apply(&mut doc, *at, c);
            }
            doc.to_string()
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The presets are found, and a change lands where it says.
    #[test]
    fn changes_apply() {
        assert!(presets().len() >= 10);
        let mut doc = json!({"a": {"b": [1, 2]}, "c": 3});
        // Paths, parents first: a, a.b, a.b[0], a.b[1], c.
        assert_eq!(paths(&doc).len(), 5);
        apply(&mut doc, 4, &Change::Scale(2.0));
        assert_eq!(doc["c"], json!(6));
        apply(&mut doc, 2, &Change::Remove);
        assert_eq!(doc["a"]["b"], json!([2]));
        apply(&mut doc, 1, &Change::Remove);
        assert_eq!(doc, json!({"a": {}, "c": 6}));
    }
}
