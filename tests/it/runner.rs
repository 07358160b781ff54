//! The scripts the test run itself is made of (tests/run.sh and what it
//! calls), run as tests/run.sh runs them.

use std::path::Path;
use std::process::Command;

/// A run's last step lists its ten slowest tests. With more tests than a
/// pipe's buffer holds, a `head` in that pipeline killed `sort` with
/// SIGPIPE and a green run exited 141 under `pipefail`: the list must be
/// printed and the status stay 0 however many tests there are.
#[test]
fn the_slowest_tests_are_listed_after_any_number_of_tests_and_the_status_stays_zero() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = String::new();
    for i in 0..5000 {
        log.push_str(&format!(
            "test module::a_test_with_a_name_as_long_as_ours_are_{i:05} ... ok <{}.{:03}s>\n",
            i / 100,
            i % 100
        ));
    }
    log.push_str("test result: ok. 5000 passed; 0 failed\n");
    std::fs::write(dir.path().join("it-0123456789abcdef.log"), &log).unwrap();
    std::fs::write(
        dir.path().join("ext-fedcba9876543210.log"),
        "test audit::slow ... ok <99.500s>\ntest audit::failed ... FAILED <0.100s>\n",
    )
    .unwrap();

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slowest.sh");
    let out = Command::new("bash")
        .args(["-c", "set -euo pipefail; \"$0\" \"$1\"; echo \"status $?\""])
        .arg(&script)
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 11, "{stdout}");
    assert_eq!(lines[0], "      99.5 s  ext  audit::slow");
    assert_eq!(lines[1], "      49.1 s  it  module::a_test_with_a_name_as_long_as_ours_are_04999");
    assert_eq!(lines[10], "status 0");
}
