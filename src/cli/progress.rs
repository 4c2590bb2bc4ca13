//! Progress bars for the long headless commands (`simulate`, `soak`, `replay --verify`): shown
//! on a terminal only, on stderr, and cleared when done, so what is printed on stdout, and
//! everything printed when piped or with `--json`, stays byte-for-byte the same.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting `len` steps of `what` ("battles", "files"), or a hidden one when `quiet`
/// (machine-readable output was asked for) or stderr is not a terminal (CI logs, pipes), so
/// that a redirected run prints nothing it did not print before.
pub fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{bar:32}} {{pos}}/{{len}} {what} ({{per_sec}}, {{eta}} left)");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_is_hidden_when_quiet_so_json_output_is_unchanged() {
        let b = bar(10, "battles", true);
        assert!(b.is_hidden());
        b.inc(3);
        assert_eq!(b.position(), 3, "a hidden bar still counts");
    }
}
