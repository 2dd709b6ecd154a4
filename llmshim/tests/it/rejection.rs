//! Provider rejections back to one tool: real bodies from public threads located to their hand-read answer, bodies
//! of other providers never naming a wrong tool, hostile bodies, and `degrade` over the real MCP corpus.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use llmshim::rejection::{MAX_KEYWORD_STEPS, Rejection, Site, Step, degrade, locate};
use llmshim::schema::{Env, EnvFlags, Normalizer, Options, Target};
use serde_json::{Value, json};

/// The folder of the collected bodies.
fn real_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rejections/real")
}

/// One collected body with its request and hand-read answer.
struct Entry {
    id: String,
    source: String,
    target: Target,
    body: String,
    request: Value,
    expect: Option<Value>,
    current_keeps: bool,
}

/// The folder of the generated bodies: written in a provider's shape where no public thread shows one, each
/// labelled `origin: "generated"`, and never counted as real.
fn generated_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rejections/generated")
}

/// The collected (real) bodies.
fn entries() -> Vec<Entry> {
    load(&real_dir(), "real")
}

/// The generated bodies.
fn generated_entries() -> Vec<Entry> {
    load(&generated_dir(), "generated")
}

/// Every body of `dir`, each of which must say it is of `origin`.
fn load(dir: &Path, origin: &str) -> Vec<Entry> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the rejection corpus is part of the repository")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable");
            let doc: Value = serde_json::from_str(&text).expect("valid JSON");
            let field = |k: &str| {
                doc.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            assert_eq!(
                field("origin"),
                origin,
                "{}: every body of the folder is {origin}",
                path.display()
            );
            Entry {
                id: path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                source: field("source"),
                target: field("target").parse().expect("a known target"),
                body: field("body"),
                request: doc.get("request").cloned().expect("a request"),
                expect: doc.get("expect").filter(|e| !e.is_null()).cloned(),
                current_keeps: doc.get("current_keeps") == Some(&Value::Bool(true)),
            }
        })
        .collect()
}

/// The hand-read answer of an entry as a rejection (the message aside).
fn expected(expect: &Value) -> (Site, Option<String>, Option<String>) {
    let site = match expect["site"].as_str() {
        Some("tool") => Site::Tool {
            index: expect["tool"]
                .as_u64()
                .map(|n| n as usize)
                .expect("a tool index"),
            declaration: expect["declaration"].as_u64().map(|n| n as usize),
        },
        Some("output_schema") => Site::OutputSchema,
        other => panic!("unknown site {other:?}"),
    };
    let text = |k: &str| expect[k].as_str().map(str::to_owned);
    (site, text("pointer"), text("keyword"))
}

#[test]
fn the_corpus_holds_forty_real_bodies_across_the_providers() {
    let entries = entries();
    let mut per_target: BTreeMap<String, usize> = BTreeMap::new();
    let mut bodies = std::collections::BTreeSet::new();
    for e in &entries {
        assert!(e.source.starts_with("https://"), "{}: a source URL", e.id);
        *per_target.entry(e.target.name().to_owned()).or_default() += 1;
        bodies.insert(e.body.clone());
    }
    eprintln!(
        "rejection corpus: {} real bodies, {per_target:?}",
        entries.len()
    );
    assert!(bodies.len() >= 40, "{} distinct bodies", bodies.len());
    // The counts the README publishes.
    assert_eq!(bodies.len(), 46);
    let published: BTreeMap<String, usize> = [
        ("anthropic", 15),
        ("cca", 4),
        ("chat", 9),
        ("google", 11),
        ("responses", 7),
    ]
    .into_iter()
    .map(|(t, n)| (t.to_owned(), n))
    .collect();
    assert_eq!(per_target, published);
}

