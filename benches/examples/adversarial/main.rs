//! Runs one adversarial input in this process and prints one JSON line: outcome, wall time and peak memory.
//!
//! `cargo xtask reliability` builds this example in release mode and runs it once per case, each in its own
//! process, so that every peak-memory reading belongs to one case and a crash takes down only its own row.
//!
//! ```text
//! adversarial --list      # one line per case: {"case": …, "input": …, "operation": …}
//! adversarial <case>      # {"case": …, "input": …, "operation": …, "outcome": …, "calls": …, "wall_ms": …, "peak_rss_kib": …}
//! ```
//!
//! The operation runs on a thread with a 2 MiB stack, as a gateway's worker thread might have; the wall time covers
//! the library calls only (building and dropping the inputs is excluded), and the peak memory is the process's
//! `VmHWM`, which includes the input.

// The example is a command-line tool: printing is how it reports.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod cli;
mod inputs;

use std::fmt::Write as _;
use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use llmshim::resolve::{self, Resources};
use llmshim::schema::{self, Normalization, Options, Target, validate};
use serde_json::{Value, json};

use crate::inputs::Nest;

/// The stack of the thread each case runs on.
const STACK_BYTES: usize = 2 << 20;

/// One adversarial case: its name, what the input is, which operation runs, and the code that runs it.
struct Case {
    name: &'static str,
    input: &'static str,
    operation: &'static str,
    run: fn(&mut Run),
}

/// The state of one case's run: the timed calls and the outcomes they had.
#[derive(Default)]
struct Run {
    /// Each distinct outcome and how many calls had it, in the order first seen.
    outcomes: Vec<(String, usize)>,
    calls: usize,
    wall: Duration,
    slowest: Duration,
}

impl Run {
    /// Times `f` as one library call.
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        let took = start.elapsed();
        self.calls += 1;
        self.wall += took;
        self.slowest = self.slowest.max(took);
        out
    }

    /// Records one call's outcome.
    fn outcome(&mut self, label: String) {
        match self.outcomes.iter_mut().find(|(l, _)| *l == label) {
            Some((_, count)) => *count += 1,
            None => self.outcomes.push((label, 1)),
        }
    }

    /// The outcomes as one line: `label ×count; …`.
    fn summary(&self) -> String {
        let mut text = String::new();
        for (i, (label, count)) in self.outcomes.iter().enumerate() {
            if i > 0 {
                text.push_str("; ");
            }
            let _ = write!(text, "{label} ×{count}");
        }
        text
    }

    /// Normalizes a fresh `make()` for every built-in target, strict off and on, through `normalize_with` (the
    /// process memo and environment, as a gateway calls it), and records each report.
    fn normalize_all(&mut self, make: &dyn Fn() -> Value) {
        for target in Target::BUILTIN {
            for strict in [false, true] {
                let options = Options::for_target(target).with_strict(strict);
                let mut value = make();
                let report = self.time(|| schema::normalize_with(&options, &mut value));
                self.outcome(normalization_label(&report));
                inputs::dismantle(value);
            }
        }
    }

    /// Compiles `schema` and, when it compiles, validates `instance`; records the verdict or the error.
    fn compile_and_validate(&mut self, schema: &Value, instance: &Value) {
        let compiled = self.time(|| validate::compile(schema));
        match compiled {
            Err(err) => self.outcome(format!("compile error: {}", shorten(&err.to_string()))),
            Ok(validator) => {
                let errors = self.time(|| validate::errors(&validator, instance));
                let label = match errors.first() {
                    None => "valid".to_owned(),
                    Some(first) => format!("invalid: {}", shorten(first)),
                };
                self.outcome(label);
            }
        }
    }

    /// Dereferences `make()` with the default resolver options and records the result.
    fn dereference(&mut self, make: &dyn Fn() -> Value) {
        let mut value = make();
        let result = self.time(|| {
            resolve::dereference(&mut value, &Resources::new(), &resolve::Options::default())
        });
        self.outcome(match result {
            Ok(()) => "ok".to_owned(),
            Err(err) => format!("error: {:?}", err.kind()),
        });
        inputs::dismantle(value);
    }
}

