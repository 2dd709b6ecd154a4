//! Every SchemaStore schema either dereferences or returns a typed error; none panics.

use std::collections::BTreeMap;

use llmshim_benches::testdata;
use llmshim_resolve::{Cycles, Options, Resources, dereference};

#[test]
fn every_schemastore_schema_dereferences_or_fails_typed() {
    let Some(_) = testdata::require("the SchemaStore corpus") else {
        return;
    };
    let entries = testdata::schemastore_entries();
    assert!(
        entries.len() == 80,
        "expected 80 SchemaStore schemas, found {}",
        entries.len()
    );
    let mut outcomes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in &entries {
        let schema = testdata::read_json(&entry.schema).expect("schema parses");
        let mut out = schema.clone();
        let outcome = match dereference(&mut out, &Resources::new(), &Options::default()) {
            Ok(()) => {
                assert!(
                    !contains_ref(&out),
                    "{}: a $ref survived dereference",
                    entry.name
                );
                "dereferenced".to_owned()
            }
            Err(e) => {
                assert!(
                    !e.message().is_empty(),
                    "{}: error without a message",
                    entry.name
                );
                let mut kept = schema.clone();
                let keep = dereference(
                    &mut kept,
                    &Resources::new(),
                    &Options::default().with_cycles(Cycles::KeepRefs),
                );
                let keep = match keep {
                    Ok(()) => "ok".to_owned(),
                    Err(k) => format!("{:?}", k.kind()),
                };
                format!("{:?} (with KeepRefs: {keep})", e.kind())
            }
        };
        outcomes
            .entry(outcome)
            .or_default()
            .push(entry.name.clone());
    }
    for (outcome, names) in &outcomes {
        eprintln!(
            "suite: schemastore dereference: {outcome}: {} ({})",
            names.len(),
            names.join(", ")
        );
    }
}

/// Whether a string `$ref` stands at a schema position (literals such as `default` or `examples` may hold any data).
fn contains_ref(value: &serde_json::Value) -> bool {
    use llmshim_core::keyword::{KeywordClass, class_of};
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        let Some(map) = v.as_object() else {
            continue;
        };
        if map.get("$ref").is_some_and(serde_json::Value::is_string) {
            return true;
        }
        for (key, child) in map {
            match class_of(key) {
                KeywordClass::MapChildren | KeywordClass::Definitions => {
                    stack.extend(child.as_object().into_iter().flat_map(|m| m.values()));
                }
                KeywordClass::ArrayChildren => stack.extend(child.as_array().into_iter().flatten()),
                KeywordClass::SingleChild => {
                    if let Some(items) = child.as_array() {
                        stack.extend(items);
                    } else {
                        stack.push(child);
                    }
                }
                _ => {}
            }
        }
    }
    false
}
