"""Reads a Scribevault podcast feed with feedparser (PyPI) and checks what Apple's podcast
requirements (podcasters.apple.com support/823) and the Podcasting 2.0 namespace ask of it.

Usage: feed_check.py FEED_URL EXPECTED_EPISODES. Prints one JSON line with what it found; exits
non-zero, naming the broken rule, when a requirement is not met.
"""

import email.utils
import json
import sys
import urllib.request
import xml.etree.ElementTree as ElementTree

import feedparser

PODCAST_NS = "https://podcastindex.org/namespace/1.0"
ITUNES_NS = "http://www.itunes.com/dtds/podcast-1.0.dtd"


def fail(message):
    print(f"feed_check: {message}", file=sys.stderr)
    sys.exit(1)


def fetch(url, method="GET", headers=None):
    request = urllib.request.Request(url, method=method, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        # Header names are case-insensitive (actix-web sends them in lower case).
        return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()


def rfc2822(value, what):
    if not value or email.utils.parsedate_to_datetime(value) is None:
        fail(f"{what} is not an RFC 2822 date: {value!r}")


def ascii_url(url, what):
    if not url or not url.isascii() or not url.startswith(("http://", "https://")):
        fail(f"{what} is not an absolute ASCII URL: {url!r}")


def main():
    feed_url, expected = sys.argv[1], int(sys.argv[2])
    status, headers, body = fetch(feed_url)
    if status != 200 or "xml" not in headers.get("content-type", ""):
        fail(f"the feed answered {status} {headers.get('content-type')}")
    parsed = feedparser.parse(body)
    if parsed.bozo:
        fail(f"feedparser found the feed malformed: {parsed.bozo_exception}")
    if parsed.version != "rss20":
        fail(f"not RSS 2.0 but {parsed.version!r}")
    channel = parsed.feed
    for key in ("title", "link", "subtitle", "language", "generator", "image", "author"):
        if not channel.get(key):
            fail(f"the channel has no {key}")
    rfc2822(channel.get("updated"), "lastBuildDate")
    # feedparser reads <itunes:block>yes</itunes:block> as 1.
    if channel.get("itunes_block") != 1:
        fail(f"itunes:block is {channel.get('itunes_block')!r}")
    if channel.get("itunes_explicit") not in (False, None) and channel.get("itunes_explicit") is not False:
        fail(f"itunes:explicit is {channel.get('itunes_explicit')!r}")
    ascii_url(channel.image.get("href"), "the channel's image")
    self_links = [link for link in channel.get("links", []) if link.get("rel") == "self"]
    if not self_links or self_links[0]["href"] != feed_url:
        fail(f"atom:link rel=self is not the feed's URL: {self_links}")

    # What feedparser does not read (the podcast: namespace), read from the XML itself.
    root = ElementTree.fromstring(body)
    xml_channel = root.find("channel")
    if xml_channel.findtext(f"{{{PODCAST_NS}}}locked") != "yes":
        fail("podcast:locked is not yes")
    if not xml_channel.findtext(f"{{{PODCAST_NS}}}guid"):
        fail("no podcast:guid")
    xml_items = {item.findtext("guid"): item for item in xml_channel.findall("item")}

    entries = parsed.entries
    if len(entries) != expected:
        fail(f"{len(entries)} episodes, expected {expected}")
    guids = [entry.get("id") for entry in entries]
    if len(set(guids)) != len(guids) or not all(guids):
        fail(f"episode GUIDs are missing or repeated: {guids}")
    episodes = []
    for entry in entries:
        if entry.get("guidislink"):
            fail(f"{entry.id}: the GUID must not be a permalink")
        rfc2822(entry.get("published"), f"{entry.id}: pubDate")
        if not entry.get("title") or not entry.get("summary"):
            fail(f"{entry.id}: no title or description")
        duration = entry.get("itunes_duration")
        if not duration or not str(duration).isdigit() or int(duration) <= 0:
            fail(f"{entry.id}: itunes:duration is {duration!r}")
        enclosures = entry.get("enclosures", [])
        if len(enclosures) != 1:
            fail(f"{entry.id}: {len(enclosures)} enclosures")
        enclosure = enclosures[0]
        ascii_url(enclosure.get("href"), f"{entry.id}: the enclosure")
        if enclosure.get("type") != "audio/mpeg" or not str(enclosure.get("length", "")).isdigit():
            fail(f"{entry.id}: enclosure type/length {enclosure}")
        length = int(enclosure["length"])

        # Apple: HEAD and byte ranges on the enclosure.
        status, head, _ = fetch(enclosure["href"], method="HEAD")
        if status != 200 or int(head.get("content-length", -1)) != length:
            fail(f"{entry.id}: HEAD answered {status} with {head.get('content-length')} bytes, the feed says {length}")
        if head.get("accept-ranges") != "bytes" or head.get("content-type") != "audio/mpeg":
            fail(f"{entry.id}: HEAD headers {head}")
        status, ranged, first = fetch(enclosure["href"], headers={"Range": "bytes=0-99"})
        if status != 206 or len(first) != 100 or ranged.get("content-range") != f"bytes 0-99/{length}":
            fail(f"{entry.id}: Range 0-99 answered {status}, {len(first)} bytes, {ranged.get('content-range')}")
        status, _, whole = fetch(enclosure["href"])
        if status != 200 or len(whole) != length or whole[:100] != first:
            fail(f"{entry.id}: the whole enclosure is {len(whole)} bytes, not {length}, or its start differs")
        middle = length // 2
        status, _, part = fetch(enclosure["href"], headers={"Range": f"bytes={middle}-{middle + 9}"})
        if status != 206 or part != whole[middle:middle + 10]:
            fail(f"{entry.id}: a range in the middle is not those bytes of the file")

        # Podcasting 2.0: podcast:transcript with url and type, each served.
        transcripts = xml_items[entry.id].findall(f"{{{PODCAST_NS}}}transcript")
        types = sorted(t.get("type") for t in transcripts)
        if types != ["application/json", "application/srt", "text/vtt"]:
            fail(f"{entry.id}: transcript types {types}")
        served = {}
        for transcript in transcripts:
            ascii_url(transcript.get("url"), f"{entry.id}: a transcript")
            status, headers, text = fetch(transcript.get("url"))
            if status != 200 or not text:
                fail(f"{entry.id}: {transcript.get('url')} answered {status}")
            served[transcript.get("type")] = text.decode("utf-8")
        if not served["text/vtt"].startswith("WEBVTT"):
            fail(f"{entry.id}: the VTT has no header")
        if " --> " not in served["application/srt"]:
            fail(f"{entry.id}: the SRT has no cue")
        segments = json.loads(served["application/json"])["segments"]
        if not segments or "startTime" not in segments[0] or "body" not in segments[0]:
            fail(f"{entry.id}: the JSON transcript has no segments")
        episodes.append({"guid": entry.id, "length": length, "duration": int(duration), "enclosure": enclosure["href"], "title": entry.title, "segments": len(segments)})
    print(json.dumps({"title": channel.title, "episodes": episodes}))


if __name__ == "__main__":
    main()
