//! The `yt-dlp` command that downloads a video's audio: its flags, and reading its progress
//! and the file it wrote. The process itself (its group, its death signal, its deadline) is
//! run by `child.rs`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::child::{Launcher, OutputLines, run};
use super::failure::classify;
use super::progress::{OutputLine, read_line};
use super::{AudioFetcher, FetchFailure, FetchedAudio};

/// How yt-dlp is run.
#[derive(Debug, Clone)]
pub struct YtDlpOptions {
    /// The executable.
    pub program: String,
    /// The page of a video, with `{id}` for its id.
    pub watch_url: String,
    /// `-R` and `--fragment-retries`.
    pub retries: u32,
    /// `--limit-rate`, e.g. `2M`.
    pub rate_limit: Option<String>,
    /// Longest one video may take.
    pub timeout: Duration,
    /// `--sleep-subtitles` before a video's captions are fetched; 0 for none.
    pub captions_sleep: Duration,
}

/// yt-dlp, run once per video (and twice more for its captions, `captions.rs`).
#[derive(Debug, Clone)]
pub struct YtDlp {
    pub(super) options: YtDlpOptions,
    pub(super) launcher: Launcher,
}

/// An audio download's stdout: its progress and the file it wrote.
struct AudioOutput {
    progress: watch::Sender<u32>,
    file: Option<String>,
}

impl OutputLines for AudioOutput {
    fn line(&mut self, line: String) {
        match read_line(&line) {
            OutputLine::Downloading(percent) => {
                self.progress.send_if_modified(|current| {
                    let changed = *current != percent;
                    *current = percent;
                    changed
                });
            }
            OutputLine::File(path) => self.file = Some(path),
            OutputLine::Other => {}
        }
    }
}

impl YtDlp {
    #[must_use]
    pub fn new(options: YtDlpOptions) -> Self {
        Self {
            launcher: Launcher::new(&options.program),
            options,
        }
    }

    /// The page of `video_id`, as yt-dlp is given it.
    pub(super) fn watch_url(&self, video_id: &str) -> String {
        self.options.watch_url.replace("{id}", video_id)
    }

    /// The command line for one video (flags from `notes/dependencies-wave2.md` §3).
    #[must_use]
    pub fn arguments(&self, video_id: &str, work_dir: &Path) -> Vec<OsString> {
        let retries = self.options.retries.to_string();
        let mut args: Vec<OsString> = [
            "--ignore-config",
            "--no-cache-dir",
            "--no-playlist",
            "--no-part",
            // Audio only; an MP3 source is taken as it is (no re-encode), anything else is
            // converted by ffmpeg.
            "-f",
            "ba[acodec^=mp3]/ba/b",
            "-x",
            "--audio-format",
            "mp3",
            "--audio-quality",
            "5",
            "--newline",
            "--progress",
            "--progress-delta",
            "1",
            "--progress-template",
            "download:SVDL %(progress)j",
            "--print",
            "after_move:SVFILE %(filepath)s",
            "-o",
            "%(id)s.%(ext)s",
            "--socket-timeout",
            "30",
            "-R",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        args.push(retries.clone().into());
        args.push("--fragment-retries".into());
        args.push(retries.into());
        if let Some(rate) = &self.options.rate_limit {
            args.push("--limit-rate".into());
            args.push(rate.into());
        }
        args.push("-P".into());
        args.push(work_dir.as_os_str().to_owned());
        // Video ids may start with '-': nothing after `--` is an option.
        args.push("--".into());
        args.push(self.watch_url(video_id).into());
        args
    }
}

#[async_trait]
impl AudioFetcher for YtDlp {
    async fn fetch(
        &self,
        video_id: &str,
        work_dir: &Path,
        progress: &watch::Sender<u32>,
        stop: CancellationToken,
    ) -> Result<FetchedAudio, FetchFailure> {
        let output = AudioOutput {
            progress: progress.clone(),
            file: None,
        };
        let finished = run(
            &self.launcher,
            self.arguments(video_id, work_dir),
            work_dir,
            output,
            &stop,
            self.options.timeout,
        )
        .await?;
        if !finished.status.success() {
            return Err(classify(finished.status.code(), &finished.stderr));
        }
        let path = finished
            .stdout
            .and_then(|output| output.file)
            .map(PathBuf::from)
            .ok_or_else(|| {
                FetchFailure::Io("yt-dlp finished without naming the file it wrote".to_owned())
            })?;
        if path.extension().is_none_or(|extension| extension != "mp3") {
            return Err(FetchFailure::Refused(format!(
                "yt-dlp produced {} instead of an MP3",
                path.file_name()
                    .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
            )));
        }
        Ok(FetchedAudio { path })
    }
}

#[cfg(test)]
mod tests {
    use super::super::child::resolve;
    use super::*;

