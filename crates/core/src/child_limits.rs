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
