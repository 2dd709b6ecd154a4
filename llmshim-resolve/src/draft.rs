//! Draft detection from `$schema`.

use serde_json::Value;

/// A JSON Schema draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Draft {
    /// Draft 2020-12, also assumed for an absent or unknown `$schema`.
    #[default]
    Draft202012,
    /// Draft 2019-09.
    Draft201909,
    /// Draft-07.
    Draft7,
    /// Draft-06.
    Draft6,
    /// Draft-04.
    Draft4,
    /// Draft-03.
    Draft3,
}

impl Draft {
    /// The draft named by the root `$schema` of `document`; 2020-12 when absent or unknown.
    ///
    /// ```
    /// use llmshim_resolve::Draft;
    /// use serde_json::json;
    ///
    /// assert_eq!(Draft::detect(&json!({"$schema": "http://json-schema.org/draft-07/schema#"})), Draft::Draft7);
    /// assert_eq!(Draft::detect(&json!({"$schema": "https://json-schema.org/draft-04/schema"})), Draft::Draft4);
    /// assert_eq!(Draft::detect(&json!({"type": "string"})), Draft::Draft202012);
    /// ```
    pub fn detect(document: &Value) -> Draft {
        document
            .get("$schema")
            .and_then(Value::as_str)
            .and_then(Draft::from_uri)
            .unwrap_or_default()
    }

    /// The draft a dialect URI names, compared after removing one trailing `#` and with `http` and `https` alike.
    pub fn from_uri(uri: &str) -> Option<Draft> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let rest = uri
            .strip_prefix("https://")
            .or_else(|| uri.strip_prefix("http://"))?;
        match rest {
            "json-schema.org/draft/2020-12/schema" => Some(Draft::Draft202012),
            "json-schema.org/draft/2019-09/schema" => Some(Draft::Draft201909),
            "json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            "json-schema.org/draft-06/schema" => Some(Draft::Draft6),
            "json-schema.org/draft-04/schema" => Some(Draft::Draft4),
            "json-schema.org/draft-03/schema" => Some(Draft::Draft3),
            _ => None,
        }
    }

    /// Whether this draft spells identifiers `id` instead of `$id`.
    pub const fn uses_plain_id(self) -> bool {
        matches!(self, Draft::Draft4 | Draft::Draft3)
    }

    /// The canonical dialect URI of the draft.
    pub const fn uri(self) -> &'static str {
        match self {
            Draft::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
            Draft::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Draft::Draft7 => "http://json-schema.org/draft-07/schema#",
            Draft::Draft6 => "http://json-schema.org/draft-06/schema#",
            Draft::Draft4 => "http://json-schema.org/draft-04/schema#",
            Draft::Draft3 => "http://json-schema.org/draft-03/schema#",
        }
    }
}
