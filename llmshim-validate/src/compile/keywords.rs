//! Compiling the keywords of one schema object, with the checks and draft rules of contract §10.1 and §10.2.

use std::sync::Arc;

use llmshim_resolve::Draft;
use serde_json::{Map, Value};

use super::checks;
use super::{Compiler, Pending, child_pointer};
use crate::error::Error;
use crate::format::Format;
use crate::node::{Bound, Dependency, Dynamic, Keyword, Known, NodeId, TypeSet};
use crate::regex::Pattern;

/// The type names, as static strings for messages.
const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// The compiled keywords of `map` and whether it has `unevaluated*` keywords.
pub(super) fn compile<'a>(
    c: &mut Compiler<'a>,
    p: &Pending<'a>,
    map: &'a Map<String, Value>,
) -> Result<(Vec<Keyword>, bool), Error> {
    let d = p.dialect;
    let at = |key: &str| child_pointer(&p.pointer, &[key]);
    if !d.modern()
        && let Some(reference) = map.get("$ref")
    {
        // Before 2019-09, `$ref` overrides every sibling keyword.
        let reference = checks::string(reference, &at("$ref"))?;
        let (target, _) = c.reference(p, reference, &at("$ref"))?;
        let keyword = Keyword::Ref {
            key: "$ref",
            target,
            dynamic: Dynamic::Static,
        };
        return Ok((vec![keyword], false));
    }
    let patterns = pattern_properties(c, p, map)?;
    let mut out = Vec::new();
    let mut tail = Vec::new();
    let mut items_done = false;
    let mut content_done = false;
    let validation = d.validation;
    let draft7 = d.modern() || d.draft == Draft::Draft7;
    for (key, value) in map {
        match key.as_str() {
            "$ref" => {
                let reference = checks::string(value, &at(key))?;
                let (target, _) = c.reference(p, reference, &at(key))?;
                out.push(Keyword::Ref {
                    key: "$ref",
                    target,
                    dynamic: Dynamic::Static,
                });
            }
            "$dynamicRef" if d.draft == Draft::Draft202012 => {
                let reference = checks::string(value, &at(key))?;
                let (target, found) = c.reference(p, reference, &at(key))?;
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
                out.push(Keyword::Ref {
                    key: "$dynamicRef",
                    target,
                    dynamic,
                });
            }
            "$recursiveRef" if d.draft == Draft::Draft201909 => {
                let reference = checks::string(value, &at(key))?;
                let (target, found) = c.reference(p, reference, &at(key))?;
                let dynamic = if found.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
                    c.use_recursive_anchor();
                    Dynamic::Recursive
                } else {
                    Dynamic::Static
                };
                out.push(Keyword::Ref {
                    key: "$recursiveRef",
                    target,
                    dynamic,
                });
            }
            "$defs" | "definitions" => {
                let Value::Object(members) = value else {
                    return Err(Error::invalid(at(key), "must be an object of schemas"));
                };
                for (name, member) in members {
                    c.subschema(member, p, &[key, name])?;
                }
            }
            "$anchor" => checks::anchor(value, &at(key))?,
            "$dynamicAnchor" if d.draft == Draft::Draft202012 => checks::anchor(value, &at(key))?,
            "$id" if d.at_least_6() => {
                checks::string(value, &at(key))?;
            }
            "contentEncoding" | "contentMediaType" => {
                checks::string(value, &at(key))?;
                if d.draft == Draft::Draft7 && !content_done {
                    content_done = true;
                    let base64 =
                        map.get("contentEncoding").and_then(Value::as_str) == Some("base64");
                    let json = map.get("contentMediaType").and_then(Value::as_str)
                        == Some("application/json");
                    if base64 || json {
                        out.push(Keyword::Content { base64, json });
                    }
                }
            }
            "title" | "description" | "$comment" => {
                checks::string(value, &at(key))?;
            }
            "format" => {
                let name = checks::string(value, &at(key))?;
                if c.options().assert_formats
                    && let Some(format) = Format::from_name(name)
                {
                    out.push(Keyword::Format(format));
                }
            }
            "readOnly" | "writeOnly" | "deprecated" => {
                checks::boolean(value, &at(key))?;
            }
            "examples" if !value.is_array() => {
                return Err(Error::invalid(at(key), "must be an array"));
            }
            "type" if validation => out.push(type_keyword(value, &at(key))?),
            "enum" if validation => match value {
                Value::Array(values) => out.push(Keyword::Enum(values.clone().into_boxed_slice())),
                _ => return Err(Error::invalid(at(key), "must be an array")),
            },
            "const" if validation && d.at_least_6() => out.push(Keyword::Const(value.clone())),
            "multipleOf" if validation => {
                let n = checks::number(value, &at(key))?;
                if n.as_f64().is_none_or(|f| f <= 0.0) {
                    return Err(Error::invalid(at(key), "must be a number greater than 0"));
                }
                out.push(Keyword::MultipleOf(n));
            }
            "minimum" | "maximum" if validation => {
                let n = checks::number(value, &at(key))?;
                let minimum = key == "minimum";
                let sibling = if minimum {
                    "exclusiveMinimum"
                } else {
                    "exclusiveMaximum"
                };
                let exclusive = !d.at_least_6() && map.get(sibling) == Some(&Value::Bool(true));
                let bound = Bound {
                    value: n,
                    key: if minimum { "minimum" } else { "maximum" },
                };
                out.push(match (minimum, exclusive) {
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
                let n = checks::number(value, &at(key))?;
                let minimum = key == "exclusiveMinimum";
                let bound = Bound {
                    value: n,
                    key: if minimum {
                        "exclusiveMinimum"
                    } else {
                        "exclusiveMaximum"
                    },
                };
                out.push(if minimum {
                    Keyword::ExclusiveMinimum(bound)
                } else {
                    Keyword::ExclusiveMaximum(bound)
                });
            }
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
            | "maxProperties"
                if validation =>
            {
                let n = checks::non_negative_integer(value, &at(key))?;
                out.push(match key.as_str() {
                    "minLength" => Keyword::MinLength(n),
                    "maxLength" => Keyword::MaxLength(n),
                    "minItems" => Keyword::MinItems(n),
                    "maxItems" => Keyword::MaxItems(n),
                    "minProperties" => Keyword::MinProperties(n),
                    _ => Keyword::MaxProperties(n),
                });
            }
            "minContains" | "maxContains" if validation && d.modern() => {
                checks::non_negative_integer(value, &at(key))?;
            }
            "pattern" if validation => {
                let source = checks::string(value, &at(key))?;
                let pattern = Pattern::new(source, c.options().backtrack_limit)
                    .map_err(|m| Error::invalid(at(key), m))?;
                out.push(Keyword::Pattern(Arc::new(pattern)));
            }
            "uniqueItems" if validation => {
                let unique = checks::boolean(value, &at(key))?;
                out.extend(unique.then_some(Keyword::UniqueItems));
            }
            "required" if validation => {
                // Draft-03 spelled `required` as a boolean on the property; it is read as draft-04 and ignored.
                if value.is_boolean() && !d.at_least_6() {
                    continue;
                }
                let names = checks::unique_strings(value, &at(key))?;
                out.push(Keyword::Required(names.into_boxed_slice()));
            }
            "dependentRequired" if validation && d.modern() => {
                let Value::Object(members) = value else {
                    return Err(Error::invalid(
                        at(key),
                        "must be an object of string arrays",
                    ));
                };
                let mut entries = Vec::with_capacity(members.len());
                for (name, names) in members {
                    let names = checks::unique_strings(names, &child_pointer(&at(key), &[name]))?;
                    entries.push((name.clone(), Dependency::Required(names)));
                }
                out.push(Keyword::Dependencies {
                    key: "dependentRequired",
                    entries: entries.into_boxed_slice(),
                });
            }
            "dependentSchemas" if d.modern() => {
                let Value::Object(members) = value else {
                    return Err(Error::invalid(at(key), "must be an object of schemas"));
                };
                let mut entries = Vec::with_capacity(members.len());
                for (name, member) in members {
                    let node = c.subschema(member, p, &[key, name])?;
                    entries.push((name.clone(), Dependency::Schema(node)));
                }
                out.push(Keyword::Dependencies {
                    key: "dependentSchemas",
                    entries: entries.into_boxed_slice(),
                });
            }
            "dependencies" => {
                let Value::Object(members) = value else {
                    return Err(Error::invalid(at(key), "must be an object"));
                };
                let mut entries = Vec::with_capacity(members.len());
                for (name, member) in members {
                    let dependency = if member.is_array() {
                        if !validation {
                            continue;
                        }
                        let pointer = child_pointer(&at(key), &[name]);
                        Dependency::Required(checks::unique_strings(member, &pointer)?)
                    } else {
                        Dependency::Schema(c.subschema(member, p, &[key, name])?)
                    };
                    entries.push((name.clone(), dependency));
                }
                out.push(Keyword::Dependencies {
                    key: "dependencies",
                    entries: entries.into_boxed_slice(),
                });
            }
            "allOf" | "anyOf" | "oneOf" => {
                let nodes = schema_array(c, p, key, value, true)?;
                out.push(match key.as_str() {
                    "allOf" => Keyword::AllOf(nodes),
                    "anyOf" => Keyword::AnyOf(nodes),
                    _ => Keyword::OneOf(nodes),
                });
            }
            "not" => out.push(Keyword::Not(c.subschema(value, p, &[key])?)),
            "if" if draft7 => {
                let condition = c.subschema(value, p, &[key])?;
                let then = map
                    .get("then")
                    .map(|v| c.subschema(v, p, &["then"]))
                    .transpose()?;
                let otherwise = map
                    .get("else")
                    .map(|v| c.subschema(v, p, &["else"]))
                    .transpose()?;
                out.push(Keyword::If {
                    condition,
                    then,
                    otherwise,
                });
            }
            "then" | "else" if draft7 => {
                c.subschema(value, p, &[key])?;
            }
            "properties" => {
                let Value::Object(members) = value else {
                    return Err(Error::invalid(at(key), "must be an object of schemas"));
                };
                let mut entries = Vec::with_capacity(members.len());
                for (name, member) in members {
                    entries.push((name.clone(), c.subschema(member, p, &[key, name])?));
                }
                let index = entries
                    .iter()
                    .enumerate()
                    .map(|(i, (name, _))| (name.as_str().into(), i as u32))
                    .collect();
                out.push(Keyword::Properties {
                    entries: entries.into_boxed_slice(),
                    index,
                });
            }
            "patternProperties" => {
                let mut entries = Vec::with_capacity(patterns.len());
                for (source, pattern, member) in &patterns {
                    let node = c.subschema(member, p, &[key, source])?;
                    entries.push((pattern.clone(), node));
                }
                out.push(Keyword::PatternProperties(entries.into_boxed_slice()));
            }
            "additionalProperties" => {
                let node = c.subschema(value, p, &[key])?;
                let names = match map.get("properties") {
                    Some(Value::Object(members)) => members.keys().cloned().collect(),
                    _ => hashbrown::HashSet::new(),
                };
                let known = Known {
                    names,
                    patterns: patterns
                        .iter()
                        .map(|(_, pattern, _)| pattern.clone())
                        .collect(),
                };
                out.push(Keyword::AdditionalProperties {
                    node,
                    is_false: value == &Value::Bool(false),
                    known: Box::new(known),
                });
            }
            "propertyNames" if d.at_least_6() => {
                out.push(Keyword::PropertyNames(c.subschema(value, p, &[key])?));
            }
            "prefixItems" | "items" if d.draft == Draft::Draft202012 => {
                if key == "items" && !matches!(value, Value::Object(_) | Value::Bool(_)) {
                    return Err(Error::invalid(at(key), "must be a schema in draft 2020-12"));
                }
                if items_done {
                    continue;
                }
                items_done = true;
                let prefix = match map.get("prefixItems") {
                    Some(v) => schema_array(c, p, "prefixItems", v, true)?,
                    None => Box::default(),
                };
                let rest = map
                    .get("items")
                    .map(|v| c.subschema(v, p, &["items"]))
                    .transpose()?;
                out.push(Keyword::Items {
                    prefix,
                    prefix_key: "prefixItems",
                    rest,
                    rest_key: "items",
                });
            }
            "items" => {
                if value.is_array() {
                    let prefix = schema_array(c, p, key, value, false)?;
                    let rest = map
                        .get("additionalItems")
                        .map(|v| c.subschema(v, p, &["additionalItems"]))
                        .transpose()?;
                    out.push(Keyword::Items {
                        prefix,
                        prefix_key: "items",
                        rest,
                        rest_key: "additionalItems",
                    });
                } else {
                    let rest = Some(c.subschema(value, p, &[key])?);
                    out.push(Keyword::Items {
                        prefix: Box::default(),
                        prefix_key: "items",
                        rest,
                        rest_key: "items",
                    });
                }
            }
            "additionalItems" => {
                c.subschema(value, p, &[key])?;
            }
            "contains" if d.at_least_6() => {
                let node = c.subschema(value, p, &[key])?;
                let counted = validation && d.modern();
                let min = match map.get("minContains") {
                    Some(v) if counted => {
                        Some(checks::non_negative_integer(v, &at("minContains"))?)
                    }
                    _ => None,
                };
                let max = match map.get("maxContains") {
                    Some(v) if counted => {
                        Some(checks::non_negative_integer(v, &at("maxContains"))?)
                    }
                    _ => None,
                };
                out.push(Keyword::Contains {
                    node,
                    min: min.unwrap_or(1),
                    min_key: if min.is_some() {
                        "minContains"
                    } else {
                        "contains"
                    },
                    max,
                    annotate: d.draft == Draft::Draft202012,
                });
            }
            "unevaluatedItems" if d.modern() => {
                tail.push(Keyword::UnevaluatedItems(c.subschema(value, p, &[key])?));
            }
            "unevaluatedProperties" if d.modern() => {
                let node = c.subschema(value, p, &[key])?;
                tail.push(Keyword::UnevaluatedProperties {
                    node,
                    is_false: value == &Value::Bool(false),
                });
            }
            _ => {}
        }
    }
    let unevaluated = !tail.is_empty();
    out.extend(tail);
    Ok((out, unevaluated))
}

/// The compiled patterns of `patternProperties`, with their sources and subschemas.
#[expect(clippy::type_complexity, reason = "a private triple used once")]
fn pattern_properties<'a>(
    c: &Compiler<'a>,
    p: &Pending<'a>,
    map: &'a Map<String, Value>,
) -> Result<Vec<(&'a str, Arc<Pattern>, &'a Value)>, Error> {
    match map.get("patternProperties") {
        None => Ok(Vec::new()),
        Some(Value::Object(members)) => members
            .iter()
            .map(|(source, member)| {
                Pattern::new(source, c.options().backtrack_limit)
                    .map(|pattern| (source.as_str(), Arc::new(pattern), member))
                    .map_err(|m| {
                        Error::invalid(child_pointer(&p.pointer, &["patternProperties", source]), m)
                    })
            })
            .collect(),
        Some(_) => Err(Error::invalid(
            child_pointer(&p.pointer, &["patternProperties"]),
            "must be an object of schemas",
        )),
    }
}

