# A yt-dlp extractor plugin for Scribevault's tests: a video "page" of the local media server
# (http://127.0.0.1:PORT/watch?v=ID) is extracted as the info JSON that server keeps for the
# video (/info/ID.json), shaped as yt-dlp's YouTube extractor gives it: formats with the
# original audio's language, `subtitles` and `automatic_captions` with json3 tracks on the same
# server. yt-dlp itself (format choice, --load-info-json, subtitle downloads, HTTP errors) runs
# unchanged; only YouTube's pages are played by the test server.
from yt_dlp.extractor.common import InfoExtractor


class ScribevaultFakeYouTubeIE(InfoExtractor):
    IE_NAME = 'scribevault:fakeyoutube'
    _VALID_URL = r'https?://127\.0\.0\.1:\d+/watch\?v=(?P<id>[\w-]+)'

    def _real_extract(self, url):
        video_id = self._match_id(url)
        base = url.split('/watch?', 1)[0]
        return self._download_json(f'{base}/info/{video_id}.json', video_id)
