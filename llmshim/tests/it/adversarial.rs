//! Hostile schemas and instances end in a fallback or a typed error within the budgets, never a crash or a hang.
//!
//! The inputs come from `benches/examples/adversarial/inputs.rs`, which `cargo xtask reliability` also measures
//! for RELIABILITY.md, so the table and these tests describe the same inputs.
//! Every case runs on a thread with a 2 MiB stack and a deadline, so a hang fails its test instead of stalling the
//! run. A stack overflow aborts the whole process and cannot be caught, so the deep cases run in a child copy of
//! this test binary (see [`deep_case_child`]).

#[path = "../../../benches/examples/adversarial/inputs.rs"]
mod inputs;

use std::process::{Command, Stdio};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use llmshim::cache::{Limits, Memo};
use llmshim::resolve::{self, ErrorKind, Resources};
use llmshim::schema::{
    Budget, Env, EnvFlags, FallbackKind, Normalization, Normalizer, Options, Target, check_with,
    validate,
};
use serde_json::{Value, json};

use inputs::Nest;

/// The stack of every case's thread, as small as a gateway's worker thread may have.
const STACK: usize = 2 << 20;

/// How long one case may take in a debug build on a loaded two-core machine before it counts as a hang.
const DEADLINE: Duration = Duration::from_mins(2);

/// The variable that makes [`deep_case_child`] run one named case, in a child copy of this binary.
const CHILD_CASE: &str = "LLMSHIM_ADVERSARIAL_CHILD";

/// The depth at which [`deep_case_child`] runs the deep cases in process.
const SHALLOW: usize = 500;

/// The prefix of the line a child prints with its case's outcome.
const CHILD_OUTCOME: &str = "adversarial child outcome: ";

/// Every case that runs in a child process, with the outcome it must have.
const CHILD_CASES: &[(&str, &str)] = &[
    ("normalize-deep-items", "fallback budget_depth"),
    ("normalize-deep-properties", "fallback budget_depth"),
    ("normalize-deep-anyof", "fallback budget_depth"),
    ("normalize-deep-default", "fallback budget_depth"),
    ("output-deep-items", "fallback budget_depth"),
    ("mcp-tool-deep-items", "fallback budget_depth"),
    ("tools-deep-items", "fallback budget_depth"),
    ("compile-deep-items", "error: limits"),
    ("dereference-deep-items", "error: Budget"),
    (
        "validate-deep-instance",
        "invalid: : instance nesting exceeds 128 levels ()",
    ),
];

// Running cases.

/// Runs `f` on a thread with a 2 MiB stack and fails the test if it does not finish within [`DEADLINE`].
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    let handle = thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            // The receiver is gone only after the deadline passed, which has already failed the test.
            let _ = send.send(f());
        })
        .expect("the case thread spawns");
    match receive.recv_timeout(DEADLINE) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what} did not finish within {DEADLINE:?}")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(payload) => std::panic::resume_unwind(payload),
            Ok(()) => panic!("{what} ended without a result"),
        },
    }
}

/// The normalizers every case goes through: one without a memo and one with a memo of its own, so that the keyed
/// and the unkeyed paths both see the input.
fn normalizers() -> [Normalizer; 2] {
    let env = Env::Fixed(EnvFlags::default());
    [
        Normalizer::new(env).without_memo(),
        Normalizer::new(env).with_memo(Arc::new(Memo::new(Limits::default()))),
    ]
}

/// One normalization's outcome: `fallback <kind>`, `ok`, or `ok, strict demoted (<kind>)`.
fn label(report: &Normalization) -> String {
    match (&report.fallback_reason, report.used_fallback) {
        (Some(reason), true) => format!("fallback {}", reason.kind.as_str()),
        (Some(reason), false) => format!("ok, strict demoted ({})", reason.kind.as_str()),
        (None, _) => "ok".to_owned(),
    }
}

