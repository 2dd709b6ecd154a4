//! The table of built-in targets as the maintainer verbs read it, and the check that nothing else lists them.
//!
//! The facade holds the one table of built-in targets (`llmshim/src/schema/target/table.rs`: variant, command-line
//! name, rule set, one row per line between two markers). `cargo xtask bench` reads the command-line names from it,
//! and `cargo xtask tidy` checks that the facade, the command line, the benches, the test kit and xtask name no
//! built-in target outside it:
//! - no line mentions two or more command-line names or rule-set ids as words (a list of targets, in code, help
//!   text or docs);
//! - no code passes a command-line name or rule-set id as a string literal of its own (`"google"`);
//! - no file names two or more built-in `Target` variants, or a built-in rule set (`llmshim_targets::GOOGLE`).
//!
//! Naming one target for what it is (`Target::Mcp` for the MCP tool pass, the Anthropic transform workload) stays
//! allowed; listing them is the table's job.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::tidy::Problem;

/// The table's file, relative to the workspace root.
pub(crate) const TABLE_FILE: &str = "llmshim/src/schema/target/table.rs";

/// The markers around the table's rows.
const START: &str = "// targets:start";
const END: &str = "// targets:end";

/// The folders whose `.rs` files may not list built-in targets: the facade, the command line, the benches and the
/// test kit, and xtask.
const SCANNED: &[&str] = &[
    "llmshim/src",
    "llmshim-cli/src",
    "benches/src",
    "benches/benches",
    "benches/examples",
    "xtask/src",
];

/// Where the built-in rule sets declare their ids (`Builtin::new("<id>", RULES)`).
const RULE_SETS: &str = "llmshim-targets/src";

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Row {
    /// The `Target` variant, such as `Google`.
    pub(crate) variant: String,
    /// The command-line name, such as `google`.
    pub(crate) name: String,
    /// The rule set's static in `llmshim-targets`, such as `GOOGLE`.
    pub(crate) rules: String,
}

/// Reads the table's rows from its file under `root`.
pub(crate) fn read(root: &Path) -> Result<Vec<Row>, String> {
    let path = root.join(TABLE_FILE);
    let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {TABLE_FILE}: {e}"))?;
    parse(&text)
}

/// The rows between the markers of the table's text.
fn parse(text: &str) -> Result<Vec<Row>, String> {
    let start = text
        .find(START)
        .ok_or_else(|| format!("{TABLE_FILE} has no `{START}` marker"))?;
    let end = text
        .find(END)
        .ok_or_else(|| format!("{TABLE_FILE} has no `{END}` marker"))?;
    // Rows may be wrapped over several lines by the formatter; names and ids hold no whitespace, so the rows are
    // read with it removed.
    let body: String = text
        .get(start + START.len()..end)
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut rows = Vec::new();
    for piece in body.split_inclusive("),").filter(|p| !p.is_empty()) {
        rows.push(
            parse_row(piece)
                .ok_or_else(|| format!("{TABLE_FILE}: cannot read the row `{piece}`"))?,
        );
    }
    if rows.is_empty() {
        return Err(format!("{TABLE_FILE} has no rows between its markers"));
    }
    Ok(rows)
}

/// One row without whitespace: `BuiltinTarget::new(Target::<Variant>,"<name>",&llmshim_targets::<RULES>),`.
fn parse_row(line: &str) -> Option<Row> {
    let args = line
        .strip_prefix("BuiltinTarget::new(")?
        .strip_suffix("),")?;
    // The formatter leaves a trailing comma after the last argument of a wrapped row.
    let args = args.strip_suffix(',').unwrap_or(args);
    let mut parts = args.split(',').map(str::trim);
    let variant = parts.next()?.strip_prefix("Target::")?;
    let name = parts.next()?.strip_prefix('"')?.strip_suffix('"')?;
    let rules = parts.next()?.strip_prefix("&llmshim_targets::")?;
    if parts.next().is_some() || [variant, name, rules].iter().any(|s| s.is_empty()) {
        return None;
    }
    Some(Row {
        variant: variant.to_owned(),
        name: name.to_owned(),
        rules: rules.to_owned(),
    })
}

