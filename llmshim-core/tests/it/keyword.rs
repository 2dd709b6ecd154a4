//! The keyword vocabulary: classes, walk order, snake-case pairs and the lift list.

use llmshim_core::keyword::{LIFTABLE, SNAKE_CASE, TYPE_NAMES, class_of, is_liftable};
use llmshim_core::{Keyword, KeywordClass};

#[test]
fn every_key_has_the_contract_class() {
    for key in ["properties", "patternProperties", "dependentSchemas"] {
        assert_eq!(class_of(key), KeywordClass::MapChildren, "{key}");
    }
    for key in [
        "items",
        "contains",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
    ] {
        assert_eq!(class_of(key), KeywordClass::SingleChild, "{key}");
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        assert_eq!(class_of(key), KeywordClass::ArrayChildren, "{key}");
    }
    for key in ["$defs", "definitions"] {
        assert_eq!(class_of(key), KeywordClass::Definitions, "{key}");
    }
    for key in [
        "default",
        "examples",
        "enum",
        "const",
        "required",
        "description",
        "title",
        "format",
        "pattern",
        "minimum",
        "$ref",
        "x-anything",
        "unknown",
        "any_of",
        "prefix_items",
        "dependencies",
        "additionalItems",
        "Properties",
        "",
    ] {
        assert_eq!(class_of(key), KeywordClass::Literal, "{key}");
    }
}

#[test]
fn walk_order_is_map_then_single_then_array_children() {
    let names: Vec<&str> = Keyword::WALK_ORDER.iter().map(|k| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "properties",
            "patternProperties",
            "dependentSchemas",
            "items",
            "contains",
            "additionalProperties",
            "unevaluatedProperties",
            "unevaluatedItems",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
            "anyOf",
            "oneOf",
            "allOf",
            "prefixItems"
        ]
    );
    for keyword in Keyword::WALK_ORDER {
        assert_eq!(Keyword::from_name(keyword.as_str()), Some(keyword));
        assert_eq!(class_of(keyword.as_str()), keyword.class());
    }
    assert_eq!(Keyword::from_name("$defs"), None);
    assert_eq!(Keyword::from_name("any_of"), None);
    for key in llmshim_core::keyword::DEFINITIONS {
        assert_eq!(class_of(key), KeywordClass::Definitions);
    }
}

#[test]
fn only_seven_keywords_clear_the_instance_flag() {
    let clearing: Vec<&str> = Keyword::WALK_ORDER
        .into_iter()
        .filter(|k| !k.keeps_instance_position())
        .map(Keyword::as_str)
        .collect();
    assert_eq!(
        clearing,
        [
            "dependentSchemas",
            "contains",
            "propertyNames",
            "not",
            "if",
            "then",
            "else"
        ]
    );
}

#[test]
fn the_fourteen_snake_case_pairs_in_order() {
    assert_eq!(
        SNAKE_CASE,
        [
            ("any_of", "anyOf"),
            ("one_of", "oneOf"),
            ("all_of", "allOf"),
            ("additional_properties", "additionalProperties"),
            ("pattern_properties", "patternProperties"),
            ("property_ordering", "propertyOrdering"),
            ("min_items", "minItems"),
            ("max_items", "maxItems"),
            ("min_length", "minLength"),
            ("max_length", "maxLength"),
            ("min_properties", "minProperties"),
            ("max_properties", "maxProperties"),
            ("exclusive_minimum", "exclusiveMinimum"),
            ("exclusive_maximum", "exclusiveMaximum"),
        ]
    );
}

#[test]
fn the_lift_list_is_the_contract_list() {
    assert_eq!(
        LIFTABLE,
        [
            "default",
            "examples",
            "pattern",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "uniqueItems",
            "enum",
            "const",
            "contentEncoding",
            "contentMediaType",
            "if",
            "then",
            "else",
            "not",
            "dependentRequired",
            "dependentSchemas",
            "patternProperties",
            "propertyNames",
            "contains",
            "minContains",
            "maxContains",
            "readOnly",
            "writeOnly",
        ]
    );
    for key in LIFTABLE {
        assert!(is_liftable(key), "{key}");
    }
    for key in [
        "additionalProperties",
        "prefixItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "$dynamicRef",
        "$dynamicAnchor",
        "nullable",
        "deprecated",
        "propertyOrdering",
        "x-ui",
        "unknown",
        "type",
        "description",
    ] {
        assert!(!is_liftable(key), "{key}");
    }
}

#[test]
fn the_seven_type_names() {
    assert_eq!(
        TYPE_NAMES,
        [
            "null", "boolean", "object", "array", "number", "integer", "string"
        ]
    );
}
