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
                walk_values(&child(path, key), x.get(key), y.get(key), out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                walk_values(&format!("{path}[{i}]"), Some(p), Some(q), out);
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
                let p = child(path, key);
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => walk(&p, x, y, out),
                    (Some(x), None) => out.push(format!("{p}: removed (was {})", shown(x))),
                    (None, Some(y)) => out.push(format!("{p}: added {}", shown(y))),
                    (None, None) => unreachable!("key came from one of the maps"),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() != b.len() => aligned(path, a, b, out),
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let p = format!("{path}[{i}]");
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) => walk(&p, x, y, out),
                    (Some(x), None) => out.push(format!("{p}: removed (was {})", shown(x))),
                    (None, Some(y)) => out.push(format!("{p}: added {}", shown(y))),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_change_names_its_path() {
        let a = json!({"seats": [{"body_points": 10}, {"body_points": 10}], "round": 1});
        let b = json!({"seats": [{"body_points": 10}, {"body_points": 7}], "round": 2});
        assert_eq!(
            diff(&a, &b),
            vec!["round: 1 -> 2", "seats[1].body_points: 10 -> 7"]
        );
    }

    #[test]
    fn added_and_removed_keys_and_items() {
        let a = json!({"hand": ["Dog"], "old": true});
        let b = json!({"hand": ["Dog", "Trap"], "new": "x"});
        assert_eq!(
            diff(&a, &b),
            vec![
                "hand[1]: added \"Trap\"",
                "new: added \"x\"",
                "old: removed (was true)"
            ]
        );
    }

    #[test]
    fn a_card_taken_from_a_sorted_pool_is_one_change() {
        let a = json!({"pool": ["Dog", "Gold", "Pearl", "Ruby", "Trap"]});
        let b = json!({"pool": ["Dog", "Pearl", "Ruby", "Trap"]});
        assert_eq!(diff(&a, &b), vec!["pool[1]: removed (was \"Gold\")"]);
        let c = json!({"pool": ["Dog", "Gold", "Jade", "Pearl", "Ruby", "Trap"]});
        assert_eq!(diff(&a, &c), vec!["pool[2]: added \"Jade\""]);
    }

    #[test]
    fn differences_give_both_sides_by_path() {
        let a = json!({"seats": [{"bp": 10}, {"bp": 10}], "hand": [1], "gone": 1});
        let b = json!({"seats": [{"bp": 10}, {"bp": 7}], "hand": [1, 2], "new": 2});
        assert_eq!(
            differences(&a, &b),
            vec![
                ("gone".to_string(), Some(json!(1)), None),
                ("hand".to_string(), Some(json!([1])), Some(json!([1, 2]))),
                ("new".to_string(), None, Some(json!(2))),
                ("seats[1].bp".to_string(), Some(json!(10)), Some(json!(7))),
            ]
        );
        assert!(differences(&a, &a).is_empty());
    }

    #[test]
    fn equal_values_have_no_changes() {
        let a = json!({"a": [1, {"b": null}]});
        assert!(diff(&a, &a).is_empty());
    }

    #[test]
    fn type_change_and_root_scalar() {
        assert_eq!(
            diff(&json!({"x": 1}), &json!({"x": [1]})),
            vec!["x: 1 -> [1]"]
        );
        assert_eq!(diff(&json!(1), &json!(2)), vec!["(state): 1 -> 2"]);
    }

    #[test]
    fn long_values_are_shortened() {
        let long = "z".repeat(200);
        let lines = diff(&json!({"t": ""}), &json!({ "t": long }));
        assert!(
            lines[0].ends_with('…') && lines[0].len() < 100,
            "{}",
            lines[0]
        );
    }
}
