//! The local-validation benchmark (issue 3): `llmshim-validate` against the `jsonschema` crate, compile and validate,
//! on the SchemaStore corpus with its listed instances and on the MCP tool input schemas with one generated argument
//! object per tool.
//!
//! Both engines work offline (`jsonschema` is built without default features and with its offline retriever), and
//! both assert formats, so they do the same work: a schema that does not compile in one of them (an external
//! reference, mostly) is left out of the workload for both. One `validate` iteration runs `is_valid` on every
//! instance of the workload; one `compile` iteration compiles every schema of the workload.

mod support;

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use llmshim_benches::{testdata, workload};
use serde_json::Value;

/// One schema of a workload and the instances it validates.
struct Case {
    schema: Value,
    instances: Vec<Value>,
}

/// A named workload and how many schemas were left out of it.
struct Workload {
    name: &'static str,
    cases: Vec<Case>,
    skipped: usize,
}

fn jsonschema_options() -> jsonschema::ValidationOptions<'static> {
    jsonschema::options()
        .offline()
        .should_validate_formats(true)
}

fn compiles_in_both(schema: &Value) -> bool {
    llmshim_validate::compile(schema).is_ok() && jsonschema_options().build(schema).is_ok()
}

fn read_instance(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("corrupt test data: {}: {e}", path.display()));
    let yaml = path
        .extension()
        .is_some_and(|ext| ext == "yaml" || ext == "yml");
    let parsed = if yaml {
        serde_norway::from_str::<Value>(&text).map_err(|e| e.to_string())
    } else {
        serde_json::from_str::<Value>(&text).map_err(|e| e.to_string())
    };
    parsed.unwrap_or_else(|e| panic!("corrupt test data: {}: {e}", path.display()))
}

/// Every SchemaStore schema that compiles in both engines, with its listed valid and invalid instances.
fn schemastore() -> Workload {
    let mut cases = Vec::new();
    let mut skipped = 0;
    for entry in testdata::schemastore_entries() {
        let schema = testdata::read_json(&entry.schema).unwrap_or_else(|e| panic!("{e}"));
        if !compiles_in_both(&schema) {
            skipped += 1;
            continue;
        }
        let instances = entry
            .valid
            .iter()
            .chain(&entry.invalid)
            .map(|p| read_instance(p))
            .collect();
        cases.push(Case { schema, instances });
    }
    Workload {
        name: "schemastore",
        cases,
        skipped,
    }
}

/// Every MCP tool `inputSchema` (the `tools` arrays of `mcp-tools/*.json`) that compiles in both engines, with one
/// argument object from the test kit's deterministic generator.
fn mcp_tools() -> Workload {
    let mut cases = Vec::new();
    let mut skipped = 0;
    for file in testdata::mcp_tool_files() {
        let corpus = testdata::read_json(&file).unwrap_or_else(|e| panic!("{e}"));
        let tools = corpus
            .get("tools")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for tool in tools {
            let Some(schema) = tool.get("inputSchema") else {
                continue;
            };
            if !compiles_in_both(schema) {
                skipped += 1;
                continue;
            }
            let instance = workload::valid_instance(schema);
            cases.push(Case {
                schema: schema.clone(),
                instances: vec![instance],
            });
        }
    }
    Workload {
        name: "mcp-tools",
        cases,
        skipped,
    }
}

fn compile(c: &mut Criterion, workloads: &[Workload]) {
    let options = jsonschema_options();
    let mut group = c.benchmark_group("validate/compile");
    for w in workloads {
        group.bench_function(format!("{}/llmshim", w.name), |b| {
            b.iter(|| {
                for case in &w.cases {
                    black_box(llmshim_validate::compile(black_box(&case.schema)).is_ok());
                }
            });
        });
        group.bench_function(format!("{}/jsonschema", w.name), |b| {
            b.iter(|| {
                for case in &w.cases {
                    black_box(options.build(black_box(&case.schema)).is_ok());
                }
            });
        });
    }
    group.finish();
}

fn validate(c: &mut Criterion, workloads: &[Workload]) {
    let options = jsonschema_options();
    let mut group = c.benchmark_group("validate/validate");
    for w in workloads {
        let ours: Vec<_> = w
            .cases
            .iter()
            .filter_map(|case| llmshim_validate::compile(&case.schema).ok())
            .collect();
        let theirs: Vec<_> = w
            .cases
            .iter()
            .filter_map(|case| options.build(&case.schema).ok())
            .collect();
        group.bench_function(format!("{}/llmshim", w.name), |b| {
            b.iter(|| {
                for (validator, case) in ours.iter().zip(&w.cases) {
                    for instance in &case.instances {
                        black_box(validator.is_valid(black_box(instance)));
                    }
                }
            });
        });
        group.bench_function(format!("{}/jsonschema", w.name), |b| {
            b.iter(|| {
                for (validator, case) in theirs.iter().zip(&w.cases) {
                    for instance in &case.instances {
                        black_box(validator.is_valid(black_box(instance)));
                    }
                }
            });
        });
    }
    group.finish();
}

/// Writes, per workload, the schema and instance counts, how many schemas were left out, how many instances each
/// engine finds valid and on how many they agree, to `<target>/criterion/validate-counts.json`, where
/// `cargo xtask bench` reads it for the README.
fn write_counts(workloads: &[Workload]) {
    let options = jsonschema_options();
    let mut rows = Vec::new();
    for w in workloads {
        let (mut instances, mut ours_valid, mut theirs_valid, mut agree) = (0, 0, 0, 0);
        for case in &w.cases {
            let (Ok(ours), Ok(theirs)) = (
                llmshim_validate::compile(&case.schema),
                options.build(&case.schema),
            ) else {
                continue;
            };
            for instance in &case.instances {
                let a = ours.is_valid(instance);
                let b = theirs.is_valid(instance);
                instances += 1;
                ours_valid += usize::from(a);
                theirs_valid += usize::from(b);
                agree += usize::from(a == b);
            }
        }
        rows.push(serde_json::json!({
            "workload": w.name, "schemas": w.cases.len(), "skipped": w.skipped, "instances": instances,
            "llmshim_valid": ours_valid, "jsonschema_valid": theirs_valid, "agree": agree
        }));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        std::path::PathBuf::from,
    );
    let dir = target.join("criterion");
    let text = serde_json::to_string_pretty(&Value::Array(rows)).unwrap_or_default();
    if std::fs::create_dir_all(&dir).is_ok() {
        // A failed write only means the README loses its counts; the timings are unaffected.
        let _ = std::fs::write(dir.join("validate-counts.json"), text);
    }
}

fn benches(c: &mut Criterion) {
    if testdata::root().is_none() {
        return;
    }
    let workloads = [schemastore(), mcp_tools()];
    write_counts(&workloads);
    compile(c, &workloads);
    validate(c, &workloads);
}

criterion_group! {
    name = validate_benches;
    config = support::config();
    targets = benches
}
criterion_main!(validate_benches);