/// Normalizes a fresh `make()` for every built-in target with its default options and `budget`, strict off and on,
/// with and without a memo; checks that each result is the fallback or passes the target's check, that the memo
/// changes nothing, and returns the reports labelled `target` or `target!` (strict requested).
fn normalize_everywhere(make: &dyn Fn() -> Value, budget: Budget) -> Vec<(String, Normalization)> {
    let mut reports = Vec::new();
    for target in Target::BUILTIN {
        for strict in [false, true] {
            let options = Options::for_target(target)
                .with_strict(strict)
                .with_budget(budget);
            let mut seen: Option<Normalization> = None;
            for normalizer in normalizers() {
                let mut value = make();
                let report = normalizer.normalize_with(&options, &mut value);
                let name = format!("{}{}", target.name(), if strict { "!" } else { "" });
                if report.used_fallback {
                    assert_eq!(
                        value,
                        json!({"type": "object", "properties": {}}),
                        "{name}: the fallback"
                    );
                } else {
                    let problems = check_with(&options.clone().with_strict(report.strict), &value);
                    assert!(
                        problems.is_empty(),
                        "{name}: a result that fails its check: {problems:?}"
                    );
                }
                inputs::dismantle(value);
                match &seen {
                    None => seen = Some(report),
                    Some(first) => {
                        assert_eq!(*first, report, "{name}: the memo changed the report");
                    }
                }
            }
            let name = format!("{}{}", target.name(), if strict { "!" } else { "" });
            reports.push((name, seen.expect("two normalizers ran")));
        }
    }
    reports
}

/// As [`normalize_everywhere`] with the default budget.
fn normalize_all(make: &dyn Fn() -> Value) -> Vec<(String, Normalization)> {
    normalize_everywhere(make, Budget::default())
}

/// Asserts that every report fell back with `kind`.
fn assert_all_fall_back(reports: &[(String, Normalization)], kind: FallbackKind) {
    for (name, report) in reports {
        assert!(
            report.used_fallback,
            "{name}: expected a {kind:?} fallback, got {report:?}"
        );
        assert_eq!(
            report.fallback_reason.as_ref().map(|r| r.kind),
            Some(kind),
            "{name}"
        );
    }
}

/// The labels of `reports` as `name:label` words, for assertions over mixed outcomes.
fn labels(reports: &[(String, Normalization)]) -> Vec<String> {
    reports
        .iter()
        .map(|(name, r)| format!("{name}:{}", label(r)))
        .collect()
}

/// Compiles `schema` and validates `instance`: `error: limits`, `error: <message>`, `valid`, or `invalid: <first line>`.
fn compile_and_validate(schema: &Value, instance: &Value) -> String {
    match validate::compile(schema) {
        Err(validate::Error::Limits) => "error: limits".to_owned(),
        Err(err) => format!("error: {err}"),
        Ok(validator) => match validate::errors(&validator, instance).first() {
            None => "valid".to_owned(),
            Some(line) => format!("invalid: {line}"),
        },
    }
}

/// Dereferences `value` with the default resolver options: `ok` or `error: <kind>`; on error the value must be
/// left as it was.
fn dereference(mut value: Value) -> String {
    let result = resolve::dereference(&mut value, &Resources::new(), &resolve::Options::default());
    inputs::dismantle(value);
    match result {
        Ok(()) => "ok".to_owned(),
        Err(err) => format!("error: {:?}", err.kind()),
    }
}

// Cases in a child process.

/// Runs the child case `name` at `depth` in this process and returns its outcome.
fn child_case(name: &str, depth: usize) -> String {
    let one = |reports: Vec<(String, Normalization)>| {
        let mut all: Vec<String> = reports.iter().map(|(_, r)| label(r)).collect();
        all.dedup();
        all.join("; ")
    };
    match name {
        "normalize-deep-items" => one(normalize_all(&|| inputs::nested(Nest::Items, depth))),
        "normalize-deep-properties" => {
            one(normalize_all(&|| inputs::nested(Nest::Properties, depth)))
        }
        "normalize-deep-anyof" => one(normalize_all(&|| inputs::nested(Nest::AnyOf, depth))),
        "normalize-deep-default" => one(normalize_all(&|| inputs::deep_default(depth))),
        "output-deep-items" => {
            let mut all = Vec::new();
            for target in Target::BUILTIN {
                for strict in [false, true] {
                    let options = Options::for_target(target).with_strict(strict);
                    let original = inputs::nested(Nest::Items, depth);
                    let output = normalizers()[0].normalize_output_with(&options, &original);
                    all.push((target.name().to_owned(), output.normalization));
                    inputs::dismantle(original);
                    inputs::dismantle(output.schema);
                }
            }
            one(all)
        }
        "mcp-tool-deep-items" => {
            let mut tool = inputs::mcp_tool(inputs::nested(Nest::Items, depth));
            let report = normalizers()[0]
                .normalize_mcp_tool_with(&Options::for_target(Target::Mcp), &mut tool);
            inputs::dismantle(tool);
            label(&report)
        }
        "tools-deep-items" => {
            let mut all = Vec::new();
            for target in Target::BUILTIN {
                let mut request = inputs::chat_request(inputs::nested(Nest::Items, depth));
                let report = normalizers()[0]
                    .normalize_native_tools(&Options::for_target(target), &mut request);
                all.push((target.name().to_owned(), report.summary));
                inputs::dismantle(request);
            }
            one(all)
        }
        "compile-deep-items" => {
            let schema = inputs::nested(Nest::Items, depth);
            let outcome = compile_and_validate(&schema, &json!(null));
            inputs::dismantle(schema);
            outcome
        }
        "dereference-deep-items" => dereference(inputs::nested(Nest::Items, depth)),
        "validate-deep-instance" => {
            let instance = inputs::deep_array(depth);
            let outcome = compile_and_validate(&json!({"items": {"$ref": "#"}}), &instance);
            inputs::dismantle(instance);
            outcome
        }
        other => panic!("unknown child case {other}"),
    }
}

