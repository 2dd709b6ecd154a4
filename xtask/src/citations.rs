//! Citations in comments must resolve in the project's own rule reference, `RULES.md`.
//!
//! Code comments say what and why in plain words and name rules by their ids (`google.enum-lift`), walk steps
//! (`W19`), structural checks (`S15`) and provider facts (`GEM-7`). `cargo xtask tidy` reads the labels `RULES.md`
//! defines (it is generated from `llmshim/src/rules/` and a facade test keeps it current) and fails on:
//! - any section sign in a `.rs` or Markdown file: the behaviour contract is not part of the repository;
//! - a step, check, fact or rule id of a known scope that the reference does not define;
//! - a label of the external contract's own lists (deliberate departures `D…`/`X…`, open questions `Q…`, pipeline
//!   steps `P…`, worked examples `K…`, amendments `A…`), which no reader of the repository can look up.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::tidy::Problem;

/// The reference, relative to the workspace root.
pub(crate) const REFERENCE: &str = "RULES.md";

/// Files that define labels or patterns rather than cite them.
const EXEMPT: &[&str] = &["RULES.md", "xtask/src/citations.rs"];

/// The folder whose files define the reference.
const DEFINITIONS: &str = "llmshim/src/rules";

/// The labels the reference defines.
#[derive(Debug, Default)]
pub(crate) struct Labels {
    rules: BTreeSet<String>,
    scopes: BTreeSet<String>,
    steps: BTreeSet<String>,
    checks: BTreeSet<String>,
    facts: BTreeSet<String>,
    fact_prefixes: BTreeSet<String>,
}

impl Labels {
    /// The labels of the reference's text.
    pub(crate) fn parse(text: &str) -> Labels {
        let mut labels = Labels::default();
        for line in text.lines() {
            if let Some(id) = line
                .strip_prefix("### `")
                .and_then(|rest| rest.strip_suffix('`'))
            {
                if let Some((scope, _)) = id.split_once('.') {
                    labels.scopes.insert(scope.to_owned());
                }
                labels.rules.insert(id.to_owned());
            } else if let Some(rest) = line.strip_prefix("| `") {
                let label = rest.split('`').next().unwrap_or("");
                if is_step(label) {
                    labels.steps.insert(label.to_owned());
                } else if is_check(label) {
                    labels.checks.insert(label.to_owned());
                } else if let Some(prefix) = fact_prefix(label) {
                    labels.fact_prefixes.insert(prefix.to_owned());
                    labels.facts.insert(label.to_owned());
                }
            }
        }
        labels
    }
}

/// `W` and one or two digits.
fn is_step(word: &str) -> bool {
    numbered(word, "W")
}

/// `S` and one or two digits.
fn is_check(word: &str) -> bool {
    numbered(word, "S")
}

/// `prefix` followed by one or two digits and nothing else.
fn numbered(word: &str, prefix: &str) -> bool {
    word.strip_prefix(prefix)
        .is_some_and(|n| (1..=2).contains(&n.len()) && n.chars().all(|c| c.is_ascii_digit()))
}

/// The prefix of a provider fact label (`GEM` of `GEM-7`, `OAI` of `OAI-1a`): upper-case letters, `-`, digits and
/// an optional lower-case letter.
fn fact_prefix(word: &str) -> Option<&str> {
    let (letters, rest) = word.split_once('-')?;
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let shaped = !letters.is_empty()
        && letters.chars().all(|c| c.is_ascii_uppercase())
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && rest.len() <= digits.len() + 1;
    shaped.then_some(letters)
}

/// A label of the external contract's own lists: `D3`, `D6′`, `X1`, `Q12`, `P5`, `K1`, `A7`.
fn is_contract_label(word: &str) -> bool {
    let word = word.trim_end_matches('′');
    ["D", "X", "Q", "P", "K", "A"]
        .iter()
        .any(|prefix| numbered(word, prefix))
}

/// The comment text of one line of Rust, if it has a comment: a `//` that does not sit inside a string literal.
fn comment(line: &str) -> Option<&str> {
    let mut in_string = false;
    let mut escaped = false;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return line.get(i..),
            _ => {}
        }
    }
    None
}

/// The words of a comment: runs of letters, digits, `.`, `-`, `_` and `′`, a sentence's final `.` cut off.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '′')))
        .map(|w| w.trim_end_matches('.').trim_matches('-'))
        .filter(|w| !w.is_empty())
}