/// An array of schemas under `key`, non-empty when `non_empty`.
fn schema_array<'a>(
    c: &mut Compiler<'a>,
    p: &Pending<'a>,
    key: &str,
    value: &'a Value,
    non_empty: bool,
) -> Result<Box<[NodeId]>, Error> {
    let Value::Array(items) = value else {
        return Err(Error::invalid(
            child_pointer(&p.pointer, &[key]),
            "must be an array of schemas",
        ));
    };
    if non_empty && items.is_empty() {
        return Err(Error::invalid(
            child_pointer(&p.pointer, &[key]),
            "must be a non-empty array of schemas",
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| c.subschema(item, p, &[key, &i.to_string()]))
        .collect()
}

/// `type`: one type name or a non-empty array of unique names.
fn type_keyword(value: &Value, pointer: &str) -> Result<Keyword, Error> {
    let name_of = |v: &Value| -> Result<&'static str, Error> {
        let name = v.as_str().unwrap_or_default();
        TYPE_NAMES
            .into_iter()
            .find(|t| *t == name)
            .ok_or_else(|| Error::invalid(pointer, format!("{v} is not a type name")))
    };
    let names: Vec<&'static str> = match value {
        Value::Array(items) if !items.is_empty() => {
            items.iter().map(name_of).collect::<Result<_, _>>()?
        }
        Value::Array(_) => return Err(Error::invalid(pointer, "must not be an empty array")),
        other => vec![name_of(other)?],
    };
    let mut flags = 0u8;
    for name in &names {
        let flag = TypeSet::flag(name).unwrap_or(0);
        if flags & flag != 0 {
            return Err(Error::invalid(
                pointer,
                format!("repeats the type {name:?}"),
            ));
        }
        flags |= flag;
    }
    Ok(Keyword::Type {
        types: TypeSet(flags),
        names: names.into_boxed_slice(),
    })
}
