//! Provider rejections back to one tool: real bodies from public threads located to their hand-read answer, bodies
//! of other providers never naming a wrong tool, hostile bodies, and `degrade` over the real MCP corpus.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use llmshim::rejection::{Rejection, Site, Step, degrade, locate};
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

fn entries() -> Vec<Entry> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(real_dir())
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
                "real",
                "{}: every collected body is real",
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
    for t in ["chat", "responses", "anthropic", "google", "cca"] {
        assert!(
            per_target.get(t).copied().unwrap_or(0) >= 3,
            "at least three bodies for {t}"
        );
    }
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
