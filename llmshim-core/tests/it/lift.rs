//! Rendering and description lifting: fragments, the duplicate marker and the queue.

use llmshim_core::lift::{self, Queue};
use llmshim_core::walk::{Flow, Settings};
use llmshim_core::{Budget, ChangeKind, FallbackReason, NodeCtx, Pass, json};
use serde_json::{Value, json};

use crate::support::run;

#[test]
fn floats_render_as_serde_json_writes_them() {
    let cases = [
        (json!(100.0), "100.0"),
        (json!(0.1), "0.1"),
        (json!(1e21), "1e+21"),
        (json!(1e-7), "1e-7"),
        (json!(1.5e300), "1.5e+300"),
        (json!(-0.0), "-0.0"),
        (json!(2.5), "2.5"),
    ];
    for (value, text) in cases {
        assert_eq!(lift::render("maximum", &value), text, "{value:?}");
        assert_eq!(json::compact(&value), text, "{value:?}");
    }
}

#[test]
fn parsed_numbers_keep_their_kind() {
    let parsed: Value =
        serde_json::from_str("[1, 1.0, 1E21, -0.0, 18446744073709551615, -7]").expect("valid JSON");
    assert_eq!(
        lift::render("enum", &parsed),
        "[1,1.0,1e+21,-0.0,18446744073709551615,-7]"
    );
}

#[test]
fn strings_escape_quotes_backslashes_and_control_characters_only() {
    let value = json!("say \"hi\"\\ \n\t\r\u{1}\u{1f}");
    assert_eq!(
        lift::render("default", &value),
        r#""say \"hi\"\\ \n\t\r\u0001\u001f""#
    );
}

