//! Instruction counts of the corpus bench rows under callgrind, for `cargo xtask bench`: where a wall-clock ratio
//! drowns in the noise of a shared machine, the count of executed instructions does not.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::metadata;

/// The instructions of one pass of a row: `clone`, `<target>/<mode>/<cached|uncached>`, `roundtrip/<n>` or
/// `transform/<n>/<cached|uncached>`.
pub(crate) struct Count {
    pub(crate) row: String,
    pub(crate) instructions: u64,
}

/// Counts one pass of `baseline/clone_schemas`, of every corpus row of `targets`, and of the transform of
/// [`TRANSFORM_TOOLS`] tools (uncached and cached, the request clone included as in the bench) with its baseline
/// `baseline/serde_roundtrip` with callgrind, running the `instructions` example of `llmshim-benches`. `None` (and a
/// line on stderr) when valgrind is not installed or the example cannot be built; a row whose run fails is left out.
pub(crate) fn count(root: &Path, targets: &[String]) -> Option<Vec<Count>> {
    let valgrind = Command::new("valgrind").arg("--version").output();
    if !valgrind.is_ok_and(|o| o.status.success()) {
        eprintln!("bench: valgrind is not installed, so the README gets no instruction counts");
        return None;
    }
    let built = metadata::cargo()
        .current_dir(root)
        .args([
            "build",
            "--release",
            "-p",
            "llmshim-benches",
            "--example",
            "instructions",
        ])
        .status();
    if !built.is_ok_and(|s| s.success()) {
        eprintln!(
            "bench: the instructions example did not build, so the README gets no instruction counts"
        );
        return None;
    }
    let exe = root.join("target/release/examples/instructions");
    let out_dir = root.join("target/criterion/callgrind");
    let _ = fs::create_dir_all(&out_dir);
    let mut rows: Vec<Vec<String>> = vec![vec!["clone".to_owned()]];
    for target in targets {
        for mode in ["plain", "strict"] {
            for cache in ["uncached", "cached"] {
                rows.push(vec![target.clone(), mode.to_owned(), cache.to_owned()]);
            }
        }
    }
    let tools = TRANSFORM_TOOLS.to_string();
    rows.push(vec!["roundtrip".to_owned(), tools.clone()]);
    for cache in ["uncached", "cached"] {
        rows.push(vec![
            "transform".to_owned(),
            tools.clone(),
            cache.to_owned(),
        ]);
    }
    let mut counts = Vec::new();
    for args in rows {
        let row = args.join("/");
        let file = out_dir.join(format!("{}.out", args.join("-")));
        let status = Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg("--toggle-collect=*measured_pass*")
            .arg(format!("--callgrind-out-file={}", file.display()))
            .arg(&exe)
            .args(&args)
            .output();
        let total = status
            .ok()
            .filter(|o| o.status.success())
            .and_then(|_| fs::read_to_string(&file).ok())
            .and_then(|text| total(&text));
        match total {
            Some(instructions) => {
                eprintln!("bench: {row}: {instructions} instructions");
                counts.push(Count { row, instructions });
            }
            None => eprintln!("bench: callgrind gave no count for {row}"),
        }
    }
    Some(counts)
}

/// The tool count of the transform rows counted: the one the speed targets name.
const TRANSFORM_TOOLS: usize = 50;

/// The total instruction count of a callgrind output file (its `totals:` or `summary:` line).
fn total(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// `n` as a float for a ratio: instruction counts stay far below 2^52, so nothing is lost.
#[allow(
    clippy::cast_precision_loss,
    reason = "instruction counts stay far below 2^52"
)]
fn float(n: u64) -> f64 {
    n as f64
}

/// `a / b` as a float, when both were counted and `b` is not zero.
pub(crate) fn ratio(a: Option<u64>, b: Option<u64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0 => Some(float(a) / float(b)),
        _ => None,
    }
}

/// `n` instructions in millions with `decimals` decimals, or a dash when it was not counted.
fn millions(n: Option<u64>, decimals: usize) -> String {
    n.map_or_else(
        || "—".to_owned(),
        |n| format!("{:.decimals$}", float(n) / 1_000_000.0),
    )
}

