//! The speed targets, checked against one `cargo xtask bench` run: for each limit, how many rows meet it and which
//! row is furthest from it, from criterion's means and (where counted) from callgrind's instructions.

use std::fmt::Write as _;

/// One limit on a ratio and the rows it applies to.
pub(crate) struct Target {
    /// What is limited, in words.
    pub(crate) what: String,
    /// The largest ratio that meets the target.
    pub(crate) limit: f64,
    /// Each row's label with its ratio from criterion and from instruction counts, where measured.
    pub(crate) rows: Vec<(String, Option<f64>, Option<f64>)>,
}

/// How one source of ratios fares against `limit`: "met on n of m (worst: row r×)", or "—" when nothing was measured.
fn verdict<'a>(limit: f64, ratios: impl Iterator<Item = (&'a str, Option<f64>)>) -> String {
    let measured: Vec<(&str, f64)> = ratios.filter_map(|(l, r)| r.map(|r| (l, r))).collect();
    let Some((worst, highest)) = measured.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return "—".to_owned();
    };
    let met = measured.iter().filter(|(_, r)| *r <= limit).count();
    format!(
        "met on {met} of {} (highest: {worst} at {highest:.2}×)",
        measured.len()
    )
}

/// The table of targets in Markdown.
pub(crate) fn render(s: &mut String, targets: &[Target]) {
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "The speed targets against this run (a row meets a target when its ratio is at most the limit):"
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "| target | limit | criterion | instructions |");
    let _ = writeln!(s, "|---|---:|---|---|");
    for target in targets {
        let criterion = verdict(
            target.limit,
            target.rows.iter().map(|(l, c, _)| (l.as_str(), *c)),
        );
        let instructions = verdict(
            target.limit,
            target.rows.iter().map(|(l, _, i)| (l.as_str(), *i)),
        );
        let _ = writeln!(
            s,
            "| {} | ≤ {:.1}× | {criterion} | {instructions} |",
            target.what, target.limit
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{Target, render};

    #[test]
    fn each_target_counts_the_rows_that_meet_it_and_names_the_highest() {
        let targets = [Target {
            what: "uncached / clone".to_owned(),
            limit: 3.0,
            rows: vec![
                ("a/plain".to_owned(), Some(2.5), Some(4.0)),
                ("b/plain".to_owned(), Some(3.5), None),
                ("c/plain".to_owned(), None, Some(2.0)),
            ],
        }];
        let mut s = String::new();
        render(&mut s, &targets);
        assert!(
            s.contains(
                "| uncached / clone | ≤ 3.0× | met on 1 of 2 (highest: b/plain at 3.50×) | met on 1 of 2 (highest: a/plain at 4.00×) |"
            ),
            "{s}"
        );
    }

    #[test]
    fn a_target_without_measurements_says_so() {
        let targets = [Target {
            what: "cached / clone".to_owned(),
            limit: 1.2,
            rows: vec![("a/plain".to_owned(), None, None)],
        }];
        let mut s = String::new();
        render(&mut s, &targets);
        assert!(s.contains("| cached / clone | ≤ 1.2× | — | — |"), "{s}");
    }
}
