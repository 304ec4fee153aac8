#!/usr/bin/env python3
"""Server-side figures of the release binary, all measured in this one run on this machine:

- cold start of `scribevault all` to /readyz = 200, and its idle RSS;
- server CPU per authenticated request (gateway -> gRPC -> SQLite) as a ratio to /healthz;
- a 200 MB MP3 upload through `scribevault gateway` + `scribevault storage` as separate
  processes: RSS increase of each, and throughput as a ratio to `cp` of the same file;
- long-01-bread.mp3 end to end (upload -> Vault item) with 2 whisper threads.

Prints one JSON object. Usage: measure.py <release binary> <shared dir> [sections]
where sections is a comma-separated subset of `start,cpu,pipeline,upload` (default: all), so a
comparison of two builds can run only the figures it compares.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BINARY, SHARED = sys.argv[1], os.path.abspath(sys.argv[2])
SECTIONS = set((sys.argv[3] if len(sys.argv) > 3 else "start,cpu,pipeline,upload").split(","))
AUDIO = os.path.join(SHARED, "audio")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def request(method, url, body=None, token=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", f"Bearer {token}")
    for key, value in (headers or {}).items():
        req.add_header(key, value)
    with urllib.request.urlopen(req, timeout=600) as response:
        return response.status, json.loads(response.read() or b"null")


def start(target, env, wait_url=None, wait_addr=None, log=None):
    output = open(log, "w") if log else subprocess.DEVNULL
    process = subprocess.Popen([BINARY, target], env={**os.environ, **env}, stdout=output, stderr=subprocess.DEVNULL)
    started = time.perf_counter()
    while True:
        try:
            if wait_url:
                with urllib.request.urlopen(wait_url, timeout=1) as response:
                    if response.status == 200:
                        break
            else:
                with socket.create_connection(wait_addr, timeout=0.2):
                    break
        except Exception:
            pass
        if time.perf_counter() - started > 60:
            raise SystemExit(f"{target} did not come up")
        time.sleep(0.01)
    return process, time.perf_counter() - started


def upload(base, token, path, title):
    out = subprocess.run(
        ["curl", "-sS", "-H", f"authorization: Bearer {token}", "-F", f"title={title}", "-F", f"mp3=@{path}", f"{base}/api/video-mp3/upload"],
        capture_output=True, check=True,
    )
    return json.loads(out.stdout)


def main():
    results = {}
    work = tempfile.mkdtemp(prefix="sv-bench-")
    models = os.path.join(work, "models")
    os.makedirs(models)
    os.symlink(os.path.join(SHARED, "models/ggml-tiny.en.bin"), os.path.join(models, "ggml-small.bin"))

    # Cold start and idle RSS (three fresh data dirs; median).
    starts = []
    for attempt in range(3):
        port = free_port()
        env = {"SCRIBEVAULT_DATA_DIR": os.path.join(work, f"cold{attempt}"), "SCRIBEVAULT_HTTP_ADDR": f"127.0.0.1:{port}", "SCRIBEVAULT_WHISPER_MODEL_DIR": models}
        process, seconds = start("all", env, wait_url=f"http://127.0.0.1:{port}/readyz")
        starts.append(seconds)
        if attempt < 2:
            process.terminate()
            process.wait()
    results["cold_start_to_readyz_seconds"] = sorted(starts)[1]
    time.sleep(5)
    results["idle_rss_mib"] = rss_kib(process.pid) / 1024
    base = f"http://127.0.0.1:{port}"

    # CPU per request, authenticated call vs /healthz, same process.
    if "cpu" in SECTIONS:
        _, session = request("POST", f"{base}/api/auth/signup", {"email": "bench@example.com", "password": "benchmark password"})
        token = session["data"]["token"]
        n = 1000
        for label, url, auth in [("healthz", f"{base}/healthz", None), ("library_list", f"{base}/api/library/transcripts", token)]:
            before = cpu_seconds(process.pid)
            for _ in range(n):
                request("GET", url, token=auth)
            results[f"server_cpu_ms_per_request_{label}"] = (cpu_seconds(process.pid) - before) * 1000 / n
        results["cpu_ratio_authenticated_list_to_healthz"] = results["server_cpu_ms_per_request_library_list"] / results["server_cpu_ms_per_request_healthz"]

    process.terminate()
    process.wait()
    if "pipeline" in SECTIONS:
        pipeline(work, models, results)
    if "upload" in SECTIONS:
        upload_figures(work, results)
    print(json.dumps(results, indent=2))


def pipeline(work, models, results):
    """long-01 end to end with 2 whisper threads: warm the model with a short file first."""
    port = free_port()
    env = {"SCRIBEVAULT_DATA_DIR": os.path.join(work, "e2e"), "SCRIBEVAULT_HTTP_ADDR": f"127.0.0.1:{port}", "SCRIBEVAULT_WHISPER_MODEL_DIR": models, "SCRIBEVAULT_WHISPER_THREADS": "2", "SCRIBEVAULT_LOG_FORMAT": "json"}
    # Voice activity detection is on by default and needs its model (make model / make test
    # build it); without one, measure whisper alone rather than fail every file.
    vad_model = os.path.expanduser("~/.cache/scribevault/models/ggml-silero-v6.2.0.bin")
    if os.path.exists(vad_model):
        env["SCRIBEVAULT_VAD_MODEL"] = vad_model
    else:
        env["SCRIBEVAULT_VAD"] = "false"
    server_log = os.path.join(work, "e2e.log")
    process, _ = start("all", env, wait_url=f"http://127.0.0.1:{port}/readyz", log=server_log)
    base = f"http://127.0.0.1:{port}"
    credentials = {"email": "bench@example.com", "password": "benchmark password"}
    request("POST", f"{base}/api/auth/signup", credentials)

    def transcribe(path, title):
        # Access tokens live 15 minutes: sign in afresh for each file.
        _, session = request("POST", f"{base}/api/auth/login", credentials)
        token = session["data"]["token"]
        began = time.perf_counter()
        uploaded = upload(base, token, path, title)
        _, job = request("POST", f"{base}/api/transcription/start", {"files": [{"id": title, "mp3Path": uploaded["data"]["mp3Path"], "title": title}]}, token)
        job_id = job["data"]["jobId"]
        while True:
            _, state = request("GET", f"{base}/api/transcription/jobs/{job_id}", token=token)
            file = state["data"]["files"][0]
            if file["status"] == "completed":
                break
            if file["status"] in ("failed", "error"):
                raise SystemExit(f"{title}: transcription {file['status']}: {file.get('errorMessage')}")
            # Gentle polling: the server shares two cores with whisper's busy-waiting threads.
            time.sleep(0.1)
        while True:
            _, vault = request("GET", f"{base}/api/library/transcripts?limit=100", token=token)
            if any(item["title"] == title for item in vault["data"]):
                break
            time.sleep(0.01)
        return time.perf_counter() - began, file

    transcribe(os.path.join(AUDIO, "sample-01-welcome.mp3"), "warm-up")
    walls, whispers = [], []
    for run in range(3):
        wall, file = transcribe(os.path.join(AUDIO, "long-01-bread.mp3"), f"long-01-bread-{run}")
        walls.append(wall)
        time.sleep(0.5)
        # whisper's own time for this very file, logged by the worker in the same process.
        with open(server_log) as log:
            finished = [json.loads(line) for line in log if '"whisper finished"' in line]
        whispers.append(finished[-1]["fields"]["whisper_ms"] / 1000)
    results["e2e_long01_wall_seconds_all"] = walls
    results["e2e_long01_whisper_in_server_seconds_all"] = whispers
    results["e2e_long01_wall_seconds"] = sorted(walls)[1]
    results["e2e_long01_wall_per_audio_second"] = sorted(walls)[1] / 77.14
    results["e2e_long01_overhead_over_its_own_whisper"] = [w / x - 1 for w, x in zip(walls, whispers)]
    process.terminate()
    process.wait()


def upload_figures(work, results):
    """200 MB upload through gateway + storage as separate processes."""
    big = os.path.join(work, "big.mp3")
    chunk = open(os.path.join(AUDIO, "long-01-bread.mp3"), "rb").read()
    with open(big, "wb") as f:
        while f.tell() < 200 * 1024 * 1024:
            f.write(chunk)
    size = os.path.getsize(big)
    data_dir = os.path.join(work, "upload")
    storage_addr = f"127.0.0.1:{free_port()}"
    http_port = free_port()
    env = {"SCRIBEVAULT_DATA_DIR": data_dir, "SCRIBEVAULT_STORAGE_GRPC_ADDR": storage_addr, "SCRIBEVAULT_HTTP_ADDR": f"127.0.0.1:{http_port}"}
    storage, _ = start("storage", env, wait_addr=tuple(storage_addr.split(":")) and ("127.0.0.1", int(storage_addr.split(":")[1])))
    gateway, _ = start("gateway", env, wait_addr=("127.0.0.1", http_port))
    base = f"http://127.0.0.1:{http_port}"
    _, session = request("POST", f"{base}/api/auth/signup", {"email": "big@example.com", "password": "benchmark password"})
    token = session["data"]["token"]
    time.sleep(1)
    baseline = {"gateway": rss_kib(gateway.pid), "storage": rss_kib(storage.pid)}
    peaks = dict(baseline)
    done = threading.Event()

    def sample():
        while not done.is_set():
            for name, proc in (("gateway", gateway), ("storage", storage)):
                peaks[name] = max(peaks[name], rss_kib(proc.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    began = time.perf_counter()
    uploaded = upload(base, token, big, "big")
    upload_seconds = time.perf_counter() - began
    done.set()
    sampler.join()
    assert uploaded.get("data", {}).get("size") == size, uploaded
    target = os.path.join(data_dir, "cp-copy.mp3")
    began = time.perf_counter()
    subprocess.run(["cp", big, target], check=True)
    os.sync()
    cp_seconds = time.perf_counter() - began
    results["upload_200mb_bytes"] = size
    results["upload_200mb_seconds"] = upload_seconds
    results["upload_200mb_throughput_mib_s"] = size / upload_seconds / 1024 / 1024
    results["cp_same_file_seconds"] = cp_seconds
    results["upload_throughput_ratio_to_cp"] = cp_seconds / upload_seconds
    results["upload_rss_increase_mib"] = {name: (peaks[name] - baseline[name]) / 1024 for name in peaks}
    gateway.terminate()
    storage.terminate()


main()
