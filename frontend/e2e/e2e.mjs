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
//
// Issue 24 (quality.mjs, with QUALITY_AUDIO_DIR from scripts/make-quality-audio.sh): an input
// that makes tiny.en loop ends 'Needs review' with ranges that seek the player, and 'Mark as
// reviewed' clears it; /transcripts shows a waiting file's place and ETA; the captions and
// language defaults in Settings persist; desktop and 390 px screenshots (the review also dark).
//
// This file is the run's order; its steps live in modules beside it: harness.mjs (settings, step
// and screenshot, the CSP watch, shared locators), accounts.mjs, vault.mjs, conversion.mjs,
// discovery.mjs, uploads.mjs, integrations.mjs and quality.mjs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { AUDIO_DIR, BASE_URL, BROKEN, checkCsp, checkNoOverflow, DEMO, DESKTOP, LAUNCH, newContext, pageErrors, PHONE, reported, rowByTitle, run, SAMPLES, sharesWordsWithReference, shot, shotsDir, signedInContext, step, TRANSCRIBE_TIMEOUT_MS, waitForLabeled, watch } from './harness.mjs';
import { discoveryPhoneSteps, discoverySteps } from './discovery.mjs';
import { vaultPhoneSteps, vaultSteps } from './vault.mjs';
import { conversionAndSettingsSteps } from './conversion.mjs';
import { accountSecuritySteps, checkSessionInMemory, fetchConfig, firstAccountSteps, invitationSteps } from './accounts.mjs';
import { checkOverallFill } from './uploads.mjs';
import { apiTokenSteps } from './tokens.mjs';
import { integrationSteps } from './integrations.mjs';
import { qualitySteps } from './quality.mjs';

/** The audio files the run uploads must be there before the browser starts. */
function checkAudioFiles() {
  for (const file of [...SAMPLES, BROKEN]) {
    if (!existsSync(path.join(AUDIO_DIR, file))) throw new Error(`missing ${file} in AUDIO_DIR=${AUDIO_DIR}`);
  }
}

/** The desktop context and page, and the account the run signs up (other contexts sign in as it). */
async function openDesktop() {
  const desktop = await newContext({ viewport: DESKTOP }, 'desktop');
  const page = await desktop.newPage();
  watch(page, 'desktop');
  run.activePage = page;
  const email = `e2e-${Date.now()}@example.com`;
  const password = 'e2e-password-123';
  // Other contexts sign in as this account with sessions of their own (signedInContext).
  run.account = { email, password };
  return { desktop, page, email, password };
}

async function signUpSteps(page, email, password) {
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

  await step('after sign-up: no token in localStorage, and a reload keeps the session (the refresh cookie)', async () => {
    await checkSessionInMemory(page, { heading: 'Find Videos' });
  });
}

async function uploadAndTranscribeSteps(page) {
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
}

async function followVaultLinkStep(page, firstTitle) {
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
}

async function failedUploadSteps(page) {
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
}

async function desktopScreensStep(page) {
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
}

/** Every route at 390 px: no horizontal overflow, a screenshot each. */
async function phoneScreens(mobile, transcriptsHandOff) {
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
}

/** The admin's Users tab: both accounts (the invited one disabled) and the used invitation. */
async function phoneUsersTab(mobile) {
  await mobile.goto(`${BASE_URL}/settings?tab=users`);
  const users = mobile.getByRole('tabpanel', { name: 'Users' });
  await waitForLabeled(users.getByTestId('user-row').nth(1), 'both accounts on the Users tab', { timeout: 30_000 });
  await users.getByTestId('invitation-row').first().waitFor({ timeout: 30_000 });
  await checkNoOverflow(mobile, 'the Users tab');
  // The 'Connected' toast of the page load would sit over a row.
  await mobile.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
  await shot(mobile, 'phone-settings-users');
}

/** The upload page with files, the overall bar, the Vault at 390 px and the open menu. */
async function phoneUploadsVaultAndMenu(mobile, firstTitle) {
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
}