/// With [`CHILD_CASE`] set, runs that case at full size on a 2 MiB stack and prints its outcome for the parent.
/// Without it, runs every child case at 500 levels in this process, beyond the depth budget (96) and the walker's hard
/// limit (400) but within what any stack survives, and checks the outcomes the full-size cases must have.
#[test]
fn deep_case_child() {
    if let Ok(name) = std::env::var(CHILD_CASE) {
        let outcome = bounded(&name.clone(), move || child_case(&name, inputs::DEEP));
        eprintln!("{CHILD_OUTCOME}{outcome}");
        return;
    }
    for (name, expected) in CHILD_CASES {
        let outcome = bounded(name, move || child_case(name, SHALLOW));
        assert_eq!(outcome, *expected, "{name} at {SHALLOW} levels");
    }
}

/// Runs child case `name` in a copy of this binary and checks its outcome; a crash or a run past [`DEADLINE`]
/// fails the test.
fn in_child(name: &str) {
    let expected = CHILD_CASES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, e)| *e)
        .expect("a known child case");
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut child = Command::new(exe)
        .args([
            "--exact",
            "adversarial::deep_case_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_CASE, name)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the child test binary starts");
    let stderr = child.stderr.take().expect("a piped stderr");
    let reader = thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break Some(status);
        }
        if start.elapsed() > DEADLINE {
            // The child is this test's own process; it is killed by its handle.
            child.kill().expect("the child can be killed");
            child.wait().expect("the child is reaped");
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let text = reader.join().unwrap_or_default();
    let outcome = text.lines().find_map(|l| l.strip_prefix(CHILD_OUTCOME));
    let result = match (status, outcome) {
        (Some(status), Some(outcome)) if status.success() => Ok(outcome.to_owned()),
        (Some(status), _) if text.contains("has overflowed its stack") => {
            Err(format!("stack overflow ({status})"))
        }
        (Some(status), _) => Err(format!("child failed ({status}): {}", text.trim())),
        (None, _) => Err(format!("killed after {DEADLINE:?}")),
    };
    match result {
        Ok(outcome) => assert_eq!(outcome, expected, "{name}"),
        Err(failure) => panic!("{name}: {failure}"),
    }
}

#[test]
fn a_hundred_thousand_levels_of_items_fall_back_on_depth() {
    in_child("normalize-deep-items");
}

#[test]
fn a_hundred_thousand_levels_of_properties_fall_back_on_depth() {
    in_child("normalize-deep-properties");
}

#[test]
fn a_hundred_thousand_levels_of_any_of_fall_back_on_depth() {
    in_child("normalize-deep-anyof");
}

#[test]
fn a_default_literal_a_hundred_thousand_arrays_deep_falls_back_on_depth() {
    in_child("normalize-deep-default");
}

#[test]
fn a_hundred_thousand_levels_fall_back_as_an_output_schema() {
    in_child("output-deep-items");
}

#[test]
fn a_hundred_thousand_levels_fall_back_as_an_mcp_tool() {
    in_child("mcp-tool-deep-items");
}

#[test]
fn a_hundred_thousand_levels_fall_back_as_a_native_tool() {
    in_child("tools-deep-items");
}

#[test]
fn a_hundred_thousand_levels_do_not_compile() {
    in_child("compile-deep-items");
}

