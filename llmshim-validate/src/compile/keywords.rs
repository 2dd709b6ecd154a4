//! Compiling the keywords of one schema object, with the value checks and the draft rules.

use std::sync::Arc;

use llmshim_resolve::Draft;
use serde_json::{Map, Value};

use super::checks;
use super::{Compiler, Pending, Token};
use crate::error::Error;
use crate::format::Format;
use crate::node::{
    Bound, Dependency, Dynamic, Keyword, Name, NodeId, PatternEntries, TYPE_NAMES, Table, Tables,
    TypeNames, TypeSet,
};
use crate::regex::Pattern;

/// The members of a schema object that other keywords consult, found in one pass over its keys instead of one
/// hash lookup each.
#[derive(Default)]
pub(crate) struct Siblings<'a> {
    pub(crate) reference: Option<&'a Value>,
    pub(crate) id: Option<&'a Value>,
    pub(crate) schema: Option<&'a Value>,
    pub(crate) dynamic_anchor: Option<&'a Value>,
    pattern_properties: Option<&'a Value>,
    additional_properties: bool,
    then: Option<&'a Value>,
    otherwise: Option<&'a Value>,
    prefix_items: Option<&'a Value>,
    items: Option<&'a Value>,
    additional_items: Option<&'a Value>,
    min_contains: Option<&'a Value>,
    max_contains: Option<&'a Value>,
    content_encoding: Option<&'a Value>,
    content_media_type: Option<&'a Value>,
    exclusive_minimum: Option<&'a Value>,
    exclusive_maximum: Option<&'a Value>,
}

impl<'a> Siblings<'a> {
    pub(crate) fn of(map: &'a Map<String, Value>) -> Siblings<'a> {
        let mut s = Siblings::default();
        for (key, value) in map {
            let slot = match key.as_str() {
                "$ref" => &mut s.reference,
                "$id" => &mut s.id,
                "$schema" => &mut s.schema,
                "$dynamicAnchor" => &mut s.dynamic_anchor,
                "patternProperties" => &mut s.pattern_properties,
                "additionalProperties" => {
                    s.additional_properties = true;
                    continue;
                }
                "then" => &mut s.then,
                "else" => &mut s.otherwise,
                "prefixItems" => &mut s.prefix_items,
                "items" => &mut s.items,
                "additionalItems" => &mut s.additional_items,
                "minContains" => &mut s.min_contains,
                "maxContains" => &mut s.max_contains,
                "contentEncoding" => &mut s.content_encoding,
                "contentMediaType" => &mut s.content_media_type,
                "exclusiveMinimum" => &mut s.exclusive_minimum,
                "exclusiveMaximum" => &mut s.exclusive_maximum,
                _ => continue,
            };
            *slot = Some(value);
        }
        s
    }
}

fn tok(k: &str) -> Token<'_> {
    Token::Key(k)
}

