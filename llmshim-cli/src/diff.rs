//! A unified line diff, from a longest common subsequence of lines, for `explain --diff`.
//!
//! The lines both texts share at the start and at the end are matched first; the rest is matched by the textbook
//! dynamic program over a table of `rows × columns` cells, as long as that table stays within [`MAX_CELLS`]. Past
//! that (two texts of thousands of different lines each) the middle is shown as removed and then added: still a
//! correct diff, only not the shortest.
//!
//! ```
//! use llmshim_cli::diff::unified;
//!
//! let old = "{\n  \"a\": 1,\n  \"b\": 2\n}";
//! let new = "{\n  \"a\": 1,\n  \"b\": 3\n}";
//! let text: Vec<String> = unified(old, new, "input", "output", 1).iter().map(ToString::to_string).collect();
//! assert_eq!(text, ["--- input", "+++ output", "@@ -2,3 +2,3 @@", "   \"a\": 1,", "-  \"b\": 2", "+  \"b\": 3", " }"]);
//! assert!(unified("same", "same", "input", "output", 3).is_empty());
//! ```

use std::fmt;

/// The largest table the dynamic program fills (16 MiB of `u32` cells).
pub const MAX_CELLS: usize = 4 << 20;

/// One line of an edit script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit<'a> {
    /// In both texts.
    Same(&'a str),
    /// Only in the old text.
    Removed(&'a str),
    /// Only in the new text.
    Added(&'a str),
}

/// An edit script from `old` to `new`: every line of both, in order, each marked same, removed or added.
///
/// ```
/// use llmshim_cli::diff::{edits, Edit};
///
/// assert_eq!(
///     edits(&["a", "b", "c"], &["a", "c", "d"]),
///     [Edit::Same("a"), Edit::Removed("b"), Edit::Same("c"), Edit::Added("d")]
/// );
/// ```
pub fn edits<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Edit<'a>> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut script: Vec<Edit<'a>> = old[..prefix].iter().map(|l| Edit::Same(l)).collect();
    middle(a, b, &mut script);
    script.extend(old[old.len() - suffix..].iter().map(|l| Edit::Same(l)));
    script
}

/// Appends the edit script of `a` to `b`, which share no first and no last line.
fn middle<'a>(a: &[&'a str], b: &[&'a str], script: &mut Vec<Edit<'a>>) {
    let columns = b.len() + 1;
    let cells = (a.len() + 1)
        .checked_mul(columns)
        .filter(|&c| c <= MAX_CELLS);
    let Some(cells) = cells.filter(|_| !a.is_empty() && !b.is_empty()) else {
        script.extend(a.iter().map(|l| Edit::Removed(l)));
        script.extend(b.iter().map(|l| Edit::Added(l)));
        return;
    };
    // `table[i * columns + j]` is the length of a longest common subsequence of `a[i..]` and `b[j..]`.
    let mut table = vec![0u32; cells];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i * columns + j] = if a[i] == b[j] {
                table[(i + 1) * columns + j + 1] + 1
            } else {
                table[(i + 1) * columns + j].max(table[i * columns + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            script.push(Edit::Same(a[i]));
            i += 1;
            j += 1;
        } else if table[(i + 1) * columns + j] >= table[i * columns + j + 1] {
            script.push(Edit::Removed(a[i]));
            i += 1;
        } else {
            script.push(Edit::Added(b[j]));
            j += 1;
        }
    }
    script.extend(a[i..].iter().map(|l| Edit::Removed(l)));
    script.extend(b[j..].iter().map(|l| Edit::Added(l)));
}

/// One line of a unified diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// `--- <name>` or `+++ <name>`.
    File(String),
    /// `@@ -<start>,<count> +<start>,<count> @@`.
    Hunk(String),
    /// ` <line>`: context.
    Same(&'a str),
    /// `-<line>`.
    Removed(&'a str),
    /// `+<line>`.
    Added(&'a str),
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::File(text) | Line::Hunk(text) => f.write_str(text),
            Line::Same(line) => write!(f, " {line}"),
            Line::Removed(line) => write!(f, "-{line}"),
            Line::Added(line) => write!(f, "+{line}"),
        }
    }
}

/// The unified diff from `old` to `new` (split into lines), with `context` lines around each change and the file
/// names `old_name` and `new_name`; empty when the texts have the same lines.
pub fn unified<'a>(
    old: &'a str,
    new: &'a str,
    old_name: &str,
    new_name: &str,
    context: usize,
) -> Vec<Line<'a>> {
    let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let script = edits(&old, &new);
    let changed: Vec<usize> = script
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e, Edit::Same(_)))
        .map(|(at, _)| at)
        .collect();
    let Some(&first) = changed.first() else {
        return Vec::new();
    };
    let mut lines = vec![
        Line::File(format!("--- {old_name}")),
        Line::File(format!("+++ {new_name}")),
    ];
    // Group the changes into hunks: a gap of more than twice the context between two changes starts a new hunk.
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let (mut start, mut end) = (first, first);
    for &at in &changed[1..] {
        if at - end > 2 * context {
            groups.push((start, end));
            start = at;
        }
        end = at;
    }
    groups.push((start, end));
    // Line numbers (1-based) of the old and new text at each position of the script.
    let mut numbers = Vec::with_capacity(script.len() + 1);
    let (mut o, mut n) = (1usize, 1usize);
    for edit in &script {
        numbers.push((o, n));
        match edit {
            Edit::Same(_) => (o, n) = (o + 1, n + 1),
            Edit::Removed(_) => o += 1,
            Edit::Added(_) => n += 1,
        }
    }
    numbers.push((o, n));
    for (start, end) in groups {
        let from = start.saturating_sub(context);
        let to = (end + context + 1).min(script.len());
        let (old_from, new_from) = numbers[from];
        let (old_to, new_to) = numbers[to];
        let (old_count, new_count) = (old_to - old_from, new_to - new_from);
        // An empty side names the line before it, as diff(1) does.
        let old_start = if old_count == 0 {
            old_from - 1
        } else {
            old_from
        };
        let new_start = if new_count == 0 {
            new_from - 1
        } else {
            new_from
        };
        lines.push(Line::Hunk(format!(
            "@@ -{old_start},{old_count} +{new_start},{new_count} @@"
        )));
        lines.extend(script[from..to].iter().map(|edit| match *edit {
            Edit::Same(line) => Line::Same(line),
            Edit::Removed(line) => Line::Removed(line),
            Edit::Added(line) => Line::Added(line),
        }));
    }
    lines
}
