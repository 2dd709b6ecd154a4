//! The resolver-only API: `dereference`, `bundle`, `upgrade`, `Registry`, and their errors.

use llmshim_resolve::{
    Budget, Cycles, Draft, ErrorKind, Options, Registry, Resources, Upgrades, bundle, dereference,
    upgrade,
};
use serde_json::json;

#[test]
fn dereference_inlines_and_drops_definitions() {
    let mut s = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/definitions/A"}, "b": {"$ref": "#/$defs/B"}},
        "definitions": {"A": {"type": "string"}, "unused": {"type": "null"}},
        "$defs": {"B": {"type": "array", "items": {"$ref": "#/definitions/A"}}}
    });
    dereference(&mut s, &Resources::new(), &Options::default()).expect("dereferences");
    assert_eq!(
        s,
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "array", "items": {"type": "string"}}}})
    );
}

#[test]
fn dereference_leaves_the_value_alone_on_error() {
    let original = json!({"type": "object", "properties": {"a": {"$ref": "#/nowhere"}}});
    let mut s = original.clone();
    let err = dereference(&mut s, &Resources::new(), &Options::default()).expect_err("unresolved");
    assert_eq!(err.kind(), ErrorKind::Unresolved);
    assert_eq!(err.pointer(), "/properties/a");
    assert_eq!(s, original);
}

#[test]
fn cycles_are_errors_or_kept_refs() {
    let schema = json!({
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
        "$ref": "#/$defs/node"
    });
    let mut s = schema.clone();
    let err = dereference(&mut s, &Resources::new(), &Options::default()).expect_err("cycle");
    assert_eq!(err.kind(), ErrorKind::Cycle);
    assert_eq!(err.pointer(), "/properties/next");

    let mut s = schema.clone();
    dereference(
        &mut s,
        &Resources::new(),
        &Options::default().with_cycles(Cycles::KeepRefs),
    )
    .expect("kept");
    assert_eq!(
        s,
        json!({
            "type": "object",
            "properties": {"next": {"$ref": "#/$defs/node"}},
            "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}
        })
    );
}

#[test]
fn registered_resources_resolve_and_nothing_else_does() {
    let resources = Resources::new().with(
        "https://ex.test/defs.json",
        json!({"$defs": {"id": {"type": "integer", "minimum": 1}}}),
    );
    let mut s = json!({"$ref": "https://ex.test/defs.json#/$defs/id"});
    dereference(&mut s, &resources, &Options::default()).expect("resolves");
    assert_eq!(s, json!({"type": "integer", "minimum": 1}));

    let mut s = json!({"$ref": "https://ex.test/other.json"});
    let err = dereference(&mut s, &resources, &Options::default()).expect_err("not registered");
    assert_eq!(err.kind(), ErrorKind::External);
    assert_eq!(err.pointer(), "");
}

#[test]
fn relative_references_follow_base_uri_changes() {
    let mut s = json!({
        "$id": "https://ex.test/a/root.json",
        "properties": {
            "x": {"$id": "sub/", "properties": {"y": {"$ref": "leaf.json"}}}
        },
        "$defs": {"leaf": {"$id": "https://ex.test/a/sub/leaf.json", "type": "boolean"}}
    });
    dereference(&mut s, &Resources::new(), &Options::default()).expect("resolves");
    assert_eq!(
        s,
        json!({"properties": {"x": {"properties": {"y": {"type": "boolean"}}}}})
    );
}

#[test]
fn upgrades_can_be_switched_off() {
    let schema =
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"]}});
    let mut s = schema.clone();
    dereference(
        &mut s,
        &Resources::new(),
        &Options::default().with_upgrades(Upgrades::NONE),
    )
    .expect("ok");
    assert_eq!(s, schema);
    let mut s = schema.clone();
    dereference(&mut s, &Resources::new(), &Options::default()).expect("ok");
    assert_eq!(
        s,
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "dependentRequired": {"a": ["b"]}})
    );
}

#[test]
fn upgrade_touches_only_schema_positions() {
    let mut s = json!({
        "properties": {
            "n": {"type": "number", "maximum": 5, "exclusiveMaximum": true, "minimum": 1, "exclusiveMinimum": false},
            "d": {"default": {"dependencies": {"a": ["b"]}}, "enum": [{"items": [1]}]}
        }
    });
    upgrade(&mut s, Draft::Draft4).expect("upgrades");
    assert_eq!(
        s,
        json!({
            "properties": {
                "n": {"type": "number", "exclusiveMaximum": 5, "minimum": 1},
                "d": {"default": {"dependencies": {"a": ["b"]}}, "enum": [{"items": [1]}]}
            }
        })
    );
    let mut bad = json!({"dependencies": ["a"]});
    assert_eq!(
        upgrade(&mut bad, Draft::Draft7)
            .expect_err("not an object")
            .kind(),
        ErrorKind::InvalidSchema
    );
}

#[test]
fn draft04_id_is_an_identifier() {
    let mut s = json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "id": "https://ex.test/four.json",
        "properties": {"p": {"$ref": "other.json"}},
        "definitions": {"o": {"id": "other.json", "type": "string"}}
    });
    dereference(&mut s, &Resources::new(), &Options::default()).expect("resolves through id");
    assert_eq!(
        s,
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"p": {"type": "string"}}})
    );
}

