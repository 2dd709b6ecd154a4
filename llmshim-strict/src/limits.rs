//! The OpenAI strict limits, measured on a finished schema.

use llmshim_core::rules::OpenAiLimits;
use llmshim_core::{FallbackKind, FallbackReason, json};
use serde_json::{Map, Value};

use llmshim_core::children::children;
use llmshim_core::defs::definitions;

/// Checks `schema` against the OpenAI strict `limits`, counting every inlined copy.
///
/// | limit | counted as |
/// |---|---|
/// | object properties | keys of all `properties` maps |
/// | nesting | the root object is level 1; a node whose `type` is `"object"` or `"array"` (or a type array holding either) is one level below its nearest such ancestor; other nodes add nothing |
/// | enum values | the sum of the lengths of all `enum` arrays |
/// | string size | UTF-8 bytes of every property name, `enum` value and `const` value (strings by content, other values by compact JSON) |
/// | large string enum | one `enum` with more than `large_enum_values` values whose string values exceed `large_enum_bytes` bytes |
///
/// Every schema position is measured (map-child members, single children, array-child entries), iteratively, and
/// each member of the root's `$defs` (the home of kept references) once, as a root of its own.
///
/// # Errors
///
/// The first limit exceeded, in the table's order, as a `provider_limit` reason at pointer `""` whose message
/// names the limit and the measured value.
///
/// ```
/// use llmshim_core::FallbackKind;
/// use llmshim_core::rules::OpenAiLimits;
/// use llmshim_strict::fits;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"level": {"type": "string", "enum": ["a", "b"]}}});
/// assert_eq!(fits(&schema, &OpenAiLimits::OPENAI), Ok(()));
///
/// let mut deep = json!({"type": "string"});
/// for _ in 0..11 {
///     deep = json!({"type": "array", "items": deep});
/// }
/// let reason = fits(&deep, &OpenAiLimits::OPENAI).unwrap_err();
/// assert_eq!((reason.kind, reason.pointer.as_str()), (FallbackKind::ProviderLimit, ""));
/// assert_eq!(reason.message, "nesting of 11 levels exceeds the limit of 10");
/// ```
pub fn fits(schema: &Value, limits: &OpenAiLimits) -> Result<(), FallbackReason> {
    LimitCounts::of(schema, limits).check(limits)
}

/// What the OpenAI strict limits bound, counted one schema object at a time: [`fits`] counts every node of a
/// schema with [`LimitCounts::node`] and then [`LimitCounts::check`]s the counts, and a caller that visits a schema's
/// nodes itself may do the same without a second walk.
///
/// ```
/// use llmshim_core::rules::OpenAiLimits;
/// use llmshim_strict::LimitCounts;
/// use serde_json::json;
///
/// let limits = OpenAiLimits::unlimited().with_max_nesting(1);
/// let mut counts = LimitCounts::default();
/// // A root object (level 1) and an array inside it (level 2).
/// let level = counts.node(Some(&json!("object")), None, None, None, 0, &limits);
/// counts.node(Some(&json!("array")), None, None, None, level, &limits);
/// let reason = counts.check(&limits).unwrap_err();
/// assert_eq!(reason.message, "nesting of 2 levels exceeds the limit of 1");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitCounts {
    properties: usize,
    nesting: usize,
    enum_values: usize,
    string_bytes: usize,
    /// The first large enum over its byte limit: its value count and string bytes.
    large_enum: Option<(usize, usize)>,
}

impl LimitCounts {
    /// The counts of every node of `schema`, and of each member of its root's `$defs` as a root of its own.
    fn of(schema: &Value, limits: &OpenAiLimits) -> Self {
        let mut counts = LimitCounts::default();
        // Each entry carries the level of its nearest object or array ancestor (0 above the root).
        let mut stack: Vec<(&Value, usize)> =
            definitions(schema).map(|member| (member, 0usize)).collect();
        stack.reverse();
        stack.push((schema, 0usize));
        // The children of one node, in order, before they go onto the stack reversed (reused across nodes).
        let mut below: Vec<&Value> = Vec::new();
        while let Some((value, above)) = stack.pop() {
            let Value::Object(map) = value else {
                continue;
            };
            // The four keywords counted, found in one pass over the keys instead of four hashed lookups.
            let (mut ty, mut properties, mut values, mut constant) = (None, None, None, None);
            for (key, member) in map {
                match key.as_str() {
                    "type" => ty = Some(member),
                    "properties" => properties = member.as_object(),
                    "enum" => values = member.as_array().map(Vec::as_slice),
                    "const" => constant = Some(member),
                    _ => {}
                }
            }
            let level = counts.node(ty, properties, values, constant, above, limits);
            below.extend(children(map).map(|child| child.value));
            stack.extend(below.drain(..).rev().map(|child| (child, level)));
        }
        counts
    }

