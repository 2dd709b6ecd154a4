//! Options set by their snake-case names (`Options::set`), as batch lines and Python keyword arguments give them.

use llmshim::schema::{
    Budget, Keywords, Nullable, OPTION_NAMES, OptionError, Options, Recursion, Target,
};
use serde_json::{Value, json};

#[test]
fn every_name_sets_its_field() {
    let values = [
        json!(true),
        json!("remove"),
        json!(true),
        json!(true),
        json!(true),
        json!(1),
        json!(2),
        json!(3),
        json!(true),
        json!(true),
        json!("conservative"),
        json!("unroll:2"),
    ];
    assert_eq!(values.len(), OPTION_NAMES.len());
    let mut options = Options::for_target(Target::Anthropic);
    for (name, value) in OPTION_NAMES.iter().zip(&values) {
        options
            .set(name, value)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let expected = Options::for_target(Target::Anthropic)
        .with_strict(true)
        .with_nullable(Nullable::Remove)
        .with_rewrite_one_of(true)
        .with_strip_lookarounds(true)
        .with_bypass(true)
        .with_budget(
            Budget::default()
                .with_max_depth(1)
                .with_max_nodes(2)
                .with_max_literal_bytes(3),
        )
        .with_diagnostics(true)
        .with_structured_output(true)
        .with_keywords(Keywords::Conservative)
        .with_recursion(Recursion::unroll(2));
    assert_eq!(options, expected);
}

#[test]
fn a_bad_value_names_what_the_option_takes_and_changes_nothing() {
    let cases: [(&str, Value, &str); 9] = [
        ("strict", json!("true"), "a boolean"),
        ("bypass", json!(1), "a boolean"),
        ("max_depth", json!(-3), "a non-negative integer"),
        ("max_nodes", json!(1.5), "a non-negative integer"),
        (
            "nullable",
            json!("never"),
            "\"preserve\", \"marker\" or \"remove\"",
        ),
        (
            "nullable",
            json!(true),
            "\"preserve\", \"marker\" or \"remove\"",
        ),
        (
            "keywords",
            json!("narrow"),
            "\"current\" or \"conservative\"",
        ),
        ("recursion", json!("unroll:0"), "\"unroll:<N>\" with N >= 1"),
        ("recursion", json!(true), "\"unroll:<N>\" with N >= 1"),
    ];
    for (name, value, expected) in cases {
        let mut options = Options::for_target(Target::Google);
        let Err(error) = options.set(name, &value) else {
            panic!("{name}: {value} was accepted");
        };
        assert!(
            matches!(&error, OptionError::BadValue { name: n, .. } if n == name),
            "{name}: {error:?}"
        );
        let text = error.to_string();
        assert!(
            text.starts_with(&format!("option {name:?} must be ")),
            "{text}"
        );
        assert!(text.contains(expected), "{name}: {text}");
        assert_eq!(options, Options::for_target(Target::Google), "{name}");
    }
}

#[test]
fn an_unknown_name_lists_the_names() {
    let mut options = Options::for_target(Target::Mcp);
    for name in ["maxDepth", "target", ""] {
        let Err(error) = options.set(name, &json!(1)) else {
            panic!("{name:?} was accepted");
        };
        assert_eq!(
            error,
            OptionError::UnknownName {
                name: name.to_owned()
            }
        );
        assert!(error.to_string().contains(&OPTION_NAMES.join(", ")));
    }
    assert_eq!(options, Options::for_target(Target::Mcp));
}

#[test]
fn texts_match_in_any_ascii_case_except_recursion_modes() {
    let mut options = Options::for_target(Target::OpenAiChat);
    options.set("nullable", &json!("MaRkEr")).expect("accepted");
    options
        .set("keywords", &json!("CONSERVATIVE"))
        .expect("accepted");
    assert_eq!(options.nullable, Nullable::Marker);
    assert_eq!(options.keywords, Keywords::Conservative);
    assert!(options.set("recursion", &json!("Unroll")).is_err());
    options
        .set("recursion", &json!("keep-refs:optional-only"))
        .expect("accepted");
    assert_eq!(
        options.recursion,
        Some(Recursion::KeepRefs {
            optional_only: true
        })
    );
}
