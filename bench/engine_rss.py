#!/usr/bin/env python3
"""Peak RSS of the release `scribevault all` while it transcribes a long MP3 (bench/engine.sh).

For each MP3: a fresh data dir and a fresh `scribevault all` (SQLite, local blobs, the model dir
holding ggml-tiny.en.bin and, with --vad-model, the Silero model beside it as `make model` puts
it; SCRIBEVAULT_WHISPER_THREADS), a signed-up user, the upload
(`POST /api/video-mp3/upload`, as bench/measure.py does it), then `POST /api/transcription/start`
with model tiny.en. Every second until the file is completed or failed it samples the server's
VmRSS and VmHWM (and the RSS of any child process) and the file's progress. Records peak RSS MiB,
audio hours, upload and transcription wall time, and the progress percentages seen.

Usage: engine_rss.py --binary scribevault --model ggml-tiny.en.bin --audio LABEL=file.mp3 [...]
                     [--vad-model ggml-silero.bin] [--threads 2] [--env KEY=VALUE ...] [--work DIR] [--timeout SECONDS]
Prints one JSON object. SIGINT (kill -INT) ends the file being measured with status "interrupted",
keeping its figures so far (a 10-hour file can outlast a session). A background job of a
non-interactive shell starts with SIGINT ignored, and Python then never raises KeyboardInterrupt:
start it from a terminal or with `setsid` if it may have to be ended early.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


def log(message):
    print(message, file=sys.stderr, flush=True)


# free_port, request, start and upload: as in bench/measure.py (which runs on import, so copied).
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method, url, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=600) as response:
        return response.status, json.loads(response.read() or b"null")


def start(binary, env, wait_url, log_path):
    output = open(log_path, "w")
    process = subprocess.Popen([binary, "all"], env={**os.environ, **env}, stdout=output, stderr=subprocess.STDOUT)
    started = time.perf_counter()
    while True:
        try:
            with urllib.request.urlopen(wait_url, timeout=1) as response:
                if response.status == 200:
                    break
        except Exception:
            pass
        if process.poll() is not None:
            raise SystemExit(f"scribevault all exited with {process.returncode}; see {log_path}")
        if time.perf_counter() - started > 60:
            process.kill()
            raise SystemExit(f"scribevault all did not come up; see {log_path}")
        time.sleep(0.05)
    return process, time.perf_counter() - started


def upload(base, token, path, title):
    out = subprocess.run(
        ["curl", "-sS", "-H", f"authorization: Bearer {token}", "-F", f"title={title}", "-F", f"mp3=@{path}",
         f"{base}/api/video-mp3/upload"],
        capture_output=True, check=True,
    )
    return json.loads(out.stdout)


def status_kib(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def audio_seconds(path):
    if shutil.which("ffprobe"):
        out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                             capture_output=True, text=True)
        try:
            return float(out.stdout.strip())
        except ValueError:
            pass
    return None


class Sampler(threading.Thread):
    """VmRSS/VmHWM of the server and its children, once a second."""

    def __init__(self, pid, interval=1.0):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.stop = threading.Event()
        self.peak_rss_kib = self.peak_tree_kib = self.hwm_kib = 0
        self.samples = []

    def sample(self):
        rss = status_kib(self.pid, "VmRSS")
        children = sum(status_kib(child, "VmRSS") for child in descendants(self.pid))
        self.hwm_kib = max(self.hwm_kib, status_kib(self.pid, "VmHWM"))
        self.peak_rss_kib = max(self.peak_rss_kib, rss)
        self.peak_tree_kib = max(self.peak_tree_kib, rss + children)
        self.samples.append((round(time.monotonic(), 1), rss, children))

    def run(self):
        while not self.stop.is_set():
            self.sample()
            self.stop.wait(self.interval)


def measure(binary, models, path, label, threads, extra_env, work, timeout):
    data_dir = tempfile.mkdtemp(prefix=f"rss-{label}-", dir=work)
    port = free_port()
    env = {
        "SCRIBEVAULT_DATA_DIR": data_dir,
        "SCRIBEVAULT_HTTP_ADDR": f"127.0.0.1:{port}",
        "SCRIBEVAULT_WHISPER_MODEL_DIR": models,
        "SCRIBEVAULT_WHISPER_THREADS": str(threads),
        "SCRIBEVAULT_LOG_FORMAT": "json",
    }
    size = os.path.getsize(path)
    if size > 500 * 1024 * 1024:
        env["SCRIBEVAULT_MAX_UPLOAD_BYTES"] = str(size + 1024 * 1024)
    env.update(extra_env)
    server_log = os.path.join(work, f"server-{label}.log")
    seconds = audio_seconds(path)
    result = {"label": label, "file": path, "bytes": size, "audio_seconds": seconds,
              "audio_hours": seconds / 3600 if seconds else None, "threads": threads, "server_log": server_log,
              "env": {k: v for k, v in env.items() if k not in ("SCRIBEVAULT_DATA_DIR", "SCRIBEVAULT_HTTP_ADDR")}}
    process, started = start(binary, env, f"http://127.0.0.1:{port}/readyz", server_log)
    sampler = Sampler(process.pid)
    progress, last, began = [], None, time.perf_counter()
    try:
        base = f"http://127.0.0.1:{port}"
        _, session = request("POST", f"{base}/api/auth/signup", {"email": "rss@example.com", "password": "benchmark password"})
        token = session["data"]["token"]
        time.sleep(2)
        result["idle_rss_mib"] = status_kib(process.pid, "VmRSS") / 1024
        sampler.start()
        began = time.perf_counter()
        uploaded = upload(base, token, path, label)
        result["upload_seconds"] = time.perf_counter() - began
        if "data" not in uploaded:
            raise RuntimeError(f"upload refused: {uploaded}")
        result["rss_after_upload_mib"] = status_kib(process.pid, "VmRSS") / 1024
        _, job = request("POST", f"{base}/api/transcription/start",
                         {"files": [{"id": label, "mp3Path": uploaded["data"]["mp3Path"], "title": label}], "model": "tiny.en"},
                         token)
        job_id = job["data"]["jobId"]
        began = time.perf_counter()
        while True:
            try:
                _, state = request("GET", f"{base}/api/transcription/jobs/{job_id}", token=token)
            except urllib.error.HTTPError as error:
                if error.code != 401:
                    raise
                # Access tokens live 15 minutes (SCRIBEVAULT_TOKEN_TTL_SECONDS); sign in again.
                _, session = request("POST", f"{base}/api/auth/login",
                                     {"email": "rss@example.com", "password": "benchmark password"})
                token = session["data"]["token"]
                continue
            file = state["data"]["files"][0]
            elapsed = time.perf_counter() - began
            if file["progress"] != last:
                last = file["progress"]
                progress.append([round(elapsed, 1), file["progress"], file["status"]])
                log(f"  {label}: {elapsed:7.0f} s  {file['status']} {file['progress']} %  "
                    f"RSS {status_kib(process.pid, 'VmRSS') / 1024:.0f} MiB")
            if file["status"] in ("completed", "failed"):
                break
            if process.poll() is not None:
                raise RuntimeError(f"server exited with {process.returncode}; see {server_log}")
            if elapsed > timeout:
                raise RuntimeError(f"not done after {timeout:.0f} s")
            time.sleep(1)
        result["transcription_wall_seconds"] = time.perf_counter() - began
        result["status"] = file["status"]
        result["error_message"] = file.get("errorMessage")
        result["processing_time_ms"] = file.get("processingTime")
        result["progress_seen"] = progress
        if seconds:
            result["rtf"] = result["transcription_wall_seconds"] / seconds
    except KeyboardInterrupt:  # SIGINT: stop here and keep what was measured
        result["status"] = "interrupted"
        result["error_message"] = f"interrupted at {last} %"
        result["progress_seen"] = progress
        result["transcription_wall_seconds"] = time.perf_counter() - began
    except Exception as error:  # keep what was measured
        result["status"] = "error"
        result["error_message"] = str(error)
    finally:
        sampler.stop.set()
        if sampler.is_alive():
            sampler.join()
        sampler.sample()
        result["peak_rss_mib"] = sampler.peak_rss_kib / 1024
        result["vm_hwm_mib"] = sampler.hwm_kib / 1024
        result["peak_rss_with_children_mib"] = sampler.peak_tree_kib / 1024
        result["rss_samples"] = len(sampler.samples)
        result["goal_mib"] = 400
        result["within_goal"] = max(result["peak_rss_mib"], result["vm_hwm_mib"]) <= 400
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        result["cold_start_seconds"] = started
    try:
        with open(server_log) as f:
            finished = [json.loads(line) for line in f if '"whisper finished"' in line]
        if finished:
            result["whisper_finished_log"] = finished[-1].get("fields")
    except (OSError, ValueError):
        pass
    shutil.rmtree(data_dir, ignore_errors=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--model", required=True, help="ggml-tiny.en.bin")
    parser.add_argument("--audio", action="append", required=True, help="LABEL=path.mp3")
    parser.add_argument("--vad-model", help="ggml Silero model, put beside the Whisper model as `make model` does")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the server")
    parser.add_argument("--work", help="folder for server logs and data dirs (default: a temp dir)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per file (default: the audio's length, at least 1800)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="sv-engine-rss-")
    os.makedirs(work, exist_ok=True)
    models = os.path.join(work, "models")
    os.makedirs(models, exist_ok=True)
    link = os.path.join(models, "ggml-tiny.en.bin")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.abspath(args.model), link)
    if args.vad_model:
        vad_link = os.path.join(models, os.path.basename(args.vad_model))
        if os.path.lexists(vad_link):
            os.remove(vad_link)
        os.symlink(os.path.abspath(args.vad_model), vad_link)
    extra_env = dict(item.split("=", 1) for item in args.env)
    results = []
    for item in args.audio:
        label, path = item.split("=", 1)
        seconds = audio_seconds(path) or 0
        timeout = args.timeout or max(1800.0, seconds)
        log(f"== RSS: {label} ({seconds / 3600:.2f} h, {os.path.getsize(path) / 1e6:.0f} MB)")
        result = measure(args.binary, models, path, label, args.threads, extra_env, work, timeout)
        log(f"  {label}: {result['status']}, peak RSS {result['peak_rss_mib']:.0f} MiB (VmHWM {result['vm_hwm_mib']:.0f}), "
            f"{result.get('transcription_wall_seconds', 0):.0f} s")
        results.append(result)
    print(json.dumps({"work": work, "model_dir": sorted(os.listdir(models)), "runs": results}, indent=2))


if __name__ == "__main__":
    main()
