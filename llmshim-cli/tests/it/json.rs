//! The command's JSON reader and writer against `serde_json`: the same values and the same bytes on every JSON file of
//! the shared test data and on edge cases, the same verdicts on generated text, and any depth without recursion.

use std::fs;
use std::path::{Path, PathBuf};
use std::thread;

use llmshim_benches::testdata::require;
use llmshim_cli::json;
use proptest::prelude::*;
use serde_json::Value;

/// Every `.json` file under `dir`, sorted.
fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// Reads `text` with both readers and checks that they agree: both refuse it, or both read values that `serde_json`
/// writes to the same bytes, and our writer writes those bytes too, compact and pretty. Returns whether it was read.
fn agree(text: &str) -> bool {
    let ours = json::from_str(text);
    let theirs = serde_json::from_str::<Value>(text);
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            let expected = serde_json::to_vec(&theirs).unwrap();
            assert_eq!(
                serde_json::to_vec(&ours).unwrap(),
                expected,
                "values differ for {text:?}"
            );
            let mut compact = Vec::new();
            json::write(&mut compact, &ours, false).unwrap();
            assert_eq!(compact, expected, "compact text differs for {text:?}");
            let mut pretty = Vec::new();
            json::write(&mut pretty, &ours, true).unwrap();
            assert_eq!(
                pretty,
                serde_json::to_vec_pretty(&theirs).unwrap(),
                "pretty text differs for {text:?}"
            );
            assert_eq!(
                serde_json::to_vec(&json::deep_clone(&ours)).unwrap(),
                expected,
                "the copy differs for {text:?}"
            );
            true
        }
        (Err(_), Err(_)) => false,
        (ours, theirs) => panic!(
            "verdicts differ for {text:?}: ours {:?}, serde_json {:?}",
            ours.map(|_| ()),
            theirs.map(|_| ())
        ),
    }
}

#[test]
fn every_json_file_of_the_test_data_reads_and_writes_as_serde_json_does() {
    let Some(root) = require("llmshim-cli json reader on the shared test data") else {
        return;
    };
    let mut files = Vec::new();
    json_files(&root, &mut files);
    let mut read = 0;
    for path in &files {
        let text = fs::read_to_string(path).unwrap();
        if agree(&text) {
            read += 1;
        }
    }
    eprintln!(
        "json reader: {read} of {} test-data files read, all equal to serde_json",
        files.len()
    );
    // Every file of the shared data is valid JSON, so a reader that refused them all would be caught here.
    assert_eq!(read, files.len());
    assert!(files.len() > 1_000, "found only {} files", files.len());
}

#[test]
fn numbers_strings_and_keys_read_as_serde_json_reads_them() {
    let cases = [
        "0",
        "-0",
        "-0.0",
        "1",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1.0",
        "1e0",
        "1E+2",
        "1e-2",
        "2.2250738585072011e-308",
        "9007199254740993",
        "0.1000000000000000055511151231257827021181583404541015625",
        "123456789012345678901234567890",
        "1.7976931348623157e308",
        "1e400",
        "-1e400",
        "1e-400",
        "4.9e-324",
        "01",
        "-",
        "1.",
        ".5",
        "+1",
        "1e",
        "1e+",
        "0x10",
        "NaN",
        "Infinity",
        "[1,-]",
        "[1-2]",
        "[1.5e3,2]",
        r#""""#,
        r#""a\"b\\c\/d\b\f\n\r\t""#,
        r#""\u00e9\ud83d\ude00""#,
        r#""\ud83d""#,
        r#""\ude00""#,
        r#""\u12""#,
        r#""\x""#,
        "\"a\tb\"",
        "\"a\nb\"",
        "\"é 😀\"",
        "\"unterminated",
        r#"{"a":1,"a":2}"#,
        r#"{"b":1,"a":2,"b":3}"#,
        r#"{"a":{"x":[1]},"a":{"y":2}}"#,
        r#"{"":0}"#,
        r#"{"a" : 1 , "b" : [ ] , "c" : { } }"#,
        " \t\r\n[ 1 , 2 ] \n",
        "[]",
        "{}",
        "[[],{},[[]]]",
        "",
        " ",
        "[",
        "]",
        "[1,]",
        "[,1]",
        "[1 2]",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\":1,}",
        "{,}",
        "{1:2}",
        "{\"a\" 1}",
        "[1]x",
        "[1][2]",
        "1 2",
        "tru",
        "true",
        "false",
        "null",
        "nulls",
        "[true,false,null]",
        "\u{feff}[]",
        "[\"\u{7f}\"]",
    ];
    let mut read = 0;
    for case in cases {
        if agree(case) {
            read += 1;
        }
    }
    // The list mixes documents both readers accept with ones both refuse; `agree` fails on any disagreement.
    assert!(
        read > 30 && read < cases.len(),
        "read {read} of {}",
        cases.len()
    );
}

