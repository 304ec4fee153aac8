//! Serves the YouTube Data API fake with demo data, for browser end-to-end runs.
//!
//! `fake-youtube [--port N]` (default 0: any free port) prints one line,
//! `FAKE_YOUTUBE_BASE=<base url>`, and serves until killed. Any API key is accepted.

use std::io::Write as _;

use scribevault_test_support::youtube::FakeYouTube;

fn port_from_args() -> Result<u16, String> {
    let mut args = std::env::args().skip(1);
    let mut port = 0;
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--port" => args.next().ok_or("--port needs a value")?,
            other => match other.strip_prefix("--port=") {
                Some(value) => value.to_string(),
                None => {
                    return Err(format!(
                        "unknown argument {other:?}; usage: fake-youtube [--port N]"
                    ));
                }
            },
        };
        port = value
            .parse()
            .map_err(|_| format!("--port {value:?} is not a port number"))?;
    }
    Ok(port)
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let port = match port_from_args() {
        Ok(port) => port,
        Err(message) => {
            eprintln!("fake-youtube: {message}");
            return std::process::ExitCode::from(2);
        }
    };
    let youtube = FakeYouTube::start_on_port(port).await;
    youtube.seed_demo();
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "FAKE_YOUTUBE_BASE={}", youtube.base_url())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return std::process::ExitCode::FAILURE;
    }
    drop(stdout);
    // Serve until killed (SIGTERM) or interrupted.
    let _ = tokio::signal::ctrl_c().await;
    std::process::ExitCode::SUCCESS
}