/// The instruction table in Markdown: millions of instructions per pass for each corpus row, uncached and cached,
/// and each as a ratio to the clone of every schema.
pub(crate) fn render(s: &mut String, counts: &[Count], targets: &[String]) {
    let find = |row: &str| counts.iter().find(|c| c.row == row).map(|c| c.instructions);
    let clone = find("clone");
    let tenths = |n: Option<u64>| millions(n, 1);
    let ratio = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) if b > 0 => format!("{:.2}", float(a) / float(b)),
        _ => "—".to_owned(),
    };
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "The same corpus rows in instructions (callgrind, one pass each of `benches/examples/instructions.rs`, \
         millions of instructions; the clone of every schema takes {} million), which the other processes on the \
         machine do not change:",
        tenths(clone)
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| target | mode | uncached | cached | uncached / clone | cached / clone |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|");
    for target in targets {
        for mode in ["plain", "strict"] {
            let unc = find(&format!("{target}/{mode}/uncached"));
            let cac = find(&format!("{target}/{mode}/cached"));
            let _ = writeln!(
                s,
                "| {target} | {mode} | {} | {} | {} | {} |",
                tenths(unc),
                tenths(cac),
                ratio(unc, clone),
                ratio(cac, clone)
            );
        }
    }
    let roundtrip = find(&format!("roundtrip/{TRANSFORM_TOOLS}"));
    if roundtrip.is_some() {
        // A request of 50 tools is about a million instructions, so one decimal would turn a difference of
        // thousands between the two rows into one of a tenth of a million; three keep the thousands.
        let thousandths = |n: Option<u64>| millions(n, 3);
        let transform = |cache: &str| find(&format!("transform/{TRANSFORM_TOOLS}/{cache}"));
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "The transform of {TRANSFORM_TOOLS} tools in instructions (one request each, its clone included as in \
             the bench): `serde_roundtrip/{TRANSFORM_TOOLS}` {} million; uncached {} million ({}× the round trip), \
             cached {} million ({}×).",
            thousandths(roundtrip),
            thousandths(transform("uncached")),
            ratio(transform("uncached"), roundtrip),
            thousandths(transform("cached")),
            ratio(transform("cached"), roundtrip),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{Count, render, total};

    #[test]
    fn the_total_is_read_from_the_callgrind_file() {
        let text = "events: Ir\nsummary: 12345\n\nfn=main\n1 2\ntotals: 12345\n";
        assert_eq!(total(text), Some(12_345));
        assert_eq!(total("events: Ir\nfn=x\n"), None);
    }

    #[test]
    fn rows_are_millions_and_ratios_to_the_clone() {
        let counts = [
            Count {
                row: "clone".to_owned(),
                instructions: 2_000_000,
            },
            Count {
                row: "acme/plain/uncached".to_owned(),
                instructions: 7_000_000,
            },
            Count {
                row: "acme/plain/cached".to_owned(),
                instructions: 1_000_000,
            },
        ];
        let mut s = String::new();
        render(&mut s, &counts, &["acme".to_owned()]);
        assert!(s.contains("takes 2.0 million"), "{s}");
        assert!(
            s.contains("| acme | plain | 7.0 | 1.0 | 3.50 | 0.50 |"),
            "{s}"
        );
        assert!(s.contains("| acme | strict | — | — | — | — |"), "{s}");
        assert!(!s.contains("The transform of"), "{s}");
    }

    #[test]
    fn the_transform_line_gives_its_rows_against_the_round_trip() {
        let counts = [
            Count {
                row: "roundtrip/50".to_owned(),
                instructions: 1_548_213,
            },
            Count {
                row: "transform/50/uncached".to_owned(),
                instructions: 946_591,
            },
            Count {
                row: "transform/50/cached".to_owned(),
                instructions: 957_253,
            },
        ];
        let mut s = String::new();
        render(&mut s, &counts, &[]);
        assert!(
            s.contains(
                "`serde_roundtrip/50` 1.548 million; uncached 0.947 million (0.61× the round trip), cached \
                 0.957 million (0.62×)."
            ),
            "{s}"
        );
    }
}
