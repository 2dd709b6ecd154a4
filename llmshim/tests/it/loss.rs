//! The loss invariant: nothing the author wrote on the lift list vanishes without a trace.
//!
//! For an input, a target, a strict flag and the output with its report, [`check`] holds when the report says the
//! schema fell back, or else when every keyword of the lift list ([`LIFT_LIST`]) that the input holds at a position
//! that survives structurally is, in the output, either still present at that position or named in a description
//! there with the `(keyword:` marker, or is dropped by a rule that [`LIFT_DROPS`] lists with its reason. Every other keyword the input holds at a surviving position
//! must likewise be present or named, or be dropped by a rule [`OTHER_DROPS`] lists (`additionalProperties` and
//! `x-*` on Google, the meta keywords everywhere, ...), so that list of deliberate drops is checked, not only read.
//!
//! **Positions.** A schema position is named by its instance path: the property names, `items`, tuple entries,
//! `additionalProperties`, and the non-instance children (`not`, `if`, `then`, `else`, `contains`,
//! `propertyNames`, `patternProperties` and `dependentSchemas` members, `unevaluated*`), each a step of its own.
//! Union branches (`anyOf`, `oneOf`, `allOf` entries) and references are not steps: a branch and its node describe
//! the same position, so the output nodes at a position are every node reached by the same steps through any
//! branch or reference. The input is read as the pipeline reads it: a `$ref` is its target with the referencing
//! node's siblings replacing the target's keys (a reference among those siblings back to the same target is no cycle:
//! the pipeline walks the merged node with the target off its stack), snake-case spellings count as their
//! camel-case keywords, and the
//! draft upgrades (`dependencies`, boolean exclusive bounds, array `items`) are followed.
//! A position survives structurally when the output has a node at its path. A position does not survive when a
//! rule removed its subtree and named it in a description: a lifted container (`(not: …)`, `(prefixItems: …)`,
//! `(patternProperties: …)`), a removed property (`(omitted name: kind)`), a recursion cut below a depth
//! (`(recursive name: …)`) all leave no node at the path. Under strict, the schema `additionalProperties` of a node
//! typed `object` does not survive either, whatever another node at its path keeps: closing replaces it by `false`
//! on purpose, and its keywords are listed with that rule ([`CLOSED`]). A union branch removed while its position lives on in
//! another branch (`(anyOf: [...])` beside the kept branch) is treated the same way: a keyword missing at the
//! position is accounted for when a `(anyOf:`, `(oneOf:` or `(allOf:` fragment at that position names a subtree
//! that holds it (a `const` also as the `enum` the walk made of it), or when a `(recursive anyOf:` or
//! `(recursive oneOf:` fragment there says that the branches which recursed were cut below the unrolling depth;
//! a branch the climb removed is accounted for by its omission (`(omitted anyOf: kind)`); both also account for
//! the positions below the union's node. The same holds below an `allOf` entry, where the merge gathers the
//! schemas that two entries give one property into an `allOf` of its own, which a target without `allOf`
//! (google-json) lifts whole, and below an `allOf` that could not be merged and was lifted whole at a position
//! above. A union branch whose union the output still has with as many branches (`oneOf` read as `anyOf`) is
//! also checked alone: a keyword kept or lifted at its position must be kept, lifted or named in that branch, not only
//! in another branch at the same position.
//!
//! **Vanished positions.** A position with no output node whose input node holds a lift-list keyword must have gone
//! with a subtree named at a position above it, up to the nearest one that survives: the container on its path lifted
//! whole (`(items: …)`, `(not: …)`, `(patternProperties: …)`), a property on its path omitted or cut (`(omitted name:
//! kind)`, `(recursive name: …)`, also inside a union fragment that names its branch whole), a recursion stub at the
//! surviving position (its own `(recursive name: …)`), a union fragment holding the keyword (nested fragments and lifted
//! containers inside it read too), or `(omitted anyOf: kind)` / `(recursive anyOf: …)`. A keyword a listed rule drops
//! where it stands ([`LIFT_DROPS`]) is not looked for, nor are positions below a container the target removes on
//! purpose (a key outside its keep-list that is not on the lift list: a schema `additionalProperties` on Google and Code
//! Assist), below a keyword that applies to none of the types of its node's union, or below a reference this reading
//! does not follow.
//!
//! The tests run the invariant over the shared corpus for every built-in target, strict and not, over generated
//! schemas as a property test, and against a custom target per lift-list keyword that drops instead of lifting,
//! which the invariant must catch.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::OnceLock;

use llmshim::schema::{
    Env, EnvFlags, Keywords, Normalization, Normalizer, Options, Target, validate,
};
use llmshim_core::walk::NodeCtx;
use llmshim_core::{FallbackReason, Keyword, KeywordClass, RuleSet, TargetRules};
use serde_json::{Map, Value, json};

use crate::corpus;

/// The lift list: the keywords that a rule removing them must lift into the description. Read from the library;
/// `llmshim-core`'s keyword test pins it to the list the project documents.
pub(crate) const LIFT_LIST: [&str; 33] = llmshim_core::keyword::LIFTABLE;

/// The snake-case spellings the walker reads as their camel-case keywords (a snake spelling wins over the camel one).
const SNAKE: [(&str, &str); 14] = llmshim_core::keyword::SNAKE_CASE;

/// The keys strict keeps; every other key it removes. `llmshim-strict`'s keep-list test pins this list.
const STRICT_KEEP: [&str; 13] = llmshim_strict::KEEP;

/// A lift-list keyword that a rule drops on purpose, because it says nothing where it stood.
pub(crate) struct LiftDrop {
    /// The rule that drops it.
    pub(crate) rule: &'static str,
    /// Which keywords, and when.
    pub(crate) what: &'static str,
    /// Why nothing is lost.
    pub(crate) why: &'static str,
}

/// The deliberate drops of lift-list keywords (and the same rules for other keywords); [`check`] names the entry it
/// applies.
pub(crate) const LIFT_DROPS: [&LiftDrop; 5] =
    [&VACUOUS, &CONJUNCTION, &SIBLINGS, &UPGRADE, &CLOSED];

/// A keyword that applies to no value where it stands.
const VACUOUS: LiftDrop = LiftDrop {
    rule: "walk.split-type-array, google.type-applicability, google.isolate-any-of",
    what: "a keyword that applies to one kind of value (`minimum` to numbers, `minItems` and `items` to arrays, \
           `pattern` to strings, `properties` to objects, ...) on a node whose own type it does not apply to, or \
           whose values must also have the types of the nodes it is in conjunction with (the nodes whose union it \
           is a branch of, its `allOf` entries read through their references) and it applies to none of the kinds \
           they share, or on an untyped node where every typed output node at its position has such a type; and \
           what lies below such a keyword, also in a union branch of a node whose type it does not apply to",
    why: "it constrains no value the output admits there (vacuous); the type-array split prunes it from the \
          branches of other types, and Gemini rejects it",
};

/// A union branch that admits nothing.
const CONJUNCTION: LiftDrop = LiftDrop {
    rule: "google.isolate-any-of, cca.merge-combinator, strict.close-object",
    what: "the keywords of a union branch whose type (given, or inferred as the walker infers it) shares no \
           value with the types of the nodes it is in conjunction with at the same position (and of its own typed \
           `allOf` entries), taken together, and \
           everything below it (its own `allOf` entries and union branches too, typed or not)",
    why: "the branch admits nothing, so isolation removes it, the Code Assist merge lets the node's type win \
          over it, and strict closing removes it beside a node whose written type is `object` (Gemini's isolation \
          also removes an `integer` branch of a `number` node, which does admit values: the one case this entry \
          does not cover)",
};

/// A key a `$ref` sibling replaces.
const SIBLINGS: LiftDrop = LiftDrop {
    rule: "resolve.inline-ref (siblings win)",
    what: "a keyword of a `$ref` target's union branch that a sibling of the `$ref` also gives, at any link of a \
           chain of references (other than `description`, whose lifted fragments and merged text follow the \
           sibling's)",
    why: "the referencing node's siblings replace the target's keys, including what the target's unions merge \
          into it; the sibling's value is checked in its place",
};

/// A draft-04 boolean exclusive bound.
const UPGRADE: LiftDrop = LiftDrop {
    rule: "upgrade.exclusive-bound",
    what: "a boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04): `true` becomes the bound's value and \
           replaces `minimum`/`maximum`, `false` goes",
    why: "the draft-04 flag is not a bound of its own; the bound it qualifies is checked in its place",
};

/// A schema `additionalProperties` that strict closing replaces.
const CLOSED: LiftDrop = LiftDrop {
    rule: "strict.close-object",
    what: "under effective strict, every keyword of a schema `additionalProperties` of a node typed `object` (given, \
           inferred from `properties`, or an `allOf` entry's), and of everything below it: the position does not \
           survive, even where another node at the same path (a union branch of another type) keeps one",
    why: "strict providers take only closed objects, so closing replaces the schema by `false` on purpose, and the \
          report records it as dropped at `<object>/additionalProperties`",
};

/// When a deliberate drop of another keyword applies.
#[derive(Clone, Copy)]
enum When {
    /// On every target.
    Always,
    /// On a target with a keep-list (Google, Code Assist, google-json), for keys outside it, and under effective strict
    /// for keys outside the strict keep-list.
    NotKept,
    /// On Google and Code Assist.
    GoogleFamily,
    /// On a target that removes `required` names without a declared property (Google, Code Assist, google-json).
    FilterRequired,
    /// When the value is `null`, an empty array or an empty object.
    Empty,
    /// When the value is an array.
    Array,
    /// In a `null` branch of a union (typed `null`, or untyped with a `null` `const` or `enum`), on Google and Code
    /// Assist.
    NullBranch,
    /// When the value is a string of white space only (or empty), on Google and Code Assist.
    BlankText,
}

/// A keyword outside the lift list that a rule drops on purpose.
pub(crate) struct OtherDrop {
    keys: &'static [&'static str],
    when: When,
    /// The rule that drops it.
    pub(crate) rule: &'static str,
    /// Why that is right.
    pub(crate) why: &'static str,
}

/// The deliberate drops of keywords outside the lift list, checked by [`check`]: a key that disappears must match an
/// entry (`*` matches any key).
pub(crate) const OTHER_DROPS: [OtherDrop; 14] = [
    OtherDrop {
        keys: &["$schema"],
        when: When::Always,
        rule: "resolve.schema-uri",
        why: "the dialect marker: removed, or set to 2020-12 where the target wants it",
    },
    OtherDrop {
        keys: &[
            "$id",
            "id",
            "$anchor",
            "$dynamicAnchor",
            "$recursiveAnchor",
            "$comment",
            "$vocabulary",
        ],
        when: When::Always,
        rule: "resolve.drop-meta",
        why: "identifiers and comments that serve reference resolution, which is done",
    },
    OtherDrop {
        keys: &["$ref", "$dynamicRef", "$recursiveRef"],
        when: When::Always,
        rule: "resolve.inline-ref",
        why: "replaced by the schema it names, whose keywords are checked in its place",
    },
    OtherDrop {
        keys: &["$defs", "definitions"],
        when: When::Always,
        rule: "resolve.drop-definitions",
        why: "definitions are inlined where they are referenced and checked there",
    },
    OtherDrop {
        keys: &["dependencies", "additionalItems"],
        when: When::Always,
        rule: "upgrade.dependencies, upgrade.tuple, upgrade.drop-additional-items",
        why: "draft-07 spellings, upgraded to dependentRequired, dependentSchemas, prefixItems and items, which are \
              checked in their place (an `additionalItems` beside a non-array `items` says nothing)",
    },
    OtherDrop {
        keys: &["items"],
        when: When::Array,
        rule: "upgrade.tuple",
        why: "a draft-07 tuple: its entries become `prefixItems`, checked in their place",
    },
    OtherDrop {
        keys: &["*"],
        when: When::NullBranch,
        rule: "google.collapse-nullable, walk.nullable-remove",
        why: "a `null` branch becomes `nullable: true` (Google) or goes (Code Assist); its description joins the \
              node's, and a lift-list keyword in it was lifted into that description first",
    },
    OtherDrop {
        keys: &["anyOf", "oneOf", "allOf"],
        when: When::Always,
        rule: "walk.one-of-to-any-of, walk.merge-all-of, cca.merge-combinator, google.collapse-nullable",
        why: "renamed, or merged into their node; the branches' keywords are checked at the same position",
    },
    OtherDrop {
        keys: &["required", "properties"],
        when: When::Empty,
        rule: "walk.required-null, walk.merge-all-of, google.filter-required, google.drop-empty-properties",
        why: "a `required` that is null or empty, or an empty `properties`, constrains nothing",
    },
    OtherDrop {
        keys: &["required"],
        when: When::FilterRequired,
        rule: "google.filter-required",
        why: "a `required` whose names are none of the node's properties: Gemini rejects such names, and a `required` \
              left empty constrains nothing",
    },
    OtherDrop {
        keys: &["required", "properties", "items"],
        when: When::GoogleFamily,
        rule: "google.filter-required, google.drop-empty-properties, google.type-applicability",
        why: "names without a property, an empty `properties`, or object and array keywords on a node of another \
              type: Gemini rejects them and they admit nothing more",
    },
    OtherDrop {
        keys: &["description"],
        when: When::BlankText,
        rule: "google.collapse-nullable, walk.nullable-remove, target.narrow-union, cca.merge-combinator",
        why: "the union merges join the node's and the branches' descriptions, each trimmed, with single spaces, and \
              skip the blank ones: a description of white space only gives the model no words",
    },
    OtherDrop {
        keys: &["nullable"],
        when: When::Always,
        rule: "walk.nullable-remove, strict.keyword, google.isolate-any-of",
        why: "the target's null policy: null is expressed by a `null` type or branch, or not at all (Code Assist), \
              and `nullable: false` says nothing",
    },
    OtherDrop {
        keys: &["*"],
        when: When::NotKept,
        rule: "target.keyword, strict.keyword",
        why: "a key outside the target's keep-list (Google, Code Assist, google-json) or the strict keep-list that is not on the \
              lift list: `additionalProperties`, `unevaluated*`, `x-*`, `deprecated`, `$dynamicRef`, unknown keys; \
              the target does not accept it and it holds no constraint the contract asks to keep",
    },
];

/// One step of a position's path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Step {
    /// A member of `properties`.
    Property(String),
    /// `items`.
    Items,
    /// An entry of `prefixItems` (or of a draft-07 array `items`).
    Tuple(usize),
    /// A schema `additionalProperties`.
    Additional,
    /// A member of `patternProperties`.
    Pattern(String),
    /// A member of `dependentSchemas` (or a schema member of draft-07 `dependencies`).
    Dependent(String),
    /// `not`, `if`, `then`, `else`, `contains`, `propertyNames`, `unevaluatedProperties`, `unevaluatedItems`.
    Keyword(&'static str),
}

impl Step {
    fn text(&self) -> String {
        match self {
            Step::Property(name) => format!("properties/{}", escape(name)),
            Step::Items => "items".to_owned(),
            Step::Tuple(at) => format!("prefixItems/{at}"),
            Step::Additional => "additionalProperties".to_owned(),
            Step::Pattern(re) => format!("patternProperties/{}", escape(re)),
            Step::Dependent(name) => format!("dependentSchemas/{}", escape(name)),
            Step::Keyword(k) => (*k).to_owned(),
        }
    }
}

/// The single-schema children that are steps of their own: all but `items` and `additionalProperties`, which have
/// their own [`Step`]s.
fn named_steps() -> impl Iterator<Item = &'static str> {
    Keyword::of_class(KeywordClass::SingleChild)
        .filter(|k| !matches!(k, Keyword::Items | Keyword::AdditionalProperties))
        .map(Keyword::as_str)
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A node of the input as the pipeline reads it: the layers of a reference chain (the target first, the
/// referencing node's siblings last, so later layers win) at one position.
struct Visit<'a> {
    path: Vec<Step>,
    pointer: String,
    layers: Vec<&'a Map<String, Value>>,
    /// For a node whose reference is not followed because it recurs: the target it names, read only for its `type`
    /// (the walk inlines the target there before it cuts the recursion further down, so the node has that type).
    recurs_to: Option<&'a Map<String, Value>>,
    /// For a node whose one-entry `allOf` is a reference: the target it names (followed along a chain of bare
    /// references), read only for its type, which the merge of the entry gives the node.
    entry_target: Option<&'a Map<String, Value>>,
    /// For a union branch (at any depth of unions at this position): the type names of each node around it at the
    /// same position, which it is in conjunction with; `None` outside unions.
    branch_of: Option<Vec<Vec<String>>>,
    /// Keys that a `$ref` sibling around this union branch replaces (siblings win, also over what the target's
    /// unions merge in); their subtrees are not followed.
    shadow: Vec<String>,
    /// The node is an `allOf` entry or lies below one (references followed).
    below_all_of: bool,
    /// For a union branch: the combinators, entry indexes and entry counts that lead to it from the node at its
    /// position that is no branch (outermost first); empty for that node.
    trail: Vec<(&'static str, usize, usize)>,
    /// The node is the schema `additionalProperties` of a node the walker types `object`, or lies below one:
    /// under strict, closing that object replaces the schema by `false` ([`CLOSED`]), so the position does not
    /// survive there, whatever another node at the same path keeps.
    closed: bool,
    /// The node lies below a keyword that applies to none of the types of a union of the node holding it (the
    /// `properties` of a node whose `anyOf` admits only strings): it constrains no value there, so a target may drop
    /// its position with it (`google.type-applicability` once the union is merged into its node).
    vacuous_below: bool,
    /// The node or one above it refers to a target this reading does not follow (not a local pointer, or re-entering
    /// a reference being followed), whose keys would take part in it: the pipeline unrolls or keeps such a reference,
    /// so which of the positions below survive is not read here.
    below_unfollowed: bool,
}

impl<'a> Visit<'a> {
    /// The value of keyword `key` (camel case), reading a snake-case spelling first, the last layer first.
    fn get(&self, key: &str) -> Option<&'a Value> {
        layered(&self.layers, key)
    }

    /// The index of the layer that gives keyword `key` as [`Visit::get`] reads it (the last one when none does).
    fn source(&self, key: &str) -> usize {
        let snake = SNAKE
            .iter()
            .find(|(_, camel)| *camel == key)
            .map(|(s, _)| *s);
        (0..self.layers.len())
            .rev()
            .find(|&at| {
                let layer = self.layers[at];
                snake.is_some_and(|s| layer.contains_key(s)) || layer.contains_key(key)
            })
            .unwrap_or(self.layers.len() - 1)
    }

    /// Every keyword of the node, camel case, in first-seen order.
    fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for layer in &self.layers {
            for key in layer.keys() {
                let camel = SNAKE
                    .iter()
                    .find(|(s, _)| *s == key)
                    .map_or(key.as_str(), |(_, c)| *c);
                if !keys.iter().any(|k| k == camel) {
                    keys.push(camel.to_owned());
                }
            }
        }
        keys
    }

    /// The type names of each `allOf` entry of the node that gives a `type`, read through the entry's references
    /// (siblings winning) and down its own `allOf` entries: a value of the node is a value of every entry, so they
    /// are in conjunction with the node (the merge makes one node of them, a `$ref` entry expanded first).
    fn entry_types(&self, root: &'a Value) -> Vec<Vec<String>> {
        let mut found = Vec::new();
        let mut seen: HashSet<*const Map<String, Value>> = HashSet::new();
        let mut stack: Vec<&'a Value> = match self.get("allOf") {
            Some(Value::Array(entries)) => entries.iter().collect(),
            _ => Vec::new(),
        };
        while let Some(entry) = stack.pop() {
            let Value::Object(map) = entry else {
                continue;
            };
            if !seen.insert(std::ptr::from_ref(map)) {
                continue;
            }
            let layers = chain(root, map);
            if let Some(types) = layered(&layers, "type")
                .and_then(type_names)
                .filter(|t| !t.is_empty())
            {
                found.push(types);
            }
            if let Some(Value::Array(entries)) = layered(&layers, "allOf") {
                stack.extend(entries);
            }
        }
        found
    }

    /// The type sets a value of this node must have all at once: the nodes around it (for a union branch), its own
    /// type, its `allOf` entries' types and its unions' ([`Visit::union_types`]). Its own type is the one it gives,
    /// or else, when no entry gives one, the one the walker infers ([`Visit::types`]): the merge of a one-entry
    /// `allOf` (`W14`) brings the entry's type into the node before the walker infers one from `properties` (`W17`).
    /// Several entries merge first only as plain objects, so there the inferred type stands beside theirs.
    fn conjunction(&self, root: &'a Value) -> Vec<Vec<String>> {
        let mut sets = self.branch_of.clone().unwrap_or_default();
        let entries = self.entry_types(root);
        let given = matches!(self.get("type"), Some(Value::String(_) | Value::Array(_)));
        let one_entry = matches!(self.get("allOf"), Some(Value::Array(e)) if e.len() == 1);
        // A union is not merged before inference, so the walker still types a node with `properties` an object.
        let own = if given || entries.is_empty() || !one_entry {
            self.types()
        } else {
            Vec::new()
        };
        if !own.is_empty() {
            sets.push(own);
        }
        sets.extend(entries);
        sets.extend(self.union_types(root));
        sets
    }

    /// For each `anyOf` and `oneOf` of the node whose every branch says what kinds of value it admits
    /// ([`admitted_types`]), the types of all its branches: a value of the node is a value of one of them.
    fn union_types(&self, root: &'a Value) -> Vec<Vec<String>> {
        ["anyOf", "oneOf"]
            .into_iter()
            .filter_map(|combinator| match self.get(combinator) {
                Some(Value::Array(branches)) if !branches.is_empty() => {
                    let mut union: Vec<String> = Vec::new();
                    for branch in branches {
                        for t in admitted_types(root, branch, 8)? {
                            if !union.contains(&t) {
                                union.push(t);
                            }
                        }
                    }
                    Some(union)
                }
                _ => None,
            })
            .collect()
    }

    /// The type names of `type` (a string or an array of strings), or without `type` the one the walker infers
    /// from `properties`, `const` or a one-kind `enum`, or else the one a one-entry `allOf`'s referenced target gives
    /// (the merge of the entry brings it); empty when nothing says.
    fn types(&self) -> Vec<String> {
        if let Some(Value::String(_) | Value::Array(_)) = self.get("type") {
            return types_in(&self.layers);
        }
        if let Some(target) = self.recurs_to
            && matches!(target.get("type"), Some(Value::String(_) | Value::Array(_)))
        {
            return types_in(&[target]);
        }
        let own = types_in(&self.layers);
        match self.entry_target {
            Some(target)
                if own.is_empty() && self.get("const").is_none() && self.get("enum").is_none() =>
            {
                types_in(&[target])
            }
            _ => own,
        }
    }
}

/// The type names of `type` in `layers` (a string or an array of strings), or without `type` the one the walker
/// infers from `properties`, `const` or a one-kind `enum`; empty when nothing says.
fn types_in(layers: &[&Map<String, Value>]) -> Vec<String> {
    match layered(layers, "type") {
        Some(Value::String(t)) => return vec![t.clone()],
        Some(Value::Array(ts)) => {
            return ts
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
        }
        _ => {}
    }
    if layered(layers, "properties").is_some() {
        return vec!["object".to_owned()];
    }
    let values: Vec<&Value> = match (layered(layers, "const"), layered(layers, "enum")) {
        (Some(value), _) => vec![value],
        (None, Some(Value::Array(values))) if !values.is_empty() => values.iter().collect(),
        _ => return Vec::new(),
    };
    let kinds: HashSet<&str> = values.iter().map(|v| kind(v)).collect();
    if kinds.len() == 1 {
        kinds.into_iter().map(str::to_owned).collect()
    } else {
        Vec::new()
    }
}