#[test]
fn non_ascii_stays_raw() {
    let value = json!(["é", "☃", "😀", "日本"]);
    assert_eq!(lift::render("enum", &value), r#"["é","☃","😀","日本"]"#);
}

#[test]
fn objects_render_in_stored_key_order_without_spaces() {
    let value = json!({"z": 1, "a": [true, null], "m": {"y": "1", "b": {}}});
    assert_eq!(
        lift::render("default", &value),
        r#"{"z":1,"a":[true,null],"m":{"y":"1","b":{}}}"#
    );
}

#[test]
fn pattern_and_format_strings_render_raw_and_nothing_else_does() {
    assert_eq!(lift::render("pattern", &json!("^\\d+\"$")), "^\\d+\"$");
    assert_eq!(lift::render("format", &json!("date-time")), "date-time");
    assert_eq!(lift::render("pattern", &json!(5)), "5");
    assert_eq!(lift::render("format", &json!(["a"])), r#"["a"]"#);
    assert_eq!(
        lift::render("default", &json!("date-time")),
        "\"date-time\""
    );
    assert_eq!(lift::render("const", &json!("^a$")), "\"^a$\"");
}

/// Appends one fragment to `node` and returns whether text was appended.
fn append(node: &mut Value, keyword: &str, value: &Value) -> bool {
    lift::append(node.as_object_mut().expect("an object"), keyword, value)
}

#[test]
fn an_empty_description_gets_the_bare_fragment() {
    let mut node = json!({"description": "", "type": "integer"});
    assert!(append(&mut node, "default", &json!(7)));
    assert_eq!(
        node,
        json!({"description": "(default: 7)", "type": "integer"})
    );
}

#[test]
fn an_absent_description_is_appended_at_the_end() {
    let mut node = json!({"type": "integer", "minimum": 0});
    assert!(append(&mut node, "default", &json!(7)));
    assert_eq!(
        json::compact(&node),
        r#"{"type":"integer","minimum":0,"description":"(default: 7)"}"#
    );
}

#[test]
fn text_is_followed_by_a_space_and_the_fragment() {
    let mut node = json!({"description": "Count"});
    append(&mut node, "default", &json!(7));
    assert_eq!(node["description"], "Count (default: 7)");
}

#[test]
fn leading_whitespace_is_trimmed_and_trailing_whitespace_kept() {
    let mut node = json!({"description": "  padded"});
    append(&mut node, "default", &json!(2.5));
    assert_eq!(node["description"], "padded (default: 2.5)");

    let mut node = json!({"description": " \t "});
    append(&mut node, "default", &json!(7));
    assert_eq!(node["description"], "(default: 7)");

    let mut node = json!({"description": "Count "});
    append(&mut node, "default", &json!(7));
    assert_eq!(node["description"], "Count  (default: 7)");
}

#[test]
fn the_duplicate_marker_appends_nothing() {
    let mut node = json!({"description": "  Retries (default: 3)"});
    assert!(!append(&mut node, "default", &json!(5)));
    assert_eq!(node["description"], "  Retries (default: 3)");

    let mut node = json!({"description": "x (default: 1)"});
    assert!(append(&mut node, "maximum", &json!(9)));
    assert!(!append(&mut node, "maximum", &json!(10)));
    assert_eq!(node["description"], "x (default: 1) (maximum: 9)");
}

#[test]
fn the_marker_is_the_exact_substring() {
    let mut node = json!({"description": "(defaults: 1) (default 2) (maxLength: 3)"});
    assert!(append(&mut node, "default", &json!(4)));
    assert!(append(&mut node, "max", &json!(5)));
    assert_eq!(
        node["description"],
        "(defaults: 1) (default 2) (maxLength: 3) (default: 4) (max: 5)"
    );
}

#[test]
fn a_non_string_description_is_replaced_in_place() {
    let mut node = json!({"type": "string", "description": 5, "title": "t"});
    assert!(append(&mut node, "default", &json!("a")));
    assert_eq!(
        json::compact(&node),
        r#"{"type":"string","description":"(default: \"a\")","title":"t"}"#
    );

    let mut node = json!({"description": {"text": "(default: 1)"}});
    assert!(append(&mut node, "default", &json!(2)));
    assert_eq!(node["description"], "(default: 2)");
}

#[test]
fn pattern_and_format_fragments_are_raw() {
    let mut node = json!({"description": "Code"});
    append(&mut node, "pattern", &json!("^[A-Z]{2}\\d+$"));
    append(&mut node, "format", &json!("email"));
    append(&mut node, "examples", &json!(["AB1"]));
    assert_eq!(
        node["description"],
        r#"Code (pattern: ^[A-Z]{2}\d+$) (format: email) (examples: ["AB1"])"#
    );
}

#[test]
fn the_queue_sorts_byte_wise() {
    let mut queue = Queue::default();
    assert!(queue.is_empty());
    for keyword in [
        "maximum",
        "enum",
        "Title",
        "maxLength",
        "$comment",
        "exclusiveMaximum",
        "default",
    ] {
        queue.push(keyword, json!(1), "test.rule");
    }
    assert!(!queue.is_empty());
    let order: Vec<String> = queue
        .drain_sorted()
        .into_iter()
        .map(|q| q.keyword)
        .collect();
    assert_eq!(
        order,
        [
            "$comment",
            "Title",
            "default",
            "enum",
            "exclusiveMaximum",
            "maxLength",
            "maximum"
        ]
    );
    assert!(queue.is_empty());
}

#[test]
fn a_keyword_queued_twice_keeps_its_first_value_and_rule() {
    let mut queue = Queue::default();
    queue.push("default", json!(1), "first.rule");
    queue.push("minimum", json!(0), "first.rule");
    queue.push("default", json!(2), "second.rule");
    let drained = queue.drain_sorted();
    assert_eq!(drained.len(), 2);
    assert_eq!(drained[0].keyword, "default");
    assert_eq!(drained[0].value, json!(1));
    assert_eq!(drained[0].rule, "first.rule");
}

/// A pass that queues every `(keyword, value)` pair listed under `x-lift`, in order, on the node holding it.
#[derive(Debug)]
struct QueueLifts;

impl Pass for QueueLifts {
    fn name(&self) -> &'static str {
        "queue-lifts"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        let Some(Value::Array(pairs)) = node.as_object_mut().and_then(|m| m.shift_remove("x-lift"))
        else {
            return Ok(Flow::Continue);
        };
        for pair in pairs {
            let keyword = pair[0].as_str().expect("a keyword").to_owned();
            cx.queue_lift(keyword, pair[1].clone(), "test.lift");
        }
        Ok(Flow::Continue)
    }
}

/// The `(pointer, rule, kind)` of every change.
fn changes(walked: &llmshim_core::walk::Walked) -> Vec<(String, String, ChangeKind)> {
    walked
        .changes
        .iter()
        .map(|c| (c.pointer.clone(), c.rule.to_string(), c.kind))
        .collect()
}

#[test]
fn the_walker_flushes_the_queue_in_byte_wise_order_with_one_change_each() {
    let mut schema = json!({
        "type": "object",
        "properties": {
            "n": {
                "type": "integer",
                "description": "Count",
                "x-lift": [
                    ["maximum", 9],
                    ["maxLength", 3],
                    ["exclusiveMaximum", 10],
                    ["enum", [1, 2]],
                    ["$comment", "c"],
                    ["Zeta", true],
                    ["maximum", 99]
                ]
            }
        }
    });
    let settings = Settings::new(Budget::default()).with_diagnostics(true);
    let walked = run(&mut schema, &[&QueueLifts], &settings).expect("walks");
    assert_eq!(
        schema["properties"]["n"]["description"],
        r#"Count ($comment: "c") (Zeta: true) (enum: [1,2]) (exclusiveMaximum: 10) (maxLength: 3) (maximum: 9)"#
    );
    let keywords: Vec<String> = changes(&walked).into_iter().map(|c| c.0).collect();
    assert_eq!(
        keywords,
        [
            "/properties/n/$comment",
            "/properties/n/Zeta",
            "/properties/n/enum",
            "/properties/n/exclusiveMaximum",
            "/properties/n/maxLength",
            "/properties/n/maximum"
        ]
    );
    assert!(
        walked
            .changes
            .iter()
            .all(|c| c.rule == "test.lift" && c.kind == ChangeKind::Lifted)
    );
}

#[test]
fn a_flushed_lift_is_recorded_also_when_the_marker_appends_nothing() {
    let mut schema = json!({
        "description": "Retries (default: 3)",
        "x-lift": [["default", 5], ["maximum", 9]]
    });
    let settings = Settings::new(Budget::default()).with_diagnostics(true);
    let walked = run(&mut schema, &[&QueueLifts], &settings).expect("walks");
    assert_eq!(
        schema,
        json!({"description": "Retries (default: 3) (maximum: 9)"})
    );
    assert_eq!(
        changes(&walked),
        [
            (
                "/default".to_owned(),
                "test.lift".to_owned(),
                ChangeKind::Lifted
            ),
            (
                "/maximum".to_owned(),
                "test.lift".to_owned(),
                ChangeKind::Lifted
            )
        ]
    );
}

#[test]
fn without_diagnostics_lifts_write_text_but_record_nothing() {
    let mut schema = json!({"x-lift": [["default", 7]]});
    let walked = run(
        &mut schema,
        &[&QueueLifts],
        &Settings::new(Budget::default()),
    )
    .expect("walks");
    assert_eq!(schema, json!({"description": "(default: 7)"}));
    assert!(walked.changes.is_empty());
}

/// A pass that queues `default` and flushes at once, as step W22 does, then queues `maximum` for the walker.
#[derive(Debug)]
struct FlushEarly;

impl Pass for FlushEarly {
    fn name(&self) -> &'static str {
        "flush-early"
    }

    fn enter(&self, node: &mut Value, cx: &mut NodeCtx<'_>) -> Result<Flow, FallbackReason> {
        cx.queue_lift("default", json!(1), "test.early");
        cx.flush_lifts(node);
        cx.queue_lift("default", json!(2), "test.late");
        Ok(Flow::Continue)
    }
}

#[test]
fn a_flushed_queue_starts_empty_again() {
    let mut schema = json!({"type": "integer"});
    let settings = Settings::new(Budget::default()).with_diagnostics(true);
    let walked = run(&mut schema, &[&FlushEarly], &settings).expect("walks");
    assert_eq!(schema["description"], "(default: 1)");
    assert_eq!(
        changes(&walked),
        [
            (
                "/default".to_owned(),
                "test.early".to_owned(),
                ChangeKind::Lifted
            ),
            (
                "/default".to_owned(),
                "test.late".to_owned(),
                ChangeKind::Lifted
            )
        ]
    );
}
