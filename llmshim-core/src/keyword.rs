//! The keyword vocabulary: which keys of a schema object hold subschemas and which hold data.

use serde_json::Value;

/// How the walker treats the value of a key in a schema object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeywordClass {
    /// Each member value is a schema; member names are data (`properties`, `patternProperties`, `dependentSchemas`).
    MapChildren,
    /// The value is one schema (`items`, `not`, `additionalProperties`, ...).
    SingleChild,
    /// Each element is a schema and the array must be non-empty (`anyOf`, `oneOf`, `allOf`, `prefixItems`).
    ArrayChildren,
    /// `$defs` and `definitions`: read by the registry, never walked as children.
    Definitions,
    /// Every other key: the value is data and is never entered.
    Literal,
}

/// The keywords whose values hold subschemas, in the order the walker visits them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keyword {
    /// `properties`.
    Properties,
    /// `patternProperties`.
    PatternProperties,
    /// `dependentSchemas`.
    DependentSchemas,
    /// `items`.
    Items,
    /// `contains`.
    Contains,
    /// `additionalProperties`.
    AdditionalProperties,
    /// `unevaluatedProperties`.
    UnevaluatedProperties,
    /// `unevaluatedItems`.
    UnevaluatedItems,
    /// `propertyNames`.
    PropertyNames,
    /// `not`.
    Not,
    /// `if`.
    If,
    /// `then`.
    Then,
    /// `else`.
    Else,
    /// `anyOf`.
    AnyOf,
    /// `oneOf`.
    OneOf,
    /// `allOf`.
    AllOf,
    /// `prefixItems`.
    PrefixItems,
}

impl Keyword {
    /// Every child keyword in walk order: map children, single children in the contract's order, array children.
    pub const WALK_ORDER: [Keyword; 17] = [
        Keyword::Properties,
        Keyword::PatternProperties,
        Keyword::DependentSchemas,
        Keyword::Items,
        Keyword::Contains,
        Keyword::AdditionalProperties,
        Keyword::UnevaluatedProperties,
        Keyword::UnevaluatedItems,
        Keyword::PropertyNames,
        Keyword::Not,
        Keyword::If,
        Keyword::Then,
        Keyword::Else,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::AllOf,
        Keyword::PrefixItems,
    ];

    /// The keyword's spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Keyword::Properties => "properties",
            Keyword::PatternProperties => "patternProperties",
            Keyword::DependentSchemas => "dependentSchemas",
            Keyword::Items => "items",
            Keyword::Contains => "contains",
            Keyword::AdditionalProperties => "additionalProperties",
            Keyword::UnevaluatedProperties => "unevaluatedProperties",
            Keyword::UnevaluatedItems => "unevaluatedItems",
            Keyword::PropertyNames => "propertyNames",
            Keyword::Not => "not",
            Keyword::If => "if",
            Keyword::Then => "then",
            Keyword::Else => "else",
            Keyword::AnyOf => "anyOf",
            Keyword::OneOf => "oneOf",
            Keyword::AllOf => "allOf",
            Keyword::PrefixItems => "prefixItems",
        }
    }

    /// The keywords of `class`, in walk order (none for [`KeywordClass::Definitions`] and
    /// [`KeywordClass::Literal`]: see [`DEFINITIONS`]).
    ///
    /// ```
    /// use llmshim_core::{Keyword, KeywordClass};
    ///
    /// let lists: Vec<_> = Keyword::of_class(KeywordClass::ArrayChildren).map(Keyword::as_str).collect();
    /// assert_eq!(lists, ["anyOf", "oneOf", "allOf", "prefixItems"]);
    /// ```
    pub fn of_class(class: KeywordClass) -> impl Iterator<Item = Keyword> {
        Keyword::WALK_ORDER
            .into_iter()
            .filter(move |k| k.class() == class)
    }

    /// The keyword spelled `name`, if it holds subschemas.
    pub fn from_name(name: &str) -> Option<Keyword> {
        // A `match` on the spelling, which the compiler turns into a switch on the length and one comparison,
        // instead of comparing with each of the 17 spellings: every key of every node goes through here.
        Some(match name {
            "properties" => Keyword::Properties,
            "patternProperties" => Keyword::PatternProperties,
            "dependentSchemas" => Keyword::DependentSchemas,
            "items" => Keyword::Items,
            "contains" => Keyword::Contains,
            "additionalProperties" => Keyword::AdditionalProperties,
            "unevaluatedProperties" => Keyword::UnevaluatedProperties,
            "unevaluatedItems" => Keyword::UnevaluatedItems,
            "propertyNames" => Keyword::PropertyNames,
            "not" => Keyword::Not,
            "if" => Keyword::If,
            "then" => Keyword::Then,
            "else" => Keyword::Else,
            "anyOf" => Keyword::AnyOf,
            "oneOf" => Keyword::OneOf,
            "allOf" => Keyword::AllOf,
            "prefixItems" => Keyword::PrefixItems,
            _ => return None,
        })
    }

    /// The class of this keyword.
    pub const fn class(self) -> KeywordClass {
        match self {
            Keyword::Properties | Keyword::PatternProperties | Keyword::DependentSchemas => {
                KeywordClass::MapChildren
            }
            Keyword::AnyOf | Keyword::OneOf | Keyword::AllOf | Keyword::PrefixItems => {
                KeywordClass::ArrayChildren
            }
            _ => KeywordClass::SingleChild,
        }
    }

    /// Whether a child under this keyword keeps the parent's instance-describing flag.
    pub const fn keeps_instance_position(self) -> bool {
        !matches!(
            self,
            Keyword::Not
                | Keyword::If
                | Keyword::Then
                | Keyword::Else
                | Keyword::Contains
                | Keyword::PropertyNames
                | Keyword::DependentSchemas
        )
    }
}

