// End-to-end check of the SPA against a running `scribevault all` (scripts/e2e.sh starts one).
//
//   BASE_URL=http://127.0.0.1:8080 AUDIO_DIR=../shared/audio node e2e/e2e.mjs
//
// Signs up, uploads two MP3s, creates transcripts, starts them, waits (without reloading) for
// both rows to complete through the socket, follows the Vault link (resolved by the row's
// transcript path) straight to the item and reads the transcript, then works the Vault: saves three
// notes with POST /api/vault/save, searches (highlights and audio match times), stars, rates, tags
// with a suggestion, exports the item and then the selection (the downloads must arrive: a file
// and a zip with one entry per selected item), with desktop and 390 px screenshots of list, grid,
// search results and the detail view;
// then converts both transcripts on /convert-pdf with a template (saved as a named template),
// previews one and saves them to the Vault; imports e2e/fixtures/sample-scan.pdf in the Vault (a
// non-PDF is refused; page 2, a picture, is named for OCR), saves it and runs premium OCR, which
// must read page 2; saves Dark and Grid in Settings and sees both in the Vault, then resets;
// then tries broken-not-audio.mp3, and uploads three files with one of them not audio to check that
// the overall bar's fill matches its percentage in every frame (desktop and 390 px). Saves desktop
// and 390 px screenshots of every screen into a folder it prints (SCREENSHOT_DIR, else a new
// temporary folder). Exits non-zero on any failure.
//
// Who gets in (issue 20): a fresh instance's /config.json says `signup` `open`, the first
// sign-up is its admin (Settings → Users lists it), and then it says
// `invite`; the admin creates an invitation and reads its link; a fresh browser opens it (also at
// 390 px), signs up and lands in the app; the admin disables that account and its next API call
// signs it out with the server's 'disabled' message on the sign-in screen (signing in again is
// refused with it); at the end Settings → Account: Change password (a wrong current password is
// refused, the right one works), Sign out everywhere, and the new password signs in.
//
// Content-Security-Policy: every page of every context records `securitypolicyviolation` events
// and Chromium's console lines about the policy; each screenshot checks them, and any violation
// fails the run naming the directive and the blocked URI. The gateway sends its real policy.
//
// With YOUTUBE_DEMO_CHANNEL set (the server runs a YouTube fake seeded with the channel
// @scribevault-demo, "Scribevault Demo", 120 videos, and the playlist "Demo playlist"), it also
// searches that channel on Find Videos (default 100), selects two videos, drops an MP3 on one
// row, creates transcripts from it, exports the URLs, adds the playlist on /sources and pages
// through its videos, with desktop and 390 px screenshots. YOUTUBE_DEMO_CHANNEL is the channel
// URL, or a handle (@name), or any other value for https://www.youtube.com/@scribevault-demo;
// YOUTUBE_DEMO_TITLE, YOUTUBE_DEMO_PLAYLIST and YOUTUBE_DEMO_PLAYLIST_TITLE override the rest.
import { mkdirSync, mkdtempSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const AUDIO_DIR = path.resolve(process.env.AUDIO_DIR ?? '../shared/audio');
const TRANSCRIBE_TIMEOUT_MS = Number(process.env.TRANSCRIBE_TIMEOUT_MS ?? 10 * 60_000);
const SAMPLES = ['sample-01-welcome.mp3', 'sample-02-subscribe.mp3'];
// Dropped on a discovery row: not one of SAMPLES, whose audio the upload steps already stored
// (storage keeps one copy per user, so the same file would hand over a path /transcripts lists).
const DISCOVERY_SAMPLE = 'sample-03-meeting.mp3';
const BROKEN = 'broken-not-audio.mp3';
const shotsDir = process.env.SCREENSHOT_DIR
  ? path.resolve(process.env.SCREENSHOT_DIR)
  : mkdtempSync(path.join(tmpdir(), 'scribevault-e2e-'));
mkdirSync(shotsDir, { recursive: true });

const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
const DEMO_CHANNEL = process.env.YOUTUBE_DEMO_CHANNEL?.trim() || null;
const DEMO = DEMO_CHANNEL
  ? {
      channelUrl: /^https?:\/\//i.test(DEMO_CHANNEL)
        ? DEMO_CHANNEL
        : DEMO_CHANNEL.startsWith('@')
          ? `https://www.youtube.com/${DEMO_CHANNEL}`
          : 'https://www.youtube.com/@scribevault-demo',
      title: process.env.YOUTUBE_DEMO_TITLE ?? 'Scribevault Demo',
      episode: (n) => `${process.env.YOUTUBE_DEMO_TITLE ?? 'Scribevault Demo'} episode ${n}`,
      playlistUrl: process.env.YOUTUBE_DEMO_PLAYLIST ?? 'https://www.youtube.com/playlist?list=PLscribevaultdemo0000000000000001',
      playlistTitle: process.env.YOUTUBE_DEMO_PLAYLIST_TITLE ?? 'Demo playlist',
    }
  : null;
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

let passed = 0;
let failed = 0;
const reported = new WeakSet();
/** The page whose state is saved as failure-<n>.png when a step fails. */
let activePage = null;
const pageErrors = [];
/** The one Chromium of the run. */
let browser = null;

async function step(name, fn) {
  const started = Date.now();
  try {
    const result = await fn();
    passed += 1;
    console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    return result;
  } catch (error) {
    failed += 1;
    console.log(`✗ ${name}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    if (error && typeof error === 'object') reported.add(error);
    await activePage
      ?.screenshot({ path: path.join(shotsDir, `failure-${passed + failed}.png`), fullPage: true })
      .catch(() => {});
    throw error;
  }
}

async function shot(page, name, { fullPage = true } = {}) {
  // A full-page capture of a scrolled page draws the fixed menu and sticky bar where the scroll left them.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage });
  // Every screen the run visits is photographed: each is also checked against the real CSP.
  await checkCsp(page, name);
}

function watch(page, label) {
  page.on('pageerror', (error) => pageErrors.push(`${label}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    console.log(`  [${label} console] ${message.text()}`);
    // Chromium logs each blocked load or inline script/style as "Refused to … Content Security Policy …".
    if (/Content Security Policy/i.test(message.text())) {
      cspViolations.push({ label, page: safeUrl(page), console: message.text() });
    }
  });
}

/*
 * Content-Security-Policy: the gateway sends its policy on every answer, so the browser enforces
 * the real one. Each context records `securitypolicyviolation` events (an init script, so before
 * any of the SPA's code runs) on `window.__cspViolations` and hands each to the run through a
 * binding (a navigation would lose the page's copy); Chromium's console lines about the policy are
 * collected too (`watch`). Every screenshot, and a last step, fails on anything collected, naming
 * the directive and the blocked URI.
 */
const cspViolations = [];

function safeUrl(page) {
  try {
    return page.url();
  } catch {
    return '';
  }
}

/** A browser context whose pages report CSP violations; every context of the run is made here. */
async function newContext(options, label) {
  const context = await browser.newContext(options);
  await context.exposeBinding('__scribevaultCspViolation', ({ page }, violation) => {
    cspViolations.push({ label, page: page ? safeUrl(page) : '', ...violation });
  });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const violation = {
          directive: event.effectiveDirective || event.violatedDirective,
          blocked: event.blockedURI || '(none)',
          disposition: event.disposition,
          source: event.sourceFile ? `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}` : '',
          sample: event.sample || '',
        };
        window.__cspViolations.push(violation);
        const sent = window.__scribevaultCspViolation?.(violation);
        sent?.catch?.(() => {});
      },
      true,
    );
  });
  return context;
}

const describeViolation = (violation) =>
  violation.console
    ? `${violation.label} ${violation.page}: ${violation.console}`
    : `${violation.label} ${violation.page}: ${violation.disposition ?? 'enforce'} ${violation.directive} blocked ${violation.blocked}` +
      `${violation.source ? ` (from ${violation.source})` : ''}${violation.sample ? ` sample "${violation.sample}"` : ''}`;

