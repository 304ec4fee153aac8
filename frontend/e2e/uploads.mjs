// The overall upload bar on /download-mp3, sampled in every animation frame.
import path from 'node:path';
import { AUDIO_DIR, BASE_URL, BROKEN, rowByTitle, SAMPLES, shotsDir } from './harness.mjs';

/**
 * Uploads the two samples and the broken file on /download-mp3 and reads the overall bar in every
 * animation frame until the upload ends: in each frame its fill must match the percentage it
 * shows, ending at 67 % (2 of 3). A CSS transition once made the fill trail the label, so right
 * after a quick upload the screen said 67 % over a sliver; a settled screenshot or jsdom, which
 * does no layout, could not see that. Saves `<name>.png` the moment the upload ends.
 */
export async function checkOverallFill(page, name) {
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
