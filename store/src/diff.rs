//! A readable diff of two JSON values, for replay's "what changed" lines.
//!
//! Objects are compared key by key and arrays of one length index by index,
//! so a change deep in a state shows as one line with its path:
//! `seats[1].body_points: 10 -> 7`. An array that grew or shrank is aligned
//! item by item, so a card leaving a sorted pool is one line, not a shift.

use serde_json::Value;

/// Values longer than this are shortened in change lines.
const SHOWN_MAX: usize = 60;

/// Every difference between `before` and `after`, one line each, in path order.
pub fn diff(before: &Value, after: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    walk("", before, after, &mut lines);
    lines
}

/// Where two values differ, as data: each path with the value on either
/// side (`None` where that side has nothing there). Objects and arrays of
/// one length are walked; arrays of different lengths are one difference,
/// each side whole (a hand of 3 against a hand of 5 is best read so).
pub fn differences(a: &Value, b: &Value) -> Vec<(String, Option<Value>, Option<Value>)> {
    let mut out = Vec::new();
    walk_values("", Some(a), Some(b), &mut out);
    out
}

fn walk_values(
    path: &str,
    a: Option<&Value>,
    b: Option<&Value>,
    out: &mut Vec<(String, Option<Value>, Option<Value>)>,
) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let (p, q) = (x.get(key), y.get(key));
                // An equal part (most of a state, step to step) is passed
                // over without a path made for each of its leaves.
                if p != q {
                    walk_values(&child(path, key), p, q, out);
                }
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p != q {
                    walk_values(&format!("{path}[{i}]"), Some(p), Some(q), out);
                }
            }
        }
        (a, b) if a == b => {}
        (a, b) => out.push((label(path).to_string(), a.cloned(), b.cloned())),
    }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn shown(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= SHOWN_MAX {
        s
    } else {
        let cut: String = s.chars().take(SHOWN_MAX).collect();
        format!("{cut}…")
    }
}

fn label(path: &str) -> &str {
    if path.is_empty() {
        "(state)"
    } else {
        path
    }
}

fn walk(path: &str, before: &Value, after: &Value, out: &mut Vec<String>) {
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            // Both maps iterate in key order, so a merge walk lists paths sorted.
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                // An equal part (most of a state, step to step) is passed
                // over without a path made for each of its leaves.
                let p = || child(path, key);
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) if x == y => {}
                    (Some(x), Some(y)) => walk(&p(), x, y, out),
                    (Some(x), None) => out.push(format!("{}: removed (was {})", p(), shown(x))),
                    (None, Some(y)) => out.push(format!("{}: added {}", p(), shown(y))),
                    (None, None) => unreachable!("key came from one of the maps"),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() != b.len() => aligned(path, a, b, out),
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let p = || format!("{path}[{i}]");
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) if x == y => {}
                    (Some(x), Some(y)) => walk(&p(), x, y, out),
                    (Some(x), None) => out.push(format!("{}: removed (was {})", p(), shown(x))),
                    (None, Some(y)) => out.push(format!("{}: added {}", p(), shown(y))),
                    (None, None) => unreachable!("index is below one of the lengths"),
                }
            }
        }
        (a, b) if a == b => {}
        (a, b) => out.push(format!("{}: {} -> {}", label(path), shown(a), shown(b))),
    }
}

/// Arrays that grew or shrank: items are matched in order (a longest
/// common subsequence), so taking one card out of a sorted pool reads as
/// that card removed, not as every later index shifting. Unmatched items
/// are listed as removed at their old index and added at their new one.
fn aligned(path: &str, a: &[Value], b: &[Value], out: &mut Vec<String>) {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(format!("{path}[{i}]: removed (was {})", shown(&a[i])));
            i += 1;
        } else {
            out.push(format!("{path}[{j}]: added {}", shown(&b[j])));
            j += 1;
        }
    }
}