#[test]
fn errors_say_where() {
    let err = json::from_str("{\"a\": [1,\n  2,\n  x]}").unwrap_err();
    assert_eq!((err.line, err.column), (3, 3));
    assert_eq!(err.to_string(), "expected value at line 3 column 3");
    let err = json::from_str("[\"ok\", \"\\q\"]").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.message.contains("invalid escape"), "{err}");
    let err = json::from_str("[1, 2.]").unwrap_err();
    assert_eq!(err.message, "invalid number");
    assert_eq!(
        json::from_str("[1] [").unwrap_err().message,
        "trailing characters"
    );
    assert_eq!(
        json::from_str("[1").unwrap_err().message,
        "eof while parsing a list"
    );
}

/// Text that is often JSON and often nearly JSON: pieces of JSON glued together.
fn jsonish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just(",".to_owned()),
        Just(":".to_owned()),
        Just(" ".to_owned()),
        Just("\n".to_owned()),
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("\"k\"".to_owned()),
        Just("\"\\u00e9\\n\"".to_owned()),
        "-?[0-9]{1,22}(\\.[0-9]{0,20})?([eE][+-]?[0-9]{1,4})?",
        "\"[a-z\\\\\"]{0,4}\"",
    ];
    prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

/// A random JSON value, rendered by `serde_json`, so that every generated text is valid.
fn valid_json() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((".{0,4}", inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
    .prop_map(|v| serde_json::to_string_pretty(&v).unwrap())
}

proptest! {
    #[test]
    fn generated_text_gets_the_same_verdict_and_value(text in jsonish()) {
        agree(&text);
    }

    #[test]
    fn generated_documents_read_and_write_as_serde_json_does(text in valid_json()) {
        prop_assert!(agree(&text));
        let compact = serde_json::to_string(&serde_json::from_str::<Value>(&text).unwrap()).unwrap();
        prop_assert!(agree(&compact));
    }
}

#[test]
fn a_hundred_thousand_levels_read_write_copy_and_drop_on_a_small_stack() {
    thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let levels = 100_000;
            let arrays = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
            let objects = format!("{}1{}", "{\"a\":".repeat(levels), "}".repeat(levels));
            for text in [arrays, objects] {
                let value = json::from_str(&text).unwrap();
                let copy = json::deep_clone(&value);
                let mut out = Vec::new();
                json::write(&mut out, &copy, false).unwrap();
                assert_eq!(out, text.as_bytes());
                let mut pretty = Vec::new();
                json::write(&mut pretty, &json::from_str("[[[1]]]").unwrap(), true).unwrap();
                assert_eq!(pretty, b"[\n  [\n    [\n      1\n    ]\n  ]\n]");
                json::dismantle(value);
                json::dismantle(copy);
                // A deep document cut short, or followed by garbage, is refused and its partial tree freed.
                assert!(json::from_str(&text[..text.len() - 1]).is_err());
                assert!(json::from_str(&format!("{text}x")).is_err());
                let deep_duplicate = format!("{{\"k\":{text},\"k\":0}}");
                assert_eq!(
                    json::from_str(&deep_duplicate).unwrap(),
                    serde_json::json!({"k": 0})
                );
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