#[test]
fn every_real_body_locates_to_its_hand_read_answer() {
    let mut wrong = Vec::new();
    for e in entries() {
        let got = locate(e.target, &e.request, &e.body);
        let ok = match (&e.expect, &got) {
            (None, None) => true,
            (Some(expect), Some(r)) => {
                let (site, pointer, keyword) = expected(expect);
                r.site == site
                    && r.pointer == pointer
                    && r.keyword == keyword
                    && !r.message.is_empty()
            }
            _ => false,
        };
        if !ok {
            wrong.push(format!("{}: expected {:?}, got {got:?}", e.id, e.expect));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of the real bodies differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Reading wire requests the way a person does, independently of the library.
// ---------------------------------------------------------------------------------------------------------------

fn plain() -> Normalizer {
    Normalizer::new(Env::Fixed(EnvFlags::default())).without_memo()
}

fn text(value: &Value) -> String {
    serde_json::to_string(value).expect("a value serializes")
}

/// The tools array of a wire request (inside Code Assist's `request` member when there is one).
fn tools_of(request: &Value) -> &[Value] {
    let inner = match request.get("request") {
        Some(r) if r.is_object() => r,
        _ => request,
    };
    inner
        .get("tools")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// One function tool or declaration of a wire request.
struct Sent<'r> {
    site: Site,
    name: String,
    schema: Option<&'r Value>,
    strict: Option<bool>,
    /// The whole tool (or declaration) as sent.
    value: &'r Value,
}

fn sent(request: &Value) -> Vec<Sent<'_>> {
    let mut out = Vec::new();
    for (index, tool) in tools_of(request).iter().enumerate() {
        if let Some(decls) = tool.get("functionDeclarations").and_then(Value::as_array) {
            for (d, decl) in decls.iter().enumerate() {
                out.push(Sent {
                    site: Site::Tool {
                        index,
                        declaration: Some(d),
                    },
                    name: decl["name"].as_str().unwrap_or_default().to_owned(),
                    schema: decl
                        .get("parameters")
                        .or_else(|| decl.get("parametersJsonSchema")),
                    strict: None,
                    value: decl,
                });
            }
        } else if let Some(f) = tool.get("function").filter(|f| f.is_object()) {
            out.push(Sent {
                site: Site::Tool {
                    index,
                    declaration: None,
                },
                name: f["name"].as_str().unwrap_or_default().to_owned(),
                schema: f.get("parameters"),
                strict: f.get("strict").and_then(Value::as_bool),
                value: tool,
            });
        } else if let Some(name) = tool.get("name").and_then(Value::as_str) {
            out.push(Sent {
                site: Site::Tool {
                    index,
                    declaration: None,
                },
                name: name.to_owned(),
                schema: tool.get("parameters").or_else(|| tool.get("input_schema")),
                strict: tool.get("strict").and_then(Value::as_bool),
                value: tool,
            });
        }
    }
    out
}

fn name_at(request: &Value, site: Site) -> Option<String> {
    sent(request)
        .into_iter()
        .find(|s| s.site == site)
        .map(|s| s.name)
}

/// A chat request with the same tools (names and schemas) as a wire request.
fn neutral(request: &Value) -> Value {
    let tools: Vec<Value> = sent(request)
        .into_iter()
        .map(|s| {
            let mut f = json!({"name": s.name});
            if let Some(schema) = s.schema {
                f["parameters"] = schema.clone();
            }
            json!({"type": "function", "function": f})
        })
        .collect();
    json!({"model": "m", "tools": tools})
}

const PROVIDER_TARGETS: [Target; 6] = [
    Target::OpenAiChat,
    Target::OpenAiResponses,
    Target::Anthropic,
    Target::Google,
    Target::GoogleJsonSchema,
    Target::CloudCodeAssist,
];

#[test]
fn a_body_from_another_provider_never_names_a_wrong_tool() {
    let (mut none, mut right) = (0usize, 0usize);
    let mut wrong = Vec::new();
    for e in entries() {
        let expected_name = e
            .expect
            .as_ref()
            .and_then(|x| x["name"].as_str().map(str::to_owned));
        let expected_output = e
            .expect
            .as_ref()
            .is_some_and(|x| x["site"] == "output_schema");
        let mut translated_for = Vec::new();
        for t in PROVIDER_TARGETS.into_iter().filter(|t| *t != e.target) {
            let mut translated = neutral(&e.request);
            plain().normalize_native_tools(&Options::for_target(t), &mut translated);
            translated_for.push((t, translated));
            translated_for.push((t, e.request.clone()));
        }
        for (t, request) in &translated_for {
            match locate(*t, request, &e.body) {
                None => none += 1,
                Some(r) => {
                    let fine = match r.site {
                        Site::OutputSchema => expected_output,
                        site => e.expect.is_some() && name_at(request, site) == expected_name,
                    };
                    if fine {
                        right += 1;
                    } else {
                        wrong.push(format!("{} as {}: {r:?}", e.id, t.name()));
                    }
                }
            }
        }
    }
    eprintln!(
        "rejection corpus across providers: {none} none, {right} the right tool, {} wrong",
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "a body located a wrong tool:\n{}",
        wrong.join("\n")
    );
    // The README's count: 46 bodies, five other targets, two requests each.
    assert_eq!(none + right, 460);
}

#[test]
fn every_real_body_degrades_its_own_site_only() {
    for e in entries() {
        let Some(rejection) = locate(e.target, &e.request, &e.body) else {
            continue;
        };
        let before = sent(&e.request);
        let mut request = e.request.clone();
        let report = degrade(
            &Options::for_target(e.target).with_diagnostics(true),
            &mut request,
            &rejection,
        );
        assert!(report.step.is_some(), "{}: {report:?}", e.id);
        assert!(report.report.changed, "{}", e.id);
        assert_ne!(request, e.request, "{}: the request changed", e.id);
        let after = sent(&request);
        assert_eq!(before.len(), after.len(), "{}", e.id);
        for (b, a) in before.iter().zip(&after) {
            if b.site != rejection.site {
                assert_eq!(
                    text(b.value),
                    text(a.value),
                    "{}: {:?} is untouched",
                    e.id,
                    b.site
                );
            }
        }
    }
}

/// The schema a rejection's site names in `request`, for the shapes the `current_keeps` bodies use.
fn site_schema<'a>(target: Target, request: &'a Value, site: &Site) -> &'a Value {
    match (target, site) {
        (Target::Google | Target::CloudCodeAssist, Site::OutputSchema) => {
            &request["generationConfig"]["responseSchema"]
        }
        (Target::OpenAiChat, Site::Tool { index, .. }) => {
            &request["tools"][*index]["function"]["parameters"]
        }
        (Target::OpenAiResponses, Site::Tool { index, .. }) => {
            &request["tools"][*index]["parameters"]
        }
        (Target::Anthropic, Site::Tool { index, .. }) => &request["tools"][*index]["input_schema"],
        other => panic!("no current_keeps body has the site {other:?}"),
    }
}