/// `fallback <kind>`, `ok`, or `ok, strict demoted (<kind>)` for one report.
fn normalization_label(report: &Normalization) -> String {
    match (&report.fallback_reason, report.used_fallback) {
        (Some(reason), true) => format!("fallback {}", reason.kind.as_str()),
        (Some(reason), false) => format!("ok, strict demoted ({})", reason.kind.as_str()),
        (None, _) => "ok".to_owned(),
    }
}

/// The first 60 characters of a message, so that a table cell stays readable.
fn shorten(message: &str) -> String {
    let mut chars = message.chars();
    let head: String = chars.by_ref().take(60).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// Every case, in the order of the table.
const CASES: &[Case] = &[
    Case {
        name: "deep-items-normalize",
        input: "schema nested 100,000 levels through `items`",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::nested(Nest::Items, inputs::DEEP)),
    },
    Case {
        name: "deep-properties-normalize",
        input: "schema nested 100,000 levels through `properties`",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::nested(Nest::Properties, inputs::DEEP)),
    },
    Case {
        name: "deep-anyof-normalize",
        input: "schema nested 100,000 levels through `anyOf`",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::nested(Nest::AnyOf, inputs::DEEP)),
    },
    Case {
        name: "deep-default-normalize",
        input: "`default` literal nested 100,000 arrays deep",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::deep_default(inputs::DEEP)),
    },
    Case {
        name: "deep-items-output",
        input: "output schema nested 100,000 levels through `items`",
        operation: "normalize_output_for, every target × strict off/on",
        run: |r| {
            for target in Target::BUILTIN {
                for strict in [false, true] {
                    let original = inputs::nested(Nest::Items, inputs::DEEP);
                    let output = r.time(|| schema::normalize_output_for(target, &original, strict));
                    r.outcome(normalization_label(&output.normalization));
                    inputs::dismantle(original);
                    inputs::dismantle(output.schema);
                }
            }
        },
    },
    Case {
        name: "deep-items-mcp-tool",
        input: "MCP tool whose `inputSchema` is nested 100,000 levels through `items`",
        operation: "normalize_mcp_tool",
        run: |r| {
            let mut tool = inputs::mcp_tool(inputs::nested(Nest::Items, inputs::DEEP));
            let report = r.time(|| schema::normalize_mcp_tool(&mut tool));
            r.outcome(normalization_label(&report));
            inputs::dismantle(tool);
        },
    },
    Case {
        name: "deep-items-tools",
        input: "request with one chat tool whose `parameters` are nested 100,000 levels through `items`",
        operation: "tools::normalize_native_tools, every target",
        run: |r| {
            for target in Target::BUILTIN {
                let mut request = inputs::chat_request(inputs::nested(Nest::Items, inputs::DEEP));
                let options = Options::for_target(target);
                let report =
                    r.time(|| llmshim::tools::normalize_native_tools(&options, &mut request));
                r.outcome(normalization_label(&report.summary));
                inputs::dismantle(request);
            }
        },
    },
    Case {
        name: "deep-cli-normalize",
        input: "schema text nested 100,000 levels through `items`",
        operation: "`llmshim normalize`, 6 targets (main_with: read, normalize, write)",
        run: |r| {
            let text = cli::deep_schema();
            for target in Target::BUILTIN.map(Target::name) {
                r.command(&["normalize", "--target", target], &text);
            }
        },
    },
    Case {
        name: "deep-cli-output",
        input: "output schema text nested 100,000 levels through `items`",
        operation: "`llmshim output`, 6 targets",
        run: |r| {
            let text = cli::deep_schema();
            for target in Target::BUILTIN.map(Target::name) {
                r.command(&["output", "--target", target], &text);
            }
        },
    },
    Case {
        name: "deep-cli-tools",
        input: "request text: a tool's `parameters` nested 100,000 levels; a `messages` member nested 100,000 arrays",
        operation: "`llmshim tools`, 6 targets, each request",
        run: |r| {
            let deep_tool = cli::tool_request(&cli::deep_schema());
            let deep_messages = cli::deep_messages_request();
            for target in Target::BUILTIN.map(Target::name) {
                r.command(&["tools", "--target", target], &deep_tool);
                r.command(&["tools", "--target", target], &deep_messages);
            }
        },
    },
    Case {
        name: "deep-cli-batch",
        input: "4 batch lines: `normalize`, `output`, `mcp_tool` of the deep schema, `tools` of the deep-messages request",
        operation: "`llmshim batch`",
        run: |r| r.command(&["batch"], &cli::batch_lines()),
    },
    Case {
        name: "deep-items-compile",
        input: "schema nested 100,000 levels through `items`",
        operation: "validate::compile",
        run: |r| {
            let schema = inputs::nested(Nest::Items, inputs::DEEP);
            r.compile_and_validate(&schema, &json!(null));
            inputs::dismantle(schema);
        },
    },
    Case {
        name: "deep-items-dereference",
        input: "schema nested 100,000 levels through `items`",
        operation: "resolve::dereference",
        run: |r| r.dereference(&|| inputs::nested(Nest::Items, inputs::DEEP)),
    },
    Case {
        name: "deep-instance-validate",
        input: "instance nested 100,000 arrays deep, schema `{\"items\": {\"$ref\": \"#\"}}`",
        operation: "validate::compile + errors",
        run: |r| {
            let instance = inputs::deep_array(inputs::DEEP);
            r.compile_and_validate(&json!({"items": {"$ref": "#"}}), &instance);
            inputs::dismantle(instance);
        },
    },
    Case {
        name: "reference-bomb-normalize",
        input: "40 definitions, each referring to the previous twice (2^40 nodes when expanded)",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::reference_bomb(inputs::BOMB_LEVELS)),
    },
    Case {
        name: "reference-bomb-dereference",
        input: "40 definitions, each referring to the previous twice (2^40 nodes when expanded)",
        operation: "resolve::dereference",
        run: |r| r.dereference(&|| inputs::reference_bomb(inputs::BOMB_LEVELS)),
    },
    Case {
        name: "reference-bomb-validate",
        input: "40 definitions, each referring to the previous twice; instance `{\"root\": {\"l\": 1}}`",
        operation: "validate::compile + errors",
        run: |r| {
            let schema = inputs::reference_bomb(inputs::BOMB_LEVELS);
            r.compile_and_validate(&schema, &json!({"root": {"l": 1}}));
        },
    },
    Case {
        name: "anyof-bomb-normalize",
        input: "40 definitions, each an `anyOf` of the previous twice",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::combinator_bomb("anyOf", inputs::BOMB_LEVELS)),
    },
    Case {
        name: "anyof-bomb-validate-16",
        input: "16 definitions, each an `anyOf` of the previous twice; instance `\"x\"`",
        operation: "validate::compile + errors",
        run: |r| r.compile_and_validate(&inputs::combinator_bomb("anyOf", 16), &json!("x")),
    },
    Case {
        name: "anyof-bomb-validate-20",
        input: "20 definitions, each an `anyOf` of the previous twice; instance `\"x\"`",
        operation: "validate::compile + errors",
        run: |r| r.compile_and_validate(&inputs::combinator_bomb("anyOf", 20), &json!("x")),
    },
    Case {
        name: "anyof-bomb-validate-24",
        input: "24 definitions, each an `anyOf` of the previous twice; instance `\"x\"`",
        operation: "validate::compile + errors",
        run: |r| r.compile_and_validate(&inputs::combinator_bomb("anyOf", 24), &json!("x")),
    },
    Case {
        name: "allof-bomb-validate-24",
        input: "24 definitions, each an `allOf` of the previous twice; instance `1`",
        operation: "validate::compile + errors",
        run: |r| r.compile_and_validate(&inputs::combinator_bomb("allOf", 24), &json!(1)),
    },
    Case {
        name: "anyof-bomb-validate-40",
        input: "40 definitions, each an `anyOf` of the previous twice; instance `\"x\"`",
        operation: "validate::compile + errors",
        run: |r| {
            let schema = inputs::combinator_bomb("anyOf", inputs::BOMB_LEVELS);
            r.compile_and_validate(&schema, &json!("x"));
        },
    },
    Case {
        name: "allof-bomb-validate-40",
        input: "40 definitions, each an `allOf` of the previous twice; instance `1`",
        operation: "validate::compile + errors",
        run: |r| {
            let schema = inputs::combinator_bomb("allOf", inputs::BOMB_LEVELS);
            r.compile_and_validate(&schema, &json!(1));
        },
    },
    Case {
        name: "wide-properties-normalize",
        input: "object with 100,000 properties",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::wide_object(inputs::WIDE)),
    },
    Case {
        name: "wide-properties-compile",
        input: "object with 100,000 properties",
        operation: "validate::compile",
        run: |r| r.compile_and_validate(&inputs::wide_object(inputs::WIDE), &json!({})),
    },
    Case {
        name: "huge-string-normalize",
        input: "100 MB string in `default`",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::huge_default(inputs::HUGE_BYTES)),
    },
    Case {
        name: "huge-string-compile",
        input: "100 MB string in `default`",
        operation: "validate::compile",
        run: |r| r.compile_and_validate(&inputs::huge_default(inputs::HUGE_BYTES), &json!({})),
    },
    Case {
        name: "huge-string-validate",
        input: "100 MB string instance, schema `{\"type\": \"string\", \"maxLength\": 10, \"pattern\": \"^x*$\"}`",
        operation: "validate::compile + errors",
        run: |r| {
            let schema = json!({"type": "string", "maxLength": 10, "pattern": "^x*$"});
            r.compile_and_validate(&schema, &Value::String("x".repeat(inputs::HUGE_BYTES)));
        },
    },
    Case {
        name: "required-100k-normalize",
        input: "`required` with 100,000 distinct names",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::required_names(inputs::WIDE, true)),
    },
    Case {
        name: "required-100k-duplicates-normalize",
        input: "`required` with 100,000 copies of one name",
        operation: "normalize_with, every target × strict off/on",
        run: |r| r.normalize_all(&|| inputs::required_names(inputs::WIDE, false)),
    },
    Case {
        name: "required-100k-compile",
        input: "`required` with 100,000 distinct names",
        operation: "validate::compile",
        run: |r| r.compile_and_validate(&inputs::required_names(inputs::WIDE, true), &json!({})),
    },
    Case {
        name: "backtracking-pattern-validate",
        input: "`^(a+)+$`, `^(a|aa)+$`, `^(?=a)(a+)+$`, `(a*)*\\1$` against 100,000 `a`s and a `b`",
        operation: "validate::compile + errors, 4 patterns",
        run: |r| {
            let subject = inputs::backtracking_subject();
            for pattern in inputs::BACKTRACKING_PATTERNS {
                r.compile_and_validate(&inputs::pattern_schema(pattern), &subject);
            }
        },
    },
    Case {
        name: "backtracking-pattern-normalize",
        input: "the same 4 patterns on a property",
        operation: "normalize_with, every target × strict off/on, 4 patterns",
        run: |r| {
            for pattern in inputs::BACKTRACKING_PATTERNS {
                r.normalize_all(&|| inputs::as_property(inputs::pattern_schema(pattern)));
            }
        },
    },
    Case {
        name: "nested-groups-pattern-normalize",
        input: "`pattern` of 100,000 nested groups, and of 100,000 nested lookaheads",
        operation: "normalize_with, every target × strict off/on, 2 patterns",
        run: |r| {
            for lookahead in [false, true] {
                let pattern = inputs::nested_groups_pattern(inputs::DEEP, lookahead);
                r.normalize_all(&|| inputs::as_property(inputs::pattern_schema(&pattern)));
            }
        },
    },
    Case {
        name: "nested-groups-pattern-compile",
        input: "`pattern` of 100,000 nested groups, and of 100,000 nested lookaheads",
        operation: "validate::compile, 2 patterns",
        run: |r| {
            for lookahead in [false, true] {
                let pattern = inputs::nested_groups_pattern(inputs::DEEP, lookahead);
                r.compile_and_validate(&inputs::pattern_schema(&pattern), &json!("a"));
            }
        },
    },
    Case {
        name: "reference-loops-normalize",
        input: "7 loops: `$ref` to `#`, anchors, mutual `$ref`s, `$dynamicRef` and `$recursiveRef` to themselves",
        operation: "normalize_with, every target × strict off/on, 7 schemas",
        run: |r| {
            for (i, _) in inputs::reference_loops().iter().enumerate() {
                r.normalize_all(&|| inputs::reference_loops().swap_remove(i));
            }
        },
    },
    Case {
        name: "reference-loops-validate",
        input: "the same 7 loops; instance `{}`",
        operation: "validate::compile + errors, 7 schemas",
        run: |r| {
            for schema in inputs::reference_loops() {
                r.compile_and_validate(&schema, &json!({}));
            }
        },
    },
    Case {
        name: "reference-loops-dereference",
        input: "the same 7 loops",
        operation: "resolve::dereference, 7 schemas",
        run: |r| {
            for (i, _) in inputs::reference_loops().iter().enumerate() {
                r.dereference(&|| inputs::reference_loops().swap_remove(i));
            }
        },
    },
    Case {
        name: "malformed-uris-normalize",
        input: "10 malformed `$ref`/`$id` URIs and percent-escapes (`%zz`, non-UTF-8, `[::1`, 100,000 `%25`, …)",
        operation: "normalize_with, every target × strict off/on, 10 schemas",
        run: |r| {
            for (i, _) in inputs::malformed_uris().iter().enumerate() {
                r.normalize_all(&|| inputs::malformed_uris().swap_remove(i));
            }
        },
    },
    Case {
        name: "malformed-uris-compile",
        input: "the same 10 URIs",
        operation: "validate::compile, 10 schemas",
        run: |r| {
            for schema in inputs::malformed_uris() {
                r.compile_and_validate(&schema, &json!({}));
            }
        },
    },
    Case {
        name: "malformed-uris-dereference",
        input: "the same 10 URIs",
        operation: "resolve::dereference, 10 schemas",
        run: |r| {
            for (i, _) in inputs::malformed_uris().iter().enumerate() {
                r.dereference(&|| inputs::malformed_uris().swap_remove(i));
            }
        },
    },
    Case {
        name: "duplicate-ids-normalize",
        input: "3 schemas naming two different subschemas with one `$id` or `$anchor`",
        operation: "normalize_with, every target × strict off/on, 3 schemas",
        run: |r| {
            for (i, _) in inputs::duplicate_ids().iter().enumerate() {
                r.normalize_all(&|| inputs::duplicate_ids().swap_remove(i));
            }
        },
    },
    Case {
        name: "duplicate-ids-compile",
        input: "the same 3 schemas",
        operation: "validate::compile, 3 schemas",
        run: |r| {
            for schema in inputs::duplicate_ids() {
                r.compile_and_validate(&schema, &json!({}));
            }
        },
    },
    Case {
        name: "duplicate-ids-dereference",
        input: "the same 3 schemas",
        operation: "resolve::dereference, 3 schemas",
        run: |r| {
            for (i, _) in inputs::duplicate_ids().iter().enumerate() {
                r.dereference(&|| inputs::duplicate_ids().swap_remove(i));
            }
        },
    },
];