/// The target of a one-entry `allOf` whose entry is a reference (a bare one, or one with siblings): the schema the
/// entry's chain of references ends at, at most a few links deep.
fn one_entry_target<'a>(
    input: &'a Value,
    all_of: Option<&'a Value>,
) -> Option<&'a Map<String, Value>> {
    let [Value::Object(entry)] = all_of?.as_array()?.as_slice() else {
        return None;
    };
    let mut at = entry;
    for _ in 0..8 {
        let Some(Value::String(reference)) = at.get("$ref") else {
            return (!std::ptr::eq(at, entry)).then_some(at);
        };
        let Some(Value::Object(target)) = resolve(input, reference) else {
            return None;
        };
        at = target;
    }
    None
}

/// The value of keyword `key` (camel case) in `layers`, reading a snake-case spelling first, the last layer first.
fn layered<'a>(layers: &[&'a Map<String, Value>], key: &str) -> Option<&'a Value> {
    let snake = SNAKE
        .iter()
        .find(|(_, camel)| *camel == key)
        .map(|(s, _)| *s);
    layers
        .iter()
        .rev()
        .find_map(|layer| snake.and_then(|s| layer.get(s)).or_else(|| layer.get(key)))
}

/// The layers of `map` as the pipeline reads it: the targets of its local `$ref` chain first, `map` last (so its
/// siblings win); the chain stops at a reference that does not resolve or that re-enters itself.
fn chain<'a>(root: &'a Value, map: &'a Map<String, Value>) -> Vec<&'a Map<String, Value>> {
    let mut layers = vec![map];
    let mut refs: Vec<&str> = Vec::new();
    while let Some(Value::String(reference)) = layers[0].get("$ref") {
        if refs.contains(&reference.as_str()) {
            break;
        }
        let Some(Value::Object(target)) = resolve(root, reference) else {
            break;
        };
        refs.push(reference);
        layers.insert(0, target);
    }
    layers
}

/// The type names of a `type` value (a string or an array of strings).
fn type_names(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::String(t) => Some(vec![t.clone()]),
        Value::Array(ts) => Some(
            ts.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    }
}

/// The type names of the values `schema` admits, read through its references (siblings winning), when it says: its
/// `type`, else the kinds of its `const` or `enum` values, else the types of the branches of its `anyOf` or `oneOf`
/// (down to `depth` unions); `None` when it does not say (no type is inferred from `properties`).
fn admitted_types(root: &Value, schema: &Value, depth: usize) -> Option<Vec<String>> {
    let Value::Object(map) = schema else {
        return None;
    };
    let layers = chain(root, map);
    if let Some(types) = layered(&layers, "type")
        .and_then(type_names)
        .filter(|t| !t.is_empty())
    {
        return Some(types);
    }
    let values: Vec<&Value> = match (layered(&layers, "const"), layered(&layers, "enum")) {
        (Some(value), _) => vec![value],
        (None, Some(Value::Array(values))) if !values.is_empty() => values.iter().collect(),
        _ => Vec::new(),
    };
    if !values.is_empty() {
        let mut names: Vec<String> = Vec::new();
        for value in values {
            if !names.iter().any(|n| n == kind(value)) {
                names.push(kind(value).to_owned());
            }
        }
        return Some(names);
    }
    let depth = depth.checked_sub(1)?;
    ["anyOf", "oneOf"].into_iter().find_map(|combinator| {
        let Some(Value::Array(branches)) = layered(&layers, combinator) else {
            return None;
        };
        if branches.is_empty() {
            return None;
        }
        let mut union: Vec<String> = Vec::new();
        for branch in branches {
            for t in admitted_types(root, branch, depth)? {
                if !union.contains(&t) {
                    union.push(t);
                }
            }
        }
        Some(union)
    })
}

/// The JSON type name of a value (`integer` for a number without fraction or exponent).
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The kinds of value that have a type of every one of `sets` at once, or `None` when no set says anything. Intersected
/// as kinds of value: `number` is the integers and the other numbers (`fraction`), `integer` the integers; any other
/// name is a kind of its own.
fn common_kinds(sets: &[Vec<String>]) -> Option<HashSet<String>> {
    let mut sets = sets.iter().filter(|set| !set.is_empty());
    let first = sets.next()?;
    let mut common: HashSet<String> = first.iter().flat_map(|t| kinds(t)).collect();
    for set in sets {
        let admitted: HashSet<String> = set.iter().flat_map(|t| kinds(t)).collect();
        common.retain(|k| admitted.contains(k));
    }
    Some(common)
}

/// The kinds of value a type name stands for (see [`common_kinds`]).
fn kinds(name: &str) -> Vec<String> {
    if name == "number" {
        vec!["integer".to_owned(), "fraction".to_owned()]
    } else {
        vec![name.to_owned()]
    }
}

/// Whether no value has a type of every one of `sets` at once ([`Visit::conjunction`] of a union branch: the nodes
/// around it, its own type and its typed `allOf` entries). A value must satisfy the node and the branch it is
/// matched through, so an empty intersection means the branch, and every node below it at the same position (an
/// `allOf` entry of the branch, a branch of its own unions), admits nothing.
fn admits_nothing(sets: &[Vec<String>]) -> bool {
    common_kinds(sets).is_some_and(|common| common.is_empty())
}

/// Resolves a local reference (`#` or `#/json/pointer`) inside `root`.
/// `value` and the targets of its chain of local references, each a schema object of its own.
fn reference_chain<'a>(root: &'a Value, value: &'a Value) -> Vec<&'a Map<String, Value>> {
    let mut chain: Vec<&'a Map<String, Value>> = Vec::new();
    let mut at = value;
    while let Value::Object(map) = at {
        if chain.iter().any(|m| std::ptr::eq(*m, map)) {
            break;
        }
        chain.push(map);
        match map.get("$ref") {
            Some(Value::String(reference)) => match resolve(root, reference) {
                Some(target) => at = target,
                None => break,
            },
            _ => break,
        }
    }
    chain
}

/// Whether the schema object `map` admits no property `name`: its `additionalProperties` (in either spelling, the
/// walk reads the snake-case one as the keyword) is `false`, nothing else there could declare names (no
/// `patternProperties` in either spelling, no reference whose siblings a draft might ignore), and its `properties` do
/// not name it.
fn closes_out(map: &Map<String, Value>, name: &str) -> bool {
    let closing = match (
        map.get("additionalProperties"),
        map.get("additional_properties"),
    ) {
        (Some(value), None) | (None, Some(value)) => value == &Value::Bool(false),
        _ => false,
    };
    closing
        && !["patternProperties", "pattern_properties", "$ref"]
            .iter()
            .any(|k| map.contains_key(*k))
        && match map.get("properties") {
            None => true,
            Some(Value::Object(declared)) => !declared.contains_key(name),
            Some(_) => false,
        }
}

fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    if !fragment.starts_with('/') {
        return None;
    }
    root.pointer(&percent_decode(fragment)?)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = text.get(at + 1..at + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// What the enumeration of an input met besides nodes.
struct Enumerated<'a> {
    root: &'a Value,
    visits: Vec<Visit<'a>>,
    /// References that are not local pointers, or that re-enter a reference being followed: the subtree below is
    /// not checked.
    unfollowed: usize,
}

/// The largest number of input nodes enumerated for one schema (the pipeline's own node budget is 32,768).
const MAX_VISITS: usize = 200_000;

/// Every node of `input` at a schema position, following local references and the draft upgrades.
fn enumerate<'a>(input: &'a Value) -> Enumerated<'a> {
    struct Frame<'a> {
        value: &'a Value,
        path: Vec<Step>,
        pointer: String,
        refs: Vec<String>,
        branch_of: Option<Vec<Vec<String>>>,
        shadow: Vec<String>,
        below_all_of: bool,
        closed: bool,
        vacuous_below: bool,
        below_unfollowed: bool,
        trail: Vec<(&'static str, usize, usize)>,
        /// For an `allOf` entry: the schema objects it is in conjunction with at its position (the node holding
        /// the `allOf`, its reference targets, the other entries and theirs, and those of the nodes above it that
        /// it is an entry of).
        conjuncts: Vec<&'a Map<String, Value>>,
    }
    let mut out = Enumerated {
        root: input,
        visits: Vec::new(),
        unfollowed: 0,
    };
    let mut stack = vec![Frame {
        value: input,
        path: Vec::new(),
        pointer: String::new(),
        refs: Vec::new(),
        branch_of: None,
        shadow: Vec::new(),
        below_all_of: false,
        closed: false,
        vacuous_below: false,
        below_unfollowed: false,
        trail: Vec::new(),
        conjuncts: Vec::new(),
    }];
    while let Some(frame) = stack.pop() {
        if out.visits.len() >= MAX_VISITS {
            out.unfollowed += 1;
            break;
        }
        let Value::Object(map) = frame.value else {
            continue;
        };
        // The reference chain: each target below the node that refers to it. A child lies in the layer that gives
        // it, where the references being followed are those the pipeline has on its stack when it walks that layer:
        // a target is walked with its reference pushed (and the chain's references before it), while the merged
        // node is walked with them popped (`resolve.inline-ref`), so a reference among the referencing node's own
        // keys back to the same target is no cycle. `origins` holds, per layer, its pointer and those references.
        let mut layers = vec![map];
        let mut origins = vec![(frame.pointer.clone(), frame.refs.clone())];
        let mut refs = frame.refs.clone();
        let mut pointer = frame.pointer.clone();
        let mut cut = false;
        let mut recurs_to = None;
        while let Some(Value::String(reference)) = layers[0].get("$ref") {
            if refs.contains(reference) {
                cut = true;
                if let Some(Value::Object(target)) = resolve(input, reference) {
                    recurs_to = Some(target);
                }
                break;
            }
            let Some(Value::Object(target)) = resolve(input, reference) else {
                cut = true;
                break;
            };
            refs.push(reference.clone());
            reference.trim_start_matches('#').clone_into(&mut pointer);
            layers.insert(0, target);
            origins.insert(0, (pointer.clone(), refs.clone()));
        }
        if cut {
            out.unfollowed += 1;
        }
        let entry_target = one_entry_target(input, layered(&layers, "allOf"));
        let visit = Visit {
            path: frame.path.clone(),
            pointer: pointer.clone(),
            layers,
            recurs_to,
            entry_target,
            branch_of: frame.branch_of.clone(),
            shadow: frame.shadow.clone(),
            below_all_of: frame.below_all_of,
            trail: frame.trail.clone(),
            closed: frame.closed,
            vacuous_below: frame.vacuous_below,
            below_unfollowed: frame.below_unfollowed || cut,
        };
        // The keys the referencing node's siblings give: they replace the target's, including what the target's
        // unions would merge into it, so its union branches do not contribute them. Along a chain of references the
        // same holds at each link: a union of a deeper target is replaced by the keys of every layer above it (an
        // intermediate target's own siblings too).
        let sibling_keys = |layers: &[&Map<String, Value>]| -> Vec<String> {
            layers
                .iter()
                .flat_map(|layer| layer.keys())
                .filter(|k| !matches!(k.as_str(), "$ref" | "description"))
                .map(|k| {
                    SNAKE
                        .iter()
                        .find(|(s, _)| *s == k)
                        .map_or(k.clone(), |(_, c)| (*c).to_owned())
                })
                .collect()
        };
        let mut branch_shadow = visit.shadow.clone();
        if visit.layers.len() > 1 {
            branch_shadow.extend(sibling_keys(&[map]));
        }
        // Children under a key a sibling replaces, or under a key the node's own type makes vacuous (`properties`
        // of an array), describe nothing the output must keep. The same holds in a union branch for a key that the
        // type of a node around it makes vacuous (`properties` of a branch of a string node: VACUOUS), and for every
        // child of a branch whose type shares no value with the nodes around it taken together, or of a node below
        // such a branch at the same position (an `allOf` entry of it, typed or not): it admits nothing (CONJUNCTION).
        let own = visit.types();
        let around = visit.branch_of.clone().unwrap_or_default();
        let conjunction = visit.conjunction(input);
        let admits_nothing = visit.branch_of.is_some() && admits_nothing(&conjunction);
        let common = common_kinds(&conjunction).filter(|c| !c.is_empty());
        let shadowed = |key: &str| {
            visit.shadow.iter().any(|s| s == key)
                || admits_nothing
                || applies_to(key).is_some_and(|applies| {
                    let excludes =
                        |types: &[String]| !types.iter().any(|t| applies.contains(&t.as_str()));
                    (!own.is_empty() && excludes(&own))
                        || around.iter().any(|types| excludes(types))
                        || common.as_ref().is_some_and(|c| excludes_kinds(applies, c))
                })
        };
        // What the node gives the union branches below it: its own type and its entries' types, which they are in
        // conjunction with.
        let own_sets = conjunction[around.len()..].to_vec();
        // Under strict, closing replaces a schema `additionalProperties` of every node typed `object` (its own type,
        // inferred from `properties`, or else an `allOf` entry's).
        let object = |types: &[String]| types.iter().any(|t| t == "object");
        let types_object =
            object(&own) || (own.is_empty() && visit.entry_types(input).iter().any(|t| object(t)));
        // A value of the node has a type of each of its unions, so a keyword for none of them constrains nothing.
        let union_types = visit.union_types(input);
        let vacuous_by_union = |key: &str| {
            applies_to(key).is_some_and(|applies| {
                union_types
                    .iter()
                    .any(|types| !types.iter().any(|t| applies.contains(&t.as_str())))
            })
        };
        // The schema objects this node is in conjunction with: its own layers, its `allOf` entries (with their
        // reference targets) and, for an entry, what the node it is an entry of is in conjunction with. One of them
        // with `additionalProperties: false` and no `patternProperties` admits no property its `properties` do not
        // name, so a property another of them declares is never present: what lies below it constrains nothing, and
        // a merge may drop it (`walk.merge-all-of`).
        let mut conjuncts = frame.conjuncts.clone();
        conjuncts.extend(visit.layers.iter().copied());
        if let Some(Value::Array(entries)) = visit.get("allOf") {
            for entry in entries {
                conjuncts.extend(reference_chain(input, entry));
            }
        }
        let forbidden = |name: &str| conjuncts.iter().any(|map| closes_out(map, name));
        let mut push =
            |value: &'a Value, step: Option<Step>, at: String, branch: Option<Vec<Vec<String>>>| {
                let mut trail = Vec::new();
                if step.is_none() {
                    let mut parts = at.split('/');
                    let first = parts.next();
                    let combinator = ["anyOf", "oneOf", "allOf"]
                        .into_iter()
                        .find(|c| first == Some(*c));
                    let index = parts.next().and_then(|i| i.parse::<usize>().ok());
                    if let (Some(combinator), Some(index)) = (combinator, index) {
                        let count = visit
                            .get(combinator)
                            .and_then(Value::as_array)
                            .map_or(0, Vec::len);
                        trail.clone_from(&frame.trail);
                        trail.push((combinator, index, count));
                    }
                }
                let closed = frame.closed || (types_object && step == Some(Step::Additional));
                let vacuous_below = frame.vacuous_below
                    || (step.is_some()
                        && vacuous_by_union(at.split('/').next().unwrap_or_default()))
                    || matches!(&step, Some(Step::Property(name)) if forbidden(name));
                let mut path = frame.path.clone();
                let union = step.is_none();
                path.extend(step);
                let below_all_of = frame.below_all_of || at.starts_with("allOf/");
                let key = at.split('/').next().unwrap_or_default();
                let from = visit.source(key);
                let (pointer, refs) = &origins[from];
                stack.push(Frame {
                    below_all_of,
                    closed,
                    vacuous_below,
                    below_unfollowed: visit.below_unfollowed,
                    value,
                    path,
                    pointer: format!("{pointer}/{at}"),
                    refs: refs.clone(),
                    conjuncts: if at.starts_with("allOf/") {
                        conjuncts.clone()
                    } else {
                        Vec::new()
                    },
                    branch_of: branch,
                    trail,
                    shadow: if union {
                        let mut shadow = branch_shadow.clone();
                        shadow.extend(sibling_keys(&visit.layers[from + 1..]));
                        shadow
                    } else {
                        Vec::new()
                    },
                });
            };
        if !shadowed("properties")
            && let Some(Value::Object(members)) = visit.get("properties")
        {
            for (name, child) in members {
                push(
                    child,
                    Some(Step::Property(name.clone())),
                    format!("properties/{}", escape(name)),
                    None,
                );
            }
        }
        if !shadowed("patternProperties")
            && let Some(Value::Object(members)) = visit.get("patternProperties")
        {
            for (re, child) in members {
                push(
                    child,
                    Some(Step::Pattern(re.clone())),
                    format!("patternProperties/{}", escape(re)),
                    None,
                );
            }
        }
        for container in ["dependentSchemas", "dependencies"] {
            if !shadowed(container)
                && let Some(Value::Object(members)) = visit.get(container)
            {
                for (name, child) in members.iter().filter(|(_, c)| !c.is_array()) {
                    push(
                        child,
                        Some(Step::Dependent(name.clone())),
                        format!("{container}/{}", escape(name)),
                        None,
                    );
                }
            }
        }
        match visit.get("items").filter(|_| !shadowed("items")) {
            Some(Value::Array(entries)) => {
                for (at, child) in entries.iter().enumerate() {
                    push(child, Some(Step::Tuple(at)), format!("items/{at}"), None);
                }
                if let Some(rest) = visit.get("additionalItems") {
                    push(rest, Some(Step::Items), "additionalItems".to_owned(), None);
                }
            }
            Some(items) => push(items, Some(Step::Items), "items".to_owned(), None),
            None => {}
        }
        if !shadowed("prefixItems")
            && let Some(Value::Array(entries)) = visit.get("prefixItems")
        {
            for (at, child) in entries.iter().enumerate() {
                push(
                    child,
                    Some(Step::Tuple(at)),
                    format!("prefixItems/{at}"),
                    None,
                );
            }
        }
        if !shadowed("additionalProperties")
            && let Some(additional @ Value::Object(_)) = visit.get("additionalProperties")
        {
            push(
                additional,
                Some(Step::Additional),
                "additionalProperties".to_owned(),
                None,
            );
        }
        for keyword in named_steps() {
            if !shadowed(keyword)
                && let Some(child) = visit.get(keyword)
            {
                push(
                    child,
                    Some(Step::Keyword(keyword)),
                    keyword.to_owned(),
                    None,
                );
            }
        }
        for combinator in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(entries)) = visit.get(combinator) {
                for (at, child) in entries.iter().enumerate() {
                    let mut around = visit.branch_of.clone().unwrap_or_default();
                    around.extend(own_sets.iter().filter(|t| !t.is_empty()).cloned());
                    push(child, None, format!("{combinator}/{at}"), Some(around));
                }
            }
        }
        out.visits.push(visit);
    }
    out
}

/// The output nodes at every path asked for, computed once per path.
struct OutputIndex<'a> {
    root: &'a Value,
    memo: HashMap<Vec<Step>, Vec<&'a Map<String, Value>>>,
}

impl<'a> OutputIndex<'a> {
    fn new(root: &'a Value) -> Self {
        OutputIndex {
            root,
            memo: HashMap::new(),
        }
    }

    /// `value` and every node reachable from it through union branches and local references.
    fn expand(&self, value: &'a Value, into: &mut Vec<&'a Map<String, Value>>) {
        let mut seen: HashSet<*const Map<String, Value>> =
            into.iter().map(|m| std::ptr::from_ref(*m)).collect();
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            let Value::Object(map) = value else {
                continue;
            };
            if !seen.insert(std::ptr::from_ref(map)) {
                continue;
            }
            into.push(map);
            for combinator in ["anyOf", "oneOf", "allOf"] {
                if let Some(Value::Array(entries)) = map.get(combinator) {
                    stack.extend(entries);
                }
            }
            if let Some(target) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| resolve(self.root, r))
            {
                stack.push(target);
            }
        }
    }

    fn step(map: &'a Map<String, Value>, step: &Step) -> Option<&'a Value> {
        match step {
            Step::Property(name) => map.get("properties")?.get(name),
            Step::Items => map.get("items").filter(|v| !v.is_array()),
            Step::Tuple(at) => map.get("prefixItems")?.get(*at),
            Step::Additional => map.get("additionalProperties").filter(|v| v.is_object()),
            Step::Pattern(re) => map.get("patternProperties")?.get(re),
            Step::Dependent(name) => map.get("dependentSchemas")?.get(name),
            Step::Keyword(k) => map.get(*k),
        }
    }

    /// The output nodes that stand for the union branch that `trail` leads to from the nodes at `path` (see
    /// [`Visit::trail`]): at each link, entry `index` of every node there whose union of that combinator (`anyOf` or
    /// `oneOf` for either, which `walk.one-of-to-any-of` renames) still has `count` entries, with what its union
    /// branches and references reach. `None` where no such node is left (the union was merged, cut to fewer
    /// branches or collapsed): the position's nodes are then read together. `None` too where a node at the link
    /// holds such a union with another count: the position joins the nodes of several alternatives above it (the
    /// `items` of each branch of a union around a property), and a union of the same count in another alternative
    /// (a tuple's `prefixItems` that Google writes as an `anyOf` of its places) is not this one, which was cut.
    fn branch(
        &mut self,
        path: &[Step],
        trail: &[(&'static str, usize, usize)],
    ) -> Option<Vec<&'a Map<String, Value>>> {
        let mut current = self.at(path);
        for &(combinator, index, count) in trail {
            let names: &[&str] = if combinator == "allOf" {
                &["allOf"]
            } else {
                &["anyOf", "oneOf"]
            };
            let mut next = Vec::new();
            let mut found = false;
            for map in &current {
                for name in names {
                    let Some(Value::Array(entries)) = map.get(*name) else {
                        continue;
                    };
                    if entries.len() != count {
                        return None;
                    }
                    if let Some(entry) = entries.get(index) {
                        found = true;
                        self.expand(entry, &mut next);
                    }
                }
            }
            if !found {
                return None;
            }
            current = next;
        }
        Some(current)
    }

    /// The output nodes at `path`.
    fn at(&mut self, path: &[Step]) -> Vec<&'a Map<String, Value>> {
        if let Some(found) = self.memo.get(path) {
            return found.clone();
        }
        let found = match path.split_last() {
            None => {
                let mut nodes = Vec::new();
                self.expand(self.root, &mut nodes);
                nodes
            }
            Some((last, parent)) => {
                let parents = self.at(parent);
                let mut nodes = Vec::new();
                for map in parents {
                    if let Some(child) = Self::step(map, last) {
                        self.expand(child, &mut nodes);
                    }
                }
                nodes
            }
        };
        self.memo.insert(path.to_vec(), found.clone());
        found
    }
}

/// How each keyword the input holds at a surviving position was accounted for, summed over many checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Keywords checked.
    pub(crate) checked: usize,
    /// Still present at their position.
    pub(crate) kept: usize,
    /// Named with the `(keyword:` marker in a description at their position.
    pub(crate) lifted: usize,
    /// Inside a union branch or container named whole in a description at their position.
    pub(crate) named: usize,
    /// Written as an equivalent keyword (`const` as a one-value `enum`, a draft-04 bound as its exclusive form).
    pub(crate) equivalent: usize,
    /// Dropped by a listed rule, per rule.
    pub(crate) dropped: BTreeMap<&'static str, usize>,
    /// Input positions that do not survive (their keywords are not checked).
    pub(crate) gone: usize,
    /// References not followed (not local, or re-entering themselves).
    pub(crate) unfollowed: usize,
    /// Schemas skipped because the report says they fell back.
    pub(crate) fell_back: usize,
}

impl Tally {
    pub(crate) fn add(&mut self, other: &Tally) {
        self.checked += other.checked;
        self.kept += other.kept;
        self.lifted += other.lifted;
        self.named += other.named;
        self.equivalent += other.equivalent;
        for (rule, n) in &other.dropped {
            *self.dropped.entry(rule).or_default() += n;
        }
        self.gone += other.gone;
        self.unfollowed += other.unfollowed;
        self.fell_back += other.fell_back;
    }
}

