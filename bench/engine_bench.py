#!/usr/bin/env python3
"""Our whisper engine in each configuration against faster-whisper int8, in one run (bench/engine.sh).

For each audio file, REPEATS rounds; in each round every configuration of our runner (the
`transcribe` example of scribevault-transcription-worker) runs once, each run followed by one
faster-whisper run on the same file, so machine load hits both alike. On a file with pieces (the
silence-padded file) faster-whisper also runs once per round with vad_filter=True, for
information. Prints a table and writes one JSON file (rewritten after every round, so a run cut
short keeps what it measured).

Times: our runner's own `wall_seconds` (decode + VAD + whisper, as it reports it; the process's
wall time, model load included, is kept as `process_seconds`), faster-whisper's time for
`transcribe` with its segments consumed (MP3 decode included, model loaded once beforehand).
WER: bench/wer.py's definition. Real-time factor (rtf) = wall / audio seconds (lower is faster).
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wer import wer  # noqa: E402

# name, build variant, weights, threads, taskset cpu list (None: no taskset), --no-context, and
# optionally a list of further arguments to the transcribe example.
# One lever at a time against `native-f16-t2`, plus the combinations that matter most with q8_0.
CONFIGS = [
    ("native-f16-t2", "native", "f16", 2, None, False),
    ("native-q8_0-t2", "native", "q8_0", 2, None, False),
    ("native-q5_0-t2", "native", "q5_0", 2, None, False),
    ("native-f16-t1", "native", "f16", 1, None, False),
    ("native-q8_0-t1", "native", "q8_0", 1, None, False),
    ("native-f16-t2-taskset0,1", "native", "f16", 2, "0,1", False),
    ("native-q8_0-t2-taskset0,1", "native", "q8_0", 2, "0,1", False),
    ("native-q8_0-t1-taskset0", "native", "q8_0", 1, "0", False),
    ("native-f16-t2-nocontext", "native", "f16", 2, None, True),
    ("native-q8_0-t2-nocontext", "native", "q8_0", 2, None, True),
    ("openmp-f16-t2", "openmp", "f16", 2, None, False),
    ("openmp-q8_0-t2", "openmp", "q8_0", 2, None, False),
    ("openmp-q8_0-t2-taskset0,1", "openmp", "q8_0", 2, "0,1", False),
    ("no-llamafile-f16-t2", "no-llamafile", "f16", 2, None, False),
    ("no-llamafile-q8_0-t2", "no-llamafile", "q8_0", 2, None, False),
    ("no-llamafile-q5_0-t2", "no-llamafile", "q5_0", 2, None, False),
    ("portable-f16-t2", "portable", "f16", 2, None, False),
    ("portable-q8_0-t2", "portable", "q8_0", 2, None, False),
    # 2026-11-26, second session: whisper.cpp's flash attention (a context parameter, off by
    # default in whisper-rs) and the encoder trimmed to short calls (audio_ctx).
    ("native-f16-t2-flash", "native", "f16", 2, None, False, ["--flash-attn"]),
    ("native-q8_0-t2-flash", "native", "q8_0", 2, None, False, ["--flash-attn"]),
    ("native-q8_0-t2-trimctx", "native", "q8_0", 2, None, False, ["--trim-audio-ctx"]),
    # 2026-11-26, fourth session: bfloat16 weights (AVX512-BF16 dot products on this machine).
    ("native-bf16-t2", "native", "bf16", 2, None, False),
    ("portable-bf16-t2", "portable", "bf16", 2, None, False),
]
# Environment of each build variant at run time.
VARIANT_ENV = {"openmp": {"OMP_WAIT_POLICY": "passive"}}
RUN_TIMEOUT_SECONDS = float(os.environ.get("ENGINE_RUN_TIMEOUT", "3600"))


def log(message):
    print(message, file=sys.stderr, flush=True)


def parse_pairs(values, what):
    pairs = {}
    for value in values or []:
        key, sep, rest = value.partition("=")
        if not sep:
            raise SystemExit(f"--{what} wants NAME=VALUE, got {value!r}")
        pairs[key] = rest
    return pairs


def median(values):
    return statistics.median(values) if values else None


def start_errors(starts, pieces):
    """For each piece: the first segment start inside [start_seconds, end_seconds], else the
    segment start nearest to start_seconds; its difference to start_seconds."""
    errors = []
    for piece in pieces:
        inside = [s for s in starts if piece["start_seconds"] <= s <= piece["end_seconds"]]
        if inside:
            chosen = min(inside)
        elif starts:
            chosen = min(starts, key=lambda s: abs(s - piece["start_seconds"]))
        else:
            errors.append(None)
            continue
        errors.append(round(chosen - piece["start_seconds"], 3))
    known = [abs(e) for e in errors if e is not None]
    # For information: the nearest segment start to each piece's start, wherever it is.
    nearest = [min((abs(s - p["start_seconds"]) for s in starts), default=None) for p in pieces]
    nearest = [n for n in nearest if n is not None]
    return {"per_piece_seconds": errors, "max_abs_seconds": max(known) if known else None,
            "nearest_start_max_abs_seconds": round(max(nearest), 3) if nearest else None}


class FasterWhisper:
    """The persistent faster-whisper worker (bench/engine_fw.py in the venv)."""

    def __init__(self, python, script, log_path):
        self.stderr = open(log_path, "a")
        self.process = subprocess.Popen([python, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.stderr, text=True, bufsize=1)
        ready = json.loads(self.process.stdout.readline() or "{}")
        if not ready.get("ready"):
            raise SystemExit(f"faster-whisper worker did not start; see {log_path}")
        self.load_seconds = ready["load_seconds"]

    def run(self, audio, vad):
        self.process.stdin.write(json.dumps({"audio": audio, "vad": vad}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("faster-whisper worker died; see its log")
        out = json.loads(line)
        out["starts"] = [s["start"] for s in out["segments"]]
        return out

    def peak_rss_mib(self):
        try:
            with open(f"/proc/{self.process.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.stderr.close()


def run_ours(binary, env, audio, model, threads, taskset, no_context, vad_model, log_path, extra=()):
    command = [binary, audio, "--model", model, "--threads", str(threads), "--language", "en", *extra]
    if vad_model:
        command += ["--vad-model", vad_model]
    if no_context:
        command.append("--no-context")
    if taskset:
        command = ["taskset", "-c", taskset] + command
    with open(log_path, "a") as err, open(log_path + ".stdout", "w+") as out:
        err.write(f"$ {' '.join(command)}\n")
        err.flush()
        began = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env={**os.environ, **env})
        timer = threading.Timer(RUN_TIMEOUT_SECONDS, process.kill)
        timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - began
        out.seek(0)
        stdout = out.read()
    if process.returncode != 0:
        return {"error": f"exit {process.returncode} (see {log_path})"}
    try:
        result = json.loads(stdout)
    except ValueError:
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        if not lines:
            return {"error": f"no JSON on stdout (see {log_path}.stdout)"}
        result = json.loads(lines[-1])
    result["process_seconds"] = elapsed
    result["max_rss_mib"] = usage.ru_maxrss / 1024
    result["cpu_seconds"] = usage.ru_utime + usage.ru_stime
    result["starts"] = [s["startMs"] / 1000 for s in result.get("segments", [])]
    return result


def summarize(runs, reference, pieces, fw_median, keys):
    ok = [r for r in runs if "error" not in r]
    summary = {"runs": len(runs), "errors": [r["error"] for r in runs if "error" in r]}
    if not ok:
        return summary
    walls = [r["wall_seconds"] for r in ok]
    wall = median(walls)
    middle = min(ok, key=lambda r: abs(r["wall_seconds"] - wall))
    audio = middle.get("audio_seconds") or None
    summary.update({
        "wall_seconds_median": wall,
        "wall_seconds_all": walls,
        "audio_seconds": audio,
        "rtf": wall / audio if audio else None,
        "x_realtime": audio / wall if audio else None,
        "ratio_to_faster_whisper": wall / fw_median if fw_median else None,
        "wer": wer(reference, middle["text"]),
        "transcript": middle["text"],
    })
    paired = [r["wall_seconds"] / r["fw_wall_seconds"] for r in ok if r.get("fw_wall_seconds")]
    if paired:
        summary["paired_ratio_to_faster_whisper_median"] = median(paired)
        summary["paired_ratios"] = paired
    for key in keys:
        values = [r[key] for r in ok if r.get(key) is not None]
        if values:
            summary[f"{key}_median"] = median(values)
    if pieces:
        summary["segment_start_error"] = start_errors(middle["starts"], pieces)
        worst = [start_errors(r["starts"], pieces)["max_abs_seconds"] for r in ok]
        summary["segment_start_error"]["max_abs_seconds_over_runs"] = max(
            (w for w in worst if w is not None), default=None)
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", help="NAME=path to the transcribe binary")
    parser.add_argument("--model", action="append", help="WEIGHTS=path to a ggml file (f16, q8_0, q5_0, bf16)")
    parser.add_argument("--vad-model", help="ggml Silero model; without it no VAD configurations")
    parser.add_argument("--file", action="append", help="NAME=audio.mp3:reference.txt")
    parser.add_argument("--padded", help="padded.mp3 (padded.json beside it)")
    parser.add_argument("--fw-python", required=True)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--configs", default=os.environ.get("ENGINE_CONFIGS", ""),
                        help="regular expression: only configurations whose name matches")
    parser.add_argument("--logs", required=True)
    parser.add_argument("--extra", help="JSON file merged into the output (builds, commit)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    variants = parse_pairs(args.variant, "variant")
    models = parse_pairs(args.model, "model")
    files = []
    for name, spec in parse_pairs(args.file, "file").items():
        audio, _, reference = spec.partition(":")
        files.append({"name": name, "audio": audio, "reference": open(reference).read(), "pieces": None})
    if args.padded:
        meta = json.load(open(os.path.splitext(args.padded)[0] + ".json"))
        files.append({"name": "padded", "audio": args.padded, "pieces": meta["pieces"], "meta": meta,
                      "reference": " ".join(p["text"] for p in meta["pieces"])})
    os.makedirs(args.logs, exist_ok=True)

    configs, skipped = [], []
    vad_options = [False, True] if args.vad_model else [False]
    for name, variant, weights, threads, taskset, no_context, *more in CONFIGS:
        extra = more[0] if more else []
        for vad in vad_options:
            full = name + ("+vad" if vad else "")
            if args.configs and not re.search(args.configs, full):
                continue
            if variant not in variants or weights not in models:
                skipped.append(full)
                continue
            configs.append({"name": full, "variant": variant, "weights": weights, "threads": threads,
                            "taskset": taskset, "no_context": no_context, "vad": vad, "extra_args": extra})
    if skipped:
        log(f"skipped (variant or weights missing): {', '.join(skipped)}")
    if not args.vad_model:
        log("no --vad-model: configurations with VAD skipped")

    fw = FasterWhisper(args.fw_python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine_fw.py"),
                       os.path.join(args.logs, "faster-whisper.log"))
    ours = {f["name"]: {c["name"]: [] for c in configs} for f in files}
    theirs = {f["name"]: {"int8": [], "int8+vad": []} for f in files}
    results = {
        "date": datetime.date.today().isoformat(),
        "started_at": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"nproc": os.cpu_count(), "loadavg_at_start": os.getloadavg()},
        "repeats": args.repeats,
        "faster_whisper": {"settings": "int8, cpu_threads=2, beam 1, best_of 1, language en, condition_on_previous_text",
                           "model_load_seconds": fw.load_seconds},
        "configs": configs,
        "skipped_configs": skipped,
        "files": {f["name"]: {"audio": f["audio"], **({"padded": f["meta"]} if f.get("meta") else {})} for f in files},
    }
    if args.extra:
        results.update(json.load(open(args.extra)))

    def call_ours(config, file):
        return run_ours(variants[config["variant"]], VARIANT_ENV.get(config["variant"], {}), file["audio"],
                        models[config["weights"]], config["threads"], config["taskset"], config["no_context"],
                        args.vad_model if config["vad"] else None,
                        os.path.join(args.logs, f"{file['name']}.{config['name']}.log"),
                        config.get("extra_args", []))

    def write():
        report(results, files, configs, ours, theirs, fw)
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)

    for file in files:
        log(f"== {file['name']}: warm-up (untimed)")
        fw.run(file["audio"], False)
        if configs:
            call_ours(configs[0], file)
        for round_ in range(args.repeats):
            if file["pieces"]:
                run = fw.run(file["audio"], True)
                theirs[file["name"]]["int8+vad"].append(run)
                log(f"[{file['name']} {round_ + 1}/{args.repeats}] faster-whisper int8+vad {run['wall_seconds']:.2f} s")
            shift = round_ % max(len(configs), 1)
            for config in configs[shift:] + configs[:shift]:
                mine = call_ours(config, file)
                run = fw.run(file["audio"], False)
                theirs[file["name"]]["int8"].append(run)
                mine["fw_wall_seconds"] = run["wall_seconds"]
                ours[file["name"]][config["name"]].append(mine)
                shown = mine.get("error") or f"{mine['wall_seconds']:.2f} s"
                log(f"[{file['name']} {round_ + 1}/{args.repeats}] {config['name']}: {shown}; "
                    f"faster-whisper {run['wall_seconds']:.2f} s")
            if not configs:
                theirs[file["name"]]["int8"].append(fw.run(file["audio"], False))
            write()
    results["finished_at"] = datetime.datetime.now().isoformat(timespec="seconds")
    results["machine"]["loadavg_at_end"] = os.getloadavg()
    write()
    fw.close()
    print_table(results)
    print(args.out)


def report(results, files, configs, ours, theirs, fw):
    keys = ["process_seconds", "decode_seconds", "vad_seconds", "whisper_seconds", "speech_seconds",
            "max_rss_mib", "cpu_seconds"]
    results["faster_whisper"]["peak_rss_mib"] = fw.peak_rss_mib()
    table = {}
    for file in files:
        name = file["name"]
        fw_runs = theirs[name]["int8"]
        fw_walls = [r["wall_seconds"] for r in fw_runs]
        fw_median = median(fw_walls)
        per_file = {}
        for label, runs in theirs[name].items():
            if runs:
                per_file[f"faster-whisper-{label}"] = summarize(
                    runs, file["reference"], file["pieces"], fw_median, ["speech_seconds"])
        for config in configs:
            runs = ours[name][config["name"]]
            if runs:
                per_file[config["name"]] = summarize(runs, file["reference"], file["pieces"], fw_median, keys)
        # VAD speed-up: the same configuration without VAD over with it.
        for config in configs:
            if config["vad"]:
                plain, with_vad = per_file.get(config["name"][:-4], {}), per_file.get(config["name"], {})
                if plain.get("wall_seconds_median") and with_vad.get("wall_seconds_median"):
                    with_vad["vad_speedup"] = plain["wall_seconds_median"] / with_vad["wall_seconds_median"]
        fw_plain, fw_vad = per_file.get("faster-whisper-int8", {}), per_file.get("faster-whisper-int8+vad", {})
        if fw_plain.get("wall_seconds_median") and fw_vad.get("wall_seconds_median"):
            fw_vad["vad_speedup"] = fw_plain["wall_seconds_median"] / fw_vad["wall_seconds_median"]
        table[name] = per_file
    results["results"] = table


def print_table(results):
    header = f"{'config':34} {'file':14} {'wall s':>8} {'rtf':>7} {'x rt':>6} {'/fw':>6} {'/fw pair':>8} {'WER %':>6} {'VAD x':>6} {'start err s':>11} {'RSS MiB':>8}"
    print(header)
    print("-" * len(header))
    for file, rows in results["results"].items():
        for config, row in rows.items():
            if "wall_seconds_median" not in row:
                print(f"{config:34} {file:14} {'failed: ' + '; '.join(row.get('errors', []))}")
                continue

            def fmt(value, spec):
                return format(value, spec) if value is not None else "-"
            start = (row.get("segment_start_error") or {}).get("max_abs_seconds")
            rss = row.get("max_rss_mib_median") if not config.startswith("faster-whisper") else results["faster_whisper"].get("peak_rss_mib")
            print(f"{config:34} {file:14} {fmt(row['wall_seconds_median'], '8.2f')} {fmt(row['rtf'], '7.4f')} "
                  f"{fmt(row['x_realtime'], '6.1f')} {fmt(row['ratio_to_faster_whisper'], '6.2f')} "
                  f"{fmt(row.get('paired_ratio_to_faster_whisper_median'), '8.2f')} {fmt(row['wer'] * 100, '6.1f')} "
                  f"{fmt(row.get('vad_speedup'), '6.2f')} {fmt(start, '11.2f')} {fmt(rss, '8.0f')}")
    print("wall: median of the repeats; rtf = wall / audio seconds; /fw: over faster-whisper int8 (no VAD) median on "
          "the same file; /fw pair: median of each run over the faster-whisper run right after it; VAD x: the same "
          "configuration's wall without VAD over with it; start err: max |segment start - piece start| on the padded file.")


if __name__ == "__main__":
    main()
