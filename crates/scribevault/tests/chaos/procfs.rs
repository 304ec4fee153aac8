//! Finding the helper processes (yt-dlp, its ffmpeg, tesseract) our processes started, in
//! /proc: an orphan is one still running after the process that started it died.

use std::collections::HashMap;

/// The external programs the services start; `comm` is cut to 15 bytes.
const HELPERS: [&str; 5] = ["yt-dlp", "ffmpeg", "ffprobe", "tesseract", "pdftoppm"];

struct Stat {
    comm: String,
    state: char,
    ppid: u32,
}

fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let comm = text[open + 1..close].to_owned();
    let mut rest = text[close + 1..].split_whitespace();
    let state = rest.next()?.chars().next()?;
    let ppid = rest.next()?.parse().ok()?;
    Some(Stat { comm, state, ppid })
}

fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|bytes| String::from_utf8_lossy(&bytes).replace('\0', " "))
        .unwrap_or_default()
}

fn all_pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Every live process below `root`.
pub fn descendants(root: u32) -> Vec<u32> {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for pid in all_pids() {
        if let Some(stat) = stat(pid) {
            children.entry(stat.ppid).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        for &child in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
            found.push(child);
            queue.push(child);
        }
    }
    found
}

/// The name of `pid` when it is a live (not zombie) helper process.
pub fn alive_helper(pid: u32) -> Option<String> {
    let stat = stat(pid)?;
    if stat.state == 'Z' {
        return None;
    }
    let line = cmdline(pid);
    HELPERS
        .iter()
        .find(|name| stat.comm.starts_with(*name) || line.contains(*name))
        .map(|name| (*name).to_owned())
}

/// Live processes below `root` named one of `names`.
pub fn descendants_named(root: u32, names: &[&str]) -> Vec<u32> {
    descendants(root)
        .into_iter()
        .filter(|&pid| alive_helper(pid).is_some_and(|name| names.contains(&name.as_str())))
        .collect()
}

/// Live helpers anywhere on the machine working for the media server at `watch_url` (only
/// ours name its port), and those below any of `roots`.
pub fn leftover_helpers(watch_url: &str, roots: &[u32]) -> Vec<(u32, String)> {
    let host = watch_url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_owned();
    let mut found: Vec<(u32, String)> = all_pids()
        .into_iter()
        .filter(|&pid| cmdline(pid).contains(&host))
        .filter_map(|pid| alive_helper(pid).map(|name| (pid, name)))
        .collect();
    for &root in roots {
        found.extend(
            descendants(root)
                .into_iter()
                .filter_map(|pid| alive_helper(pid).map(|name| (pid, name))),
        );
    }
    found.sort();
    found.dedup();
    found
}

/// SIGKILL to an orphan the harness found, so that it does not outlive the run.
pub fn kill(pid: u32) {
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status();
}
