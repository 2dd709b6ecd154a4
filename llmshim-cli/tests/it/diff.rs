//! The line diff of `explain --diff`: every diff applies back to the new text, it is as short as a longest common
//! subsequence allows, and past the table limit it stays correct.

use llmshim_cli::diff::{Edit, Line, MAX_CELLS, edits, unified};
use proptest::prelude::*;

/// The old and new texts an edit script stands for.
fn sides<'a>(script: &[Edit<'a>]) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut old = Vec::new();
    let mut new = Vec::new();
    for edit in script {
        match *edit {
            Edit::Same(l) => {
                old.push(l);
                new.push(l);
            }
            Edit::Removed(l) => old.push(l),
            Edit::Added(l) => new.push(l),
        }
    }
    (old, new)
}

/// The length of a longest common subsequence, by the plain recurrence.
fn lcs(a: &[&str], b: &[&str]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                row[j + 1].max(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Applies the hunks of `diff` to `old`.
fn apply(old: &[&str], diff: &[Line<'_>]) -> Vec<String> {
    let mut new = Vec::new();
    let mut next = 0usize;
    for line in diff {
        match line {
            Line::File(_) => {}
            Line::Hunk(header) => {
                let start: usize = header[4..]
                    .split([',', ' '])
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                // An empty old side names the line before the hunk.
                let first = if header[4..].split(' ').next().unwrap().ends_with(",0") {
                    start + 1
                } else {
                    start
                };
                while next + 1 < first {
                    new.push(old[next].to_owned());
                    next += 1;
                }
            }
            Line::Same(l) => {
                assert_eq!(old[next], *l);
                new.push((*l).to_owned());
                next += 1;
            }
            Line::Removed(l) => {
                assert_eq!(old[next], *l);
                next += 1;
            }
            Line::Added(l) => new.push((*l).to_owned()),
        }
    }
    new.extend(old[next..].iter().map(|l| (*l).to_owned()));
    new
}

proptest! {
    #[test]
    fn every_diff_applies_and_is_shortest(
        old in proptest::collection::vec(0u8..5, 0..40),
        new in proptest::collection::vec(0u8..5, 0..40),
        context in 0usize..4,
    ) {
        let old: Vec<String> = old.iter().map(|n| format!("line {n}")).collect();
        let new: Vec<String> = new.iter().map(|n| format!("line {n}")).collect();
        let (a, b): (Vec<&str>, Vec<&str>) = (old.iter().map(String::as_str).collect(), new.iter().map(String::as_str).collect());
        let script = edits(&a, &b);
        prop_assert_eq!(sides(&script), (a.clone(), b.clone()));
        let same = script.iter().filter(|e| matches!(e, Edit::Same(_))).count();
        prop_assert_eq!(same, lcs(&a, &b));
        let (old_text, new_text) = (a.join("\n"), b.join("\n"));
        let diff = unified(&old_text, &new_text, "a", "b", context);
        prop_assert_eq!(diff.is_empty(), a == b);
        prop_assert_eq!(apply(&a, &diff), b.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>());
    }
}

#[test]
fn past_the_table_limit_the_middle_is_removed_then_added() {
    // Two texts of different lines whose table would pass the limit, between a shared first and last line.
    let side = MAX_CELLS.isqrt() + 2;
    let old: Vec<String> = (0..side).map(|i| format!("old {i}")).collect();
    let new: Vec<String> = (0..side).map(|i| format!("new {i}")).collect();
    let mut a: Vec<&str> = vec!["{"];
    a.extend(old.iter().map(String::as_str));
    a.push("}");
    let mut b: Vec<&str> = vec!["{"];
    b.extend(new.iter().map(String::as_str));
    b.push("}");
    let script = edits(&a, &b);
    assert_eq!(sides(&script), (a.clone(), b.clone()));
    assert_eq!(script[0], Edit::Same("{"));
    assert_eq!(script[1], Edit::Removed("old 0"));
    assert_eq!(script[side + 1], Edit::Added("new 0"));
    assert_eq!(script.last(), Some(&Edit::Same("}")));
}

#[test]
fn hunks_name_their_lines_as_diff_does() {
    let text = |lines: &[&str]| lines.join("\n");
    let lines = |d: Vec<Line<'_>>| d.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(
        lines(unified(&text(&["a"]), &text(&["a", "b"]), "x", "y", 3)),
        ["--- x", "+++ y", "@@ -1,1 +1,2 @@", " a", "+b"]
    );
    assert_eq!(
        lines(unified("", "b", "x", "y", 3)),
        ["--- x", "+++ y", "@@ -0,0 +1,1 @@", "+b"]
    );
    // Changes more than twice the context apart make two hunks.
    let old: Vec<String> = (0..20).map(|i| i.to_string()).collect();
    let mut new = old.clone();
    new[2] = "two".into();
    new[17] = "seventeen".into();
    let diff = lines(unified(&old.join("\n"), &new.join("\n"), "x", "y", 2));
    let hunks: Vec<&String> = diff.iter().filter(|l| l.starts_with("@@")).collect();
    assert_eq!(hunks, ["@@ -1,5 +1,5 @@", "@@ -16,5 +16,5 @@"]);
}
