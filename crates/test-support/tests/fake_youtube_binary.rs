//! The `fake-youtube` binary the browser runs start (scripts/e2e.sh): it announces its base URL
//! and answers the Data API there. Being an integration test of this package also makes the
//! workspace's test build build the binary, so the browser runs use it without a build of
//! their own (whose features would differ, and rebuild half the dependencies).

use std::io::BufRead as _;
use std::process::{Command, Stdio};

#[tokio::test]
async fn the_binary_announces_its_base_and_serves_the_demo_channel() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fake-youtube"))
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("fake-youtube starts");
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("FAKE_YOUTUBE_BASE=")
        .unwrap_or_else(|| panic!("announced {line:?}"))
        .to_owned();
    let answer = reqwest::get(format!(
        "{base}/channels?part=snippet&forHandle=@scribevault-demo&key=any"
    ))
    .await
    .expect("the fake answers");
    let status = answer.status();
    let body = answer.text().await.unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(status.is_success(), "{status}: {body}");
    assert!(body.contains("@scribevault-demo"), "{body}");
}