/// The target and mode an output was made for, as the invariant needs them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mode {
    /// Google or Code Assist (the Google keep-list and value rules).
    pub(crate) google_family: bool,
    /// The target's keep-list as this invariant writes it out, when the target has one.
    pub(crate) keep: Option<&'static [&'static str]>,
    /// The target removes `required` names without a declared property.
    pub(crate) filter_required: bool,
    /// Strict was effective (the report says strict).
    pub(crate) strict: bool,
}

impl Mode {
    pub(crate) fn of(target: Target, report: &Normalization) -> Mode {
        let rules = target.rules().rules();
        Mode {
            google_family: rules.google_values,
            keep: keep_list(target),
            filter_required: rules.filter_required,
            strict: report.strict,
        }
    }
}

/// The keys `target` keeps whatever their value (its keep-list's unconditional names, the same under both keyword
/// profiles), read from the library, or `None` for a target without a keep-list (Google, Code Assist and google-json
/// have one); every other key such a target removes or keeps only under a condition.
fn keep_list(target: Target) -> Option<&'static [&'static str]> {
    target
        .rules()
        .rules()
        .keep_set(Keywords::Conservative)
        .map(|set| set.names)
}

/// Checks the loss invariant for one output; returns the violations (empty when it holds) and the tally.
pub(crate) fn check(
    input: &Value,
    output: &Value,
    report: &Normalization,
    mode: Mode,
) -> (Vec<String>, Tally) {
    let mut tally = Tally::default();
    if report.used_fallback {
        tally.fell_back = 1;
        return (Vec::new(), tally);
    }
    check_enumerated(&enumerate(input), output, mode)
}

fn check_enumerated(input: &Enumerated<'_>, output: &Value, mode: Mode) -> (Vec<String>, Tally) {
    let mut tally = Tally {
        unfollowed: input.unfollowed,
        ..Tally::default()
    };
    let mut violations = Vec::new();
    let mut index = OutputIndex::new(output);
    for visit in &input.visits {
        if mode.strict && visit.closed {
            let keys = visit.keys().len();
            tally.checked += keys;
            *tally.dropped.entry(CLOSED.rule).or_default() += keys;
            continue;
        }
        let nodes = index.at(&visit.path);
        if nodes.is_empty() {
            tally.gone += 1;
            for (key, above) in vanished_unnamed(&mut index, visit, input.root, mode) {
                violations.push(format!(
                    "{key} at {} (input {}) vanished with its position, and no description at {} names it",
                    path_text(&visit.path),
                    if visit.pointer.is_empty() {
                        "/"
                    } else {
                        &visit.pointer
                    },
                    path_text(&visit.path[..above])
                ));
            }
            continue;
        }
        let descriptions: Vec<&str> = nodes
            .iter()
            .filter_map(|n| n.get("description").and_then(Value::as_str))
            .collect();
        // A union branch that survives as a branch of its own: a keyword kept or lifted at the position must be so in
        // that branch, not only in another branch at the same position.
        let branch = if visit.trail.is_empty() {
            None
        } else {
            index.branch(&visit.path, &visit.trail)
        };
        let branch_descriptions: Vec<&str> = branch
            .iter()
            .flatten()
            .filter_map(|n| n.get("description").and_then(Value::as_str))
            .collect();
        for key in visit.keys() {
            let Some(value) = visit.get(&key) else {
                continue;
            };
            tally.checked += 1;
            let accounted = account(input.root, visit, &key, value, &nodes, &descriptions, mode)
                .or_else(|why| {
                    // A union narrowed or cut above this position: the branch that held the keyword is named in a
                    // description of the union's node (`(anyOf: [...])`, `(omitted anyOf: kind)`, or a recursive
                    // branch cut below the unrolling depth, `(recursive anyOf: ...)`). Or the property on the way
                    // down was removed from one branch (`(omitted name: kind)`), or cut there below the unrolling
                    // depth (`(recursive name: ...)`), and lives on from another.
                    let named_above =
                        named_above(&mut index, &visit.path, &key, input.root, visit.path.len());
                    if named_above {
                        Ok(Account::Named)
                    } else {
                        Err(why)
                    }
                })
                .and_then(|found| match (&found, &branch) {
                    (Account::Kept | Account::Lifted, Some(branch)) => account(
                        input.root,
                        visit,
                        &key,
                        value,
                        branch,
                        &branch_descriptions,
                        mode,
                    )
                    .or_else(|_| {
                        // The branch's every property was removed or cut there, each named by its note.
                        let members_named = key == "properties"
                            && value.as_object().is_some_and(|members| {
                                members.keys().all(|name| {
                                    branch_descriptions.iter().any(|d| {
                                        d.contains(&format!("(omitted {name}: "))
                                            || d.contains(&format!("(recursive {name}: "))
                                    })
                                })
                            });
                        // The type-array split put the keyword in another branch: every node of this one has a
                        // type it does not apply to (a `maximum` of an `["integer", "string"]` branch that the split
                        // and Google's nullable collapse made two branches, the string one standing where the input's
                        // branch stood).
                        let split_away = vacuous(&key, value, &[], None, branch);
                        // The branch (or a union in it) was removed and named at this position or above.
                        if members_named
                            || split_away
                            || named_above(
                            &mut index,
                            &visit.path,
                            &key,
                            input.root,
                            visit.path.len() + 1,
                        ) {
                            Ok(Account::Named)
                        } else {
                            Err(format!(
                                "is missing from its union branch ({}), though another branch at the same \
                                 position holds it",
                                trail_text(&visit.trail)
                            ))
                        }
                    }),
                    _ => Ok(found),
                });
            match accounted {
                Ok(Account::Kept) => tally.kept += 1,
                Ok(Account::Lifted) => tally.lifted += 1,
                Ok(Account::Named) => tally.named += 1,
                Ok(Account::Equivalent) => tally.equivalent += 1,
                Ok(Account::Dropped(rule)) => *tally.dropped.entry(rule).or_default() += 1,
                Err(_)
                    if visit.below_all_of
                        && named_in_all_of_above(&mut index, &visit.path, &key, input.root) =>
                {
                    tally.named += 1;
                }
                Err(why) => violations.push(format!(
                    "{key} at {} (input {}) {why}",
                    path_text(&visit.path),
                    if visit.pointer.is_empty() {
                        "/"
                    } else {
                        &visit.pointer
                    }
                )),
            }
        }
    }
    (violations, tally)
}

/// How the occurrences of some keywords in an input fared in one output, by the loss invariant's accounting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fate {
    /// Still present at their position.
    pub(crate) kept: usize,
    /// Named in a description at their position: lifted with the `(keyword:` marker, inside a removed union branch
    /// named whole, or written as an equivalent keyword.
    pub(crate) described: usize,
    /// Removed by a listed rule where they constrain nothing (a bound on a node of another type, a `$ref` sibling
    /// shadowing them, a branch that admits nothing, a boolean exclusive bound upgraded).
    pub(crate) dropped: usize,
    /// At a position that does not survive because a rule removed it and named it whole in a description.
    pub(crate) removed_part: usize,
    /// Neither kept nor named: a violation of the loss invariant.
    pub(crate) lost: usize,
}

impl Fate {
    pub(crate) fn add(&mut self, other: Fate) {
        self.kept += other.kept;
        self.described += other.described;
        self.dropped += other.dropped;
        self.removed_part += other.removed_part;
        self.lost += other.lost;
    }

    pub(crate) fn total(self) -> usize {
        self.kept + self.described + self.dropped + self.removed_part + self.lost
    }
}

/// How many occurrences of `keys` the input holds, counted at each position as the invariant reads the input (a
/// definition referenced twice counts twice).
pub(crate) fn occurrences(input: &Value, keys: &[&str]) -> usize {
    enumerate(input)
        .visits
        .iter()
        .map(|visit| {
            visit
                .keys()
                .iter()
                .filter(|k| keys.contains(&k.as_str()))
                .count()
        })
        .sum()
}

/// The fate of every occurrence of `keys` in `input` in `output` (an output that is not the fallback).
pub(crate) fn fate(input: &Value, output: &Value, mode: Mode, keys: &[&str]) -> Fate {
    let enumerated = enumerate(input);
    let mut fate = Fate::default();
    let mut index = OutputIndex::new(output);
    for visit in &enumerated.visits {
        let present: Vec<String> = visit
            .keys()
            .into_iter()
            .filter(|k| keys.contains(&k.as_str()))
            .collect();
        if present.is_empty() {
            continue;
        }
        // A schema `additionalProperties` that strict closing replaced counts as a removed part, as it did when no
        // other node at its path kept one.
        let nodes = index.at(&visit.path);
        if mode.strict && visit.closed {
            fate.removed_part += present.len();
            continue;
        }
        if nodes.is_empty() {
            let unnamed = vanished_unnamed(&mut index, visit, enumerated.root, mode);
            let lost = present
                .iter()
                .filter(|k| unnamed.iter().any(|(u, _)| u == *k))
                .count();
            fate.lost += lost;
            fate.removed_part += present.len() - lost;
            continue;
        }
        let descriptions: Vec<&str> = nodes
            .iter()
            .filter_map(|n| n.get("description").and_then(Value::as_str))
            .collect();
        for key in present {
            let Some(value) = visit.get(&key) else {
                continue;
            };
            match account(
                enumerated.root,
                visit,
                &key,
                value,
                &nodes,
                &descriptions,
                mode,
            ) {
                Ok(Account::Kept) => fate.kept += 1,
                Ok(Account::Lifted | Account::Named | Account::Equivalent) => fate.described += 1,
                Ok(Account::Dropped(_)) => fate.dropped += 1,
                Err(_) => fate.lost += 1,
            }
        }
    }
    fate
}

/// Whether an `(allOf:` fragment at a position above `path` names a subtree that holds `key`: an `allOf` that could
/// not be merged, lifted whole by a target without `allOf` (google-json), names the positions below its entries.
fn named_in_all_of_above(
    index: &mut OutputIndex<'_>,
    path: &[Step],
    key: &str,
    input: &Value,
) -> bool {
    let marker = format!("({key}:");
    (0..path.len()).any(|depth| {
        index.at(&path[..depth]).iter().any(|node| {
            node.get("description")
                .and_then(Value::as_str)
                .is_some_and(|description| {
                    description.match_indices("(allOf: ").any(|(at, _)| {
                        let rest = &description[at + "(allOf: ".len()..];
                        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
                        matches!(values.next(), Some(Ok(subtree)) if holds(&subtree, key, &marker, input))
                    })
                })
        })
    })
}

/// Whether a description at a position above `path` (the first `end` prefixes of it, so `path.len() + 1` takes the
/// position itself in) accounts for `key`: a union narrowed or cut there, whose branch that held the keyword is named
/// (`(anyOf: [...])`, `(omitted anyOf: kind)`, or a recursive branch cut below the unrolling depth,
/// `(recursive anyOf: ...)`), or the property on the way down removed from one branch (`(omitted name: kind)`) or cut
/// there below the unrolling depth (`(recursive name: ...)`), which lives on from another.
fn named_above(
    index: &mut OutputIndex<'_>,
    path: &[Step],
    key: &str,
    input: &Value,
    end: usize,
) -> bool {
    (0..end.min(path.len() + 1)).rev().any(|depth| {
        let above = index.at(&path[..depth]);
        let texts: Vec<&str> = above
            .iter()
            .filter_map(|n| n.get("description").and_then(Value::as_str))
            .collect();
        let omitted_here = match path.get(depth) {
            Some(Step::Property(name)) => {
                vec![format!("(omitted {name}: "), format!("(recursive {name}: ")]
            }
            _ => Vec::new(),
        };
        named_in_fragment(key, &texts, input)
            || texts.iter().any(|d| {
                d.contains("(omitted anyOf: ")
                    || d.contains("(omitted oneOf: ")
                    || d.contains("(recursive anyOf:")
                    || d.contains("(recursive oneOf:")
                    || omitted_here.iter().any(|o| d.contains(o.as_str()))
            })
    })
}

/// The lift-list keywords of `visit`, whose position has no output node, that no description above names, each with
/// the depth of the nearest position above that survives. A position vanishes with a subtree that a rule removed and
/// named at a position above: a container lifted whole (`(items: …)`, `(not: …)`, `(patternProperties: …)`), a
/// property omitted or cut below the unrolling depth (`(omitted name: kind)`, `(recursive name: …)`), a recursive
/// site made a stub (its own `(recursive name: …)`), or a union branch removed and named (`(anyOf: [...])` holding
/// the keyword, `(omitted anyOf: kind)`, `(recursive anyOf: …)`).
fn vanished_unnamed(
    index: &mut OutputIndex<'_>,
    visit: &Visit<'_>,
    input: &Value,
    mode: Mode,
) -> Vec<(String, usize)> {
    // A keyword a listed rule drops where it stands is not looked for above (a `pattern` of a `null` node, which the
    // walk removed from the union branch it then named whole).
    let keys: Vec<String> = visit
        .keys()
        .into_iter()
        .filter(|k| LIFT_LIST.contains(&k.as_str()))
        .filter(|k| {
            visit
                .get(k)
                .is_some_and(|value| lift_drop(input, visit, k, value, &[]).is_none())
        })
        .collect();
    if keys.is_empty() || visit.vacuous_below || visit.below_unfollowed {
        return Vec::new();
    }
    let path = &visit.path;
    let Some(surviving) = (0..path.len())
        .rev()
        .find(|&d| !index.at(&path[..d]).is_empty())
    else {
        return keys.into_iter().map(|k| (k, 0)).collect();
    };
    // A step below the surviving position goes through a container that the target removes on purpose, a key
    // outside its keep-list that is not on the lift list (a schema `additionalProperties` on Google and Code Assist,
    // `unevaluatedProperties`): the listed drop (`target.keyword`) takes what lies below it, also inside a union
    // branch named whole as walked.
    if path[surviving..].iter().map(step_keyword).any(|container| {
        !LIFT_LIST.contains(&container) && mode.keep.is_some_and(|keep| !keep.contains(&container))
    }) {
        return Vec::new();
    }
    let mut texts_at: Vec<Vec<&str>> = Vec::new();
    for depth in 0..=surviving {
        texts_at.push(
            index
                .at(&path[..depth])
                .iter()
                .filter_map(|n| n.get("description").and_then(Value::as_str))
                .collect(),
        );
    }
    let whole = (0..=surviving).any(|depth| {
        let mut markers = container_markers(&path[depth]);
        // A property further down omitted or cut inside a union branch that is named whole here: its note is part of
        // the fragment's text.
        for step in &path[depth + 1..] {
            if let Step::Property(name) = step {
                markers.push(format!("(omitted {name}: "));
                markers.push(format!("(recursive {name}: "));
            }
        }
        // A stub left at a recursive site names itself.
        let stub = depth
            .checked_sub(1)
            .and_then(|above| path.get(above))
            .map(step_name)
            .map(|name| format!("(recursive {name}: "));
        texts_at[depth].iter().any(|d| {
            markers.iter().any(|m| d.contains(m.as_str()))
                || (depth == surviving && stub.as_ref().is_some_and(|s| d.contains(s.as_str())))
                || d.contains("(omitted anyOf: ")
                || d.contains("(omitted oneOf: ")
                || d.contains("(recursive anyOf:")
                || d.contains("(recursive oneOf:")
        })
    });
    if whole {
        return Vec::new();
    }
    keys.into_iter()
        .filter(|key| {
            !texts_at
                .iter()
                .any(|texts| named_in_fragment(key, texts, input))
        })
        .map(|key| (key, surviving))
        .collect()
}

/// The fragments that name the subtree at step `step` below a node, removed whole: its container lifted, or the
/// property omitted or cut.
fn container_markers(step: &Step) -> Vec<String> {
    match step {
        Step::Property(name) => vec![
            format!("(omitted {name}: "),
            format!("(recursive {name}: "),
            "(properties:".to_owned(),
        ],
        Step::Items => vec!["(items:".to_owned()],
        Step::Tuple(_) => vec!["(prefixItems:".to_owned(), "(items:".to_owned()],
        Step::Additional => vec!["(additionalProperties:".to_owned()],
        Step::Pattern(_) => vec!["(patternProperties:".to_owned()],
        Step::Dependent(_) => vec!["(dependentSchemas:".to_owned(), "(dependencies:".to_owned()],
        Step::Keyword(k) => vec![format!("({k}:")],
    }
}

/// The keyword that holds the child reached by `step`.
fn step_keyword(step: &Step) -> &'static str {
    match step {
        Step::Property(_) => "properties",
        Step::Items => "items",
        Step::Tuple(_) => "prefixItems",
        Step::Additional => "additionalProperties",
        Step::Pattern(_) => "patternProperties",
        Step::Dependent(_) => "dependentSchemas",
        Step::Keyword(k) => k,
    }
}

/// The name a recursion stub gives the position reached by `step` (the last token of its pointer that is not an
/// index).
fn step_name(step: &Step) -> String {
    match step {
        Step::Property(name) | Step::Pattern(name) | Step::Dependent(name) => name.clone(),
        Step::Items => "items".to_owned(),
        Step::Tuple(_) => "prefixItems".to_owned(),
        Step::Additional => "additionalProperties".to_owned(),
        Step::Keyword(k) => (*k).to_owned(),
    }
}

fn trail_text(trail: &[(&str, usize, usize)]) -> String {
    trail
        .iter()
        .map(|(combinator, index, _)| format!("{combinator}/{index}"))
        .collect::<Vec<_>>()
        .join("/")
}

fn path_text(path: &[Step]) -> String {
    if path.is_empty() {
        return "the root".to_owned();
    }
    path.iter().map(Step::text).collect::<Vec<_>>().join("/")
}

enum Account {
    Kept,
    Lifted,
    Named,
    Equivalent,
    Dropped(&'static str),
}

/// How keyword `key` of `visit` is accounted for in the output nodes at its position, or why it is not.
fn account(
    input: &Value,
    visit: &Visit<'_>,
    key: &str,
    value: &Value,
    nodes: &[&Map<String, Value>],
    descriptions: &[&str],
    mode: Mode,
) -> Result<Account, String> {
    let marker = format!("({key}:");
    if nodes.iter().any(|n| n.contains_key(key)) {
        return Ok(Account::Kept);
    }
    if descriptions.iter().any(|d| d.contains(&marker)) {
        return Ok(Account::Lifted);
    }
    // Equivalent forms.
    // A `const` written as an `enum` (`google.const-to-enum`, a merged union), which may be lifted in turn.
    if key == "const"
        && (nodes
            .iter()
            .any(|n| matches!(n.get("enum"), Some(Value::Array(values)) if values.contains(value)))
            || descriptions.iter().any(|d| {
                d.split_once("(enum: ")
                    .is_some_and(|(_, rest)| rest.contains(&value.to_string()))
            }))
    {
        return Ok(Account::Equivalent);
    }
    let exclusive = |bound: &str| match bound {
        "minimum" => "exclusiveMinimum",
        _ => "exclusiveMaximum",
    };
    if matches!(key, "minimum" | "maximum")
        && visit.get(exclusive(key)) == Some(&Value::Bool(true))
        && (nodes.iter().any(|n| n.contains_key(exclusive(key)))
            || descriptions
                .iter()
                .any(|d| d.contains(&format!("({}:", exclusive(key)))))
    {
        return Ok(Account::Equivalent);
    }
    // A union branch or container removed and named whole in a description at this position.
    // The same for a property schema below an `allOf` entry: where two entries give one name different schemas, the
    // merge (`walk.merge-all-of`) puts them into an `allOf` of their own at that position, which a target without
    // `allOf` (google-json) lifts whole.
    if (visit.branch_of.is_some() || visit.below_all_of)
        && named_in_fragment(key, descriptions, input)
    {
        return Ok(Account::Named);
    }
    // A union branch that recursed, cut below the unrolling depth (`resolve.unroll-recursion`), or one the target
    // could not express, removed by the climb (`target.omit-property`), named by its combinator in a description
    // at this position.
    if visit.branch_of.is_some()
        && descriptions.iter().any(|d| {
            d.contains("(recursive anyOf:")
                || d.contains("(recursive oneOf:")
                || d.contains("(omitted anyOf: ")
                || d.contains("(omitted oneOf: ")
        })
    {
        return Ok(Account::Named);
    }
    if let Some(rule) = lift_drop(input, visit, key, value, nodes) {
        return Ok(Account::Dropped(rule));
    }
    if LIFT_LIST.contains(&key) {
        return Err(
            "is on the lift list but is neither kept nor named in a description there".to_owned(),
        );
    }
    for drop in &OTHER_DROPS {
        let named = drop.keys.contains(&key) || drop.keys == ["*"];
        let applies = match drop.when {
            When::Always => true,
            When::Empty => {
                value.is_null()
                    || value.as_array().is_some_and(Vec::is_empty)
                    || value.as_object().is_some_and(Map::is_empty)
            }
            When::Array => value.is_array(),
            When::NullBranch => {
                // A branch typed `null`, or untyped with a `null` `const` or `enum`, which the walker types `null`
                // (`walk.infer-type`) before the merges read it.
                mode.google_family
                    && visit.branch_of.is_some()
                    && match visit.get("type") {
                        Some(Value::String(t)) => t == "null",
                        None => visit.types() == ["null"],
                        Some(_) => false,
                    }
            }
            When::GoogleFamily => mode.google_family,
            When::BlankText => {
                mode.google_family && value.as_str().is_some_and(|t| t.trim().is_empty())
            }
            When::FilterRequired => mode.filter_required,
            When::NotKept => {
                mode.keep.is_some_and(|keep| !keep.contains(&key))
                    || (mode.strict && !STRICT_KEEP.contains(&key))
            }
        };
        if named && applies {
            return Ok(Account::Dropped(drop.rule));
        }
    }
    Err("disappeared, and no listed rule drops it there".to_owned())
}

/// The rule of [`LIFT_DROPS`] that drops keyword `key` of `visit` on purpose, if one does: a `$ref` sibling replaces
/// it, it applies to no value there, its union branch admits nothing, or it is a draft-04 boolean exclusive bound.
/// `nodes` are the output nodes at its position (none where the position vanished).
fn lift_drop(
    input: &Value,
    visit: &Visit<'_>,
    key: &str,
    value: &Value,
    nodes: &[&Map<String, Value>],
) -> Option<&'static str> {
    if visit.shadow.iter().any(|s| s == key) {
        return Some(SIBLINGS.rule);
    }
    let own_types = visit.types();
    let conjunction = visit.conjunction(input);
    let common = common_kinds(&conjunction).filter(|c| !c.is_empty());
    if vacuous(key, value, &own_types, common.as_ref(), nodes) {
        return Some(VACUOUS.rule);
    }
    // A branch whose types share no value with the nodes it is in conjunction with admits nothing, and so does a node
    // below it at the same position (an `allOf` entry of such a branch), typed or not.
    if visit.branch_of.is_some() && admits_nothing(&conjunction) {
        return Some(CONJUNCTION.rule);
    }
    if matches!(key, "exclusiveMinimum" | "exclusiveMaximum") && value.is_boolean() {
        return Some(UPGRADE.rule);
    }
    None
}

/// The keywords that apply to one kind of value, and the types they apply to.
fn applies_to(key: &str) -> Option<&'static [&'static str]> {
    const NUMBER: &[&str] = &["number", "integer"];
    const STRING: &[&str] = &["string"];
    const ARRAY: &[&str] = &["array"];
    const OBJECT: &[&str] = &["object"];
    Some(match key {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => NUMBER,
        "minLength" | "maxLength" | "pattern" | "contentEncoding" | "contentMediaType" => STRING,
        "format" => &["string", "number", "integer"],
        "minItems" | "maxItems" | "uniqueItems" | "contains" | "minContains" | "maxContains" => {
            ARRAY
        }
        "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "patternProperties"
        | "propertyNames"
        | "properties"
        | "required"
        | "additionalProperties"
        | "unevaluatedProperties"
        | "propertyOrdering" => OBJECT,
        "items" | "prefixItems" | "unevaluatedItems" => ARRAY,
        _ => return None,
    })
}

