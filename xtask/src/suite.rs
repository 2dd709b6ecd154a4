//! `cargo xtask suite`: runs the conformance and corpus tests and prints their counts per draft and per target.
//!
//! Each source is one test module of a crate's `it` binary, run as
//! `cargo test -p <crate> --test it <module>:: -- --nocapture --test-threads=1` with `LLMSHIM_REQUIRE_TESTDATA=1`, so
//! absent test data fails instead of passing quietly. Those tests print their counts on stderr as lines starting with
//! `suite: ` (`suite: draft7: 1045 ran, 1041 passed, 4 expected failures`); this verb collects them into one table,
//! splitting the kit's expected-failure summaries into ran, passed and expected-failure columns. It exits 1 when a
//! run fails or when a row it expects is missing, so a renamed test or a lost summary line does not go unnoticed.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use crate::metadata;

/// The prefix of every summary line the tests print on stderr.
const PREFIX: &str = "suite: ";

/// The longest detail cell before it is cut with an ellipsis: every count line fits, a long list of names does not.
const DETAIL_WIDTH: usize = 200;

/// One test module whose summary lines the table shows.
struct Source {
    /// The package whose `it` test binary holds the module.
    package: &'static str,
    /// The module name; the test filter is `<module>::`.
    module: &'static str,
    /// The row names (the text before the first `: ` of a line) the module must print, each at least once.
    expect: &'static [&'static str],
}

/// The sources, in the order of the table.
const SOURCES: &[Source] = &[
    Source {
        package: "llmshim-validate",
        module: "suite",
        expect: &["draft2020-12", "draft7", "suite instances as schemas"],
    },
    Source {
        package: "llmshim-validate",
        module: "schemastore",
        expect: &["schemastore"],
    },
    Source {
        package: "llmshim-resolve",
        module: "suite",
        expect: &[
            "dereference draft2020-12",
            "dereference draft7",
            "bundle draft2020-12",
            "bundle draft7",
        ],
    },
    Source {
        package: "llmshim-resolve",
        module: "schemastore",
        expect: &["schemastore dereference"],
    },
    Source {
        package: "llmshim-schema",
        module: "strict_corpus",
        expect: &[
            "strict corpus on chat",
            "strict corpus on responses",
            "strict corpus on anthropic",
        ],
    },
    Source {
        package: "llmshim-schema",
        module: "tools_corpus",
        expect: &[
            "tools corpus chat",
            "tools corpus chat+strict",
            "tools corpus responses",
            "tools corpus responses+strict",
            "tools corpus anthropic",
            "tools corpus anthropic+strict",
            "tools corpus google",
            "tools corpus google+strict",
            "tools corpus cca",
            "tools corpus cca+strict",
            "tools corpus mcp",
            "tools corpus mcp+strict",
            "tools corpus",
        ],
    },
    Source {
        package: "llmshim-schema",
        module: "loss",
        expect: &[
            "loss corpus chat",
            "loss corpus chat+strict",
            "loss corpus responses",
            "loss corpus responses+strict",
            "loss corpus anthropic",
            "loss corpus anthropic+strict",
            "loss corpus google",
            "loss corpus google+strict",
            "loss corpus cca",
            "loss corpus cca+strict",
            "loss corpus mcp",
            "loss corpus mcp+strict",
            "loss mutations caught",
        ],
    },
    Source {
        package: "llmshim-schema",
        module: "sdk_google",
        expect: &["vercel google fixtures"],
    },
    Source {
        package: "llmshim-schema",
        module: "strict_fixtures",
        expect: &["strict fixtures"],
    },
    Source {
        package: "llmshim-schema",
        module: "memo",
        expect: &["memo, 8 threads x 10000"],
    },
];

/// One summary line: `suite: <row>: <text>`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    /// What the line counts: a draft, a target, a corpus.
    row: String,
    /// The counts, everything after the row's `: `.
    text: String,
}

/// The counts of an expected-failure summary, `<ran> ran, <passed> passed, <xfail> expected failures<rest>`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Counts {
    ran: usize,
    passed: usize,
    xfail: usize,
    /// What follows the counts, such as `; 14 schemas (26 instances) need external documents`.
    rest: String,
}

