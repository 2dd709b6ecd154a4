//! Fuzz target `batch_line`: the command line's batch runner answers every non-blank line of any input with exactly
//! one JSON line, and a line that parses is answered by the facade without a panic.
//!
//! The input is the batch text itself: JSON lines, invalid UTF-8, blank lines and garbage included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use llmshim::schema::EnvFlags;
use llmshim_cli::batch::Runner;
use llmshim_cli::batch::line::parse_line;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let runner = Runner::new(EnvFlags::default());
    let (mut out, mut diag) = (Vec::new(), Vec::new());
    let Ok(summary) = runner.run(&mut &data[..], &mut out, &mut diag) else {
        return;
    };
    let text = String::from_utf8(out).expect("the answers are UTF-8");
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(
        answers.len(),
        summary.lines,
        "one answer per non-blank line"
    );
    let mut errors = 0;
    for answer in answers {
        let value: Value = serde_json::from_str(answer).expect("every answer is JSON");
        if value.get("error").is_some() {
            errors += 1;
        } else {
            assert!(
                value.get("output").is_some() && value.get("report").is_some(),
                "{answer}"
            );
        }
    }
    assert_eq!(errors, summary.errors);
    if let Ok(line) = std::str::from_utf8(data)
        && let Err(err) = parse_line(line, EnvFlags::default())
    {
        assert!(!err.message.is_empty());
    }
});