async function phoneSignIn() {
  const anonymous = await newContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone-anonymous');
  const signInPage = await anonymous.newPage();
  watch(signInPage, 'phone-anonymous');
  await signInPage.goto(`${BASE_URL}/sign-in`);
  await signInPage.getByRole('heading', { name: 'Sign in to Scribevault' }).waitFor();
  await shot(signInPage, 'phone-sign-in');
  await anonymous.close();
}

async function phoneLayoutStep(desktop, firstTitle, transcriptsHandOff) {
  await step('phone layout (390 px) of every screen', async () => {
    // A session of its own: a copy of the desktop's storage state would spend the desktop's
    // refresh cookie, and a spent cookie sent again ends the session.
    const phone = await signedInContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone', desktop);
    const mobile = await phone.newPage();
    watch(mobile, 'phone');
    run.activePage = mobile;
    await phoneScreens(mobile, transcriptsHandOff);
    await phoneUsersTab(mobile);
    await phoneUploadsVaultAndMenu(mobile, firstTitle);
    await phone.close();
    await phoneSignIn();
  });
}

async function discoveryPhoneStep(desktop) {
  await step('phone layout (390 px) of Find Videos with results and of Sources', async () => {
    const phone = await signedInContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone', desktop);
    const mobile = await phone.newPage();
    watch(mobile, 'phone');
    run.activePage = mobile;
    try {
      await discoveryPhoneSteps(mobile);
    } finally {
      await phone.close();
    }
  });
}

async function finalChecks(page) {
  await step('no Content-Security-Policy violation on any screen', async () => {
    await checkCsp(page, 'the last screen');
    console.log(`  ${run.cspScreens} screens checked against the policy the server sent`);
    if (run.cspScreens === 0) throw new Error('no screen was checked');
  });

  await step('no uncaught page errors', async () => {
    if (pageErrors.length > 0) throw new Error(pageErrors.join('; '));
  });
}

/** The run's order: every step, one after the other; a failed step ends the run. */
async function runSteps() {
  const { desktop, page, email, password } = await openDesktop();
  await signUpSteps(page, email, password);
  await firstAccountSteps(page, email);
  await uploadAndTranscribeSteps(page);
  const firstTitle = SAMPLES[0].replace(/\.mp3$/, '');
  await followVaultLinkStep(page, firstTitle);
  await vaultSteps(page, firstTitle);
  await conversionAndSettingsSteps(page, SAMPLES.map((file) => file.replace(/\.mp3$/, '')));
  // The phone context has no session storage: it gets the transcription list for /convert-pdf.
  const transcriptsHandOff = await page.evaluate(() => sessionStorage.getItem('transcripts'));
  await failedUploadSteps(page);
  await desktopScreensStep(page);
  if (DEMO) await discoverySteps(page);
  else console.log('- find videos and sources against the YouTube fake: skipped (YOUTUBE_DEMO_CHANNEL is not set)');
  await invitationSteps(page, email);
  await phoneLayoutStep(desktop, firstTitle, transcriptsHandOff);
  if (DEMO) await discoveryPhoneStep(desktop);
  await apiTokenSteps(page);
  await integrationSteps(page);
  await qualitySteps(page);
  await accountSecuritySteps(page, email, password);
  await finalChecks(page);
}

async function main() {
  checkAudioFiles();
  console.log(`e2e against ${BASE_URL}; screenshots in ${shotsDir}`);
  run.browser = await chromium.launch(LAUNCH);
  try {
    await runSteps();
  } finally {
    await run.browser.close();
  }
}

try {
  await main();
} catch (error) {
  // Step failures are already reported; anything else (setup, launch) counts as one more failure.
  if (!(error && typeof error === 'object' && reported.has(error))) {
    run.failed += 1;
    console.log(`✗ ${error instanceof Error ? error.message : error}`);
  }
}
console.log(`screenshots: ${shotsDir}`);
console.log(`e2e: ${run.passed} passed, ${run.failed} failed`);
process.exit(run.failed === 0 && run.passed > 0 ? 0 : 1);