/// Whether none of the kinds of value in `common` is one of `types` (type names a keyword applies to).
fn excludes_kinds(types: &[&str], common: &HashSet<String>) -> bool {
    !types
        .iter()
        .flat_map(|t| kinds(t))
        .any(|k| common.contains(&k))
}

/// Whether `key` applies to no value there: the kinds of value that the node's conjunction admits (`common`: the
/// types of the nodes around it, its own and its `allOf` entries' taken together, when they share a kind) are all
/// ones it does not apply to; or, where they share none, the input node's own types are; or, for an input node that
/// nothing types, every typed output node at the position has such a type and every untyped one is a pure union
/// wrapper. A `format` applies to the type the type-array split keeps it on (`walk.split-type-array`): `int32` and
/// `int64` to integers, `float` and `double` to numbers, any other name to strings (a `date-time` stays in the
/// string branch alone).
fn vacuous(
    key: &str,
    value: &Value,
    own_types: &[String],
    common: Option<&HashSet<String>>,
    nodes: &[&Map<String, Value>],
) -> bool {
    let types: &[&str] = match (key, value.as_str()) {
        ("format", Some("int32" | "int64")) => &["integer"],
        ("format", Some("float" | "double")) => &["number"],
        ("format", Some(_)) => &["string"],
        _ => match applies_to(key) {
            Some(types) => types,
            None => return false,
        },
    };
    let excludes = |names: &[String]| {
        let admitted: HashSet<String> = names.iter().flat_map(|t| kinds(t)).collect();
        excludes_kinds(types, &admitted)
    };
    if let Some(common) = common {
        // A value of the node has one of these kinds (a value of a `string` node's `["integer", "string"]` branch is
        // a string; a node whose `allOf` entry is a string is a string node once the merge brings the entry's type
        // in), so a keyword for none of them constrains nothing.
        return excludes_kinds(types, common);
    }
    if !own_types.is_empty() {
        // A typed node: what the output admits does not matter (a typed union branch the output lost must be named,
        // not excused).
        return excludes(own_types);
    }
    let mut any_typed = false;
    for node in nodes {
        match node.get("type") {
            Some(Value::String(t)) if excludes(std::slice::from_ref(t)) => any_typed = true,
            None if ["anyOf", "oneOf", "allOf"]
                .iter()
                .any(|c| node.contains_key(*c)) => {}
            _ => return false,
        }
    }
    any_typed
}

/// Whether a `(anyOf:`, `(oneOf:` or `(allOf:` fragment of `descriptions` names a subtree that holds `key`, as a
/// keyword of one of its schema objects, as a `(key:` marker in one of its descriptions, or in a fragment nested in
/// one of those descriptions (a union branch removed inside a branch that was itself removed and named). A fragment holds its
/// value as written (root shaping lifts the combinator as it stood before its branches were walked), so a `$ref`
/// inside it is followed into the input document.
fn named_in_fragment(key: &str, descriptions: &[&str], input: &Value) -> bool {
    // A branch is named as walked, where a string `const` may already be a one-value `enum`.
    if key == "const" && named_in_fragment("enum", descriptions, input) {
        return true;
    }
    let marker = format!("({key}:");
    descriptions.iter().any(|description| {
        ["(anyOf: ", "(oneOf: ", "(allOf: "].iter().any(|opening| {
            description.match_indices(opening).any(|(at, _)| {
                let rest = &description[at + opening.len()..];
                let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
                let Some(Ok(subtree)) = values.next() else {
                    return false;
                };
                holds(&subtree, key, &marker, input)
            })
        })
    })
}

/// Whether a schema-valued container lifted whole into `description` (`(patternProperties: {...})`, `(not: {...})`,
/// `(items: {...})`) holds `key`: a union branch named whole holds the containers its walk lifted, with what lies
/// below them.
fn named_in_container(key: &str, description: &str, input: &Value) -> bool {
    let marker = format!("({key}:");
    Keyword::of_class(KeywordClass::SingleChild)
        .chain(Keyword::of_class(KeywordClass::MapChildren))
        .chain(Keyword::of_class(KeywordClass::ArrayChildren))
        .any(|container| {
            let opening = format!("({}: ", container.as_str());
            description.match_indices(&opening).any(|(at, _)| {
                let rest = &description[at + opening.len()..];
                let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
                matches!(values.next(), Some(Ok(subtree @ (Value::Object(_) | Value::Array(_))))
                    if holds(&subtree, key, &marker, input))
            })
        })
}

fn holds(value: &Value, key: &str, marker: &str, input: &Value) -> bool {
    let mut stack = vec![value];
    let mut followed: HashSet<String> = HashSet::new();
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get("$ref")
                    && followed.insert(reference.clone())
                    && let Some(target) = resolve(input, reference)
                {
                    stack.push(target);
                }
                let snake = SNAKE
                    .iter()
                    .find(|(_, camel)| *camel == key)
                    .map(|(s, _)| *s);
                if map.contains_key(key)
                    || snake.is_some_and(|s| map.contains_key(s))
                    || map
                        .get("description")
                        .and_then(Value::as_str)
                        .is_some_and(|d| {
                            d.contains(marker)
                                || named_in_fragment(key, &[d], input)
                                || named_in_container(key, d, input)
                        })
                {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

// The tests.

/// Normalizes a copy of `input` for `target` with `strict` (no memo, fixed environment).
fn normalize(options: &Options, input: &Value) -> (Value, Normalization) {
    let normalizer = Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo();
    let mut value = input.clone();
    let report = normalizer.normalize_with(options, &mut value);
    (value, report)
}

/// Every built-in target, strict and not.
fn configurations() -> Vec<(Target, bool)> {
    Target::BUILTIN
        .into_iter()
        .flat_map(|t| [(t, false), (t, true)])
        .collect()
}
/// Asserts that each JSON reproduction in `texts` loses nothing on any built-in target, strict or not.
fn assert_no_loss_anywhere(texts: &[&str]) {
    for text in texts {
        let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
        let enumerated = enumerate(&input);
        for (target, strict) in configurations() {
            let (out, report) = normalize(&Options::for_target(target).with_strict(strict), &input);
            if report.used_fallback {
                continue;
            }
            let (found, _) = check_enumerated(&enumerated, &out, Mode::of(target, &report));
            assert!(
                found.is_empty(),
                "{}: {found:?}\n{out}",
                config_name(target, strict)
            );
        }
    }
}

/// Asserts that `input` loses nothing on any built-in target, strict or not; a fallback's output is checked too.
fn assert_no_loss_on_every_configuration(input: &Value) {
    for (target, strict) in configurations() {
        let (out, report) = normalize(&Options::for_target(target).with_strict(strict), input);
        let (found, _) = check(input, &out, &report, Mode::of(target, &report));
        assert!(
            found.is_empty(),
            "{}: {found:?}\n{out}",
            config_name(target, strict)
        );
    }
}

fn config_name(target: Target, strict: bool) -> String {
    format!("{}{}", target.name(), if strict { "+strict" } else { "" })
}

/// The strict outputs of the corpus, computed once, in the corpus's order: one per schema and target.
fn strict_outputs(corpus: &corpus::Corpus) -> &'static Vec<Vec<(Value, Normalization)>> {
    static OUTPUTS: OnceLock<Vec<Vec<(Value, Normalization)>>> = OnceLock::new();
    OUTPUTS.get_or_init(|| {
        let inputs: Vec<&Value> = corpus.entries.iter().map(|e| &e.schema.input).collect();
        let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let chunk = inputs.len().div_ceil(workers).max(1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = inputs
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|input| {
                                Target::BUILTIN
                                    .into_iter()
                                    .map(|t| {
                                        normalize(&Options::for_target(t).with_strict(true), input)
                                    })
                                    .collect::<Vec<_>>()
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a worker does not panic"))
                .collect()
        })
    })
}

#[test]
fn nothing_on_the_lift_list_vanishes_from_the_corpus() {
    let Some(corpus) = corpus::corpus("loss::nothing_on_the_lift_list_vanishes_from_the_corpus")
    else {
        return;
    };
    corpus::assert_complete(corpus);
    let strict = strict_outputs(corpus);
    let mut problems = Vec::new();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for (entry, strict_runs) in corpus.entries.iter().zip(strict) {
        let enumerated = enumerate(&entry.schema.input);
        for (run, (strict_out, strict_report)) in entry.runs.iter().zip(strict_runs) {
            let Ok((out, report)) = &run.first else {
                continue;
            };
            for (strict, out, report) in [(false, out, report), (true, strict_out, strict_report)] {
                let name = config_name(run.target, strict);
                let tally = tallies.entry(name.clone()).or_default();
                if report.used_fallback {
                    tally.fell_back += 1;
                    continue;
                }
                let (violations, found) =
                    check_enumerated(&enumerated, out, Mode::of(run.target, report));
                tally.add(&found);
                problems.extend(
                    violations
                        .into_iter()
                        .map(|v| format!("{} @ {name}: {v}", entry.schema.id)),
                );
            }
        }
    }
    for (name, t) in &tallies {
        eprintln!(
            "suite: loss corpus {name}: {} keywords checked: {} kept, {} lifted, {} named in a removed subtree, {} \
             equivalent, {} dropped by a listed rule; {} positions gone, {} references not followed, {} fallbacks",
            t.checked,
            t.kept,
            t.lifted,
            t.named,
            t.equivalent,
            t.dropped.values().sum::<usize>(),
            t.gone,
            t.unfollowed,
            t.fell_back
        );
    }
    let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
    for t in tallies.values() {
        for (rule, n) in &t.dropped {
            *by_rule.entry(rule).or_default() += n;
        }
    }
    for drop in LIFT_DROPS {
        eprintln!(
            "suite: loss corpus deliberate drop {}: {} times: {} ({})",
            drop.rule,
            by_rule.get(drop.rule).copied().unwrap_or_default(),
            drop.what,
            drop.why
        );
    }
    for drop in &OTHER_DROPS {
        eprintln!(
            "suite: loss corpus deliberate drop {}: {} times: {:?} ({})",
            drop.rule,
            by_rule.get(drop.rule).copied().unwrap_or_default(),
            drop.keys,
            drop.why
        );
    }
    assert_eq!(
        tallies.len(),
        2 * Target::BUILTIN.len(),
        "every target, strict and not"
    );
    assert!(
        problems.is_empty(),
        "{} keywords vanished without a trace; by keyword and configuration: {:?}\n{}",
        problems.len(),
        summary(&problems),
        problems
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Counts violations by keyword and configuration (`<id> @ <config>: <keyword> at ...`).
fn summary(problems: &[String]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for problem in problems {
        let config = problem
            .split_once(" @ ")
            .and_then(|(_, rest)| rest.split_once(": "))
            .map_or(("", ""), |(config, rest)| {
                (config, rest.split(' ').next().unwrap_or(""))
            });
        *counts
            .entry(format!("{} {}", config.1, config.0))
            .or_default() += 1;
    }
    counts
}

#[test]
fn nothing_on_the_lift_list_vanishes_from_generated_schemas() {
    crate::invariants::run_property(
        "nothing_on_the_lift_list_vanishes_from_generated_schemas",
        &crate::invariants::document(),
        |input| {
            let enumerated = enumerate(&input);
            for (target, strict) in configurations() {
                let (out, report) =
                    normalize(&Options::for_target(target).with_strict(strict), &input);
                if report.used_fallback {
                    continue;
                }
                let (violations, _) =
                    check_enumerated(&enumerated, &out, Mode::of(target, &report));
                proptest::prop_assert!(
                    violations.is_empty(),
                    "{}: {:?}\ninput {}\noutput {}",
                    config_name(target, strict),
                    violations,
                    input,
                    out
                );
            }
            Ok(())
        },
    );
}

/// A custom target with a built-in rule set whose lifting of one keyword is removed: every `(keyword: …)` fragment
/// is erased again after each node is walked, as if the rule that lifts the keyword dropped it instead.
#[derive(Debug)]
struct Forgetful {
    rules: RuleSet,
    keyword: &'static str,
}

impl TargetRules for Forgetful {
    fn id(&self) -> &'static str {
        "forgetful"
    }

    fn rules(&self) -> &RuleSet {
        &self.rules
    }

    fn leave(&self, node: &mut Value, _cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        forget(node, self.keyword);
        Ok(())
    }
}

/// Removes every `(keyword: …)` fragment (up to its balancing parenthesis) from every description in `value`.
fn forget(value: &mut Value, keyword: &str) {
    let marker = format!("({keyword}:");
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(text)) = map.get_mut("description") {
                    while let Some(start) = text.find(&marker) {
                        let mut depth = 0usize;
                        let mut end = text.len();
                        for (at, c) in text[start..].char_indices() {
                            match c {
                                '(' => depth += 1,
                                ')' => {
                                    depth -= 1;
                                    if depth == 0 {
                                        end = start + at + 1;
                                        break;
                                    }
                                }
                                _ => {}
                            }
                        }
                        text.replace_range(start..end, "");
                        *text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    }
                    if text.is_empty() {
                        map.shift_remove("description");
                    }
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

/// A schema at property `a` holding `keyword` with a value some target lifts.
fn holding(keyword: &str) -> Value {
    let string = |k: &str, v: Value| json!({"type": "string", k: v});
    let object = |k: &str, v: Value| json!({"type": "object", "properties": {"b": {"type": "string"}, "c": {"type": "string"}}, k: v});
    let array = |k: &str, v: Value| json!({"type": "array", "items": {"type": "string"}, "contains": {"type": "string"}, k: v});
    let node = match keyword {
        "default" => string(keyword, json!("x")),
        "examples" => string(keyword, json!(["x"])),
        "pattern" => string(keyword, json!("^[a-z]+$")),
        "format" => string(keyword, json!("email")),
        "minLength" | "maxLength" => string(keyword, json!(2)),
        "contentEncoding" => string(keyword, json!("base64")),
        "contentMediaType" => string(keyword, json!("text/plain")),
        "readOnly" | "writeOnly" => string(keyword, json!(true)),
        "if" | "then" | "else" => string(keyword, json!({"maxLength": 5})),
        "not" => string(keyword, json!({"enum": ["x"]})),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            json!({"type": "number", keyword: 1})
        }
        "multipleOf" => json!({"type": "number", keyword: 2}),
        "enum" => json!({"type": "integer", keyword: [1, 2]}),
        "const" => json!({"type": "integer", keyword: 3}),
        "minItems" | "maxItems" | "minContains" | "maxContains" => array(keyword, json!(2)),
        "uniqueItems" => array(keyword, json!(true)),
        "contains" => {
            json!({"type": "array", "items": {"type": "string"}, keyword: {"type": "string"}})
        }
        "minProperties" | "maxProperties" => object(keyword, json!(1)),
        "dependentRequired" => object(keyword, json!({"b": ["c"]})),
        "dependentSchemas" => object(keyword, json!({"b": {"required": ["c"]}})),
        "patternProperties" => object(keyword, json!({"^x": {"type": "string"}})),
        "propertyNames" => object(keyword, json!({"maxLength": 3})),
        other => panic!("no schema written for {other}"),
    };
    json!({"type": "object", "properties": {"a": node}})
}

#[test]
fn the_invariant_catches_a_rule_set_that_drops_any_lift_list_keyword() {
    // For every lift-list keyword and every built-in configuration that lifts it: the built-in output passes the
    // invariant; the same rule set with that keyword's lifting removed (a custom target that erases the fragment)
    // gives the same output without the fragment, and the invariant names the keyword at the property.
    let mut caught: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for keyword in LIFT_LIST {
        let input = holding(keyword);
        for (target, strict) in configurations() {
            let options = Options::for_target(target).with_strict(strict);
            let (out, report) = normalize(&options, &input);
            let node = &out["properties"]["a"];
            let marker = format!("({keyword}:");
            let lifted = !report.used_fallback
                && node.get(keyword).is_none()
                && node["description"]
                    .as_str()
                    .is_some_and(|d| d.contains(&marker));
            if !lifted {
                continue;
            }
            let name = config_name(target, strict);
            let (violations, _) = check(&input, &out, &report, Mode::of(target, &report));
            assert!(
                violations.is_empty(),
                "{keyword} on {name}: the built-in fails: {violations:?}"
            );

            let forgetful: &'static Forgetful = Box::leak(Box::new(Forgetful {
                rules: *target.rules().rules(),
                keyword,
            }));
            let mutated = Options::for_target(Target::custom(forgetful)).with_strict(strict);
            let (lost, lost_report) = normalize(&mutated, &input);
            let mut expected = out.clone();
            forget(&mut expected, keyword);
            assert_eq!(
                lost, expected,
                "{keyword} on {name}: the mutation only erases the fragment"
            );
            let (violations, _) =
                check(&input, &lost, &lost_report, Mode::of(target, &lost_report));
            assert!(
                violations
                    .iter()
                    .any(|v| v.starts_with(&format!("{keyword} at properties/a "))),
                "{keyword} on {name}: dropping its lifting is not caught: {violations:?} in {lost}"
            );
            caught.entry(keyword).or_default().push(name);
        }
    }
    eprintln!("suite: loss mutations caught: {caught:?}");
    let missing: Vec<&str> = LIFT_LIST
        .iter()
        .copied()
        .filter(|k| !caught.contains_key(k))
        .collect();
    assert!(
        missing.is_empty(),
        "no configuration lifts these keywords from their test schema, so their mutation was not tried: {missing:?}"
    );
}

/// The invariant on a hand-written input and output, for Chat (`google_family` false) or Google, without strict.
fn violations(input: &Value, output: &Value, google_family: bool) -> (Vec<String>, Tally) {
    let mode = Mode {
        google_family,
        keep: if google_family {
            keep_list(Target::Google)
        } else {
            None
        },
        filter_required: google_family,
        strict: false,
    };
    check_enumerated(&enumerate(input), output, mode)
}

#[test]
fn a_keyword_kept_lifted_or_named_passes_and_a_lost_one_fails() {
    let input = json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a$", "x-ui": 1}}});
    let kept = violations(&input, &input, false);
    assert!(kept.0.is_empty() && kept.1.kept == 5, "{kept:?}");
    let lifted = json!({"type": "object", "properties": {"a": {"type": "string", "description": "(pattern: ^a$)"}}});
    let (found, tally) = violations(&input, &lifted, true);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(
        (
            tally.lifted,
            tally.dropped.get("target.keyword, strict.keyword")
        ),
        (1, Some(&1))
    );
    // Chat keeps `x-ui`, so there it may not vanish; neither may the pattern anywhere.
    let (found, _) = violations(&input, &lifted, false);
    assert_eq!(
        found,
        [
            "x-ui at properties/a (input /properties/a) disappeared, and no listed rule drops it there"
        ]
    );
    let lost = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let (found, _) = violations(&input, &lost, true);
    assert_eq!(
        found,
        [
            "pattern at properties/a (input /properties/a) is on the lift list but is neither kept nor named in a \
          description there"
        ]
    );
}