#[test]
fn a_hundred_thousand_levels_do_not_dereference() {
    in_child("dereference-deep-items");
}

#[test]
fn an_instance_a_hundred_thousand_levels_deep_is_invalid_without_recursion() {
    in_child("validate-deep-instance");
}

#[test]
fn a_combinator_bomb_stops_at_the_validation_work_budget() {
    let outcomes = bounded("validation of combinator bombs", || {
        ["anyOf", "allOf"].map(|keyword| {
            let schema = inputs::combinator_bomb(keyword, inputs::BOMB_LEVELS);
            // A string fails every `anyOf` path; an integer holds on every `allOf` path.
            let instance = if keyword == "anyOf" {
                json!("x")
            } else {
                json!(1)
            };
            compile_and_validate(&schema, &instance)
        })
    });
    let spent =
        "invalid: : validation exceeded its work budget of 10000000 subschema applications ()";
    assert_eq!(outcomes, [spent, spent]);
}

// Cases in this process.

#[test]
fn reference_bombs_hit_the_node_budget() {
    bounded("reference bombs", || {
        let reports = normalize_all(&|| inputs::reference_bomb(inputs::BOMB_LEVELS));
        assert_all_fall_back(&reports, FallbackKind::BudgetNodes);
        let reports = normalize_all(&|| inputs::combinator_bomb("anyOf", inputs::BOMB_LEVELS));
        assert_all_fall_back(&reports, FallbackKind::BudgetNodes);
        assert_eq!(
            dereference(inputs::reference_bomb(inputs::BOMB_LEVELS)),
            "error: Budget"
        );
        // Validation follows the instance, which is small, so the bomb costs nothing there.
        assert_eq!(
            compile_and_validate(
                &inputs::reference_bomb(inputs::BOMB_LEVELS),
                &json!({"root": {"l": {"r": 1}}})
            ),
            "invalid: /root/l/r: expected object, got integer (/properties/root/$ref/properties/l/$ref/properties/r/$ref/type)"
        );
    });
}

#[test]
fn a_hundred_thousand_properties_hit_the_node_budget_or_the_compile_limits() {
    bounded("wide objects", || {
        let reports = normalize_all(&|| inputs::wide_object(inputs::WIDE));
        assert_all_fall_back(&reports, FallbackKind::BudgetNodes);
        // With the node budget lifted, the fixed limits of the compile check still refuse the result.
        let unlimited = Budget::default().with_max_nodes(usize::MAX);
        let reports = normalize_everywhere(&|| inputs::wide_object(inputs::WIDE), unlimited);
        assert_all_fall_back(&reports, FallbackKind::Compile);
        assert_eq!(
            compile_and_validate(&inputs::wide_object(inputs::WIDE), &json!({})),
            "error: limits"
        );
    });
}

#[test]
fn a_hundred_megabyte_string_hits_the_literal_budget() {
    bounded("a huge string", || {
        // Two targets only: each call measures the 100 MB literal once, which is slow in a debug build.
        for options in [
            Options::for_target(Target::OpenAiChat).with_strict(true),
            Options::for_target(Target::Google),
        ] {
            let mut value = inputs::huge_default(inputs::HUGE_BYTES);
            let report = Normalizer::new(Env::Fixed(EnvFlags::default()))
                .normalize_with(&options, &mut value);
            assert!(report.used_fallback, "{report:?}");
            let reason = report.fallback_reason.expect("a reason");
            assert_eq!(
                (reason.kind, reason.pointer.as_str()),
                (FallbackKind::BudgetLiteral, "/properties/a")
            );
        }
        assert_eq!(
            compile_and_validate(&inputs::huge_default(inputs::HUGE_BYTES), &json!({})),
            "error: limits"
        );
        let schema = json!({"type": "string", "maxLength": 10});
        assert_eq!(
            compile_and_validate(&schema, &Value::String("x".repeat(inputs::HUGE_BYTES))),
            "invalid: : must be at most 10 characters long (/maxLength)"
        );
    });
}

