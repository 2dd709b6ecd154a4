//! Facts about the machine a measurement ran on, for the sentences `bench` and `reliability` write.

use std::fs;
use std::process::Command;

/// What `cmd args` prints on stdout, trimmed; empty when it cannot run.
pub(crate) fn output(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// The CPU's model name from `/proc/cpuinfo`, when it is there.
pub(crate) fn cpu_model() -> Option<String> {
    let text = fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("model name"))?;
    line.split(':').nth(1).map(|m| m.trim().to_owned())
}

/// How many threads can run at once (0 when unknown).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(0, std::num::NonZero::get)
}

/// The one-minute load average from `/proc/loadavg`, when it is there: on a shared machine, the other work that a
/// timing competed with.
pub(crate) fn load_average() -> Option<String> {
    let text = fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next().map(str::to_owned)
}