#[test]
fn below_a_branch_keyword_vacuous_for_the_node_around_nothing_is_followed() {
    // Found by the property test on Google (its minimal case had an empty description; any text is lost alike):
    // the branch `Item` of a string node holds `properties`, which constrain no string, so the walk removes them
    // (`google.type-applicability`), and with them the description of `type` below, while the same position lives on
    // through the other branch of `name`.
    let input = |ty: &str| {
        json!({"properties": {"name": {"anyOf": [
            {"properties": {"type": {"type": "string"}}, "required": []},
            {"type": ty, "anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]}
        ]}}, "required": [], "$defs": {"Item": {"properties": {"type": {"type": "string", "description": "a reason"}},
            "required": []}}})
    };
    let output = json!({"properties": {"name": {"anyOf": [
        {"properties": {"type": {"type": "string"}}, "type": "object"},
        {"type": "string", "nullable": true}
    ]}}, "type": "object"});
    let (found, _) = violations(&input("string"), &output, true);
    assert!(found.is_empty(), "{found:?}");
    // Around an object node the branch's properties do constrain: the same loss is caught there.
    let (found, _) = violations(&input("object"), &output, true);
    assert_eq!(
        found,
        [
            "description at properties/name/properties/type (input /$defs/Item/properties/type) disappeared, and no \
             listed rule drops it there"
        ]
    );
}

#[test]
fn a_blank_branch_description_may_go_in_a_google_family_merge() {
    // Found by the property test on Code Assist: the union merge joins the branches' descriptions trimmed and skips
    // the blank ones, so a description of white space only goes; a description with words may not.
    let input = |text: &str| {
        json!({"properties": {"name": {"properties": {"name": {"anyOf": [
            {"description": text, "anyOf": [{"type": "string"}]}
        ]}}, "required": []}}, "required": []})
    };
    let output = json!({"properties": {"name": {"properties": {"name": {"type": "string"}}, "type": "object"}},
        "type": "object"});
    let rule = OTHER_DROPS
        .iter()
        .find(|d| matches!(d.when, When::BlankText))
        .map(|d| d.rule);
    for blank in ["", " ", " \n\t"] {
        let (found, tally) = violations(&input(blank), &output, true);
        assert!(found.is_empty(), "{blank:?}: {found:?}");
        assert!(
            rule.is_some_and(|r| tally.dropped.contains_key(r)),
            "{tally:?}"
        );
    }
    let lost = "description at properties/name/properties/name (input /properties/name/properties/name/anyOf/0) \
                disappeared, and no listed rule drops it there";
    assert_eq!(violations(&input("a"), &output, true).0, [lost]);
    // Outside the Google family no rule drops it.
    assert_eq!(violations(&input(" "), &output, false).0, [lost]);
}

#[test]
fn a_string_format_on_a_number_is_vacuous() {
    // Found by the property test on chat with strict: the type-array split keeps a `date-time` in the string branch
    // only, so a number-or-null node loses it; a numeric format there may not go.
    let input = |format: &str| json!({"properties": {"name": {"type": "array", "items": {"type": ["number", "null"], "format": format}}}});
    let output = json!({"properties": {"name": {"type": "array", "items": {"anyOf": [{"type": "number"},
        {"type": "null"}]}}}});
    let (found, _) = violations(&input("date-time"), &output, false);
    assert!(found.is_empty(), "{found:?}");
    let (found, _) = violations(&input("double"), &output, false);
    assert_eq!(
        found,
        [
            "format at properties/name/items (input /properties/name/items) is on the lift list but is neither kept nor \
          named in a description there"
        ]
    );
}

#[test]
fn removed_subtrees_named_in_a_description_do_not_survive() {
    // A union narrowed to one branch, the other named whole: its keywords are accounted for by the fragment.
    let input = json!({"type": "object", "properties": {"to": {"anyOf": [
        {"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}
    ]}}});
    let narrowed = json!({"type": "object", "properties": {"to": {"type": "string",
        "description": "(anyOf: [{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1}])"}}});
    let (found, tally) = violations(&input, &narrowed, true);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(
        (tally.named, tally.gone),
        (2, 1),
        "items and minItems named, `to/items` gone"
    );
    let unnamed = json!({"type": "object", "properties": {"to": {"type": "string"}}});
    assert_eq!(
        violations(&input, &unnamed, true).0.len(),
        1,
        "minItems vanished"
    );
    // A property removed and named, and a recursion cut below a depth, leave no node at their positions.
    let input = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string", "maxLength": 3}}});
    let omitted = json!({"type": "object", "properties": {"a": {"type": "string"}}, "description": "(omitted b: regex)"});
    let (found, tally) = violations(&input, &omitted, true);
    assert!(found.is_empty() && tally.gone == 1, "{found:?} {tally:?}");
}

#[test]
fn references_and_equivalent_forms_are_followed() {
    // The input is read through its references, siblings winning; a `const` may come out as a one-value `enum`.
    let input = json!({"type": "object", "properties": {"r": {"$ref": "#/$defs/R", "description": "region"}},
        "$defs": {"R": {"type": "string", "const": "cn", "description": "target's"}}});
    let output = json!({"type": "object", "properties": {"r": {"type": "string", "enum": ["cn"], "description": "region"}}});
    let (found, tally) = violations(&input, &output, true);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(tally.equivalent, 1);
    assert_eq!(tally.dropped.get("resolve.drop-definitions"), Some(&1));
    // Without the enum the `const` is lost.
    let output =
        json!({"type": "object", "properties": {"r": {"type": "string", "description": "region"}}});
    let (found, _) = violations(&input, &output, true);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("const at properties/r (input /$defs/R)"),
        "{found:?}"
    );
}

/// Found by the property test (seed 1796226409171794092 on Code Assist, then on Google): a union branch whose type
/// shares no value with its node's admits nothing, and neither does an `allOf` entry of that branch, which has no
/// type of its own; the Code Assist merge (the node's type winning) or the Gemini isolation removes the branch with
/// its entries. The invariant read "admits nothing" for the branch alone, so the entry's keyword looked lost.
const ENTRY_OF_A_BRANCH_THAT_ADMITS_NOTHING: [&str; 2] = [
    r#"{"properties":{"name":{"type":"string","anyOf":[{"type":"object","allOf":[{"minLength":0}]}]}},"required":[]}"#,
    r#"{"properties":{"name":{"type":"object","any_of":[{"properties":{},"required":[]},{"type":"string","allOf":[{"dependentRequired":{"name":["user_id"]}}]}]}},"required":[]}"#,
];

#[test]
fn an_all_of_entry_of_a_branch_that_admits_nothing_admits_nothing() {
    assert_no_loss_anywhere(&ENTRY_OF_A_BRANCH_THAT_ADMITS_NOTHING);
    // The entry is excused only where the node, the branch and the entry share no kind of value, or share only kinds
    // its keyword does not apply to (the null the branch and the node both admit has no length); where they share a
    // string, the entry's keyword may not vanish.
    let output = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    for (branch, entry, lost) in [
        (json!("string"), json!({"minLength": 1}), 1),
        (json!(["object", "string"]), json!({"minLength": 1}), 1),
        (json!(["object", "null"]), json!({"minLength": 1}), 0),
        (json!(["object", "null"]), json!({"minItems": 1}), 0),
        (json!(["string", "null"]), json!({"minLength": 1}), 1),
        (
            json!(["object", "null"]),
            json!({"type": "string", "minLength": 1}),
            0,
        ),
        (json!("object"), json!({"minLength": 1}), 0),
    ] {
        let input = json!({"type": "object", "properties": {"name": {"type": ["string", "null"],
            "anyOf": [{"type": branch, "allOf": [entry]}]}}});
        let (found, _) = violations(&input, &output, true);
        assert_eq!(found.len(), lost, "{input}: {found:?}");
    }
    // Three nodes in conjunction with no kind of value in common, though each two of them share one.
    let input = json!({"type": "object", "properties": {"name": {"type": ["string", "null"],
        "anyOf": [{"type": ["string", "integer"], "anyOf": [{"type": ["integer", "null"], "minLength": 1}]}]}}});
    let (found, _) = violations(&input, &output, true);
    assert!(found.is_empty(), "{found:?}");
    let input = json!({"type": "object", "properties": {"name": {"type": ["string", "null"],
        "anyOf": [{"type": ["string", "integer"], "anyOf": [{"type": ["string", "null"], "minLength": 1}]}]}}});
    let (found, _) = violations(&input, &output, true);
    assert_eq!(found.len(), 1, "{found:?}");
    // Found by the property test (seed 1796198361909516154, Google): a branch typed by its `allOf` entry alone.
    let input: Value = serde_json::from_str(
        r#"{"properties":{"name":{"type":"object","anyOf":[{"properties":{},"required":[]},{"description":"a","allOf":[{"type":"string"}]}]}},"required":[]}"#,
    )
    .expect("a JSON reproduction");
    let (out, report) = normalize(&Options::for_target(Target::Google), &input);
    let (found, _) = check(&input, &out, &report, Mode::of(Target::Google, &report));
    assert!(found.is_empty(), "{found:?} {out}");
    let output = json!({"type": "object", "properties": {"name": {"type": "object"}}});
    let typed = |entry: &str| {
        json!({"type": "object", "properties": {"name": {"type": "object", "anyOf": [
            {"description": "a", "allOf": [{"type": entry}]}]}}})
    };
    assert!(violations(&typed("string"), &output, true).0.is_empty());
    assert_eq!(violations(&typed("object"), &output, true).0.len(), 1);
}

/// Found by the property test: the types a node's values must have are those of its conjunction, the nodes around it
/// (for a union branch), its own and its `allOf` entries', an entry read through its `$ref` (seed 1796198361909516154
/// on Google: a branch typed by a referenced string entry in an object node admits nothing); a keyword for none of the
/// kinds they share constrains nothing (seed 1796199125357316627 on Google: `maximum` in an `["integer", "string"]`
/// branch of a string node; seed 1796103623475055815 on mcp with strict: `additionalProperties` on a node whose
/// referenced definition is an `allOf` of a string-or-null entry).
const CONJUNCTION_THROUGH_REFERENCES: [&str; 3] = [
    r##"{"properties":{"name":{"type":"object","anyOf":[{"properties":{},"required":[]},{"description":"a","allOf":[{"$ref":"#/$defs/Tag"}]}]}},"required":[],"$defs":{"Tag":{"type":"string"}}}"##,
    r##"{"properties":{"name":{"properties":{"name":{"$ref":"#/$defs/Item"}},"required":[]}},"required":[],"$defs":{"Item":{"type":"string","anyOf":[{"type":["integer","string"],"maximum":0}]}}}"##,
    r##"{"properties":{},"required":[],"$ref":"#/$defs/Node","additionalProperties":false,"$defs":{"Node":{"allOf":[{"type":["string","null"]}]}}}"##,
];

#[test]
fn the_types_of_a_node_are_those_of_its_conjunction_read_through_references() {
    assert_no_loss_anywhere(&CONJUNCTION_THROUGH_REFERENCES);
    // A referenced entry types the branch as its definition does, the `$ref`'s siblings winning; where that type
    // shares a kind with the node, the branch's description may not vanish.
    let output = json!({"type": "object", "properties": {"name": {"type": "object"}}});
    for (entry, tag, lost) in [
        (json!({"$ref": "#/$defs/Tag"}), "string", 0),
        (json!({"$ref": "#/$defs/Tag"}), "object", 1),
        (
            json!({"$ref": "#/$defs/Tag", "type": "object"}),
            "string",
            1,
        ),
        (json!({"allOf": [{"$ref": "#/$defs/Tag"}]}), "string", 0),
    ] {
        let input = json!({"type": "object", "properties": {"name": {"type": "object", "anyOf": [
            {"description": "a", "allOf": [entry]}]}}, "$defs": {"Tag": {"type": tag}}});
        let (found, _) = violations(&input, &output, true);
        assert_eq!(found.len(), lost, "{input}: {found:?}");
    }
    // A bound in a branch whose own types include a number is vacuous only where the node's type leaves none.
    let output = json!({"type": "object", "properties": {"name": {"anyOf": [{"type": "string"}]}}});
    for (node, lost) in [("string", 0), ("integer", 1), ("number", 1)] {
        let input = json!({"type": "object", "properties": {"name": {"type": node, "anyOf": [
            {"type": ["integer", "string"], "maximum": 0}]}}});
        let (found, _) = violations(&input, &output, false);
        assert_eq!(found.len(), lost, "{input}: {found:?}");
    }
    // An object keyword beside a `$ref` whose definition's entry admits no object is vacuous; beside one whose entry
    // admits objects it may not vanish.
    let output = json!({"anyOf": [{"type": "object"}, {"type": "null"}]});
    for (ty, lost) in [
        (json!(["string", "null"]), 0),
        (json!(["object", "null"]), 1),
    ] {
        let input = json!({"$ref": "#/$defs/Node", "additionalProperties": false,
            "$defs": {"Node": {"allOf": [{"type": ty}]}}});
        let (found, _) = violations(&input, &output, false);
        assert_eq!(found.len(), lost, "{input}: {found:?}");
    }
}

/// Found by the property test on Google (seed 1796198361909516154 once the conjunction was read): a reference among
/// a `$ref`'s sibling keys back to the target of that `$ref` (`Item` is `Tag` with its own `properties`, and a branch
/// there refers to `Tag`) is no cycle, since the pipeline walks the merged node with the target off its stack of
/// references being expanded. The invariant cut it as one, so the branch lost its array type and the object node's
/// isolation of it looked like a lost description.
const REFERENCE_BACK_FROM_A_SIBLING: &str = r##"{"properties":{"name":{"properties":{"name":{"$ref":"#/$defs/Item"}},"required":[]}},"required":[],"$defs":{"Item":{"type":"object","properties":{"name":{"properties":{"name":{"type":"object","any_of":[{"$ref":"#/$defs/Tag","description":"see the definition"},{}]}},"required":[]}},"required":[],"$ref":"#/$defs/Tag"},"Tag":{"type":"array","items":{"type":"string"}}}}"##;

#[test]
fn a_reference_back_from_a_sibling_of_the_same_reference_is_followed() {
    let input: Value =
        serde_json::from_str(REFERENCE_BACK_FROM_A_SIBLING).expect("a JSON reproduction");
    let enumerated = enumerate(&input);
    assert_eq!(enumerated.unfollowed, 0, "no reference re-enters itself");
    for (target, strict) in configurations() {
        let (out, report) = normalize(&Options::for_target(target).with_strict(strict), &input);
        assert!(
            !report.used_fallback,
            "{}: {report:?}",
            config_name(target, strict)
        );
        let (found, _) = check_enumerated(&enumerated, &out, Mode::of(target, &report));
        assert!(
            found.is_empty(),
            "{}: {found:?}\n{out}",
            config_name(target, strict)
        );
    }
    // A reference back to a target from inside that target's own keys is a cycle, and is still cut there.
    let input = json!({"$ref": "#/$defs/Tag", "$defs": {"Tag": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Tag"}}}}});
    assert_eq!(enumerate(&input).unfollowed, 1);
}

/// Found by the property test on Google: a numeric `format` applies to the numbers the type-array split keeps it on
/// (seed 1796198361909516154: an `int32` entry of a branch of a string node, which the split keeps on the integer
/// branch that the isolation then removes), and a union branch that the walker types `null` from its `const` is a
/// `null` branch, whose keys the nullable collapse drops (seed 7301: a blank `title` beside `const: null`).
const NUMERIC_FORMAT_AND_NULL_CONST: [&str; 2] = [
    r##"{"properties":{"name":{"$ref":"#/$defs/Node"}},"required":[],"$defs":{"Node":{"type":"string","anyOf":[{"allOf":[{"type":["integer","string"],"format":"int32"}]}]}}}"##,
    r#"{"properties":{"name":{"anyOf":[{"type":"string"},{"const":null,"title":""}]}},"required":[]}"#,
];

#[test]
fn a_numeric_format_applies_to_numbers_and_a_null_const_makes_a_null_branch() {
    assert_no_loss_anywhere(&NUMERIC_FORMAT_AND_NULL_CONST);
    // `int32` and `int64` are for integers (a number node has them), `float` and `double` for numbers: on a node
    // whose values are strings they constrain nothing; where an integer is admitted they may not vanish.
    let output = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    for (node, format, lost) in [
        ("string", "int32", 0),
        ("string", "double", 0),
        ("integer", "int64", 1),
        ("number", "int32", 1),
        ("integer", "double", 1),
        ("integer", "date-time", 0),
    ] {
        let input = json!({"type": "object", "properties": {"name": {"type": node, "anyOf": [
            {"type": ["integer", "number", "string"], "format": format}]}}});
        let (found, _) = violations(&input, &output, false);
        assert_eq!(found.len(), lost, "{input}: {found:?}");
    }
    // A branch typed `null` by its `const` may lose its other keys in the Google family's nullable collapse; a branch
    // of another `const`, or outside the Google family, may not.
    let output = json!({"type": "object", "properties": {"name": {"type": "string", "nullable": true,
        "description": "(const: null)"}}});
    for (constant, google_family, lost) in [
        (json!(null), true, 0),
        (json!(null), false, 1),
        (json!("x"), true, 1),
    ] {
        let input = json!({"type": "object", "properties": {"name": {"anyOf": [{"type": "string"},
            {"const": constant, "title": "t"}]}}});
        let (found, _) = violations(&input, &output, google_family);
        assert!(
            found.iter().filter(|v| v.starts_with("title ")).count() == lost,
            "{input} {google_family}: {found:?}"
        );
    }
}

/// Found by the property test: a node without a type admits the types of its union's branches (seed 7301 on Google: a
/// branch of an object node whose own branches are `null` and number-or-null admits nothing, and the isolation removes
/// it with its description), and the siblings of a `$ref` in an intermediate target of a chain replace what the
/// deeper target's unions give (seed 424242 on Code Assist: `Node`'s `properties` replace those of `Item`'s branch,
/// which `Node` refers to, so the branch's property description goes with the merge).
const UNION_TYPES_AND_CHAINED_SIBLINGS: [&str; 3] = [
    r#"{"properties":{"name":{"type":"object","any_of":[{"properties":{},"required":[]},{"description":"a","any_of":[{"type":"null"},{"type":["number","null"]}]}]}},"required":[]}"#,
    r##"{"properties":{"name":{"$ref":"#/$defs/Node"}},"required":[],"$defs":{"Node":{"type":"object","properties":{"default":{"type":"string"}},"required":[],"$ref":"#/$defs/Item"},"Item":{"anyOf":[{"properties":{"default":{"type":["string","null"],"description":"a"}},"required":[]}]}}}"##,
    // Seed 271828 on Google: a union's types do not keep the walker from typing a node with `properties` an object,
    // whose string branch the isolation then removes.
    r##"{"properties":{"name":{"properties":{"name":{"type":"string"}},"required":[],"$ref":"#/$defs/Node"}},"required":[],"$defs":{"Node":{"any_of":[{"type":"object","properties":{},"required":[]},{"type":"string","description":"A"}]}}}"##,
];

#[test]
fn a_union_types_its_node_and_siblings_replace_at_every_link_of_a_chain() {
    assert_no_loss_anywhere(&UNION_TYPES_AND_CHAINED_SIBLINGS);
    // The branch admits nothing only where every branch of its own union is typed and none shares a kind with the
    // node around it.
    let output = json!({"type": "object", "properties": {"name": {"type": "object"}}});
    for (branches, lost) in [
        (json!([{"type": "null"}, {"type": ["number", "null"]}]), 0),
        (json!([{"const": 1}, {"enum": ["a", null]}]), 0),
        (json!([{"type": "null"}, {"type": ["object", "null"]}]), 1),
        (json!([{"type": "null"}, {}]), 1),
        (json!([{"type": "null"}, {"properties": {}}]), 1),
    ] {
        let input = json!({"type": "object", "properties": {"name": {"type": "object", "anyOf": [
            {"description": "a", "anyOf": branches}]}}});
        let (found, _) = violations(&input, &output, true);
        assert_eq!(found.len(), lost, "{input}: {found:?}");
    }
    // Without the intermediate target's own `properties`, the deeper target's branch gives the property, whose
    // description may not vanish.
    let output = json!({"type": "object", "properties": {"name": {"type": "object", "properties": {
        "default": {"type": "string"}}}}});
    for (node, lost) in [
        (
            json!({"type": "object", "properties": {"default": {"type": "string"}}, "$ref": "#/$defs/Item"}),
            0,
        ),
        (json!({"type": "object", "$ref": "#/$defs/Item"}), 1),
    ] {
        let input = json!({"type": "object", "properties": {"name": {"$ref": "#/$defs/Node"}}, "$defs": {
            "Node": node, "Item": {"anyOf": [{"properties": {"default": {"type": "string", "description": "a"}}}]}}});
        let (found, _) = violations(&input, &output, true);
        assert_eq!(
            found
                .iter()
                .filter(|v| v.starts_with("description "))
                .count(),
            lost,
            "{input}: {found:?}"
        );
    }
}

/// Found by the property test on Anthropic with strict (seed 1796300000000000001): a property that recursed in one
/// union branch is cut there below the unrolling depth and named `(recursive name: ...)`, while another branch still
/// gives the property, so its position survives; what the cut branch held there is named by that note, as a
/// property omitted from one branch is by `(omitted name: kind)`.
const RECURSIVE_PROPERTY_IN_ONE_BRANCH: &str = r##"{"properties":{"name":{"anyOf":[{"properties":{"name":{"type":"string"},"$ref":{"$ref":"#/$defs/Item"}},"required":[]},{"properties":{"$ref":{"type":"array","items":{"type":"string"}}},"required":[]}]}},"required":[],"$defs":{"Item":{"properties":{"name":{"type":"string"}},"required":[],"$ref":"#/$defs/Item"}}}"##;

#[test]
fn a_property_cut_as_recursive_in_one_branch_is_named_there() {
    assert_no_loss_anywhere(&[RECURSIVE_PROPERTY_IN_ONE_BRANCH]);
    // Without the note the cut branch's `minProperties` vanished.
    let input = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "object", "properties": {"b": {"type": "object", "minProperties": 1}}},
        {"type": "object", "properties": {"b": {"type": "string"}}}]}}});
    let output = |note: &str| {
        json!({"type": "object", "properties": {"a": {"anyOf": [
            {"type": "object", "description": note},
            {"type": "object", "properties": {"b": {"type": "string"}}}]}}})
    };
    assert!(
        violations(
            &input,
            &output("(recursive b: omitted below depth 3)"),
            false
        )
        .0
        .is_empty()
    );
    assert_eq!(
        violations(
            &input,
            &output("(recursive c: omitted below depth 3)"),
            false
        )
        .0
        .len(),
        2,
        "`minProperties` vanished, and the first branch lost its `properties` while the second holds some"
    );
}

/// Found by the property test on Google (seeds 1796098830914597642 and 6863561246552941892), fixed: an
/// annotation-only union branch of an object node (`{"default": null}`) was narrowed to a string
/// (`walk.narrow-any`), which admits nothing beside the node's `type: "object"`, so `google.isolate-any-of` removed
/// the branch and the `(default: null)` its description held. Such a branch now takes its node's one type, which
/// narrows nothing, and the `default` stays named at its position on every target.
const DEFAULT_IN_AN_UNTYPED_BRANCH: [&str; 2] = [
    r#"{"properties":{"name":{"properties":{"name":{"type":"object","anyOf":[{"format":"date-time"},{"default":null}]}},"required":[]}},"required":[]}"#,
    r##"{"properties":{"name":{"any_of":[{"$ref":"#/$defs/Tag"}]}},"required":[],"$defs":{"Tag":{"type":"object","any_of":[{"default":null},{"type":"object","if":{"type":"string"},"then":{"type":"string"},"else":{"type":"string"}}]}}}"##,
];

