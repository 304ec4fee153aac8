#!/usr/bin/env python3
"""Load figures of a release `scribevault all` on loopback (issue 21, point 5).

Each round starts a fresh server (temp data dir, SQLite, in-process bus, open sign-up, one
whisper thread, no model: nothing here transcribes) and measures, in that one process:

1. HTTP at fixed rates with oha (`-q`, latency-corrected): `/healthz`, the authenticated Vault
   list and the Vault search, interleaved per rate so each rate's three figures share the
   machine's moment; p50/p99 per rate and the highest rate held (p99 <= 50 ms, every answer
   200, at least 95 % of the asked rate delivered).
2. Socket.IO fan-out with the stock npm client (`fanout.mjs`): N clients of one user
   (WebSocket, polling, polling+upgrade), p50/p99 delivery of `libraryUpdate`, RSS per
   connection.
3. An upload storm: M distinct MP3s (real audio from shared/audio), P at a time, with curl,
   twice back to back in the same process; RSS sampled every 100 ms.

Prints progress on stderr and writes one JSON object to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
P99_GOAL_MS = 50.0
HELD_FRACTION = 0.95
PASSWORD = "load bench passphrase 21"
SEARCH_QUERY = "fermentation"


def log(message: str) -> None:
    print(f"[load] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of `pid` so far (all its threads), from /proc, in 10 ms ticks."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


# ---------------------------------------------------------------------------------------------
# The server


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    base: str
    data_dir: str
    log_path: str

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(binary: str, work: str) -> Server:
    port = free_port()
    data_dir = os.path.join(work, "data")
    log_path = os.path.join(work, "server.log")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ["HOME"],
        "RUST_LOG": "warn",
        "SCRIBEVAULT_DATA_DIR": data_dir,
        "SCRIBEVAULT_HTTP_ADDR": f"127.0.0.1:{port}",
        "SCRIBEVAULT_SIGNUP": "open",
        "SCRIBEVAULT_WHISPER_THREADS": "1",
    }
    with open(log_path, "w") as output:
        process = subprocess.Popen([binary, "all"], env=env, stdout=output, stderr=output)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"scribevault all exited with {process.returncode}; see {log_path}")
        try:
            with urllib.request.urlopen(f"{base}/readyz", timeout=1) as response:
                if response.status == 200:
                    return Server(process, base, data_dir, log_path)
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.05)
    process.kill()
    raise SystemExit("scribevault all did not become ready in 60 s")


def sign_up(base: str, email: str) -> tuple[str, str]:
    status, body = request("POST", f"{base}/api/auth/signup", {"email": email, "password": PASSWORD})
    if status != 201:
        raise SystemExit(f"sign-up answered {status}: {body}")
    return body["data"]["token"], body["data"]["user"]["id"]


def log_in(base: str, email: str) -> str:
    status, body = request("POST", f"{base}/api/auth/login", {"email": email, "password": PASSWORD})
    if status != 200:
        raise SystemExit(f"login answered {status}: {body}")
    return body["data"]["token"]


# ---------------------------------------------------------------------------------------------
# Seeding the Vault through POST /api/vault/save (the SPA's supported path)

TOPICS: dict[str, list[str]] = {
    "bread": "flour water salt yeast dough knead proof oven crust crumb fermentation starter loaf bake".split(),
    "soil": "soil compost humus microbes roots nitrogen carbon worms mulch garden fungi clay".split(),
    "meeting": "agenda minutes action owner deadline budget quarter review decision follow".split(),
    "history": "empire century trade river city war treaty archive king harbour census".split(),
    "physics": "energy mass field wave particle momentum entropy orbit charge quantum".split(),
    "music": "chord scale rhythm melody tempo harmony bass rehearsal concert score".split(),
    "health": "sleep protein exercise heart blood vitamin stress recovery posture".split(),
    "software": "server database query index cache latency deploy release test bug".split(),
}
COMMON = (
    "the a and of to in that is it for on with as was be this are by at from or but not "
    "have we you they one all there what so about when which can more some time like then"
).split()


def item_text(rng: random.Random, words: int) -> tuple[str, str]:
    topic = rng.choice(list(TOPICS))
    vocabulary = TOPICS[topic]
    sentences: list[str] = []
    count = 0
    while count < words:
        length = rng.randint(8, 20)
        sentence = [
            rng.choice(vocabulary) if rng.random() < 0.3 else rng.choice(COMMON)
            for _ in range(length)
        ]
        sentences.append(" ".join(sentence).capitalize() + ".")
        count += length
    title = f"{topic.capitalize()} notes {rng.randint(1, 9999)}"
    return title, " ".join(sentences)


def seed_vault(base: str, token: str, items: int, words: int) -> dict[str, Any]:
    rng = random.Random(21)
    started = time.monotonic()
    made = 0
    while made < items:
        batch = []
        for index in range(made, min(items, made + 50)):
            title, content = item_text(rng, words)
            batch.append({"title": title, "content": content, "path": f"load/item-{index}.md"})
        status, body = request("POST", f"{base}/api/vault/save", {"files": batch}, token)
        if status != 200:
            raise SystemExit(f"vault save answered {status}: {body}")
        made += len(batch)
    seconds = time.monotonic() - started
    _, listing = request("GET", f"{base}/api/library/transcripts?limit=1", token=token)
    _, search = request(
        "GET", f"{base}/api/library/transcripts?limit=20&q={SEARCH_QUERY}", token=token
    )
    return {
        "items": listing["meta"]["total"],
        "words_per_item": words,
        "seconds": round(seconds, 2),
        "search_query": SEARCH_QUERY,
        "search_matches": search["meta"]["total"],
    }


# ---------------------------------------------------------------------------------------------
# 1. HTTP at fixed rates


def oha(url: str, rate: int, seconds: int, connections: int, token: str | None, pid: int) -> dict[str, Any]:
    command = [
        "oha", "--no-tui", "--output-format", "json", "--latency-correction",
        "-z", f"{seconds}s", "-q", str(rate), "-c", str(connections),
    ]
    if token:
        command += ["-H", f"authorization: Bearer {token}"]
    command.append(url)
    cpu_before = cpu_seconds(pid)
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    server_cpu = cpu_seconds(pid) - cpu_before
    report = json.loads(out.stdout)
    summary = report["summary"]
    percentiles = report["latencyPercentiles"]
    codes = {str(k): v for k, v in report.get("statusCodeDistribution", {}).items()}
    total = sum(codes.values())
    return {
        "rate": rate,
        "requests": total,
        "achieved_rps": round(summary["requestsPerSec"], 1),
        "p50_ms": round(percentiles["p50"] * 1000, 3),
        "p99_ms": round(percentiles["p99"] * 1000, 3),
        "server_cpu_ms_per_request": round(server_cpu * 1000 / total, 3) if total else None,
        "status": codes,
        "errors": report.get("errorDistribution", {}),
    }


def held(point: dict[str, Any]) -> bool:
    ok = point["status"].get("200", 0)
    return (
        point["p99_ms"] <= P99_GOAL_MS
        and ok == point["requests"]
        # oha cuts the requests still in flight when `-z` ends; those are not the server's.
        and not any("deadline" not in error for error in point["errors"])
        and point["achieved_rps"] >= HELD_FRACTION * point["rate"]
    )


def http_phase(base: str, pid: int, token: str, rates: list[int], seconds: int, connections: int) -> dict[str, Any]:
    endpoints = {
        "healthz": (f"{base}/healthz", None),
        "list": (f"{base}/api/library/transcripts?page=1&limit=20", token),
        "search": (f"{base}/api/library/transcripts?q={SEARCH_QUERY}&page=1&limit=20", token),
    }
    curves: dict[str, list[dict[str, Any]]] = {name: [] for name in endpoints}
    misses = {name: 0 for name in endpoints}
    for rate in rates:
        for name, (url, auth) in endpoints.items():
            if misses[name] >= 2:
                continue  # past two rates missed in a row it only saturates the machine
            point = oha(url, rate, seconds, connections, auth, pid)
            misses[name] = 0 if held(point) else misses[name] + 1
            point["held"] = held(point)
            curves[name].append(point)
            log(f"{name:7} {rate:5}/s: p50 {point['p50_ms']:.2f} ms, p99 {point['p99_ms']:.2f} ms, "
                f"{point['achieved_rps']}/s, {point['server_cpu_ms_per_request']} ms CPU, held {point['held']}")
    result: dict[str, Any] = {"seconds_per_point": seconds, "connections": connections, "curves": curves}
    highest = {}
    for name, curve in curves.items():
        rates_held = [p["rate"] for p in curve if p["held"]]
        # The highest rate held with every lower rate held too.
        top = None
        for point in curve:
            if not point["held"]:
                break
            top = point["rate"]
        highest[name] = {"highest_rate_held": top, "any_rate_held": max(rates_held, default=None),
                         "top_rate_tried": curve[-1]["rate"] if curve else None}
    result["highest"] = highest
    ratios = []
    for i, rate in enumerate(rates):
        if i >= len(curves["healthz"]):
            break
        h = curves["healthz"][i]
        row = {"rate": rate}
        for name in ("list", "search"):
            if i >= len(curves[name]):
                continue
            p = curves[name][i]
            row[f"{name}_p50_ratio"] = round(p["p50_ms"] / h["p50_ms"], 2) if h["p50_ms"] else None
            row[f"{name}_p99_ratio"] = round(p["p99_ms"] / h["p99_ms"], 2) if h["p99_ms"] else None
            hc, pc = h["server_cpu_ms_per_request"], p["server_cpu_ms_per_request"]
            row[f"{name}_cpu_ratio"] = round(pc / hc, 2) if hc and pc is not None else None
        ratios.append(row)
    result["ratios_to_healthz"] = ratios
    return result


# ---------------------------------------------------------------------------------------------
# 2. Socket.IO fan-out


def fanout_phase(server: Server, token: str, user_id: str, clients: int, events: int) -> dict[str, Any]:
    _, listing = request("GET", f"{server.base}/api/library/transcripts?limit=1", token=token)
    item_id = listing["data"][0]["id"]
    out = subprocess.run(
        ["node", str(HERE / "fanout.mjs"), server.base, user_id, token, item_id,
         str(clients), str(events), f"/proc/{server.pid}/status"],
        capture_output=True, text=True, timeout=600,
    )
    sys.stderr.write(out.stderr[-4000:])
    if out.returncode != 0:
        raise SystemExit(f"fanout.mjs failed ({out.returncode})")
    return json.loads(out.stdout)


# ---------------------------------------------------------------------------------------------
# 3. Upload storm


def mp3_audio(path: Path) -> bytes:
    """The MPEG frames of `path`: without its ID3v2 tag (and an ID3v1 tag, if any)."""
    data = path.read_bytes()
    start = 0
    if data[:3] == b"ID3":
        size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
        start = 10 + size + (10 if data[5] & 0x10 else 0)
    end = len(data) - 128 if data[-128:-125] == b"TAG" else len(data)
    if data[start] != 0xFF or data[start + 1] & 0xE0 != 0xE0:
        raise SystemExit(f"{path}: no MPEG frame sync after the ID3 tag")
    return data[start:end]


def id3_title(title: str) -> bytes:
    """A minimal ID3v2.3 tag holding one TIT2 frame (so each upload is a distinct file)."""
    text = b"\x03" + title.encode()  # encoding byte 3 = UTF-8
    frame = b"TIT2" + len(text).to_bytes(4, "big") + b"\x00\x00" + text
    size = len(frame)
    syncsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    return b"ID3\x03\x00\x00" + syncsafe + frame


def make_uploads(shared: Path, directory: Path, count: int, repeat: int, label: str) -> list[Path]:
    """`count` distinct MP3s: a unique ID3 title, then long-01-bread's frames `repeat` times
    (77 s each: 8 repeats is about 10 minutes of audio, 4.9 MB)."""
    audio = mp3_audio(shared / "audio" / "long-01-bread.mp3") * repeat
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = directory / f"{label}-{index:03}.mp3"
        path.write_bytes(id3_title(f"load storm {label} {index}") + audio)
        paths.append(path)
    return paths


def upload(base: str, token: str, path: Path) -> tuple[int, float]:
    started = time.monotonic()
    out = subprocess.run(
        ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
         "-H", f"authorization: Bearer {token}",
         "-F", f"title={path.stem}", "-F", f"mp3=@{path};type=audio/mpeg",
         f"{base}/api/video-mp3/upload"],
        capture_output=True, text=True,
    )
    return int(out.stdout or 0), time.monotonic() - started


def storm(server: Server, token: str, files: list[Path], parallel: int) -> dict[str, Any]:
    samples: list[int] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            samples.append(rss_kib(server.pid))
            time.sleep(0.1)

    start_rss = rss_kib(server.pid)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    with ThreadPoolExecutor(parallel) as pool:
        answers = list(pool.map(lambda p: upload(server.base, token, p), files))
    seconds = time.monotonic() - started
    stop.set()
    sampler.join()
    end_rss = rss_kib(server.pid)
    time.sleep(5)
    settled_rss = rss_kib(server.pid)
    statuses: dict[str, int] = {}
    for status, _ in answers:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    durations = sorted(d for _, d in answers)
    total_bytes = sum(p.stat().st_size for p in files)
    return {
        "uploads": len(files),
        "parallel": parallel,
        "bytes": total_bytes,
        "status": statuses,
        "seconds": round(seconds, 2),
        "mib_per_second": round(total_bytes / seconds / 2**20, 1),
        "upload_p50_s": round(statistics.median(durations), 3),
        "upload_max_s": round(durations[-1], 3),
        "rss_kib_start": start_rss,
        "rss_kib_peak": max(samples + [start_rss, end_rss]),
        "rss_kib_end": end_rss,
        "rss_kib_5s_after": settled_rss,
        "rss_samples": len(samples),
    }


def storm_phase(server: Server, token: str, shared: Path, work: Path, count: int,
                parallel: int, repeat: int, storms: int) -> dict[str, Any]:
    results = []
    for index in range(storms):
        label = f"s{index}"
        files = make_uploads(shared, work / "uploads" / label, count, repeat, label)
        result = storm(server, token, files, parallel)
        log(f"storm {index}: {result['status']} in {result['seconds']} s, RSS "
            f"{result['rss_kib_start'] // 1024} -> peak {result['rss_kib_peak'] // 1024} -> "
            f"{result['rss_kib_end'] // 1024} MiB")
        results.append(result)
        shutil.rmtree(work / "uploads" / label)
    return {"model": "none (uploads only store the MP3; nothing is transcribed)",
            "file": f"long-01-bread.mp3 frames x{repeat} behind a unique ID3v2 title",
            "storms": results}


# ---------------------------------------------------------------------------------------------


def run_round(args: argparse.Namespace, number: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="sv-load-"))
    server = start_server(args.binary, str(work))
    log(f"round {number}: scribevault all pid {server.pid} at {server.base}, data in {work}")
    try:
        result: dict[str, Any] = {"rss_kib_ready": rss_kib(server.pid)}
        email = "load@example.com"
        token, user_id = sign_up(server.base, email)
        result["seed"] = seed_vault(server.base, token, args.items, args.words)
        log(f"seeded {result['seed']}")
        result["rss_kib_seeded"] = rss_kib(server.pid)
        if "http" in args.phases:
            result["http"] = http_phase(server.base, server.pid, log_in(server.base, email), args.rates,
                                        args.seconds, args.connections)
        if "fanout" in args.phases:
            result["fanout"] = fanout_phase(server, log_in(server.base, email), user_id,
                                            args.clients, args.events)
            log(f"fanout: {json.dumps(result['fanout'])}")
        if "storm" in args.phases:
            result["upload_storm"] = storm_phase(server, log_in(server.base, email), args.shared,
                                                 work, args.uploads, args.parallel,
                                                 args.upload_repeat, args.storms)
        result["rss_kib_end"] = rss_kib(server.pid)
        if server.process.poll() is not None:
            raise SystemExit(f"the server died during the round; see {server.log_path}")
        return result
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def versions(binary: str, commit: str | None) -> dict[str, str]:
    def first_line(command: list[str]) -> str:
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            return "unknown"

    client = json.loads((HERE / "../../frontend/node_modules/socket.io-client/package.json").read_text())
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    mem_kib = int(next(l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")))
    return {
        "oha": first_line(["oha", "--version"]),
        "node": first_line(["node", "--version"]),
        "socket.io-client": client["version"],
        "curl": first_line(["curl", "--version"]),
        "python": platform.python_version(),
        "commit": commit or first_line(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"]),
        "binary": binary,
        "machine": f"{os.cpu_count()} cores ({cpu}), {mem_kib / 2**20:.1f} GiB, {platform.platform()}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--shared", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--commit", help="the commit the binary was built from (default: HEAD)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--phases", default="http,fanout,storm")
    parser.add_argument("--items", type=int, default=300)
    parser.add_argument("--words", type=int, default=800)
    parser.add_argument("--rates", type=lambda s: [int(r) for r in s.split(",")],
                        default=[50, 100, 200, 400, 600, 800, 1000, 1200, 1600, 2000, 3000])
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--uploads", type=int, default=100)
    parser.add_argument("--parallel", type=int, default=5)
    parser.add_argument("--upload-repeat", type=int, default=8)
    parser.add_argument("--storms", type=int, default=2)
    args = parser.parse_args()
    args.phases = set(args.phases.split(","))

    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "versions": versions(args.binary, args.commit),
        "settings": {k: (sorted(v) if isinstance(v, set) else str(v) if isinstance(v, Path) else v)
                     for k, v in vars(args).items() if k not in ("out",)},
        "rounds": [],
    }
    for number in range(1, args.rounds + 1):
        report["rounds"].append(run_round(args, number))
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
