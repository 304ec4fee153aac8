#!/usr/bin/env python3
"""Alternating A/B runs of `transcribe` builds against faster-whisper int8, for one lever at a time.

bench/engine.sh measures the configurations it knows (build variants, weights, flags). A lever
that needs a build of its own (another compiler, a patched whisper.cpp, other CXXFLAGS) is
measured here instead: build the `transcribe` example into a target dir of its own, then

    python3 bench/engine_ab.py --rounds 5 --audio ../shared/audio/long-01-bread.mp3 \\
        --run base=$CARGO_TARGET_DIR/release/examples/transcribe:../shared/models/ggml-tiny.en.bin \\
        --run other=<target dir>/release/examples/transcribe:../shared/models/ggml-tiny.en.bin

Each round runs every `--run` once, each followed by one faster-whisper run on the same file
(so machine load hits both alike), and prints the medians, the median of the paired ratios and
the WER against the audio's `.txt` transcript. `--run NAME=BINARY:MODEL[:ARGS]` passes ARGS
(space-separated) to the example; `--env NAME=K=V` sets K=V for that run only.
Needs the bench venv that bench/engine.sh makes (~/.cache/scribevault/bench-venv).
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_bench import FasterWhisper, run_ours  # noqa: E402
from wer import wer  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--audio", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--run", action="append", required=True, help="NAME=BINARY:MODEL[:ARGS]")
    parser.add_argument("--env", action="append", default=[], help="NAME=K=V: environment of one run")
    parser.add_argument("--fw-python", default=os.path.expanduser("~/.cache/scribevault/bench-venv/bin/python"))
    parser.add_argument("--out", help="also write the runs as JSON here")
    args = parser.parse_args()

    runs = []
    for spec in args.run:
        name, _, rest = spec.partition("=")
        binary, model, *extra = rest.split(":", 2)
        runs.append({"name": name, "binary": binary, "model": model,
                     "args": extra[0].split() if extra else [], "env": {}})
    for spec in args.env:
        name, _, pair = spec.partition("=")
        key, _, value = pair.partition("=")
        next(r for r in runs if r["name"] == name)["env"][key] = value

    transcript = os.path.splitext(args.audio)[0] + ".txt"
    reference = open(transcript).read() if os.path.exists(transcript) else None
    logs = tempfile.mkdtemp(prefix="sv-engine-ab.")
    print(f"logs: {logs}", file=sys.stderr)
    fw = FasterWhisper(args.fw_python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine_fw.py"),
                       os.path.join(logs, "faster-whisper.log"))
    results = {r["name"]: [] for r in runs}
    for round_ in range(args.rounds):
        for run in runs:
            mine = run_ours(run["binary"], run["env"], args.audio, run["model"], 2, None, False, None,
                            os.path.join(logs, run["name"] + ".log"), run["args"])
            if "error" in mine:
                raise SystemExit(f"{run['name']}: {mine['error']}")
            theirs = fw.run(args.audio, False)
            mine["fw_wall_seconds"], mine["fw_text"] = theirs["wall_seconds"], theirs["text"]
            results[run["name"]].append(mine)
            print(f"[{round_ + 1}/{args.rounds}] {run['name']}: {mine['wall_seconds']:.2f} s; "
                  f"faster-whisper {theirs['wall_seconds']:.2f} s", file=sys.stderr, flush=True)
    fw.close()

    fw_walls = [r["fw_wall_seconds"] for rs in results.values() for r in rs]
    print(f"{'run':24} {'median s':>9} {'/fw pair':>9} {'WER %':>6}  all")
    for name, rs in results.items():
        walls = [r["wall_seconds"] for r in rs]
        pairs = [r["wall_seconds"] / r["fw_wall_seconds"] for r in rs]
        error = f"{100 * wer(reference, rs[-1]['text']):6.1f}" if reference else "     -"
        print(f"{name:24} {statistics.median(walls):9.2f} {statistics.median(pairs):9.3f} {error}  "
              f"{' '.join(f'{w:.2f}' for w in walls)}")
    last_fw_text = results[runs[-1]["name"]][-1]["fw_text"]
    error = f"{100 * wer(reference, last_fw_text):6.1f}" if reference else "     -"
    print(f"{'faster-whisper int8':24} {statistics.median(fw_walls):9.2f} {1:9.3f} {error}  "
          f"{' '.join(f'{w:.2f}' for w in fw_walls)}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"audio": args.audio, "rounds": args.rounds, "runs": results}, f, indent=2)


if __name__ == "__main__":
    main()
