// The Vault's item player: an AUDIO item plays by its signed link with byte ranges, a click on a
// word seeks there and highlights it, and the player is photographed at desktop and 390 px, light
// and dark.
import { checkNoOverflow, shot, step, waitForLabeled } from './harness.mjs';

/**
 * In the open detail `dialog` of an AUDIO item: waits for the recording's metadata (read through
 * ranges), clicks the third word, and checks that playback moved there and the word is lit.
 */
async function clickAWordAndCheckTheSeek(page, dialog) {
  const player = dialog.getByTestId('item-player');
  await waitForLabeled(player.locator('.player-word').nth(2), 'the timed words', { timeout: 30_000 });
  await page.waitForFunction(() => (document.querySelector('.item-player-audio')?.readyState ?? 0) >= 1, null, { timeout: 30_000 });
  const word = player.locator('.player-word').nth(2);
  const startMs = Number(await word.getAttribute('data-start-ms'));
  await word.click();
  await page.waitForFunction(
    (target) => {
      const audio = document.querySelector('.item-player-audio');
      return audio && Math.abs(audio.currentTime - target) < 0.75;
    },
    startMs / 1000,
    { timeout: 15_000 },
  );
  await waitForLabeled(player.locator('.player-word.active'), 'the spoken word highlighted', { timeout: 15_000 });
  // Let it play a moment, then pause where it is, so the screenshots show a steady highlight.
  await page.waitForTimeout(600);
  await page.evaluate(() => document.querySelector('.item-player-audio')?.pause());
  const state = await page.evaluate(() => {
    const audio = document.querySelector('.item-player-audio');
    return { time: audio.currentTime, duration: audio.duration, active: document.querySelector('.player-word.active')?.textContent };
  });
  console.log(`  clicked "${await word.innerText()}" at ${startMs} ms: playing at ${state.time.toFixed(2)} s of ${state.duration.toFixed(1)} s, "${state.active}" lit`);
}

/** Desktop: plays the item and seeks by a word; light and dark screenshots. */
export async function playerSteps(page, openItem, audioTitle) {
  await step('vault: an audio item plays with byte ranges and a click on a word seeks there', async () => {
    const ranged = [];
    const onResponse = (response) => {
      if (response.url().includes('/api/library/audio/')) ranged.push(response.status());
    };
    page.on('response', onResponse);
    const dialog = await openItem(page);
    await clickAWordAndCheckTheSeek(page, dialog);
    page.off('response', onResponse);
    if (!ranged.includes(206)) throw new Error(`the recording was not fetched by ranges: ${JSON.stringify(ranged)}`);
    await dialog.getByTestId('item-player').scrollIntoViewIfNeeded();
    await shot(page, 'desktop-vault-player', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => getComputedStyle(document.documentElement).colorScheme.includes('dark'), null, { timeout: 5_000 }).catch(() => {});
    await shot(page, 'desktop-vault-player-dark', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    console.log(`  ${audioTitle}: ${ranged.length} answers from the audio link (${[...new Set(ranged)].join(', ')})`);
  });
}

/** 390 px: the same, with no horizontal overflow. */
export async function playerPhoneSteps(mobile, openItem) {
  await step('vault at 390 px: the player fits, plays and seeks by a word', async () => {
    const dialog = await openItem(mobile);
    await clickAWordAndCheckTheSeek(mobile, dialog);
    await checkNoOverflow(mobile, 'the item player');
    await dialog.getByTestId('item-player').scrollIntoViewIfNeeded();
    await shot(mobile, 'phone-vault-player', { fullPage: false });
    await mobile.emulateMedia({ colorScheme: 'dark' });
    await shot(mobile, 'phone-vault-player-dark', { fullPage: false });
    await mobile.emulateMedia({ colorScheme: 'light' });
    await mobile.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });
}
