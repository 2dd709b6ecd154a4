//! The provider facts the rules rest on, each a statement in our words with where it is documented or was seen.

use crate::rules::Fact;

/// One entry per fact.
const fn fact(label: &'static str, statement: &'static str, link: &'static str) -> Fact {
    Fact {
        label,
        statement,
        link,
    }
}

const OPENAI_STRICT: &str = "https://platform.openai.com/docs/guides/structured-outputs";
const OPENAI_TOOLS: &str = "https://developers.openai.com/api/docs/guides/function-calling";
const ANTHROPIC_STRICT: &str =
    "https://platform.claude.com/docs/en/build-with-claude/structured-outputs";
const GEMINI_SCHEMA: &str = "https://ai.google.dev/api/caching#Schema";
const GEMINI_OUTPUT: &str = "https://ai.google.dev/gemini-api/docs/structured-output";
const MCP_SPEC: &str = "https://github.com/modelcontextprotocol/modelcontextprotocol";
const JSON_SCHEMA_2020: &str = "https://json-schema.org/draft/2020-12/release-notes";

/// The facts, by provider: OpenAI (`OAI`), OpenAI strict (`STR`), Responses (`RSP`), Anthropic (`ANT`), Gemini
/// (`GEM`), Code Assist (`CCA`), MCP (`MCP`), Gemini's JSON Schema dialect (`GJS`).
pub(crate) const FACTS: &[Fact] = &[
    fact(
        "OAI-1",
        "OpenAI tool parameters must be an object schema, with no `anyOf`, `oneOf`, `allOf`, `enum` or `not` at the root, even without strict.",
        "https://github.com/cecli-dev/cecli/issues/281",
    ),
    fact(
        "OAI-1a",
        "A root combinator whose branches only list `required` names can be dropped: the object and its properties remain.",
        "https://github.com/cecli-dev/cecli/issues/281",
    ),
    fact(
        "OAI-1b",
        "A root `anyOf`/`oneOf` of object branches has one nearest object the root rule accepts: their properties united.",
        "https://github.com/cecli-dev/cecli/issues/281",
    ),
    fact(
        "OAI-2",
        "OpenAI rejects an array schema without `items` at any depth (`array schema missing items`).",
        "https://github.com/sigoden/aichat/issues/1049",
    ),
    fact(
        "OAI-3",
        "OpenAI rejects `required: null` (`None is not of type 'array'`).",
        "https://github.com/earendil-works/pi/issues/2100",
    ),
    fact(
        "OAI-4",
        "OpenAI compiles every `pattern` with Python's `re`, which rejects `\\p{…}`, named groups, `\\k<…>` and more; strict grammars also reject backreferences.",
        "https://github.com/Alishahryar1/free-claude-code/issues/1730",
    ),
    fact(
        "STR-1",
        "Strict objects must set `additionalProperties: false` and list every property in `required`.",
        "https://github.com/vercel-labs/json-render/issues/180",
    ),
    fact(
        "STR-2",
        "Strict mode accepts a subset of JSON Schema; `oneOf`, `allOf`, `not`, `default`, `propertyNames` and more are refused.",
        OPENAI_STRICT,
    ),
    fact(
        "STR-3",
        "Under strict every node needs a type (or `anyOf`) and every array needs `items`.",
        OPENAI_STRICT,
    ),
    fact(
        "STR-4",
        "Strict OpenAI ignores `prefixItems` and then rejects the array as missing `items`; Anthropic strict does not list it.",
        "https://github.com/pydantic/pydantic-ai/issues/7333",
    ),
    fact(
        "STR-5",
        "OpenAI strict schemas are limited to 5,000 properties, 10 levels of nesting, 1,000 enum values and 120,000 characters of names and values.",
        OPENAI_STRICT,
    ),
    fact(
        "RSP-1",
        "The Responses API treats a tool without `strict` as strict, and a nested `oneOf` then fails the whole request.",
        "https://github.com/can1357/oh-my-pi/issues/920",
    ),
    fact(
        "RSP-2",
        "OpenAI strict rejects lookaround in patterns (`regex lookaround is not supported`).",
        "https://github.com/vercel/ai/issues/21037",
    ),
    fact(
        "RSP-3",
        "Boolean subschemas are outside the strict subset that Responses applies by default.",
        OPENAI_STRICT,
    ),
    fact(
        "RSP-4",
        "Responses applies strict when `strict` is omitted; only an explicit `false` opts out.",
        OPENAI_TOOLS,
    ),
    fact(
        "ANT-1",
        "Anthropic rejects `anyOf`, `oneOf` and `allOf` at the top level of `input_schema`.",
        "https://github.com/anthropics/claude-code/issues/5319",
    ),
    fact(
        "ANT-2",
        "Anthropic accepts an array without `items`; it gets the same default as OpenAI for one output across providers.",
        ANTHROPIC_STRICT,
    ),
    fact(
        "ANT-3",
        "`required: null` is invalid under the 2020-12 meta-schema Anthropic validates against.",
        JSON_SCHEMA_2020,
    ),
    fact(
        "ANT-4",
        "Anthropic validates `input_schema` against the 2020-12 meta-schema, whatever `$schema` says.",
        "https://github.com/Dokploy/mcp/issues/74",
    ),
    fact(
        "ANT-5",
        "Anthropic strict allows 20 strict tools, 24 optional parameters and 16 union-typed parameters per request, and structured outputs reject numeric and length bounds.",
        ANTHROPIC_STRICT,
    ),
    fact(
        "GEM-1",
        "Gemini's `Schema` is a protobuf message: an unknown field such as `additionalProperties` or `$ref` fails the request.",
        "https://github.com/Laisky/one-api/issues/60",
    ),
    fact(
        "GEM-2",
        "Gemini has no type arrays (`Proto field is not repeating`); null is the `nullable` marker.",
        "https://github.com/aoci-spec/aoci-code/issues/61",
    ),
    fact(
        "GEM-3",
        "Gemini's `anyOf` must be the only field of its node.",
        "https://github.com/vercel/ai/issues/19000",
    ),
    fact(
        "GEM-4",
        "Gemini's `enum` holds strings only, and only on STRING nodes.",
        "https://github.com/microsoft/azure-devops-mcp/issues/145",
    ),
    fact(
        "GEM-5",
        "Gemini documents only `enum` and `date-time` formats for strings, and `int32`/`int64`, `float`/`double` for numbers.",
        "https://firebase.google.com/docs/reference/js/ai.schemashared",
    ),
    fact(
        "GEM-6",
        "Gemini rejects a `required` name that is not a property of the same node.",
        "https://github.com/iBUHub/AIStudioToAPI/issues/154",
    ),
    fact(
        "GEM-7",
        "Gemini rejects an OBJECT with empty `properties`.",
        "https://github.com/agno-agi/agno/issues/2112",
    ),
    fact(
        "GEM-8",
        "Untyped nodes become TYPE_UNSPECIFIED on Gemini, which breaks function calls.",
        "https://github.com/UKGovernmentBEIS/inspect_ai/issues/3097",
    ),
    fact(
        "GEM-9",
        "Gemini requires `items` on ARRAY nodes and knows no tuples.",
        "https://github.com/kkrishnan90/gemini-desktop/issues/7",
    ),
    fact(
        "GEM-10",
        "Gemini rejects keywords that do not apply to the node's type, such as `items` on a string.",
        "https://github.com/anomalyco/opencode/issues/49392",
    ),
    fact(
        "GEM-11",
        "Gemini's schema has `anyOf` but no `oneOf` or `allOf`.",
        GEMINI_SCHEMA,
    ),
    fact(
        "GEM-12",
        "Gemini function parameters must be an OBJECT schema.",
        "https://github.com/diegosouzapw/OmniRoute/issues/3360",
    ),
    fact(
        "CCA-1",
        "Code Assist forwards the declaration to Claude models, whose 2020-12 check rejects `nullable`.",
        "https://github.com/earendil-works/pi/issues/841",
    ),
    fact(
        "CCA-2",
        "Through Code Assist a schema passes Gemini's field check, which refuses type arrays.",
        "https://github.com/aoci-spec/aoci-code/issues/61",
    ),
    fact(
        "CCA-3",
        "Through Code Assist a schema passes two validators, and combinators fail one of them.",
        "https://github.com/earendil-works/pi/issues/841",
    ),
    fact(
        "CCA-4",
        "Code Assist output must pass both Gemini's field check and Anthropic's 2020-12 check.",
        "https://github.com/earendil-works/pi/issues/841",
    ),
    fact(
        "CCA-5",
        "A Claude model behind Code Assist needs a schema: without one the request fails with `Field required`.",
        "https://github.com/router-for-me/CLIProxyAPI/issues/351",
    ),
    fact(
        "MCP-1",
        "An MCP tool's `inputSchema` must have `type: \"object\"` at the root.",
        MCP_SPEC,
    ),
    fact(
        "MCP-2",
        "MCP reads schemas as 2020-12 unless `$schema` names another dialect.",
        MCP_SPEC,
    ),
    fact(
        "MCP-3",
        "MCP schemas are plain 2020-12: an empty `properties` is fine and nothing must be closed.",
        MCP_SPEC,
    ),
    fact(
        "MCP-4",
        "MCP output schemas of older protocol versions must have an object root.",
        MCP_SPEC,
    ),
    fact(
        "GJS-1",
        "Gemini's `parametersJsonSchema` documents a JSON Schema subset and ignores other keywords.",
        GEMINI_OUTPUT,
    ),
    fact(
        "GJS-2",
        "That subset has `enum` but not `const`.",
        GEMINI_OUTPUT,
    ),
    fact(
        "GJS-3",
        "Its `enum` holds strings and numbers.",
        GEMINI_OUTPUT,
    ),
    fact("GJS-4", "Its `oneOf` is read as `anyOf`.", GEMINI_OUTPUT),
    fact(
        "GJS-5",
        "It writes null with type arrays, and type arrays are accepted.",
        GEMINI_OUTPUT,
    ),
    fact(
        "GJS-6",
        "Only a few string formats are documented for it.",
        GEMINI_OUTPUT,
    ),
    fact(
        "GJS-7",
        "Beside `$ref` only `$`-keywords may stand.",
        GEMINI_OUTPUT,
    ),
    fact(
        "GJS-8",
        "Cyclic references are unrolled only through properties that are not required.",
        GEMINI_OUTPUT,
    ),
];
