#!/usr/bin/env python3
"""WER of a transcript (stdin JSON with "transcript") against a reference file. Prints the rate."""
import json
import re
import sys


def words(text):
    return re.sub(r"[^a-z0-9' ]", " ", text.lower()).split()


reference = words(open(sys.argv[1]).read())
hypothesis = words(json.load(sys.stdin)["transcript"])
previous = list(range(len(hypothesis) + 1))
for i, r in enumerate(reference):
    current = [i + 1] + [0] * len(hypothesis)
    for j, h in enumerate(hypothesis):
        current[j + 1] = min(previous[j] + (r != h), previous[j + 1] + 1, current[j] + 1)
    previous = current
print(previous[-1] / max(len(reference), 1))