#[test]
fn a_keyword_the_current_profile_keeps_is_lifted_when_a_model_rejects_it() {
    let generated = generated_entries();
    assert!(
        generated.iter().all(|e| e.source.starts_with("generated:")),
        "a generated body says so in its source"
    );
    let kept: Vec<Entry> = entries()
        .into_iter()
        .chain(generated)
        .filter(|e| e.current_keeps)
        .collect();
    // One real Gemini body (`maxItems`, which both profiles keep on Google) and one generated OpenAI body
    // (`maxLength`, which only the current profile keeps under strict).
    assert_eq!(
        kept.len(),
        2,
        "the bodies naming a keyword the Current profile keeps"
    );
    let mut keywords = Vec::new();
    for e in kept {
        let rejection = locate(e.target, &e.request, &e.body).expect("located");
        let (site, pointer, keyword) = expected(e.expect.as_ref().expect("a hand-read answer"));
        assert_eq!(
            (&rejection.site, &rejection.pointer, &rejection.keyword),
            (&site, &pointer, &keyword),
            "{}",
            e.id
        );
        let keyword = keyword.expect("the body names the keyword");
        let pointer = pointer.expect("the body names the node");
        let before = site_schema(e.target, &e.request, &site)
            .pointer(&pointer)
            .expect("the node");
        let value = before[&keyword].clone();
        assert!(!value.is_null(), "{}: the request holds {keyword}", e.id);
        let mut request = e.request.clone();
        let report = degrade(&Options::for_target(e.target), &mut request, &rejection);
        assert_eq!(report.step, Some(Step::Keyword), "{}", e.id);
        let node = site_schema(e.target, &request, &site)
            .pointer(&pointer)
            .expect("the node stays");
        assert!(
            node.get(&keyword).is_none(),
            "{}: {keyword} is removed",
            e.id
        );
        let fragment = format!("({keyword}: {value})");
        assert!(
            node["description"]
                .as_str()
                .is_some_and(|d| d.contains(&fragment)),
            "{}: {node}",
            e.id
        );
        // Everything else of the node stays, and so does every other tool.
        for (k, v) in before.as_object().expect("an object node") {
            if k != &keyword && k != "description" {
                assert_eq!(node.get(k), Some(v), "{}: {k} stays", e.id);
            }
        }
        if let Some(tools) = e.request["tools"].as_array() {
            for (i, tool) in tools.iter().enumerate() {
                if !matches!(site, Site::Tool { index, .. } if index == i) {
                    assert_eq!(
                        &request["tools"][i], tool,
                        "{}: tool {i} is untouched",
                        e.id
                    );
                }
            }
        }
        keywords.push((e.target.name().to_owned(), keyword));
    }
    keywords.sort();
    assert_eq!(
        keywords,
        [
            ("chat".to_owned(), "maxLength".to_owned()),
            ("google".to_owned(), "maxItems".to_owned())
        ]
    );
    // Under the current profile, chat strict keeps the rejected keyword: the body answers a schema llmshim wrote.
    let mut schema = json!({"type": "object", "properties": {"order_id": {"type": "string", "maxLength": 64}}, "required": ["order_id"]});
    let report = Normalizer::new(Env::Fixed(EnvFlags::default()))
        .without_memo()
        .normalize_with(
            &Options::for_target(Target::OpenAiChat).with_strict(true),
            &mut schema,
        );
    assert!(report.strict);
    assert_eq!(schema["properties"]["order_id"]["maxLength"], 64);
}

// ---------------------------------------------------------------------------------------------------------------
// `degrade` over the real MCP corpus, with generated bodies.
// ---------------------------------------------------------------------------------------------------------------

/// Keywords a generated body may name, when a node of the tool has one.
const NAMEABLE: [&str; 16] = [
    "enum",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "default",
    "nullable",
    "const",
    "uniqueItems",
    "additionalProperties",
];

/// The first node (in document order, through `properties`, `items` and `anyOf`) with a nameable keyword: its
/// location as tokens, and the keyword. A schema without one gets the root and a keyword it lacks.
fn pick(schema: Option<&Value>) -> (Vec<String>, String) {
    fn walk(node: &Value, at: &mut Vec<String>) -> Option<String> {
        let map = node.as_object()?;
        if let Some(k) = NAMEABLE.iter().find(|k| map.contains_key(**k)) {
            return Some((*k).to_owned());
        }
        if let Some(props) = map.get("properties").and_then(Value::as_object) {
            for (name, child) in props {
                at.extend(["properties".to_owned(), name.clone()]);
                if let Some(k) = walk(child, at) {
                    return Some(k);
                }
                at.truncate(at.len() - 2);
            }
        }
        if let Some(items) = map.get("items").filter(|i| i.is_object()) {
            at.push("items".to_owned());
            if let Some(k) = walk(items, at) {
                return Some(k);
            }
            at.pop();
        }
        if let Some(branches) = map.get("anyOf").and_then(Value::as_array) {
            for (i, child) in branches.iter().enumerate() {
                at.extend(["anyOf".to_owned(), i.to_string()]);
                if let Some(k) = walk(child, at) {
                    return Some(k);
                }
                at.truncate(at.len() - 2);
            }
        }
        None
    }
    let mut at = Vec::new();
    match schema.and_then(|s| walk(s, &mut at)) {
        Some(k) => (at, k),
        None => (Vec::new(), "maxLength".to_owned()),
    }
}

fn pointer_of(tokens: &[String]) -> String {
    let mut pointer = String::new();
    for t in tokens {
        pointer.push('/');
        pointer.push_str(&t.replace('~', "~0").replace('/', "~1"));
    }
    pointer
}