/// The compiled keywords of `map` and whether it has `unevaluated*` keywords.
pub(super) fn compile<'a>(
    c: &mut Compiler<'a>,
    p: &Pending<'a>,
    map: &'a Map<String, Value>,
    siblings: &Siblings<'a>,
) -> Result<bool, Error> {
    let d = p.dialect;
    // The `Error::Invalid` of a failed check on the member `key`.
    let fail = |c: &Compiler<'a>, k: &str, message: String| c.invalid(p.loc, &[tok(k)], message);
    if !d.modern()
        && let Some(reference) = siblings.reference
    {
        // Before 2019-09, `$ref` overrides every sibling keyword.
        let reference = checks::string(reference).map_err(|m| fail(c, "$ref", m))?;
        let (target, _) = c.reference(p, reference, &[tok("$ref")])?;
        c.keywords.push(Keyword::Ref {
            key: Name::Ref,
            target,
            dynamic: Dynamic::Static,
        });
        return Ok(false);
    }
    let patterns = pattern_properties(c, p, siblings.pattern_properties)?;
    let mut tail = Vec::new();
    // The `properties` and `patternProperties` keywords and `additionalProperties` (by position in `out`), which
    // share their tables once the loop is done.
    let mut properties_at = None;
    let mut patterns_at = None;
    let mut additional_at = None;
    let mut property_table: Option<Table> = None;
    let mut required_at = None;
    let mut pattern_table: Option<PatternEntries> = None;
    let mut items_done = false;
    let mut content_done = false;
    let validation = d.validation;
    let draft7 = d.modern() || d.draft == Draft::Draft7;
    for (key, value) in map {
        match key.as_str() {
            "$ref" => {
                let reference = checks::string(value).map_err(|m| fail(c, key, m))?;
                let (target, _) = c.reference(p, reference, &[Token::Key(key)])?;
                c.keywords.push(Keyword::Ref {
                    key: Name::Ref,
                    target,
                    dynamic: Dynamic::Static,
                });
            }
            "$dynamicRef" if d.draft == Draft::Draft202012 => {
                let reference = checks::string(value).map_err(|m| fail(c, key, m))?;
                let (target, found) = c.reference(p, reference, &[Token::Key(key)])?;
                let fragment = reference.split_once('#').map_or("", |(_, f)| f);
                let anchored = !fragment.is_empty()
                    && !fragment.starts_with('/')
                    && found.get("$dynamicAnchor").and_then(Value::as_str) == Some(fragment);
                let dynamic = if anchored {
                    c.use_dynamic_anchor(fragment);
                    Dynamic::Anchor(fragment.into())
                } else {
                    Dynamic::Static
                };
                c.keywords.push(Keyword::Ref {
                    key: Name::DynamicRef,
                    target,
                    dynamic,
                });
            }
            "$recursiveRef" if d.draft == Draft::Draft201909 => {
                let reference = checks::string(value).map_err(|m| fail(c, key, m))?;
                let (target, found) = c.reference(p, reference, &[Token::Key(key)])?;
                let dynamic = if found.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
                    c.use_recursive_anchor();
                    Dynamic::Recursive
                } else {
                    Dynamic::Static
                };
                c.keywords.push(Keyword::Ref {
                    key: Name::RecursiveRef,
                    target,
                    dynamic,
                });
            }
            "$defs" | "definitions" => {
                let Value::Object(members) = value else {
                    return Err(fail(c, key, "must be an object of schemas".to_owned()));
                };
                for (name, member) in members {
                    c.subschema(member, p, &[Token::Key(key), Token::Key(name)])?;
                }
            }
            "$anchor" => checks::anchor(value).map_err(|m| fail(c, key, m))?,
            "$dynamicAnchor" if d.draft == Draft::Draft202012 => {
                checks::anchor(value).map_err(|m| fail(c, key, m))?;
            }
            "$id" if d.at_least_6() => {
                checks::string(value).map_err(|m| fail(c, key, m))?;
            }
            "contentEncoding" | "contentMediaType" => {
                checks::string(value).map_err(|m| fail(c, key, m))?;
                if d.draft == Draft::Draft7 && !content_done {
                    content_done = true;
                    let base64 =
                        siblings.content_encoding.and_then(Value::as_str) == Some("base64");
                    let json = siblings.content_media_type.and_then(Value::as_str)
                        == Some("application/json");
                    if base64 || json {
                        c.keywords.push(Keyword::Content { base64, json });
                    }
                }
            }
            "title" | "description" | "$comment" => {
                checks::string(value).map_err(|m| fail(c, key, m))?;
            }
            "format" => {
                let name = checks::string(value).map_err(|m| fail(c, key, m))?;
                if c.options().assert_formats
                    && let Some(format) = Format::from_name(name)
                {
                    c.keywords.push(Keyword::Format(format));
                }
            }
            "readOnly" | "writeOnly" | "deprecated" => {
                checks::boolean(value).map_err(|m| fail(c, key, m))?;
            }
            "examples" if !value.is_array() => {
                return Err(fail(c, key, "must be an array".to_owned()));
            }
            "type" if validation => c
                .keywords
                .push(type_keyword(value).map_err(|m| fail(c, key, m))?),
            "enum" if validation => match value {
                Value::Array(values) => c
                    .keywords
                    .push(Keyword::Enum(values.clone().into_boxed_slice())),
                _ => return Err(fail(c, key, "must be an array".to_owned())),
            },
            "const" if validation && d.at_least_6() => {
                c.keywords.push(Keyword::Const(Box::new(value.clone())));
            }
            "multipleOf" if validation => {
                let n = checks::number(value).map_err(|m| fail(c, key, m))?;
                if n.as_f64().is_none_or(|f| f <= 0.0) {
                    return Err(fail(c, key, "must be a number greater than 0".to_owned()));
                }
                c.keywords.push(Keyword::MultipleOf(n));
            }
            "minimum" | "maximum" if validation => {
                let n = checks::number(value).map_err(|m| fail(c, key, m))?;
                let minimum = key == "minimum";
                let sibling = if minimum {
                    siblings.exclusive_minimum
                } else {
                    siblings.exclusive_maximum
                };
                let exclusive = !d.at_least_6() && sibling == Some(&Value::Bool(true));
                let bound = Bound {
                    value: n,
                    key: if minimum {
                        Name::Minimum
                    } else {
                        Name::Maximum
                    },
                };
                c.keywords.push(match (minimum, exclusive) {
                    (true, false) => Keyword::Minimum(bound),
                    (true, true) => Keyword::ExclusiveMinimum(bound),
                    (false, false) => Keyword::Maximum(bound),
                    (false, true) => Keyword::ExclusiveMaximum(bound),
                });
            }
            "exclusiveMinimum" | "exclusiveMaximum" if validation => {
                if !d.at_least_6() && value.is_boolean() {
                    continue;
                }
                let n = checks::number(value).map_err(|m| fail(c, key, m))?;
                let minimum = key == "exclusiveMinimum";
                let bound = Bound {
                    value: n,
                    key: if minimum {
                        Name::ExclusiveMinimum
                    } else {
                        Name::ExclusiveMaximum
                    },
                };
                c.keywords.push(if minimum {
                    Keyword::ExclusiveMinimum(bound)
                } else {
                    Keyword::ExclusiveMaximum(bound)
                });
            }
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
            | "maxProperties"
                if validation =>
            {
                let n = checks::non_negative_integer(value).map_err(|m| fail(c, key, m))?;
                c.keywords.push(match key.as_str() {
                    "minLength" => Keyword::MinLength(n),
                    "maxLength" => Keyword::MaxLength(n),
                    "minItems" => Keyword::MinItems(n),
                    "maxItems" => Keyword::MaxItems(n),
                    "minProperties" => Keyword::MinProperties(n),
                    _ => Keyword::MaxProperties(n),
                });
            }
            "minContains" | "maxContains" if validation && d.modern() => {
                checks::non_negative_integer(value).map_err(|m| fail(c, key, m))?;
            }
            "pattern" if validation => {
                let source = checks::string(value).map_err(|m| fail(c, key, m))?;
                let pattern = c.pattern(source).map_err(|m| fail(c, key, m))?;
                c.keywords.push(Keyword::Pattern(pattern));
            }
            "uniqueItems" if validation => {
                let unique = checks::boolean(value).map_err(|m| fail(c, key, m))?;
                c.keywords.extend(unique.then_some(Keyword::UniqueItems));
            }
            "required" if validation => {
                // Draft-03 spelled `required` as a boolean on the property; it is read as draft-04 and ignored.
                if value.is_boolean() && !d.at_least_6() {
                    continue;
                }
                let names = checks::unique_strings(value).map_err(|m| fail(c, key, m))?;
                required_at = Some(c.keywords.len());
                c.keywords.push(Keyword::Required {
                    names,
                    fused: false,
                });
            }
            "dependentRequired" if validation && d.modern() => {
                let Value::Object(members) = value else {
                    return Err(fail(
                        c,
                        key,
                        "must be an object of string arrays".to_owned(),
                    ));
                };
                let mut entries = Vec::with_capacity(members.len());
                for (name, names) in members {
                    let names = checks::unique_strings(names)
                        .map_err(|m| c.invalid(p.loc, &[Token::Key(key), Token::Key(name)], m))?;
                    entries.push((name.as_str().into(), Dependency::Required(names)));
                }
                c.keywords.push(Keyword::Dependencies {
                    key: Name::DependentRequired,
                    entries: entries.into_boxed_slice(),
                });
            }
            "dependentSchemas" if d.modern() => {
                let Value::Object(members) = value else {
                    return Err(fail(c, key, "must be an object of schemas".to_owned()));
                };
                let mut entries = Vec::with_capacity(members.len());
                for (name, member) in members {
                    let node = c.subschema(member, p, &[Token::Key(key), Token::Key(name)])?;
                    entries.push((name.as_str().into(), Dependency::Schema(node)));
                }
                c.keywords.push(Keyword::Dependencies {
                    key: Name::DependentSchemas,
                    entries: entries.into_boxed_slice(),
                });
            }
            "dependencies" => {
                let Value::Object(members) = value else {
                    return Err(fail(c, key, "must be an object".to_owned()));
                };
                let mut entries = Vec::with_capacity(members.len());
                for (name, member) in members {
                    let dependency = if member.is_array() {
                        if !validation {
                            continue;
                        }
                        Dependency::Required(checks::unique_strings(member).map_err(|m| {
                            c.invalid(p.loc, &[Token::Key(key), Token::Key(name)], m)
                        })?)
                    } else {
                        Dependency::Schema(c.subschema(
                            member,
                            p,
                            &[Token::Key(key), Token::Key(name)],
                        )?)
                    };
                    entries.push((name.as_str().into(), dependency));
                }
                c.keywords.push(Keyword::Dependencies {
                    key: Name::Dependencies,
                    entries: entries.into_boxed_slice(),
                });
            }
            "allOf" | "anyOf" | "oneOf" => {
                let nodes = schema_array(c, p, key, value, true)?;
                c.keywords.push(match key.as_str() {
                    "allOf" => Keyword::AllOf {
                        nodes,
                        dispatch: crate::node::NONE,
                    },
                    "anyOf" => Keyword::AnyOf(nodes),
                    _ => Keyword::OneOf(nodes),
                });
            }
            "not" => {
                let node = c.subschema(value, p, &[Token::Key(key)])?;
                c.keywords.push(Keyword::Not(node));
            }
            "if" if draft7 => {
                let condition = c.subschema(value, p, &[Token::Key(key)])?;
                let then = siblings
                    .then
                    .map(|v| c.subschema(v, p, &[key_static("then")]))
                    .transpose()?;
                let otherwise = siblings
                    .otherwise
                    .map(|v| c.subschema(v, p, &[key_static("else")]))
                    .transpose()?;
                c.keywords.push(Keyword::If {
                    condition,
                    then,
                    otherwise,
                });
            }
            "then" | "else" if draft7 => {
                c.subschema(value, p, &[Token::Key(key)])?;
            }
            "properties" => {
                let Value::Object(members) = value else {
                    return Err(fail(c, key, "must be an object of schemas".to_owned()));
                };
                let mut nodes = Vec::with_capacity(members.len());
                for (name, member) in members {
                    nodes.push(c.subschema(member, p, &[Token::Key(key), Token::Key(name)])?);
                }
                let table = c.tables.add(members.keys().map(String::as_str).zip(nodes));
                properties_at = Some(c.keywords.len());
                property_table = Some(table);
                c.keywords.push(Keyword::Properties {
                    table,
                    covered: false,
                    required: 0,
                });
            }
            "patternProperties" => {
                let mut entries = Vec::with_capacity(patterns.len());
                for (source, pattern, member) in &patterns {
                    let node = c.subschema(member, p, &[Token::Key(key), Token::Key(source)])?;
                    entries.push((pattern.clone(), node));
                }
                let entries: PatternEntries = entries.into();
                patterns_at = Some(c.keywords.len());
                pattern_table = Some(entries.clone());
                c.keywords.push(Keyword::PatternProperties {
                    entries,
                    covered: false,
                });
            }
            "additionalProperties" => {
                let node = c.subschema(value, p, &[Token::Key(key)])?;
                // The sibling tables are filled in after the loop, once both are compiled.
                additional_at = Some(c.keywords.len());
                c.keywords.push(Keyword::AdditionalProperties {
                    node,
                    is_false: value == &Value::Bool(false),
                    properties: crate::node::NONE,
                    patterns: Arc::from([]),
                });
            }
            "propertyNames" if d.at_least_6() => {
                let node = c.subschema(value, p, &[Token::Key(key)])?;
                c.keywords.push(Keyword::PropertyNames(node));
            }
            "prefixItems" | "items" if d.draft == Draft::Draft202012 => {
                if key == "items" && !matches!(value, Value::Object(_) | Value::Bool(_)) {
                    return Err(fail(c, key, "must be a schema in draft 2020-12".to_owned()));
                }
                if items_done {
                    continue;
                }
                items_done = true;
                let prefix = match siblings.prefix_items {
                    Some(v) => schema_array(c, p, "prefixItems", v, true)?,
                    None => Box::default(),
                };
                let rest = siblings
                    .items
                    .map(|v| c.subschema(v, p, &[key_static("items")]))
                    .transpose()?;
                c.keywords.push(Keyword::Items {
                    prefix,
                    prefix_key: Name::PrefixItems,
                    rest,
                    rest_key: Name::Items,
                });
            }
            "items" => {
                if value.is_array() {
                    let prefix = schema_array(c, p, key, value, false)?;
                    let rest = siblings
                        .additional_items
                        .map(|v| c.subschema(v, p, &[key_static("additionalItems")]))
                        .transpose()?;
                    c.keywords.push(Keyword::Items {
                        prefix,
                        prefix_key: Name::Items,
                        rest,
                        rest_key: Name::AdditionalItems,
                    });
                } else {
                    let rest = Some(c.subschema(value, p, &[Token::Key(key)])?);
                    c.keywords.push(Keyword::Items {
                        prefix: Box::default(),
                        prefix_key: Name::Items,
                        rest,
                        rest_key: Name::Items,
                    });
                }
            }
            "additionalItems" => {
                c.subschema(value, p, &[Token::Key(key)])?;
            }
            "contains" if d.at_least_6() => {
                let node = c.subschema(value, p, &[Token::Key(key)])?;
                let counted = validation && d.modern();
                let min = match siblings.min_contains {
                    Some(v) if counted => Some(
                        checks::non_negative_integer(v).map_err(|m| fail(c, "minContains", m))?,
                    ),
                    _ => None,
                };
                let max = match siblings.max_contains {
                    Some(v) if counted => Some(
                        checks::non_negative_integer(v).map_err(|m| fail(c, "maxContains", m))?,
                    ),
                    _ => None,
                };
                c.keywords.push(Keyword::Contains {
                    node,
                    min: min.unwrap_or(1),
                    min_key: if min.is_some() {
                        Name::MinContains
                    } else {
                        Name::Contains
                    },
                    max,
                    annotate: d.draft == Draft::Draft202012,
                });
            }
            "unevaluatedItems" if d.modern() => {
                tail.push(Keyword::UnevaluatedItems(c.subschema(
                    value,
                    p,
                    &[Token::Key(key)],
                )?));
            }
            "unevaluatedProperties" if d.modern() => {
                let node = c.subschema(value, p, &[Token::Key(key)])?;
                tail.push(Keyword::UnevaluatedProperties {
                    node,
                    is_false: value == &Value::Bool(false),
                });
            }
            _ => {}
        }
    }
    // A `required` whose names are all among at most 64 sibling `properties` is checked by the properties pass.
    let mut required_bits = 0u64;
    if let (Some(at), Some(table)) = (required_at, property_table)
        && let Some(Keyword::Required { names, fused }) = c.keywords.get_mut(at)
        && let Some(bits) = required_bits_of(&c.tables, table, names)
    {
        *fused = true;
        required_bits = bits;
    }
    if let Some(Keyword::Properties {
        required, covered, ..
    }) = properties_at.and_then(|i| c.keywords.get_mut(i))
    {
        *required = required_bits;
        *covered = additional_at.is_some();
    }
    if let Some(at) = additional_at {
        if let Some(Keyword::PatternProperties { covered, .. }) =
            patterns_at.and_then(|i| c.keywords.get_mut(i))
        {
            *covered = true;
        }
        if let Some(Keyword::AdditionalProperties {
            properties,
            patterns,
            ..
        }) = c.keywords.get_mut(at)
        {
            *properties = properties_at.map_or(crate::node::NONE, |i| i as u32);
            if let Some(table) = pattern_table {
                *patterns = table;
            }
        }
    }
    let unevaluated = !tail.is_empty();
    c.keywords.extend(tail);
    Ok(unevaluated)
}

