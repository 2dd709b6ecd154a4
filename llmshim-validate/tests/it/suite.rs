//! JSON-Schema-Test-Suite conformance: every case of draft2020-12 and draft7 (with `optional/`) gets the suite's
//! verdict, except the cases listed in `XFAIL_2020` and `XFAIL_7` with their reasons.
//!
//! The suite's `remotes/` are registered under `http://localhost:1234/`. A schema that fails to compile counts
//! as a failure of each of its cases. The `format.json` files test that formats are annotations by default, so
//! they run with `assert_formats` off; every other file runs with the default options.

use llmshim_benches::testdata;
use llmshim_benches::xfail::{Run, XFail};
use llmshim_validate::{Draft, Options, Resources, compile_with};

/// The official meta-schemas are not in the suite's `remotes/`, and nothing is ever fetched.
const META_2020: &str = "refers to https://json-schema.org/draft/2020-12/schema, which is neither in the suite's \
                         remotes/ nor fetched: compiling fails with external schema retrieval is disabled";
const META_7: &str = "refers to http://json-schema.org/draft-07/schema#, which is neither in the suite's remotes/ \
                      nor fetched: compiling fails with external schema retrieval is disabled";

const XFAIL_2020: XFail = &[
    (
        "draft2020-12/defs.json/validate definition against metaschema/invalid definition schema",
        META_2020,
    ),
    (
        "draft2020-12/defs.json/validate definition against metaschema/valid definition schema",
        META_2020,
    ),
    (
        "draft2020-12/ref.json/remote ref, containing refs itself/remote ref invalid",
        META_2020,
    ),
    (
        "draft2020-12/ref.json/remote ref, containing refs itself/remote ref valid",
        META_2020,
    ),
];

const XFAIL_7: XFail = &[
    (
        "draft7/definitions.json/validate definition against metaschema/invalid definition schema",
        META_7,
    ),
    (
        "draft7/definitions.json/validate definition against metaschema/valid definition schema",
        META_7,
    ),
    (
        "draft7/ref.json/remote ref, containing refs itself/remote ref invalid",
        META_7,
    ),
    (
        "draft7/ref.json/remote ref, containing refs itself/remote ref valid",
        META_7,
    ),
];

fn remotes() -> Resources {
    let mut resources = Resources::new();
    for (uri, doc) in testdata::suite_remotes() {
        resources.insert(uri, doc);
    }
    resources
}

fn run_draft(folder: &str, draft: Option<Draft>, xfail: XFail) {
    let Some(_) = testdata::require("the JSON-Schema-Test-Suite") else {
        return;
    };
    let resources = remotes();
    let files = testdata::suite_files_with_optional(folder, None);
    assert!(files.len() > 40, "too few suite files for {folder}");
    let mut run = Run::new();
    let mut notes = Vec::new();
    for path in &files {
        let file = testdata::suite_name(path);
        let groups = testdata::read_suite(path).unwrap_or_else(|e| panic!("{e}"));
        let mut options = Options::default();
        if let Some(draft) = draft {
            options = options.with_draft(draft);
        }
        if file.ends_with("/format.json") {
            options = options.with_assert_formats(false);
        }
        for group in &groups {
            let compiled = compile_with(&group.schema, &resources, &options);
            if let Err(e) = &compiled {
                notes.push(format!(
                    "{file}/{}: does not compile: {e}",
                    group.description
                ));
            }
            for case in &group.tests {
                let name = testdata::case_name(&file, group, case);
                let passed = compiled.as_ref().is_ok_and(|v| {
                    let verdict = v.is_valid(&case.data);
                    let detailed = v.validate(&case.data).is_ok();
                    assert_eq!(
                        verdict, detailed,
                        "is_valid and validate disagree on {name}"
                    );
                    verdict == case.valid
                });
                run.record(name, passed);
            }
        }
    }
    let summary = run.check(folder, xfail);
    match summary {
        Ok(summary) => eprintln!("suite: {summary}"),
        Err(report) => {
            for note in &notes {
                eprintln!("{note}");
            }
            panic!("{report}");
        }
    }
}

#[test]
fn draft2020_12() {
    // Every 2020-12 case names its dialect in `$schema`, some through a custom meta-schema.
    run_draft("draft2020-12", None, XFAIL_2020);
}

#[test]
fn draft7() {
    // Draft-7 cases carry no `$schema`, so the draft is chosen by option.
    run_draft("draft7", Some(Draft::Draft7), XFAIL_7);
}

/// Every instance of the suite, read as a schema, compiles or fails with an error, and validating the other
/// instances of its group never panics: strangers' schemas are arbitrary JSON.
#[test]
fn suite_instances_as_schemas_never_panic() {
    let Some(_) = testdata::require("the JSON-Schema-Test-Suite") else {
        return;
    };
    let resources = remotes();
    let mut compiled = 0usize;
    let mut refused = 0usize;
    for folder in ["draft2020-12", "draft7"] {
        for path in testdata::suite_files_with_optional(folder, None) {
            let groups = testdata::read_suite(&path).unwrap_or_else(|e| panic!("{e}"));
            for group in &groups {
                for case in &group.tests {
                    match compile_with(&case.data, &resources, &Options::default()) {
                        Ok(validator) => {
                            compiled += 1;
                            for other in &group.tests {
                                let lines = llmshim_validate::errors(&validator, &other.data);
                                assert_eq!(lines.is_empty(), validator.is_valid(&other.data));
                            }
                        }
                        Err(_) => refused += 1,
                    }
                }
            }
        }
    }
    eprintln!("suite: suite instances as schemas: {compiled} compiled, {refused} refused");
    assert!(compiled > 100 && refused > 100);
}
