//! Library-level tests of the option builder: command-line flags over the target defaults.

use clap::Parser;
use llmshim::schema::{Budget, Env, Keywords, Nullable, Options, Target};
use llmshim_cli::args::{Cli, Command, OptionArgs};
use llmshim_cli::options::{parse_keywords, parse_nullable, parse_target};

fn parsed(args: &[&str]) -> OptionArgs {
    let cli = Cli::try_parse_from(
        ["llmshim", "normalize", "--target", "chat"]
            .iter()
            .chain(args),
    )
    .unwrap();
    match cli.command {
        Command::Normalize(a) => a.options,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn no_flags_give_the_target_defaults() {
    for target in Target::BUILTIN {
        assert_eq!(
            OptionArgs::default().options(target),
            Options::for_target(target),
            "{target}"
        );
    }
    assert_eq!(parsed(&[]).env(), Env::Process);
}

#[test]
fn every_flag_overrides_its_field() {
    let flags = parsed(&[
        "--strict",
        "--nullable",
        "MARKER",
        "--rewrite-one-of",
        "true",
        "--strip-lookarounds",
        "true",
        "--bypass",
        "--max-depth",
        "5",
        "--max-nodes",
        "6",
        "--max-literal-bytes",
        "7",
        "--diagnostics",
        "--keywords",
        "Conservative",
        "--pretty",
    ]);
    let expected = Options::for_target(Target::OpenAiChat)
        .with_strict(true)
        .with_nullable(Nullable::Marker)
        .with_rewrite_one_of(true)
        .with_strip_lookarounds(true)
        .with_bypass(true)
        .with_budget(
            Budget::default()
                .with_max_depth(5)
                .with_max_nodes(6)
                .with_max_literal_bytes(7),
        )
        .with_diagnostics(true)
        .with_keywords(Keywords::Conservative);
    assert_eq!(flags.options(Target::OpenAiChat), expected);
    assert!(flags.pretty);
    // Turning a target's default off.
    let off = parsed(&["--rewrite-one-of", "false", "--strip-lookarounds", "false"])
        .options(Target::OpenAiResponses);
    assert!(!off.rewrite_one_of && !off.strip_lookarounds);
}

#[test]
fn no_cache_fixes_the_flags_with_the_cache_off() {
    match parsed(&["--no-cache"]).env() {
        Env::Fixed(flags) => assert!(flags.no_schema_cache),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn names_parse_as_the_contract_says() {
    for (text, nullable) in [
        ("preserve", Nullable::Preserve),
        ("Marker", Nullable::Marker),
        ("REMOVE", Nullable::Remove),
    ] {
        assert_eq!(parse_nullable(text), Ok(nullable));
    }
    assert!(parse_nullable("").is_err());
    for target in Target::BUILTIN {
        assert_eq!(parse_target(target.name()), Ok(target));
    }
    for (text, keywords) in [
        ("current", Keywords::Current),
        ("CONSERVATIVE", Keywords::Conservative),
    ] {
        assert_eq!(parse_keywords(text), Ok(keywords));
    }
    assert!(parse_keywords("narrow").is_err());
    assert!(parse_target("Chat").is_err());
    assert!(parse_target("openai").is_err());
}
