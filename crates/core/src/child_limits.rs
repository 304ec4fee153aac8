//! Limits for the child processes services start on untrusted input (tesseract and pdftoppm on
//! an uploaded PDF, yt-dlp on a remote video).
//!
//! The limits are set between fork and exec, in the child, by util-linux's `setpriv` and
//! `prlimit` (both in every Debian image): the workspace forbids `unsafe`, which `pre_exec`
//! needs, and these two tools are the maintained way to do the same from the outside.
//! - `setpriv --pdeathsig KILL`: the child dies when the service that started it dies, even by
//!   `kill -9`, when no `Drop` runs (`kill_on_drop` covers only a dropped handle).
//! - `prlimit --as --cpu`: a page image or a decoder that would take all memory gets
//!   `ENOMEM` instead, and a loop is stopped by `SIGXCPU`/`SIGKILL` at the CPU limit.
//!
//! Where the tools are missing (another OS), the program runs unwrapped and a warning says so
//! once: the request deadlines and `kill_on_drop` still hold.
//!
//! A child also starts with a cleared environment ([`clear_environment`]): the services hold
//! their signing keys and the database, broker, Redis and S3 credentials in theirs, and a
//! decoder or downloader run on hostile input has no use for any of them.

use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::sync::OnceLock;

/// Limits of one child process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChildLimits {
    /// Most address space, in bytes (`RLIMIT_AS`).
    pub address_space_bytes: u64,
    /// Most CPU time, in seconds (`RLIMIT_CPU`).
    pub cpu_seconds: u64,
}

/// A command line that starts `program` under limits: run `program` with `leading_args`, then
/// the program's own arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitedProgram {
    pub program: OsString,
    pub leading_args: Vec<OsString>,
}

const SETPRIV: &str = "/usr/bin/setpriv";
const PRLIMIT: &str = "/usr/bin/prlimit";

impl ChildLimits {
    /// `program` wrapped so that it runs under these limits and dies with its parent.
    #[must_use]
    pub fn wrap(&self, program: impl AsRef<OsStr>) -> LimitedProgram {
        let program = program.as_ref().to_owned();
        if !tools_present() {
            return LimitedProgram {
                program,
                leading_args: Vec::new(),
            };
        }
        LimitedProgram {
            program: SETPRIV.into(),
            leading_args: vec![
                "--pdeathsig".into(),
                "KILL".into(),
                "--".into(),
                PRLIMIT.into(),
                format!("--as={}", self.address_space_bytes).into(),
                format!("--cpu={}", self.cpu_seconds).into(),
                "--".into(),
                program,
            ],
        }
    }
}

/// The variables a child keeps: where programs, their data and CA certificates are, the locale
/// and time zone, and the egress proxy yt-dlp must use where the operator set one. Nothing else
/// of the service's environment reaches a child.
pub const INHERITED_VARIABLES: &[&str] = &[
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "TMPDIR",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "TESSDATA_PREFIX",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
];

/// Clears `command`'s environment but for [`INHERITED_VARIABLES`] (tokio's commands reach it
/// with `as_std_mut`). Variables the caller sets on the command afterwards are kept.
pub fn clear_environment(command: &mut std::process::Command) -> &mut std::process::Command {
    command.env_clear();
    for name in INHERITED_VARIABLES {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command
}

fn tools_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    *PRESENT.get_or_init(|| {
        let present = Path::new(SETPRIV).is_file() && Path::new(PRLIMIT).is_file();
        if !present {
            tracing::warn!(
                "util-linux's setpriv and prlimit are missing: child processes run without memory and CPU limits"
            );
        }
        present
    })
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    fn limited_shell(limits: ChildLimits, script: &str) -> std::process::Output {
        let wrapped = limits.wrap("sh");
        Command::new(&wrapped.program)
            .args(&wrapped.leading_args)
            .args(["-c", script])
            .output()
            .expect("the wrapped shell starts")
    }

    #[test]
    fn the_child_runs_under_the_limits() {
        let limits = ChildLimits {
            address_space_bytes: 512 << 20,
            cpu_seconds: 7,
        };
        let output = limited_shell(limits, "ulimit -v; ulimit -t");
        assert!(output.status.success(), "{output:?}");
        assert_eq!(String::from_utf8_lossy(&output.stdout), "524288\n7\n");
    }

    #[test]
    fn a_child_sees_only_the_variables_it_is_allowed() {
        // The test process has cargo's and nextest's variables (CARGO_PKG_NAME and more), as a
        // service has its keys: none of them may reach the child.
        assert!(std::env::vars_os().any(|(name, _)| name == "CARGO_PKG_NAME"));
        let mut command = Command::new("/usr/bin/env");
        clear_environment(&mut command).env("OMP_THREAD_LIMIT", "1");
        let output = command.output().expect("env runs");
        assert!(output.status.success(), "{output:?}");
        let seen = String::from_utf8_lossy(&output.stdout);
        let names: Vec<&str> = seen
            .lines()
            .filter_map(|line| line.split_once('=').map(|(name, _)| name))
            .collect();
        assert!(names.contains(&"PATH"), "{names:?}");
        assert!(names.contains(&"OMP_THREAD_LIMIT"), "{names:?}");
        for name in names {
            assert!(
                INHERITED_VARIABLES.contains(&name) || name == "OMP_THREAD_LIMIT",
                "the child inherited {name}"
            );
        }
    }

    #[test]
    fn a_child_past_its_cpu_limit_is_stopped() {
        let limits = ChildLimits {
            address_space_bytes: 512 << 20,
            cpu_seconds: 1,
        };
        let started = std::time::Instant::now();
        let output = limited_shell(limits, "while :; do :; done");
        assert!(!output.status.success());
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }
}
