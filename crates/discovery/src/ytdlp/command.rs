//! The `yt-dlp` command as a child process: the flags, reading both pipes, the time limit, and
//! killing its whole process group (yt-dlp starts ffmpeg) when the job stops, times out or is
//! dropped, so no process outlives its job. A service killed outright (SIGKILL, out of memory)
//! runs no drop: yt-dlp is started under `setpriv --pdeathsig KILL`, so the kernel kills it
//! when its parent dies (the chaos harness found it downloading on, orphaned, after a
//! `kill -9` of discovery; `docs/reliability.md`, "Chaos").

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use async_trait::async_trait;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::failure::classify;
use super::progress::{OutputLine, read_line};
use super::{AudioFetcher, FetchFailure, FetchedAudio};

/// stderr lines kept to explain a failure.
const STDERR_LINES_KEPT: usize = 50;
/// How long the pipes may stay open after the process ended (a grandchild holding them).
const PIPE_DRAIN_LIMIT: Duration = Duration::from_secs(2);

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
}

/// yt-dlp, run once per video.
#[derive(Debug, Clone)]
pub struct YtDlp {
    options: YtDlpOptions,
    /// `setpriv` (util-linux) and yt-dlp's path, when both are found: yt-dlp then runs as
    /// `setpriv --pdeathsig KILL -- <path> …`. The workspace forbids `unsafe`, and so a
    /// `pre_exec` that calls `prctl(PR_SET_PDEATHSIG)` itself; setpriv does that and execs.
    /// Without setpriv (not Linux) yt-dlp runs as before and only a clean stop kills it.
    death_signal_launcher: Option<(PathBuf, PathBuf)>,
}

/// `program` as a file: a path as given, a bare name looked up on `PATH`.
fn resolve(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return path.is_file().then_some(path);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// The process group of a running yt-dlp: killed when dropped unless it already ended, so a
/// cancelled future (a stopped service, an aborted task) leaves no process behind.
struct ProcessGroup {
    id: Option<Pid>,
}

impl ProcessGroup {
    fn kill(&mut self) {
        if let Some(id) = self.id.take() {
            // ESRCH (already gone) is fine.
            let _ = killpg(id, Signal::SIGKILL);
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}

impl YtDlp {
    #[must_use]
    pub fn new(options: YtDlpOptions) -> Self {
        // A missing yt-dlp is left to the spawn, which reports it as not installed.
        let death_signal_launcher = if cfg!(target_os = "linux") {
            resolve("setpriv").zip(resolve(&options.program))
        } else {
            None
        };
        Self {
            options,
            death_signal_launcher,
        }
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
        args.push(self.options.watch_url.replace("{id}", video_id).into());
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
        let mut command = match &self.death_signal_launcher {
            Some((setpriv, program)) => {
                let mut command = tokio::process::Command::new(setpriv);
                command.args(["--pdeathsig", "KILL", "--"]).arg(program);
                command
            }
            None => tokio::process::Command::new(&self.options.program),
        };
        command
            .args(self.arguments(video_id, work_dir))
            .current_dir(work_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        let mut child = command.spawn().map_err(|error| {
            if error.kind() == std::io::ErrorKind::NotFound {
                FetchFailure::NotInstalled(format!(
                    "yt-dlp is not installed (no {:?} found): install it (pip install yt-dlp; `make run` puts one in a venv) or set SCRIBEVAULT_YTDLP_PATH to its path",
                    self.options.program
                ))
            } else {
                FetchFailure::Io(format!("cannot start {}: {error}", self.options.program))
            }
        })?;
        let mut group = ProcessGroup {
            id: child
                .id()
                .and_then(|id| i32::try_from(id).ok())
                .map(Pid::from_raw),
        };
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let progress = progress.clone();
        let stdout_reader = tokio::spawn(async move {
            let mut file: Option<String> = None;
            if let Some(stdout) = stdout {
                let mut lines = BufReader::new(stdout).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    match read_line(&line) {
                        OutputLine::Downloading(percent) => {
                            progress.send_if_modified(|current| {
                                let changed = *current != percent;
                                *current = percent;
                                changed
                            });
                        }
                        OutputLine::File(path) => file = Some(path),
                        OutputLine::Other => {}
                    }
                }
            }
            file
        });
        let stderr_reader = tokio::spawn(async move {
            let mut kept: Vec<String> = Vec::new();
            if let Some(stderr) = stderr {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    if kept.len() == STDERR_LINES_KEPT {
                        kept.remove(0);
                    }
                    kept.push(line);
                }
            }
            kept
        });
        let status = tokio::select! {
            status = child.wait() => status.map_err(|error| FetchFailure::Io(error.to_string()))?,
            () = stop.cancelled() => {
                group.kill();
                let _ = child.wait().await;
                return Err(FetchFailure::Stopped);
            }
            () = tokio::time::sleep(self.options.timeout) => {
                group.kill();
                let _ = child.wait().await;
                return Err(FetchFailure::TimedOut(self.options.timeout.as_secs()));
            }
        };
        // The leader is gone; anything it left in its group goes with it.
        group.kill();
        let file = tokio::time::timeout(PIPE_DRAIN_LIMIT, stdout_reader)
            .await
            .ok()
            .and_then(Result::ok)
            .flatten();
        let stderr = tokio::time::timeout(PIPE_DRAIN_LIMIT, stderr_reader)
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        if status.success() {
            let path = file.map(PathBuf::from).ok_or_else(|| {
                FetchFailure::Io("yt-dlp finished without naming the file it wrote".to_owned())
            })?;
            if path.extension().is_none_or(|extension| extension != "mp3") {
                return Err(FetchFailure::Refused(format!(
                    "yt-dlp produced {} instead of an MP3",
                    path.file_name()
                        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
                )));
            }
            return Ok(FetchedAudio { path });
        }
        Err(classify(status.code(), &stderr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_comes_last_after_a_double_dash_and_the_settings_are_passed() {
        let ytdlp = YtDlp::new(YtDlpOptions {
            program: "yt-dlp".into(),
            watch_url: "http://127.0.0.1:9/media/{id}.mp3".into(),
            retries: 4,
            rate_limit: Some("50K".into()),
            timeout: Duration::from_secs(60),
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
