// Issue 24's screens in a real browser, against the real engine (tiny.en, one worker, one
// thread): the quality guard's 'Needs review' on an input that makes tiny.en loop, its ranges
// seeking the player, and 'Mark as reviewed'; /transcripts with a waiting file's place and ETA;
// and the captions and language defaults in Settings surviving a reload. Photographed at
// desktop and 390 px, the review also in dark.
//
// The inputs come from scripts/make-quality-audio.sh, which scripts/e2e.sh runs into the run's
// temporary folder (QUALITY_AUDIO_DIR): docs/quality.md says what tiny.en makes of each.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BASE_URL, checkNoOverflow, DESKTOP, PHONE, rowByTitle, run, shot, step, TRANSCRIBE_TIMEOUT_MS, waitForLabeled } from './harness.mjs';

/**
 * Queued first: a 28 s melody (tiny.en writes "(lively music)" and the guard decodes it again),
 * so the file after it waits. Then sample-02 sped up 1.8×, on which tiny.en loops one sentence.
 */
const MUSIC = 'music';
const LOOPED = 'looped-speech';

const vaultCard = (page, title) => page.getByTestId('vault-item').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** Runs `fn` at 390 px wide and then back at the desktop size. */
async function atPhoneWidth(page, fn) {
  await page.setViewportSize(PHONE);
  try {
    await fn();
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

/** Both colour schemes of what is on screen, as `<name>.png` and `<name>-dark.png`. */
async function lightAndDark(page, name) {
  await shot(page, name, { fullPage: false });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 5_000 }).catch(() => {
    throw new Error('the page did not turn dark with the system');
  });
  await shot(page, `${name}-dark`, { fullPage: false });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** 'm:ss' (or 'h:mm:ss') in seconds. */
const seconds = (clock) => clock.split(':').reduce((total, part) => total * 60 + Number(part), 0);

/** Uploads the melody and the looping speech, starts both, and reads the waiting file's place and ETA. */
async function uploadAndQueueSteps(page, audioDir, files) {
  await step('quality: upload a melody and sped-up looping speech, and start both', async () => {
    if (!audioDir) throw new Error('QUALITY_AUDIO_DIR is not set (scripts/e2e.sh makes it with scripts/make-quality-audio.sh)');
    for (const file of files) if (!existsSync(file)) throw new Error(`missing ${file}`);
    await page.goto(`${BASE_URL}/download-mp3`);
    await page.getByRole('heading', { name: 'Bulk Upload MP3 Files', level: 1 }).waitFor();
    await page.locator('input[type=file]').setInputFiles(files);
    await page.getByRole('button', { name: 'Upload All (2)' }).click();
    for (const title of [MUSIC, LOOPED]) {
      await rowByTitle(page, 'upload-row', title).getByText('Completed', { exact: true }).waitFor({ timeout: 60_000 });
    }
    await page.getByRole('button', { name: 'Create Transcripts from MP3s' }).click();
    await page.getByRole('heading', { name: 'Create Transcripts', level: 1 }).waitFor();
    for (const title of [MUSIC, LOOPED]) await rowByTitle(page, 'transcription-row', title).waitFor();
    await page.getByRole('button', { name: 'Start Transcription' }).click();
  });

  await step('queue: a waiting file shows its place and an estimated start and end (desktop and 390 px)', async () => {
    // One worker: the melody runs while the looping speech waits behind it.
    const waiting = rowByTitle(page, 'transcription-row', LOOPED).getByTestId('queue-eta').filter({ hasText: /#[1-9]\d* in queue/ });
    await waitForLabeled(waiting, `${LOOPED} waiting in the queue with an ETA`, { timeout: 30_000 });
    const text = (await waiting.innerText()).replace(/\s+/g, ' ').trim();
    console.log(`  ${LOOPED}: ${text}`);
    if (!/starts (now|in .+) · done by \d{1,2}:\d{2} [AP]M/.test(text)) throw new Error(`the waiting file's line gives no start and end: "${text}"`);
    if (!/\(estimate\)/.test(text)) throw new Error(`the ETA is not marked as an estimate: "${text}"`);
    await waitForLabeled(page.getByTestId('queue-basis'), 'what the estimates are made from');
    await waiting.scrollIntoViewIfNeeded();
    await shot(page, 'desktop-transcripts-queue-eta', { fullPage: false });
    await atPhoneWidth(page, async () => {
      await waitForLabeled(waiting, 'the waiting file at 390 px', { timeout: 5_000 });
      await checkNoOverflow(page, '/transcripts with the queue');
      await waiting.scrollIntoViewIfNeeded();
      await shot(page, 'phone-transcripts-queue-eta', { fullPage: false });
    });
  });
}

/** The looping file's item: 'Needs review', its ranges, and a range that seeks the player; answers the item's dialog. */
async function needsReviewStep(page) {
  let dialog;
  await step("quality: the looping file's item says 'Needs review' with its ranges, and a range seeks the player", async () => {
    for (const title of [MUSIC, LOOPED]) {
      await rowByTitle(page, 'transcription-row', title).and(page.locator('[data-status=completed]')).waitFor({ timeout: TRANSCRIBE_TIMEOUT_MS });
    }
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    const link = rowByTitle(page, 'transcription-row', LOOPED).getByRole('link', { name: 'Vault' });
    await page.waitForFunction((element) => /[?&]item=/.test(element.getAttribute('href') ?? ''), await link.elementHandle(), { timeout: 30_000 });
    await link.click();
    dialog = page.getByRole('dialog', { name: LOOPED });
    await waitForLabeled(dialog, 'the item to open', { timeout: 30_000 });
    await waitForLabeled(dialog.getByTestId('needs-review'), "the item's 'Needs review' badge", { timeout: 15_000 });
    const panel = dialog.getByTestId('review-panel');
    const reasons = await panel.getByRole('list', { name: 'Reasons' }).getByRole('listitem').allInnerTexts();
    const ranges = panel.getByRole('list', { name: 'Stretches to check' }).getByRole('button', { name: /^Play from / });
    const count = await ranges.count();
    console.log(`  reasons: ${reasons.map((reason) => reason.split(':')[0]).join(', ')}; ${count} range(s): ${(await ranges.allInnerTexts()).join(', ')}`);
    if (count === 0) throw new Error('no range to listen to');

    // Start away from the range, so the click has to move the playhead.
    await page.waitForFunction(() => (document.querySelector('.item-player-audio')?.readyState ?? 0) >= 1, null, { timeout: 30_000 });
    await page.evaluate(() => {
      const audio = document.querySelector('.item-player-audio');
      audio.currentTime = Math.max(0, audio.duration - 0.2);
    });
    const range = ranges.first();
    const from = seconds((await range.innerText()).split('–')[0].trim());
    await range.click();
    await page
      .waitForFunction(
        (start) => {
          const audio = document.querySelector('.item-player-audio');
          return audio && audio.currentTime >= start - 0.1 && audio.currentTime < start + 1.75;
        },
        from,
        { timeout: 15_000 },
      )
      .catch(async () => {
        const at = await page.evaluate(() => document.querySelector('.item-player-audio')?.currentTime);
        throw new Error(`clicking the range from ${from} s left the player at ${at} s`);
      });
    await page.evaluate(() => document.querySelector('.item-player-audio')?.pause());
    const at = await page.evaluate(() => document.querySelector('.item-player-audio').currentTime);
    console.log(`  clicked the range from ${from} s: the player is at ${at.toFixed(2)} s`);

    await panel.scrollIntoViewIfNeeded();
    await lightAndDark(page, 'desktop-vault-needs-review');
    await atPhoneWidth(page, async () => {
      await checkNoOverflow(page, "the 'Needs review' item");
      await panel.scrollIntoViewIfNeeded();
      await lightAndDark(page, 'phone-vault-needs-review');
    });
  });
  return dialog;
}

async function markReviewedStep(page, dialog) {
  await step("quality: 'Mark as reviewed' takes the badge and the panel away, and it stays so after a reload", async () => {
    const panel = dialog.getByTestId('review-panel');
    await panel.getByRole('button', { name: 'Mark as reviewed' }).click();
    await waitForLabeled(panel, 'the review panel to go', { state: 'detached', timeout: 15_000 });
    if (await dialog.getByTestId('needs-review').count()) throw new Error("the item still says 'Needs review'");
    await shot(page, 'desktop-vault-reviewed', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.goto(`${BASE_URL}/vault`);
    const card = vaultCard(page, LOOPED);
    await waitForLabeled(card, `the ${LOOPED} card`, { timeout: 30_000 });
    if (await card.getByTestId('needs-review').count()) throw new Error(`the ${LOOPED} card still says 'Needs review' after a reload`);
  });
}

async function languageDefaultsStep(page) {
  await step('settings: the captions and spoken-language defaults are saved and still set after a reload', async () => {
    await page.goto(`${BASE_URL}/settings`);
    const captions = page.getByRole('switch', { name: 'Use YouTube captions when available' });
    const language = page.getByLabel('Spoken language');
    await waitForLabeled(captions, 'the captions default', { timeout: 30_000 });
    await waitForLabeled(language.locator('option[value="de"]'), 'the list of languages', { state: 'attached', timeout: 30_000 });
    const before = { captions: await captions.isChecked(), language: await language.inputValue() };
    const wanted = { captions: !before.captions, language: before.language === 'de' ? 'fr' : 'de' };
    await captions.click();
    await language.selectOption(wanted.language);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Your preferences have been updated.').first().waitFor({ timeout: 30_000 });
    await page.reload();
    await waitForLabeled(captions, 'the captions default after the reload', { timeout: 30_000 });
    await waitForLabeled(language.locator(`option[value="${wanted.language}"]`), 'the languages after the reload', { state: 'attached', timeout: 30_000 });
    const after = { captions: await captions.isChecked(), language: await language.inputValue() };
    console.log(`  before ${JSON.stringify(before)}, saved ${JSON.stringify(wanted)}, after a reload ${JSON.stringify(after)}`);
    if (after.captions !== wanted.captions || after.language !== wanted.language) {
      throw new Error(`after a reload the defaults are ${JSON.stringify(after)}, not ${JSON.stringify(wanted)}`);
    }
    // The page load's 'Connected' toast would sit over the cards.
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await page.getByRole('region', { name: 'Transcription' }).scrollIntoViewIfNeeded();
    await shot(page, 'desktop-settings-captions-language', { fullPage: false });
    // Back as they were, for the steps after.
    await captions.click();
    await language.selectOption(before.language);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Your preferences have been updated.').first().waitFor({ timeout: 30_000 });
  });
}

export async function qualitySteps(page) {
  run.activePage = page;
  const audioDir = process.env.QUALITY_AUDIO_DIR;
  const files = [MUSIC, LOOPED].map((name) => path.join(audioDir ?? '', `${name}.mp3`));

  await uploadAndQueueSteps(page, audioDir, files);
  const dialog = await needsReviewStep(page);
  await markReviewedStep(page, dialog);
  await languageDefaultsStep(page);
}
