//! One yt-dlp process: started in its own process group (yt-dlp starts ffmpeg) under
//! `setpriv --pdeathsig KILL` and `prlimit`, with a cleared environment, both pipes read, stopped on a cancel or a deadline, and its whole
//! group killed when it ends, stops, times out or is dropped, so no process outlives its job. A
//! service killed outright (SIGKILL, out of memory) runs no drop: the death signal makes the
//! kernel kill yt-dlp when its parent dies (the chaos harness found it downloading on,
//! orphaned, after a `kill -9` of discovery; `docs/reliability.md`, "Chaos"). Every yt-dlp run
//! (an audio download, a caption listing, a caption fetch) goes through here.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use scribevault_core::child_limits::{ChildLimits, clear_environment};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio_util::sync::CancellationToken;

use super::FetchFailure;

/// stderr lines kept to explain a failure.
const STDERR_LINES_KEPT: usize = 50;
/// How long the pipes may stay open after the process ended (a grandchild holding them).
const PIPE_DRAIN_LIMIT: Duration = Duration::from_secs(2);

/// `program` as a file: a path as given, a bare name looked up on `PATH`.
pub(super) fn resolve(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return path.is_file().then_some(path);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// yt-dlp (Python) and the ffmpeg it starts share these: room for a long recording's
/// conversion, not for a decoder that would take the machine; the CPU time is a download's
/// deadline on one core.
const YTDLP_LIMITS: ChildLimits = ChildLimits {
    address_space_bytes: 4 << 30,
    cpu_seconds: 3600,
};

/// How yt-dlp is started.
#[derive(Debug, Clone)]
pub(super) struct Launcher {
    program: String,
    /// yt-dlp's path when it is found: it then runs under [`YTDLP_LIMITS`] and dies with the
    /// service (`setpriv --pdeathsig KILL -- prlimit … -- <path> …`, `ChildLimits`). A yt-dlp
    /// not found is left to the spawn, which reports it as not installed.
    resolved: Option<PathBuf>,
}

impl Launcher {
    pub(super) fn new(program: &str) -> Self {
        Self {
            program: program.to_owned(),
            resolved: resolve(program),
        }
    }

    /// The command, with none of the service's secrets in its environment.
    fn command(&self) -> tokio::process::Command {
        let mut command = match &self.resolved {
            Some(path) => {
                let wrapped = YTDLP_LIMITS.wrap(path);
                let mut command = tokio::process::Command::new(wrapped.program);
                command.args(wrapped.leading_args);
                command
            }
            None => tokio::process::Command::new(&self.program),
        };
        clear_environment(command.as_std_mut());
        command
    }
}

/// What a run does with each stdout line (progress, a file name, a JSON document).
pub(super) trait OutputLines: Send + 'static {
    fn line(&mut self, line: String);
}

/// A process that ran to its end.
pub(super) struct Finished<S> {
    pub status: ExitStatus,
    /// The stdout reader's state; `None` if the pipe stayed open past the drain limit.
    pub stdout: Option<S>,
    /// The last stderr lines.
    pub stderr: Vec<String>,
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

/// Runs yt-dlp with `args` in `work_dir` until it ends, `stop` fires or `timeout` passes,
/// giving each stdout line to `stdout`.
///
/// # Errors
/// yt-dlp could not be started, was stopped, or ran out of time (its group is killed first).
pub(super) async fn run<S: OutputLines>(
    launcher: &Launcher,
    args: Vec<OsString>,
    work_dir: &Path,
    mut stdout_lines: S,
    stop: &CancellationToken,
    timeout: Duration,
) -> Result<Finished<S>, FetchFailure> {
    let mut command = launcher.command();
    command
        .args(args)
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
                launcher.program
            ))
        } else {
            FetchFailure::Io(format!("cannot start {}: {error}", launcher.program))
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
    let stdout_reader = tokio::spawn(async move {
        if let Some(stdout) = stdout {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                stdout_lines.line(line);
            }
        }
        stdout_lines
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
        () = tokio::time::sleep(timeout) => {
            group.kill();
            let _ = child.wait().await;
            return Err(FetchFailure::TimedOut(timeout.as_secs()));
        }
    };
    // The leader is gone; anything it left in its group goes with it.
    group.kill();
    let stdout = tokio::time::timeout(PIPE_DRAIN_LIMIT, stdout_reader)
        .await
        .ok()
        .and_then(Result::ok);
    let stderr = tokio::time::timeout(PIPE_DRAIN_LIMIT, stderr_reader)
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    Ok(Finished {
        status,
        stdout,
        stderr,
    })
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    struct Lines(Vec<String>);

    impl OutputLines for Lines {
        fn line(&mut self, line: String) {
            self.0.push(line);
        }
    }

    /// yt-dlp runs on hostile pages: it must see neither the service's keys nor unlimited
    /// memory. The fake prints its environment and its limits as yt-dlp would see them.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn ytdlp_runs_limited_and_without_the_services_environment() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("yt-dlp");
        std::fs::write(
            &script,
            "#!/bin/sh\nenv\necho \"limits $(ulimit -v) $(ulimit -t)\"\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        // The test process has cargo's variables, as a service has its keys.
        assert!(std::env::var_os("CARGO_PKG_NAME").is_some());
        let launcher = Launcher::new(script.to_str().unwrap());
        let finished = run(
            &launcher,
            Vec::new(),
            dir.path(),
            Lines(Vec::new()),
            &CancellationToken::new(),
            Duration::from_secs(30),
        )
        .await
        .unwrap();
        assert!(finished.status.success(), "{:?}", finished.stderr);
        let lines = finished.stdout.unwrap().0;
        let names: Vec<&str> = lines
            .iter()
            .filter_map(|line| line.split_once('=').map(|(name, _)| name))
            .collect();
        assert!(names.contains(&"PATH"), "{lines:?}");
        assert!(!names.contains(&"CARGO_PKG_NAME"), "{lines:?}");
        if Path::new("/usr/bin/prlimit").is_file() && Path::new("/usr/bin/setpriv").is_file() {
            let kib = YTDLP_LIMITS.address_space_bytes / 1024;
            let expected = format!("limits {kib} {}", YTDLP_LIMITS.cpu_seconds);
            assert!(lines.contains(&expected), "{lines:?}");
        }
    }
}
