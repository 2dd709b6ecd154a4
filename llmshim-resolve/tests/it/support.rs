//! Shared helpers: the resolver's share of the normalization walk, and oracle verdicts.

use llmshim_core::rules::SchemaUri;
use llmshim_core::walk::{self, Settings, steps};
use llmshim_core::{Budget, FallbackReason, Pass};
use llmshim_resolve::pass::{BaseUri, Expand, Meta, Mode, Upgrade};
use llmshim_resolve::{Registry, Resources, Upgrades};
use serde_json::{Value, json};

/// The fallback schema.
pub(crate) fn fallback() -> Value {
    json!({"type": "object", "properties": {}})
}

/// Runs the steps this crate owns (W3, W6–W11) with the core steps they need (W2, W4, W5, snake case), in contract
/// order, as the facade lists them; a failure gives the fallback and its reason.
pub(crate) fn resolve_walk(
    input: &Value,
    schema_uri: SchemaUri,
    budget: Budget,
) -> (Value, Option<FallbackReason>) {
    let resources = Resources::new();
    let registry = match Registry::with_budget(input, &resources, &budget) {
        Ok(r) => r,
        Err(reason) => return (fallback(), Some(reason)),
    };
    let draft = registry.draft();
    let shape = steps::Shape::keep_booleans();
    let base = BaseUri::new(draft);
    let literals = steps::Literals;
    let snake = steps::SnakeCase;
    let id = Upgrade::id(Upgrades::ALL, draft);
    let expand = Expand::new(&registry, Mode::Normalize);
    let meta = Meta::normalize(schema_uri, draft);
    let forms = Upgrade::forms(Upgrades::ALL);
    let passes: [&dyn Pass; 8] = [
        &shape, &base, &literals, &snake, &id, &expand, &meta, &forms,
    ];
    let mut out = input.clone();
    match walk::walk(
        &mut out,
        &passes,
        &Settings::new(budget),
        "https://llmshim.invalid/schema".into(),
    ) {
        Ok(_) => (out, None),
        Err(reason) => (fallback(), Some(reason)),
    }
}

/// The oracle's validator for `schema` read under `draft`; `Err` when the oracle cannot build it.
pub(crate) fn oracle(
    schema: &Value,
    draft: jsonschema::Draft,
) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .with_draft(draft)
        .build(schema)
        .map_err(|e| e.to_string())
}
