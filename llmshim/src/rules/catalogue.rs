//! Every rule id: what it does, at which step, on which targets (from rule-set data), and why.

use llmshim_core::ChangeKind::{Added, Dropped, Lifted, Narrowed, Relaxed, Rewritten, Upgraded};
use llmshim_core::Nullable;
use llmshim_core::keep::{KeepSet, Keywords};
use llmshim_core::rules::{DefaultItems, EmptyProperties, Recursion, Root, RuleSet};

use crate::rules::Status::Implemented;
use crate::rules::{Applies, Rule};

/// Every target.
fn always(_: &RuleSet) -> Applies {
    Applies::Always
}

/// Targets with a strict profile, under strict.
fn strict(r: &RuleSet) -> Applies {
    if r.strict.is_some() {
        Applies::WithStrict
    } else {
        Applies::Never
    }
}

/// `Always` when `on`.
fn when(on: bool) -> Applies {
    if on { Applies::Always } else { Applies::Never }
}

/// `Always` when `on`, else under strict where the target has a strict profile.
fn when_or_strict(on: bool, r: &RuleSet) -> Applies {
    if on { Applies::Always } else { strict(r) }
}

/// Where the rule set's recursion mode is one that `mode` accepts: always, only under strict, or only without it (a
/// target without a strict profile has only its plain mode).
fn recursion(r: &RuleSet, mode: fn(Recursion) -> bool) -> Applies {
    let plain = mode(r.recursion.plain);
    let strict = r.strict.is_some() && mode(r.recursion.strict);
    match (plain, strict || (plain && r.strict.is_none())) {
        (true, true) => Applies::Always,
        (true, false) => Applies::WithoutStrict,
        (false, true) => Applies::WithStrict,
        (false, false) => Applies::Never,
    }
}

fn keep_refs(r: &RuleSet) -> Applies {
    recursion(r, Recursion::keeps_refs)
}

fn unroll(r: &RuleSet) -> Applies {
    recursion(r, |m| matches!(m, Recursion::Unroll { .. }))
}

fn one_of(r: &RuleSet) -> Applies {
    when_or_strict(r.defaults.rewrite_one_of, r)
}
fn shaped_root(r: &RuleSet) -> Applies {
    when(matches!(r.root, Root::Shaped(_)))
}
fn flatten_google(r: &RuleSet) -> Applies {
    when(r.flatten_tuples)
}
fn keep_list(r: &RuleSet) -> Applies {
    when(r.keep.is_some())
}
fn output_bounds(r: &RuleSet) -> Applies {
    when(r.output_bounds)
}
fn lookarounds(r: &RuleSet) -> Applies {
    when(r.defaults.strip_lookarounds)
}
fn openai_patterns(r: &RuleSet) -> Applies {
    when(r.openai_patterns)
}
fn marker(r: &RuleSet) -> Applies {
    when(r.defaults.nullable == Nullable::Marker)
}
fn remove(r: &RuleSet) -> Applies {
    when(r.defaults.nullable == Nullable::Remove)
}
fn google_values(r: &RuleSet) -> Applies {
    when(r.google_values)
}
fn split(r: &RuleSet) -> Applies {
    when_or_strict(r.split_type_arrays, r)
}
fn empty_add(r: &RuleSet) -> Applies {
    when(r.empty_properties == EmptyProperties::Add)
}
fn empty_remove(r: &RuleSet) -> Applies {
    when(r.empty_properties == EmptyProperties::Remove)
}
fn items_empty(r: &RuleSet) -> Applies {
    when(r.default_items == DefaultItems::Empty)
}
fn items_string(r: &RuleSet) -> Applies {
    when(r.default_items == DefaultItems::String)
}
fn narrow_any(r: &RuleSet) -> Applies {
    when_or_strict(r.require_type, r)
}
fn collapse(r: &RuleSet) -> Applies {
    when(r.collapse_nullable_any_of)
}
fn merge(r: &RuleSet) -> Applies {
    when(r.merge_combinators)
}
fn filter(r: &RuleSet) -> Applies {
    when(r.filter_required)
}
fn isolate(r: &RuleSet) -> Applies {
    when(r.isolate_any_of)
}
/// Where the current keyword profile keeps `pattern` within an engine's subset: always for the rule set's own
/// keep-list, under strict for the strict one.
fn pattern_subset(r: &RuleSet) -> Applies {
    if r.keep_set(Keywords::Current)
        .and_then(KeepSet::pattern)
        .is_some()
    {
        Applies::Always
    } else if r.strict.is_some() && r.strict_keep(Keywords::Current).pattern().is_some() {
        Applies::WithStrict
    } else {
        Applies::Never
    }
}
/// Gemini's JSON Schema dialect, whose value rules run in its `enter` hook rather than as rule-set passes: a rule set
/// says which target it is only through its data, and this one alone writes a declaration's `parametersJsonSchema`.
fn gemini_json_schema(r: &RuleSet) -> Applies {
    when(r.envelope.function_shape().schema == "parametersJsonSchema")
}
fn openai_limits(r: &RuleSet) -> Applies {
    if r.strict.is_some_and(|s| s.openai_limits.is_some()) {
        Applies::WithStrict
    } else {
        Applies::Never
    }
}
fn anthropic_budget(r: &RuleSet) -> Applies {
    if r.strict.is_some_and(|s| s.anthropic_budget.is_some()) {
        Applies::WithStrict
    } else {
        Applies::Never
    }
}