/// Runs every source, prints the table and returns 0, or 1 when a run failed or an expected row is missing.
pub(crate) fn run(root: &Path) -> Result<u8, String> {
    let mut rows: Vec<(String, Line)> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for source in SOURCES {
        let label = format!("{}::{}", source.package, source.module);
        let args = test_args(source);
        println!("suite: LLMSHIM_REQUIRE_TESTDATA=1 cargo {}", args.join(" "));
        let output = test_command(root, &args)
            .output()
            .map_err(|e| format!("cannot run cargo {}: {e}", args.join(" ")))?;
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            eprintln!(
                "suite: {label} failed ({}); its output follows\n{}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stdout).trim_end(),
                stderr.trim_end()
            );
            problems.push(format!("{label}: the test run failed ({})", output.status));
        }
        let lines = summary_lines(&stderr);
        problems.extend(missing(source, &lines).into_iter().map(|row| {
            format!(
                "{label}: no summary line for `{row}` (expected `{PREFIX}{row}: ...` on stderr)"
            )
        }));
        rows.extend(lines.into_iter().map(|line| (label.clone(), line)));
    }
    println!();
    print!("{}", render(&rows));
    if problems.is_empty() {
        println!("suite: {} rows from {} sources", rows.len(), SOURCES.len());
        Ok(0)
    } else {
        for problem in &problems {
            eprintln!("suite: {problem}");
        }
        Ok(1)
    }
}

/// The arguments after `cargo` that run one source with its output shown, one test at a time.
fn test_args(source: &Source) -> Vec<String> {
    let filter = format!("{}::", source.module);
    [
        "test",
        "-p",
        source.package,
        "--test",
        "it",
        filter.as_str(),
        "--",
        "--nocapture",
        "--test-threads=1",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// The cargo command for one source, in `root`, with test data required.
fn test_command(root: &Path, args: &[String]) -> Command {
    let mut command = metadata::cargo();
    command
        .args(args)
        .env("LLMSHIM_REQUIRE_TESTDATA", "1")
        .current_dir(root);
    command
}

/// The summary lines in captured stderr, in order; every other line (cargo's, a test's notes) is skipped.
fn summary_lines(stderr: &str) -> Vec<Line> {
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix(PREFIX))
        .map(|rest| {
            let rest = rest.trim_end();
            match rest.split_once(": ") {
                Some((row, text)) => Line {
                    row: row.to_owned(),
                    text: text.to_owned(),
                },
                None => Line {
                    row: rest.to_owned(),
                    text: String::new(),
                },
            }
        })
        .collect()
}

/// The expected rows of `source` that no line names, in the source's order.
fn missing(source: &Source, lines: &[Line]) -> Vec<&'static str> {
    source
        .expect
        .iter()
        .copied()
        .filter(|row| !lines.iter().any(|line| line.row == *row))
        .collect()
}

/// Reads an expected-failure summary, as the test kit's `xfail::Summary` prints it.
fn counts(text: &str) -> Option<Counts> {
    let (ran, text) = text.split_once(" ran, ")?;
    let (passed, text) = text.split_once(" passed, ")?;
    let (xfail, rest) = text.split_once(" expected failures")?;
    Some(Counts {
        ran: ran.trim().parse().ok()?,
        passed: passed.trim().parse().ok()?,
        xfail: xfail.trim().parse().ok()?,
        rest: rest.trim_start_matches([';', ',', ' ']).to_owned(),
    })
}

/// A detail cell, cut to `DETAIL_WIDTH` characters.
fn detail(text: &str) -> String {
    if text.chars().count() <= DETAIL_WIDTH {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(DETAIL_WIDTH - 1).collect();
        cut.push('…');
        cut
    }
}

