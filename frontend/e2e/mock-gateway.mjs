// A stand-in for the Scribevault gateway, for developing the SPA without the Rust services and
// for trying the end-to-end script. It speaks the same REST + Socket.IO contract, keeps
// everything in memory and "transcribes" by replaying the .txt beside a known sample MP3.
// YouTube is a fake seeded like the real server's test fake: the channel @scribevault-demo
// ("Scribevault Demo", 120 videos, "Scribevault Demo episode 120" newest) and the playlist
// PLscribevaultdemo0000000000000001 ("Demo playlist"). The channel's id is
// UCscribevaultdemo000000001, so /channel/<id> names it too.
//
// Download jobs "download" each video in a few steps of MOCK_STEP_MS (default 300 ms), sending
// downloadProgress events; the video svdemo00013 (episode 13) always fails ("Video unavailable").
// Schedules keep their next run in their own time zone; "Sync now" finds 3 new videos the first
// time a schedule runs and none afterwards. The Vault (docs/vault-api.md) lives in mock-vault.mjs:
// every finished transcription becomes an AUDIO item found by its transcript path. User
// settings, templates, transcript and PDF conversion and premium OCR (docs/conversion-settings-api.md)
// live in mock-conversion.mjs; like the gateway, the mock drops `notification` events of a kind the
// user switched off (a finished download job, a scheduled sync that found videos, errors).
//
//   node e2e/mock-gateway.mjs            # serves dist/ and the API on http://127.0.0.1:8080
//   PORT=8081 AUDIO_DIR=... node e2e/mock-gateway.mjs
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import { createConversion } from './mock-conversion.mjs';
import { createVault, HttpError } from './mock-vault.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', 'dist');
const audioDir = process.env.AUDIO_DIR ?? '/work/shared/audio';
const port = Number(process.env.PORT ?? 8080);
const stepMs = Number(process.env.MOCK_STEP_MS ?? 300);

const users = new Map(); // email -> {id, email, password}
const tokens = new Map(); // token -> user
const uploads = new Map(); // userId -> [{youtubeVideoId, title, mp3FilePath}]
const jobs = new Map(); // jobId -> {id, userId, status, files: []}
const videoMp3s = new Map(); // userId -> Map(videoId -> mp3Path)
const sources = new Map(); // userId -> [{id, type, title, thumbnailUrl, url}]
const seenVideos = new Map(); // `${userId} ${channel}` -> Set(videoId), for newCount
const sourceKeys = new Map(); // sourceId -> 'channel:<id>' | 'playlist:<id>', what a source names
const downloadJobs = new Map(); // userId -> [job, newest first], each with its videos and timer
const schedules = new Map(); // userId -> [schedule]
const quota = { used: 0, limit: 10_000 };

// ---------- The YouTube fake ----------
const DEMO_HANDLE = 'scribevault-demo';
const DEMO_CHANNEL_ID = 'UCscribevaultdemo000000001';
/** The demo channel by handle or by id. */
const isDemoChannel = (id) => id === DEMO_HANDLE || id === DEMO_CHANNEL_ID.toLowerCase();
const FAILING_VIDEO_ID = 'svdemo00013';
const DEMO_PLAYLIST_ID = 'PLscribevaultdemo0000000000000001';
const DEMO_THUMBNAIL = '/mock-assets/scribevault-demo.svg';
const demoVideos = Array.from({ length: 120 }, (_, index) => {
  const episode = 120 - index;
  const youtubeVideoId = `svdemo${String(episode).padStart(5, '0')}`;
  return {
    youtubeVideoId,
    title: `Scribevault Demo episode ${episode}`,
    channelTitle: 'Scribevault Demo',
    duration: episode % 7 === 0 ? 3600 + episode * 13 : 240 + episode * 17,
    publishedAt: new Date(Date.UTC(2025, 0, 1) + (episode - 1) * 3 * 86_400_000).toISOString(),
    url: `https://www.youtube.com/watch?v=${youtubeVideoId}`,
  };
});
const demoChannel = {
  id: DEMO_CHANNEL_ID,
  title: 'Scribevault Demo',
  thumbnails: { high: { url: DEMO_THUMBNAIL } },
  subscriberCount: '12345',
  videoCount: String(demoVideos.length),
};
// The playlist holds every other episode: 60 videos, so its second page is short.
const playlistVideos = demoVideos.filter((video) => Number(video.title.split(' ').pop()) % 2 === 0);
const DEMO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="#4f46e5"/><path d="M38 30l30 18-30 18z" fill="#fff"/></svg>`;

/** What a URL names on the fake: {kind: 'channel'|'playlist', id} or an error {status, message}. */
function parseYoutubeUrl(raw, { playlists }) {
  const text = String(raw ?? '').trim();
  if (!text) return { status: 400, message: 'Please enter a YouTube channel URL' };
  let url;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text.replace(/^@/, 'www.youtube.com/@')}`);
  } catch {
    return { status: 400, message: 'Please enter a valid YouTube channel URL' };
  }
  if (!/(^|\.)youtube\.com$/i.test(url.hostname)) return { status: 400, message: 'Please enter a valid YouTube channel URL' };
  const list = url.searchParams.get('list');
  if (playlists && list) return { kind: 'playlist', id: list };
  const handle = url.pathname.match(/^\/@([\w.-]+)/);
  if (handle) return { kind: 'channel', id: handle[1].toLowerCase() };
  const channel = url.pathname.match(/^\/(?:channel|c|user)\/([\w.-]+)/);
  if (channel) return { kind: 'channel', id: channel[1].toLowerCase() };
  return { status: 400, message: 'Please enter a valid YouTube channel URL' };
}

