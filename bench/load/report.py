#!/usr/bin/env python3
"""Prints the markdown tables of docs/performance.md's "Load (issue 21)" section from a
load.py result (default bench/results/load-latest.json), one column per round."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def mib(kib: int) -> str:
    return f"{kib / 1024:.1f}"


def http_tables(rounds: list[dict[str, Any]]) -> None:
    names = ("healthz", "list", "search")
    rates = sorted({p["rate"] for r in rounds for n in names for p in r["http"]["curves"][n]})
    print("p50 / p99 in ms at each fixed rate (`—`: not run, two lower rates were missed; "
          "**bold**: held, i.e. p99 ≤ 50 ms, every answer 200, ≥ 95 % of the rate delivered):\n")
    header = "| rate/s |" + "|".join(f" {n} r{i + 1} " for n in names for i in range(len(rounds))) + "|"
    print(header)
    print("|---:|" + "---|" * (len(names) * len(rounds)))
    for rate in rates:
        cells = []
        for name in names:
            for r in rounds:
                point = next((p for p in r["http"]["curves"][name] if p["rate"] == rate), None)
                if point is None:
                    cells.append("—")
                    continue
                text = f"{point['p50_ms']:.2f} / {point['p99_ms']:.1f}"
                cells.append(f"**{text}**" if point["held"] else text)
        print(f"| {rate} | " + " | ".join(cells) + " |")
    print()
    print("| figure |" + "|".join(f" round {i + 1} " for i in range(len(rounds))) + "|")
    print("|---|" + "---|" * len(rounds))
    for name in names:
        cells = []
        for r in rounds:
            h = r["http"]["highest"][name]
            top = h["highest_rate_held"]
            note = "" if h["top_rate_tried"] != top else " (the top rate tried)"
            cells.append(f"{top}/s{note}")
        print(f"| highest rate held, `{name}` | " + " | ".join(cells) + " |")
    def held_rates(r: dict[str, Any], name: str) -> set[int]:
        return {p["rate"] for p in r["http"]["curves"][name] if p["held"]}

    for name in ("list", "search"):
        for key, label in (("p50_ratio", "p50"), ("cpu_ratio", "server CPU per request")):
            cells = []
            for r in rounds:
                both = held_rates(r, name) & held_rates(r, "healthz")
                values = [row[f"{name}_{key}"] for row in r["http"]["ratios_to_healthz"]
                          if row["rate"] in both and row.get(f"{name}_{key}") is not None]
                cells.append(f"{min(values):.1f}–{max(values):.1f}× ({len(values)} rates)" if values else "—")
            print(f"| `{name}` {label} ÷ `/healthz` {label}, at the rates both held | " + " | ".join(cells) + " |")
    for name in names:
        cells = []
        for r in rounds:
            cpu = [p["server_cpu_ms_per_request"] for p in r["http"]["curves"][name] if p["held"]]
            cells.append(f"{min(cpu):.2f}–{max(cpu):.2f} ms" if cpu else "—")
        print(f"| server CPU per request, `{name}`, at the rates it held | " + " | ".join(cells) + " |")
    print()


def fanout_table(rounds: list[dict[str, Any]]) -> None:
    print("| figure |" + "|".join(f" round {i + 1} " for i in range(len(rounds))) + "|")
    print("|---|" + "---|" * len(rounds))
    rows = [
        ("clients connected (websocket / polling / polling+upgrade)", lambda f: f"{f['connected']} of {f['clients']} ({' / '.join(str(v) for v in f['connected_by_transport'].values())}; {f['upgraded_to_websocket']} upgraded), {f['refused']} refused"),
        ("time to connect them all (≤ 15 half-open)", lambda f: f"{f['connect_seconds']} s"),
        ("deliveries / expected", lambda f: f"{f['deliveries']} / {f['expected_deliveries']}"),
        ("delivery p50 / p99 / max, all", lambda f: f"{f['delivery']['p50_ms']:.0f} / {f['delivery']['p99_ms']:.0f} / {f['delivery']['max_ms']:.0f} ms"),
    ]
    for transport in ("websocket", "polling", "polling+upgrade"):
        rows.append((f"delivery p50 / p99, {transport}", lambda f, t=transport: f"{f['delivery_by_transport'][t]['p50_ms']:.0f} / {f['delivery_by_transport'][t]['p99_ms']:.0f} ms"))
    rows += [
        ("last client of an event, p50 / max", lambda f: f"{f['last_client_per_event']['p50_ms']:.0f} / {f['last_client_per_event']['max_ms']:.0f} ms"),
        ("the causing `PUT …/metadata`, p50 / max", lambda f: f"{f['causing_request']['p50_ms']:.1f} / {f['causing_request']['max_ms']:.1f} ms"),
        ("delivery p50 ÷ causing request p50", lambda f: f"{f['delivery']['p50_ms'] / f['causing_request']['p50_ms']:.1f}×"),
        ("CPU per event: server / this client (Node, one thread)", lambda f: f"{f['server_cpu_ms_per_event']:.0f} / {f['client_cpu_ms_per_event']:.0f} ms" if "server_cpu_ms_per_event" in f else "—"),
        ("RSS before / with clients / after the events", lambda f: f"{mib(f['rss_kib_before'])} / {mib(f['rss_kib_connected'])} / {mib(f['rss_kib_after_events'])} MiB"),
        ("**RSS per connection**", lambda f: f"**{f['rss_kib_per_connection']:.1f} KiB**"),
    ]
    for label, cell in rows:
        print(f"| {label} | " + " | ".join(cell(r["fanout"]) for r in rounds) + " |")
    print()


def storm_table(rounds: list[dict[str, Any]]) -> None:
    storms = [(i, j, s) for i, r in enumerate(rounds) for j, s in enumerate(r["upload_storm"]["storms"])]
    print("| round, storm | answers | time | MiB/s | upload p50 / max | RSS start → peak → end (5 s later), MiB |")
    print("|---|---|---|---|---|---|")
    for i, j, s in storms:
        answers = ", ".join(f"{n}× {code}" for code, n in s["status"].items())
        print(f"| {i + 1}, {j + 1} | {answers} | {s['seconds']} s | {s['mib_per_second']} | "
              f"{s['upload_p50_s']:.2f} / {s['upload_max_s']:.2f} s | "
              f"{mib(s['rss_kib_start'])} → {mib(s['rss_kib_peak'])} → {mib(s['rss_kib_end'])} "
              f"({mib(s['rss_kib_5s_after'])}) |")
    print()


def main() -> None:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results/load-latest.json")
    report = json.loads(path.read_text())
    rounds = report["rounds"]
    versions = {k: (v.split(" (")[0] if k == "curl" else v) for k, v in report["versions"].items()}
    print(f"<!-- {path}: {report['date']}, {json.dumps(versions)} -->\n")
    if all("http" in r for r in rounds):
        http_tables(rounds)
    if all("fanout" in r for r in rounds):
        fanout_table(rounds)
    if all("upload_storm" in r for r in rounds):
        storm_table(rounds)


if __name__ == "__main__":
    main()