#[test]
fn an_annotation_only_branch_of_a_typed_node_keeps_its_default_named() {
    for text in DEFAULT_IN_AN_UNTYPED_BRANCH {
        let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
        let enumerated = enumerate(&input);
        for (target, strict) in configurations() {
            let (out, report) = normalize(&Options::for_target(target).with_strict(strict), &input);
            assert!(!report.used_fallback, "{text}: {report:?}");
            let (found, _) = check_enumerated(&enumerated, &out, Mode::of(target, &report));
            assert!(
                found.is_empty(),
                "{}: {found:?}\n{out}",
                config_name(target, strict)
            );
        }
        // On Google the branch is an object branch whose description names the default.
        let (out, report) = normalize(&Options::for_target(Target::Google), &input);
        assert!(!report.narrowed, "{report:?}");
        let text = out.to_string();
        assert!(
            text.contains(r#"{"description":"(default: null)","type":"object"}"#),
            "{text}"
        );
    }
}

/// Found by the property test on Google (seed 7301), fixed: a union branch whose own union held an unresolved
/// reference lost that entry (`target.omit-property`, noted in the branch's description), and what was left of it
/// (`null` or a number) admits nothing beside its object node, so `google.isolate-any-of` removed the branch with
/// its description and the note. The description of a removed branch that names a narrowing now joins the node's.
const NARROWED_BRANCH_THEN_ISOLATED: &str = r##"{"properties":{"name":{"type":"object","any_of":[{"properties":{},"required":[]},{"description":"a","any_of":[{"$ref":"#/$defs/Missing"},{"type":"null"},{"type":["number","null"]}]}]}},"required":[]}"##;

#[test]
fn a_branch_isolation_removes_after_a_narrowing_leaves_its_note() {
    assert_no_loss_anywhere(&[NARROWED_BRANCH_THEN_ISOLATED]);
    let input: Value =
        serde_json::from_str(NARROWED_BRANCH_THEN_ISOLATED).expect("a JSON reproduction");
    let (out, report) = normalize(&Options::for_target(Target::Google), &input);
    assert!(report.narrowed && !report.used_fallback, "{report:?}");
    let name = &out["properties"]["name"];
    assert_eq!(name["anyOf"].as_array().map(Vec::len), Some(1), "{out}");
    let text = name["anyOf"][0]["description"].as_str().unwrap_or("");
    assert!(
        text.starts_with("a (omitted anyOf: "),
        "the branch's text and its note: {out}"
    );
    // A branch removed for its type alone, with no narrowing named in it, goes with its description as before.
    let input = json!({"type": "object", "properties": {"name": {"type": "object", "anyOf": [
        {"properties": {}}, {"type": "string", "description": "a"}]}}});
    let (out, _) = normalize(&Options::for_target(Target::Google), &input);
    assert_eq!(
        out["properties"]["name"]["anyOf"][0].get("description"),
        None,
        "{out}"
    );
}

/// Found by the property test on mcp with strict (seed 1796114626753956877), fixed: the single `allOf` entry of a
/// root `$ref`'s object target is typed `["string", "null"]`, so the schema admits nothing; the entry won on `type`
/// (`walk.merge-all-of`), and the output `{"anyOf": [{"type": "string"}, {"type": "null"}]}` admitted strings and
/// lost the root's `additionalProperties: false`. A single entry's type now meets its node's: the kinds they share,
/// and a fallback (`invalid_schema`) when they share none.
const ENTRY_TYPE_OUTSIDE_ITS_NODE: &str = r##"{"properties":{},"required":[],"$ref":"#/$defs/Node","additionalProperties":false,"$defs":{"Node":{"type":"object","allOf":[{"type":["string","null"]}]}}}"##;

#[test]
fn a_single_all_of_entry_typed_outside_its_node_admits_nothing() {
    let input: Value =
        serde_json::from_str(ENTRY_TYPE_OUTSIDE_ITS_NODE).expect("a JSON reproduction");
    for (target, strict) in configurations() {
        let (out, report) = normalize(&Options::for_target(target).with_strict(strict), &input);
        let (found, _) = check(&input, &out, &report, Mode::of(target, &report));
        assert!(found.is_empty(), "{found:?}");
        let reason = report.fallback_reason.as_ref();
        assert!(
            report.used_fallback
                && reason.is_some_and(|r| r.kind == llmshim_core::FallbackKind::InvalidSchema
                    && r.message.contains("admits nothing")),
            "{}: {report:?}",
            config_name(target, strict)
        );
    }
    // Where the kinds overlap, the node takes the ones both admit; where the entry's lie within the node's, the
    // entry's type stands as before.
    for (node, entry, merged) in [
        (
            json!(["object", "null"]),
            json!(["string", "null"]),
            json!("null"),
        ),
        (json!("integer"), json!("number"), json!("integer")),
        (
            json!("number"),
            json!(["integer", "string"]),
            json!("integer"),
        ),
        (
            json!(["string", "number"]),
            json!("string"),
            json!("string"),
        ),
    ] {
        let input = json!({"type": "object", "properties": {"a": {"type": node, "allOf": [{"type": entry}]}}});
        let (out, report) = normalize(&Options::for_target(Target::Mcp), &input);
        assert!(!report.used_fallback, "{input}: {report:?}");
        assert_eq!(out["properties"]["a"], json!({"type": merged}), "{input}");
    }
}

/// Found by the property test on Code Assist (seed 3128011736), fixed: `Tag`'s union cannot be merged, so
/// `target.narrow-union` keeps its object branch, which brought an `(anyOf:` fragment of its own (its inner union,
/// narrowed first), and names the removed string branch, with its lifted `not`, in a second `(anyOf:` fragment.
/// The `$ref`'s sibling description then carried the first fragment only, since its text by then held the marker.
const TWO_UNION_NOTES_BEHIND_A_SIBLING: &str = r##"{"properties":{"name":{"properties":{"name":{"$ref":"#/$defs/Tag","description":"see the definition"}},"required":[]}},"required":[],"$defs":{"Tag":{"any_of":[{"type":"object","anyOf":[{"type":"string"},{"type":["object","null"]}]},{"type":"string","not":{"type":"string"}}]}}}"##;

#[test]
fn a_sibling_description_carries_every_union_note_of_its_target() {
    assert_no_loss_anywhere(&[TWO_UNION_NOTES_BEHIND_A_SIBLING]);
    let input: Value =
        serde_json::from_str(TWO_UNION_NOTES_BEHIND_A_SIBLING).expect("a JSON reproduction");
    let (out, report) = normalize(&Options::for_target(Target::CloudCodeAssist), &input);
    assert!(report.narrowed && !report.used_fallback, "{report:?}");
    let text = out["properties"]["name"]["properties"]["name"]["description"]
        .as_str()
        .unwrap_or("");
    assert!(
        text.starts_with("see the definition (anyOf: ")
            && text.matches("(anyOf: ").count() == 2
            && text.contains("(not: "),
        "{out}"
    );
}

/// Found by the loss property test on mcp with strict (seed 2437121687): the root's schema `additionalProperties`,
/// which strict closing replaced by `false`, was matched against the one its string `anyOf` branch kept, and lost
/// `properties` there. The recorded output is checked as it came out; the input now falls back (below).
const CLOSED_BESIDE_A_KEPT_ONE: &str = r##"{"properties": {}, "required": [], "$ref": "#/$defs/Node", "additionalProperties": {"properties": {"name": {"type": "string"}}, "required": []}, "$defs": {"Node": {"any_of": [{"properties": {}, "required": [], "$ref": "#/$defs/Item", "additionalProperties": {}}]}, "Item": {"type": "string"}}}"##;
const CLOSED_BESIDE_A_KEPT_ONE_OUTPUT: &str = r#"{"anyOf": [{"type": "string", "properties": {}, "required": [], "additionalProperties": {"description": "(type: any)", "type": "string"}}], "properties": {}, "required": [], "additionalProperties": false, "type": "object"}"#;

/// The same, with an object branch beside the string one, so that the root still admits objects.
const CLOSED_BESIDE_AN_OBJECT_BRANCH: &str = r#"{"properties": {}, "additionalProperties": {"properties": {"name": {"type": "string"}}, "required": []}, "anyOf": [{"type": "string", "additionalProperties": {"description": "any"}}, {"type": "object"}]}"#;

#[test]
fn a_schema_additional_properties_closed_by_strict_does_not_survive() {
    let input: Value = serde_json::from_str(CLOSED_BESIDE_A_KEPT_ONE).expect("a JSON reproduction");
    let output: Value =
        serde_json::from_str(CLOSED_BESIDE_A_KEPT_ONE_OUTPUT).expect("a JSON reproduction");
    let mut mode = Mode::of(Target::Mcp, &Normalization::default());
    mode.strict = true;
    let (found, tally) = check_enumerated(&enumerate(&input), &output, mode);
    assert!(found.is_empty(), "{found:?}");

    assert_eq!(tally.dropped.get(CLOSED.rule), Some(&3), "{tally:?}");
    // Kept on mcp with strict (OpenAI and Anthropic fall back on the string branch at the root).
    let input: Value =
        serde_json::from_str(CLOSED_BESIDE_AN_OBJECT_BRANCH).expect("a JSON reproduction");
    for (target, strict) in configurations() {
        let (out, report) = normalize(&Options::for_target(target).with_strict(strict), &input);
        let (found, _) = check(&input, &out, &report, Mode::of(target, &report));
        assert!(
            found.is_empty(),
            "{}: {found:?}\n{out}",
            config_name(target, strict)
        );
        if target == Target::Mcp {
            assert!(
                !report.used_fallback && report.strict == strict,
                "{report:?}"
            );
        }
    }

    // On a strict object whose `additionalProperties` was a schema, the report says that the schema was dropped,
    // where, and by which rule.
    let input = json!({"type": "object", "properties": {"note": {"type": ["string", "null"]}}, "additionalProperties": {"type": "string"}});
    for (target, strict) in configurations() {
        let options = Options::for_target(target)
            .with_strict(strict)
            .with_diagnostics(true);
        let (out, report) = normalize(&options, &input);
        let dropped = report.changes.iter().any(|c| {
            c.pointer == "/additionalProperties"
                && c.rule == "strict.close-object"
                && c.kind == llmshim_core::ChangeKind::Dropped
        });
        assert_eq!(
            dropped,
            report.strict,
            "{}: {out} {:?}",
            config_name(target, strict),
            report.changes
        );
        if report.strict {
            assert_eq!(out["additionalProperties"], json!(false), "{out}");
        }
    }
}

#[test]
fn a_root_object_whose_union_has_no_object_branch_falls_back_where_unions_are_kept() {
    let input: Value = serde_json::from_str(CLOSED_BESIDE_A_KEPT_ONE).expect("a JSON reproduction");
    // Code Assist merges the union into the root the siblings type `object`, whose type wins over the string branch
    // (`cca.merge-combinator`, the listed widening), as it does for such a union written at the root itself.
    for (target, strict) in configurations()
        .into_iter()
        .filter(|(t, _)| *t != Target::CloudCodeAssist)
    {
        let (_, report) = normalize(&Options::for_target(target).with_strict(strict), &input);
        let reason = report.fallback_reason.as_ref();
        assert!(
            report.used_fallback
                && reason.is_some_and(|r| r.kind == llmshim_core::FallbackKind::TargetUnsupported),
            "{}: {report:?}",
            config_name(target, strict)
        );
    }
    // An object branch beside it keeps the root on every target that keeps root unions.
    let input: Value =
        serde_json::from_str(CLOSED_BESIDE_AN_OBJECT_BRANCH).expect("a JSON reproduction");
    for target in [Target::Mcp, Target::GoogleJsonSchema] {
        let (out, report) = normalize(&Options::for_target(target), &input);
        assert!(!report.used_fallback, "{}: {report:?}", target.name());
        assert_eq!(out["type"], json!("object"), "{out}");
    }
}

/// A one-entry `allOf` whose entry has a description of its own: the entry's keys win, but the node's own
/// description stays first, followed by the entry's words and the fragments lifted from either.
#[test]
fn a_one_entry_all_of_keeps_the_node_description_before_the_entry_one() {
    let input = json!({"type": "object", "properties": {
        "city": {"description": "Where to look.", "allOf": [{"type": "string", "description": "A city name", "minLength": 2, "default": "Paris"}]},
        "same": {"description": "Said once", "allOf": [{"type": "string", "description": "Said once"}]},
        "blank": {"description": "Kept", "allOf": [{"type": "string", "description": " "}]}
    }, "required": ["city", "same", "blank"]});
    for (target, strict) in configurations() {
        let (out, report) = normalize(&Options::for_target(target).with_strict(strict), &input);
        let name = config_name(target, strict);
        assert!(!report.used_fallback, "{name}: {report:?}");
        let text = |property: &str| {
            out["properties"][property]["description"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        };
        let city = text("city");
        assert!(
            city.starts_with("Where to look. A city name")
                && (city.contains(" (default: \"Paris\")")
                    || out["properties"]["city"].get("default").is_some()),
            "{name}: {city}"
        );
        assert_eq!(city.matches("A city name").count(), 1, "{name}: {city}");
        assert_eq!(text("same"), "Said once", "{name}");
        assert_eq!(text("blank"), "Kept", "{name}");
    }
}

/// Found by the loss property test on Google (seed 11235813), fixed: the untyped branch with `items` of an object node
/// was typed `array` from its `items` (`walk.infer-type`), so the isolation of the node's `anyOf` removed it as
/// admitting nothing, and its description with it. It now takes its node's type, for which `items` says nothing.
const ITEMS_IN_A_BRANCH_OF_AN_OBJECT: &str = r##"{"properties":{"name":{"type":"object","any_of":[{"$ref":"#/$defs/Node","description":"see the definition"},{}]}},"required":[],"$defs":{"Node":{"items":{"type":"string"}}}}"##;

#[test]
fn a_branch_with_items_of_a_node_of_another_type_takes_the_node_type() {
    let input: Value =
        serde_json::from_str(ITEMS_IN_A_BRANCH_OF_AN_OBJECT).expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&input);
    for target in [Target::Google, Target::CloudCodeAssist] {
        let (out, report) = normalize(&Options::for_target(target), &input);
        assert!(!report.used_fallback, "{}: {report:?}", target.name());
        assert!(
            out.to_string().contains("see the definition"),
            "{}: {out}",
            target.name()
        );
    }
}

/// Found by the loss property test on Google (seed 8675309), fixed: the annotation-only branch of `Tag`'s union was
/// walked with `Tag` before the sibling `properties` typed the merged node `object`, so `walk.narrow-any` made it a
/// string, and the isolation of the union removed it with its `(default: null)`. Isolation now gives such a branch
/// its node's type, as the walk does where that type is known.
const ANY_BRANCH_OF_A_TARGET_TYPED_BY_SIBLINGS: &str = r##"{"properties":{"name":{"properties":{},"required":[],"$ref":"#/$defs/Tag"}},"required":[],"$defs":{"Node":{"type":"object","if":{"type":"string"},"then":{"type":"string"},"else":{"type":"string"}},"Tag":{"any_of":[{"$ref":"#/$defs/Node","description":"see the definition"},{"default":null}]}}}"##;

#[test]
fn an_any_branch_of_a_target_typed_by_its_siblings_takes_that_type() {
    let input: Value = serde_json::from_str(ANY_BRANCH_OF_A_TARGET_TYPED_BY_SIBLINGS)
        .expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&input);
    let (out, report) = normalize(&Options::for_target(Target::Google), &input);
    assert!(!report.used_fallback, "{report:?}");
    assert_eq!(
        out["properties"]["name"]["anyOf"][1],
        json!({"description": "(default: null)", "type": "object"}),
        "{out}"
    );
}

/// Found by the loss property test on Google (seed 60221407), fixed: the untyped union in a branch of an object node
/// held `{}`, which `walk.narrow-any` made a string, so the nullable collapse made the branch a nullable string and
/// isolation removed it with its description. It now takes the node's type, without the `nullable` mark.
const ANY_OR_NULL_BRANCH_OF_AN_OBJECT: &str = r#"{"properties":{"name":{"type":"object","any_of":[{"properties":{},"required":[]},{"description":"a","anyOf":[{"type":"null"},{}]}]}},"required":[]}"#;

#[test]
fn an_any_or_null_branch_of_an_object_takes_the_object_type() {
    let input: Value =
        serde_json::from_str(ANY_OR_NULL_BRANCH_OF_AN_OBJECT).expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&input);
    let (out, report) = normalize(&Options::for_target(Target::Google), &input);
    assert!(!report.used_fallback, "{report:?}");
    assert_eq!(
        out["properties"]["name"]["anyOf"][1],
        json!({"description": "a", "type": "object"}),
        "{out}"
    );
}

/// A custom target with a built-in rule set and one more step after each node is walked.
#[derive(Debug)]
struct Mutated {
    rules: RuleSet,
    mutate: fn(&mut Value),
}

impl TargetRules for Mutated {
    fn id(&self) -> &'static str {
        "mutated"
    }

    fn rules(&self) -> &RuleSet {
        &self.rules
    }

    fn leave(&self, node: &mut Value, _cx: &mut NodeCtx<'_>) -> Result<(), FallbackReason> {
        (self.mutate)(node);
        Ok(())
    }
}

/// For every configuration whose built-in output of `input` passes the invariant and shows `applies`: the same rule
/// set with `mutate` run on every node gives an output the invariant rejects with a violation starting with
/// `expected`. Returns the configurations tried.
fn mutation_caught(
    input: &Value,
    applies: fn(&Value) -> bool,
    mutate: fn(&mut Value),
    expected: &str,
) -> Vec<String> {
    let mut tried = Vec::new();
    for (target, strict) in configurations() {
        let options = Options::for_target(target).with_strict(strict);
        let (out, report) = normalize(&options, input);
        if report.used_fallback || !applies(&out) {
            continue;
        }
        let name = config_name(target, strict);
        let (found, _) = check(input, &out, &report, Mode::of(target, &report));
        assert!(found.is_empty(), "{name}: the built-in fails: {found:?}");
        let mutated: &'static Mutated = Box::leak(Box::new(Mutated {
            rules: *target.rules().rules(),
            mutate,
        }));
        let options = Options::for_target(Target::custom(mutated)).with_strict(strict);
        let (lost, lost_report) = normalize(&options, input);
        let (found, _) = check(input, &lost, &lost_report, Mode::of(target, &lost_report));
        assert!(
            found.iter().any(|v| v.starts_with(expected)),
            "{name}: the mutation is not caught: {found:?} in {lost}"
        );
        tried.push(name);
    }
    tried
}

#[test]
fn a_keyword_one_branch_lost_is_caught_though_another_branch_holds_it() {
    // Both branches bound the length; a mutation removes the bound from the second only, and the first still holds
    // it at the same position.
    let input = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "string", "maxLength": 3, "pattern": "^a"},
        {"type": "string", "maxLength": 5}
    ]}}});
    let tried = mutation_caught(
        &input,
        |out| {
            let a = &out["properties"]["a"];
            a["anyOf"][1]["maxLength"] == 5 && a["anyOf"][0]["maxLength"] == 3
        },
        |node| {
            if let Some(Value::Array(branches)) = node.get_mut("anyOf")
                && let Some(Value::Object(last)) = branches.last_mut()
            {
                last.remove("maxLength");
            }
        },
        "maxLength at properties/a (input /properties/a/anyOf/1) is missing from its union branch (anyOf/1)",
    );
    eprintln!("suite: loss branch mutation caught on {tried:?}");
    assert!(!tried.is_empty(), "no configuration keeps both bounds");
    // By hand: the same output with the bound lifted into the second branch's description passes.
    let output = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "string", "maxLength": 3, "pattern": "^a"},
        {"type": "string", "description": "(maxLength: 5)"}
    ]}}});
    let (found, tally) = violations(&input, &output, false);
    assert!(found.is_empty() && tally.lifted == 1, "{found:?} {tally:?}");
}

#[test]
fn a_recursive_reference_branch_of_another_type_is_typed_from_its_target() {
    // `cargo xtask props` loss property, seed 20261215 (Google): the first branch of `items` refers back to `Node`,
    // an array, so beside its object node it admits nothing and `google.isolate-any-of` removes it with its
    // description (CONJUNCTION). The reading does not follow a reference that recurs, and left the branch untyped,
    // so it reported the description as vanished; it now types the branch from the target it names.
    let input = json!({"properties": {"name": {"properties": {"name": {"$ref": "#/$defs/Node"}}, "required": []}},
        "required": [], "$defs": {"Node": {"type": "array", "items": {"type": "object", "anyOf": [
            {"$ref": "#/$defs/Node", "description": "see the definition"}, {}]}}}});
    assert_branch_dropped_for_its_type_on_google(&input);
}

/// Checks that on Google the loss reading finds nothing in `input`'s output and counts a branch dropped for
/// admitting nothing beside its node (CONJUNCTION).
fn assert_branch_dropped_for_its_type_on_google(input: &Value) {
    let options = Options::for_target(Target::Google);
    let (output, report) = normalize(&options, input);
    let (found, tally) = check(input, &output, &report, Mode::of(Target::Google, &report));
    assert!(found.is_empty(), "{found:?} in {output}");
    assert!(
        tally.dropped.contains_key(CONJUNCTION.rule),
        "{tally:?} in {output}"
    );
}

#[test]
fn a_branch_typed_through_a_one_entry_all_of_is_read_with_that_type() {
    // `cargo xtask props` loss property, seed 1796306707446602015 (Google): the first branch of `name` is an
    // object through its one-entry `allOf` of `Item`, so beside its string node it admits nothing and
    // `google.isolate-any-of` removes it with its description (CONJUNCTION). The reading did not see the type the
    // entry's target gives and reported the description as vanished; it now types the branch from that target.
    let input = json!({"properties": {"name": {"type": "string", "anyOf": [
        {"description": "a", "allOf": [{"$ref": "#/$defs/Item"}]}, {"type": "string"}]}},
        "required": [], "$defs": {"Item": {"properties": {"name": {"type": "string"}}, "required": []}}});
    assert_branch_dropped_for_its_type_on_google(&input);
}

#[test]
fn a_union_branch_is_not_read_against_a_union_of_another_alternative_at_its_position() {
    // `cargo xtask props` loss property, seed 1516 (Google): the `items` of both branches of `name` stand at one
    // position. The second's union loses its `string` branch (it admits no object) and keeps the `default` lifted in
    // the branch left; the first's tuple becomes an `anyOf` of its two places, which the branch check took for the
    // second's union, still of two branches, and reported the `default` missing from its `anyOf/1`.
    let input = json!({"properties": {"name": {"anyOf": [
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string", "examples": []}], "items": false},
        {"$ref": "#/$defs/Tag"}
    ]}}, "required": [], "$defs": {"Tag": {"type": "array", "items": {"type": "object", "anyOf": [
        {"type": "string"}, {"default": null}
    ]}}}});
    let options = Options::for_target(Target::Google);
    let (output, report) = normalize(&options, &input);
    let items = &output["properties"]["name"]["anyOf"];
    assert_eq!(
        items[0]["items"]["anyOf"].as_array().map(Vec::len),
        Some(2),
        "{output}"
    );
    assert_eq!(
        items[1]["items"]["anyOf"],
        json!([{"description": "(default: null)", "type": "object"}]),
        "{output}"
    );
    let (found, _) = check(&input, &output, &report, Mode::of(Target::Google, &report));
    assert!(found.is_empty(), "{found:?} in {output}");
    // The same output with the lifted `default` gone is still caught, at the position.
    let mut lost = output.clone();
    lost["properties"]["name"]["anyOf"][1]["items"]["anyOf"][0]
        .as_object_mut()
        .map(|m| m.remove("description"));
    let (found, _) = check(&input, &lost, &report, Mode::of(Target::Google, &report));
    assert!(
        found
            .iter()
            .any(|v| v.starts_with("default at properties/name/items")),
        "{found:?} in {lost}"
    );
}

#[test]
fn a_branch_that_isolation_retypes_is_no_longer_reported_narrowed() {
    // `walk.narrow-any` made each of these branches a string before its node's type was known; Google's isolation
    // then gives it the node's type (`google.isolate-any-of`), so it admits every value of the node again and the
    // narrowing is taken back, with diagnostics and without.
    for text in [
        ANY_BRANCH_OF_A_TARGET_TYPED_BY_SIBLINGS,
        ANY_OR_NULL_BRANCH_OF_AN_OBJECT,
    ] {
        let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
        for diagnostics in [false, true] {
            let options = Options::for_target(Target::Google).with_diagnostics(diagnostics);
            let (out, report) = normalize(&options, &input);
            assert_eq!(
                out["properties"]["name"]["anyOf"][1]["type"], "object",
                "{out}"
            );
            assert!(
                !report.narrowed && !report.used_fallback,
                "diagnostics {diagnostics}: {report:?}\n{out}"
            );
            assert!(
                report.changes.iter().all(|c| c.rule != "walk.narrow-any"),
                "{report:?}"
            );
        }
    }
    // A branch narrowed to a string that no isolation retypes (its node has no single type) stays narrowed.
    let input = json!({"type": "object", "properties": {"name": {"anyOf": [{"type": "integer"}, {"default": 1}]}}});
    let (out, report) = normalize(&Options::for_target(Target::Google), &input);
    assert!(report.narrowed, "{report:?}\n{out}");
}

/// The `(anyOf: …)` fragment root shaping lifted into `out`'s description, if there is one.
fn lifted_root_union(out: &Value) -> Option<Value> {
    let (_, rest) = out["description"].as_str()?.split_once("(anyOf: ")?;
    let fragment = serde_json::Deserializer::from_str(rest)
        .into_iter::<Value>()
        .next()
        .and_then(Result::ok);
    Some(fragment.expect("the lifted union is JSON"))
}

/// Asserts that every `$ref` in `fragment`, lifted into `out`'s root description, names something the output holds
/// (`#`, `#/json/pointer`) or something the fragment itself holds (`#name`, an `$anchor` in it).
fn assert_names_only_what_is_held(name: &str, fragment: &Value, out: &Value) {
    let mut anchors: Vec<&str> = Vec::new();
    let mut references: Vec<&str> = Vec::new();
    let mut stack = vec![fragment];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(anchor)) = map.get("$anchor") {
                    anchors.push(anchor);
                }
                if let Some(Value::String(reference)) = map.get("$ref") {
                    references.push(reference);
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    for reference in references {
        let held = match reference.strip_prefix('#') {
            Some(plain) if !plain.is_empty() && !plain.starts_with('/') => anchors.contains(&plain),
            _ => resolve(out, reference).is_some(),
        };
        assert!(
            held,
            "{name}: the lifted {reference} names nothing in {out}"
        );
    }
}

/// Normalizes `input` on every configuration and, where root shaping lifted the root union, runs `inspect` on the
/// configuration's name, the lifted fragment and the output, then requires the loss invariant to hold; returns the
/// names of the configurations that lifted it.
fn on_each_lifted_root_union(input: &Value, inspect: impl Fn(&str, &Value, &Value)) -> Vec<String> {
    let mut tried = Vec::new();
    for (target, strict) in configurations() {
        let (out, report) = normalize(&Options::for_target(target).with_strict(strict), input);
        let name = config_name(target, strict);
        let Some(fragment) = lifted_root_union(&out) else {
            continue;
        };
        inspect(&name, &fragment, &out);
        let (found, _) = check(input, &out, &report, Mode::of(target, &report));
        assert!(found.is_empty(), "{name}: {found:?}\n{out}");
        tried.push(name);
    }
    tried
}

#[test]
fn a_root_union_lifted_by_root_shaping_names_no_definition_the_output_lacks() {
    // Root shaping (`root.merge-alternatives`) lifts the root union; a branch holding a reference is lifted as
    // walked, so the text names no definition the output dropped, and the referenced bound is still in it.
    let input = json!({
        "anyOf": [
            {"$ref": "#/$defs/Card"},
            {"type": "object", "properties": {"iban": {"type": "string"}}, "required": ["iban"]}
        ],
        "$defs": {"Card": {"type": "object", "properties": {"number": {"type": "string", "minLength": 12}}, "required": ["number"]}}
    });
    let tried = on_each_lifted_root_union(&input, |name, fragment, out| {
        assert_names_only_what_is_held(name, fragment, out);
        assert!(
            holds(fragment, "minLength", "(minLength:", out),
            "{name}: {fragment}"
        );
    });
    eprintln!("suite: loss root union lifted on {tried:?}");
    assert!(!tried.is_empty(), "no target shapes the root union");
}

