//! Allocation counts through the facade, counted per thread by the allocator of
//! `llmshim-cache/tests/support/counting.rs` in a test binary of its own (the test harness allocates on other
//! threads while a test counts; the tests here also take one lock while they count).
//!
//! - An exact no-op memo hit allocates nothing.
//! - An uncached normalization of a schema that needs no change, and of one that does, stays under a stated bound
//!   of allocations, given as a multiple of the allocations of one `Value::clone` of the same schema (the floor of
//!   any normalization that builds a new tree). The README quotes the bounds.
//! - Without strict, an uncached normalization of a schema that needs no change allocates nothing on every target
//!   whose rules are data only: the pipeline's look finds it unchanged before any copy.

// The counts go to stderr beside the verdict, so a run shows how far each stays under its bound.
#![allow(clippy::print_stderr)]

#[path = "../../llmshim-cache/tests/support/counting.rs"]
mod counting;

use std::sync::{Arc, Mutex, MutexGuard};

use llmshim::cache::Limits;
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, SchemaMemo, Target};
use serde_json::{Value, json};

/// Held while a test counts, so no other test of this binary allocates in between.
static COUNTING: Mutex<()> = Mutex::new(());

fn counting() -> MutexGuard<'static, ()> {
    COUNTING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The allocations `f` makes.
fn allocations_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = counting::allocations();
    let out = f();
    let after = counting::allocations();
    (after - before, out)
}

/// The allocations of one clone of `schema` (the clone is dropped outside the count).
fn clone_allocations(schema: &Value) -> usize {
    let (n, clone) = allocations_of(|| schema.clone());
    drop(clone);
    n
}

/// An MCP-style tool schema that every built-in target takes as it is: an object with described properties of the
/// common types, a nested object, an array of strings and `required`.
fn unchanged_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file to read, relative to the workspace root"},
            "recursive": {"type": "boolean", "description": "Whether to descend into folders"},
            "limit": {"type": "integer", "description": "How many entries to return at most"},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels to filter by"},
            "options": {
                "type": "object",
                "properties": {
                    "encoding": {"type": "string", "enum": ["utf-8", "latin-1"]},
                    "follow": {"type": "boolean"}
                },
                "required": ["encoding"]
            }
        },
        "required": ["path"]
    })
}

/// The same schema in the shape a generator writes it, which every built-in target changes: a nullable type
/// array, a `$ref` into `$defs`, a `default`, a `format` and a `$schema`.
fn changed_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file to read, relative to the workspace root"},
            "recursive": {"type": ["boolean", "null"], "default": false},
            "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "How many entries to return"},
            "since": {"type": "string", "format": "date-time"},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels to filter by"},
            "options": {"$ref": "#/$defs/Options"}
        },
        "required": ["path"],
        "additionalProperties": false,
        "$defs": {
            "Options": {
                "type": "object",
                "properties": {
                    "encoding": {"type": "string", "enum": ["utf-8", "latin-1"]},
                    "follow": {"type": "boolean"}
                },
                "required": ["encoding"]
            }
        }
    })
}

/// At most this many allocations per allocation of a clone, for an uncached normalization of a schema that needs no
/// change (strict off, then on: strict closes its objects), on every built-in target; the README quotes the bounds.
const UNCHANGED_BOUND: [usize; 2] = [2, 3];

/// At most this many allocations per allocation of a clone of the input, for an uncached normalization of a schema
/// that every built-in target changes (strict off, then on); the README quotes the bounds.
const CHANGED_BOUND: [usize; 2] = [4, 5];

/// The allocations of one uncached normalization of `schema` for `options`, its report's `changed`, and the
/// allocations of a clone of `schema`.
fn uncached(options: &Options, schema: &Value) -> (usize, bool, usize) {
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let clone = clone_allocations(schema);
    let mut input = schema.clone();
    let (n, report) = allocations_of(|| normalizer.normalize_with(options, &mut input));
    (n, report.changed, clone)
}

#[test]
fn an_uncached_normalization_allocates_within_its_bound() {
    let _guard = counting();
    for target in Target::BUILTIN {
        for strict in [false, true] {
            let options = Options::for_target(target).with_strict(strict);
            let (n, changed, clone) = uncached(&options, &unchanged_schema());
            eprintln!("alloc: {target} strict={strict} unchanged: {n} allocations, clone {clone}");
            // Strict closes the objects, so only the plain normalization leaves the schema as it is.
            if !strict {
                assert!(!changed, "{target}: the unchanged schema changed");
            }
            let bound = UNCHANGED_BOUND[usize::from(strict)];
            assert!(
                n <= bound * clone,
                "{target} strict={strict}: {n} allocations for a schema that needs no change, more than {bound} \
                 x {clone} (a clone)"
            );
            let (n, changed, clone) = uncached(&options, &changed_schema());
            eprintln!("alloc: {target} strict={strict} changed: {n} allocations, clone {clone}");
            assert!(changed, "{target}: the changed schema did not change");
            let bound = CHANGED_BOUND[usize::from(strict)];
            assert!(
                n <= bound * clone,
                "{target} strict={strict}: {n} allocations for a changed schema, more than {bound} x {clone} (a \
                 clone)"
            );
        }
    }
}

#[test]
fn an_uncached_schema_that_needs_no_change_allocates_nothing_without_strict() {
    // The pipeline's look before the walk finds the schema unchanged on every built-in target: on those whose rules
    // are data only, and on Google's JSON Schema dialect, whose `enter` hook says it leaves the schema's string
    // `enum` alone.
    let _guard = counting();
    for target in Target::BUILTIN {
        let options = Options::for_target(target);
        let (n, changed, clone) = uncached(&options, &unchanged_schema());
        assert!(!changed, "{target}: the unchanged schema changed");
        assert_eq!(n, 0, "{target}: {n} allocations (a clone takes {clone})");
    }
}

#[test]
fn an_exact_no_op_hit_through_normalize_with_allocates_nothing() {
    let _guard = counting();
    let memo = Arc::new(SchemaMemo::new(Limits::default()));
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).with_memo(memo);
    let options = Options::for_target(Target::Anthropic);
    let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let first = normalizer.normalize_with(&options, &mut schema);
    assert!(!first.changed);
    let (n, second) = allocations_of(|| normalizer.normalize_with(&options, &mut schema));
    assert_eq!(second, first);
    assert_eq!(n, 0, "an exact no-op hit allocated");
}