/// The class of any key of a schema object.
///
/// ```
/// use llmshim_core::{KeywordClass, keyword::class_of};
///
/// assert_eq!(class_of("properties"), KeywordClass::MapChildren);
/// assert_eq!(class_of("$defs"), KeywordClass::Definitions);
/// assert_eq!(class_of("any_of"), KeywordClass::Literal);
/// assert_eq!(class_of("default"), KeywordClass::Literal);
/// ```
pub fn class_of(key: &str) -> KeywordClass {
    match key {
        "$defs" | "definitions" => KeywordClass::Definitions,
        _ => Keyword::from_name(key).map_or(KeywordClass::Literal, Keyword::class),
    }
}

/// The keys of [`KeywordClass::Definitions`]: maps of named schemas that the registry reads.
pub const DEFINITIONS: [&str; 2] = ["$defs", "definitions"];

/// The 14 snake-case spellings renamed by the walker, in renaming order.
pub const SNAKE_CASE: [(&str, &str); 14] = [
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
];

/// The keys that say something about a node without constraining its value: a node holding only these accepts any
/// value (`walk.narrow-any` types such a node where the target needs a type).
pub const ANNOTATIONS: [&str; 8] = [
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Whether every key of `map` is one of [`ANNOTATIONS`], so that the schema accepts any value (an empty map too).
pub fn annotations_only(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    map.keys().all(|k| ANNOTATIONS.contains(&k.as_str()))
}

/// The type name of a primitive literal, as `walk.infer-type` reads a `const` or an `enum` element: `integer` for a
/// number written without a fraction or exponent; `None` for objects and arrays, which name no type.
///
/// ```
/// use llmshim_core::keyword::literal_type;
/// use serde_json::json;
///
/// assert_eq!(literal_type(&json!(3)), Some("integer"));
/// assert_eq!(literal_type(&json!(3.5)), Some("number"));
/// assert_eq!(literal_type(&json!([1])), None);
/// ```
pub fn literal_type(value: &Value) -> Option<&'static str> {
    match value {
        Value::Null => Some("null"),
        Value::Bool(_) => Some("boolean"),
        Value::String(_) => Some("string"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// The keywords that stripping lifts into descriptions instead of dropping.
pub const LIFTABLE: [&str; 33] = [
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
];

/// Whether stripping `key` lifts it into the description.
pub fn is_liftable(key: &str) -> bool {
    LIFTABLE.contains(&key)
}

/// The keys a schema object may keep under strict: what OpenAI Structured Outputs and Anthropic strict tools
/// accept on every node, in a fixed order. The strict keep-list pass strips every other key, and the structural check
/// under strict fails on any other key.
pub const STRICT_KEEP: [&str; 13] = [
    "type",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "allOf",
    "oneOf",
    "enum",
    "const",
    "$schema",
];

/// The seven JSON Schema type names.
pub const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "integer", "string",
];