/** Fails with every CSP violation seen since the last check (this page's own list, and all reported). */
async function checkCsp(page, screen) {
  // The page's list, read at the end of the screen: a report still on its way through the binding is here already.
  const inPage = await page.evaluate(() => (window.__cspViolations ?? []).splice(0)).catch(() => []);
  const reported = cspViolations.splice(0);
  const seen = new Set();
  const all = [];
  for (const violation of [...reported, ...inPage.map((v) => ({ label: screen, page: safeUrl(page), ...v }))]) {
    const key = violation.console ?? `${violation.directive} ${violation.blocked} ${violation.source}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all.push(violation);
  }
  if (all.length > 0) {
    throw new Error(`CSP violation${all.length > 1 ? 's' : ''} on ${screen}: ${all.map(describeViolation).join('; ')}`);
  }
  cspScreens += 1;
}
let cspScreens = 0;

/** locator.waitFor, with the thing waited for named in the error. */
async function waitForLabeled(locator, label, options) {
  try {
    await locator.waitFor(options);
  } catch (error) {
    throw new Error(`waiting for ${label}: ${error instanceof Error ? error.message.split('\n')[0] : error}`, { cause: error });
  }
}

const rowByTitle = (page, testId, title) =>
  page.getByTestId(testId).filter({ has: page.locator('.file-title', { hasText: title }) });

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A row whose title is exactly `title` ('episode 12' must not match 'episode 120'). */
const rowByExactTitle = (page, testId, title) =>
  page.getByTestId(testId).filter({ has: page.locator('.file-title', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }) });

/** Fails unless the page is no wider than its viewport (no sideways scrolling on a phone). */
async function checkNoOverflow(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 1) throw new Error(`${what} is ${overflow}px wider than the viewport`);
}

/** Drops `file` (from AUDIO_DIR) on `target` the way a browser does: dragenter, dragover, drop. */
async function dropFile(page, target, file) {
  const base64 = readFileSync(path.join(AUDIO_DIR, file)).toString('base64');
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name }) => {
      const binary = atob(base64);
      const bytes = new Uint8Array(binary.length);
      for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: 'audio/mpeg' }));
      return transfer;
    },
    { base64, name: file },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
}

/** Find Videos and Sources against the server's YouTube fake (YOUTUBE_DEMO_CHANNEL). */
async function discoverySteps(page) {
  const first = DEMO.episode(120);
  const second = DEMO.episode(119);

  await step(`find videos: search ${DEMO.channelUrl} with the default 100`, async () => {
    await page.getByRole('link', { name: 'Find Videos' }).click();
    await page.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor();
    const count = await page.getByLabel('Videos', { exact: true }).inputValue();
    if (count !== '100') throw new Error(`the count selector starts at ${count}, not 100`);
    await page.getByLabel('YouTube channel URL').fill(DEMO.channelUrl);
    // "All" shows what is left of the YouTube quota before the scan (nothing when it cannot be read).
    await page.getByLabel('Videos', { exact: true }).selectOption({ label: 'All' });
    const hint = page.locator('.quota-hint');
    await hint.waitFor({ timeout: 5000 }).catch(() => {});
    console.log(`  with All: ${(await hint.isVisible()) ? (await hint.innerText()).trim() : 'no quota hint (the quota could not be read)'}`);
    await shot(page, 'desktop-discovery-all');
    await page.getByLabel('Videos', { exact: true }).selectOption({ label: '100' });
    await page.getByLabel('YouTube channel URL').press('Enter');
    const card = page.getByTestId('channel-card');
    await waitForLabeled(card.getByRole('heading', { name: DEMO.title }), 'the channel card', { timeout: 120_000 });
    const stats = await card.locator('.channel-stats').innerText();
    console.log(`  channel card: ${DEMO.title} · ${stats.replace(/\s+/g, ' ')}`);
    if (!/subscribers/.test(stats) || !/videos/.test(stats)) throw new Error(`the channel card says "${stats}"`);
    const rows = await page.getByTestId('video-row').count();
    if (rows !== 100) throw new Error(`${rows} rows, not 100`);
    const top = (await page.getByTestId('video-row').first().locator('.file-title').innerText()).trim();
    if (top !== first) throw new Error(`the first row is "${top}", not "${first}" (newest first)`);
    await rowByExactTitle(page, 'video-row', first).locator('.cell-mp3').getByText(/Drop MP3|MP3 uploaded/).waitFor({ timeout: 30_000 });
    await shot(page, 'desktop-discovery');
  });

  await step('find videos: select two videos, drop an MP3 on one row and see its MP3 status turn', async () => {
    for (const title of [first, second]) await page.getByRole('checkbox', { name: `Select ${title}`, exact: true }).check();
    await page.getByText('2 selected').waitFor();
    const row = rowByExactTitle(page, 'video-row', first);
    await dropFile(page, row, DISCOVERY_SAMPLE);
    await waitForLabeled(row.getByText('MP3 uploaded', { exact: true }), 'the row to show MP3 uploaded', { timeout: 60_000 });
    const secondStatus = await rowByExactTitle(page, 'video-row', second).locator('.cell-mp3').innerText();
    if (/MP3 uploaded/.test(secondStatus)) throw new Error(`${second} has an MP3 before any upload`);
    // The toasts sit over the MP3 column for a few seconds; let them go so the screenshot shows it.
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-discovery-mp3');
  });

  await step('find videos: Download URLs Only saves a CSV named by the server', async () => {
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Download URLs Only' }).click();
    const file = await download;
    const name = file.suggestedFilename();
    console.log(`  export: ${name}`);
    if (!name.toLowerCase().endsWith('.csv')) throw new Error(`the export is named ${name}`);
    const saved = await file.path();
    const text = saved ? readFileSync(saved, 'utf8') : '';
    const urls = text.match(/https?:\/\/\S+/g) ?? [];
    if (urls.length !== 2) throw new Error(`the export of the 2 selected videos holds ${urls.length} URLs`);
  });

  await step('find videos: Create Transcripts lists the video with the MP3 on /transcripts', async () => {
    await page.getByRole('button', { name: 'Create Transcripts', exact: true }).click();
    await page.waitForURL(/\/transcripts$/);
    await page.getByRole('heading', { name: 'Create Transcripts', level: 1 }).waitFor();
    await waitForLabeled(rowByExactTitle(page, 'transcription-row', first), `${first} on /transcripts`, { timeout: 30_000 });
    if ((await rowByExactTitle(page, 'transcription-row', second).count()) > 0) {
      throw new Error(`${second} has no MP3 but was listed`);
    }
    await shot(page, 'desktop-transcripts-from-discovery');
  });

  await step('find videos: the search is in Previous Searches and comes back from it', async () => {
    await page.getByRole('link', { name: 'Find Videos' }).click();
    await page.getByTestId('video-row').first().waitFor();
    await page.getByRole('button', { name: /Previous Searches/ }).click();
    await page.getByRole('tab', { name: 'Most Used' }).click();
    await page.getByRole('button', { name: `Search ${DEMO.title} again` }).waitFor();
    await shot(page, 'desktop-discovery-history');
  });

  await step(`sources: add ${DEMO.playlistTitle} and load its videos`, async () => {
    await page.getByRole('link', { name: 'Sources' }).click();
    await page.getByRole('heading', { name: 'Sources', level: 1 }).waitFor();
    await page.getByLabel('Channel or playlist URL').fill(DEMO.playlistUrl);
    await page.getByRole('button', { name: 'Add Source' }).click();
    const item = page.getByTestId('source-item').filter({ hasText: DEMO.playlistTitle });
    await waitForLabeled(item, 'the new source in the list', { timeout: 60_000 });
    await page.getByLabel('Channel or playlist URL').fill(DEMO.playlistUrl);
    await page.getByRole('button', { name: 'Add Source' }).click();
    const duplicate = page.locator('.add-source-message[role=alert]');
    await waitForLabeled(duplicate, 'the message for a source added twice', { timeout: 30_000 });
    console.log(`  adding it twice: ${(await duplicate.innerText()).trim()}`);
    await page.getByLabel('Channel or playlist URL').fill('');
    await item.getByRole('button', { name: `View videos of ${DEMO.playlistTitle}` }).click();
    const videos = page.getByTestId('source-videos');
    await waitForLabeled(videos.getByTestId('source-video-row').first(), 'the playlist videos', { timeout: 60_000 });
    const firstPage = await videos.getByTestId('source-video-row').count();
    const more = videos.getByRole('button', { name: 'Load more' });
    let total = firstPage;
    if (await more.isVisible()) {
      await more.click();
      await page.waitForFunction(
        (count) => document.querySelectorAll('[data-testid=source-video-row]').length > count,
        firstPage,
        { timeout: 60_000 },
      );
      total = await videos.getByTestId('source-video-row').count();
    }
    console.log(`  playlist videos: ${firstPage} on the first page, ${total} after Load more`);
    await shot(page, 'desktop-sources');
  });

  await step('downloads: Download audio of two playlist videos runs yt-dlp to COMPLETED on /downloads', async () => {
    const videos = page.getByTestId('source-videos');
    for (const index of [0, 1]) await videos.getByTestId('source-video-row').nth(index).getByRole('checkbox').check();
    await shot(page, 'desktop-sources-selection');
    await page.getByRole('button', { name: 'Download audio' }).click();
    await page.waitForURL(/\/downloads$/);
    await page.getByRole('heading', { name: 'Downloads', level: 1 }).waitFor();
    const job = page.getByTestId('download-job').first();
    await job.waitFor({ timeout: 30_000 });
    await waitForLabeled(page.locator('[data-testid="download-job"][data-status="COMPLETED"]').first(), 'the job to complete', { timeout: 120_000 });
    const counts = (await job.innerText()).replace(/\s+/g, ' ');
    if (!/2 of 2 videos/.test(counts)) throw new Error(`the finished job says "${counts}"`);
    console.log(`  job: ${counts.slice(0, 120)}`);
    await shot(page, 'desktop-downloads');
  });

  await step('settings: create, disable and delete a schedule in Scheduled Syncs', async () => {
    await page.goto(`${BASE_URL}/settings?tab=schedules`);
    await page.getByRole('heading', { name: 'No schedules yet' }).waitFor();
    await shot(page, 'desktop-settings-schedules-empty');
    await page.getByRole('button', { name: 'Create Your First Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Schedule' });
    await dialog.waitFor();
    await dialog.getByLabel('Source').selectOption({ label: DEMO.playlistTitle });
    const time = await dialog.getByLabel('Time of day').inputValue();
    if (time !== '09:00') throw new Error(`the time starts at ${time}, not 09:00`);
    await shot(page, 'desktop-schedule-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Create Schedule' }).click();
    await page.getByText('Schedule created').first().waitFor({ timeout: 30_000 });
    const card = page.getByTestId('schedule-card').filter({ hasText: DEMO.playlistTitle });
    await card.waitFor();
    const nextRun = (await card.innerText()).replace(/\s+/g, ' ');
    if (!/[A-Z][a-z]{2} \d{2}, \d{4} at \d{1,2}:\d{2} (AM|PM)/.test(nextRun)) throw new Error(`the card shows "${nextRun}"`);
    await page.getByRole('region', { name: /^Active Schedules/ }).getByTestId('schedule-card').first().waitFor();
    await shot(page, 'desktop-settings-schedules');
    await page.getByRole('button', { name: `Schedule options for ${DEMO.playlistTitle}` }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await page.getByText('Schedule disabled').first().waitFor({ timeout: 30_000 });
    await page.getByRole('region', { name: /^Inactive Schedules/ }).getByTestId('schedule-card').first().waitFor();
    await shot(page, 'desktop-settings-schedules-disabled');
    await page.getByRole('button', { name: `Schedule options for ${DEMO.playlistTitle}` }).click();
    await page.getByRole('menuitem', { name: 'Delete Schedule' }).click();
    await page.getByRole('dialog', { name: 'Delete schedule?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Schedule deleted').first().waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'No schedules yet' }).waitFor();
  });
}

/** The 390 px layout of Find Videos (searched again from Previous Searches) and Sources. */
async function discoveryPhoneSteps(mobile) {
  await mobile.goto(`${BASE_URL}/youtube-discovery`);
  await mobile.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor();
  await mobile.getByRole('button', { name: /Previous Searches/ }).click();
  await shot(mobile, 'phone-discovery-history');
  await mobile.getByRole('button', { name: `Search ${DEMO.title} again` }).click();
  await mobile.getByTestId('channel-card').waitFor({ timeout: 120_000 });
  await rowByExactTitle(mobile, 'video-row', DEMO.episode(120)).getByText('MP3 uploaded', { exact: true }).waitFor({ timeout: 30_000 });
  await mobile.getByRole('checkbox', { name: `Select ${DEMO.episode(119)}`, exact: true }).check();
  await checkNoOverflow(mobile, '/youtube-discovery with results');
  await mobile.evaluate(() => window.scrollTo(0, 0));
  await shot(mobile, 'phone-discovery', { fullPage: false });
  await mobile.getByTestId('channel-card').scrollIntoViewIfNeeded();
  await mobile.evaluate(() => document.querySelector('[data-testid=channel-card]')?.scrollIntoView({ block: 'start' }));
  await shot(mobile, 'phone-discovery-results', { fullPage: false });
  await mobile.getByTestId('video-row').first().evaluate((row) => row.scrollIntoView({ block: 'start' }));
  await mobile.evaluate(() => window.scrollBy(0, -80));
  await shot(mobile, 'phone-discovery-rows', { fullPage: false });

  await mobile.goto(`${BASE_URL}/sources`);
  await mobile.getByRole('heading', { name: 'Sources', level: 1 }).waitFor();
  const item = mobile.getByTestId('source-item').filter({ hasText: DEMO.playlistTitle });
  await item.waitFor({ timeout: 30_000 });
  await item.getByRole('button', { name: `View videos of ${DEMO.playlistTitle}` }).click();
  await mobile.getByTestId('source-video-row').first().waitFor({ timeout: 60_000 });
  await checkNoOverflow(mobile, '/sources with videos');
  await shot(mobile, 'phone-sources');
  await item.getByRole('button', { name: `Delete ${DEMO.playlistTitle}` }).click();
  await mobile.getByRole('dialog', { name: 'Delete source?' }).waitFor();
  await shot(mobile, 'phone-sources-delete', { fullPage: false });
  await mobile.getByRole('button', { name: 'Cancel' }).click();
}

/** Fails unless `text` shares a word with the reference text of `title` (when AUDIO_DIR has one). */
function sharesWordsWithReference(text, title) {
  const expectedFile = path.join(AUDIO_DIR, `${title}.txt`);
  if (!existsSync(expectedFile)) return;
  const words = (value) => new Set(value.toLowerCase().match(/[a-z']{4,}/g) ?? []);
  const expected = words(readFileSync(expectedFile, 'utf8'));
  const shared = [...words(text)].filter((word) => expected.has(word));
  console.log(`  ${shared.length} of ${expected.size} expected words found`);
  if (expected.size > 0 && shared.length === 0) throw new Error('the text shares no words with the reference');
}

/** The names in a zip's central directory (throws when `bytes` is not a zip). */
function zipEntryNames(bytes) {
  if (bytes.readUInt32LE(0) !== 0x04034b50) throw new Error('the file does not start like a zip');
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('the zip has no end of central directory');
  const count = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  const names = [];
  for (let index = 0; index < count; index += 1) {
    if (bytes.readUInt32LE(offset) !== 0x02014b50) throw new Error('a broken central directory');
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extra = bytes.readUInt16LE(offset + 30);
    const comment = bytes.readUInt16LE(offset + 32);
    names.push(bytes.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extra + comment;
  }
  return names;
}

/** A small real PDF: page 1 has a text layer, page 2 is only a picture of text (a "scan"). */
const SAMPLE_PDF = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sample-scan.pdf');
const SAMPLE_PDF_TITLE = 'Garden field notes';
const CONVERT_TEMPLATE = '## {{title}}\n\n*From {{source}} on {{date}}*\n\n{{content}}\n';

/**
 * /convert-pdf, the Vault's Import PDF with premium OCR, and Settings (theme and default view),
 * on the desktop. `titles` are the two completed transcriptions.
 */
async function conversionAndSettingsSteps(page, titles) {
  await step('convert: both transcripts with a template (saved as a named one), preview, save to the Vault', async () => {
    await page.goto(`${BASE_URL}/transcripts`);
    await page.getByRole('heading', { name: 'Create Transcripts', level: 1 }).waitFor();
    await page.getByRole('button', { name: /^Convert to Markdown \(\d+\)$/ }).click();
    await page.waitForURL(/\/convert-pdf$/);
    await page.getByRole('heading', { name: 'PDF to Markdown', level: 1 }).waitFor();
    for (const title of titles) await waitForLabeled(rowByTitle(page, 'conversion-row', title), `${title} on /convert-pdf`, { timeout: 10_000 });
    await page.getByLabel('Custom template').fill(CONVERT_TEMPLATE);
    await page.getByRole('button', { name: 'Save as template' }).click();
    await page.getByLabel('Template name').fill(`E2E notes ${Date.now()}`);
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Template saved').first().waitFor({ timeout: 30_000 });
    await shot(page, 'desktop-convert-pdf');
    await page.getByRole('button', { name: /^Convert \(\d+\)$/ }).click();
    for (const title of titles) {
      await waitForLabeled(rowByTitle(page, 'conversion-row', title).and(page.locator('[data-status=completed]')), `${title} converted`, { timeout: 60_000 });
    }
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-convert-pdf-converted');
    await rowByTitle(page, 'conversion-row', titles[0]).getByRole('button', { name: `Preview ${titles[0]}` }).click();
    const preview = page.getByTestId('markdown-preview');
    const heading = preview.locator('.markdown h2');
    await waitForLabeled(heading, 'the template heading in the preview', { timeout: 10_000 });
    if ((await heading.innerText()).trim() !== titles[0]) throw new Error(`the preview's heading is "${await heading.innerText()}"`);
    const text = await preview.locator('.markdown').innerText();
    if (!/From .+ on \d{4}-\d{2}-\d{2}/.test(text)) throw new Error('the template line {{source}} / {{date}} is not filled in');
    sharesWordsWithReference(text, titles[0]);
    await shot(page, 'desktop-convert-pdf-preview', { fullPage: false });
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Save to Vault' }).click();
    await page.getByText('Saved to Vault').first().waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Open the Vault' }).first().click();
    await page.waitForURL(/\/vault$/);
    // The converted markdown is a new item (Not Downloaded); the transcription itself was exported
    // earlier and waits, collapsed, under 'Downloaded on'.
    const notDownloaded = page.getByRole('region', { name: 'Not Downloaded' });
    for (const title of titles) {
      const card = notDownloaded.getByTestId('vault-item').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
      await waitForLabeled(card, `${title} (converted) in the Vault`, { timeout: 30_000 });
    }
  });

  await step('vault: Import PDF refuses a non-PDF, converts a real PDF (page 2 needs OCR), saves it; premium OCR reads page 2', async () => {
    await page.goto(`${BASE_URL}/vault`);
    await page.getByRole('button', { name: 'Import PDF' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import PDF' });
    await dialog.waitFor();
    await dialog.locator('input[type=file]').setInputFiles([SAMPLE_PDF, path.join(AUDIO_DIR, BROKEN)]);
    const refused = dialog.getByRole('alert');
    await refused.waitFor();
    if (!(await refused.innerText()).includes(BROKEN)) throw new Error(`the refusal says "${await refused.innerText()}"`);
    await dialog.getByRole('button', { name: 'Convert (1)' }).click();
    const row = dialog.getByTestId('import-row').filter({ hasText: 'sample-scan.pdf' });
    await waitForLabeled(row.and(page.locator('[data-status=completed]')), 'the PDF converted', { timeout: 60_000 });
    const notice = (await row.getByTestId('ocr-notice').innerText()).trim();
    console.log(`  notice: ${notice}`);
    if (notice !== 'Page 2 has no text layer; use Premium OCR after saving') throw new Error(`the OCR notice says "${notice}"`);
    await row.getByRole('button', { name: 'Preview sample-scan.pdf' }).click();
    const preview = page.getByTestId('markdown-preview');
    await preview.getByText('Mulch keeps the soil moist and cool.', { exact: false }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });
    await shot(page, 'desktop-vault-import-pdf', { fullPage: false });
    await dialog.getByRole('button', { name: 'Save to Vault (1)' }).click();
    await page.getByText('Saved to Vault').first().waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const card = vaultCard(page, SAMPLE_PDF_TITLE);
    await waitForLabeled(card, 'the PDF item in the Vault', { timeout: 30_000 });
    await card.getByRole('button', { name: SAMPLE_PDF_TITLE, exact: true }).click();
    const detail = page.getByRole('dialog', { name: SAMPLE_PDF_TITLE });
    const content = detail.getByTestId('transcript-content');
    await content.getByText('Mulch keeps the soil', { exact: false }).waitFor({ timeout: 30_000 });
    if (/Compost/.test(await content.innerText())) throw new Error('page 2 was read before OCR');
    await detail.getByRole('button', { name: 'Reprocess with OCR (premium)' }).click();
    await waitForLabeled(content.getByText('Compost', { exact: false }), 'the OCR text of page 2', { timeout: 120_000 });
    console.log(`  after OCR: ${(await content.innerText()).replace(/\s+/g, ' ').slice(0, 160)}…`);
    await shot(page, 'desktop-vault-pdf-ocr', { fullPage: false });
    // Not Escape: that closes the newest layer, the toast.
    await detail.getByRole('button', { name: 'Close', exact: true }).click();
    await detail.waitFor({ state: 'hidden' });
  });

  await step('settings: Dark theme and Grid default view, saved, apply to the whole app and the Vault; Reset brings the defaults back', async () => {
    await page.goto(`${BASE_URL}/settings`);
    await page.getByRole('region', { name: 'Appearance' }).waitFor({ timeout: 30_000 });
    if (await page.getByRole('button', { name: 'Save Changes' }).count()) throw new Error('Save Changes shows before any change');
    await page.getByText('Dark', { exact: true }).click();
    await page.getByText('Grid', { exact: true }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Your preferences have been updated.').first().waitFor({ timeout: 30_000 });
    // The notice can render a frame before the theme is applied: wait for it, not a snapshot.
    await page
      .waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 10_000 })
      .catch(() => { throw new Error('the page is not dark after saving'); });
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-dark-settings');
    await page.getByRole('navigation').getByRole('link', { name: 'Vault', exact: true }).click();
    await page.getByRole('heading', { name: 'Vault', level: 1 }).waitFor();
    await page.locator('ul.vault-items.grid').first().waitFor({ timeout: 30_000 });
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== 'dark') throw new Error('the Vault is not dark');
    await shot(page, 'desktop-dark-vault');
    // A reload starts dark at once (the last theme is remembered) and stays dark with the setting.
    await page.reload();
    await page.locator('ul.vault-items.grid').first().waitFor({ timeout: 30_000 });
    for (const [route, title] of [['/convert-pdf', 'PDF to Markdown'], ['/settings?tab=account', 'Settings'], ['/settings?tab=schedules', 'Settings']]) {
      await page.goto(`${BASE_URL}${route}`);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await shot(page, `desktop-dark${route.replace(/[/?=]/g, '-')}`);
    }
    await page.goto(`${BASE_URL}/settings`);
    await page.getByRole('button', { name: 'Reset Settings' }).click();
    await page.getByRole('dialog', { name: 'Reset all settings?' }).getByRole('button', { name: 'Reset' }).click();
    await page.getByText('All settings have been reset to defaults.').first().waitFor({ timeout: 30_000 });
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    if (theme !== 'light') throw new Error(`after Reset the theme is ${theme} (system, and this browser prefers light)`);
  });
}