#[test]
fn bundle_copies_remote_resources_and_keeps_local_references() {
    let resources = Resources::new()
        .with(
            "https://ex.test/a.json",
            json!({"type": "object", "properties": {"b": {"$ref": "b.json"}}}),
        )
        .with("https://ex.test/b.json", json!({"type": "string"}));
    let mut s = json!({
        "properties": {"one": {"$ref": "https://ex.test/a.json"}, "two": {"$ref": "#/$defs/local"}},
        "$defs": {"local": {"type": "null"}, "a": {"const": 1}}
    });
    bundle(&mut s, &resources, &Options::default()).expect("bundles");
    assert_eq!(
        s,
        json!({
            "properties": {"one": {"$ref": "#/$defs/a_2"}, "two": {"$ref": "#/$defs/local"}},
            "$defs": {
                "local": {"type": "null"},
                "a": {"const": 1},
                "a_2": {"type": "object", "properties": {"b": {"$ref": "b.json"}}, "$id": "https://ex.test/a.json"},
                "b": {"type": "string", "$id": "https://ex.test/b.json"}
            }
        })
    );
}

#[test]
fn registry_lookups() {
    let doc = json!({
        "$id": "https://ex.test/r.json",
        "$defs": {"x": {"$anchor": "X", "$id": "x.json", "items": {"$dynamicAnchor": "D"}}}
    });
    let resources = Resources::new();
    let registry = Registry::new(&doc, &resources).expect("indexes");
    assert_eq!(
        &*registry
            .lookup("https://ex.test/x.json")
            .expect("resource")
            .base,
        "https://ex.test/x.json"
    );
    assert!(registry.lookup("https://ex.test/x.json#X").is_ok());
    assert!(registry.lookup("https://ex.test/x.json#D").is_ok());
    assert_eq!(
        registry
            .lookup("https://ex.test/r.json#X")
            .expect_err("wrong base")
            .kind(),
        ErrorKind::Unresolved
    );
    assert_eq!(
        registry
            .lookup("https://ex.test/r.json#/$defs/x/items")
            .expect("pointer")
            .value,
        &json!({"$dynamicAnchor": "D"})
    );
    assert_eq!(
        registry
            .lookup("https://ex.test/none.json")
            .expect_err("absent")
            .kind(),
        ErrorKind::External
    );
    assert_eq!(
        registry
            .lookup("https://ex.test/r.json#%")
            .expect_err("bad escape")
            .kind(),
        ErrorKind::InvalidRef
    );
}

#[test]
fn invalid_identifiers_are_uri_errors() {
    let mut s = json!({"$id": "http://[::1", "type": "string"});
    let err = dereference(&mut s, &Resources::new(), &Options::default()).expect_err("bad id");
    assert_eq!(err.kind(), ErrorKind::InvalidUri);
}

#[test]
fn budgets_bound_resolution() {
    let mut s = json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
    let tight = Options::default().with_budget(Budget::default().with_max_nodes(2));
    assert_eq!(
        dereference(&mut s, &Resources::new(), &tight)
            .expect_err("nodes")
            .kind(),
        ErrorKind::Budget
    );
}

/// The registry's scan counts schemas, not literals, and registers identifiers only where a schema keyword stands:
/// the lean look that spares most documents the scan must give the scan's answer on both sides of it.
#[test]
fn registry_budgets_and_identifiers_are_the_scans() {
    use llmshim_core::FallbackKind;
    let resources = Resources::new();
    // Over the node budget: the failure names the first schema past it, as the scan reaches it.
    let doc = json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}}});
    let tight = Budget::default().with_max_nodes(2);
    let err = Registry::with_budget(&doc, &resources, &tight).expect_err("nodes");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::BudgetNodes, "/properties/b")
    );
    // Too deep for the depth budget.
    let deep = json!({"items": {"items": {"items": {"type": "string"}}}});
    let shallow = Budget::default().with_max_depth(2);
    let err = Registry::with_budget(&deep, &resources, &shallow).expect_err("depth");
    assert_eq!(
        (err.kind, err.pointer.as_str()),
        (FallbackKind::BudgetDepth, "/items/items/items")
    );
    // Many values, few schemas: literals are not counted, so the same tight budget passes.
    let literals =
        json!({"type": "string", "enum": ["a", "b", "c", "d"], "default": {"x": [1, 2, 3]}});
    assert!(
        Registry::with_budget(&literals, &resources, &Budget::default().with_max_nodes(1)).is_ok()
    );
    // An identifier-looking key inside a literal or a property name registers nothing; a real one does.
    let quoted = json!({"properties": {"$id": {"const": {"$id": "https://ex.test/q.json"}}}});
    let registry = Registry::with_budget(&quoted, &resources, &Budget::default()).expect("indexes");
    assert!(registry.lookup("https://ex.test/q.json").is_err());
    let real = json!({"properties": {"a": {"$id": "https://ex.test/a.json", "$anchor": "A"}}});
    let registry = Registry::with_budget(&real, &resources, &Budget::default()).expect("indexes");
    assert!(registry.lookup("https://ex.test/a.json").is_ok());
    assert!(registry.lookup("https://ex.test/a.json#A").is_ok());
    // Draft-04 `id` is an identifier, and a plain `id` property of a later draft is not.
    let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "properties": {"a": {"id": "https://ex.test/d4.json"}}});
    let registry = Registry::with_budget(&draft4, &resources, &Budget::default()).expect("indexes");
    assert!(registry.lookup("https://ex.test/d4.json").is_ok());
    let later = json!({"properties": {"a": {"id": "https://ex.test/d4.json"}}});
    let registry = Registry::with_budget(&later, &resources, &Budget::default()).expect("indexes");
    assert!(registry.lookup("https://ex.test/d4.json").is_err());
}
