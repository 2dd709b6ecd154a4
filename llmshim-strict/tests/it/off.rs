//! Without effective strict, neither pass changes anything or records anything.

use serde_json::json;

use crate::support::{changes, run, run_with_split};
use llmshim_core::Budget;
use llmshim_core::walk::Settings;

#[test]
fn nothing_happens_when_strict_is_off() {
    let inputs = [
        json!({"type":"object","properties":{"city":{"type":"string","description":"City name"},"units":{"type":"string","enum":["c","f"],"default":"c"}},"required":["city"]}),
        json!({"type":"object","properties":{"note":{"type":["string","null"]}},"additionalProperties":{"type":"string"}}),
        json!({"type":"object","properties":{"n":{"type":"integer","description":"  Retries (default: 3)","default":5,"maximum":9}},"required":["n"]}),
        json!({"type":"object","required":["missing"],"x-vendor":1,"patternProperties":{"^a":{"type":"string"}}}),
        json!({"type":"object","properties":{"free":true,"xs":{"type":"array"}}}),
    ];
    let settings = Settings::new(Budget::default()).with_diagnostics(true);
    for input in inputs {
        let mut schema = input.clone();
        let walked = run(&mut schema, &settings).expect("walks");
        assert_eq!(
            serde_json::to_string(&schema).expect("serializes"),
            serde_json::to_string(&input).expect("serializes")
        );
        assert_eq!(changes(&walked), []);

        let mut split = input.clone();
        run_with_split(&mut split, &settings).expect("walks");
        assert_eq!(split, input);
    }
}