async function fetchConfig() {
  const response = await fetch(`${BASE_URL}/config.json`);
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  return response.json();
}

const settingsPanel = (page, tab) => page.getByRole('tabpanel', { name: tab });

/** Issue 20: the instance's first account is its admin, and from now on sign-up needs an invitation. */
async function firstAccountSteps(page, email) {
  await step("the first account is the instance's admin: Settings → Users lists it; sign-up now needs an invitation", async () => {
    const { signup } = await fetchConfig();
    if (signup !== 'invite') throw new Error(`after the first account /config.json says signup "${signup}", not "invite" (the default)`);
    await page.goto(`${BASE_URL}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await waitForLabeled(page.getByRole('tab', { name: 'Users' }), 'the Users tab', { timeout: 30_000 });
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.waitForURL(/[?&]tab=users/);
    const panel = settingsPanel(page, 'Users');
    const row = panel.getByTestId('user-row').filter({ hasText: email });
    await waitForLabeled(row, "the admin's own row", { timeout: 30_000 });
    const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
    console.log(`  ${text}`);
    if (!/\(you\)/.test(text) || !/\bAdmin\b/.test(text) || !/\bActive\b/.test(text)) throw new Error(`the row says "${text}"`);
    const rows = await panel.getByTestId('user-row').count();
    if (rows !== 1) throw new Error(`${rows} accounts listed on a new instance`);
    await panel.getByRole('region', { name: 'Invitations' }).getByText('No invitations yet.').waitFor();
    await shot(page, 'desktop-settings-users-first');
  });
}

/**
 * Issue 20: an invitation made on the Users tab, used in a fresh browser (the sign-up lands in the
 * app); then the admin disables that account and its next API call signs it out, the sign-in
 * screen saying why, and signing in again is refused with the same words.
 */
async function invitationSteps(page, adminEmail) {
  const invitedEmail = `invited-${Date.now()}@example.com`;
  const invitedPassword = 'invited-password-456';
  let link = '';

  await step('users: create an invitation and read its link (shown once)', async () => {
    activePage = page;
    await page.goto(`${BASE_URL}/settings?tab=users`);
    const invitations = settingsPanel(page, 'Users').getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('button', { name: 'Create invitation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create invitation' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Create invitation' }).click();
    const created = page.getByRole('dialog', { name: 'Invitation created' });
    await waitForLabeled(created, 'the created invitation', { timeout: 30_000 });
    link = await created.getByLabel('Invitation link').inputValue();
    const url = new URL(link);
    console.log(`  link: ${url.origin}${url.pathname}?invitation=…`);
    if (url.origin !== BASE_URL || url.pathname !== '/sign-up' || !url.searchParams.get('invitation')) throw new Error(`the link is ${link}`);
    await shot(page, 'desktop-users-invitation-created', { fullPage: false });
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'hidden' });
    await waitForLabeled(invitations.getByTestId('invitation-row').filter({ hasText: 'Pending' }), 'the pending invitation', { timeout: 30_000 });
  });

  let invitedContext = null;
  let invitedPage = null;
  await step('invitation: a fresh browser opens the link, the invitation is checked, the invited person signs up and lands in the app', async () => {
    // At 390 px first: checking an invitation does not use it.
    const phone = await newContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone-invited');
    try {
      const mobile = await phone.newPage();
      watch(mobile, 'phone-invited');
      activePage = mobile;
      await mobile.goto(link);
      await waitForLabeled(mobile.getByText('You have been invited to Scribevault.', { exact: false }), 'the invitation notice (390 px)', { timeout: 30_000 });
      await mobile.getByLabel('Email').waitFor();
      await checkNoOverflow(mobile, 'the invited sign-up');
      await shot(mobile, 'phone-invited-sign-up');
    } finally {
      await phone.close();
    }

    invitedContext = await newContext({ viewport: DESKTOP }, 'invited');
    invitedPage = await invitedContext.newPage();
    watch(invitedPage, 'invited');
    activePage = invitedPage;
    await invitedPage.goto(link);
    await invitedPage.getByRole('heading', { name: 'Create your account' }).waitFor();
    await waitForLabeled(invitedPage.getByText('You have been invited to Scribevault.', { exact: false }), 'the invitation notice', { timeout: 30_000 });
    await shot(invitedPage, 'desktop-invited-sign-up');
    await invitedPage.getByLabel('Email').fill(invitedEmail);
    await invitedPage.getByLabel('Password').fill(invitedPassword);
    await invitedPage.getByRole('button', { name: 'Create account' }).click();
    await invitedPage.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor({ timeout: 30_000 });
    if (new URL(invitedPage.url()).pathname !== '/') throw new Error(`landed on ${invitedPage.url()}`);
    // Not an admin: no Users tab, not even by its link.
    await invitedPage.goto(`${BASE_URL}/settings?tab=users`);
    await waitForLabeled(invitedPage.getByRole('tab', { name: 'Preferences', selected: true }), 'Preferences instead of Users', { timeout: 30_000 });
    if ((await invitedPage.getByRole('tab', { name: 'Users' }).count()) > 0) throw new Error('the invited user sees the Users tab');
    console.log(`  ${invitedEmail} signed up and is in the app`);
  });

  await step('users: the admin sees the invitation used and the new account, and disables it', async () => {
    activePage = page;
    await page.goto(`${BASE_URL}/settings?tab=users`);
    const panel = settingsPanel(page, 'Users');
    const used = panel.getByTestId('invitation-row').filter({ hasText: invitedEmail });
    await waitForLabeled(used, 'the invitation used by the new account', { timeout: 30_000 });
    if (!/\bUsed\b/.test(await used.innerText())) throw new Error(`the invitation row says "${(await used.innerText()).replace(/\s+/g, ' ')}"`);
    const row = panel.getByTestId('user-row').filter({ hasText: invitedEmail });
    await waitForLabeled(row, 'the new account', { timeout: 30_000 });
    const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
    console.log(`  ${text}`);
    if (!/\bUser\b/.test(text) || !/\bActive\b/.test(text)) throw new Error(`the new account's row says "${text}"`);
    if ((await panel.getByTestId('user-row').filter({ hasText: adminEmail }).count()) !== 1) throw new Error('the admin is not listed');
    await shot(page, 'desktop-settings-users');
    await row.getByRole('button', { name: `Actions for ${invitedEmail}` }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await page.getByText('User disabled').first().waitFor({ timeout: 30_000 });
    await waitForLabeled(row.getByText('Disabled', { exact: true }), 'the Disabled badge', { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-settings-users-disabled');
  });

  await step("a disabled account: its next API call signs it out and the sign-in screen says why; signing in again is refused", async () => {
    activePage = invitedPage;
    const answers = [];
    invitedPage.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === BASE_URL && url.pathname.startsWith('/api/')) answers.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    });
    await invitedPage.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Vault', exact: true }).click();
    await invitedPage.getByRole('heading', { name: 'Sign in to Scribevault' }).waitFor({ timeout: 30_000 });
    console.log(`  API answers: ${answers.join(', ')}`);
    if (!answers.some((answer) => answer.endsWith(' 401'))) throw new Error('no API call answered 401');
    const notice = invitedPage.getByTestId('sign-out-notice');
    await waitForLabeled(notice, 'the sign-out notice', { timeout: 10_000 });
    const text = (await notice.innerText()).trim();
    console.log(`  notice: ${text}`);
    if (!/This account is disabled/.test(text)) throw new Error(`the sign-in screen says "${text}"`);
    // The socket's connection toasts (the server closed it when the account was disabled) go first.
    await invitedPage.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(invitedPage, 'desktop-signed-out-disabled');
    await invitedPage.getByLabel('Email').fill(invitedEmail);
    await invitedPage.getByLabel('Password').fill(invitedPassword);
    await invitedPage.getByRole('button', { name: 'Sign in' }).click();
    const refusal = invitedPage.locator('form.auth-form [role=alert]');
    await waitForLabeled(refusal, 'the refusal at sign-in', { timeout: 30_000 });
    const refused = (await refusal.innerText()).trim();
    console.log(`  sign-in: ${refused}`);
    if (!/This account is disabled/.test(refused)) throw new Error(`signing in says "${refused}"`);
    await shot(invitedPage, 'desktop-sign-in-disabled');
    await invitedContext.close();
    activePage = page;
  });
}

/**
 * Settings → Account of a local account: Change password (a wrong current password is refused in
 * the dialog, the right one changes it and this session goes on), then Sign out everywhere (this
 * session ends too, its token is refused) and the new password signs in. Runs last: it ends the
 * sessions the other contexts of the run shared.
 */
async function accountSecuritySteps(page, email, password) {
  const newPassword = 'e2e-new-password-456';
  activePage = page;

  await step('account: Change password refuses a wrong current password in the dialog, then changes it', async () => {
    await page.goto(`${BASE_URL}/settings?tab=account`);
    const panel = settingsPanel(page, 'Account');
    await panel.getByRole('button', { name: 'Change password' }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-settings-account');
    await panel.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    await dialog.getByLabel('Current password').fill('not-the-password');
    await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Confirm new password').fill(newPassword);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    const error = dialog.getByRole('alert');
    await waitForLabeled(error, 'the refusal of a wrong current password', { timeout: 30_000 });
    const said = (await error.innerText()).trim();
    console.log(`  wrong current password: ${said}`);
    if (!/current password/i.test(said)) throw new Error(`the dialog says "${said}"`);
    await shot(page, 'desktop-change-password-wrong', { fullPage: false });
    await dialog.getByLabel('Current password').fill(password);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').first().waitFor({ timeout: 30_000 });
    await dialog.waitFor({ state: 'hidden' });
    // This session goes on with the token the change answered, also after a reload.
    await page.reload();
    await panel.getByRole('button', { name: 'Sign out everywhere' }).waitFor({ timeout: 30_000 });
    if (new URL(page.url()).pathname !== '/settings') throw new Error(`after the change the page is ${page.url()}`);
  });

  await step('account: Sign out everywhere ends this session too (its token is refused); the new password signs in', async () => {
    const oldToken = await page.evaluate(() => localStorage.getItem('authToken'));
    const panel = settingsPanel(page, 'Account');
    await panel.getByRole('button', { name: 'Sign out everywhere' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await confirm.waitFor();
    await shot(page, 'desktop-sign-out-everywhere', { fullPage: false });
    await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('heading', { name: 'Sign in to Scribevault' }).waitFor({ timeout: 30_000 });
    if ((await page.getByTestId('sign-out-notice').count()) > 0) throw new Error('a sign-out notice after signing out on purpose');
    const status = await page.evaluate(
      async (token) => (await fetch('/api/account', { headers: { Authorization: `Bearer ${token}` } })).status,
      oldToken,
    );
    if (status !== 401) throw new Error(`the ended session's token still answers ${status}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refusal = page.locator('form.auth-form [role=alert]');
    await waitForLabeled(refusal, 'the old password refused', { timeout: 30_000 });
    console.log(`  the old password: ${(await refusal.innerText()).trim()}`);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor({ timeout: 30_000 });
  });
}

/** Notes saved through POST /api/vault/save, so the Vault has more than the two audio items. */
const VAULT_NOTES = [
  {
    title: 'Garden watering schedule',
    path: 'notes/garden-watering.md',
    content:
      '# Garden watering schedule\n\nWater the **garden** early in the morning, before the heat.\n\n- Tomatoes: every day\n- Herbs: every other day\n- Lawn: twice a week\n\n| Bed | Litres |\n| --- | --- |\n| North | 12 |\n| South | 18 |\n',
  },
  {
    title: 'Soil biology reading notes',
    path: 'notes/soil-biology.md',
    content: '# Soil biology\n\nWorms and fungi build the structure of healthy soil.\n\n> Feed the soil, not the plant.\n',
  },
  {
    title: 'Quarterly budget review',
    path: 'notes/quarterly-budget.pdf',
    content: 'The meeting moved to Thursday afternoon. Bring last quarter\'s notes and the budget sheet.',
  },
];

/** Saves `files` with the signed-in page's token; the answer's items. */
async function saveToVault(page, files) {
  const answer = await page.evaluate(async (body) => {
    const response = await fetch('/api/vault/save', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('authToken')}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }, { files });
  if (answer.status >= 300) throw new Error(`POST /api/vault/save answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body?.data ?? [];
}

/** Opens every collapsed 'Downloaded on {date}' group. */
async function expandDownloadedGroups(page) {
  const collapsed = page.getByRole('button', { name: /^Downloaded on /, expanded: false });
  for (let guard = 0; guard < 20 && (await collapsed.count()) > 0; guard += 1) await collapsed.first().click();
}

const vaultCard = (page, title) =>
  page.getByTestId('vault-item').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** The Vault (desktop): search, star, rate, tag with a suggestion, export one item and the selection. */
async function vaultSteps(page, audioTitle) {
  await step('vault: save three notes with POST /api/vault/save; they are listed', async () => {
    const saved = await saveToVault(page, VAULT_NOTES);
    if (saved.length !== VAULT_NOTES.length) throw new Error(`the save answered ${saved.length} items`);
    await page.goto(`${BASE_URL}/vault`);
    await page.getByRole('heading', { name: 'Vault', level: 1 }).waitFor();
    for (const note of VAULT_NOTES) await waitForLabeled(vaultCard(page, note.title), note.title, { timeout: 30_000 });
    await page.getByTestId('stat-this-week').waitFor();
    console.log(`  stats: ${(await page.getByRole('region', { name: 'Vault statistics' }).innerText()).replace(/\s+/g, ' ')}`);
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-vault-list');
    // A note's markdown is rendered: heading, bold, list and table.
    const note = VAULT_NOTES[0].title;
    await vaultCard(page, note).getByRole('button', { name: note, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: note });
    const markdown = dialog.getByTestId('transcript-content').locator('.markdown');
    await waitForLabeled(markdown.locator('table'), 'the rendered table', { timeout: 30_000 });
    const rendered = await markdown.evaluate((element) => ({
      heading: element.querySelector('h1')?.textContent,
      bold: element.querySelector('strong')?.textContent,
      items: element.querySelectorAll('li').length,
    }));
    if (rendered.heading !== note || rendered.bold !== 'garden' || rendered.items !== 3) throw new Error(`rendered ${JSON.stringify(rendered)}`);
    await shot(page, 'desktop-vault-note', { fullPage: false });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  await step('vault: search "garden" shows highlighted snippets and the time of each audio match', async () => {
    await page.getByRole('searchbox', { name: 'Search the Vault' }).fill('garden');
    await waitForLabeled(page.getByText(/results? for “garden”/), 'the search results', { timeout: 30_000 });
    const card = vaultCard(page, audioTitle);
    await waitForLabeled(card, `${audioTitle} among the results`, { timeout: 30_000 });
    // The card is on screen from the list before the search; its snippet comes with the hits.
    await waitForLabeled(card.locator('mark').first(), `a highlight in ${audioTitle}`, { timeout: 30_000 });
    await waitForLabeled(card.locator('.match-time').first(), `a match time in ${audioTitle}`, { timeout: 30_000 });
    const marked = (await card.locator('mark').allInnerTexts()).map((text) => text.toLowerCase());
    if (!marked.includes('garden')) throw new Error(`the snippets mark ${JSON.stringify(marked)}, not "garden"`);
    const times = await card.locator('.match-time').allInnerTexts();
    if (times.length === 0 || !times.every((time) => /^\d+:\d{2}(:\d{2})?$/.test(time))) throw new Error(`match times ${JSON.stringify(times)}`);
    const note = vaultCard(page, VAULT_NOTES[0].title);
    await note.locator('mark').first().waitFor();
    if ((await note.locator('.match-time').count()) !== 0) throw new Error('a text note shows audio match times');
    console.log(`  ${await page.getByText(/results? for “garden”/).innerText()}; ${audioTitle}: ${times.join(', ')}`);
    await shot(page, 'desktop-vault-search');
  });

  await step('vault: star, rate 4 and tag with a suggestion in the detail view', async () => {
    await vaultCard(page, audioTitle).getByRole('button', { name: audioTitle, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: audioTitle });
    await dialog.waitFor();
    const star = dialog.getByRole('button', { name: 'Star', exact: true });
    await star.click();
    await waitForLabeled(dialog.locator('button[aria-label="Star"][aria-pressed="true"]'), 'the star to stay on', { timeout: 15_000 });
    await dialog.locator('label.rating-star', { hasText: '4 stars' }).click();
    await page.waitForFunction(() => document.querySelector('input[type=radio][value="4"]')?.checked === true, null, { timeout: 15_000 });
    const suggestion = dialog.getByRole('group', { name: 'Suggested tags' }).getByRole('button').first();
    await waitForLabeled(suggestion, 'a suggested tag', { timeout: 30_000 });
    const tag = (await suggestion.getAttribute('aria-label')).replace(/^Add suggested tag /, '');
    await suggestion.click();
    await waitForLabeled(dialog.getByRole('list', { name: 'Tags' }).getByText(tag, { exact: true }), `the tag ${tag}`, { timeout: 15_000 });
    const suggestedRating = (await dialog.getByTestId('suggested-rating').innerText()).match(/Suggested rating: \d/)?.[0];
    console.log(`  starred, rated 4, tagged "${tag}"; ${suggestedRating}`);
    await dialog.getByTestId('transcript-content').locator('.markdown').waitFor();
    await shot(page, 'desktop-vault-detail', { fullPage: false });
    // The list shows the changes after the events (or the refetch).
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    const card = vaultCard(page, audioTitle);
    await waitForLabeled(card.locator('button[aria-pressed="true"]'), 'the star on the card', { timeout: 15_000 });
    await waitForLabeled(card.getByText(tag, { exact: true }), 'the tag on the card', { timeout: 15_000 });
  });

  await step('vault: export the item as markdown; the file arrives and the item moves to its Downloaded group', async () => {
    await vaultCard(page, audioTitle).getByRole('button', { name: audioTitle, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: audioTitle });
    await dialog.waitFor();
    const format = await dialog.getByLabel('Export format').inputValue();
    if (format !== 'markdown') throw new Error(`the export format starts at ${format}`);
    const offered = await dialog.getByLabel('Export format').locator('option').allInnerTexts();
    if (!offered.some((label) => /srt/.test(label))) throw new Error(`an audio item is offered ${offered.join(', ')}`);
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const file = await download;
    const saved = await file.path();
    const text = saved ? readFileSync(saved, 'utf8') : '';
    console.log(`  ${file.suggestedFilename()}: ${text.length} characters`);
    if (!file.suggestedFilename().endsWith('.md')) throw new Error(`the export is named ${file.suggestedFilename()}`);
    if (!text.trim()) throw new Error('the export is empty');
    sharesWordsWithReference(text, audioTitle);
    // Escape would close the 'Download started' toast first (the top layer): use the Close button.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitForLabeled(page.getByRole('button', { name: /^Downloaded on / }).first(), "a 'Downloaded on' group", { timeout: 30_000 });
  });

  await step('vault: select items and export the selection as one zip; the zip arrives with one file each', async () => {
    await page.getByRole('button', { name: 'Clear search' }).click();
    await waitForLabeled(page.getByText(/^\d+ items?$/), 'the whole list', { timeout: 30_000 });
    await expandDownloadedGroups(page);
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    const bar = page.getByRole('region', { name: 'Selection' });
    const selected = Number((await bar.locator('.selection-count').innerText()).match(/\d+/)[0]);
    await bar.getByLabel('Format of the selection').selectOption('txt');
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-vault-selection');
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await bar.getByRole('button', { name: 'Export selected' }).click();
    const file = await download;
    const saved = await file.path();
    const names = zipEntryNames(readFileSync(saved));
    console.log(`  ${file.suggestedFilename()}: ${names.length} files (${names.slice(0, 3).join(', ')}…)`);
    if (!file.suggestedFilename().endsWith('.zip')) throw new Error(`the export is named ${file.suggestedFilename()}`);
    if (names.length !== selected) throw new Error(`${selected} selected, ${names.length} files in the zip`);
    if (!names.every((name) => name.endsWith('.txt'))) throw new Error(`the zip holds ${names.join(', ')}`);
    await bar.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('button', { name: /^Not Downloaded/ }).waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('radio', { name: 'Grid view' }).click();
    await expandDownloadedGroups(page);
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-vault-grid');
    await page.getByRole('radio', { name: 'List view' }).click();
  });
}

/** The Vault at 390 px: list, grid, search results and the detail view, none wider than the phone. */
async function vaultPhoneSteps(mobile, audioTitle) {
  await mobile.goto(`${BASE_URL}/vault`);
  await mobile.getByRole('heading', { name: 'Vault', level: 1 }).waitFor();
  // Everything was exported on the desktop: the items sit in their 'Downloaded on' groups.
  await mobile.getByRole('button', { name: /^Downloaded on / }).first().waitFor({ timeout: 30_000 });
  await expandDownloadedGroups(mobile);
  await vaultCard(mobile, VAULT_NOTES[0].title).waitFor({ timeout: 30_000 });
  await checkNoOverflow(mobile, '/vault (list)');
  await shot(mobile, 'phone-vault-list');
  await mobile.getByRole('radio', { name: 'Grid view' }).click();
  await checkNoOverflow(mobile, '/vault (grid)');
  await shot(mobile, 'phone-vault-grid');
  await mobile.getByRole('radio', { name: 'List view' }).click();
  await mobile.getByRole('button', { name: 'Filters', exact: true }).click();
  await mobile.getByRole('region', { name: 'Filters', exact: true }).waitFor();
  await checkNoOverflow(mobile, '/vault with filters');
  await shot(mobile, 'phone-vault-filters');
  await mobile.getByRole('button', { name: 'Filters', exact: true }).click();
  await mobile.getByRole('searchbox', { name: 'Search the Vault' }).fill('garden');
  await vaultCard(mobile, audioTitle).locator('mark').first().waitFor({ timeout: 30_000 });
  await checkNoOverflow(mobile, '/vault search results');
  await shot(mobile, 'phone-vault-search');
  // The transcription and its converted markdown (saved from /convert-pdf) share the title.
  await vaultCard(mobile, audioTitle).first().getByRole('button', { name: audioTitle, exact: true }).click();
  const dialog = mobile.getByRole('dialog', { name: audioTitle });
  await dialog.getByTestId('transcript-content').locator('.markdown').waitFor({ timeout: 30_000 });
  await checkNoOverflow(mobile, 'the Vault detail view');
  await shot(mobile, 'phone-vault-item', { fullPage: false });
  await mobile.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * Uploads the two samples and the broken file on /download-mp3 and reads the overall bar in every
 * animation frame until the upload ends: in each frame its fill must match the percentage it
 * shows, ending at 67 % (2 of 3). A CSS transition once made the fill trail the label, so right
 * after a quick upload the screen said 67 % over a sliver; a settled screenshot or jsdom, which
 * does no layout, could not see that. Saves `<name>.png` the moment the upload ends.
 */
async function checkOverallFill(page, name) {
  await page.goto(`${BASE_URL}/download-mp3`);
  await page.getByRole('heading', { name: 'Bulk Upload MP3 Files', level: 1 }).waitFor();
  await page.locator('input[type=file]').setInputFiles([...SAMPLES, BROKEN].map((file) => path.join(AUDIO_DIR, file)));
  await page.evaluate(() => {
    const frames = [];
    window.__overallFrames = frames;
    window.__overallSampling = true;
    const sample = () => {
      const track = document.querySelector('[role=progressbar][aria-label="Overall upload progress"]');
      const indicator = track?.querySelector('.progress-indicator');
      if (track && indicator) {
        const t = track.getBoundingClientRect();
        const i = indicator.getBoundingClientRect();
        const visible = Math.max(0, Math.min(i.right, t.right) - Math.max(i.left, t.left));
        frames.push({
          value: Number(track.getAttribute('aria-valuenow')),
          text: track.parentElement?.querySelector('.progress-value')?.textContent ?? '',
          fill: t.width > 0 ? (100 * visible) / t.width : -1,
        });
      }
      if (window.__overallSampling) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.getByRole('button', { name: 'Upload All (3)' }).click();
  await rowByTitle(page, 'upload-row', BROKEN.replace(/\.mp3$/, '')).getByText('Error', { exact: true }).waitFor({ timeout: 60_000 });
  await page.getByText('2 of 3 uploaded').waitFor({ timeout: 60_000 });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
  const frames = await page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            window.__overallSampling = false;
            resolve(window.__overallFrames);
          }),
        ),
      ),
  );
  const wrong = frames.filter((frame) => Math.abs(frame.fill - frame.value) > 1.5 || frame.text !== `${frame.value}%`);
  const last = frames.at(-1);
  console.log(`  ${frames.length} frames; last: ${last?.text} shown, ${last?.fill.toFixed(1)} % filled`);
  if (frames.length === 0) throw new Error('the overall bar was never drawn');
  if (wrong.length > 0) {
    const first = wrong[0];
    throw new Error(`in ${wrong.length} of ${frames.length} frames the fill did not match: ${first.text} shown over ${first.fill.toFixed(1)} % filled`);
  }
  if (last.value !== 67) throw new Error(`the upload ended at ${last.text}, not 67%`);
}

async function main() {
  for (const file of [...SAMPLES, BROKEN]) {
    if (!existsSync(path.join(AUDIO_DIR, file))) throw new Error(`missing ${file} in AUDIO_DIR=${AUDIO_DIR}`);
  }
  console.log(`e2e against ${BASE_URL}; screenshots in ${shotsDir}`);
  browser = await chromium.launch(LAUNCH);
  try {
    const desktop = await newContext({ viewport: DESKTOP }, 'desktop');
    const page = await desktop.newPage();
    watch(page, 'desktop');
    activePage = page;
    const email = `e2e-${Date.now()}@example.com`;
    const password = 'e2e-password-123';

    await step('sign-in page renders when signed out', async () => {
      const answer = await page.goto(`${BASE_URL}/transcripts`);
      await page.getByRole('heading', { name: 'Sign in to Scribevault' }).waitFor();
      const policy = answer?.headers()['content-security-policy'];
      console.log(`  Content-Security-Policy: ${policy ?? '(none)'}`);
      if (!policy) throw new Error('the gateway sent no Content-Security-Policy with the SPA');
      // No account yet: the first sign-up makes the owner, so the instance says `open` whatever its setting.
      const { signup } = await fetchConfig();
      if (signup !== 'open') throw new Error(`a fresh instance's /config.json says signup "${signup}", not "open"`);
      await shot(page, 'desktop-sign-in');
    });

    await step('sign up (the instance\'s first account) and land on /', async () => {
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await shot(page, 'desktop-sign-up');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor();
      if (new URL(page.url()).pathname !== '/') throw new Error(`landed on ${page.url()}`);
    });

    await firstAccountSteps(page, email);

    await step('realtime connection is up', async () => {
      await page.locator('.connection-badge', { hasText: 'Connected' }).waitFor({ timeout: 20_000 });
      await shot(page, 'desktop-home');
    });

    await step('upload two MP3s on /download-mp3', async () => {
      await page.getByRole('link', { name: 'Bulk Upload MP3s' }).click();
      await page.getByRole('heading', { name: 'Bulk Upload MP3 Files' }).waitFor();
      await shot(page, 'desktop-download-mp3-empty');
      await page.locator('input[type=file]').setInputFiles(SAMPLES.map((file) => path.join(AUDIO_DIR, file)));
      await page.getByRole('button', { name: 'Upload All (2)' }).click();
      for (const file of SAMPLES) {
        await rowByTitle(page, 'upload-row', file.replace(/\.mp3$/, ''))
          .getByText('Completed', { exact: true })
          .waitFor({ timeout: 60_000 });
      }
      await shot(page, 'desktop-download-mp3');
    });

    await step('create transcripts and start them', async () => {
      await page.getByRole('button', { name: 'Create Transcripts from MP3s' }).click();
      await page.getByRole('heading', { name: 'Create Transcripts', level: 1 }).waitFor();
      for (const file of SAMPLES) await rowByTitle(page, 'transcription-row', file.replace(/\.mp3$/, '')).waitFor();
      await shot(page, 'desktop-transcripts-pending');
      await page.getByRole('button', { name: 'Start Transcription' }).click();
    });

    await step('both rows reach completed through the socket (no reload)', async () => {
      const navigations = [];
      page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
      for (const file of SAMPLES) {
        await rowByTitle(page, 'transcription-row', file.replace(/\.mp3$/, ''))
          .and(page.locator('[data-status=completed]'))
          .waitFor({ timeout: TRANSCRIBE_TIMEOUT_MS });
      }
      if (navigations.length > 0) throw new Error(`the page navigated: ${navigations.join(', ')}`);
      await page.getByText('All transcriptions completed!').first().waitFor({ timeout: 10_000 });
      await shot(page, 'desktop-transcripts-completed');
    });

    const firstTitle = SAMPLES[0].replace(/\.mp3$/, '');
    await step('follow the Vault link straight to the item (found by its transcript path) and read it', async () => {
      // Toasts sit over the end of the rows for a few seconds; let them go first.
      await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 });
      const link = rowByTitle(page, 'transcription-row', firstTitle).getByRole('link', { name: 'Vault' });
      await page.waitForFunction(
        (element) => /[?&]item=/.test(element.getAttribute('href') ?? ''),
        await link.elementHandle(),
        { timeout: 30_000 },
      );
      console.log(`  link: ${await link.getAttribute('href')}`);
      await link.click();
      await page.waitForURL(/\/vault\?item=/);
      const dialog = page.getByRole('dialog', { name: firstTitle });
      await waitForLabeled(dialog, 'the item to open by itself', { timeout: 30_000 });
      const content = dialog.getByTestId('transcript-content').locator('.markdown');
      await waitForLabeled(content, 'the transcript text', { timeout: 30_000 });
      const text = (await content.innerText()).trim();
      if (!text) throw new Error('the transcript is empty');
      console.log(`  transcript: ${text.slice(0, 120).replace(/\s+/g, ' ')}${text.length > 120 ? '…' : ''}`);
      sharesWordsWithReference(text, firstTitle);
      await shot(page, 'desktop-vault-item');
      await page.keyboard.press('Escape');
      await waitForLabeled(dialog, 'the dialog to close', { state: 'hidden' });
      await shot(page, 'desktop-vault');
    });

    await vaultSteps(page, firstTitle);
    await conversionAndSettingsSteps(page, SAMPLES.map((file) => file.replace(/\.mp3$/, '')));
    // The phone context has no session storage: it gets the transcription list for /convert-pdf.
    const transcriptsHandOff = await page.evaluate(() => sessionStorage.getItem('transcripts'));

    await step('a file that is not audio shows the server message', async () => {
      await page.getByRole('link', { name: 'Bulk Upload MP3s' }).click();
      await page.locator('input[type=file]').setInputFiles(path.join(AUDIO_DIR, BROKEN));
      await page.getByRole('button', { name: 'Upload All (1)' }).click();
      const row = rowByTitle(page, 'upload-row', BROKEN.replace(/\.mp3$/, ''));
      await row.getByText('Error', { exact: true }).waitFor({ timeout: 30_000 });
      const message = (await row.locator('.row-error').innerText()).trim();
      console.log(`  message: ${message}`);
      if (!message) throw new Error('no message shown');
      await shot(page, 'desktop-download-mp3-error');
    });

    await step('three files, one not audio: the overall bar fills 67 % as it says, in every frame', async () => {
      await checkOverallFill(page, 'desktop-download-mp3-one-failed');
    });

    await step('every other screen renders on desktop', async () => {
      for (const [route, title] of [
        ['/convert-pdf', 'PDF to Markdown'],
        ['/settings', 'Settings'],
        ['/youtube-discovery', 'Find Videos'],
        ['/sources', 'Sources'],
      ]) {
        await page.goto(`${BASE_URL}${route}`);
        await page.getByRole('heading', { name: title, level: 1 }).waitFor();
        await shot(page, `desktop${route.replace(/\//g, '-')}`);
      }
    });

    if (DEMO) await discoverySteps(page);
    else console.log('- find videos and sources against the YouTube fake: skipped (YOUTUBE_DEMO_CHANNEL is not set)');

    await invitationSteps(page, email);

    const signedIn = await desktop.storageState();
    await step('phone layout (390 px) of every screen', async () => {
      const phone = await newContext({ viewport: PHONE, storageState: signedIn, isMobile: true, hasTouch: true }, 'phone');
      const mobile = await phone.newPage();
      watch(mobile, 'phone');
      activePage = mobile;
      for (const [route, title] of [
        ['/', 'Find Videos'],
        ['/download-mp3', 'Bulk Upload MP3 Files'],
        ['/transcripts', 'Create Transcripts'],
        ['/vault', 'Vault'],
        ['/convert-pdf', 'PDF to Markdown'],
        ['/settings', 'Settings'],
        ['/settings?tab=schedules', 'Settings'],
        ['/settings?tab=account', 'Settings'],
        ['/sources', 'Sources'],
        ['/downloads', 'Downloads'],
      ]) {
        if (route === '/convert-pdf') await mobile.evaluate((list) => sessionStorage.setItem('transcripts', list ?? '[]'), transcriptsHandOff);
        await mobile.goto(`${BASE_URL}${route}`);
        await mobile.getByRole('heading', { name: title, level: 1 }).waitFor();
        const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 1) throw new Error(`${route} is ${overflow}px wider than the phone`);
        await shot(mobile, `phone${route === '/' ? '-home' : route.replace(/[/?=]/g, '-')}`);
      }
      // The admin's Users tab: both accounts (the invited one disabled) and the used invitation.
      await mobile.goto(`${BASE_URL}/settings?tab=users`);
      const users = mobile.getByRole('tabpanel', { name: 'Users' });
      await waitForLabeled(users.getByTestId('user-row').nth(1), 'both accounts on the Users tab', { timeout: 30_000 });
      await users.getByTestId('invitation-row').first().waitFor({ timeout: 30_000 });
      await checkNoOverflow(mobile, 'the Users tab');
      // The 'Connected' toast of the page load would sit over a row.
      await mobile.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
      await shot(mobile, 'phone-settings-users');
      await mobile.goto(`${BASE_URL}/download-mp3`);
      await mobile.locator('input[type=file]').setInputFiles(SAMPLES.map((file) => path.join(AUDIO_DIR, file)));
      await shot(mobile, 'phone-download-mp3-files');
      await checkOverallFill(mobile, 'phone-download-mp3-one-failed');
      await vaultPhoneSteps(mobile, firstTitle);
      await mobile.getByRole('button', { name: 'Open menu' }).click();
      await mobile.getByTestId('menu-backdrop').waitFor();
      await shot(mobile, 'phone-menu-open');
      await mobile.getByTestId('menu-backdrop').click({ position: { x: 370, y: 400 } });
      await mobile.getByTestId('menu-backdrop').waitFor({ state: 'detached' });
      await phone.close();

      const anonymous = await newContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone-anonymous');
      const signInPage = await anonymous.newPage();
      watch(signInPage, 'phone-anonymous');
      await signInPage.goto(`${BASE_URL}/sign-in`);
      await signInPage.getByRole('heading', { name: 'Sign in to Scribevault' }).waitFor();
      await shot(signInPage, 'phone-sign-in');
      await anonymous.close();
    });

    if (DEMO) {
      await step('phone layout (390 px) of Find Videos with results and of Sources', async () => {
        const phone = await newContext({ viewport: PHONE, storageState: signedIn, isMobile: true, hasTouch: true }, 'phone');
        const mobile = await phone.newPage();
        watch(mobile, 'phone');
        activePage = mobile;
        try {
          await discoveryPhoneSteps(mobile);
        } finally {
          await phone.close();
        }
      });
    }

    await accountSecuritySteps(page, email, password);

    await step('no Content-Security-Policy violation on any screen', async () => {
      await checkCsp(page, 'the last screen');
      console.log(`  ${cspScreens} screens checked against the policy the server sent`);
      if (cspScreens === 0) throw new Error('no screen was checked');
    });

    await step('no uncaught page errors', async () => {
      if (pageErrors.length > 0) throw new Error(pageErrors.join('; '));
    });
  } finally {
    await browser.close();
  }
}

try {
  await main();
} catch (error) {
  // Step failures are already reported; anything else (setup, launch) counts as one more failure.
  if (!(error && typeof error === 'object' && reported.has(error))) {
    failed += 1;
    console.log(`✗ ${error instanceof Error ? error.message : error}`);
  }
}
console.log(`screenshots: ${shotsDir}`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