#[test]
fn a_hundred_thousand_required_names_end_in_a_bounded_outcome() {
    bounded("a huge required", || {
        let reports = normalize_all(&|| inputs::required_names(inputs::WIDE, true));
        // The Gemini targets and Code Assist keep only the names of declared properties; elsewhere the compile
        // limits refuse.
        assert_eq!(
            labels(&reports),
            [
                "chat:fallback compile",
                "chat!:fallback compile",
                "responses:fallback compile",
                "responses!:fallback compile",
                "anthropic:fallback compile",
                "anthropic!:fallback compile",
                "google:ok",
                "google!:ok",
                "google-json:ok",
                "google-json!:ok",
                "cca:ok",
                "cca!:ok",
                "mcp:fallback compile",
                "mcp!:fallback compile",
            ]
        );
        let reports = normalize_all(&|| inputs::required_names(inputs::WIDE, false));
        // Duplicates are invalid (S11) unless strict rewrites `required` to one entry per property.
        assert_eq!(
            labels(&reports),
            [
                "chat:fallback invalid_schema",
                "chat!:ok",
                "responses:fallback invalid_schema",
                "responses!:ok",
                "anthropic:fallback invalid_schema",
                "anthropic!:ok",
                "google:fallback invalid_schema",
                "google!:fallback invalid_schema",
                "google-json:fallback invalid_schema",
                "google-json!:fallback invalid_schema",
                "cca:fallback invalid_schema",
                "cca!:fallback invalid_schema",
                "mcp:fallback invalid_schema",
                "mcp!:ok",
            ]
        );
        assert_eq!(
            compile_and_validate(&inputs::required_names(inputs::WIDE, true), &json!({})),
            "error: limits"
        );
    });
}

#[test]
fn catastrophic_patterns_do_not_backtrack_without_bound() {
    bounded("backtracking patterns", || {
        let subject = inputs::backtracking_subject();
        let outcomes: Vec<String> = inputs::BACKTRACKING_PATTERNS
            .iter()
            .map(|p| compile_and_validate(&inputs::pattern_schema(p), &subject))
            .collect();
        assert_eq!(
            outcomes,
            [
                "invalid: : does not match pattern ^(a+)+$ (/pattern)",
                "invalid: : does not match pattern ^(a|aa)+$ (/pattern)",
                "invalid: : does not match pattern ^(?=a)(a+)+$ (/pattern)",
                "invalid: : pattern evaluation exceeded the backtrack limit (/pattern)",
            ]
        );
        // A lower limit is honoured as well.
        let strict = validate::Options::default().with_backtrack_limit(1_000);
        let validator = validate::compile_with(
            &inputs::pattern_schema("(a*)*\\1$"),
            &Resources::new(),
            &strict,
        )
        .expect("the pattern compiles");
        assert_eq!(
            validate::errors(&validator, &json!("aaaaaaaaaaaaaaaaaaaaaaaab")),
            [": pattern evaluation exceeded the backtrack limit (/pattern)"]
        );
        for pattern in inputs::BACKTRACKING_PATTERNS {
            let reports = normalize_all(&|| inputs::as_property(inputs::pattern_schema(pattern)));
            assert!(
                reports.iter().all(|(_, r)| !r.used_fallback),
                "{pattern}: {:?}",
                labels(&reports)
            );
        }
    });
}

#[test]
fn a_hundred_thousand_nested_groups_in_a_pattern_are_refused() {
    bounded("nested groups", || {
        for lookahead in [false, true] {
            let pattern = inputs::nested_groups_pattern(inputs::DEEP, lookahead);
            let outcome = compile_and_validate(&inputs::pattern_schema(&pattern), &json!("a"));
            assert!(
                outcome.starts_with("error: invalid schema at \"/pattern\""),
                "{outcome}"
            );
            // The pattern survives only where it is lifted into a description or removed; elsewhere it fails the
            // compile check.
            let reports = normalize_all(&|| inputs::as_property(inputs::pattern_schema(&pattern)));
            for (name, report) in &reports {
                let kind = report.fallback_reason.as_ref().map(|r| r.kind);
                assert!(
                    !report.used_fallback || kind == Some(FallbackKind::Compile),
                    "{name}: {report:?}"
                );
            }
        }
    });
}

