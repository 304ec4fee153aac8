// Settings → Webhooks and Podcast Feeds (issue 25 §3, §4) in a real browser: a webhook made in
// the browser reaches a receiver on this machine with a Standard Webhooks signature that checks
// out against the secret the browser showed; a feed made in the browser answers a podcast app's
// GET with RSS that carries the Vault's episodes and their transcripts; both fit at 390 px.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { BASE_URL, checkNoOverflow, PHONE, run, shot, signedInContext, step, waitForLabeled, watch } from './harness.mjs';

/** A webhook receiver on loopback that keeps what it was sent. */
async function startReceiver() {
  const received = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('received');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { received, url: `http://127.0.0.1:${server.address().port}/hook`, close: () => server.close() };
}

/** The Standard Webhooks check, written from the spec (standardwebhooks.com), not from our sender. */
function signatureHolds(secret, { headers, body }) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .map((part) => part.split(','))
    .some(([version, signature]) => version === 'v1' && signature && timingSafeEqual(Buffer.from(signature, 'base64'), expected));
}

const panel = (page, name) => page.getByRole('tabpanel', { name });

/** A webhook made in Settings: its secret is shown once, and Send test reaches the receiver signed with it. */
async function webhookStep(page, receiver) {
  await step('webhooks: one made in Settings is signed with the secret shown once; Send test reaches the receiver', async () => {
    await page.goto(`${BASE_URL}/settings?tab=webhooks`);
    const card = panel(page, 'Webhooks');
    await waitForLabeled(card.getByText('No webhooks yet.'), 'the empty webhook list', { timeout: 30_000 });
    await card.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByLabel('Description (optional)').fill('n8n on the home server');
    await dialog.getByLabel(/Transcription done/).check();
    await shot(page, 'desktop-webhook-add', { fullPage: false });
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByRole('dialog', { name: 'Webhook created' });
    await waitForLabeled(shown, 'the new webhook secret', { timeout: 30_000 });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    if (!secret.startsWith('whsec_')) throw new Error(`the secret shown is "${secret}"`);
    await shot(page, 'desktop-webhook-secret', { fullPage: false });
    await shown.getByRole('button', { name: 'Done' }).click();

    const item = card.getByTestId('webhook-item').filter({ hasText: receiver.url });
    await waitForLabeled(item, 'the webhook in the list', { timeout: 30_000 });
    await item.getByRole('button', { name: `Send a test to ${receiver.url}` }).click();
    await waitForLabeled(item.getByText(/Test delivered: HTTP 200/), 'the test result', { timeout: 30_000 });
    const test = receiver.received.at(-1);
    if (!test) throw new Error('the receiver got nothing');
    if (!signatureHolds(secret, test)) throw new Error(`the signature does not verify: ${JSON.stringify(test.headers)}`);
    const payload = JSON.parse(test.body);
    console.log(`  receiver: ${receiver.received.length} request(s), type ${payload.type}, signature verified`);
    await item.getByRole('button', { name: 'Deliveries' }).click();
    await waitForLabeled(item.getByTestId('webhook-attempt').first(), 'the delivery log', { timeout: 30_000 });
    await shot(page, 'desktop-webhooks');
  });
}

/** A podcast feed made in Settings answers a podcast app; answers the feed's URL. */
async function podcastFeedStep(page) {
  let feedUrl = '';
  await step('podcast feeds: one made in Settings answers a podcast app with the Vault as episodes and transcripts', async () => {
    await page.goto(`${BASE_URL}/settings?tab=feeds`);
    const card = panel(page, 'Podcast Feeds');
    await waitForLabeled(card.getByText('No feeds yet.'), 'the empty feed list', { timeout: 30_000 });
    await card.getByRole('button', { name: 'Create feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create podcast feed' });
    await dialog.getByLabel('Publish').selectOption('vault');
    await dialog.getByRole('button', { name: 'Create feed' }).click();
    const shown = page.getByRole('dialog', { name: 'Feed created' });
    await waitForLabeled(shown, 'the new feed URL', { timeout: 30_000 });
    feedUrl = await shown.getByRole('textbox').inputValue();
    await shot(page, 'desktop-podcast-feed-url', { fullPage: false });
    await shown.getByRole('button', { name: 'Done' }).click();

    const answer = await fetch(feedUrl, { headers: { 'User-Agent': 'AntennaPod/3.5.0' } });
    const rss = await answer.text();
    const items = (rss.match(/<item>/g) ?? []).length;
    console.log(`  GET the feed: ${answer.status} ${answer.headers.get('content-type')}, ${items} episode(s)`);
    if (answer.status !== 200 || !/xml/.test(answer.headers.get('content-type') ?? '')) throw new Error(`the feed answers ${answer.status}`);
    if (items === 0 || !rss.includes('<podcast:transcript')) throw new Error('the feed has no episodes with transcripts');
    const enclosure = /<enclosure url="([^"]+)"/.exec(rss)?.[1]?.replaceAll('&amp;', '&');
    const head = await fetch(enclosure, { method: 'HEAD' });
    if (head.status !== 200 || head.headers.get('content-type') !== 'audio/mpeg') throw new Error(`the enclosure's HEAD answers ${head.status}`);
    await page.reload();
    await waitForLabeled(card.getByTestId('podcast-feed-row'), 'the feed in the list', { timeout: 30_000 });
    await shot(page, 'desktop-podcast-feeds');
  });
  return feedUrl;
}