/// A GENERATED body, written from the documented shapes of provider rejections, not a provider's text: what `target`'s
/// provider answers when it rejects `keyword` at `tokens` in the tool at `site`. Anthropic's documented tool
/// sentences name neither a location nor a keyword, so its generated body names only the tool.
fn generated_body(target: Target, s: &Sent<'_>, tokens: &[String], keyword: &str) -> String {
    let Site::Tool { index, declaration } = s.site else {
        unreachable!("tools only")
    };
    match target {
        Target::OpenAiChat | Target::OpenAiResponses => {
            let quoted: Vec<String> = tokens.iter().map(|t| if t.contains('\'') { format!("\"{t}\"") } else { format!("'{t}'") }).collect();
            let param = if target == Target::OpenAiChat {
                format!("tools[{index}].function.parameters")
            } else {
                format!("tools[{index}].parameters")
            };
            let message = format!(
                "Invalid schema for function '{}': In context=({}), '{keyword}' is not permitted.",
                s.name,
                quoted.join(", ")
            );
            json!({"error": {"message": message, "type": "invalid_request_error", "param": param, "code": "invalid_function_parameters"}}).to_string()
        }
        Target::Anthropic => json!({"type": "error", "error": {"type": "invalid_request_error",
            "message": format!("tools.{index}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).")}})
        .to_string(),
        _ => {
            // Gemini names a property by its position in the request's `properties` map, and the schema by the
            // field that holds it.
            let mut path = String::from(if target == Target::GoogleJsonSchema {
                ".parameters_json_schema"
            } else {
                ".parameters"
            });
            let mut node = s.schema;
            let mut i = 0;
            while let Some(t) = tokens.get(i) {
                let here = node.expect("the picked node exists");
                match t.as_str() {
                    "properties" => {
                        let name = &tokens[i + 1];
                        let props = here["properties"].as_object().expect("properties");
                        let pos = props.keys().position(|k| k == name).expect("the property");
                        let _ = write!(path, ".properties[{pos}].value");
                        node = props.get(name);
                        i += 2;
                    }
                    "anyOf" => {
                        let n: usize = tokens[i + 1].parse().expect("an index");
                        let _ = write!(path, ".any_of[{n}]");
                        node = here["anyOf"].get(n);
                        i += 2;
                    }
                    other => {
                        let _ = write!(path, ".{other}");
                        node = here.get(other);
                        i += 1;
                    }
                }
            }
            let prefix = if target == Target::CloudCodeAssist { "request." } else { "" };
            let d = declaration.expect("a declaration");
            let message = format!(
                "Invalid JSON payload received. Unknown name \"{keyword}\" at '{prefix}tools[{index}].function_declarations[{d}]{path}': Cannot find field."
            );
            let body = json!({"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}).to_string();
            if target == Target::CloudCodeAssist {
                format!("Cloud Code Assist API error (400): {body}")
            } else {
                body
            }
        }
    }
}

/// The step the degrade rules name for the next call, judged from the request before the call.
fn expected_step(request: &Value, rejection: &Rejection, target: Target) -> Option<Step> {
    let s = sent(request)
        .into_iter()
        .find(|s| s.site == rejection.site)?;
    let declaration = matches!(
        rejection.site,
        Site::Tool {
            declaration: Some(_),
            ..
        }
    );
    let pointer = rejection.pointer.as_deref();
    let at_fallback = match (s.schema, declaration) {
        (None, true) => true,
        (Some(schema), true) => {
            target == Target::CloudCodeAssist && *schema == json!({"type": "object"})
        }
        (Some(schema), false) => *schema == json!({"type": "object", "properties": {}}),
        (None, false) => false,
    };
    if let (Some(schema), Some(k), false) = (s.schema, &rejection.keyword, at_fallback) {
        let steps = schema["description"]
            .as_str()
            .map_or(0, |d| d.matches("(rejected: ").count());
        let present = match pointer {
            Some(p) => schema.pointer(p).and_then(|n| n.get(k)).is_some(),
            None => text(schema).contains(&format!("\"{k}\":")),
        };
        if steps < MAX_KEYWORD_STEPS && present {
            return Some(Step::Keyword);
        }
    }
    if s.strict == Some(true) {
        return Some(Step::Strict);
    }
    if at_fallback {
        return None;
    }
    if let (Some(schema), Some(p)) = (s.schema, pointer)
        && schema
            .pointer(p)
            .and_then(Value::as_object)
            .is_some_and(|m| m.keys().any(|k| k != "type" && k != "description"))
    {
        return Some(Step::Node);
    }
    Some(Step::Fallback)
}

#[test]
fn degrade_walks_every_corpus_tool_to_its_fallback_and_leaves_the_others_alone() {
    let Some(corpus) = llmshim_benches::workload::mcp_corpus() else {
        return;
    };
    let configs = [
        (Target::OpenAiChat, true),
        (Target::OpenAiResponses, false),
        (Target::Anthropic, true),
        (Target::Google, false),
        (Target::GoogleJsonSchema, false),
        (Target::CloudCodeAssist, false),
    ];
    let mut steps: BTreeMap<String, usize> = BTreeMap::new();
    let mut tools = 0usize;
    for (target, strict) in configs {
        let options = Options::for_target(target).with_strict(strict);
        for (server, raw) in &corpus {
            let mut first = json!({"model": "m", "tools": raw["tools"].clone()});
            plain().normalize_native_tools(&options, &mut first);
            let first_sent = sent(&first);
            let first_texts: Vec<String> = first_sent.iter().map(|a| text(a.value)).collect();
            for s in &first_sent {
                tools += 1;
                let (tokens, keyword) = pick(s.schema);
                let body = generated_body(target, s, &tokens, &keyword);
                let rejection = locate(target, &first, &body).unwrap_or_else(|| {
                    panic!(
                        "{server}/{} ({}): the generated body is located",
                        s.name,
                        target.name()
                    )
                });
                assert_eq!(rejection.site, s.site, "{server}/{}", s.name);
                if target != Target::Anthropic {
                    assert_eq!(
                        rejection.pointer.as_deref(),
                        Some(pointer_of(&tokens).as_str()),
                        "{server}/{}",
                        s.name
                    );
                    assert_eq!(
                        rejection.keyword.as_deref(),
                        Some(keyword.as_str()),
                        "{server}/{}",
                        s.name
                    );
                }
                let mut request = first.clone();
                let mut taken = Vec::new();
                loop {
                    let expected = expected_step(&request, &rejection, target);
                    let (was_text, was_schema, was_strict) = {
                        let was = sent(&request)
                            .into_iter()
                            .find(|x| x.site == s.site)
                            .expect("the site");
                        (text(was.value), was.schema.cloned(), was.strict)
                    };
                    let report = degrade(&options, &mut request, &rejection);
                    assert_eq!(
                        report.step,
                        expected,
                        "{server}/{} ({}), after {taken:?}",
                        s.name,
                        target.name()
                    );
                    let now = sent(&request)
                        .into_iter()
                        .find(|x| x.site == s.site)
                        .expect("the site stays");
                    let Some(step) = report.step else {
                        assert_eq!(text(now.value), was_text, "nothing changes without a step");
                        break;
                    };
                    taken.push(step);
                    assert!(
                        taken.len() <= MAX_KEYWORD_STEPS + 3,
                        "{server}/{}: {taken:?}",
                        s.name
                    );
                    match step {
                        Step::Keyword => {
                            assert_eq!(now.strict, was_strict, "a keyword step keeps strict");
                            let p = rejection.pointer.as_deref().unwrap_or("");
                            assert!(
                                now.schema
                                    .and_then(|x| x.pointer(p))
                                    .and_then(|n| n.get(&keyword))
                                    .is_none()
                            );
                        }
                        Step::Strict => {
                            assert_eq!((was_strict, now.strict), (Some(true), Some(false)));
                            assert_eq!(
                                now.schema,
                                was_schema.as_ref(),
                                "a strict step keeps the schema"
                            );
                        }
                        Step::Node => {
                            let p = rejection.pointer.as_deref().unwrap_or("");
                            let node = now
                                .schema
                                .and_then(|x| x.pointer(p))
                                .and_then(Value::as_object)
                                .expect("node");
                            assert!(
                                node.keys().all(|k| k == "type" || k == "description"),
                                "{node:?}"
                            );
                        }
                        Step::Fallback => assert!(report.report.used_fallback),
                        _ => unreachable!("no other step"),
                    }
                    *steps.entry(format!("{step:?}")).or_default() += 1;
                }
                if let Some(last) = taken.last() {
                    assert_eq!(
                        *last,
                        Step::Fallback,
                        "{server}/{}: repeated calls reach the fallback",
                        s.name
                    );
                }
                let last = sent(&request);
                assert_eq!(last.len(), first_sent.len());
                for ((a, first_text), b) in first_sent.iter().zip(&first_texts).zip(&last) {
                    if a.site != s.site {
                        assert_eq!(
                            first_text,
                            &text(b.value),
                            "{server}/{}: {:?} untouched",
                            s.name,
                            a.site
                        );
                    }
                }
            }
        }
    }
    eprintln!(
        "rejection degrade over the MCP corpus: {tools} tool translations, steps taken {steps:?}"
    );
    // The README's count: 725 corpus tools, six configurations.
    assert_eq!(tools, 725 * 6);
    for step in ["Keyword", "Strict", "Node", "Fallback"] {
        assert!(
            steps.get(step).copied().unwrap_or(0) > 0,
            "the corpus exercises the {step} step"
        );
    }
}

#[test]
fn at_most_three_keyword_steps_are_taken_on_one_tool() {
    let mut request = json!({"model": "m", "tools": [{"type": "function", "function": {"name": "f", "strict": true,
        "parameters": {"type": "object", "properties": {"a": {"type": "string", "minLength": 1, "maxLength": 9,
            "pattern": "^a", "format": "email"}}, "required": ["a"], "additionalProperties": false}}}]});
    let options = Options::for_target(Target::OpenAiChat);
    let mut taken = Vec::new();
    for keyword in [
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "format",
        "format",
        "format",
    ] {
        let body = format!(
            "Invalid schema for function 'f': In context=('properties', 'a'), '{keyword}' is not permitted."
        );
        let rejection = locate(Target::OpenAiChat, &request, &body).expect("located by name");
        let report = degrade(&options, &mut request, &rejection);
        taken.push(report.step);
    }
    assert_eq!(
        taken,
        [
            Some(Step::Keyword),
            Some(Step::Keyword),
            Some(Step::Keyword),
            Some(Step::Strict),
            Some(Step::Node),
            Some(Step::Fallback),
            None
        ]
    );
    let schema = &request["tools"][0]["function"]["parameters"];
    assert_eq!(schema, &json!({"type": "object", "properties": {}}));
    assert_eq!(request["tools"][0]["function"]["strict"], false);
}

#[test]
fn a_keyword_step_lifts_every_occurrence_and_notes_it_at_the_root() {
    let mut request = json!({"tools": [{"name": "t", "description": "T", "input_schema": {"type": "object",
        "properties": {"a": {"type": "string", "maxLength": 5}, "b": {"type": "array", "items": {"type": "string", "maxLength": 7}},
            "maxLength": {"type": "integer"}}}}]});
    let rejection = Rejection::new(Site::Tool {
        index: 0,
        declaration: None,
    })
    .with_keyword("maxLength");
    let report = degrade(
        &Options::for_target(Target::Anthropic).with_diagnostics(true),
        &mut request,
        &rejection,
    );
    assert_eq!(report.step, Some(Step::Keyword));
    let pointers: Vec<&str> = report
        .report
        .changes
        .iter()
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/properties/a", "/properties/b/items"]);
    assert!(
        report
            .report
            .changes
            .iter()
            .all(|c| c.rule == "rejection.keyword")
    );
    assert_eq!(
        request["tools"][0]["input_schema"],
        json!({"type": "object", "properties": {
            "a": {"type": "string", "description": "(maxLength: 5)"},
            "b": {"type": "array", "items": {"type": "string", "description": "(maxLength: 7)"}},
            "maxLength": {"type": "integer"}},
            "description": "(rejected: maxLength)"})
    );
}

#[test]
fn each_envelope_sends_its_own_fallback() {
    let rejection = |declaration| {
        Rejection::new(Site::Tool {
            index: 0,
            declaration,
        })
    };
    let cases = [
        (
            Target::Google,
            json!({"tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}]}]}),
            Some(0),
            json!({"name": "f"}),
        ),
        (
            Target::CloudCodeAssist,
            json!({"model": "m", "request": {"tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}]}]}}),
            Some(0),
            json!({"name": "f", "parameters": {"type": "object"}}),
        ),
        (
            Target::OpenAiResponses,
            json!({"tools": [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}, "strict": false}]}),
            None,
            json!({"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}, "strict": false}),
        ),
    ];
    for (target, mut request, declaration, expected) in cases {
        let report = degrade(
            &Options::for_target(target),
            &mut request,
            &rejection(declaration),
        );
        assert_eq!(report.step, Some(Step::Fallback), "{}", target.name());
        assert!(report.report.used_fallback);
        let tool = match declaration {
            Some(_) => &tools_of(&request)[0]["functionDeclarations"][0],
            None => &tools_of(&request)[0],
        };
        assert_eq!(tool, &expected, "{}", target.name());
        let again = degrade(
            &Options::for_target(target),
            &mut request,
            &rejection(declaration),
        );
        assert_eq!(again.step, None);
        assert_eq!(
            again.reason.as_deref(),
            Some("the schema is already at the fallback")
        );
    }
}

#[test]
fn the_output_schema_degrades_like_a_tool() {
    let mut request = json!({"model": "m", "messages": [], "response_format": {"type": "json_schema", "json_schema": {
        "name": "r", "strict": true, "schema": {"type": "object", "properties": {"d": {"type": "string", "default": ""}},
        "required": ["d"], "additionalProperties": false}}}});
    let body = "Invalid schema for response_format 'r': In context=('properties', 'd'), 'default' is not permitted.";
    let rejection = locate(Target::OpenAiChat, &request, body).expect("the output schema");
    assert_eq!(rejection.site, Site::OutputSchema);
    let options = Options::for_target(Target::OpenAiChat);
    let steps: Vec<Option<Step>> = (0..4)
        .map(|_| degrade(&options, &mut request, &rejection).step)
        .collect();
    // After the keyword step the node holds only `type` and `description`, so no node step is left.
    assert_eq!(
        steps,
        [
            Some(Step::Keyword),
            Some(Step::Strict),
            Some(Step::Fallback),
            None
        ]
    );
    assert_eq!(
        request["response_format"]["json_schema"]["schema"],
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(request["response_format"]["json_schema"]["strict"], false);
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile bodies and requests: `None` or a bounded answer, never a panic.
// ---------------------------------------------------------------------------------------------------------------

fn chat(names: &[&str]) -> Value {
    let tools: Vec<Value> = names
        .iter()
        .map(|n| json!({"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {"x": {"type": "string", "pattern": "^(?=a)"}}}}}))
        .collect();
    json!({"model": "m", "tools": tools})
}

#[test]
fn a_name_that_matches_several_tools_locates_nothing() {
    let body = "Invalid schema for function 'dup': In context=(), 'additionalProperties' is required to be supplied and to be false.";
    assert_eq!(
        locate(Target::OpenAiChat, &chat(&["dup", "other", "dup"]), body),
        None
    );
    assert!(locate(Target::OpenAiChat, &chat(&["dup", "other"]), body).is_some());
    let google = json!({"tools": [{"functionDeclarations": [{"name": "d"}]}, {"functionDeclarations": [{"name": "d"}]}]});
    let vertex = "Unable to submit request because `d` functionDeclaration `parameters.x` schema specified other fields alongside any_of.";
    assert_eq!(locate(Target::Google, &google, vertex), None);
    // A location without a tool is taken only when exactly one tool has the keyword there.
    let lookaround =
        "Invalid JSON schema: regex lookaround is not supported. Found at $.properties.x.pattern.";
    assert_eq!(
        locate(Target::OpenAiChat, &chat(&["a", "b"]), lookaround),
        None
    );
    assert!(locate(Target::OpenAiChat, &chat(&["a"]), lookaround).is_some());
}

#[test]
fn a_body_naming_a_tool_the_request_lacks_locates_nothing() {
    let request = chat(&["a", "b"]);
    for body in [
        r#"{"error": {"message": "Invalid schema for function 'zzz': In context=(), 'x' is not permitted.", "param": null}}"#,
        r#"{"error": {"message": "...", "param": "tools[2].function.parameters"}}"#,
        r#"{"error": {"message": "Invalid schema for function 'b': ...", "param": "tools[0].function.parameters"}}"#,
        "tools[18446744073709551616].function.parameters",
        "tools[99999999999999999999999999999999].function.parameters",
        "tools[-1].function.parameters",
        "tools[1e3].function.parameters",
        "xtools[1].function.parameters",
        "",
        "Bad Request",
    ] {
        assert_eq!(locate(Target::OpenAiChat, &request, body), None, "{body}");
    }
    let google = json!({"tools": [{"functionDeclarations": [{"name": "a", "parameters": {"type": "object", "properties": {"p": {"type": "string"}}}}]}]});
    for body in [
        "Unknown name \"x\" at 'tools[0].function_declarations[1].parameters': Cannot find field.",
        "Unknown name \"x\" at 'tools[1].function_declarations[0].parameters': Cannot find field.",
        "Unknown name \"x\" at 'request.tools[0].function_declarations[0].parameters': Cannot find field.",
        "tools.0.custom.input_schema: Field required",
    ] {
        assert_eq!(locate(Target::Google, &google, body), None, "{body}");
    }
    // A property position beyond the object's properties leaves the pointer at the object.
    let far = "Unknown name \"x\" at 'tools[0].function_declarations[0].parameters.properties[7].value.items': Cannot find field.";
    let r = locate(Target::Google, &google, far).expect("the declaration exists");
    assert_eq!(r.pointer.as_deref(), Some(""));
    assert_eq!(
        locate(Target::Mcp, &request, "tools[0].function.parameters"),
        None
    );
}

#[test]
fn hostile_bodies_end_in_none_or_an_answer() {
    let request = chat(&["a", "b"]);
    let answer = "Invalid schema for function 'b': In context=('properties', 'x'), 'pattern' is not permitted.";
    let mut hostile: Vec<String> = vec![
        // Huge: the answer sits beyond the 4 MiB that are read.
        format!("{}{answer}", "x".repeat(5 << 20)),
        // Huge and full of anchors.
        "tools[0].function.parameters tools[".repeat(200_000),
        "tools.".repeat(1_000_000),
        "Unknown name \"".repeat(300_000),
        // Deeply nested JSON around the answer.
        format!(
            "{}{}{}",
            "[".repeat(1_000_000),
            serde_json::to_string(answer).expect("text"),
            "]".repeat(1_000_000)
        ),
        format!("{}{answer}", "{\"a\":".repeat(200_000)),
        // Escapes that are not characters, runs of backslashes, a multi-byte character at the cut.
        r"\uD800\uDFFF\u0000\uZZZZ\u12 \\\\\\\\\\\\".to_owned(),
        format!("{}é{answer}", "\\".repeat((4 << 20) - 1)),
        // Unclosed brackets, quotes and contexts.
        "tools[0".to_owned(),
        "In context=('properties', 'x".to_owned(),
        "In context=(".repeat(10_000),
        "Invalid schema for function '".to_owned(),
        format!("Invalid schema for function '{}'", "n".repeat(100_000)),
        format!(
            "tools[0].function_declarations[0].parameters.{}",
            "properties[a].".repeat(100_000)
        ),
        format!("Found at $.{}", "properties.".repeat(100_000)),
        "`a` functionDeclaration `parameters.".to_owned(),
    ];
    hostile.push(answer.to_owned());
    for (i, body) in hostile.iter().enumerate() {
        for target in PROVIDER_TARGETS {
            let started = std::time::Instant::now();
            let got = locate(target, &request, body);
            assert!(
                started.elapsed() < std::time::Duration::from_secs(20),
                "body {i} on {}",
                target.name()
            );
            if let Some(r) = got {
                assert!(r.message.len() <= 1000);
                assert!(
                    name_at(&request, r.site).is_some(),
                    "body {i}: a tool the request has"
                );
            }
        }
    }
    assert!(
        locate(Target::OpenAiChat, &request, &hostile[4]).is_some(),
        "nesting does not hide the answer"
    );
    assert!(
        locate(Target::OpenAiChat, &request, &hostile[0]).is_none(),
        "the answer beyond 4 MiB is not read"
    );
}

#[test]
fn hostile_requests_and_rejections_are_bounded() {
    // A schema nested far deeper than the budgets, with the keyword at every level.
    let mut deep = json!({"type": "string", "maxLength": 1});
    for _ in 0..100_000 {
        let mut node = serde_json::Map::new();
        node.insert("type".to_owned(), json!("array"));
        node.insert("maxLength".to_owned(), json!(1));
        node.insert("items".to_owned(), deep);
        deep = Value::Object(node);
    }
    let mut request =
        json!({"tools": [{"name": "t", "input_schema": {"type": "object", "properties": {}}}]});
    request["tools"][0]["input_schema"]["properties"]["d"] = deep;
    let rejection = Rejection::new(Site::Tool {
        index: 0,
        declaration: None,
    })
    .with_keyword("maxLength");
    let report = degrade(
        &Options::for_target(Target::Anthropic).with_diagnostics(true),
        &mut request,
        &rejection,
    );
    assert_eq!(report.step, Some(Step::Keyword));
    assert!(
        report.report.changes.len() <= 97,
        "the walk stops at the depth budget"
    );
    // Sites, pointers and values that are not there, or not what they should be.
    for rejection in [
        Rejection::new(Site::Tool {
            index: usize::MAX,
            declaration: None,
        }),
        Rejection::new(Site::Tool {
            index: 0,
            declaration: Some(3),
        }),
        Rejection::new(Site::OutputSchema),
    ] {
        let report = degrade(
            &Options::for_target(Target::Anthropic),
            &mut request,
            &rejection,
        );
        assert_eq!(report.step, None, "{rejection:?}");
        assert!(report.reason.is_some());
    }
    let odd = Rejection::new(Site::Tool {
        index: 0,
        declaration: None,
    })
    .with_pointer("/no/such~2node")
    .with_keyword("");
    let report = degrade(&Options::for_target(Target::Anthropic), &mut request, &odd);
    assert_eq!(report.step, Some(Step::Fallback));
    for weird in [
        json!(null),
        json!([]),
        json!({"tools": 7}),
        json!({"tools": [null, 1, "x"]}),
        json!({"request": [], "tools": [{}]}),
    ] {
        for target in PROVIDER_TARGETS {
            let mut w = weird.clone();
            assert_eq!(
                locate(
                    target,
                    &w,
                    "tools[0].function.parameters tools.0.input_schema"
                ),
                None
            );
            let r = Rejection::new(Site::Tool {
                index: 0,
                declaration: Some(0),
            });
            assert_eq!(degrade(&Options::for_target(target), &mut w, &r).step, None);
            assert_eq!(w, weird);
        }
    }
    llmshim_core::json::dismantle(request);
}

/// The pieces a generated hostile body is made of: the readers' anchors and the characters they stop at.
const PIECES: [&str; 34] = [
    "tools[",
    "tools.",
    "]",
    "[",
    ".",
    "0",
    "1",
    "7",
    "99999999999999999999999",
    ".function.parameters",
    ".parameters",
    ".custom.input_schema",
    ".function_declarations[",
    "request.",
    "GenerateContentRequest.",
    "properties[",
    ".value",
    ".items",
    ".any_of[",
    "Unknown name \"",
    "\" at '",
    "': Cannot find field.",
    ": missing field.",
    "Invalid value at '",
    "' (",
    ")",
    "Invalid schema for function '",
    "'",
    "In context=(",
    "Found at $.",
    "\\",
    "\\u",
    "` functionDeclaration `",
    "é\n",
];

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    #[test]
    fn bodies_made_of_anchor_pieces_end_in_none_or_an_existing_site(picks in proptest::collection::vec(0..PIECES.len(), 0..64)) {
        let body: String = picks.iter().map(|i| PIECES[*i]).collect();
        let requests = [
            chat(&["a", "b"]),
            json!({"tools": [{"name": "a", "input_schema": {"type": "object", "properties": {"p": {"anyOf": [{"type": "string"}]}}}}]}),
            json!({"model": "m", "request": {"tools": [{"functionDeclarations": [{"name": "a", "parameters": {"type": "object", "properties": {"p": {"type": "array", "items": {"type": "string"}}}}}, {"name": "b"}]}]}}),
        ];
        for request in &requests {
            for target in PROVIDER_TARGETS {
                if let Some(r) = locate(target, request, &body) {
                    proptest::prop_assert!(name_at(request, r.site).is_some() || r.site == Site::OutputSchema, "{body:?}: {r:?}");
                    let mut degraded = request.clone();
                    let _ = degrade(&Options::for_target(target), &mut degraded, &r);
                }
            }
        }
    }
}

#[test]
fn gemini_json_schema_declarations_are_located_and_degraded() {
    // Gemini's JSON Schema field, as `tools` writes it for `google-json`: the body names the field
    // `parameters_json_schema`, and a property by its position in the request's map.
    let mut request = json!({"model": "m", "tools": [{"functionDeclarations": [
        {"name": "ping"},
        {"name": "search", "parametersJsonSchema": {"type": "object", "properties": {
            "limit": {"type": ["integer", "null"]},
            "query": {"type": "string", "maxLength": 80, "format": "uuid", "description": "Text"}
        }, "required": ["query"], "additionalProperties": false}}
    ]}]});
    let body = json!({"error": {"code": 400, "status": "INVALID_ARGUMENT", "message":
        "Invalid JSON payload received. Unknown name \"maxLength\" at 'tools[0].function_declarations[1].parameters_json_schema.properties[1].value': Cannot find field."
    }})
    .to_string();
    let target = Target::GoogleJsonSchema;
    let rejection = locate(target, &request, &body).expect("the body names declaration 1");
    assert_eq!(
        rejection.site,
        Site::Tool {
            index: 0,
            declaration: Some(1)
        }
    );
    assert_eq!(rejection.pointer.as_deref(), Some("/properties/query"));
    assert_eq!(rejection.keyword.as_deref(), Some("maxLength"));
    let options = Options::for_target(target);
    let untouched = request["tools"][0]["functionDeclarations"][0].clone();
    let steps: Vec<Option<Step>> = (0..4)
        .map(|_| degrade(&options, &mut request, &rejection).step)
        .collect();
    assert_eq!(
        steps,
        [
            Some(Step::Keyword),
            Some(Step::Node),
            Some(Step::Fallback),
            None
        ]
    );
    // The fallback leaves the schema key out, as `tools` does for an empty object on this target; the other
    // declaration is untouched.
    assert_eq!(
        request["tools"][0]["functionDeclarations"],
        json!([untouched, {"name": "search"}])
    );
}