#[test]
fn reference_loops_are_cycles_or_bounded_evaluations() {
    bounded("reference loops", || {
        let loops = inputs::reference_loops();
        let normalized: Vec<Vec<String>> = (0..loops.len())
            .map(|i| labels(&normalize_all(&|| inputs::reference_loops().swap_remove(i))))
            .collect();
        // The `$ref` loops are cycles on every target.
        for labels in &normalized[..4] {
            assert!(
                labels.iter().all(|l| l.ends_with(":fallback ref_cycle")),
                "{labels:?}"
            );
        }
        // `$dynamicRef` and `$recursiveRef` are not expanded; their nodes are not objects, so only MCP, which has
        // no root rule and keeps unknown keywords, can accept them.
        for labels in &normalized[4..] {
            for label in labels {
                assert!(
                    label.starts_with("mcp") || label.ends_with(":fallback target_unsupported"),
                    "{label}"
                );
            }
        }
        for schema in &loops {
            let outcome = compile_and_validate(schema, &json!({}));
            assert!(
                outcome.starts_with("invalid: : schema evaluation exceeds 512 nested subschemas"),
                "{schema}: {outcome}"
            );
        }
        let dereferenced: Vec<String> = loops.into_iter().map(dereference).collect();
        assert_eq!(
            dereferenced,
            [
                "error: Cycle",
                "error: Cycle",
                "error: Cycle",
                "error: Cycle",
                "ok",
                "ok",
                "ok"
            ]
        );
    });
}

#[test]
fn malformed_uris_and_percent_escapes_are_typed_failures() {
    bounded("malformed URIs", || {
        let expected = [
            (
                FallbackKind::InvalidRef,
                "/properties/a",
                "error: InvalidRef",
            ),
            (
                FallbackKind::InvalidRef,
                "/properties/a",
                "error: InvalidRef",
            ),
            (
                FallbackKind::InvalidRef,
                "/properties/a",
                "error: InvalidRef",
            ),
            (
                FallbackKind::InvalidUri,
                "/properties/a",
                "error: InvalidUri",
            ),
            (
                FallbackKind::InvalidUri,
                "/properties/a",
                "error: InvalidUri",
            ),
            (
                FallbackKind::InvalidUri,
                "/properties/a",
                "error: InvalidUri",
            ),
            (
                FallbackKind::UnresolvedRef,
                "/properties/a",
                "error: Unresolved",
            ),
            (FallbackKind::InvalidUri, "", "error: InvalidUri"),
            (FallbackKind::InvalidUri, "", "error: InvalidUri"),
            (
                FallbackKind::ExternalRef,
                "/properties/a",
                "error: External",
            ),
        ];
        assert_eq!(inputs::malformed_uris().len(), expected.len());
        for (i, (kind, pointer, resolved)) in expected.into_iter().enumerate() {
            let reports = normalize_all(&|| inputs::malformed_uris().swap_remove(i));
            for (name, report) in &reports {
                let reason = report.fallback_reason.as_ref().expect("a reason");
                assert_eq!(
                    (reason.kind, reason.pointer.as_str()),
                    (kind, pointer),
                    "input {i}, {name}"
                );
            }
            let schema = inputs::malformed_uris().swap_remove(i);
            let outcome = compile_and_validate(&schema, &json!({}));
            assert!(
                outcome.starts_with("error: invalid schema at"),
                "input {i}: {outcome}"
            );
            assert_eq!(dereference(schema), resolved, "input {i}");
        }
    });
}

#[test]
fn duplicate_ids_and_anchors_are_refused() {
    bounded("duplicate ids", || {
        for (i, schema) in inputs::duplicate_ids().into_iter().enumerate() {
            let reports = normalize_all(&|| inputs::duplicate_ids().swap_remove(i));
            assert_all_fall_back(&reports, FallbackKind::DuplicateResource);
            let outcome = compile_and_validate(&schema, &json!({}));
            assert!(
                outcome.starts_with("error: invalid schema at \"/$defs/b\""),
                "{outcome}"
            );
            assert!(
                outcome.ends_with("already names another schema"),
                "{outcome}"
            );
            assert_eq!(dereference(schema), "error: Duplicate");
        }
    });
}

#[test]
fn the_resolver_fails_on_the_borrowed_input_and_leaves_it_unchanged() {
    bounded("resolver errors", || {
        for schema in inputs::malformed_uris()
            .into_iter()
            .chain(inputs::duplicate_ids())
        {
            let mut value = schema.clone();
            let result =
                resolve::dereference(&mut value, &Resources::new(), &resolve::Options::default());
            assert!(result.is_err(), "{schema}");
            assert_eq!(
                value, schema,
                "a failed dereference leaves the value as it was"
            );
            assert_ne!(result.map_err(|e| e.kind()), Err(ErrorKind::Cycle));
        }
    });
}