/// The table: source, row, ran, passed and expected failures (`-` where the line is not an expected-failure
/// summary), and the remaining text.
fn render(rows: &[(String, Line)]) -> String {
    let header = ["source", "row", "ran", "passed", "xfail", "details"];
    let mut cells: Vec<[String; 6]> = vec![header.map(str::to_owned)];
    for (source, line) in rows {
        let (ran, passed, xfail, rest) = match counts(&line.text) {
            Some(c) => (
                c.ran.to_string(),
                c.passed.to_string(),
                c.xfail.to_string(),
                c.rest,
            ),
            None => ("-".into(), "-".into(), "-".into(), line.text.clone()),
        };
        cells.push([
            source.clone(),
            line.row.clone(),
            ran,
            passed,
            xfail,
            detail(&rest),
        ]);
    }
    let mut widths = [0usize; 6];
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &cells {
        let mut line = String::new();
        for (at, (cell, width)) in row.iter().zip(widths).enumerate() {
            let pad = width - cell.chars().count();
            // Counts are right-aligned; the text columns are left-aligned.
            if (2..5).contains(&at) {
                let _ = write!(line, "{}{cell}  ", " ".repeat(pad));
            } else {
                let _ = write!(line, "{cell}{}  ", " ".repeat(pad));
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::suite::{
        Counts, Line, SOURCES, Source, counts, detail, missing, render, summary_lines, test_args,
    };

    /// Captured stderr of a run: cargo's progress, a test's notes and three summary lines.
    const STDERR: &str = "\
   Compiling llmshim-validate v0.1.0 (/ws/llmshim-validate)
    Finished `test` profile [optimized + debuginfo] target(s) in 9.81s
     Running tests/it/main.rs (target/debug/deps/it-0123)
draft7/ref.json/remote ref: does not compile: external schema retrieval is disabled
suite: draft2020-12: 1461 ran, 1457 passed, 4 expected failures
suite: schemastore: 832 ran, 806 passed, 26 expected failures; 14 schemas (26 instances) need external documents
suite: tools corpus cca+strict: 63 servers, 725 tools, 32 fallbacks
suite: bare
not a suite: line
";

    fn line(row: &str, text: &str) -> Line {
        Line {
            row: row.to_owned(),
            text: text.to_owned(),
        }
    }

    #[test]
    fn summary_lines_are_the_prefixed_ones_split_at_the_first_colon() {
        assert_eq!(
            summary_lines(STDERR),
            [
                line("draft2020-12", "1461 ran, 1457 passed, 4 expected failures"),
                line(
                    "schemastore",
                    "832 ran, 806 passed, 26 expected failures; 14 schemas (26 instances) need external documents"
                ),
                line(
                    "tools corpus cca+strict",
                    "63 servers, 725 tools, 32 fallbacks"
                ),
                line("bare", ""),
            ]
        );
        assert!(summary_lines("no summaries here\n").is_empty());
    }

    #[test]
    fn expected_failure_summaries_split_into_counts() {
        assert_eq!(
            counts("1461 ran, 1457 passed, 4 expected failures"),
            Some(Counts {
                ran: 1461,
                passed: 1457,
                xfail: 4,
                rest: String::new()
            })
        );
        assert_eq!(
            counts("832 ran, 806 passed, 26 expected failures; 14 schemas need external documents"),
            Some(Counts {
                ran: 832,
                passed: 806,
                xfail: 26,
                rest: "14 schemas need external documents".to_owned()
            })
        );
        assert_eq!(counts("63 servers, 725 tools, 32 fallbacks"), None);
        assert_eq!(counts("many ran, 1 passed, 0 expected failures"), None);
    }

    #[test]
    fn a_missing_row_is_reported_by_name() {
        let source = Source {
            package: "p",
            module: "m",
            expect: &["draft2020-12", "draft7"],
        };
        let lines = summary_lines(STDERR);
        assert_eq!(missing(&source, &lines), ["draft7"]);
        assert_eq!(missing(&source, &[]), ["draft2020-12", "draft7"]);
    }

    #[test]
    fn every_source_runs_its_module_with_output_shown() {
        assert!(SOURCES.iter().all(|s| !s.expect.is_empty()));
        let memo = SOURCES
            .iter()
            .find(|s| s.module == "memo")
            .expect("the memo source");
        assert_eq!(
            test_args(memo),
            [
                "test",
                "-p",
                "llmshim-schema",
                "--test",
                "it",
                "memo::",
                "--",
                "--nocapture",
                "--test-threads=1"
            ]
        );
    }

    #[test]
    fn the_table_aligns_counts_and_cuts_long_details() {
        let rows: Vec<(String, Line)> = summary_lines(STDERR)
            .into_iter()
            .map(|line| ("llmshim-validate::suite".to_owned(), line))
            .collect();
        let table = render(&rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(
            lines[0],
            "source                   row                       ran  passed  xfail  details"
        );
        assert_eq!(
            lines[1],
            "llmshim-validate::suite  draft2020-12             1461    1457      4"
        );
        assert_eq!(
            lines[2],
            "llmshim-validate::suite  schemastore               832     806     26  14 schemas (26 instances) need external documents"
        );
        assert_eq!(
            lines[3],
            "llmshim-validate::suite  tools corpus cca+strict     -       -      -  63 servers, 725 tools, 32 fallbacks"
        );
        assert!(table.lines().all(|l| l.trim_end() == l));
        let long = "x".repeat(500);
        let cut = detail(&long);
        assert_eq!(cut.chars().count(), 200);
        assert!(cut.ends_with('…'));
        assert_eq!(detail("short"), "short");
    }
}