function csvField(value) {
  const text = String(value ?? '');
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const json = (res, status, body) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};
const fail = (res, status, message, code = 'ERROR') => json(res, status, { error: { message, code } });

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function authUser(req) {
  const header = req.headers.authorization ?? '';
  return tokens.get(header.replace(/^Bearer /, '')) ?? null;
}

const isMp3 = (bytes) =>
  bytes.length > 3 &&
  ((bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0));

const io = new Server({ cors: { origin: true } });
io.use((socket, next) => {
  const { userId, token } = socket.handshake.auth ?? {};
  const user = tokens.get(token);
  if (!user || user.id !== userId) return next(new Error('unauthorized'));
  socket.data.userId = userId;
  socket.join(userId);
  return next();
});
const toUser = (userId, event, payload) => io.to(userId).emit(event, payload);
const transcriptFiles = new Map(); // userId -> Map(transcriptPath -> {title, text, source})
// The Vault asks the conversion service (made right after it) what a saved path is.
const vault = createVault({ toUser, sourceTypeOf: (userId, filePath) => conversion.sourceTypeOfPath(userId, filePath) });
const conversion = createConversion({ vault, transcriptOf: (userId, filePath) => transcriptFiles.get(userId)?.get(filePath) ?? null });

/**
 * A `notification` event, unless the user switched its kind off (the gateway does the same):
 * `downloadComplete`, `scheduledSync`, and every notification of type error under `errors`.
 */
function notify(userId, kind, notification) {
  const flags = conversion.settingsOf(userId).notifications;
  if (notification.type === 'error' ? !flags.errors : !flags[kind]) return;
  toUser(userId, 'notification', notification);
}

async function readJsonBody(req) {
  const text = (await readBody(req)).toString('utf8');
  if (!text.trim()) throw new HttpError(400, 'A JSON body is required');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The body is not valid JSON');
  }
}

async function readFormBody(req) {
  try {
    return await new Request('http://local/', { method: 'POST', headers: req.headers, body: await readBody(req) }).formData();
  } catch {
    throw new HttpError(400, 'The body is not multipart form data');
  }
}

