//! Through the facade, an exact no-op memo hit allocates nothing, counted by the allocator of
//! `llmshim-cache/tests/support/counting.rs` in a test binary of its own (tests in one binary run in parallel, so a
//! shared counter would see other tests' allocations).

#[path = "../../llmshim-cache/tests/support/counting.rs"]
mod counting;

use llmshim::cache::Limits;
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, SchemaMemo, Target};
use serde_json::json;
use std::sync::Arc;

#[test]
fn an_exact_no_op_hit_through_normalize_with_allocates_nothing() {
    let memo = Arc::new(SchemaMemo::new(Limits::default()));
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).with_memo(memo);
    let options = Options::for_target(Target::Anthropic);
    let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let first = normalizer.normalize_with(&options, &mut schema);
    assert!(!first.changed);
    let before = counting::allocations();
    let second = normalizer.normalize_with(&options, &mut schema);
    let after = counting::allocations();
    assert_eq!(second, first);
    assert_eq!(after - before, 0, "an exact no-op hit allocated");
}