/// Found by the loss property at 10,000 cases (chat, seed 253487261), fixed: a root union branch that is a recursive
/// reference with siblings becomes a kept site of a definition holding the target and the siblings, and root shaping
/// lifted it as `{"$ref": "#/$defs/Tag"}`, but the output keeps only the definitions its own sites reach, so the text
/// named nothing and the sibling `additionalProperties: false` was in no output text. The second input keeps the
/// target alone as a definition of the output (through the branch's property `t`), under another name than the text's.
const RECURSIVE_SITE_IN_A_ROOT_UNION: [&str; 2] = [
    r##"{"any_of": [{"properties": {}, "required": [], "$ref": "#/$defs/Tag", "additionalProperties": false}], "$defs": {"Tag": {"items": {"anyOf": [{"anyOf": [{"$ref": "#/$defs/Tag"}]}]}}}}"##,
    r##"{"anyOf": [{"properties": {"t": {"$ref": "#/$defs/Tag"}}, "$ref": "#/$defs/Tag", "additionalProperties": false}], "$defs": {"Tag": {"items": {"anyOf": [{"$ref": "#/$defs/Tag"}]}}}}"##,
];

#[test]
fn a_root_union_branch_kept_as_a_recursive_site_is_spelled_out_in_the_lifted_text() {
    for text in RECURSIVE_SITE_IN_A_ROOT_UNION {
        let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
        let tried = on_each_lifted_root_union(&input, |name, fragment, out| {
            // The text names only what it or the output holds, and holds what the branch held: the sibling
            // `additionalProperties` and the definition's `items`, down to the reference back to itself.
            assert_names_only_what_is_held(name, fragment, out);
            for key in ["additionalProperties", "items"] {
                assert!(
                    holds(fragment, key, &format!("({key}:"), out),
                    "{name}: no {key} in {fragment}"
                );
            }
        });
        assert!(tried.len() >= 3, "the root union is shaped on {tried:?}");
    }
}

/// Found by the vanished-position reading on the corpus (`schemastore/webjob-publish-settings.json`, `stylelintrc.json`,
/// `web-types.json`: 9,148 keywords per strictness on chat, responses, anthropic, google-json, mcp and cca), fixed: a
/// one-entry `allOf`'s entry won on `properties` as on every key (`walk.merge-all-of`), and so did the target of a kept
/// recursive reference reached through one (`resolve.keep-recursive-ref`), so a property only the node declared
/// (`runMode`, `ignoreKeywords`, `tags`) vanished with everything below it. The entry's members now join the node's.
const PROPERTIES_BESIDE_A_ONE_ENTRY_ALL_OF: &str = r##"{"type":"object","properties":{"mode":{"type":"object","allOf":[{"$ref":"#/$defs/Shared"}],"properties":{"run":{"type":"string","enum":["a","b"]}}},"html":{"type":"object","allOf":[{"$ref":"#/$defs/Host"}],"properties":{"tags":{"type":"array","items":{"type":"string"},"minItems":1}}}},"$defs":{"Shared":{"type":"object","properties":{"name":{"type":"string"}}},"Host":{"type":"object","properties":{"elements":{"type":"array","items":{"$ref":"#/$defs/Host"}}}}}}"##;

#[test]
fn a_one_entry_all_of_keeps_the_properties_only_its_node_declares() {
    let input: Value =
        serde_json::from_str(PROPERTIES_BESIDE_A_ONE_ENTRY_ALL_OF).expect("a JSON reproduction");
    assert_members_kept(
        &input,
        &[("mode", &["run", "name"]), ("html", &["tags", "elements"])],
        false,
    );
}

/// Checks that `input` loses nothing on any configuration, falls back on none, and that each top-level property of
/// `expected` keeps its members there (where `cut_allowed`, a property a configuration cuts as recursive is named
/// in the root's description instead).
fn assert_members_kept(input: &Value, expected: &[(&str, &[&str])], cut_allowed: bool) {
    assert_no_loss_on_every_configuration(input);
    for (target, strict) in configurations() {
        let (out, report) = normalize(&Options::for_target(target).with_strict(strict), input);
        let name = config_name(target, strict);
        assert!(!report.used_fallback, "{name}: {report:?}");
        let mut index = OutputIndex::new(&out);
        for (property, members) in expected {
            let nodes = index.at(&[Step::Property((*property).to_owned())]);
            if cut_allowed && nodes.is_empty() {
                let cut = format!("(recursive {property}:");
                assert!(
                    out["description"]
                        .as_str()
                        .is_some_and(|d| d.contains(&cut)),
                    "{name}: {property} vanished: {out}"
                );
                continue;
            }
            for member in *members {
                assert!(
                    nodes
                        .iter()
                        .any(|n| n.get("properties").and_then(|p| p.get(*member)).is_some()),
                    "{name}: {property} lost {member}: {out}"
                );
            }
        }
    }
}

/// Found by the loss property (chat, seed 20261217 at 10,000 cases), fixed: a node whose one-entry `allOf` is a
/// recursive reference with siblings (`{"properties": {"x": ...}, "allOf": [{"properties": {"name": ...}, "$ref":
/// "#/$defs/Tag"}]}`, `Tag` leading back to the node) lost properties. The entry was walked into a kept site of `Tag`
/// with its siblings; merged into the node, that site met the node's own keys as siblings of its own, which replaced
/// the entry's `properties`, so `name` vanished (and with a node typed `object`, the empty `properties` strict closing
/// and the OpenAI targets add replaced them too). The reference of such an entry is now kept where the node stands, as a
/// bare entry's is: the entry's siblings win over the target, and the node's keys lose to them, its properties joined.
const RECURSIVE_ENTRY_WITH_SIBLINGS: &str = r##"{"type":"object","properties":{"p":{"$ref":"#/$defs/Node"},"q":{"$ref":"#/$defs/Typed"}},"$defs":{"Node":{"properties":{"x":{"type":"string"}},"allOf":[{"properties":{"name":{"type":"string","default":"n"}},"$ref":"#/$defs/Tag"}]},"Tag":{"items":{"$ref":"#/$defs/Node"}},"Typed":{"type":"object","allOf":[{"properties":{"name":{"type":"string","default":"n"}},"$ref":"#/$defs/Loop"}]},"Loop":{"items":{"$ref":"#/$defs/Typed"}}}}"##;

#[test]
fn a_recursive_one_entry_all_of_keeps_its_siblings_and_its_nodes_properties() {
    let input: Value =
        serde_json::from_str(RECURSIVE_ENTRY_WITH_SIBLINGS).expect("a JSON reproduction");
    // Where recursion is not kept (Anthropic under strict), the property is cut whole and named.
    assert_members_kept(&input, &[("p", &["x", "name"]), ("q", &["name"])], true);
}

/// Found by the vanished-position reading on the corpus (`schemastore/netlify.json` on Google, 6 keywords), fixed: a
/// `$ref` target is walked before the keys around it are merged in, and type inference waits for that merged node, but
/// `google.isolate-any-of` did not: it isolated the target's union while the node had no type yet, copied none of the
/// node's `properties` into the untyped branches, and dropped them with the node, so the object's properties vanished
/// and each branch became a string (`walk.narrow-any`). Isolation now waits for the merged node too.
const UNION_OF_AN_UNTYPED_REFERENCE_TARGET: &str = r##"{"type":"object","properties":{"c":{"$ref":"#/$defs/C"}},"$defs":{"C":{"properties":{"a":{"type":"string","default":"x"},"b":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}}}"##;

#[test]
fn google_isolation_waits_for_a_reference_target_to_be_typed() {
    let input: Value =
        serde_json::from_str(UNION_OF_AN_UNTYPED_REFERENCE_TARGET).expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&input);
    let (out, report) = normalize(&Options::for_target(Target::Google), &input);
    assert!(!report.used_fallback && !report.narrowed, "{report:?}");
    let branches = out["properties"]["c"]["anyOf"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(branches.len(), 2, "{out}");
    for branch in branches {
        assert_eq!(branch["type"], "object", "{out}");
        assert!(
            branch["properties"].get("a").is_some() && branch["properties"].get("b").is_some(),
            "{out}"
        );
    }
}

/// Found by the vanished-position reading on the corpus (`schemastore/hws-config.json` and `debugsettings.json` on Code
/// Assist, 12 keywords), fixed: `cca.merge-combinator` appended the branches' merged keys only where the node lacked
/// them, so the `properties` the branches declared vanished whole where the node had `properties` of its own. The names
/// only the branches declare now join the node's (its own schema still wins on a shared name).
const PROPERTIES_OF_BRANCHES_BESIDE_THE_NODE: &str = r#"{"type":"object","properties":{"p":{"type":"object","properties":{"name":{"type":"string"}},"anyOf":[{"properties":{"exe":{"type":"string","minLength":1}}},{"properties":{"cmd":{"type":"string","minLength":1}}}]}}}"#;

#[test]
fn the_code_assist_merge_keeps_the_properties_only_a_branch_declares() {
    let input: Value =
        serde_json::from_str(PROPERTIES_OF_BRANCHES_BESIDE_THE_NODE).expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&input);
    let (out, report) = normalize(&Options::for_target(Target::CloudCodeAssist), &input);
    assert!(!report.used_fallback, "{report:?}");
    let properties = &out["properties"]["p"]["properties"];
    for name in ["name", "exe", "cmd"] {
        assert!(properties.get(name).is_some(), "{name}: {out}");
    }
    assert_eq!(properties["exe"]["minLength"], 1, "{out}");
}

/// Found by the property test on Code Assist (seeds 123456, 31337, 2718 at 3,000 cases), tolerated by the
/// vanished-position reading until fixed: the union of a `$ref` target was merged (`cca.merge-combinator`) while the
/// target was walked alone, before the referencing node's siblings were merged in, so the merged branch's type won (a
/// `(type: any)` string, an array inferred from `items`) and the `properties` a sibling brings were then dropped as
/// inapplicable to it (`google.type-applicability`), with everything below them. The merge now waits for the merged
/// node, as Google's isolation does, and a branch `walk.narrow-any` made a string before that node's type was known
/// takes the node's type.
const MERGED_BEFORE_SIBLINGS: [&str; 3] = [
    r##"{"properties":{"name":{"properties":{"name":{"format":"date-time"}},"required":[],"$ref":"#/$defs/Item"}},"required":[],"$defs":{"Item":{"any_of":[{}]}}}"##,
    r##"{"properties":{"name":{"properties":{"name":{"properties":{"name":{"type":"string","default":null}},"required":[],"$ref":"#/$defs/Tag"}},"required":[]}},"required":[],"$defs":{"Tag":{"anyOf":[{}]}}}"##,
    r##"{"properties":{"name":{"properties":{"name":{"type":"string","examples":[]}},"required":[],"$ref":"#/$defs/Item"}},"required":[],"$defs":{"Item":{"anyOf":[{"items":{"type":"string"}}]}}}"##,
];

#[test]
fn a_union_of_a_reference_target_merges_after_its_siblings() {
    // The path of the node whose `properties` a sibling gives, in each reproduction, and the keyword below them.
    let sibling_at: [(&[&str], &str); 3] = [
        (&["name"], "format"),
        (&["name", "name"], "default"),
        (&["name"], "examples"),
    ];
    for (text, (path, keyword)) in MERGED_BEFORE_SIBLINGS.into_iter().zip(sibling_at) {
        let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
        assert_no_loss_on_every_configuration(&input);
        let (out, report) = normalize(&Options::for_target(Target::CloudCodeAssist), &input);
        assert!(!report.used_fallback, "{text}: {report:?}");
        let names = |node: &Value, text: &str| {
            node["description"]
                .as_str()
                .is_some_and(|d| d.contains(text))
        };
        // The node is an object whose property the sibling declared keeps its keyword or names it, or the property
        // or the node is named as omitted (an untyped `format` node is one Code Assist cannot take, and a failure
        // inside a reference's merged node climbs to the referencing site).
        let mut parent = &out;
        let mut node = &out;
        for name in path {
            parent = node;
            node = &node["properties"][*name];
        }
        let property = &node["properties"]["name"];
        assert!(
            (node["type"] == "object"
                && (property.get(keyword).is_some()
                    || names(property, &format!("({keyword}:"))
                    || names(node, "(omitted name:")))
                || (node.is_null() && names(parent, "(omitted name:")),
            "{text}: {keyword} lost: {out}"
        );
    }
}

/// The worked example of the fix above (CHANGELOG), as the property `p`: before, `p` came out as `{"type": "string",
/// "description": "(type: any)"}`, its `properties` gone without a trace. Now the union's one branch, which admits
/// anything, adds nothing to the object the sibling makes of `p`; an untyped `format` node is one Code Assist cannot
/// take, so `p` is omitted and named (a failure inside a reference's merged node climbs to the referencing site), and
/// with a typed `name` everything is kept.
#[test]
fn the_worked_example_of_a_reference_union_beside_sibling_properties_keeps_them() {
    let example = |name: Value| {
        json!({"type": "object", "properties": {"p": {"properties": {"name": name}, "$ref": "#/$defs/Item"}},
            "$defs": {"Item": {"anyOf": [{}]}}})
    };
    let cca = Options::for_target(Target::CloudCodeAssist);
    let input = example(json!({"format": "date-time"}));
    assert_no_loss_on_every_configuration(&input);
    let (out, report) = normalize(&cca, &input);
    assert_eq!(
        out,
        json!({"type": "object", "description": "(omitted p: target_unsupported)"}),
        "{report:?}"
    );
    assert!(!report.used_fallback && report.narrowed, "{report:?}");
    let input = example(json!({"type": "string", "format": "date-time"}));
    assert_no_loss_on_every_configuration(&input);
    let (out, report) = normalize(&cca, &input);
    assert_eq!(
        out,
        json!({"type": "object", "properties": {"p": {"properties": {"name": {"type": "string", "format": "date-time"}},
            "type": "object"}}}),
        "{report:?}"
    );
    assert!(!report.used_fallback && !report.narrowed, "{report:?}");
}

#[test]
fn the_invariant_catches_a_position_removed_without_a_name() {
    // A property removed from its node with nothing named in its place: each lift-list keyword below it is reported
    // at its vanished position, on every configuration whose built-in output keeps the property.
    let input = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "b": {"type": "object", "properties": {"c": {"type": "string", "enum": ["x", "y"]}}, "required": ["c"]}
    }, "required": ["a", "b"]});
    let tried = mutation_caught(
        &input,
        |out| out["properties"]["b"]["properties"]["c"]["enum"] == json!(["x", "y"]),
        |node| {
            if let Some(Value::Object(members)) = node.get_mut("properties") {
                members.shift_remove("b");
            }
            if let Some(Value::Array(names)) = node.get_mut("required") {
                names.retain(|n| n != "b");
            }
        },
        "enum at properties/b/properties/c (input /properties/b/properties/c) vanished with its position",
    );
    eprintln!("suite: loss vanished-position mutation caught on {tried:?}");
    assert_eq!(tried.len(), configurations().len(), "{tried:?}");
    // By hand: the same removal named by its note passes, and a note naming another property does not.
    let output = |note: &str| json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "description": note});
    assert!(
        violations(&input, &output("(omitted b: regex)"), false)
            .0
            .is_empty()
    );
    assert_eq!(
        violations(&input, &output("(omitted a: regex)"), false).0,
        [
            "enum at properties/b/properties/c (input /properties/b/properties/c) vanished with its position, and no \
             description at the root names it"
        ]
    );
}

/// Found by `cargo xtask props` (seed 1796357262433062007, chat strict), a reading of the check: an `allOf` entry
/// closed by `additionalProperties: false` admits no property it does not declare, so a property another entry brings
/// (here through a reference to the root) is never present, and the merge drops it with everything below it
/// (`walk.merge-all-of`); the reading looked for a note naming the keywords below it. A property that a schema in
/// conjunction with its node closes out now constrains nothing there.
const CLOSED_OUT_BY_AN_ALL_OF_ENTRY: &str = r##"{"properties":{"name":{"properties":{"name":{"properties":{"name":{"$ref":"#/$defs/Node","description":"see the definition"}},"required":[]}},"required":[]},"user_id":{"properties":{"name":{"allOf":[{"properties":{"created_at":{"type":"integer","maximum":0}},"required":[],"additionalProperties":false},{"$ref":"#"}]}},"required":[]}},"required":[]}"##;

#[test]
fn a_property_an_all_of_entry_closes_out_constrains_nothing() {
    let input: Value =
        serde_json::from_str(CLOSED_OUT_BY_AN_ALL_OF_ENTRY).expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&input);
    // As the generator wrote it, in snake case, which the walk reads as the keyword.
    let snake: Value = serde_json::from_str(
        &CLOSED_OUT_BY_AN_ALL_OF_ENTRY.replace("additionalProperties", "additional_properties"),
    )
    .expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&snake);
    // The closed entry's own property survives, with its bound, on chat strict.
    let (out, report) = normalize(
        &Options::for_target(Target::OpenAiChat).with_strict(true),
        &input,
    );
    assert!(!report.used_fallback, "{report:?}");
    let created_at = out["properties"]["user_id"]["anyOf"][0]["properties"]["name"]["anyOf"][0]["properties"]
        ["created_at"]
        .to_string();
    assert!(created_at.contains("\"maximum\":0"), "{out}");
    // Read without the closing entry, the same loss is reported: the excuse rests on `additionalProperties: false`.
    let mut open = input.clone();
    if let Some(entry) = open.pointer_mut("/properties/user_id/properties/name/allOf/0") {
        entry["additionalProperties"] = Value::Bool(true);
    }
    let (found, _) = check(&open, &out, &report, Mode::of(Target::OpenAiChat, &report));
    assert!(
        found
            .iter()
            .any(|v| v.contains("vanished with its position")),
        "{found:?}"
    );
}

/// Found by `cargo xtask props` (seed 1796321085380981806 at 10,000 cases, chat): `Item`, the first `allOf` entry,
/// is closed by `additionalProperties: false` and declares `name`, whose `user_id` has an unresolved reference as its
/// first union branch; the climb removes that branch (`target.omit-property`), and the merge (`walk.merge-all-of`)
/// then left `name` out of the closed result, with the `default` below it and the note, so `x` admitted only `{}`
/// and named nothing. The entry's walked `name` admits nothing its written one does not, and no other participant
/// declares or closes it out, so the merge keeps it.
const CLOSED_ENTRY_NARROWED_BELOW: &str = r##"{"type":"object","properties":{"x":{"allOf":[{"$ref":"#/$defs/Item"},{}]}},"$defs":{"Item":{"properties":{"name":{"properties":{"name":{"type":"string","default":null},"user_id":{"anyOf":[{"$ref":"#/$defs/Node"},{}]}},"required":[]}},"required":[],"additionalProperties":false}}}"##;

/// The property run's own minimal input, the `allOf` two `additionalProperties` down.
const CLOSED_ENTRY_NARROWED_BELOW_AS_FOUND: &str = r##"{"properties":{},"required":[],"additionalProperties":{"properties":{},"required":[],"additionalProperties":{"allOf":[{"$ref":"#/$defs/Item"},{}]}},"$defs":{"Item":{"properties":{"name":{"properties":{"name":{"type":"string","default":null},"user_id":{"anyOf":[{"$ref":"#/$defs/Node"},{}]}},"required":[]}},"required":[],"additionalProperties":false}}}"##;

#[test]
fn a_closed_all_of_entry_keeps_a_property_narrowed_below_it() {
    let input: Value =
        serde_json::from_str(CLOSED_ENTRY_NARROWED_BELOW).expect("a JSON reproduction");
    let found: Value =
        serde_json::from_str(CLOSED_ENTRY_NARROWED_BELOW_AS_FOUND).expect("a JSON reproduction");
    assert_no_loss_on_every_configuration(&input);
    assert_no_loss_on_every_configuration(&found);
    for strict in [false, true] {
        let (out, report) = normalize(
            &Options::for_target(Target::OpenAiChat).with_strict(strict),
            &input,
        );
        assert!(!report.used_fallback && report.narrowed, "{report:?}");
        // Under strict the optional `x` and `name` are wrapped in a nullable `anyOf`; its first branch is the object.
        let unwrap = |node: &Value| -> Value {
            node.get("anyOf")
                .and_then(|branches| branches.get(0))
                .unwrap_or(node)
                .clone()
        };
        let x = unwrap(&out["properties"]["x"]);
        assert_eq!(x["additionalProperties"], json!(false), "{out}");
        let name = unwrap(&x["properties"]["name"]);
        // Kept as a keyword, or lifted into the description under strict (`(default: null)`).
        assert!(
            name["properties"]["name"].to_string().contains("default"),
            "strict={strict}: {out}"
        );
        let user_id = name["properties"]["user_id"]["description"].to_string();
        assert!(
            user_id.contains("(omitted anyOf: unresolved_ref)"),
            "strict={strict}: {out}"
        );
    }
    // What the output admits: a `name` as the entry declares it, not one of another type, nor another property.
    let (out, _) = normalize(&Options::for_target(Target::OpenAiChat), &input);
    let compiled = validate::compile(&out).expect("the output compiles");
    assert!(
        validate::errors(
            &compiled,
            &json!({"x": {"name": {"name": "a", "user_id": 0}}})
        )
        .is_empty()
    );
    assert!(!validate::errors(&compiled, &json!({"x": {"name": {"name": 0}}})).is_empty());
    assert!(!validate::errors(&compiled, &json!({"x": {"other": 0}})).is_empty());
    // Where another participant is closed and does not declare `name`, the `allOf` admits no `name` at all, and the
    // merge still leaves it out (the reading finds nothing lost there either).
    let mut closed_out = input.clone();
    if let Some(entry) = closed_out.pointer_mut("/properties/x/allOf/1") {
        *entry = json!({"properties": {}, "additionalProperties": false});
    }
    assert_no_loss_on_every_configuration(&closed_out);
    let (out, report) = normalize(&Options::for_target(Target::OpenAiChat), &closed_out);
    assert!(!report.used_fallback, "{report:?}");
    assert_eq!(
        out["properties"]["x"],
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        "{out}"
    );
}

