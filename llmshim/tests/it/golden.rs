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
    r
}

fn run(case: &Case) -> Outcome {
    let target = support::target(case);
    let options = support::options(target, case.strict, &case.options);
    let normalizer = support::normalizer(&case.env);
    let mut value = case.input.clone();
    match case.api.as_str() {
        "normalize" => {
            let report = normalizer.normalize_with(&options, &mut value);
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
