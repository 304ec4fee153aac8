// /convert-pdf, the Vault's Import PDF with premium OCR, and Settings (theme and default view).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUDIO_DIR, BASE_URL, BROKEN, rowByTitle, sharesWordsWithReference, shot, step, waitForLabeled } from './harness.mjs';
import { vaultCard } from './vault.mjs';

/** A small real PDF: page 1 has a text layer, page 2 is only a picture of text (a "scan"). */
const SAMPLE_PDF = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sample-scan.pdf');
const SAMPLE_PDF_TITLE = 'Garden field notes';
const CONVERT_TEMPLATE = '## {{title}}\n\n*From {{source}} on {{date}}*\n\n{{content}}\n';

/** Converts both transcriptions on /convert-pdf with a template saved by name, previews one and saves them to the Vault. */
async function convertStep(page, titles) {
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
}

/** The Vault's Import PDF: a non-PDF is refused, the sample PDF converted and saved, and premium OCR reads its page 2. */
async function importPdfStep(page) {
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
}

/** Dark theme and Grid view saved in Settings apply to the app and the Vault; Reset brings the defaults back. */
async function themeAndViewStep(page) {
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

/**
 * /convert-pdf, the Vault's Import PDF with premium OCR, and Settings (theme and default view),
 * on the desktop. `titles` are the two completed transcriptions.
 */
export async function conversionAndSettingsSteps(page, titles) {
  await convertStep(page, titles);
  await importPdfStep(page);
  await themeAndViewStep(page);
}