/** Answers a settings or conversion route; false when the route is not one of theirs. */
async function serveConversion(req, res, url, user) {
  try {
    const answer = await conversion.route(req, url, user, { readJson: readJsonBody, readForm: readFormBody });
    if (!answer) return false;
    if (answer.status === 204) {
      res.writeHead(204);
      res.end();
    } else {
      json(res, answer.status, answer.body);
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    fail(res, error.status, error.message, error.code);
  }
  return true;
}

/** Answers a Vault route (JSON or a download); false when the route is not the Vault's. */
async function serveVault(req, res, url, user) {
  try {
    const answer = await vault.route(req, url, user);
    if (!answer) return false;
    if (answer.file) {
      const { name, type, data } = answer.file;
      res.writeHead(answer.status, {
        'Content-Type': type,
        'Content-Length': data.length,
        'Content-Disposition': `attachment; filename="${name.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'Cache-Control': 'no-store',
      });
      res.end(data);
    } else {
      json(res, answer.status, answer.body);
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    fail(res, error.status, error.message, error.code);
  }
  return true;
}

// ---------- Download jobs ----------
const videosOf = (source) => (source.type === 'PLAYLIST' ? playlistVideos : demoVideos);
const MAX_VIDEOS_PER_JOB = 100;

/** A job as the API shows it (without the mock's bookkeeping). */
function jobView(job) {
  const { userId: _userId, videos: _videos, timer: _timer, superseded: _superseded, ...view } = job;
  return view;
}

function jobEvent(job) {
  return {
    jobId: job.id,
    // The SPA uppercases lowercase statuses (spec §4): send them lowercase to keep that honest.
    status: job.status.toLowerCase(),
    processedVideos: job.processedVideos,
    totalVideos: job.totalVideos,
    failedVideos: job.failedVideos,
    progress: job.progress,
    error: job.errorMessage,
    currentVideo: job.currentVideo,
  };
}

function newDownloadJob(userId, source, videos, { transcribe = false } = {}) {
  const job = {
    id: randomUUID(),
    userId,
    sourceId: source.id,
    sourceTitle: source.title,
    status: 'PENDING',
    totalVideos: videos.length,
    processedVideos: 0,
    failedVideos: 0,
    progress: 0,
    errorMessage: null,
    startedAt: null,
    completedAt: null,
    createdAt: new Date().toISOString(),
    transcribe: Boolean(transcribe),
    currentVideo: null,
    videos: videos.map((video) => ({ videoId: video.youtubeVideoId, title: video.title, state: 'waiting' })),
    timer: null,
    superseded: false,
  };
  downloadJobs.set(userId, [job, ...(downloadJobs.get(userId) ?? [])]);
  runDownloadJob(job);
  return job;
}

/** Fetches the videos one after the other, 25 % a step, with a downloadProgress event each step. */
function runDownloadJob(job) {
  const send = () => toUser(job.userId, 'downloadProgress', jobEvent(job));
  job.timer = setTimeout(() => {
    job.status = 'PROCESSING';
    job.startedAt = new Date().toISOString();
    const failures = [];
    let index = 0;
    let percent = 0;
    const step = () => {
      if (job.status !== 'PROCESSING') return;
      const video = job.videos[index];
      if (!video) {
        job.currentVideo = null;
        job.status = job.failedVideos > 0 ? 'FAILED' : 'COMPLETED';
        job.completedAt = new Date().toISOString();
        send();
        notify(
          job.userId,
          'downloadComplete',
          job.status === 'COMPLETED'
            ? { title: 'Download complete', message: `${job.sourceTitle}: ${job.processedVideos} of ${job.totalVideos} videos downloaded`, type: 'success' }
            : { title: 'Download failed', message: `${job.sourceTitle}: ${job.failedVideos} of ${job.totalVideos} videos failed`, type: 'error' },
        );
        return;
      }
      job.currentVideo = { videoId: video.videoId, title: video.title, percent };
      send();
      if (video.videoId === FAILING_VIDEO_ID && percent >= 25) {
        video.state = 'failed';
        failures.push(`${video.videoId}: Video unavailable`);
        job.failedVideos += 1;
        job.errorMessage = failures.join('\n');
      } else if (percent >= 100) {
        video.state = 'arrived';
      }
      if (video.state !== 'waiting') {
        job.processedVideos += 1;
        job.progress = Math.round((job.processedVideos / job.totalVideos) * 100);
        index += 1;
        percent = 0;
      } else {
        percent += 25;
      }
      job.timer = setTimeout(step, stepMs);
    };
    step();
  }, stepMs);
}

// ---------- Schedules ----------
const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY'];

function isTimeZone(zone) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock parts of `date` in `timeZone`. */
function wallClock(date, timeZone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(date)
      .map((part) => [part.type, Number(part.value)]),
  );
  return parts;
}

/** The instant when the wall clock of `timeZone` shows the given day and time (good enough around DST). */
function instantOf({ year, month, day, hour, minute }, timeZone) {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  const shown = wallClock(new Date(guess), timeZone);
  const offset = Date.UTC(shown.year, shown.month - 1, shown.day, shown.hour, shown.minute) - guess;
  return new Date(guess - offset);
}

/** The next time of day after now, then every day, week or month. Null while inactive. */
function nextRunAt(schedule, now = new Date()) {
  if (!schedule.isActive) return null;
  const [hour, minute] = schedule.timeOfDay.split(':').map(Number);
  const today = wallClock(now, schedule.timezone);
  let candidate = instantOf({ year: today.year, month: today.month, day: today.day, hour, minute }, schedule.timezone);
  let days = 0;
  while (candidate <= now) {
    days += 1;
    const base = new Date(Date.UTC(today.year, today.month - 1, today.day));
    if (schedule.frequency === 'MONTHLY') base.setUTCMonth(base.getUTCMonth() + days);
    else base.setUTCDate(base.getUTCDate() + (schedule.frequency === 'WEEKLY' ? 7 : 1) * days);
    candidate = instantOf({ year: base.getUTCFullYear(), month: base.getUTCMonth() + 1, day: base.getUTCDate(), hour, minute }, schedule.timezone);
  }
  return candidate.toISOString();
}

function scheduleView(schedule, userId) {
  const source = (sources.get(userId) ?? []).find((candidate) => candidate.id === schedule.sourceId);
  const { runs: _runs, ...view } = schedule;
  return {
    ...view,
    source: source ? { type: source.type, title: source.title, thumbnailUrl: source.thumbnailUrl } : null,
    nextRunAt: nextRunAt(schedule),
  };
}

/** The message of the first wrong field of a schedule body, or null. */
function scheduleError(body, { partial }) {
  if ((!partial || 'timeOfDay' in body) && !/^([01]\d|2[0-3]):[0-5]\d$/.test(String(body.timeOfDay ?? ''))) return 'Invalid time format';
  if ((!partial || 'frequency' in body) && !FREQUENCIES.includes(body.frequency)) return 'Frequency must be DAILY, WEEKLY or MONTHLY';
  if ('timezone' in body && !isTimeZone(body.timezone)) return `Unknown time zone "${body.timezone}"`;
  if ('isActive' in body && typeof body.isActive !== 'boolean') return 'isActive must be true or false';
  return null;
}

function transcriptText(title) {
  const file = path.join(audioDir, `${title}.txt`);
  return existsSync(file) ? readFileSync(file, 'utf8') : `Transcript of ${title}.`;
}

function runJob(job) {
  job.status = 'processing';
  let index = 0;
  const next = () => {
    const file = job.files[index];
    if (!file) {
      job.status = 'completed';
      return;
    }
    if (file.status === 'error') {
      index += 1;
      next();
      return;
    }
    file.status = 'transcribing';
    let progress = 0;
    const timer = setInterval(() => {
      if (file.status !== 'transcribing') {
        clearInterval(timer);
        index += 1;
        next();
        return;
      }
      progress += 25;
      if (progress < 100) {
        file.progress = progress;
        toUser(job.userId, 'transcriptionProgress', { fileId: file.id, jobId: job.id, progress });
        return;
      }
      clearInterval(timer);
      const started = Date.now() - 4 * stepMs;
      Object.assign(file, {
        status: 'completed',
        progress: 100,
        transcriptPath: `transcripts/${file.id}.txt`,
        markdownPath: `transcripts/${file.id}.md`,
        processingTime: Date.now() - started,
      });
      transcriptFiles.set(job.userId, transcriptFiles.get(job.userId) ?? new Map());
      transcriptFiles.get(job.userId).set(file.transcriptPath, { title: file.title, text: transcriptText(file.title).trim(), source: file.mp3Path });
      // The Vault keeps the transcript; the transcription screen finds it by this path.
      vault.addTranscript(job.userId, {
        title: file.title,
        content: `# ${file.title}\n\n${transcriptText(file.title).trim()}\n`,
        fileName: file.transcriptPath,
      });
      toUser(job.userId, 'transcriptionComplete', {
        fileId: file.id,
        jobId: job.id,
        transcriptPath: file.transcriptPath,
        markdownPath: file.markdownPath,
        processingTime: file.processingTime,
      });
      index += 1;
      next();
    }, stepMs);
  };
  setTimeout(next, stepMs);
}

