//! Building options, environments and normalizers from golden-case fields.

use llmshim::schema::{Env, EnvFlags, Normalizer, Nullable, Options, Target};
use llmshim_benches::golden::Case;
use serde_json::{Map, Value};

/// The target a case names (`chat`, `responses`, ...).
pub(crate) fn target(case: &Case) -> Target {
    case.target
        .as_deref()
        .unwrap_or("mcp")
        .parse()
        .expect("known target")
}

/// `Options::for_target`, then `strict`, then each member of `options` by its snake-case name.
pub(crate) fn options(target: Target, strict: bool, members: &Map<String, Value>) -> Options {
    let mut o = Options::for_target(target).with_strict(strict);
    let mut budget = o.budget;
    for (name, value) in members {
        let flag = || value.as_bool().expect("boolean option");
        let count = || usize::try_from(value.as_u64().expect("count option")).expect("fits usize");
        match name.as_str() {
            "strict" => o = o.with_strict(flag()),
            "nullable" => {
                let n = match value.as_str().map(str::to_ascii_lowercase).as_deref() {
                    Some("preserve") => Nullable::Preserve,
                    Some("marker") => Nullable::Marker,
                    Some("remove") => Nullable::Remove,
                    other => panic!("unknown nullable {other:?}"),
                };
                o = o.with_nullable(n);
            }
            "rewrite_one_of" => o = o.with_rewrite_one_of(flag()),
            "strip_lookarounds" => o = o.with_strip_lookarounds(flag()),
            "bypass" => o = o.with_bypass(flag()),
            "diagnostics" => o = o.with_diagnostics(flag()),
            "structured_output" => o = o.with_structured_output(flag()),
            "keywords" => {
                o = o.with_keywords(
                    value
                        .as_str()
                        .expect("a keyword profile name")
                        .parse()
                        .expect("current or conservative"),
                );
            }
            "max_depth" => budget = budget.with_max_depth(count()),
            "max_nodes" => budget = budget.with_max_nodes(count()),
            "max_literal_bytes" => budget = budget.with_max_literal_bytes(count()),
            "recursion" => {
                o = o.with_recursion(
                    value
                        .as_str()
                        .expect("a recursion mode")
                        .parse::<llmshim::schema::Recursion>()
                        .expect("a known recursion mode"),
                );
            }
            other => panic!("unknown option {other}"),
        }
    }
    o.with_budget(budget)
}

/// A normalizer with fixed flags from the case's `env` member, without a memo.
pub(crate) fn normalizer(env: &Map<String, Value>) -> Normalizer {
    let on = |name: &str| {
        let v = env.get(name);
        let text = match v {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Null) | None => None,
            Some(other) => Some(other.to_string()),
        };
        llmshim::schema::env::flag_value(text.as_deref())
    };
    let flags = EnvFlags::default()
        .with_no_schema_normalization(on("LLMSHIM_NO_SCHEMA_NORMALIZATION"))
        .with_no_strict(on("LLMSHIM_NO_STRICT"))
        .with_no_schema_cache(on("LLMSHIM_NO_SCHEMA_CACHE"));
    Normalizer::new(Env::Fixed(flags)).without_memo()
}

/// The strict check of `out` against the strict keep-list of `options`' target under its keyword profile (the
/// list normalization strips to); `llmshim_strict::check` alone holds a schema to the list every model accepts.
pub(crate) fn strict_problems(
    options: &Options,
    out: &Value,
) -> Vec<llmshim::schema::FallbackReason> {
    let profile = options
        .target
        .rules()
        .rules()
        .strict
        .expect("a target with a strict profile");
    llmshim_strict::check_with(out, &profile, options.keywords)
}

/// How many tool input schemas the shared MCP corpus holds (the strict corpus's count of MCP tools).
pub(crate) const MCP_SCHEMAS: usize = 725;

/// Every MCP tool's `inputSchema` of the shared corpus, checked to be all [`MCP_SCHEMAS`] of them; `None` (after
/// one line naming `what`) when the test data is absent and not required.
pub(crate) fn mcp_input_schemas(what: &str) -> Option<Vec<Value>> {
    llmshim_benches::testdata::require(what)?;
    let schemas = llmshim_benches::workload::mcp_input_schemas().unwrap_or_default();
    assert_eq!(
        schemas.len(),
        MCP_SCHEMAS,
        "the MCP corpus holds {} tool schemas, expected {MCP_SCHEMAS}",
        schemas.len()
    );
    Some(schemas)
}
