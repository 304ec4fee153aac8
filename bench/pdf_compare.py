#!/usr/bin/env python3
"""PDF → markdown: Scribevault's converter against poppler's pdftotext and the Python converters
users pick today (markitdown, pymupdf4llm), on the same files in the same session.

    bench/pdf_compare.py RESULT_JSON WORK_DIR PDF...     (run by bench/pdf.sh)

For each converter and file: seconds (median of 3, conversion only for in-process converters;
pdftotext is a process per run, as it is used), pages per second, and word recall against
pdftotext's text (the share of its words, with counts, that the output has). Our peak memory is
the max RSS of a fresh process converting the largest file. Prints one JSON object.
"""

import collections
import json
import os
import re
import statistics
import subprocess
import sys
import time

REPEATS = 3


def words(text):
    return collections.Counter(re.findall(r"[a-z0-9]+", text.lower()))


def recall(reference, output):
    ref, out = words(reference), words(output)
    total = sum(ref.values())
    return 1.0 if total == 0 else sum(min(c, out[w]) for w, c in ref.items()) / total


def timed(fn):
    times, result = [], None
    for _ in range(REPEATS):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def pdftotext(path):
    return subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True, check=True).stdout.decode()


def pages_of(path):
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def main():
    result_path, out_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    ours_bin = os.environ["PDF_CONVERT_BIN"]
    import pymupdf4llm
    from markitdown import MarkItDown

    markitdown = MarkItDown()
    results = {}
    for path in files:
        name = os.path.basename(path)
        pages = pages_of(path)
        ref_seconds, reference = timed(lambda: pdftotext(path))
        row = {"pages": pages, "pdftotext": {"seconds": ref_seconds, "pages_per_second": pages / ref_seconds}}
        ours = subprocess.run([ours_bin, os.path.join(out_dir, "ours"), str(REPEATS), path],
                              capture_output=True, text=True, check=True)
        ours_line = json.loads(ours.stdout.strip().splitlines()[-1])
        with open(os.path.join(out_dir, "ours", os.path.splitext(name)[0] + ".md")) as f:
            ours_md = f.read()
        row["scribevault"] = {
            "seconds": ours_line["seconds_median"],
            "pages_per_second": pages / ours_line["seconds_median"],
            "recall": recall(reference, ours_md),
        }
        seconds, md = timed(lambda: markitdown.convert(path).text_content)
        row["markitdown"] = {"seconds": seconds, "pages_per_second": pages / seconds, "recall": recall(reference, md)}
        seconds, md = timed(lambda: pymupdf4llm.to_markdown(path, show_progress=False))
        row["pymupdf4llm"] = {"seconds": seconds, "pages_per_second": pages / seconds, "recall": recall(reference, md)}
        for tool in ("scribevault", "markitdown", "pymupdf4llm"):
            row[tool]["time_vs_pdftotext"] = row[tool]["seconds"] / ref_seconds
        results[name] = row
        print(f"{name}: {json.dumps(row)}", file=sys.stderr)

    largest = max(files, key=os.path.getsize)
    # GNU time, not os.wait4: a child forked from this (large) Python process counts the
    # parent's pages in its max RSS until it execs.
    peak = subprocess.run(["/usr/bin/time", "-f", "%M", ours_bin, os.path.join(out_dir, "peak"), "1", largest],
                          capture_output=True, text=True, check=True)
    peak_kb = int(peak.stderr.strip().splitlines()[-1])
    mixed = [name for name in results if name != "long.pdf"]
    summary = {}
    for tool in ("pdftotext", "scribevault", "markitdown", "pymupdf4llm"):
        secs = sum(results[name][tool]["seconds"] for name in mixed)
        pages = sum(results[name]["pages"] for name in mixed)
        summary[tool] = {"mixed_pages_per_second": pages / secs}
        if tool != "pdftotext":
            summary[tool]["mixed_recall_min"] = min(results[name][tool]["recall"] for name in mixed)
    with open(result_path, "w") as f:
        json.dump({
        "files": results,
        "mixed_set": mixed,
        "summary": summary,
        "scribevault_peak_rss_mb_largest_file": peak_kb / 1024,
        "largest_file": os.path.basename(largest),
    }, f, indent=1)


if __name__ == "__main__":
    main()