/// The ids the built-in rule sets declare in `llmshim-targets/src` (`openai-chat`, …).
fn rule_set_ids(root: &Path) -> Result<Vec<String>, String> {
    let mut ids = Vec::new();
    for path in rust_files(&root.join(RULE_SETS))? {
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for piece in text.split("Builtin::new(\"").skip(1) {
            if let Some(id) = piece.split('"').next() {
                ids.push(id.to_owned());
            }
        }
    }
    Ok(ids)
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = fs::read_dir(&d).map_err(|e| format!("cannot list {}: {e}", d.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// What the scan looks for: the names and ids as words, the variants and the rule-set statics.
struct Names {
    /// Command-line names and rule-set ids.
    words: Vec<String>,
    /// `Target::<Variant>` spellings.
    variants: Vec<String>,
    /// `llmshim_targets::<RULES>` spellings.
    statics: Vec<String>,
}

impl Names {
    fn new(rows: &[Row], ids: &[String]) -> Self {
        let mut words: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        words.extend(ids.iter().cloned());
        Names {
            words,
            variants: rows
                .iter()
                .map(|r| format!("Target::{}", r.variant))
                .collect(),
            statics: rows
                .iter()
                .map(|r| format!("llmshim_targets::{}", r.rules))
                .collect(),
        }
    }
}

/// Checks every scanned file under `root` against the table; a file is named by its path relative to `root`.
pub(crate) fn check(root: &Path) -> Result<Vec<Problem>, String> {
    let rows = read(root)?;
    let names = Names::new(&rows, &rule_set_ids(root)?);
    let mut problems = Vec::new();
    for folder in SCANNED {
        for path in rust_files(&root.join(folder))? {
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            let rel_text = rel.to_string_lossy().replace('\\', "/");
            if rel_text == TABLE_FILE || rel_text == "xtask/src/targets.rs" {
                continue;
            }
            let text =
                fs::read_to_string(&path).map_err(|e| format!("cannot read {rel_text}: {e}"))?;
            for (line, message) in scan(&text, &names) {
                problems.push(Problem {
                    path: rel.clone(),
                    line,
                    message,
                });
            }
        }
    }
    Ok(problems)
}

/// The problems of one file's text: `(line, message)`, the line 1-based where there is one.
fn scan(text: &str, names: &Names) -> Vec<(Option<usize>, String)> {
    let mut found = Vec::new();
    let mut variants = BTreeSet::new();
    for (index, line) in text.lines().enumerate() {
        let at = Some(index + 1);
        let listed: BTreeSet<&str> = words(line)
            .filter(|w| names.words.iter().any(|n| n == w))
            .collect();
        if listed.len() >= 2 {
            let listed: Vec<&str> = listed.into_iter().collect();
            found.push((
                at,
                format!(
                    "lists built-in targets ({}); read them from the table in {TABLE_FILE}",
                    listed.join(", ")
                ),
            ));
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        for name in &names.words {
            if line.contains(&format!("\"{name}\"")) {
                found.push((
                    at,
                    format!("names the built-in target \"{name}\"; take it from the table in {TABLE_FILE}"),
                ));
            }
        }
        for spelled in &names.statics {
            if contains_word(line, spelled) {
                found.push((
                    at,
                    format!(
                        "names the rule set {spelled}; reach it through `Target` and its table"
                    ),
                ));
            }
        }
        for spelled in &names.variants {
            if contains_word(line, spelled) {
                variants.insert(spelled.as_str());
            }
        }
    }
    if variants.len() >= 2 {
        let variants: Vec<&str> = variants.into_iter().collect();
        found.push((
            None,
            format!(
                "names several built-in targets ({}); iterate over `Target::BUILTIN` or choose by rule-set data",
                variants.join(", ")
            ),
        ));
    }
    found
}

/// Whether a character continues a word: names and rule ids are made of letters, digits, `_`, `-` and `.`, so
/// `google.enum-lift` and `openai-chat` are one word each and neither is `google` or `chat`.
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// The words of a line, with a trailing `.` (the end of a sentence) cut off.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !is_word_char(c))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty())
}

/// Whether `needle` occurs in `line` not followed by a character that continues an identifier.
fn contains_word(line: &str, needle: &str) -> bool {
    line.match_indices(needle).any(|(at, _)| {
        !line[at + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use crate::metadata;
    use crate::targets::{Names, Row, parse, read, scan};

    fn names() -> Names {
        let rows = vec![
            Row {
                variant: "Google".to_owned(),
                name: "google".to_owned(),
                rules: "GOOGLE".to_owned(),
            },
            Row {
                variant: "OpenAiChat".to_owned(),
                name: "chat".to_owned(),
                rules: "OPENAI_CHAT".to_owned(),
            },
        ];
        Names::new(&rows, &["openai-chat".to_owned()])
    }

    #[test]
    fn rows_are_read_between_the_markers() {
        let text = "x\n    // targets:start\n    BuiltinTarget::new(\n        Target::Google,\n        \"google\",\n        &llmshim_targets::GOOGLE,\n    ),\n    // targets:end\n";
        assert_eq!(
            parse(text),
            Ok(vec![Row {
                variant: "Google".to_owned(),
                name: "google".to_owned(),
                rules: "GOOGLE".to_owned(),
            }])
        );
        assert!(parse("no markers").is_err());
        assert!(parse("// targets:start\nnot a row\n// targets:end\n").is_err());
    }

    #[test]
    fn lists_literals_variants_and_rule_sets_are_found() {
        let names = names();
        let lines = |text: &str| -> Vec<Option<usize>> {
            scan(text, &names)
                .into_iter()
                .map(|(line, _)| line)
                .collect()
        };
        // A help text listing targets, in a comment or in a string.
        assert_eq!(lines("/// The target: google or chat.\n"), [Some(1)]);
        assert_eq!(lines("let s = \"targets: chat, google\";\n"), [Some(1)]);
        // A name as a string literal of its own, in code only.
        assert_eq!(lines("let t = \"google\";\n"), [Some(1)]);
        assert_eq!(
            lines("// \"google\" is an example\n"),
            Vec::<Option<usize>>::new()
        );
        // Rule ids and rule-set ids are other words.
        assert!(lines("// google.enum-lift and openai-chat-like\n").is_empty());
        assert_eq!(lines("// openai-chat and chat\n"), [Some(1)]);
        // Two variants in one file, and a rule set.
        assert_eq!(
            lines("let a = Target::Google;\nlet b = Target::OpenAiChat;\n"),
            [None]
        );
        assert!(lines("let a = Target::Google;\nlet b = Target::GoogleJson;\n").is_empty());
        assert_eq!(lines("let r = &llmshim_targets::GOOGLE;\n"), [Some(1)]);
    }

    #[test]
    fn the_table_has_the_built_in_targets() -> Result<(), String> {
        let rows = read(&metadata::workspace_root()?)?;
        assert!(rows.len() >= 6, "{rows:?}");
        assert!(rows.iter().any(|r| r.variant == "Mcp" && r.name == "mcp"));
        Ok(())
    }
}
