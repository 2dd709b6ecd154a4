//! RFC 6901 JSON Pointers: escaping, parsing and building.

use llmshim_core::Pointer;
use llmshim_core::pointer::{push_token, unescape};

#[test]
fn push_token_escapes_tilde_before_slash() {
    let mut buf = String::new();
    push_token(&mut buf, "properties");
    push_token(&mut buf, "a/b~c");
    push_token(&mut buf, "~1");
    push_token(&mut buf, "");
    push_token(&mut buf, "é ü");
    assert_eq!(buf, "/properties/a~1b~0c/~01//é ü");
}

#[test]
fn unescape_replaces_tilde_one_first() {
    assert_eq!(unescape("a~1b~0c"), "a/b~c");
    assert_eq!(unescape("~01"), "~1");
    assert_eq!(unescape("~10"), "/0");
    assert_eq!(unescape("plain"), "plain");
}

#[test]
fn the_root_is_the_empty_string() {
    let root = Pointer::root();
    assert_eq!(root.as_str(), "");
    assert_eq!(root, Pointer::default());
    assert!(root.segments().is_empty());
    assert_eq!(root.to_string(), "");
}

#[test]
fn push_join_and_index_build_escaped_pointers() {
    let mut p = Pointer::root();
    p.push("properties");
    p.push("a/b");
    let joined = p.join("~x");
    p.push_index(12);
    assert_eq!(p.as_str(), "/properties/a~1b/12");
    assert_eq!(joined.as_str(), "/properties/a~1b/~0x");
    assert_eq!(joined.to_string(), "/properties/a~1b/~0x");
    assert_eq!(String::from(joined.clone()), "/properties/a~1b/~0x");
    assert_eq!(joined.into_string(), "/properties/a~1b/~0x");
}

#[test]
fn parse_accepts_only_empty_or_slash_led_text() {
    assert_eq!(Pointer::parse(""), Some(Pointer::root()));
    assert_eq!(Pointer::parse("a/b"), None);
    assert_eq!(Pointer::parse("#/a"), None);
    let p = Pointer::parse("/").expect("one empty token");
    assert_eq!(p.segments(), [""]);
    let p = Pointer::parse("/$defs/a~1b/~01/0").expect("valid");
    assert_eq!(p.segments(), ["$defs", "a/b", "~1", "0"]);
}

#[test]
fn segments_round_trip_through_push() {
    let tokens = ["a/b", "~", "~1", "", "x y", "0"];
    let mut p = Pointer::root();
    for token in tokens {
        p.push(token);
    }
    assert_eq!(p.segments(), tokens);
    assert_eq!(Pointer::parse(p.as_str()), Some(p));
}

#[test]
fn pointers_order_by_their_text() {
    let a = Pointer::parse("/a").expect("valid");
    let b = Pointer::parse("/b").expect("valid");
    assert!(Pointer::root() < a && a < b);
}
