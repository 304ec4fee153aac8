// The Vault: notes saved through the API, search, star, rate, tags, exports, and its 390 px
// layout.
import { readFileSync } from 'node:fs';
import { accessToken, BASE_URL, checkNoOverflow, sharesWordsWithReference, shot, step, waitForLabeled } from './harness.mjs';
import { playerPhoneSteps, playerSteps } from './player.mjs';

/** Opens the AUDIO item titled `title` from a search's results (its card is the one with audio match times). */
const openAudioItem = (title) => async (page) => {
  await vaultCard(page, title).filter({ has: page.locator('.match-time') }).first().getByRole('button', { name: title, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  return dialog;
};

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

/** Saves `files` with a token of the signed-in page's session; the answer's items. */
async function saveToVault(page, files) {
  // The SPA keeps its token in memory: the page asks one of its own with the refresh cookie.
  const token = await accessToken(page);
  const answer = await page.evaluate(async ({ body, token }) => {
    const response = await fetch('/api/vault/save', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }, { body: { files }, token });
  if (answer.status >= 300) throw new Error(`POST /api/vault/save answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body?.data ?? [];
}

/** Opens every collapsed 'Downloaded on {date}' group. */
async function expandDownloadedGroups(page) {
  const collapsed = page.getByRole('button', { name: /^Downloaded on /, expanded: false });
  for (let guard = 0; guard < 20 && (await collapsed.count()) > 0; guard += 1) await collapsed.first().click();
}

export const vaultCard = (page, title) =>
  page.getByTestId('vault-item').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** Saves three notes, reads one rendered, and searches "garden" across the notes and the transcription. */
async function vaultNotesAndSearchSteps(page, audioTitle) {
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
}

/** Stars, rates and tags the transcription in its detail view. */
async function vaultDetailStep(page, audioTitle) {
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
}

/** Exports the item, then the whole selection as one zip. */
async function vaultExportSteps(page, audioTitle) {
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

/** The Vault (desktop): search, star, rate, tag with a suggestion, export one item and the selection. */
export async function vaultSteps(page, audioTitle) {
  await vaultNotesAndSearchSteps(page, audioTitle);
  await vaultDetailStep(page, audioTitle);
  await playerSteps(page, openAudioItem(audioTitle), audioTitle);
  await vaultExportSteps(page, audioTitle);
}

/** The Vault at 390 px: list, grid, search results and the detail view, none wider than the phone. */
export async function vaultPhoneSteps(mobile, audioTitle) {
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
  await playerPhoneSteps(mobile, openAudioItem(audioTitle));
}