/// The case's name and descriptions as a JSON object.
fn describe(case: &Case) -> Value {
    json!({"case": case.name, "input": case.input, "operation": case.operation})
}

/// The process's peak resident set (`VmHWM`) in KiB, read from `/proc/self/status`.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "--list" => {
            for case in CASES {
                println!("{}", describe(case));
            }
            ExitCode::SUCCESS
        }
        [name] => {
            let Some(case) = CASES.iter().find(|c| c.name == name) else {
                eprintln!("error: unknown case `{name}`; `--list` names them");
                return ExitCode::from(2);
            };
            let run = case.run;
            let worker = thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    let mut state = Run::default();
                    run(&mut state);
                    state
                });
            let state = match worker.map(thread::JoinHandle::join) {
                Ok(Ok(state)) => state,
                Ok(Err(_)) => {
                    eprintln!("error: case `{name}` panicked");
                    return ExitCode::from(1);
                }
                Err(err) => {
                    eprintln!("error: cannot spawn the case thread: {err}");
                    return ExitCode::from(1);
                }
            };
            let Value::Object(mut line) = describe(case) else {
                unreachable!("describe returns an object");
            };
            line.insert("outcome".to_owned(), json!(state.summary()));
            line.insert("calls".to_owned(), json!(state.calls));
            line.insert("wall_ms".to_owned(), json!(state.wall.as_secs_f64() * 1e3));
            line.insert(
                "slowest_ms".to_owned(),
                json!(state.slowest.as_secs_f64() * 1e3),
            );
            line.insert("peak_rss_kib".to_owned(), json!(peak_rss_kib()));
            println!("{}", Value::Object(line));
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: adversarial --list | adversarial <case>");
            ExitCode::from(2)
        }
    }
}
