#!/usr/bin/env python3
"""WER of a transcript (stdin JSON with "transcript") against a reference file. Prints the rate.

`words` and `wer` are the one definition of the project's WER; other bench scripts import them.
"""
import json
import re
import sys


def words(text):
    return re.sub(r"[^a-z0-9' ]", " ", text.lower()).split()


def wer(reference_text, hypothesis_text):
    """Word edit distance over the reference's word count, after `words` normalisation."""
    reference, hypothesis = words(reference_text), words(hypothesis_text)
    previous = list(range(len(hypothesis) + 1))
    for i, r in enumerate(reference):
        current = [i + 1] + [0] * len(hypothesis)
        for j, h in enumerate(hypothesis):
            current[j + 1] = min(previous[j] + (r != h), previous[j + 1] + 1, current[j] + 1)
        previous = current
    return previous[-1] / max(len(reference), 1)


if __name__ == "__main__":
    print(wer(open(sys.argv[1]).read(), json.load(sys.stdin)["transcript"]))