/// The problems of one text (the comments of a `.rs` file, or a whole Markdown file).
fn scan(text: &str, rust: bool, labels: &Labels) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // Inside a fenced code block (a doc example, a JSON sample) words are code, not citations.
    let mut fenced = false;
    for (index, line) in text.lines().enumerate() {
        let at = index + 1;
        // A `§` is refused anywhere in a file, strings included; the other labels only in comments.
        if line.contains('§') {
            found.push((
                at,
                "cites a section (`§`) of the behaviour contract, which is not in the repository; say what and why \
                 in plain words, or cite a rule id of RULES.md"
                    .to_owned(),
            ));
        }
        let Some(cited) = (if rust { comment(line) } else { Some(line) }) else {
            continue;
        };
        if cited
            .trim_start_matches(['/', '!'])
            .trim_start()
            .starts_with("```")
        {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for word in words(cited) {
            // A range such as `W9-W11` cites both ends.
            for part in word.split('-') {
                let unknown = (is_step(part) && !labels.steps.contains(part))
                    || (is_check(part) && !labels.checks.contains(part));
                if unknown {
                    found.push((
                        at,
                        format!("cites `{part}`, which {REFERENCE} does not define"),
                    ));
                }
            }
            let unknown = if is_step(word) || is_check(word) {
                false
            } else if let Some(prefix) = fact_prefix(word)
                && labels.fact_prefixes.contains(prefix)
            {
                !labels.facts.contains(word)
            } else if is_contract_label(word) {
                found.push((
                    at,
                    format!(
                        "cites `{word}`, a label of the behaviour contract; say what and why, or cite a rule id"
                    ),
                ));
                continue;
            } else if let Some((scope, name)) = word.split_once('.') {
                // File names (`walk.rs`) and calls (`root.join(…)`) share the shape of a rule id.
                let file = matches!(
                    name,
                    "rs" | "json" | "jsonl" | "md" | "toml" | "py" | "yml" | "yaml"
                );
                let call = cited.contains(&format!("{word}("));
                !file
                    && !call
                    && labels.scopes.contains(scope)
                    && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && !labels.rules.contains(word)
            } else {
                false
            };
            if unknown {
                found.push((
                    at,
                    format!("cites `{word}`, which {REFERENCE} does not define"),
                ));
            }
        }
    }
    found
}

/// Checks the comments of every `.rs` file and every Markdown file of `files` (relative to `root`).
pub(crate) fn check(root: &Path, files: &[PathBuf]) -> Result<Vec<Problem>, String> {
    let text = fs::read_to_string(root.join(REFERENCE))
        .map_err(|e| format!("cannot read {REFERENCE}: {e}"))?;
    let labels = Labels::parse(&text);
    if labels.rules.is_empty() || labels.steps.is_empty() {
        return Err(format!("{REFERENCE} defines no rules or steps"));
    }
    let mut problems = Vec::new();
    for rel in files {
        let rel_text = rel.to_string_lossy().replace('\\', "/");
        if EXEMPT.contains(&rel_text.as_str()) || rel_text.starts_with(DEFINITIONS) {
            continue;
        }
        let rust = match rel.extension().and_then(|e| e.to_str()) {
            Some("rs") => true,
            Some("md") => false,
            _ => continue,
        };
        let Ok(text) = fs::read_to_string(root.join(rel)) else {
            continue;
        };
        for (line, message) in scan(&text, rust, &labels) {
            problems.push(Problem {
                path: rel.clone(),
                line: Some(line),
                message,
            });
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use crate::citations::{Labels, comment, scan};

    fn labels() -> Labels {
        Labels::parse(
            "### `google.enum-lift`\n\n| `W19` | strip |\n| `S15` | closed |\n| `GEM-7` | empty |\n",
        )
    }

    fn lines(text: &str, rust: bool) -> Vec<usize> {
        scan(text, rust, &labels())
            .into_iter()
            .map(|(line, _)| line)
            .collect()
    }

    #[test]
    fn comments_are_found_outside_strings() {
        assert_eq!(comment("let a = 1; // note"), Some("// note"));
        assert_eq!(comment("let url = \"http://x\";"), None);
        assert_eq!(comment("//! Module."), Some("//! Module."));
        assert_eq!(comment("let s = \"\\\"//\"; // after"), Some("// after"));
    }

    #[test]
    fn resolving_citations_pass_and_others_fail() {
        assert!(
            lines(
                "// `google.enum-lift` at W19, checked by S15 (GEM-7).\n",
                true
            )
            .is_empty()
        );
        assert_eq!(lines("// see §4.3.10\n", true), [1]);
        assert_eq!(lines("// W31 and S19, W19-W31\n", true), [1, 1, 1]);
        assert_eq!(lines("// google.enum-drop\n", true), [1]);
        assert_eq!(lines("// GEM-70\n", true), [1]);
        assert_eq!(lines("// deliberate (D3), see Q12\n", true), [1, 1]);
        // Code and strings are not comments; other scopes and words are not citations.
        assert!(lines("let w = \"W99\";\n", true).is_empty());
        assert_eq!(lines("let w = \"§2\";\n", true), [1]);
        assert!(lines("// e.g. serde_json.to_string, UTF-8, SHA-256\n", true).is_empty());
        assert!(lines("// google.rs and google.json, google.join(x)\n", true).is_empty());
        // Markdown is read whole.
        assert_eq!(lines("see §1\n", false), [1]);
        // Doc examples are code.
        assert!(lines("//! ```\n//! assert!(google.enum-drop);\n//! ```\n", true).is_empty());
    }
}
