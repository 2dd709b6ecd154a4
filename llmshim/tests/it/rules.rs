//! The rule reference: `RULES.md` is current, every rule the code records is in it, and every entry points at code.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use llmshim::rules::{self, Status};
use llmshim_benches::golden::Mode;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

#[test]
fn the_reference_file_is_current() {
    let path = root().join("RULES.md");
    let rendered = rules::markdown();
    if Mode::from_env() == Mode::Bless {
        fs::write(&path, &rendered).expect("RULES.md can be written");
        return;
    }
    let stored = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == rendered,
        "RULES.md is not what llmshim/src/rules/ renders; run `cargo xtask rules` to regenerate it"
    );
}

#[test]
fn ids_labels_and_facts_are_unique_and_resolve() {
    let ids: BTreeSet<&str> = rules::RULES.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), rules::RULES.len(), "a rule id is listed twice");
    let facts: BTreeSet<&str> = rules::FACTS.iter().map(|f| f.label).collect();
    assert_eq!(facts.len(), rules::FACTS.len(), "a fact is listed twice");
    for rule in rules::RULES {
        let (scope, name) = rule.id.split_once('.').expect("scope.rule-name");
        assert!(
            !scope.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{}",
            rule.id
        );
        assert!(!rule.kinds.is_empty(), "{}", rule.id);
        assert!(!rule.what.is_empty() && !rule.why.is_empty(), "{}", rule.id);
        for fact in rule.facts {
            assert!(
                facts.contains(fact),
                "{} cites the unknown fact {fact}",
                rule.id
            );
        }
        if rule.step.starts_with('W') {
            assert!(
                rules::STEPS.iter().any(|s| s.label == rule.step),
                "{} runs at the unknown step {}",
                rule.id,
                rule.step
            );
        }
    }
    let steps: Vec<&str> = rules::STEPS.iter().map(|s| s.label).collect();
    let expected: Vec<String> = (1..=30).map(|n| format!("W{n}")).collect();
    assert_eq!(steps, expected);
    let checks: Vec<&str> = rules::CHECKS.iter().map(|c| c.label).collect();
    let expected: Vec<String> = (1..=18).map(|n| format!("S{n}")).collect();
    assert_eq!(checks, expected);
}

#[test]
fn every_implemented_rule_names_the_file_that_records_it() {
    let root = root();
    for rule in rules::RULES {
        let text = fs::read_to_string(root.join(rule.file));
        match rule.status {
            Status::Implemented => {
                let text = text.unwrap_or_else(|e| panic!("{}: {}: {e}", rule.id, rule.file));
                assert!(
                    text.contains(&format!("\"{}\"", rule.id)),
                    "{} is not recorded in {}",
                    rule.id,
                    rule.file
                );
            }
            _ => assert!(
                std::path::Path::new(rule.file)
                    .extension()
                    .is_some_and(|e| e == "rs"),
                "{}",
                rule.id
            ),
        }
    }
    for step in rules::STEPS {
        assert!(
            root.join(step.file).is_file(),
            "{}: {}",
            step.label,
            step.file
        );
    }
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of `text` that look like rule ids of a known scope.
fn recorded_ids<'a>(text: &'a str, scopes: &BTreeSet<&str>) -> Vec<&'a str> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|lit| {
            lit.split_once('.').is_some_and(|(scope, name)| {
                scopes.contains(scope)
                    && !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            })
        })
        .collect()
}

#[test]
fn every_rule_id_the_libraries_record_is_in_the_reference() {
    let scopes: BTreeSet<&str> = rules::RULES
        .iter()
        .filter_map(|r| r.id.split_once('.').map(|(scope, _)| scope))
        .collect();
    let root = root();
    let mut files = Vec::new();
    for entry in fs::read_dir(&root).expect("the repository root").flatten() {
        let src = entry.path().join("src");
        if entry.file_name().to_string_lossy().starts_with("llmshim") && src.is_dir() {
            sources(&src, &mut files);
        }
    }
    assert!(files.len() > 50, "{} source files", files.len());
    let mut unknown = BTreeSet::new();
    for file in &files {
        if file.starts_with(root.join("llmshim/src/rules"))
            || file.ends_with("llmshim/src/rules.rs")
        {
            continue;
        }
        let text = fs::read_to_string(file).expect("a source file");
        for id in recorded_ids(&text, &scopes) {
            if rules::rule(id).is_none_or(|r| r.status != Status::Implemented) {
                unknown.insert(format!("{id} ({})", file.display()));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "rule ids missing from the reference: {unknown:?}"
    );
}

#[test]
fn each_rule_gives_its_targets_from_their_rule_sets() {
    let google = llmshim::schema::Target::Google.rules().rules();
    let chat = llmshim::schema::Target::OpenAiChat.rules().rules();
    let lift = rules::rule("google.enum-lift").expect("listed");
    assert_eq!(lift.applies_to(google), rules::Applies::Always);
    assert_eq!(lift.applies_to(chat), rules::Applies::Never);
    let close = rules::rule("strict.close-object").expect("listed");
    assert_eq!(close.applies_to(chat), rules::Applies::WithStrict);
    assert_eq!(close.applies_to(google), rules::Applies::Never);
    assert_eq!(rules::reason("strict.close-object"), Some(close.why));
}