async function api(req, res, url) {
  const route = `${req.method} ${url.pathname}`;
  if (route === 'POST /api/auth/signup' || route === 'POST /api/auth/login') {
    const { email = '', password = '' } = JSON.parse((await readBody(req)).toString() || '{}');
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return fail(res, 400, 'Please enter a valid email address', 'BAD_REQUEST');
    if (route.endsWith('signup')) {
      if (password.length < 8) return fail(res, 400, 'Password must be at least 8 characters', 'BAD_REQUEST');
      if (users.has(email)) return fail(res, 409, 'An account with this email already exists', 'CONFLICT');
      users.set(email, { id: randomUUID(), email, password });
    }
    const user = users.get(email);
    if (!user || user.password !== password) return fail(res, 401, 'Invalid email or password', 'UNAUTHENTICATED');
    const token = randomUUID();
    tokens.set(token, user);
    return json(res, route.endsWith('signup') ? 201 : 200, { data: { token, user: { id: user.id, email } } });
  }

  // Signed export links work without the bearer header.
  if (url.pathname.startsWith('/api/library/export/files/') && (await serveVault(req, res, url, null))) return undefined;
  const user = authUser(req);
  if (!user) return fail(res, 401, 'Authentication required', 'UNAUTHENTICATED');

  if (route === 'POST /api/video-mp3/upload') {
    const form = await new Request('http://local/', { method: 'POST', headers: req.headers, body: await readBody(req) }).formData();
    const file = form.get('mp3');
    if (!(file instanceof File)) return fail(res, 400, 'Please select MP3 files only', 'BAD_REQUEST');
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!isMp3(bytes)) return fail(res, 400, 'Please select MP3 files only', 'BAD_REQUEST');
    if (bytes.length > 500 * 1024 * 1024) return fail(res, 413, 'File too large', 'PAYLOAD_TOO_LARGE');
    const title = String(form.get('title') ?? file.name.replace(/\.mp3$/i, ''));
    const mp3Path = `uploads/${user.id}/${randomUUID()}.mp3`;
    const list = uploads.get(user.id) ?? [];
    list.push({ youtubeVideoId: null, title, mp3FilePath: mp3Path });
    uploads.set(user.id, list);
    return json(res, 201, { data: { mp3Path, title, size: bytes.length } });
  }
  if (route === 'GET /api/video-mp3/manual-uploads') return json(res, 200, { data: { videos: uploads.get(user.id) ?? [] } });
  if (route === 'GET /api/video-mp3/status') {
    const ids = (url.searchParams.get('videoIds') ?? '').split(',').filter(Boolean);
    if (ids.length > 1000) return fail(res, 400, 'At most 1000 video ids at once', 'BAD_REQUEST');
    const mine = videoMp3s.get(user.id) ?? new Map();
    return json(res, 200, {
      data: Object.fromEntries(ids.map((id) => [id, { hasMp3: mine.has(id), mp3FilePath: mine.get(id) ?? null }])),
    });
  }
  const videoUpload = url.pathname.match(/^\/api\/video-mp3\/upload\/([\w-]{1,64})$/);
  if (req.method === 'POST' && videoUpload) {
    const videoId = videoUpload[1];
    const form = await new Request('http://local/', { method: 'POST', headers: req.headers, body: await readBody(req) }).formData();
    const file = form.get('mp3');
    if (!(file instanceof File)) return fail(res, 400, 'Please select MP3 files only', 'BAD_REQUEST');
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!isMp3(bytes)) return fail(res, 400, 'Please select MP3 files only', 'BAD_REQUEST');
    const title = String(form.get('title') ?? videoId);
    const mp3Path = `uploads/${user.id}/${videoId}.mp3`;
    const mine = videoMp3s.get(user.id) ?? new Map();
    mine.set(videoId, mp3Path);
    videoMp3s.set(user.id, mine);
    const list = (uploads.get(user.id) ?? []).filter((item) => item.youtubeVideoId !== videoId);
    list.push({ youtubeVideoId: videoId, title, mp3FilePath: mp3Path });
    uploads.set(user.id, list);
    return json(res, 201, { data: { mp3Path, mp3FilePath: mp3Path, title, size: bytes.length, videoId } });
  }

  if (route === 'POST /api/youtube-discovery/channel-videos') {
    const { channelUrl } = JSON.parse((await readBody(req)).toString() || '{}');
    const target = parseYoutubeUrl(channelUrl, { playlists: false });
    if (target.status) return fail(res, target.status, target.message, 'BAD_REQUEST');
    if (!isDemoChannel(target.id)) return fail(res, 404, 'Channel not found', 'NOT_FOUND');
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const videos = limit === -1 ? demoVideos : demoVideos.slice(0, Math.max(0, limit));
    quota.used += 1 + Math.ceil(videos.length / 50);
    const key = `${user.id} ${DEMO_HANDLE}`;
    const seen = seenVideos.get(key);
    const newCount = seen ? videos.filter((video) => !seen.has(video.youtubeVideoId)).length : 0;
    seenVideos.set(key, new Set([...(seen ?? []), ...videos.map((video) => video.youtubeVideoId)]));
    // A real scan takes a moment; let the SPA show its loading state.
    await new Promise((resolve) => setTimeout(resolve, 400));
    return json(res, 200, { data: { videos, channel: demoChannel, newCount } });
  }
  if (route === 'GET /api/youtube-discovery/quota') {
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    return json(res, 200, { data: { used: quota.used, limit: quota.limit, resetsAt: tomorrow.toISOString() } });
  }
  if (route === 'POST /api/youtube-discovery/export') {
    const { videoIds = [], exportType = 'urls' } = JSON.parse((await readBody(req)).toString() || '{}');
    const chosen = demoVideos.filter((video) => videoIds.includes(video.youtubeVideoId));
    if (chosen.length === 0) return fail(res, 400, 'No videos to export', 'BAD_REQUEST');
    const rows =
      exportType === 'all'
        ? [['youtubeVideoId', 'title', 'channelTitle', 'duration', 'publishedAt', 'url'], ...chosen.map((v) => [v.youtubeVideoId, v.title, v.channelTitle, v.duration, v.publishedAt, v.url])]
        : [['url'], ...chosen.map((video) => [video.url])];
    res.writeHead(200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="scribevault-demo-${exportType === 'all' ? 'videos' : 'urls'}.csv"`,
    });
    res.end(rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n');
    return undefined;
  }

  if (route === 'GET /api/sources') return json(res, 200, { data: sources.get(user.id) ?? [] });
  if (route === 'POST /api/sources') {
    const { url: sourceUrl, reuseExisting = false } = JSON.parse((await readBody(req)).toString() || '{}');
    const target = parseYoutubeUrl(sourceUrl, { playlists: true });
    if (target.status) return fail(res, target.status, target.message, 'BAD_REQUEST');
    const mine = sources.get(user.id) ?? [];
    const normalised = String(sourceUrl).trim();
    const named = target.kind === 'channel' && isDemoChannel(target.id) ? `channel:${DEMO_HANDLE}` : `${target.kind}:${target.id}`;
    const existing = mine.find((source) => source.url === normalised || sourceKeys.get(source.id) === named);
    // With reuseExisting the source already added is the answer (and its new videos are synced).
    if (existing && reuseExisting) return json(res, 200, { data: existing });
    if (existing) return fail(res, 409, 'This source has already been added', 'CONFLICT');
    let source;
    if (target.kind === 'playlist' && target.id === DEMO_PLAYLIST_ID) {
      source = { id: randomUUID(), type: 'PLAYLIST', title: 'Demo playlist', thumbnailUrl: null, url: normalised };
    } else if (target.kind === 'channel' && isDemoChannel(target.id)) {
      source = { id: randomUUID(), type: 'CHANNEL', title: demoChannel.title, thumbnailUrl: DEMO_THUMBNAIL, url: normalised };
    } else {
      return fail(res, 404, target.kind === 'playlist' ? 'Playlist not found' : 'Channel not found', 'NOT_FOUND');
    }
    mine.push(source);
    sources.set(user.id, mine);
    sourceKeys.set(source.id, named);
    toUser(user.id, 'sourceUpdate', { type: 'created', source });
    return json(res, 201, { data: source });
  }
  const sourceMatch = url.pathname.match(/^\/api\/sources\/([^/]+)(\/videos)?$/);
  if (sourceMatch) {
    const mine = sources.get(user.id) ?? [];
    const source = mine.find((candidate) => candidate.id === sourceMatch[1]);
    if (!source) return fail(res, 404, 'Source not found', 'NOT_FOUND');
    if (req.method === 'DELETE' && !sourceMatch[2]) {
      sources.set(user.id, mine.filter((candidate) => candidate !== source));
      schedules.set(user.id, (schedules.get(user.id) ?? []).filter((schedule) => schedule.sourceId !== source.id));
      toUser(user.id, 'sourceUpdate', { type: 'deleted', source });
      res.writeHead(204);
      res.end();
      return undefined;
    }
    if (req.method === 'GET' && sourceMatch[2]) {
      const all = videosOf(source);
      const start = Number(url.searchParams.get('pageToken') || 0) || 0;
      const page = all.slice(start, start + 50);
      const hasMore = start + 50 < all.length;
      return json(res, 200, { data: page, meta: { nextPageToken: hasMore ? String(start + 50) : null, hasMore } });
    }
  }
  if (route === 'GET /api/downloads') {
    const mine = (downloadJobs.get(user.id) ?? []).filter((job) => !job.superseded);
    return json(res, 200, { data: mine.map(jobView) });
  }
  if (route === 'POST /api/downloads') {
    const body = JSON.parse((await readBody(req)).toString() || '{}');
    const source = (sources.get(user.id) ?? []).find((candidate) => candidate.id === body.sourceId);
    if (!source) return fail(res, 404, 'Source not found', 'NOT_FOUND');
    const ids = Array.isArray(body.videoIds) ? body.videoIds.map(String) : [];
    if (ids.length === 0) return fail(res, 400, 'Select at least one video', 'BAD_REQUEST');
    if (ids.length > MAX_VIDEOS_PER_JOB) return fail(res, 400, 'A download job takes at most 100 videos', 'BAD_REQUEST');
    const known = new Map(videosOf(source).map((video) => [video.youtubeVideoId, video]));
    const stranger = ids.find((id) => !known.has(id));
    if (stranger) return fail(res, 400, `Video ${stranger} is not in this source`, 'BAD_REQUEST');
    const job = newDownloadJob(user.id, source, [...new Set(ids)].map((id) => known.get(id)), { transcribe: body.transcribe });
    return json(res, 201, { data: jobView(job) });
  }
  const downloadMatch = url.pathname.match(/^\/api\/downloads\/([^/]+)(\/retry)?$/);
  if (downloadMatch) {
    const job = (downloadJobs.get(user.id) ?? []).find((candidate) => candidate.id === downloadMatch[1] && !candidate.superseded);
    if (!job) return fail(res, 404, 'Download job not found', 'NOT_FOUND');
    if (req.method === 'DELETE' && !downloadMatch[2]) {
      if (job.status !== 'PENDING' && job.status !== 'PROCESSING') return fail(res, 409, 'This download job has already ended', 'CONFLICT');
      clearTimeout(job.timer);
      Object.assign(job, { status: 'FAILED', errorMessage: 'Cancelled by user', completedAt: new Date().toISOString(), currentVideo: null });
      toUser(user.id, 'downloadProgress', jobEvent(job));
      return json(res, 200, { data: jobView(job) });
    }
    if (req.method === 'POST' && downloadMatch[2]) {
      if (job.status !== 'FAILED') return fail(res, 409, 'Only a failed download job can be retried', 'CONFLICT');
      const source = (sources.get(user.id) ?? []).find((candidate) => candidate.id === job.sourceId);
      if (!source) return fail(res, 404, 'Source not found', 'NOT_FOUND');
      const missing = job.videos.filter((video) => video.state !== 'arrived');
      const known = new Map(videosOf(source).map((video) => [video.youtubeVideoId, video]));
      job.superseded = true;
      const retried = newDownloadJob(user.id, source, missing.map((video) => known.get(video.videoId)).filter(Boolean), {
        transcribe: job.transcribe,
      });
      return json(res, 201, { data: jobView(retried) });
    }
  }

  if (route === 'GET /api/schedules') {
    return json(res, 200, { data: (schedules.get(user.id) ?? []).map((schedule) => scheduleView(schedule, user.id)) });
  }
  if (route === 'POST /api/schedules') {
    const body = JSON.parse((await readBody(req)).toString() || '{}');
    if (!body.sourceId) return fail(res, 400, 'Source is required', 'BAD_REQUEST');
    const problem = scheduleError({ timezone: 'UTC', ...body }, { partial: false });
    if (problem) return fail(res, 400, problem, 'BAD_REQUEST');
    if (!(sources.get(user.id) ?? []).some((source) => source.id === body.sourceId)) return fail(res, 404, 'Source not found', 'NOT_FOUND');
    const schedule = {
      id: randomUUID(),
      sourceId: body.sourceId,
      frequency: body.frequency,
      timeOfDay: body.timeOfDay,
      timezone: body.timezone || 'UTC',
      isActive: true,
      lastRunAt: null,
      createdAt: new Date().toISOString(),
      runs: 0,
    };
    schedules.set(user.id, [...(schedules.get(user.id) ?? []), schedule]);
    return json(res, 201, { data: scheduleView(schedule, user.id) });
  }
  const scheduleMatch = url.pathname.match(/^\/api\/schedules\/([^/]+)(\/run)?$/);
  if (scheduleMatch) {
    const mine = schedules.get(user.id) ?? [];
    const schedule = mine.find((candidate) => candidate.id === scheduleMatch[1]);
    if (!schedule) return fail(res, 404, 'Schedule not found', 'NOT_FOUND');
    if (req.method === 'PATCH' && !scheduleMatch[2]) {
      const body = JSON.parse((await readBody(req)).toString() || '{}');
      const problem = scheduleError(body, { partial: true });
      if (problem) return fail(res, 400, problem, 'BAD_REQUEST');
      if ('sourceId' in body && !(sources.get(user.id) ?? []).some((source) => source.id === body.sourceId)) {
        return fail(res, 404, 'Source not found', 'NOT_FOUND');
      }
      for (const key of ['sourceId', 'frequency', 'timeOfDay', 'timezone', 'isActive']) if (key in body) schedule[key] = body[key];
      return json(res, 200, { data: scheduleView(schedule, user.id) });
    }
    if (req.method === 'DELETE' && !scheduleMatch[2]) {
      schedules.set(user.id, mine.filter((candidate) => candidate !== schedule));
      res.writeHead(204);
      res.end();
      return undefined;
    }
    if (req.method === 'POST' && scheduleMatch[2]) {
      // A real sync asks YouTube; the fake finds 3 new videos the first time and none after.
      const newVideos = schedule.runs === 0 ? 3 : 0;
      schedule.runs += 1;
      schedule.lastRunAt = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 400));
      if (newVideos > 0) {
        const title = scheduleView(schedule, user.id).source?.title ?? 'A source';
        notify(user.id, 'scheduledSync', { title: 'Scheduled sync', message: `${newVideos} new videos in ${title}`, type: 'info' });
      }
      return json(res, 200, { data: scheduleView(schedule, user.id), meta: { newVideos } });
    }
  }
  if (route === 'POST /api/transcription/start' || route === 'POST /api/transcription/schedule') {
    const body = JSON.parse((await readBody(req)).toString() || '{}');
    if (!Array.isArray(body.files) || body.files.length === 0) return fail(res, 400, 'No files to transcribe', 'BAD_REQUEST');
    const job = {
      id: randomUUID(),
      userId: user.id,
      status: 'pending',
      files: body.files.map((file) => ({ ...file, status: 'pending', progress: 0, errorMessage: null, retryCount: 0, maxRetries: 10, lastFailedAt: null })),
    };
    jobs.set(job.id, job);
    if (route.endsWith('start')) runJob(job);
    return json(res, 201, { data: { jobId: job.id } });
  }
  if (route === 'POST /api/transcription/retry' || route === 'POST /api/transcription/cancel') {
    const { fileId, jobId } = JSON.parse((await readBody(req)).toString() || '{}');
    const job = jobs.get(jobId);
    const file = job?.files.find((candidate) => candidate.id === fileId);
    if (!job || job.userId !== user.id || !file) return fail(res, 404, 'No active job for this file', 'NOT_FOUND');
    if (route.endsWith('cancel')) Object.assign(file, { status: 'error', errorMessage: 'Cancelled by user', progress: 0 });
    else {
      Object.assign(file, { status: 'pending', errorMessage: null, retryCount: file.retryCount + 1 });
      runJob({ ...job, files: [file] });
      file.status = 'retrying';
    }
    return json(res, 200, { data: file });
  }
  const history = url.pathname.match(/^\/api\/transcription\/history\/([^/]+)$/);
  if (req.method === 'GET' && history) {
    const job = jobs.get(history[1]);
    if (!job || job.userId !== user.id) return fail(res, 404, 'Job not found', 'NOT_FOUND');
    return json(res, 200, { data: job.files.map(({ id, title, retryCount, maxRetries, lastFailedAt }) => ({ id, title, retryCount, maxRetries, lastFailedAt })) });
  }
  const jobMatch = url.pathname.match(/^\/api\/transcription\/jobs\/([^/]+)$/);
  if (req.method === 'GET' && jobMatch) {
    const job = jobs.get(jobMatch[1]);
    if (!job || job.userId !== user.id) return fail(res, 404, 'Job not found', 'NOT_FOUND');
    return json(res, 200, { data: { id: job.id, status: job.status, files: job.files } });
  }
  if (await serveConversion(req, res, url, user)) return undefined;
  if (await serveVault(req, res, url, user)) return undefined;
  return fail(res, 404, `No route for ${route}`, 'NOT_FOUND');
}

const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.map': 'application/json' };

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/config.json') return json(res, 200, { authMode: 'local' });
  if (url.pathname === DEMO_THUMBNAIL) {
    res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
    res.end(DEMO_SVG);
    return undefined;
  }
  if (url.pathname.startsWith('/api/')) {
    api(req, res, url).catch((error) => {
      console.error(error);
      fail(res, 500, 'Internal error', 'INTERNAL');
    });
    return undefined;
  }
  let file = path.join(dist, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
  if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = path.join(dist, 'index.html');
  if (!existsSync(file)) return fail(res, 503, 'Run npm run build first', 'UNAVAILABLE');
  res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
  return undefined;
});
io.attach(server);
server.listen(port, '127.0.0.1', () => console.log(`mock gateway on http://127.0.0.1:${port}`));
