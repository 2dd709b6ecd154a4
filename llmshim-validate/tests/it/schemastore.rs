//! SchemaStore agreement: with format assertion on, our verdict on every upstream test instance matches its label,
//! except the differences listed in `EXPECTED_DIFFERENCES`, each with a reason.
//!
//! Schemas whose references leave the document cannot compile, since nothing is fetched; they are listed in
//! `NEEDS_EXTERNAL`, and their instances are counted and reported instead of judged.

use std::path::Path;

use llmshim_benches::testdata::{self, SchemaStoreEntry};
use llmshim_benches::xfail::{Run, XFail};
use llmshim_validate::{Error, compile};
use serde_json::Value;

/// `function.json` is a draft-04 schema whose `sqlBinding` alternatives tell `sql` outputs apart with `const`, a
/// keyword draft-04 does not have; read as draft-04 (as the `jsonschema` crate reads it too), a third alternative
/// matches everything, so every binding matches two branches of the inner `oneOf`.
const DRAFT4_CONST: &str =
    "draft-04 has no const, so sqlBinding matches every binding and the oneOf matches twice";

/// The upstream checker does not assert formats; RFC 3339 requires the offset.
const DATE_TIME_OFFSET: &str =
    "endTime 2018-12-14T10:00:00 has no utc offset, so it is not an rfc 3339 date-time";

const EXPECTED_DIFFERENCES: XFail = &[
    (
        "schemastore/function.json/tests/function/BlobTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/EventHubTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/ExternalFileTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/ExternalTable.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/FaceLocator.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/GenericWebHook.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/GitHubCommenter.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/GitHubWebHook.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/HttpGET(CRUD).json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/HttpPOST(CRUD).json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/HttpPUT(CRUD).json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/HttpTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/ImageResizer.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/Kusto.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/ManualTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/MySql.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/QueueTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/SasToken.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/ScheduledMail.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/SendGrid.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/ServiceBusQueueTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/ServiceBusTopicTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/Sql.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/TimerTrigger.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/function.json/tests/function/function.json",
        DRAFT4_CONST,
    ),
    (
        "schemastore/webjob-publish-settings.json/tests/webjob-publish-settings/scheduled.json",
        DATE_TIME_OFFSET,
    ),
];

/// Schemas that refer to documents outside themselves (other SchemaStore schemas, mostly).
const NEEDS_EXTERNAL: &[&str] = &[
    "block.json",
    "cargo.json",
    "compilerconfig.json",
    "declarative-automation-bundles.json",
    "eslintrc.json",
    "feed.json",
    "geojson.json",
    "openapi-3.X.json",
    "package.json",
    "pyproject.json",
    "renovate.json",
    "theme-v1.json",
    "tsoa.json",
];

fn read_instance(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let is_yaml = path
        .extension()
        .is_some_and(|ext| ext == "yaml" || ext == "yml");
    if is_yaml {
        serde_norway::from_str::<Value>(&text).map_err(|e| format!("{}: {e}", path.display()))
    } else {
        serde_json::from_str::<Value>(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// `schemastore/<schema>/<instance path inside the corpus>`, unique even where a valid and an invalid instance
/// share a file name.
fn instance_name(entry: &SchemaStoreEntry, path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    let inside = parts
        .iter()
        .rposition(|part| part == "schemastore")
        .map_or_else(|| parts.join("/"), |at| parts[at + 1..].join("/"));
    format!("schemastore/{}/{inside}", entry.name)
}

#[test]
fn verdicts_agree_with_upstream_labels() {
    let Some(_) = testdata::require("the SchemaStore corpus") else {
        return;
    };
    let entries = testdata::schemastore_entries();
    assert_eq!(
        entries.len(),
        80,
        "the SchemaStore corpus of the shared test data has 80 schemas"
    );
    let mut run = Run::new();
    let mut external = Vec::new();
    let mut external_instances = 0;
    for entry in &entries {
        let schema = testdata::read_json(&entry.schema).unwrap_or_else(|e| panic!("{e}"));
        let validator = match compile(&schema) {
            Ok(validator) => validator,
            Err(Error::Invalid { pointer, message })
                if message == "external schema retrieval is disabled" =>
            {
                eprintln!(
                    "{}: needs an external document at {pointer}, not fetched",
                    entry.name
                );
                external.push(entry.name.as_str());
                external_instances += entry.valid.len() + entry.invalid.len();
                continue;
            }
            Err(e) => panic!("{} does not compile: {e}", entry.name),
        };
        let labelled = entry
            .valid
            .iter()
            .map(|p| (p, true))
            .chain(entry.invalid.iter().map(|p| (p, false)));
        for (path, expected) in labelled {
            let instance = read_instance(path).unwrap_or_else(|e| panic!("corrupt test data: {e}"));
            let verdict = validator.is_valid(&instance);
            assert_eq!(
                verdict,
                validator.validate(&instance).is_ok(),
                "is_valid and validate disagree on {}",
                path.display()
            );
            run.record(instance_name(entry, path), verdict == expected);
        }
    }
    assert_eq!(
        external, NEEDS_EXTERNAL,
        "the schemas that need external documents changed"
    );
    match run.check("schemastore", EXPECTED_DIFFERENCES) {
        Ok(summary) => eprintln!(
            "suite: {summary}; {} schemas ({external_instances} instances) need external documents",
            external.len()
        ),
        Err(report) => panic!("{report}"),
    }
}
