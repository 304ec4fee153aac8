//! Speech made on the spot, for tests of languages the shared samples (all English) do not
//! have: a sentence spoken by espeak-ng in one of its voices (`de`, `es`, `en`, …), encoded to
//! MP3 by ffmpeg as an upload would be. `scripts/install-test-tools.sh` installs espeak-ng and
//! `scripts/install-media-tools.sh` ffmpeg. espeak-ng's voices are robotic but clear: Whisper's
//! multilingual base model names their language and understands most words.

use std::path::Path;
use std::process::Command;

/// `text` spoken by espeak-ng's voice `voice` at 150 words a minute, as an MP3 (mono,
/// 22.05 kHz, 64 kbit/s). `None` (after a loud message) when espeak-ng or ffmpeg is missing
/// outside CI.
///
/// # Panics
/// Under CI when either is missing, or when either fails.
#[must_use]
pub fn spoken_mp3(test_name: &str, voice: &str, text: &str) -> Option<Vec<u8>> {
    let runs = |program: &str, arg: &str| {
        Command::new(program)
            .arg(arg)
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if !runs("espeak-ng", "--version") || !runs("ffmpeg", "-version") {
        let message = format!(
            "{test_name}: espeak-ng or ffmpeg is missing; run scripts/install-test-tools.sh and scripts/install-media-tools.sh"
        );
        assert!(!crate::in_ci(), "{message} (CI=true: this test must run)");
        eprintln!("\n*** SKIPPED *** {message}\n");
        return None;
    }
    let dir = tempfile::tempdir().expect("a temporary directory for the speech");
    let wav = dir.path().join("speech.wav");
    let mp3 = dir.path().join("speech.mp3");
    run(Command::new("espeak-ng")
        .args(["-v", voice, "-s", "150", "-w"])
        .arg(&wav)
        .arg(text));
    run(Command::new("ffmpeg")
        .args(["-loglevel", "error", "-y", "-i"])
        .arg(&wav)
        .args(["-ar", "22050", "-ac", "1", "-b:a", "64k"])
        .arg(&mp3));
    Some(read(&mp3))
}

fn run(command: &mut Command) {
    let output = command.output().expect("start the speech tool");
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("read the spoken MP3")
}