/// A one-entry `allOf` whose entry holds a union of the same keyword as its node: the merged node would take the
/// entry's union in place of its own, so Code Assist merges the entry's union in the entry's walk (`Rewalk::held`),
/// as it did before the merge waited for the merged node, and both unions constrain the node. Waiting here lost the
/// node's `maxLength` and `format` without a trace.
#[test]
fn code_assist_keeps_a_node_union_beside_an_entry_union_of_the_same_keyword() {
    let input = json!({"type": "object", "properties": {"a": {
        "anyOf": [{"type": "string", "maxLength": 3}, {"type": "string", "format": "email"}],
        "allOf": [{"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "minLength": 2}]}]}}});
    let (out, report) = normalize(&Options::for_target(Target::CloudCodeAssist), &input);
    assert!(!report.used_fallback, "{report:?}");
    let text = out["properties"]["a"].to_string();
    for kept in ["maxLength", "email", "^a", "minLength"] {
        assert!(text.contains(kept), "{kept}: {out}");
    }
}

/// The entries of an `allOf` of several are merged into their node only as plain object schemas
/// (`walk.merge-all-of`), so Code Assist merges an entry's union in the entry's walk (`Rewalk::held`). Left to the
/// node, it kept the entry from merging: the `allOf` stayed, its entries were walked as children and the union merge
/// at the node brought their properties up, so a part the structural check then refused (`ig`'s type array, as in
/// `ts-node.ignoreDiagnostics` of SchemaStore's `tsconfig.json`) was at a pointer the walk had never visited, no
/// narrowing could omit it, and the whole schema fell back.
#[test]
fn code_assist_merges_the_union_of_an_entry_of_several_before_the_all_of_merge() {
    let input = json!({"type": "object", "allOf": [
        {"properties": {"ig": {"type": "array", "items": {"type": ["string", "number"]}}}},
        {"anyOf": [{"properties": {"f": {"type": "string"}}}, {"properties": {"g": {"type": "string"}}}]}]});
    assert_no_loss_on_every_configuration(&input);
    let (out, report) = normalize(&Options::for_target(Target::CloudCodeAssist), &input);
    assert!(!report.used_fallback && report.narrowed, "{report:?}");
    assert_eq!(
        out,
        json!({"type": "object", "properties": {"f": {"type": "string"}, "g": {"type": "string"}},
            "description": "(omitted ig: target_unsupported)"}),
        "{report:?}"
    );
}

/// Found by the loss property at 10,000 cases (cca, seed 1796321085380981806), a reading of the check: the reference's
/// sibling `properties` type the merged node `object` (`walk.infer-type`), and its target's `allOf` of two integers,
/// which `walk.merge-all-of` does not merge (only plain objects merge), is merged by Code Assist into that node, whose
/// type wins (`cca.merge-combinator`), so the `maximum` goes as inapplicable to an object, as it does where the same
/// node is written in place. The node admits nothing there (an object that is an integer), but the reading took the
/// entries' type for the node's, as a one-entry `allOf`'s merge gives it before inference, and asked for a note.
#[test]
fn several_all_of_entries_of_another_type_leave_the_inferred_object_in_conjunction() {
    for text in [
        r##"{"properties":{},"required":[],"$ref":"#/$defs/Item","$defs":{"Item":{"allOf":[{"type":"integer"},{"type":"integer","maximum":0}]}}}"##,
        r#"{"properties":{},"required":[],"allOf":[{"type":"integer"},{"type":"integer","maximum":0}]}"#,
    ] {
        let input: Value = serde_json::from_str(text).expect("a JSON reproduction");
        assert_no_loss_on_every_configuration(&input);
        let (out, report) = normalize(&Options::for_target(Target::CloudCodeAssist), &input);
        assert!(!report.used_fallback, "{text}: {report:?}");
        assert_eq!(out, json!({"type": "object"}), "{text}");
    }
    // With one entry, the merge gives the node the entry's type first, and the `maximum` is kept.
    let input = json!({"properties": {"p": {"properties": {}, "allOf": [{"type": "integer", "maximum": 0}]}}});
    assert_no_loss_on_every_configuration(&input);
}

/// Code Assist merges a union of `required` alternatives written in place as it merges the same union behind a
/// `$ref`. `google.filter-required` empties each branch when it is left (the branch declares none of the names it
/// requires), and the merge of the node's union followed in the same visit: the branches were untyped, the merge
/// failed with "the first branch has no type", and the property was omitted (at the root, as in SchemaStore's
/// `flatpak-manifest.json`, the schema fell back). Behind a `$ref` the merge waits for the merged node, whose walk
/// gives the emptied branches their node's type (`walk.narrow-any` on a branch of annotations alone), so the
/// definition was kept. Now an emptied branch takes its node's type where it is left, and both forms come out alike,
/// none of the alternatives required (the union merge keeps the names every branch requires).
#[test]
fn code_assist_merges_required_alternatives_in_place_as_behind_a_ref() {
    let properties = json!({"a": {"type": "string"}, "b": {"type": "integer"}});
    let definitions = [
        json!({"type": "object", "properties": properties,
            "anyOf": [{"required": ["a"]}, {"required": ["b"], "description": "the b form"}]}),
        json!({"type": "object", "properties": properties, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}),
        json!({"properties": properties, "anyOf": [{"required": ["a"]}, {"required": ["a", "b"]}]}),
    ];
    let cca = Options::for_target(Target::CloudCodeAssist);
    for definition in definitions {
        let forms = [
            (
                json!({"type": "object", "properties": {"p": definition}}),
                json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": definition}}),
            ),
            (
                definition.clone(),
                json!({"$ref": "#/$defs/P", "$defs": {"P": definition}}),
            ),
        ];
        for (in_place, behind) in forms {
            let out = alike_in_place_and_behind_a_ref(&cca, &in_place, &behind);
            let node = out["properties"].get("p").unwrap_or(&out);
            assert_eq!(node["properties"], properties, "{in_place}: {out}");
            assert!(
                node.get("anyOf").is_none() && node.get("oneOf").is_none(),
                "{out}"
            );
        }
    }
    // The first definition in place, written out: the branch's text joins the node's, and nothing is required.
    let in_place = json!({"type": "object", "properties": {"p": {"type": "object", "properties": properties,
        "anyOf": [{"required": ["a"]}, {"required": ["b"], "description": "the b form"}]}}});
    let (out, report) = normalize(&cca, &in_place);
    assert_eq!(
        out,
        json!({"type": "object", "properties": {"p": {"type": "object", "properties": properties,
            "description": "the b form"}}}),
        "{report:?}"
    );
    assert!(!report.narrowed, "{report:?}");
}

/// On Google and Code Assist, a node without a type that only requires names it does not declare comes out in place
/// as behind a `$ref`: `google.filter-required` leaves it with annotations alone, and it becomes a string marked
/// `(type: any)` (`walk.narrow-any`), as a node written that way does; a `required` list constrains only objects, so
/// the string admits nothing the input refused. In place a union of such branches made Google fall back for the
/// whole schema ("the target needs type or anyOf on every node") and Code Assist omit the property, while behind a
/// `$ref` the merged node's walk typed the emptied branches.
#[test]
fn an_untyped_node_emptied_by_the_required_filter_is_narrowed_in_place_as_behind_a_ref() {
    let definitions = [
        json!({"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}),
        json!({"oneOf": [{"required": ["a"]}, {"required": ["b"], "description": "the b form"}]}),
        json!({"required": ["a"]}),
    ];
    for target in [Target::Google, Target::CloudCodeAssist] {
        let options = Options::for_target(target);
        for definition in &definitions {
            let in_place = json!({"type": "object", "properties": {"p": definition}});
            let behind = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}},
                "$defs": {"P": definition}});
            let out = alike_in_place_and_behind_a_ref(&options, &in_place, &behind);
            let node = &out["properties"]["p"];
            let strings = match node.get("anyOf") {
                Some(Value::Array(branches)) => branches.iter().collect(),
                _ => vec![node],
            };
            for s in strings {
                assert_eq!(s["type"], "string", "{target}: {out}");
                assert!(
                    s["description"]
                        .as_str()
                        .is_some_and(|d| d.contains("(type: any)")),
                    "{target}: {out}"
                );
            }
        }
    }
    // The union in place on Google, written out: each emptied branch is narrowed, its own text kept.
    let in_place = json!({"type": "object", "properties": {"p": definitions[1]}});
    let (out, report) = normalize(&Options::for_target(Target::Google), &in_place);
    assert_eq!(
        out,
        json!({"type": "object", "properties": {"p": {"anyOf": [
            {"description": "(type: any)", "type": "string"},
            {"description": "the b form (type: any)", "type": "string"}]}}}),
        "{report:?}"
    );
    assert!(report.narrowed && !report.used_fallback, "{report:?}");
}

/// On Google and Code Assist, a union branch whose only constraint is a literal of another kind than its object node
/// comes out behind a `$ref` or in a one-entry `allOf` as in place (`cargo xtask props`, soundness, seed
/// 1796306707446602015). In place the branch is typed from its `enum` or `const` (`walk.infer-type`) and, admitting
/// nothing beside its object node, removed; behind a `$ref` the target's walk lifted the `enum` (`google.enum-lift`),
/// or stripped the `const` (`target.keyword`), before the merged node was typed, so the branch took its node's
/// `object` and the union admitted any object. An untyped `$ref` target's or `allOf` entry's literals now wait for
/// the merged node, as its type does. Gemini's JSON Schema dialect keeps the branch, typed from its literal, in each
/// form alike (a `true` or `null` `const` was stripped there too, leaving the branch untyped behind a `$ref`).
#[test]
fn a_literal_branch_behind_a_ref_is_typed_from_its_literal_as_in_place() {
    let object = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let literals = [
        json!({"enum": [1, 2]}),
        json!({"enum": [null]}),
        json!({"const": 3}),
        json!({"const": null}),
        json!({"const": "x"}),
        json!({"const": true}),
    ];
    for literal in literals {
        let in_place = json!({"type": "object", "properties": {"p": {"type": "object",
            "anyOf": [literal, object]}}});
        let behind = json!({"type": "object", "properties": {"p": {"type": "object",
            "anyOf": [{"$ref": "#/$defs/Tag"}, object]}}, "$defs": {"Tag": literal}});
        let entry = json!({"type": "object", "properties": {"p": {"type": "object",
            "anyOf": [{"allOf": [literal]}, object]}}});
        for target in GOOGLE_DIALECTS {
            let out = alike_behind_a_ref_and_in_an_entry(target, &in_place, &behind, &entry);
            if target == Target::GoogleJsonSchema {
                continue;
            }
            let p = &out["properties"]["p"];
            let branches = match p.get("anyOf") {
                Some(Value::Array(branches)) => branches.clone(),
                _ => vec![p.clone()],
            };
            assert!(
                branches.iter().all(|b| b.get("properties").is_some()),
                "{target}: {out}"
            );
        }
    }
}

/// On Google and Code Assist, a nullable union whose live branch holds only `items`, with sibling `properties`, comes
/// out behind a `$ref` or in a one-entry `allOf` as in place (loss property, seed 1797009). In place the node is typed
/// `object` from its `properties`, the branch takes that type (its `items` says nothing of objects) and
/// `google.collapse-nullable` leaves a nullable object with the properties. Behind a `$ref` the target's walk typed
/// the branch `array` from its `items` before the merged node was typed, so the collapse made the node an array and
/// its properties went as inapplicable, a `default` inside them with no note and no `narrowed`. A branch of an
/// untyped `$ref` target or one-entry `allOf` entry now waits for the merged node's walk to be typed from `items`
/// (`Position::conjunct_pending`), as the literal lifts wait for the merged node.
#[test]
fn an_items_branch_behind_a_ref_takes_its_merged_nodes_type_as_in_place() {
    let properties = json!({"a": {"type": "string", "default": "x"}});
    for union in ["anyOf", "oneOf"] {
        let definition = json!({union: [{"type": "null"}, {"items": {"type": "string"}}]});
        let mut node = definition.clone();
        node["properties"] = properties.clone();
        let in_place = json!({"type": "object", "properties": {"p": node}});
        let behind = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/T",
            "properties": properties}}, "$defs": {"T": definition}});
        let entry = json!({"type": "object", "properties": {"p": {"allOf": [definition],
            "properties": properties}}});
        assert_no_loss_on_every_configuration(&behind);
        assert_no_loss_on_every_configuration(&entry);
        for target in GOOGLE_DIALECTS {
            let out = alike_behind_a_ref_and_in_an_entry(target, &in_place, &behind, &entry);
            let p = &out["properties"]["p"];
            assert_eq!(p["type"], "object", "{target}: {out}");
            assert!(p["properties"].get("a").is_some(), "{target}: {out}");
        }
    }
}

/// On Google and Code Assist, a nullable union whose live branch holds only annotations, with sibling `properties`,
/// comes out behind a `$ref` or in a one-entry `allOf` as in place: a nullable object (on Google) with its properties
/// and the branch's text. In place the branch takes the node's `object` (`walk.infer-type`); behind a `$ref` the
/// target's walk made it a `(type: any)` string (`walk.narrow-any`) before the merged node was typed, so the collapse
/// made the node a string and its properties went as inapplicable, reported `narrowed`. Such a branch now waits for
/// the merged node's walk (`Position::conjunct_pending`), and the target's union with it is collapsed there, so that
/// without sibling `properties` the branch is still typed (a `(type: any)` string, as in place): every node keeps a
/// type, which Gemini needs.
#[test]
fn an_annotation_only_branch_behind_a_ref_takes_its_merged_nodes_type_as_in_place() {
    fn typed(schema: &Value) -> bool {
        let below = |key: &str| match schema.get(key) {
            Some(Value::Object(map)) if key == "properties" => map.values().all(typed),
            Some(Value::Array(list)) => list.iter().all(typed),
            Some(item @ Value::Object(_)) => typed(item),
            _ => true,
        };
        (schema.get("type").is_some() || schema.get("anyOf").is_some())
            && ["properties", "items", "anyOf"].into_iter().all(below)
    }
    let properties = json!({"a": {"type": "string", "default": "x"}});
    for union in ["anyOf", "oneOf"] {
        for siblings in [true, false] {
            let definition = json!({union: [{"type": "null"}, {"description": "d"}]});
            let mut node = definition.clone();
            let mut behind = json!({"$ref": "#/$defs/T"});
            let mut entry = json!({"allOf": [definition]});
            if siblings {
                for form in [&mut node, &mut behind, &mut entry] {
                    form["properties"] = properties.clone();
                }
            }
            let in_place = json!({"type": "object", "properties": {"p": node}});
            let behind = json!({"type": "object", "properties": {"p": behind},
                "$defs": {"T": definition}});
            let entry = json!({"type": "object", "properties": {"p": entry}});
            assert_no_loss_on_every_configuration(&behind);
            assert_no_loss_on_every_configuration(&entry);
            for target in GOOGLE_DIALECTS {
                let out = alike_behind_a_ref_and_in_an_entry(target, &in_place, &behind, &entry);
                let p = &out["properties"]["p"];
                if siblings {
                    assert_eq!(p["type"], "object", "{target}: {out}");
                    assert!(p["properties"].get("a").is_some(), "{target}: {out}");
                }
                if target != Target::GoogleJsonSchema {
                    assert!(typed(&out), "{target}: {out}");
                    assert_eq!(
                        p["description"],
                        if siblings { "d" } else { "d (type: any)" }
                    );
                }
            }
        }
    }
}

/// On Gemini's JSON Schema dialect, a `format` behind a `$ref` or in a one-entry `allOf` on a string node is kept as
/// in place. The target's walk judged the untyped target's `format` before its node's `string` reached it and
/// lifted it (`gjs.format-lift`), so `{"type": "string", "$ref": "#/$defs/When"}` with `When` `{"format":
/// "date-time"}` came out with the format in its description; Google's value rules already waited for the merged
/// node. An untyped `$ref` target's or one-entry `allOf` entry's `enum` and `format` now wait there on this dialect
/// too.
#[test]
fn a_format_behind_a_ref_on_a_string_node_is_kept_as_in_place() {
    let in_place =
        json!({"type": "object", "properties": {"p": {"type": "string", "format": "date-time"}}});
    let behind = json!({"type": "object", "properties": {"p": {"type": "string", "$ref": "#/$defs/When"}},
        "$defs": {"When": {"format": "date-time"}}});
    let entry = json!({"type": "object", "properties": {"p": {"type": "string",
        "allOf": [{"format": "date-time"}]}}});
    for target in GOOGLE_DIALECTS {
        let out = alike_behind_a_ref_and_in_an_entry(target, &in_place, &behind, &entry);
        assert_eq!(
            out["properties"]["p"]["format"],
            json!("date-time"),
            "{target}: {out}"
        );
    }
}

/// An entry of a several-entry `allOf` is merged only as a plain object schema (`walk.merge-all-of`), so its literals
/// and `format` are judged in its own walk, not left for a merged node that would be typed from them: left there, an
/// untyped entry holding only an `enum` or `format` (Google, Code Assist) or a `const` kept it from merging, the
/// `allOf` stayed, and at the root the schema fell back (Gemini needs a type on every node), where the entry's
/// keyword used to be lifted and the entries merged. `{"allOf": [{"type": "object", "properties": {...}}, {"format":
/// "uri"}]}` comes out as the object with `(format: uri)` in its description on every Google-family target.
#[test]
fn an_all_of_entry_of_several_holding_only_a_literal_is_merged_with_it_lifted() {
    let object = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    for (entry, text) in [
        (json!({"format": "uri"}), "(format: uri)"),
        (json!({"enum": [true]}), "(enum: [true])"),
        (json!({"const": true}), "(const: true)"),
        (json!({"const": {"q": "a"}}), r#"(const: {"q":"a"})"#),
    ] {
        let input = json!({"allOf": [object, entry]});
        assert_no_loss_on_every_configuration(&input);
        for target in [
            Target::Google,
            Target::CloudCodeAssist,
            Target::GoogleJsonSchema,
        ] {
            let (out, report) = normalize(&Options::for_target(target), &input);
            assert!(!report.used_fallback, "{target} {input}: {report:?}");
            assert_eq!(
                out,
                json!({"type": "object", "properties": {"q": {"type": "string"}}, "description": text}),
                "{target}"
            );
        }
    }
}

/// The targets that speak Gemini's dialects, whose walks wait for a `$ref` target's or a one-entry `allOf` entry's
/// merged node before they judge its literals and formats.
const GOOGLE_DIALECTS: [Target; 3] = [
    Target::Google,
    Target::CloudCodeAssist,
    Target::GoogleJsonSchema,
];

/// The output of `in_place` for `target`, after checking that it comes out alike behind a `$ref` (`behind`) and as a
/// one-entry `allOf` entry (`entry`), as [`alike_in_place_and_behind_a_ref`] checks each.
fn alike_behind_a_ref_and_in_an_entry(
    target: Target,
    in_place: &Value,
    behind: &Value,
    entry: &Value,
) -> Value {
    let options = Options::for_target(target);
    let out = alike_in_place_and_behind_a_ref(&options, in_place, behind);
    assert_eq!(
        out,
        alike_in_place_and_behind_a_ref(&options, in_place, entry)
    );
    out
}

/// The output of `in_place` for `options`, after checking that it loses nothing on any configuration, that neither
/// form falls back, and that both forms come out alike and are narrowed alike.
fn alike_in_place_and_behind_a_ref(options: &Options, in_place: &Value, behind: &Value) -> Value {
    assert_no_loss_on_every_configuration(in_place);
    let (out, report) = normalize(options, in_place);
    let (expected, behind_report) = normalize(options, behind);
    assert!(!behind_report.used_fallback, "{behind}: {behind_report:?}");
    assert!(!report.used_fallback, "{in_place}: {report:?}");
    assert_eq!(out, expected, "{in_place}: {report:?}");
    assert_eq!(report.narrowed, behind_report.narrowed, "{in_place}");
    out
}

/// Code Assist merges a union whose branch a lift leaves with annotations alone in place as it does behind a `$ref`.
/// The keep-list lifts the branch's `not` (or a `format` Code Assist does not keep) into its description when the
/// branch is entered, after `walk.narrow-any` judged it; in place the branch stayed untyped, so the merge failed
/// with "the first branch has no type" and `target.narrow-union` kept the first branch, naming the other (or, for a
/// first branch emptied so, as in `lmb-whois-mcp`'s `whois_ip`, the schema fell back). Behind a `$ref` the merged
/// node's walk visits the lifted branch again and gives it its node's type, so the branches merged and the lifted
/// text joined the node's. Now the emptied branch takes its node's type where it is left, and both forms come out
/// alike.
#[test]
fn code_assist_merges_a_branch_emptied_by_a_lift_in_place_as_behind_a_ref() {
    let properties = json!({"a": {"type": "string"}, "b": {"type": "integer"}});
    let definitions = [
        json!({"type": "object", "properties": properties,
            "anyOf": [{"required": ["a"]}, {"not": {"required": ["b"]}}]}),
        json!({"type": "object", "properties": properties,
            "anyOf": [{"not": {"required": ["b"]}}, {"required": ["a"], "description": "the a form"}]}),
        json!({"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}),
    ];
    let cca = Options::for_target(Target::CloudCodeAssist);
    for definition in definitions {
        let forms = [
            (
                json!({"type": "object", "properties": {"p": definition}, "required": ["p"]}),
                json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "required": ["p"],
                    "$defs": {"P": definition}}),
            ),
            (
                json!({"type": "object", "properties": {"p": definition}}),
                json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": definition}}),
            ),
        ];
        for (in_place, behind) in forms {
            let out = alike_in_place_and_behind_a_ref(&cca, &in_place, &behind);
            let (_, report) = normalize(&cca, &in_place);
            assert!(!report.narrowed, "{in_place}: {report:?}");
            let node = &out["properties"]["p"];
            assert!(
                node.get("anyOf").is_none() && node.get("oneOf").is_none(),
                "{out}"
            );
        }
    }
    // The first definition in place, written out: the lifted `not` joins the node's text, and nothing is required.
    let in_place = json!({"type": "object", "properties": {"p": {"type": "object", "properties": properties,
        "anyOf": [{"required": ["a"]}, {"not": {"required": ["b"]}}]}}});
    let (out, report) = normalize(&cca, &in_place);
    assert_eq!(
        out,
        json!({"type": "object", "properties": {"p": {"type": "object", "properties": properties,
            "description": "(not: {\"required\":[\"b\"]})"}}}),
        "{report:?}"
    );
    // And the string: both formats in the text, the string kept.
    let in_place = json!({"type": "object", "properties": {"ip": {"type": "string",
        "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}}, "required": ["ip"]});
    let (out, report) = normalize(&cca, &in_place);
    assert_eq!(
        out,
        json!({"type": "object", "properties": {"ip": {"type": "string",
            "description": "(format: ipv4) (format: ipv6)"}}, "required": ["ip"]}),
        "{report:?}"
    );
}

/// Found by the property (seed 1797008, chat): `walk.merge-all-of` joined the entries' descriptions skipping empty
/// texts, so an `allOf` whose only description was `""` (`{"allOf": [{"description": ""}, {"$ref": ...}]}` in a
/// union branch) came out with none, where every other step keeps a description written empty. The merge now keeps
/// one, empty, when a participant wrote it; texts are still joined without the empty ones.
#[test]
fn an_all_of_entry_s_empty_description_is_kept_by_the_merge() {
    let input = json!({"properties": {"name": {"anyOf": [{"allOf": [
        {"description": ""}, {"$ref": "#/$defs/Tag"}]}]}},
        "required": [], "$defs": {"Tag": {"properties": {}, "required": []}}});
    assert_no_loss_on_every_configuration(&input);
    let (out, _) = normalize(&Options::for_target(Target::OpenAiChat), &input);
    assert_eq!(
        out["properties"]["name"]["anyOf"][0]["description"],
        json!(""),
        "{out}"
    );
    let joined = json!({"properties": {"name": {"allOf": [
        {"description": ""}, {"properties": {"a": {}}}, {"description": "y"}]}}});
    let (out, _) = normalize(&Options::for_target(Target::OpenAiChat), &joined);
    assert_eq!(
        out["properties"]["name"]["description"],
        json!("y"),
        "{out}"
    );
}

/// Under strict, the union branches of other types that closing removes beside a node whose `type: "object"` is
/// written (`strict.close-object`) admit nothing there, so their keywords go as a listed drop: a node typed in place,
/// behind a `$ref` with the type as its sibling, or through a one-entry `allOf`, and one with properties of its own,
/// lose nothing on any configuration; a removed branch's note of a narrowing joins its node's description.
#[test]
fn union_branches_strict_removes_beside_a_written_object_lose_nothing() {
    let branches = json!([
        {"type": "string", "pattern": "^a", "maxLength": 3, "description": "a name"},
        {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
        {"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}, "required": ["a"]}
    ]);
    for input in [
        json!({"type": "object", "properties": {"v": {"type": "object", "anyOf": branches}}}),
        json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/V", "type": "object"}},
            "$defs": {"V": {"anyOf": branches}}}),
        json!({"type": "object", "properties": {"v": {"allOf": [{"type": "object"}], "anyOf": branches}}}),
        json!({"type": "object", "properties": {"v": {"type": "object", "properties": {"b": {"type": "integer",
            "maximum": 9}}, "anyOf": branches}}, "required": ["v"]}),
    ] {
        assert_no_loss_on_every_configuration(&input);
        for target in [Target::OpenAiChat, Target::Mcp] {
            let (out, report) = normalize(&Options::for_target(target).with_strict(true), &input);
            assert!(
                report.strict && !report.used_fallback,
                "{input}: {report:?}"
            );
            let text = out.to_string();
            assert!(
                !text.contains("\"^a\"") && !text.contains("minItems"),
                "{target:?}: {out}"
            );
        }
    }
}