    /// Counts one schema object from its `type`, its `properties` (when an object), its `enum` (when an array) and
    /// its `const`, `above` being the level of its nearest object or array ancestor (0 for a root); returns the
    /// node's own level, the `above` of its children.
    pub fn node(
        &mut self,
        ty: Option<&Value>,
        properties: Option<&Map<String, Value>>,
        values: Option<&[Value]>,
        constant: Option<&Value>,
        above: usize,
        limits: &OpenAiLimits,
    ) -> usize {
        let level = if nests(ty) {
            above.saturating_add(1)
        } else {
            above
        };
        self.nesting = self.nesting.max(level);
        if let Some(properties) = properties {
            self.properties = self.properties.saturating_add(properties.len());
            for name in properties.keys() {
                self.string_bytes = self.string_bytes.saturating_add(name.len());
            }
        }
        if let Some(values) = values {
            self.enum_values = self.enum_values.saturating_add(values.len());
            let mut strings = 0usize;
            for v in values {
                self.string_bytes = self.string_bytes.saturating_add(value_bytes(v));
                if let Value::String(s) = v {
                    strings = strings.saturating_add(s.len());
                }
            }
            if self.large_enum.is_none()
                && values.len() > limits.large_enum_values
                && strings > limits.large_enum_bytes
            {
                self.large_enum = Some((values.len(), strings));
            }
        }
        if let Some(v) = constant {
            self.string_bytes = self.string_bytes.saturating_add(value_bytes(v));
        }
        level
    }

    /// Checks the counts against `limits`, as [`fits`] does.
    ///
    /// # Errors
    ///
    /// The first limit exceeded, in the order of [`fits`]'s table, as [`fits`] gives it.
    pub fn check(&self, limits: &OpenAiLimits) -> Result<(), FallbackReason> {
        let over = |message: String| {
            Err(FallbackReason::new(
                FallbackKind::ProviderLimit,
                "",
                message,
            ))
        };
        if self.properties > limits.max_properties {
            return over(format!(
                "{} object properties exceed the limit of {}",
                self.properties, limits.max_properties
            ));
        }
        if self.nesting > limits.max_nesting {
            return over(format!(
                "nesting of {} levels exceeds the limit of {}",
                self.nesting, limits.max_nesting
            ));
        }
        if self.enum_values > limits.max_enum_values {
            return over(format!(
                "{} enum values exceed the limit of {}",
                self.enum_values, limits.max_enum_values
            ));
        }
        if self.string_bytes > limits.max_string_bytes {
            return over(format!(
                "{} bytes of property names, enum and const values exceed the limit of {}",
                self.string_bytes, limits.max_string_bytes
            ));
        }
        if let Some((values, bytes)) = self.large_enum {
            return over(format!(
                "an enum of {values} values holds {bytes} bytes of strings, over the limit of {} for enums of more than {} values",
                limits.large_enum_bytes, limits.large_enum_values
            ));
        }
        Ok(())
    }
}

/// Whether a node with this `type` is an object or array level.
fn nests(ty: Option<&Value>) -> bool {
    match ty {
        Some(Value::String(t)) => t == "object" || t == "array",
        Some(Value::Array(names)) => names
            .iter()
            .any(|n| matches!(n.as_str(), Some("object" | "array"))),
        _ => false,
    }
}

/// The size of an `enum` or `const` value: a string by its content, anything else by its compact JSON.
fn value_bytes(value: &Value) -> usize {
    match value {
        Value::String(s) => s.len(),
        other => json::compact_len(other),
    }
}
