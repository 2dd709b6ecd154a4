//! Hand-written golden cases: the contract's worked examples through the whole pipeline.

use llmshim_benches::golden::{self, Case, Outcome};
use serde_json::{Value, json};

use crate::support;

fn report_json(report: &llmshim::schema::Normalization) -> Value {
    let mut r = json!({
        "changed": report.changed,
        "used_fallback": report.used_fallback,
        "strict": report.strict,
        "bypassed": report.bypassed,
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

/// Normalizing an output again must change nothing. (The fallback is not a fixed point: Google and Code Assist
/// remove its empty `properties`, and strict closes it.)
fn assert_fixed_point(case: &Case, options: &llmshim::schema::Options, out: &Value) {
    let normalizer = support::normalizer(&case.env);
    let mut again = out.clone();
    let report = normalizer.normalize_with(options, &mut again);
    assert!(
        !report.changed && again == *out,
        "{}: normalizing the output again changes it: {}",
        case.name,
        serde_json::to_string(&again).unwrap_or_default()
    );
}

fn run(case: &Case) -> Outcome {
    let target = support::target(case);
    let options = support::options(target, case.strict, &case.options);
    let normalizer = support::normalizer(&case.env);
    let mut value = case.input.clone();
    match case.api.as_str() {
        "normalize" => {
            let report = normalizer.normalize_with(&options, &mut value);
            if !report.bypassed && !report.used_fallback {
                assert_fixed_point(case, &options, &value);
            }
            Outcome::new(value).with_report(report_json(&report))
        }
        other => panic!("unknown api {other}"),
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
