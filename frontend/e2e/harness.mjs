// The e2e run's harness (see e2e.mjs): settings from the environment, the steps' pass/fail
// count, screenshots, the Content-Security-Policy watch, and the locators and checks every
// module of the run shares.
import { mkdirSync, mkdtempSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const AUDIO_DIR = path.resolve(process.env.AUDIO_DIR ?? '../shared/audio');
export const TRANSCRIBE_TIMEOUT_MS = Number(process.env.TRANSCRIBE_TIMEOUT_MS ?? 10 * 60_000);
export const SAMPLES = ['sample-01-welcome.mp3', 'sample-02-subscribe.mp3'];
// Dropped on a discovery row: not one of SAMPLES, whose audio the upload steps already stored
// (storage keeps one copy per user, so the same file would hand over a path /transcripts lists).
export const DISCOVERY_SAMPLE = 'sample-03-meeting.mp3';
export const BROKEN = 'broken-not-audio.mp3';
export const shotsDir = process.env.SCREENSHOT_DIR
  ? path.resolve(process.env.SCREENSHOT_DIR)
  : mkdtempSync(path.join(tmpdir(), 'scribevault-e2e-'));
mkdirSync(shotsDir, { recursive: true });

export const LAUNCH = {
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
export const DEMO = DEMO_CHANNEL
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
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

/**
 * The run's mutable state, shared by every module: steps passed and failed, the page whose state
 * is saved as failure-<n>.png when a step fails, the one Chromium of the run, the screens checked
 * against the CSP, and the email and password of the run's first account (`signedInContext`).
 */
export const run = { passed: 0, failed: 0, activePage: null, browser: null, cspScreens: 0, account: null };
export const reported = new WeakSet();
export const pageErrors = [];

export async function step(name, fn) {
  const started = Date.now();
  try {
    const result = await fn();
    run.passed += 1;
    console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    return result;
  } catch (error) {
    run.failed += 1;
    console.log(`✗ ${name}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    if (error && typeof error === 'object') reported.add(error);
    await run.activePage
      ?.screenshot({ path: path.join(shotsDir, `failure-${run.passed + run.failed}.png`), fullPage: true })
      .catch(() => {});
    throw error;
  }
}

export async function shot(page, name, { fullPage = true } = {}) {
  // A full-page capture of a scrolled page draws the fixed menu and sticky bar where the scroll left them.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage });
  // Every screen the run visits is photographed: each is also checked against the real CSP.
  await checkCsp(page, name);
}

export function watch(page, label) {
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
export async function newContext(options, label) {
  const context = await run.browser.newContext(options);
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

/** The refresh cookie of a local session: httpOnly, sent by the browser to this path only. */
export const REFRESH_COOKIE = 'scribevault_refresh';
const REFRESH_PATH = '/api/auth/refresh';

/**
 * A context signed in as the run's account (`run.account`) with a session of its own:
 * `POST /api/auth/login` through the context's request API, which keeps the refresh cookie the
 * answer sets. Copying another context's storageState would copy that context's refresh cookie:
 * the two would then spend the same cookie, and the gateway ends a session whose spent cookie
 * comes back. `from`'s localStorage (search history, remembered views) is copied; no token is in it.
 */
export async function signedInContext(options, label, from = null) {
  const { email, password } = run.account ?? {};
  if (!email) throw new Error(`signedInContext(${label}): run.account is not set`);
  const origins = from ? (await from.storageState()).origins : [];
  const context = await newContext({ ...options, storageState: { cookies: [], origins } }, label);
  const answer = await context.request.post(`${BASE_URL}/api/auth/login`, { data: { email, password } });
  if (!answer.ok()) throw new Error(`signing ${label} in answered ${answer.status()}: ${await answer.text()}`);
  const cookies = await context.cookies(`${BASE_URL}${REFRESH_PATH}`);
  if (!cookies.some((cookie) => cookie.name === REFRESH_COOKIE && cookie.value)) throw new Error(`signing ${label} in set no ${REFRESH_COOKIE} cookie`);
  return context;
}

/**
 * `POST /api/auth/refresh` from the page, as the SPA asks it: the cookie alone, holding the SPA's
 * Web Lock so it never overlaps one of the SPA's own refreshes (a spent cookie sent again ends the
 * session). Answers the status and body; a 200 rotates the cookie and leaves the SPA's own token
 * as it was.
 */
export async function refreshFromPage(page) {
  return page.evaluate(async () => {
    const refresh = async () => {
      const response = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' });
      return { status: response.status, body: await response.json().catch(() => null) };
    };
    return navigator.locks ? navigator.locks.request('scribevault-refresh', refresh) : refresh();
  });
}

/** An access token of the page's session (the SPA keeps its own in memory, out of reach). */
export async function accessToken(page) {
  const answer = await refreshFromPage(page);
  const token = answer.body?.data?.token;
  if (answer.status !== 200 || typeof token !== 'string' || !token) {
    throw new Error(`POST /api/auth/refresh answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return token;
}

/** The keys of the page's localStorage whose value holds something shaped like a JWT. */
export async function jwtKeysInLocalStorage(page) {
  return page.evaluate(() =>
    Object.keys(localStorage).filter((key) => /eyJ[\w-]*\.[\w-]+\.[\w-]+/.test(localStorage.getItem(key) ?? '')),
  );
}

const describeViolation = (violation) =>
  violation.console
    ? `${violation.label} ${violation.page}: ${violation.console}`
    : `${violation.label} ${violation.page}: ${violation.disposition ?? 'enforce'} ${violation.directive} blocked ${violation.blocked}` +
      `${violation.source ? ` (from ${violation.source})` : ''}${violation.sample ? ` sample "${violation.sample}"` : ''}`;

/** Fails with every CSP violation seen since the last check (this page's own list, and all reported). */
export async function checkCsp(page, screen) {
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
  run.cspScreens += 1;
}

/** locator.waitFor, with the thing waited for named in the error. */
export async function waitForLabeled(locator, label, options) {
  try {
    await locator.waitFor(options);
  } catch (error) {
    throw new Error(`waiting for ${label}: ${error instanceof Error ? error.message.split('\n')[0] : error}`, { cause: error });
  }
}

export const rowByTitle = (page, testId, title) =>
  page.getByTestId(testId).filter({ has: page.locator('.file-title', { hasText: title }) });

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A row whose title is exactly `title` ('episode 12' must not match 'episode 120'). */
export const rowByExactTitle = (page, testId, title) =>
  page.getByTestId(testId).filter({ has: page.locator('.file-title', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }) });

/** Fails unless the page is no wider than its viewport (no sideways scrolling on a phone). */
export async function checkNoOverflow(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 1) throw new Error(`${what} is ${overflow}px wider than the viewport`);
}

/** Drops `file` (from AUDIO_DIR) on `target` the way a browser does: dragenter, dragover, drop. */
export async function dropFile(page, target, file) {
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

/** Fails unless `text` shares a word with the reference text of `title` (when AUDIO_DIR has one). */
export function sharesWordsWithReference(text, title) {
  const expectedFile = path.join(AUDIO_DIR, `${title}.txt`);
  if (!existsSync(expectedFile)) return;
  const words = (value) => new Set(value.toLowerCase().match(/[a-z']{4,}/g) ?? []);
  const expected = words(readFileSync(expectedFile, 'utf8'));
  const shared = [...words(text)].filter((word) => expected.has(word));
  console.log(`  ${shared.length} of ${expected.size} expected words found`);
  if (expected.size > 0 && shared.length === 0) throw new Error('the text shares no words with the reference');
}
