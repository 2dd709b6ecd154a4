//! Contract checks for a target's rule set, built-in or custom, and which path a normalization takes (feature
//! `testing`).

use std::sync::Arc;

use llmshim_cache::Limits;
use llmshim_core::TargetRules;
use serde_json::{Value, json};

use crate::schema::{Env, EnvFlags, Normalizer, Options, SchemaMemo, Target};

/// What [`check_target`] ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Schema and mode pairs normalized.
    pub runs: usize,
    /// How many of them fell back.
    pub fallbacks: usize,
}

/// Whether `normalizer`, without a memo, normalizes `schema` with `options` through the walk, rather than through the
/// look before it that reads the schema once and closes or edits it where it is (ARCHITECTURE.md, Performance).
///
/// For measurements that split a workload by the path it takes (`benches/examples/per_schema.rs`): the walk's cost
/// per schema is many times the look's. `false` also where the environment or the options skip normalization.
///
/// ```
/// use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target};
/// use serde_json::json;
///
/// let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
/// let strict = Options::for_target(Target::OpenAiChat).with_strict(true);
/// let plain = json!({"type": "object", "properties": {"a": {"type": "string"}}});
/// assert!(!llmshim::testing::walks(&normalizer, &strict, &plain));
/// // A reference is resolved by the walk.
/// let referring = json!({
///     "type": "object",
///     "properties": {"a": {"$ref": "#/$defs/A"}},
///     "$defs": {"A": {"type": "string"}}
/// });
/// assert!(llmshim::testing::walks(&normalizer, &strict, &referring));
/// ```
pub fn walks(normalizer: &Normalizer, options: &Options, schema: &Value) -> bool {
    normalizer.walks(options, schema)
}