/// The positions of `names` in `table` as bits, when every name is among its first 64 entries.
fn required_bits_of(tables: &Tables, table: Table, names: &[Box<str>]) -> Option<u64> {
    let mut bits = 0u64;
    for name in names {
        let position = tables.position(table, name)?;
        bits |= 1u64.checked_shl(position)?;
    }
    Some(bits)
}

fn key_static(k: &'static str) -> Token<'static> {
    Token::Key(k)
}

/// The compiled patterns of `patternProperties`, with their sources and subschemas.
#[expect(clippy::type_complexity, reason = "a private triple used once")]
fn pattern_properties<'a>(
    c: &mut Compiler<'a>,
    p: &Pending<'a>,
    member: Option<&'a Value>,
) -> Result<Vec<(&'a str, Arc<Pattern>, &'a Value)>, Error> {
    match member {
        None => Ok(Vec::new()),
        Some(Value::Object(members)) => {
            let mut out = Vec::with_capacity(members.len());
            for (source, member) in members {
                let pattern = c.pattern(source).map_err(|m| {
                    c.invalid(
                        p.loc,
                        &[Token::Key("patternProperties"), Token::Key(source)],
                        m,
                    )
                })?;
                out.push((source.as_str(), pattern, member));
            }
            Ok(out)
        }
        Some(_) => Err(c.invalid(
            p.loc,
            &[Token::Key("patternProperties")],
            "must be an object of schemas",
        )),
    }
}

