"""OpenAI's official Python client against Scribevault's /v1 endpoints, as Open WebUI or a
script would use it. Prints one JSON object with what each call answered, for the Rust test
(crates/scribevault/tests/api/openai.rs) to check.

Usage: openai_client.py BASE_URL API_TOKEN MP3 SCENARIO
  SCENARIO "formats": models, then the MP3 in every response format, a WAV made from it, and the
  errors a client can meet; "once": one json transcription of the MP3.
"""

import json
import subprocess
import sys
import tempfile

import openai


def error_of(call):
    """The class, status and OpenAI error object of a refused call."""
    try:
        call()
    except openai.APIStatusError as error:
        body = error.body if isinstance(error.body, dict) else {}
        return {"class": type(error).__name__, "status": error.status_code, "error": body}
    return {"class": None}


def main():
    base, token, mp3, scenario = sys.argv[1:5]
    # A transcription waits in the queue: give it time, and no retries that would hide errors.
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=token, timeout=600, max_retries=0)
    out = {}
    if scenario == "once":
        with open(mp3, "rb") as audio:
            out["text"] = client.audio.transcriptions.create(file=audio, model="whisper-1").text
        print(json.dumps(out))
        return

    out["models"] = [model.id for model in client.models.list().data]
    with open(mp3, "rb") as audio:
        out["json"] = client.audio.transcriptions.create(file=audio, model="whisper-1").text
    with open(mp3, "rb") as audio:
        verbose = client.audio.transcriptions.create(
            file=audio,
            model="whisper-1",
            response_format="verbose_json",
            timestamp_granularities=["word", "segment"],
        )
    out["verbose"] = {
        "text": verbose.text,
        "duration": verbose.duration,
        "language": verbose.language,
        "segments": [{"start": s.start, "end": s.end, "text": s.text} for s in verbose.segments or []],
        "words": [{"word": w.word, "start": w.start, "end": w.end} for w in verbose.words or []],
    }
    for fmt in ("text", "srt", "vtt"):
        with open(mp3, "rb") as audio:
            out[fmt] = client.audio.transcriptions.create(file=audio, model="whisper-1", response_format=fmt)

    # A WAV without an extension, as a microphone recorder might send it.
    with tempfile.NamedTemporaryFile(suffix="") as wav:
        subprocess.run(
            ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", mp3, "-ar", "16000", "-ac", "1", "-f", "wav", wav.name],
            check=True,
        )
        with open(wav.name, "rb") as audio:
            out["wav"] = client.audio.transcriptions.create(file=("recording", audio), model="whisper-1").text

    out["not_audio"] = error_of(
        lambda: client.audio.transcriptions.create(file=("notes.txt", b"these are not sounds " * 200), model="whisper-1")
    )
    # A WAV header and then nothing a decoder can read.
    out["broken_wav"] = error_of(
        lambda: client.audio.transcriptions.create(
            file=("broken.wav", b"RIFF\x24\x00\x00\x00WAVE" + b"not a format chunk " * 50), model="whisper-1"
        )
    )
    with open(mp3, "rb") as audio:
        data = audio.read()
    out["unknown_model"] = error_of(lambda: client.audio.transcriptions.create(file=("a.mp3", data), model="no-such-model"))
    out["bad_language"] = error_of(
        lambda: client.audio.transcriptions.create(file=("a.mp3", data), model="whisper-1", language="klingon")
    )
    # An explicit language is another transcription of the same audio, decoded in that language.
    out["english"] = client.audio.transcriptions.create(file=("a.mp3", data), model="whisper-1", language="EN").text
    out["bad_format"] = error_of(
        lambda: client.audio.transcriptions.create(file=("a.mp3", data), model="whisper-1", response_format="diarized_json")
    )
    stranger = openai.OpenAI(base_url=f"{base}/v1", api_key="svt_" + "x" * 43, max_retries=0)
    out["bad_token"] = error_of(lambda: stranger.models.list())
    print(json.dumps(out))


if __name__ == "__main__":
    main()