    #[test]
    fn the_url_comes_last_after_a_double_dash_and_the_settings_are_passed() {
        let ytdlp = YtDlp::new(YtDlpOptions {
            program: "yt-dlp".into(),
            watch_url: "http://127.0.0.1:9/media/{id}.mp3".into(),
            retries: 4,
            rate_limit: Some("50K".into()),
            timeout: Duration::from_secs(60),
            captions_sleep: Duration::ZERO,
        });
        let args: Vec<String> = ytdlp
            .arguments("-abcdefghij", Path::new("/tmp/job"))
            .into_iter()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        let tail = &args[args.len() - 2..];
        assert_eq!(tail, ["--", "http://127.0.0.1:9/media/-abcdefghij.mp3"]);
        let after = |flag: &str| {
            args.iter()
                .position(|arg| arg == flag)
                .map(|i| args[i + 1].clone())
        };
        assert_eq!(after("-R").as_deref(), Some("4"));
        assert_eq!(after("--fragment-retries").as_deref(), Some("4"));
        assert_eq!(after("--limit-rate").as_deref(), Some("50K"));
        assert_eq!(after("--audio-format").as_deref(), Some("mp3"));
        assert_eq!(after("-P").as_deref(), Some("/tmp/job"));
        assert!(args.contains(&"-x".to_owned()) && args.contains(&"--ignore-config".to_owned()));
    }

    /// Whether `pid` still runs (a zombie has died; nobody reaps it here).
    fn running(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
        })
    }

    /// A `kill -9` of the service runs no destructor: the kernel must end yt-dlp. The thread
    /// that started it ending without dropping anything stands in for the dying process (a
    /// death signal fires when the thread that forked the child exits).
    #[cfg(target_os = "linux")]
    #[test]
    fn ytdlp_dies_with_the_thread_that_started_it_even_when_nothing_is_dropped() {
        use std::os::unix::fs::PermissionsExt as _;
        if resolve("setpriv").is_none() {
            eprintln!("setpriv (util-linux) is missing: nothing to check");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let script = dir.path().join("yt-dlp");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho $$ > {}\nexec sleep 30\n",
                pid_file.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let ytdlp = YtDlp::new(YtDlpOptions {
            program: script.display().to_string(),
            watch_url: "http://127.0.0.1:9/{id}".into(),
            retries: 0,
            rate_limit: None,
            timeout: Duration::from_secs(60),
            captions_sleep: Duration::ZERO,
        });
        let work_dir = dir.path().to_owned();
        let pid_path = pid_file.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let (progress, _) = watch::channel(0);
            let mut fetch = Box::pin(ytdlp.fetch("v", &work_dir, &progress, CancellationToken::new()));
            runtime.block_on(async {
                tokio::select! {
                    _ = &mut fetch => panic!("the fake yt-dlp ended"),
                    () = async {
                        while std::fs::read_to_string(&pid_path).map_or(true, |pid| pid.trim().is_empty()) {
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                    } => {}
                }
            });
            // As in a SIGKILL: no destructor runs, not the fetch's nor the runtime's.
            std::mem::forget(fetch);
            std::mem::forget(runtime);
        })
        .join()
        .unwrap();
        let pid = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .to_owned();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while running(&pid) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            !running(&pid),
            "yt-dlp (pid {pid}) outlived the thread that started it"
        );
    }
}