/// Runs the contract checks every built-in target passes on a fixed set of schemas, non-strict and strict: every
/// output passes the structural check for its mode, contains no `$ref` or `$defs` (in a mode that keeps recursive
/// references: none but lone references to `#` or into the root's `$defs`, which holds them), normalizes to itself
/// again (`changed: false`) unless it is the fallback, and a memo hit returns the same bytes and report as an
/// uncached run.
///
/// ```
/// let summary = llmshim::testing::check_target(&llmshim::targets::GOOGLE).expect("google passes");
/// assert!(summary.runs > 0);
/// ```
///
/// # Errors
///
/// Every failed check, one per line.
pub fn check_target(rules: &'static dyn TargetRules) -> Result<Summary, String> {
    let target = Target::custom(rules);
    let uncached = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let memo = Arc::new(SchemaMemo::new(Limits::default()));
    let cached = Normalizer::new(Env::Fixed(EnvFlags::default())).with_memo(memo);
    let mut problems = Vec::new();
    let mut summary = Summary::default();
    for (name, schema) in samples() {
        for strict in [false, true] {
            summary.runs += 1;
            let options = Options::for_target(target).with_strict(strict);
            let mut out = schema.clone();
            let report = uncached.normalize_with(&options, &mut out);
            let label = format!("{name} (strict: {strict})");
            if report.used_fallback {
                summary.fallbacks += 1;
            }
            let effective = options.clone().with_strict(report.strict);
            let violations = crate::schema::check_with(&effective, &out);
            if !violations.is_empty() {
                problems.push(format!(
                    "{label}: the output fails the structural check: {}",
                    violations[0]
                ));
            }
            let kept = effective.recursion_for(report.strict).keeps_refs();
            if let Some(pointer) = misplaced_reference(&out, kept) {
                problems.push(format!(
                    "{label}: the output keeps a $ref or $defs at {pointer:?}"
                ));
            }
            // The fallback is the same value for every target and is not itself rewritten, so a
            // target may rewrite it when it is fed back as an input; every other output must be a fixed point.
            if !report.used_fallback {
                let mut again = out.clone();
                let second = uncached.normalize_with(&effective, &mut again);
                if second.changed || again != out {
                    problems.push(format!("{label}: normalizing the output again changes it"));
                }
            }
            for _ in 0..2 {
                let mut warm = schema.clone();
                let hit = cached.normalize_with(&options, &mut warm);
                if serde_json::to_string(&warm).ok() != serde_json::to_string(&out).ok()
                    || hit != report
                {
                    problems.push(format!(
                        "{label}: the memo returns something else than an uncached run"
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(summary)
    } else {
        Err(problems.join("\n"))
    }
}

/// The pointer of the first `$ref` or `$defs` out of place: with `kept`, anything but a lone `$ref` to `#` or to a
/// member of the root's `$defs`, and `$defs` anywhere but the root; without it, any of them.
fn misplaced_reference(value: &Value, kept: bool) -> Option<String> {
    let definitions = value
        .get("$defs")
        .and_then(Value::as_object)
        .filter(|_| kept);
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), value)];
    for (name, member) in definitions.into_iter().flatten() {
        stack.push((format!("/$defs/{name}"), member));
    }
    while let Some((pointer, v)) = stack.pop() {
        let Value::Object(m) = v else {
            continue;
        };
        if let Some(reference) = m.get("$ref") {
            let resolves = match reference.as_str() {
                Some("#") => true,
                Some(r) => r
                    .strip_prefix("#/$defs/")
                    .is_some_and(|n| definitions.is_some_and(|d| d.contains_key(n))),
                None => false,
            };
            if !(kept && resolves && m.len() == 1) {
                return Some(pointer);
            }
        }
        if m.contains_key("$defs") && !(kept && pointer.is_empty()) {
            return Some(pointer);
        }
        for (key, child) in m {
            if key == "$defs" {
                continue;
            }
            match child {
                Value::Object(_) => stack.push((format!("{pointer}/{key}"), child)),
                Value::Array(items) => {
                    for (at, item) in items.iter().enumerate() {
                        stack.push((format!("{pointer}/{key}/{at}"), item));
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// A small corpus that exercises every rule family.
fn samples() -> Vec<(&'static str, Value)> {
    vec![
        ("empty object", json!({"type": "object"})),
        (
            "plain properties",
            json!({"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "integer", "minimum": 1}}, "required": ["a"]}),
        ),
        (
            "nullable type array",
            json!({"type": "object", "properties": {"a": {"type": ["string", "null"], "description": "maybe"}}}),
        ),
        (
            "multi-type array",
            json!({"type": "object", "properties": {"v": {"type": ["string", "integer"]}}}),
        ),
        (
            "references",
            json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}}}}}),
        ),
        (
            "draft-07 forms",
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"t": {"type": "array", "items": [{"type": "string"}], "additionalItems": false}}, "definitions": {}}),
        ),
        (
            "combinators",
            json!({"type": "object", "properties": {"u": {"oneOf": [{"type": "string"}, {"type": "integer"}]}, "a": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "m": {"allOf": [{"type": "object", "properties": {"k": {"type": "string"}}}]}}}),
        ),
        (
            "enums and consts",
            json!({"type": "object", "properties": {"e": {"enum": ["a", "b"]}, "n": {"enum": [1, 2]}, "c": {"const": "x"}}}),
        ),
        (
            "human constraints",
            json!({"type": "object", "properties": {"s": {"type": "string", "format": "email", "pattern": "^(?=a)a+$", "minLength": 1, "default": "a"}, "xs": {"type": "array", "minItems": 1}}}),
        ),
        (
            "snake case",
            json!({"type": "object", "properties": {"s": {"type": "string", "min_length": 2}}, "additional_properties": false}),
        ),
        (
            "root union",
            json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "object", "properties": {"b": {"type": "string"}}}]}),
        ),
        (
            "cycle",
            json!({"type": "object", "properties": {"next": {"$ref": "#"}}}),
        ),
        (
            "OpenAPI markers",
            json!({"type": "object", "properties": {"o": {"type": "string", "nullable": true, "format": "int64"}, "k": {"const": 3}}}),
        ),
        (
            "boolean subschema",
            json!({"type": "object", "properties": {"any": true}}),
        ),
        ("not an object", json!({"type": "string"})),
    ]
}