/// The rules, by scope: `walk`, `resolve`, `upgrade`, `root`, `strict`, `target`, then the provider scopes, then the
/// rules outside the walk.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        id: "walk.snake-case",
        kinds: &[Rewritten],
        step: "W6",
        what: "Renames the fourteen snake-case spellings (`any_of`, `min_length`, …) to their JSON Schema keywords in place; when both spellings are present the snake-case value wins.",
        why: "Python generators write snake-case keywords that no provider and no validator reads.",
        facts: &[],
        file: "llmshim-core/src/walk/steps/snake_case.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "walk.required-null",
        kinds: &[Dropped],
        step: "W12",
        what: "Removes `required: null`.",
        why: "Providers reject a null `required`, and it constrains nothing.",
        facts: &["OAI-3", "ANT-3"],
        file: "llmshim-core/src/walk/steps/required.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "walk.one-of-to-any-of",
        kinds: &[Rewritten, Relaxed],
        step: "W13",
        what: "Renames `oneOf` to `anyOf` (both present: appends an `allOf` of the two as `anyOf` wrappers); rewritten when the branches are provably exclusive (distinct `const` tags), else relaxed. Runs under strict and where the `rewrite_one_of` option is on; elsewhere relaxes a kept `oneOf` once the walk narrowed or removed one of its branches (a `type` inferred, a part omitted, a recursion cut), since exactly-one over narrowed branches can admit a value the original rejected for matching two.",
        why: "Strict OpenAI and Responses reject `oneOf`, and Gemini reads it as `anyOf` anyway.",
        facts: &["RSP-1", "STR-2", "GEM-11"],
        file: "llmshim-core/src/walk/steps/one_of.rs",
        applies: one_of,
        status: Implemented,
    },
    Rule {
        id: "walk.merge-all-of",
        kinds: &[Rewritten, Relaxed],
        step: "W14",
        what: "Merges a one-entry `allOf` into its node (the entry wins, but its `properties` join the node's instead of replacing them, the entry's schema winning on a name both declare; where both carry a `type` the node takes the kinds they share, and none fails `invalid_schema`: the schema admits nothing; and where both carry a different `description`, the node's text stays first, followed by the entry's words and lifted fragments, departing from the contract's \"entry wins\" so that neither author's prose is lost), and an `allOf` of plain object schemas into one object (properties united, `required` united, closed when an entry was): exact as rewritten, relaxed when closed entries with different names are joined. A property an entry's walk omitted (`target.omit-property`) is left out of the result; one narrowed below keeps that entry's walked schema and its notes, and is left out only where a closed participant does not declare it (the `allOf` admits no such property). Where another participant declares a property an entry narrowed below, a closed `allOf` stays unmerged, and an open one fails its node unless each other entry that declares it lost the same part; an open one also fails where another participant declares a property omitted whole that a participant requires, and a closed one fails where a property it leaves out is required (no object is admitted).",
        why: "Strict providers and Gemini do not accept `allOf`, and the merge loses nothing a model can use.",
        facts: &["STR-2", "GEM-11"],
        file: "llmshim-core/src/walk/steps/all_of.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "walk.infer-type",
        kinds: &[Added],
        step: "W17",
        what: "Adds the `type` an untyped node implies in an instance-describing position: `properties` gives object, a `const` or single-kind `enum` its kind, and on Gemini targets `items` gives array (in a union branch of a node of one other type, that type instead, for which `items` says nothing; a branch of an untyped `$ref` target or one-entry `allOf` entry is typed so only in the merged node's walk, where its node's type is known); an annotation-only `anyOf`/`oneOf` branch, where the target or strict needs a type, gets the one type of its node (the branch admits only values of that type anyway), as does a branch that `google.filter-required` leaves with annotations alone (`{\"required\": [\"a\"]}` beside a node whose `properties` declare `a`), when it is left, and, on Gemini targets and under strict, a branch the keep-lists leave with annotations alone (its `not` lifted; under strict an object branch so typed is closed empty and takes its node's properties, `strict.close-object`) or, beside a `string` node, with a kept `format` and annotations (a `format` constrains strings alone).",
        why: "Strict providers and Gemini need a type on every node, and these types add no constraint.",
        facts: &["STR-3", "GEM-8"],
        file: "llmshim-core/src/walk/steps/infer.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "walk.nullable-marker",
        kinds: &[Rewritten],
        step: "W21",
        what: "Turns `type: [T, \"null\"]` into `type: T` plus `nullable: true`, and removes `null` from `enum`.",
        why: "Gemini's schema has no type arrays; it expresses null with the `nullable` marker.",
        facts: &["GEM-2"],
        file: "llmshim-core/src/walk/steps/nullable.rs",
        applies: marker,
        status: Implemented,
    },
    Rule {
        id: "walk.nullable-remove",
        kinds: &[Rewritten, Dropped, Narrowed],
        step: "W21",
        what: "Turns `type: [T, \"null\"]` into `type: T` without a marker and deletes every `nullable` key; at W28 it also removes the null branches of an `anyOf` with two or more live branches, before the combinator merge (narrowed).",
        why: "Code Assist passes schemas to models that accept neither type arrays nor `nullable`.",
        facts: &["CCA-1"],
        file: "llmshim-core/src/walk/steps/nullable.rs",
        applies: remove,
        status: Implemented,
    },
    Rule {
        id: "walk.split-type-array",
        kinds: &[Rewritten],
        step: "W23",
        what: "Splits a type array into an `anyOf` of one-type branches, each keeping only the keywords of its type; on Gemini the null entry becomes `nullable` on each branch instead of a branch. The null entry makes no branch (nor `nullable`) when the node's `enum` or `const` holds no null, since the null branch keeps nothing else.",
        why: "Strict providers and Gemini accept one type per node; a union of one-type branches means the same.",
        facts: &["GEM-2", "STR-2"],
        file: "llmshim-core/src/walk/steps/split.rs",
        applies: split,
        status: Implemented,
    },
    Rule {
        id: "walk.empty-properties",
        kinds: &[Added],
        step: "W26",
        what: "Adds `properties: {}` to an object node without `properties`.",
        why: "Strict closing needs a `properties` map, and the OpenAI, Anthropic and MCP targets read objects the same way with it.",
        facts: &["MCP-3", "STR-1"],
        file: "llmshim-targets/src/passes/objects.rs",
        applies: empty_add,
        status: Implemented,
    },
    Rule {
        id: "walk.narrow-any",
        kinds: &[Narrowed],
        step: "W22",
        what: "Gives an annotation-only node (judged before the keep-lists), where the target or strict needs a type, `type: \"string\"` and the fragment `(type: any)`, below the root; a union branch of a node with one type gets that type instead (`walk.infer-type`), since a string branch there would admit nothing, and a union branch of an untyped `$ref` target or one-entry `allOf` entry is judged in the merged node's walk, with that node's type. On Gemini targets a node that `google.filter-required` leaves with annotations alone (`{\"required\": [\"a\"]}` without `properties`) is narrowed the same way when it is left, outside an `allOf` entry or `$ref` target still to be merged: its `required` constrained only objects.",
        why: "A node that accepts any value cannot be expressed where a type is required; a string admits a subset of its values and keeps the rest of the tool.",
        facts: &["GEM-8", "STR-3"],
        file: "llmshim-core/src/walk/steps/narrow_any.rs",
        applies: narrow_any,
        status: Implemented,
    },
    Rule {
        id: "resolve.inline-ref",
        kinds: &[Rewritten],
        step: "W7",
        what: "Replaces a `$ref` with its target, walked first, and the referencing node's other keywords merged over it (the siblings win).",
        why: "Most targets accept no `$ref`; the inlined schema is the same constraint.",
        facts: &["GEM-1", "STR-2"],
        file: "llmshim-resolve/src/pass/expand.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "resolve.keep-recursive-ref",
        kinds: &[Rewritten],
        step: "W7",
        what: "Keeps a reference to a recursive target as a bare `$ref` into one root `$defs` of normalized definitions. A node whose one-entry `allOf` is such a reference is kept where the node stands: the definition is the target with the entry's siblings winning over its keys and the node's other keys losing to both, the node's `properties` joined with the entry's.",
        why: "A recursive schema cannot be inlined, and OpenAI, Anthropic and MCP accept local references.",
        facts: &[],
        file: "llmshim-resolve/src/pass/expand.rs",
        applies: keep_refs,
        status: Implemented,
    },
    Rule {
        id: "resolve.unroll-recursion",
        kinds: &[Narrowed],
        step: "W7",
        what: "Expands a recursive target a fixed number of times and removes the nearest optional property below the last expansion.",
        why: "Targets without references can still take a bounded tree, which is better than no parameters at all.",
        facts: &["GJS-8"],
        file: "llmshim-resolve/src/pass/expand.rs",
        applies: unroll,
        status: Implemented,
    },
    Rule {
        id: "resolve.drop-definitions",
        kinds: &[Dropped],
        step: "W8",
        what: "Removes `$defs` and `definitions` once every reference into them is inlined.",
        why: "Definitions are unused after inlining, and most targets reject them.",
        facts: &["GEM-1"],
        file: "llmshim-resolve/src/pass/meta.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "resolve.schema-uri",
        kinds: &[Rewritten, Dropped],
        step: "W8",
        what: "Sets `$schema` to the 2020-12 dialect on MCP (rewritten) and removes it elsewhere (dropped).",
        why: "MCP reads the dialect from `$schema`, and the output is 2020-12; other targets reject the key.",
        facts: &["MCP-2", "GEM-1"],
        file: "llmshim-resolve/src/pass/meta.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "resolve.drop-meta",
        kinds: &[Dropped],
        step: "W8",
        what: "Removes `$id`, `$anchor` and `$comment` after references are resolved.",
        why: "They only served resolution, and providers reject or ignore them.",
        facts: &["GEM-1"],
        file: "llmshim-resolve/src/pass/meta.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "upgrade.tuple",
        kinds: &[Upgraded],
        step: "W9",
        what: "Turns a draft-07 array `items` into `prefixItems`, and `additionalItems` into `items`.",
        why: "Outputs are 2020-12, where the array form of `items` is invalid.",
        facts: &["ANT-4"],
        file: "llmshim-resolve/src/pass/upgrades.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "upgrade.drop-additional-items",
        kinds: &[Dropped],
        step: "W9",
        what: "Removes an `additionalItems` that no array `items` gives a meaning.",
        why: "Without a tuple it constrains nothing, and 2020-12 no longer has it.",
        facts: &["ANT-4"],
        file: "llmshim-resolve/src/pass/upgrades.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "upgrade.dependencies",
        kinds: &[Upgraded],
        step: "W10",
        what: "Splits draft-07 `dependencies` into `dependentRequired` and `dependentSchemas`.",
        why: "Outputs are 2020-12, which has no `dependencies`.",
        facts: &["ANT-4"],
        file: "llmshim-resolve/src/pass/upgrades.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "upgrade.exclusive-bound",
        kinds: &[Upgraded],
        step: "W11",
        what: "Turns a draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` into the numeric form.",
        why: "2020-12 validators reject the boolean form.",
        facts: &["ANT-4"],
        file: "llmshim-resolve/src/pass/upgrades.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "upgrade.id",
        kinds: &[Upgraded],
        step: "W6",
        what: "Renames a draft-04 `id` to `$id` in a draft-04 or draft-03 document.",
        why: "Resolution and 2020-12 read only `$id`.",
        facts: &["ANT-4"],
        file: "llmshim-resolve/src/pass/upgrades.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "root.required-only",
        kinds: &[Lifted],
        step: "W15",
        what: "At the root, removes a combinator whose branches carry only `required` lists and lifts it under its own name.",
        why: "OpenAI and Anthropic reject root combinators; the object with its properties still reaches the model.",
        facts: &["OAI-1a", "ANT-1"],
        file: "llmshim-targets/src/passes/root.rs",
        applies: shaped_root,
        status: Implemented,
    },
    Rule {
        id: "root.merge-alternatives",
        kinds: &[Relaxed],
        step: "W15",
        what: "At the root, merges an `anyOf`/`oneOf` of object branches into one object (properties united, `required` the intersection) and lifts the combinator: each branch as written, or as walked where it holds a reference, with a kept recursive reference spelled out as its definition (the first copy carries `$anchor`, a later site names it as `#<name>`).",
        why: "OpenAI and Anthropic reject root combinators, and one object with every property is the closest they take.",
        facts: &["OAI-1b", "ANT-1"],
        file: "llmshim-targets/src/passes/root.rs",
        applies: shaped_root,
        status: Implemented,
    },
    Rule {
        id: "strict.flatten-tuple",
        kinds: &[Relaxed],
        step: "W16",
        what: "Under strict, replaces `prefixItems` with one `items` (the entry when all are equal, else an `anyOf` of them) and lifts the tuple.",
        why: "Strict OpenAI ignores `prefixItems` and then rejects the array; Anthropic strict does not know it.",
        facts: &["STR-4"],
        file: "llmshim-core/src/walk/steps/tuples.rs",
        applies: strict,
        status: Implemented,
    },
    Rule {
        id: "strict.keyword",
        kinds: &[Lifted, Dropped],
        step: "W19",
        what: "Under strict, removes every key outside the strict keep-list of the keyword profile (`current` also keeps the constraints the provider enforces, such as OpenAI's bounds and lengths, each only with a value the provider takes); human constraints (bounds, formats, patterns, defaults) are lifted into the description, the rest dropped. A `$ref` it meets (one merged beside a node's own keywords; a kept reference stands alone) is never dropped: strict is given up at that node instead.",
        why: "Strict decoding accepts only a subset of JSON Schema, which differs by provider and model.",
        facts: &["STR-2"],
        file: "llmshim-strict/src/keep_list.rs",
        applies: strict,
        status: Implemented,
    },
    Rule {
        id: "strict.close-object",
        kinds: &[Rewritten, Dropped],
        step: "W26",
        what: "Under strict, sets `additionalProperties: false` and lists every property in `required`, in declared order. A schema `additionalProperties` held is replaced on purpose, not lifted, and recorded as dropped at `<object>/additionalProperties`. Beside an object node whose `type: \"object\"` the input writes (at the node, as a `$ref`'s sibling, in a conjunct merged into it; not one the walk gave it, `walk.infer-type`), a union branch typed otherwise (or a kept reference to a definition typed otherwise) admits nothing: it is removed (recorded as rewritten at `<object>/anyOf` or `<object>/oneOf`) where a branch that may be an object is left and the node's own properties then go into the branches left, or, where it declares none, the closed objects left carry it (below); a removed branch's description that names a narrowing (`(omitted `, `(recursive `, `(type: any)`) joins the node's. Where the type was inferred, such a branch may hold values the inferred type turned away, and stays. An object node whose only shape is an `anyOf` or `oneOf` of closed object branches (kept references to closed objects, or unions of them, among them) is not closed itself (closed empty, it would admit only `{}`, which no branch admits): its `type` and empty `properties` and `required` are dropped, recorded as rewritten at `<object>/type`, and the union carries the object (where a kept reference's definition is not walked yet, strict is given up at the node). An object node with `properties` of its own beside an `anyOf` or `oneOf` is closed on a copy and its properties carried into every branch (`node ∧ (B1 ∨ B2)` as `(node ∧ B1) ∨ (node ∧ B2)`): each closed object branch takes the node's properties beside its own (on a name both declare, a schema admitting what both admit: equal ones, a nullable side and a plain one, `enum`s narrowed to the values both list, a side the walk typed from any value), every name required, a branch that is itself a union passing them on; a branch that only requires some of the node's names (`{\"required\": [\"uses\"]}`, annotations besides) becomes a closed object with the node's properties, those names as written and the others nullable; the node keeps its union and annotations, recorded as rewritten at `<object>/properties`. Where that cannot be said soundly (a branch that is not an object, a branch that requires a name the node does not declare or its walk omitted, a branch closed as written that lacks a node's name or a node closed as written that lacks a branch's, a branch that declares a property the node's walk omitted (`target.omit-property`), an `additionalProperties` schema on the node, other keywords beside the union, two different constraints on one name), strict is given up at the node (`strict_unsupported`); below a schema `additionalProperties`, which closing drops whole, the node is closed as any other.",
        why: "Strict providers accept only closed objects that require every property.",
        facts: &["STR-1"],
        file: "llmshim-strict/src/close.rs",
        applies: strict,
        status: Implemented,
    },
    Rule {
        id: "strict.nullable-optional",
        kinds: &[Rewritten],
        step: "W26",
        what: "Under strict, wraps an optional property that does not admit null as `anyOf: [<schema>, {\"type\": \"null\"}]`, its description moved to the wrapper.",
        why: "Once every property is required, null is how the model leaves an optional one out.",
        facts: &["STR-1"],
        file: "llmshim-strict/src/close.rs",
        applies: strict,
        status: Implemented,
    },
    Rule {
        id: "strict.demoted",
        kinds: &[Relaxed],
        step: "after the walk",
        what: "When a strict attempt fails, normalizes the schema again without strict and reports the strict failure as the reason.",
        why: "A tool the provider accepts non-strict is worth more than a fallback that loses every parameter.",
        facts: &[],
        file: "llmshim/src/schema/pipeline.rs",
        applies: strict,
        status: Implemented,
    },
    Rule {
        id: "target.keyword",
        kinds: &[Lifted, Dropped],
        step: "W19",
        what: "Removes every key outside the rule set's keep-list of the keyword profile (`current` also keeps Gemini's string lengths, property counts and patterns); keys on the lift list are lifted into the description, the rest dropped; an untyped `$ref` target or one-entry `allOf` entry keeps its `const` until merged into its node (which is typed first, from the `const` among others). On Gemini's JSON Schema dialect an `allOf` the walk could not merge is lifted too (in its `enter` hook, `W18`), and at the root it falls back.",
        why: "Gemini's schema is a protobuf message: any unknown field fails the request.",
        facts: &["GEM-1"],
        file: "llmshim-targets/src/passes/keep.rs",
        applies: keep_list,
        status: Implemented,
    },
    Rule {
        id: "target.array-items",
        kinds: &[Added],
        step: "W27",
        what: "Outside strict, adds `items: {}` to an array without `items`.",
        why: "OpenAI rejects an array schema without `items`, and `{}` keeps its meaning.",
        facts: &["OAI-2", "ANT-2"],
        file: "llmshim-targets/src/passes/items.rs",
        applies: items_empty,
        status: Implemented,
    },
    Rule {
        id: "target.narrow-union",
        kinds: &[Narrowed],
        step: "W28",
        what: "Narrows an `anyOf` the combinator merge cannot merge to its first branch that passes the target's check on its own (an object at the root) and agrees with the node's other keys, and names the others in the description as `(anyOf: [...])`.",
        why: "Keeping one branch admits a subset of the union's values and keeps the rest of the tool, where a fallback would lose it.",
        facts: &["CCA-3"],
        file: "llmshim-targets/src/passes/tail.rs",
        applies: merge,
        status: Implemented,
    },
    Rule {
        id: "target.omit-property",
        kinds: &[Narrowed],
        step: "W25",
        what: "When a part fails with a kind a narrowing may absorb (target or strict unsupported, an external or unresolved reference, a pattern), removes the nearest property its object does not require (or a user's `anyOf`/`oneOf` branch with another left) around it, and notes `(omitted <name>: <kind>)` in the enclosing description; a structural-check failure makes the walk run again with a cut at its pointer.",
        why: "An optional part the target cannot take should not cost the whole tool; without it the tool admits fewer arguments, never more.",
        facts: &[],
        file: "llmshim-core/src/walk.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "target.pattern-subset",
        kinds: &[Lifted],
        step: "W20",
        what: "Lifts a `pattern` the keyword profile keeps when it uses a construct the provider's regex engine lacks (a lookaround, a backreference, a `\\p` escape; on Anthropic also word boundaries and repetition bounds over 1000, on Gemini named groups), or when it cannot be read; on Anthropic also in structured-output schemas without strict.",
        why: "A kept pattern is enforced by the provider's engine, which rejects what it cannot compile.",
        facts: &["OAI-4", "RSP-2"],
        file: "llmshim-targets/src/passes/patterns.rs",
        applies: pattern_subset,
        status: Implemented,
    },
    Rule {
        id: "anthropic.output-bounds",
        kinds: &[Lifted],
        step: "W19",
        what: "In a structured-output schema, lifts numeric bounds, lengths and a `minItems` above 1.",
        why: "Anthropic structured outputs reject these constraints.",
        facts: &["ANT-5"],
        file: "llmshim-targets/src/passes/keep.rs",
        applies: output_bounds,
        status: Implemented,
    },
    Rule {
        id: "anthropic.request-budget",
        kinds: &[Relaxed],
        step: "tools",
        what: "In a request's tools, a strict tool that would pass Anthropic's per-request counts (strict tools, optional parameters, unions) is sent without strict.",
        why: "Anthropic rejects the whole request when the strict schemas together pass its limits.",
        facts: &["ANT-5"],
        file: "llmshim/src/tools/budget.rs",
        applies: anthropic_budget,
        status: Implemented,
    },
    Rule {
        id: "responses.lookaround",
        kinds: &[Rewritten, Lifted],
        step: "W20",
        what: "Deletes lookaround groups from `pattern` and lifts the original; a `patternProperties` key with a lookaround is removed and lifted.",
        why: "The Responses API's implicit strict attempt rejects lookaround; deleting it widens the pattern (the original is lifted), and below `not` or `if` narrows the schema, which the report says.",
        facts: &["RSP-2"],
        file: "llmshim-targets/src/passes/patterns.rs",
        applies: lookarounds,
        status: Implemented,
    },
    Rule {
        id: "openai.pattern-dialect",
        kinds: &[Lifted],
        step: "W20",
        what: "Removes and lifts a `pattern` (and `patternProperties` keys) using a construct OpenAI's regex engine rejects: Unicode classes, backreferences, named groups, late inline flags and the like.",
        why: "OpenAI compiles every pattern and fails the request on one it cannot compile.",
        facts: &["OAI-4"],
        file: "llmshim-targets/src/passes/patterns.rs",
        applies: openai_patterns,
        status: Implemented,
    },
    Rule {
        id: "openai.strict-limits",
        kinds: &[Relaxed],
        step: "after the walk",
        what: "A strict result over OpenAI's per-schema limits (properties, nesting, enum values, string bytes) is normalized again without strict.",
        why: "OpenAI rejects strict schemas past these limits.",
        facts: &["STR-5"],
        file: "llmshim/src/schema/pipeline.rs",
        applies: openai_limits,
        status: Implemented,
    },
    Rule {
        id: "google.flatten-tuple",
        kinds: &[Relaxed],
        step: "W16",
        what: "Replaces `prefixItems` with one `items` (the entry when all are equal, else an `anyOf` of them) and lifts the tuple.",
        why: "Gemini's schema has no tuples.",
        facts: &["GEM-9"],
        file: "llmshim-core/src/walk/steps/tuples.rs",
        applies: flatten_google,
        status: Implemented,
    },
    Rule {
        id: "google.enum-lift",
        kinds: &[Lifted],
        step: "W22",
        what: "Lifts an `enum` with a non-string value or on a node whose type is not string; on an untyped `$ref` target or one-entry `allOf` entry, once merged into its node (which is typed first, from the `enum` among others).",
        why: "Gemini accepts `enum` only as strings on STRING nodes.",
        facts: &["GEM-4"],
        file: "llmshim-targets/src/passes/values.rs",
        applies: google_values,
        status: Implemented,
    },
    Rule {
        id: "google.format-lift",
        kinds: &[Lifted],
        step: "W22",
        what: "Lifts a `format` outside Gemini's short list per type (string `date-time` and `enum`, integer `int32`/`int64`, number `float`/`double`); on an untyped `$ref` target or one-entry `allOf` entry, once merged into its node (whose type decides).",
        why: "Gemini rejects other formats.",
        facts: &["GEM-5"],
        file: "llmshim-targets/src/passes/values.rs",
        applies: google_values,
        status: Implemented,
    },
    Rule {
        id: "google.type-applicability",
        kinds: &[Dropped],
        step: "W22",
        what: "Drops keywords that do not apply to the node's type (`items` on a string, `properties` on an array, …).",
        why: "They constrain nothing there, and Gemini rejects them.",
        facts: &["GEM-10"],
        file: "llmshim-targets/src/passes/values.rs",
        applies: google_values,
        status: Implemented,
    },
    Rule {
        id: "google.const-to-enum",
        kinds: &[Rewritten],
        step: "W19",
        what: "Turns a string `const` on a string node into a one-value `enum` (the `enum` values equal to it when the node has one), instead of lifting it.",
        why: "Gemini keeps string enums but not `const`; the enum keeps the constraint enforced.",
        facts: &["GEM-1", "GEM-4"],
        file: "llmshim-targets/src/passes/keep.rs",
        applies: google_values,
        status: Implemented,
    },
    Rule {
        id: "google.array-items",
        kinds: &[Narrowed],
        step: "W27",
        what: "Adds `items: {\"type\": \"string\"}` to an array without `items`.",
        why: "Gemini requires `items` and an untyped item; narrowing keeps the rest of the tool.",
        facts: &["GEM-9"],
        file: "llmshim-targets/src/passes/items.rs",
        applies: items_string,
        status: Implemented,
    },
    Rule {
        id: "google.collapse-nullable",
        kinds: &[Rewritten],
        step: "W28",
        what: "Collapses an `anyOf` of one live branch and null branches into the live branch (the node's keys win, but every branch's description joins the node's), with `nullable: true` on Gemini; with two or more live branches, removes the null branches (their descriptions join the node's) and marks each live branch `nullable: true` on Gemini. An untyped `$ref` target's or one-entry `allOf` entry's union with an annotation-only branch that `walk.narrow-any` left to the merged node is collapsed in the merged node's walk.",
        why: "Gemini's `anyOf` must stand alone and null is a marker there, so the common optional-field shape needs no union.",
        facts: &["GEM-2", "CCA-1"],
        file: "llmshim-targets/src/passes/tail.rs",
        applies: collapse,
        status: Implemented,
    },
    Rule {
        id: "cca.merge-combinator",
        kinds: &[Rewritten],
        step: "W28",
        what: "Merges the branches of each remaining `allOf`, `anyOf` and `oneOf` of one string type into the node (properties united, the node's own among them and winning on a shared name, where a branch's other schema for that name adds its description, and a name whose property the node's own walk omitted (`target.omit-property`) left out, `enum` united across `anyOf`/`oneOf` and intersected across `allOf`, the node's description followed by every branch's, `required` the union or intersection); other combinators fall back. The union of a `$ref` target or of a one-entry `allOf`'s entry is merged into the node that target or entry is merged into, once the siblings or the node's own keys are in place (unless that node holds a union of the same keyword, which the entry's would replace), and a branch that `walk.narrow-any` made a string before that node's type was known takes its type instead; an entry of an `allOf` of several, merged only as a plain object schema, merges its union in its own walk.",
        why: "Code Assist accepts no combinators at all.",
        facts: &["CCA-3"],
        file: "llmshim-targets/src/passes/tail.rs",
        applies: merge,
        status: Implemented,
    },
    Rule {
        id: "google.filter-required",
        kinds: &[Dropped],
        step: "W28",
        what: "Removes names from `required` that are not keys of the node's `properties`, and an empty `required`.",
        why: "Gemini rejects a required name it cannot find.",
        facts: &["GEM-6"],
        file: "llmshim-targets/src/passes/tail.rs",
        applies: filter,
        status: Implemented,
    },
    Rule {
        id: "google.drop-empty-properties",
        kinds: &[Dropped],
        step: "W28",
        what: "Removes an empty `properties` map, so a nested object stays `{\"type\": \"object\"}`.",
        why: "Gemini rejects an OBJECT with empty `properties`.",
        facts: &["GEM-7"],
        file: "llmshim-targets/src/passes/tail.rs",
        applies: empty_remove,
        status: Implemented,
    },
    Rule {
        id: "google.isolate-any-of",
        kinds: &[Rewritten],
        step: "W28",
        what: "Moves an `anyOf` node's other keys into its branches (type, description, title, nullable, and each keyword into the branches it applies to), leaving `{\"anyOf\": [...]}`; a branch that `walk.narrow-any` made a string before its node's type was known (annotations, a `nullable` mark and `(type: any)` aside) takes the node's type instead, without the mark; a branch of another type than the node admits nothing and goes, and where its description names a narrowing (an omitted part, a recursion cut) that text joins the node's first; a property the node omitted (`target.omit-property`) is taken out of every branch too (recorded as that rule's narrowing), and a branch that requires it fails the node.",
        why: "Gemini's `anyOf` must be the only field of its node; siblings and branches are a conjunction, so the move is exact.",
        facts: &["GEM-3"],
        file: "llmshim-targets/src/passes/tail.rs",
        applies: isolate,
        status: Implemented,
    },
    Rule {
        id: "gjs.const-to-enum",
        kinds: &[Rewritten],
        step: "W18",
        what: "On Gemini's JSON Schema dialect, turns a string or number `const` into a one-value `enum` in its place (the `enum` values equal to it when the node has one); other `const` values are lifted by the keep-list.",
        why: "That dialect keeps `enum` of strings and numbers but not `const`; the enum keeps the constraint enforced.",
        facts: &["GJS-2", "GJS-3"],
        file: "llmshim-targets/src/google_json_schema.rs",
        applies: gemini_json_schema,
        status: Implemented,
    },
    Rule {
        id: "gjs.enum-lift",
        kinds: &[Lifted],
        step: "W18",
        what: "On Gemini's JSON Schema dialect, lifts an `enum` with a value that is neither a string nor a number; on an untyped `$ref` target or one-entry `allOf` entry, once merged into its node (which is typed first, from the `enum` among others).",
        why: "That dialect accepts only string and number enums.",
        facts: &["GJS-3"],
        file: "llmshim-targets/src/google_json_schema.rs",
        applies: gemini_json_schema,
        status: Implemented,
    },
    Rule {
        id: "gjs.nullable-to-type",
        kinds: &[Rewritten],
        step: "W18",
        what: "On Gemini's JSON Schema dialect, turns OpenAPI's `nullable: true` into a `null` entry of `type` (a string type becomes a two-entry array) and removes the marker; `nullable: false` is dropped by the keep-list.",
        why: "That dialect expresses null with type arrays, not with `nullable`.",
        facts: &["GJS-5"],
        file: "llmshim-targets/src/google_json_schema.rs",
        applies: gemini_json_schema,
        status: Implemented,
    },
    Rule {
        id: "gjs.format-lift",
        kinds: &[Lifted],
        step: "W18",
        what: "On Gemini's JSON Schema dialect, lifts a `format` other than `date-time`, `date`, `time`, `duration`, `email`, `uuid`, `uri`, `ipv4`, `ipv6` and `hostname`, and any `format` on a node whose type does not include string; on an untyped `$ref` target or one-entry `allOf` entry, once merged into its node (whose type decides).",
        why: "Other formats are not documented for that dialect.",
        facts: &["GJS-6"],
        file: "llmshim-targets/src/google_json_schema.rs",
        applies: gemini_json_schema,
        status: Implemented,
    },
    Rule {
        id: "rejection.keyword",
        kinds: &[Lifted],
        step: "recovery",
        what: "After a provider rejected a tool naming a keyword, removes every occurrence of that keyword from the tool's schema and lifts it into its node's description.",
        why: "The provider said which keyword it refuses; removing only that keyword keeps everything else of the tool.",
        facts: &[],
        file: "llmshim/src/rejection/degrade.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "rejection.strict",
        kinds: &[Relaxed],
        step: "recovery",
        what: "After a rejection that names no keyword, sends a tool that was strict with `strict: false`, its schema unchanged.",
        why: "A strict schema is a valid non-strict one, and strict decoding is the stricter of the provider's checks.",
        facts: &[],
        file: "llmshim/src/rejection/degrade.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "rejection.node",
        kinds: &[Lifted],
        step: "recovery",
        what: "After a rejection that names a location, removes every key of that node but `type` and `description` and lifts them.",
        why: "The provider named the node it refuses; the rest of the tool stays.",
        facts: &[],
        file: "llmshim/src/rejection/degrade.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "rejection.fallback",
        kinds: &[Relaxed],
        step: "recovery",
        what: "When nothing narrower is left, replaces the rejected tool's schema with the fallback (on Gemini the schema key is left out).",
        why: "One rejected tool must not fail a request whose other tools the provider accepts.",
        facts: &["GEM-7"],
        file: "llmshim/src/rejection/degrade.rs",
        applies: always,
        status: Implemented,
    },
    Rule {
        id: "output.wrap",
        kinds: &[Added],
        step: "output schemas",
        what: "Wraps a structured-output schema that is not an object as `{\"type\": \"object\", \"properties\": {\"response\": <schema>}, \"required\": [\"response\"]}`.",
        why: "Structured outputs and MCP output schemas need an object root.",
        facts: &["MCP-4", "OAI-1"],
        file: "llmshim/src/schema/output.rs",
        applies: always,
        status: Implemented,
    },
];
