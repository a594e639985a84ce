//! Friendly text output: times, actors, tables and the branch tree.
//!
//! Pure formatting over the journal's answer types, so the shapes can be tested
//! without a store. Nothing here decides anything about a game.

use tabletape_engine::Viewer;
use tabletape_events::Actor;

/// A branch as the tree needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchNode {
    pub name: String,
    pub parent: Option<String>,
    pub fork_seq: Option<u64>,
    pub head_seq: u64,
    /// Whether the branch opens with a reseed (its dice are its own).
    pub reseeded: bool,
    /// The reseed's seed, when the reader may see it.
    pub reseed: Option<u64>,
    pub created_at_ms: u64,
    /// Whether play left the branch by taking back its last event.
    pub taken_back: bool,
    /// Its name at the table and what it is about.
    pub title: Option<String>,
    pub description: Option<String>,
    /// Its notes and bookmarks, one line each.
    pub notes: Vec<String>,
}

pub use tabletape_api::plays::utc;

/// `owner`, or the seat's player with its number: `Nowa (seat 0)`.
pub fn actor(actor: &Actor, players: &[String]) -> String {
    match actor {
        Actor::Owner => "owner".to_string(),
        Actor::Seat(s) => match players.get(*s as usize) {
            Some(name) => format!("{name} (seat {s})"),
            None => format!("seat {s}"),
        },
    }
}

/// Who a read was for: `the owner`, `the public`, or `Nowa (seat 0)`.
pub fn viewer(viewer: Viewer, players: &[String]) -> String {
    match viewer {
        Viewer::Owner => "the owner".to_string(),
        Viewer::Public => "the public".to_string(),
        Viewer::Seat(s) => actor(&Actor::Seat(s), players),
    }
}

/// Left-aligned columns separated by two spaces, header first.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut out = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                out.push_str(cell);
            } else {
                out.push_str(&format!("{cell:<w$}  ", w = widths[i]));
            }
        }
        out.trim_end().to_string() + "\n"
    };
    let mut out = line(header.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

/// Draws the branch tree: `main` at the root, each fork under its parent,
/// ordered by fork seq then creation, with box-drawing characters.
pub fn branch_tree(branches: &[BranchNode]) -> String {
    let mut out = String::new();
    let mut roots: Vec<&BranchNode> = branches
        .iter()
        .filter(|b| {
            b.parent
                .as_ref()
                .is_none_or(|p| !branches.iter().any(|o| &o.name == p))
        })
        .collect();
    roots.sort_by_key(|b| (b.name != "main", b.created_at_ms));
    for root in roots {
        out.push_str(&label(root));
        out.push('\n');
        about(branches, root, "", &mut out);
        children(branches, &root.name, "", &mut out);
    }
    out
}

/// A branch's description and notes, under its label and above its forks.
fn about(branches: &[BranchNode], b: &BranchNode, prefix: &str, out: &mut String) {
    let bar = if branches
        .iter()
        .any(|o| o.parent.as_deref() == Some(&b.name))
    {
        "│"
    } else {
        " "
    };
    for line in b.description.iter().chain(&b.notes) {
        out.push_str(&format!("{prefix}{bar}  {line}\n"));
    }
}

fn label(b: &BranchNode) -> String {
    let mut text = b.name.clone();
    if let Some(title) = &b.title {
        text.push_str(&format!(" \"{title}\""));
    }
    if let Some(at) = b.fork_seq {
        text.push_str(&format!("  forked at seq {at}"));
    }
    text.push_str(&format!("  (head seq {})", b.head_seq));
    match b.reseed {
        Some(seed) => text.push_str(&format!("  reseeded {seed}")),
        None if b.reseeded => text.push_str("  reseeded (seed sealed)"),
        None => {}
    }
    if b.taken_back {
        text.push_str("  (taken back)");
    }
    text
}

fn children(branches: &[BranchNode], parent: &str, prefix: &str, out: &mut String) {
    let mut kids: Vec<&BranchNode> = branches
        .iter()
        .filter(|b| b.parent.as_deref() == Some(parent))
        .collect();
    kids.sort_by_key(|b| (b.fork_seq, b.created_at_ms));
    for (i, kid) in kids.iter().enumerate() {
        let last = i + 1 == kids.len();
        out.push_str(prefix);
        out.push_str(if last { "└─ " } else { "├─ " });
        out.push_str(&label(kid));
        out.push('\n');
        let deeper = format!("{prefix}{}", if last { "   " } else { "│  " });
        about(branches, kid, &deeper, out);
        children(branches, &kid.name, &deeper, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(
        name: &str,
        parent: Option<&str>,
        fork_seq: Option<u64>,
        head_seq: u64,
        created: u64,
    ) -> BranchNode {
        BranchNode {
            name: name.into(),
            parent: parent.map(Into::into),
            fork_seq,
            head_seq,
            reseeded: false,
            reseed: None,
            created_at_ms: created,
            taken_back: false,
            title: None,
            description: None,
            notes: Vec::new(),
        }
    }

    #[test]
    fn actors_by_name() {
        let players = vec!["Nowa".to_string(), "Grimbold".to_string()];
        assert_eq!(actor(&Actor::Owner, &players), "owner");
        assert_eq!(actor(&Actor::Seat(1), &players), "Grimbold (seat 1)");
        assert_eq!(actor(&Actor::Seat(5), &players), "seat 5");
        assert_eq!(viewer(Viewer::Seat(0), &players), "Nowa (seat 0)");
        assert_eq!(viewer(Viewer::Public, &players), "the public");
    }

    #[test]
    fn tables_align() {
        let t = table(
            &["GAME", "SEQ"],
            &[
                vec!["g-1".into(), "12".into()],
                vec!["g-long".into(), "3".into()],
            ],
        );
        assert_eq!(t, "GAME    SEQ\ng-1     12\ng-long  3\n");
    }

    #[test]
    fn tree_nests_forks_under_parents_in_fork_order() {
        let mut reseeded = node("what-if", Some("fork-1"), Some(11), 15, 4);
        reseeded.reseeded = true;
        reseeded.reseed = Some(7);
        let mut sealed = node("fork-2", Some("main"), Some(30), 30, 3);
        sealed.reseeded = true;
        let branches = vec![
            sealed,
            reseeded,
            node("main", None, None, 42, 1),
            node("fork-1", Some("main"), Some(10), 12, 2),
        ];
        let expected = "\
main  (head seq 42)
├─ fork-1  forked at seq 10  (head seq 12)
│  └─ what-if  forked at seq 11  (head seq 15)  reseeded 7
└─ fork-2  forked at seq 30  (head seq 30)  reseeded (seed sealed)
";
        assert_eq!(branch_tree(&branches), expected);
    }

    #[test]
    fn titles_descriptions_and_notes_hang_under_their_branch() {
        let mut main = node("main", None, None, 20, 1);
        main.notes = vec!["Bookmark by Ada on seq 12, \"the turning point\".".into()];
        let mut fork = node("fork-1", Some("main"), Some(7), 9, 2);
        fork.title = Some("Nowa jumps back".into());
        fork.description = Some("What if she had?".into());
        fork.notes = vec!["Note by the owner on seq 8: better.".into()];
        let expected = "\
main  (head seq 20)
│  Bookmark by Ada on seq 12, \"the turning point\".
└─ fork-1 \"Nowa jumps back\"  forked at seq 7  (head seq 9)
      What if she had?
      Note by the owner on seq 8: better.
";
        assert_eq!(branch_tree(&[main, fork]), expected);
    }
}
