//! Golden cases through the whole pipeline, read from data files by one runner.
//!
//! `tests/golden/*.json` holds hand-written worked examples that no bless mode rewrites. `tests/cases/matrix.json`
//! holds the cross-target matrix: one row per JSON Schema construct (usually a property of an object root, so that
//! root rules do not interfere; the root itself only for root rows), one case per built-in target, normalized with
//! diagnostics on, under the conservative keyword profile (the first keyword sets; what the current profile keeps
//! beyond them has golden cases per target and profile in `tests/golden/keywords.json`), through a normalizer with
//! fixed, empty environment flags and no memo. Each case states the output
//! bytes (key order included) and the report: the flags, the reason's kind and pointer for a fallback, and every
//! change as pointer, rule and kind. A kept schema comes back byte for byte with no change recorded; a fallback is
//! exactly `{"type":"object","properties":{}}` with no change recorded. A case's `comment` says why, citing the
//! provider facts and rules of `RULES.md`. The matrix is blessable: `cargo xtask bless` (`UPDATE_EXPECT=1`)
//! rewrites a case whose outcome changed, and the diff is reviewed in the commit.
//!
//! Every case's output that is not the fallback must also pass the target's structural check and normalize to
//! itself again.

use llmshim::schema::check_with;
use llmshim_benches::golden::{self, Case, Outcome};
use serde_json::{Value, json};

use crate::support;

fn report_json(report: &llmshim::schema::Normalization) -> Value {
    let mut r = json!({
        "changed": report.changed,
        "used_fallback": report.used_fallback,
        "strict": report.strict,
        "bypassed": report.bypassed,
        "narrowed": report.narrowed,
    });
    // Messages are human text and not stable, so cases name kind and pointer only.
    r["fallback_reason"] = match &report.fallback_reason {
        Some(reason) => json!({"kind": reason.kind.as_str(), "pointer": reason.pointer}),
        None => Value::Null,
    };
    // Recorded only with the `diagnostics` option; a case lists them when it wants them compared.
    r["changes"] = report
        .changes
        .iter()
        .map(|c| json!({"pointer": c.pointer, "rule": c.rule, "kind": c.kind.as_str()}))
        .collect();
    r
}

/// Normalizing an output again, in the mode it was produced in, must change nothing. (The fallback is not a fixed
/// point: Google and Code Assist remove its empty `properties`, and strict closes it. A demoted output is a
/// non-strict schema: under strict again it may narrow where the first pass could not, so it is held to the
/// non-strict pass.)
fn assert_fixed_point(case: &Case, options: &llmshim::schema::Options, strict: bool, out: &Value) {
    let normalizer = support::normalizer(&case.env);
    let mut again = out.clone();
    let options = options.clone().with_strict(options.strict && strict);
    let report = normalizer.normalize_with(&options, &mut again);
    assert!(
        !report.changed && again == *out,
        "{}: normalizing the output again changes it: {}",
        case.name,
        serde_json::to_string(&again).unwrap_or_default()
    );
}

/// A result that is not the fallback passes the target's structural check in the mode the report gives.
fn assert_accepted(case: &Case, options: &llmshim::schema::Options, strict: bool, out: &Value) {
    let violations = check_with(&options.clone().with_strict(strict), out);
    assert!(
        violations.is_empty(),
        "{}: the output fails the structural check: {violations:?}",
        case.name
    );
}

/// The one runner of every golden case: the case's options, environment and input through `normalize_with`.
fn run(case: &Case) -> Outcome {
    let target = support::target(case);
    let options = support::options(target, case.strict, &case.options);
    let normalizer = support::normalizer(&case.env);
    let mut value = case.input.clone();
    match case.api.as_str() {
        "normalize" => {
            let report = normalizer.normalize_with(&options, &mut value);
            if !report.bypassed && !report.used_fallback {
                assert_accepted(case, &options, report.strict, &value);
                assert_fixed_point(case, &options, report.strict, &value);
            }
            Outcome::new(value).with_report(report_json(&report))
        }
        other => panic!("unknown api {other}"),
    }
}

#[test]
fn provider_matrix() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    match golden::check_or_bless(&dir, run) {
        // 65 rows (64 constructs and the recursive reference under the `fallback` recursion mode), one case per
        // built-in target each.
        Ok(n) => assert!(n >= 455, "expected at least 455 matrix cases, found {n}"),
        Err(report) => panic!("{report}"),
    }
}

#[test]
fn worked_examples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    match golden::check(&dir, run) {
        Ok(n) => assert!(n >= 20, "expected at least 20 golden cases, found {n}"),
        Err(report) => panic!("{report}"),
    }
}