/// An array of schemas under `key`, non-empty when `non_empty`.
fn schema_array<'a>(
    c: &mut Compiler<'a>,
    p: &Pending<'a>,
    key: &'a str,
    value: &'a Value,
    non_empty: bool,
) -> Result<Box<[NodeId]>, Error> {
    let Value::Array(items) = value else {
        return Err(c.invalid(p.loc, &[Token::Key(key)], "must be an array of schemas"));
    };
    if non_empty && items.is_empty() {
        return Err(c.invalid(
            p.loc,
            &[Token::Key(key)],
            "must be a non-empty array of schemas",
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| c.subschema(item, p, &[Token::Key(key), Token::Index(i)]))
        .collect()
}

/// `type`: one type name or a non-empty array of unique names.
pub(crate) fn type_keyword(value: &Value) -> Result<Keyword, String> {
    let name_of = |v: &Value| -> Result<&'static str, String> {
        let name = v.as_str().unwrap_or_default();
        TYPE_NAMES
            .into_iter()
            .find(|t| *t == name)
            .ok_or_else(|| format!("{v} is not a type name"))
    };
    let mut names = [""; 7];
    let mut len = 0;
    let mut flags = 0u8;
    let mut add = |name: &'static str| -> Result<(), String> {
        let flag = TypeSet::flag(name).unwrap_or(0);
        if flags & flag != 0 {
            return Err(format!("repeats the type {name:?}"));
        }
        flags |= flag;
        if let Some(slot) = names.get_mut(len) {
            *slot = name;
            len += 1;
        }
        Ok(())
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            // Every entry must be a type name before repeats are looked at.
            for item in items {
                name_of(item)?;
            }
            for item in items {
                add(name_of(item)?)?;
            }
        }
        Value::Array(_) => return Err("must not be an empty array".to_owned()),
        other => add(name_of(other)?)?,
    }
    let names = TypeNames::from_names(names.get(..len).unwrap_or_default())
        .ok_or_else(|| "too many types".to_owned())?;
    Ok(Keyword::Type {
        types: TypeSet(flags),
        names,
    })
}
