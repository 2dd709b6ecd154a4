//! A batch line's `env` member: variable values for that line only, over the process values.

use llmshim::schema::EnvFlags;
use llmshim::schema::env::{NO_SCHEMA_CACHE, NO_SCHEMA_NORMALIZATION, NO_STRICT, flag_value};
use serde_json::{Map, Value};

/// The flags of a line whose `env` is `map`, starting from `process`.
///
/// Strings are used as they are, numbers and booleans as their compact JSON text, and `null` unsets the
/// variable; only the three `LLMSHIM_*` flags have an effect, other names are accepted and ignored.
///
/// # Errors
///
/// A message when a value is an array or an object, which no environment variable can hold.
///
/// ```
/// use llmshim::schema::EnvFlags;
/// use llmshim_cli::batch::env::line_flags;
/// use serde_json::json;
///
/// let process = EnvFlags::default().with_no_schema_cache(true);
/// let env = json!({"LLMSHIM_NO_STRICT": 1, "LLMSHIM_NO_SCHEMA_CACHE": null, "HOME": "/tmp"});
/// let flags = line_flags(process, env.as_object().unwrap()).unwrap();
/// assert_eq!(flags, EnvFlags::default().with_no_strict(true));
/// ```
pub fn line_flags(process: EnvFlags, map: &Map<String, Value>) -> Result<EnvFlags, String> {
    let mut flags = process;
    for (name, value) in map {
        let text = match value {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            Value::Bool(_) | Value::Number(_) => Some(value.to_string()),
            Value::Array(_) | Value::Object(_) => {
                return Err(format!(
                    "env value of {name:?} must be a string, number, boolean or null"
                ));
            }
        };
        let on = flag_value(text.as_deref());
        match name.as_str() {
            NO_SCHEMA_NORMALIZATION => flags = flags.with_no_schema_normalization(on),
            NO_STRICT => flags = flags.with_no_strict(on),
            NO_SCHEMA_CACHE => flags = flags.with_no_schema_cache(on),
            _ => {}
        }
    }
    Ok(flags)
}
