//! `RULES.md`: the rule reference rendered as Markdown from the data, with each rule's targets computed from the
//! table of built-in targets.

use std::fmt::Write as _;

use crate::rules::{Applies, CHECKS, FACTS, RULES, Rule, STEPS, Status};
use crate::schema::Target;

/// The reference as Markdown, one sentence per line; `RULES.md` at the repository root is this text.
///
/// ```
/// let text = llmshim::rules::markdown();
/// assert!(text.starts_with("# Rule reference"));
/// assert!(text.contains("### `google.enum-lift`"));
/// ```
pub fn markdown() -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Rule reference");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "<!-- Generated from `llmshim/src/rules/` by `cargo xtask rules`; do not edit by hand. -->"
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Every change a normalization records names one of the rules below, and code comments cite them, the walk steps (`W1`–`W30`), the rows of the structural check (`S1`–`S18`) and the provider facts (`GEM-7`, …) by these labels."
    );
    let _ = writeln!(
        s,
        "Each rule says what it does, at which step, on which built-in targets (computed from each target's rule set), why, and the file that implements it."
    );
    let _ = writeln!(
        s,
        "`llmshim::rules::reason(id)` returns a rule's one-line reason."
    );
    let _ = writeln!(
        s,
        "A change that drops, lifts or loosens a constraint widens its node; below an odd number of `not`s that makes the enclosing schema admit fewer values, and below an `if` it changes which of `then` and `else` applies, so there the report says `narrowed` (`Normalization::narrowed`) whatever the change's kind."
    );
    let _ = writeln!(
        s,
        "A change that narrows its node (kind `narrowed`) is recorded as `relaxed` below an odd number of `not`s, where the enclosing schema admits more values, and does not make the report say `narrowed`; below an `if` it is recorded as `relaxed` too, and the report says `narrowed` (the schema may admit more values or fewer)."
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "## Rules");
    for rule in RULES {
        render_rule(&mut s, rule);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "## Walk steps");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Each visit of a schema node runs these steps in order; `ORDER` in `llmshim/src/schema/pipeline.rs` lists the passes that implement them."
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "| step | what | file |");
    let _ = writeln!(s, "|---|---|---|");
    for step in STEPS {
        let _ = writeln!(
            s,
            "| `{}` | {} | [`{}`]({}) |",
            step.label, step.what, step.file, step.file
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "## Structural checks");
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "After the walk every node of the result must pass these rows ([`llmshim-core/src/check.rs`](llmshim-core/src/check.rs)); a node reports its own rows in this order, before its children's."
    );
    let _ = writeln!(s);
    let _ = writeln!(s, "| check | a node fails when | kind |");
    let _ = writeln!(s, "|---|---|---|");
    for check in CHECKS {
        let _ = writeln!(s, "| `{}` | {} | {} |", check.label, check.what, check.kind);
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "## Provider facts");
    let _ = writeln!(s);
    let _ = writeln!(s, "| fact | statement | source |");
    let _ = writeln!(s, "|---|---|---|");
    for fact in FACTS {
        let _ = writeln!(
            s,
            "| `{}` | {} | <{}> |",
            fact.label, fact.statement, fact.link
        );
    }
    s
}

/// One rule's section.
fn render_rule(s: &mut String, rule: &Rule) {
    let _ = writeln!(s);
    let _ = writeln!(s, "### `{}`", rule.id);
    let _ = writeln!(s);
    let kinds: Vec<&str> = rule.kinds.iter().map(|k| k.as_str()).collect();
    let status = match rule.status {
        Status::Implemented => String::new(),
        Status::Planned(issue) => format!(" (planned, issue {issue})"),
    };
    let _ = writeln!(
        s,
        "- {}, at {}, in [`{}`]({}){status}.",
        kinds.join(" or "),
        step_text(rule.step),
        rule.file,
        rule.file
    );
    let _ = writeln!(s, "- Targets: {}.", targets(rule));
    let _ = writeln!(s, "- What: {}", rule.what);
    let _ = writeln!(s, "- Why: {}", rule.why);
    if !rule.facts.is_empty() {
        let facts: Vec<String> = rule.facts.iter().map(|f| format!("`{f}`")).collect();
        let _ = writeln!(s, "- Provider facts: {}.", facts.join(", "));
    }
}

/// `W19` as `` `W19` ``, other stages as they are.
fn step_text(step: &str) -> String {
    if step.starts_with('W') {
        format!("`{step}`")
    } else {
        step.to_owned()
    }
}

/// The built-in targets that apply `rule`, from their rule sets.
fn targets(rule: &Rule) -> String {
    let mut found = Vec::new();
    for row in Target::builtins() {
        match rule.applies_to(row.rules.rules()) {
            Applies::Never => {}
            Applies::Always => found.push(row.name.to_owned()),
            Applies::WithStrict => found.push(format!("{} (strict)", row.name)),
            Applies::WithoutStrict => found.push(format!("{} (without strict)", row.name)),
        }
    }
    if found.is_empty() {
        "none of the built-in targets yet".to_owned()
    } else {
        found.join(", ")
    }
}
