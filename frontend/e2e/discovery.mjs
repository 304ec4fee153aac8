// Find Videos and Sources against the server's YouTube fake (YOUTUBE_DEMO_CHANNEL), on the
// desktop and at 390 px.
import { readFileSync } from 'node:fs';
import { BASE_URL, checkNoOverflow, DEMO, DISCOVERY_SAMPLE, dropFile, rowByExactTitle, shot, step, waitForLabeled } from './harness.mjs';

/** Searches the demo channel with the default 100 (after a look at All and the quota). */
async function findVideosSearchStep(page, first) {
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
}

/** Selects two videos, drops an MP3 on one, exports the URLs, creates transcripts and searches again from the history. */
async function findVideosSelectionSteps(page, first, second) {
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
}

/** Adds the demo playlist on /sources, pages its videos and downloads two of them. */
async function sourcesAndDownloadsSteps(page) {
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
}

/** Creates, disables and deletes a schedule in Scheduled Syncs. */
async function scheduleStep(page) {
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

/** Find Videos and Sources against the server's YouTube fake (YOUTUBE_DEMO_CHANNEL). */
export async function discoverySteps(page) {
  const first = DEMO.episode(120);
  const second = DEMO.episode(119);

  await findVideosSearchStep(page, first);
  await findVideosSelectionSteps(page, first, second);
  await sourcesAndDownloadsSteps(page);
  await scheduleStep(page);
}

/** The 390 px layout of Find Videos (searched again from Previous Searches) and Sources. */
export async function discoveryPhoneSteps(mobile) {
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