/** Both lists at 390 px, a webhook secret shown there, and a revoked feed that stops answering. */
async function phoneIntegrationsStep(page, receiver, feedUrl) {
  await step('webhooks and podcast feeds at 390 px: the lists fit; a revoked feed stops answering', async () => {
    // A session of its own: a copy of the desktop's storage state would spend the desktop's refresh cookie.
    const phone = await signedInContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone', page.context());
    const mobile = await phone.newPage();
    watch(mobile, 'phone');
    run.activePage = mobile;
    try {
      await mobile.goto(`${BASE_URL}/settings?tab=webhooks`);
      const hooks = panel(mobile, 'Webhooks');
      await waitForLabeled(hooks.getByTestId('webhook-item'), 'the webhook list', { timeout: 30_000 });
      await checkNoOverflow(mobile, 'Settings → Webhooks');
      await shot(mobile, 'phone-webhooks');
      // The secret is shown once: at 390 px it must fit and be copyable without scrolling sideways.
      await hooks.getByRole('button', { name: 'Add webhook' }).click();
      const add = mobile.getByRole('dialog', { name: 'Add webhook' });
      await add.getByLabel('URL').fill(`${receiver.url}/phone`);
      await add.getByLabel(/Transcription done/).check();
      await add.getByRole('button', { name: 'Add webhook' }).click();
      const shownOnPhone = mobile.getByRole('dialog', { name: 'Webhook created' });
      await waitForLabeled(shownOnPhone, 'the new webhook secret at 390 px', { timeout: 30_000 });
      await checkNoOverflow(mobile, 'the "Webhook created" dialog');
      await shot(mobile, 'phone-webhook-secret', { fullPage: false });
      await shownOnPhone.getByRole('button', { name: 'Done' }).click();
      await waitForLabeled(hooks.getByTestId('webhook-item').filter({ hasText: `${receiver.url}/phone` }), 'the second webhook in the list', { timeout: 30_000 });
      await mobile.goto(`${BASE_URL}/settings?tab=feeds`);
      const card = panel(mobile, 'Podcast Feeds');
      await waitForLabeled(card.getByTestId('podcast-feed-row'), 'the feed list', { timeout: 30_000 });
      await checkNoOverflow(mobile, 'Settings → Podcast Feeds');
      await shot(mobile, 'phone-podcast-feeds');
      await card.getByRole('button', { name: /^Revoke the feed/ }).click();
      const confirm = mobile.getByRole('dialog', { name: 'Revoke this feed?' });
      await confirm.getByRole('button', { name: 'Revoke feed' }).click();
      await waitForLabeled(card.getByText('No feeds yet.'), 'the empty list after revoking', { timeout: 30_000 });
      const after = await fetch(feedUrl);
      if (after.status !== 404) throw new Error(`the revoked feed answers ${after.status}`);
    } finally {
      await phone.close();
      run.activePage = page;
    }
  });
}

export async function integrationSteps(page) {
  run.activePage = page;
  const receiver = await startReceiver();
  try {
    await webhookStep(page, receiver);
    const feedUrl = await podcastFeedStep(page);
    await phoneIntegrationsStep(page, receiver, feedUrl);
  } finally {
    receiver.close();
  }
}
