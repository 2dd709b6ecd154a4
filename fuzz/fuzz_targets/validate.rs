//! Fuzz target `validate`: `validate::compile` returns on any JSON, and a compiled validator returns on any instance
//! with a verdict that agrees with its error list.
//!
//! The input is two JSON documents one after the other, the schema and then the instance (`null` when absent).
#![no_main]

use libfuzzer_sys::fuzz_target;
use llmshim::schema::validate;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let mut stream = serde_json::Deserializer::from_slice(data).into_iter::<Value>();
    let Some(Ok(schema)) = stream.next() else {
        return;
    };
    let instance = match stream.next() {
        Some(Ok(instance)) => instance,
        Some(Err(_)) => return,
        None => Value::Null,
    };
    let Ok(validator) = validate::compile(&schema) else {
        return;
    };
    let errors = validate::errors(&validator, &instance);
    assert_eq!(
        validator.is_valid(&instance),
        errors.is_empty(),
        "is_valid and errors disagree: {errors:?}"
    );
    assert!(errors.len() <= validate::Options::DEFAULT_MAX_ERRORS);
    let mut restored = instance.clone();
    validate::restore_optional_omissions(&schema, &mut restored);
});
