// Settings → Account → API Tokens (issue 25 §1): a token made in the browser is shown once, acts
// as its member on the API (never as an admin) and is refused as soon as it is revoked.
import { BASE_URL, checkNoOverflow, PHONE, run, shot, signedInContext, step, waitForLabeled, watch } from './harness.mjs';

const accountPanel = (page) => page.getByRole('tabpanel', { name: 'Account' });

export async function apiTokenSteps(page) {
  run.activePage = page;
  let secret = '';
  await step('API tokens: one is made in Settings, its secret shown once; it acts as its member but not as an admin', async () => {
    await page.goto(`${BASE_URL}/settings?tab=account`);
    const card = accountPanel(page).getByRole('region', { name: 'API Tokens' });
    await waitForLabeled(card.getByText('No tokens yet.'), 'the empty token list', { timeout: 30_000 });
    await card.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    await dialog.getByLabel('Name').fill('Open WebUI');
    await shot(page, 'desktop-api-token-create', { fullPage: false });
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token created' });
    await waitForLabeled(shown, 'the new token', { timeout: 30_000 });
    secret = await shown.getByRole('textbox').inputValue();
    if (!secret.startsWith('svt_')) throw new Error(`the token shown is "${secret}"`);
    await shot(page, 'desktop-api-token-secret', { fullPage: false });
    await shown.getByRole('button', { name: 'Done' }).click();
    await waitForLabeled(card.getByTestId('api-token-row').filter({ hasText: 'Open WebUI' }), 'the token in the list', { timeout: 30_000 });
    if ((await card.innerText()).includes(secret)) throw new Error('the list shows the secret');

    const asToken = (path) => fetch(`${BASE_URL}${path}`, { headers: { Authorization: `Bearer ${secret}` } });
    const account = await asToken('/api/account');
    const body = await account.json();
    console.log(`  GET /api/account with the token: ${account.status}, isAdmin ${body.data?.isAdmin}`);
    if (account.status !== 200 || body.data.isAdmin !== false) throw new Error(`the token's account: ${account.status} ${JSON.stringify(body)}`);
    const admin = await asToken('/api/admin/users');
    if (admin.status !== 403) throw new Error(`the admin's token reached the Users list: ${admin.status}`);
    await page.reload();
    const row = card.getByTestId('api-token-row').filter({ hasText: 'Open WebUI' });
    await waitForLabeled(row, 'the token after a reload', { timeout: 30_000 });
    if (/Never/.test((await row.getByRole('cell').nth(2).innerText()).trim())) throw new Error('the token shows no last use');
    await shot(page, 'desktop-api-tokens');
  });

  await step('API tokens at 390 px: the list fits, and a revoked token is refused at once', async () => {
    // A session of its own: a copy of the desktop's storage state would spend the desktop's refresh cookie.
    const phone = await signedInContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone', page.context());
    const mobile = await phone.newPage();
    watch(mobile, 'phone');
    run.activePage = mobile;
    try {
      await mobile.goto(`${BASE_URL}/settings?tab=account`);
      const card = accountPanel(mobile).getByRole('region', { name: 'API Tokens' });
      await waitForLabeled(card.getByTestId('api-token-row'), 'the token list', { timeout: 30_000 });
      await card.scrollIntoViewIfNeeded();
      await checkNoOverflow(mobile, 'Settings → Account with a token');
      await shot(mobile, 'phone-api-tokens');
      await card.getByRole('button', { name: 'Revoke the token “Open WebUI”' }).click();
      const confirm = mobile.getByRole('dialog', { name: 'Revoke this token?' });
      await confirm.waitFor();
      await shot(mobile, 'phone-api-token-revoke', { fullPage: false });
      await confirm.getByRole('button', { name: 'Revoke token' }).click();
      await waitForLabeled(card.getByText('No tokens yet.'), 'the empty list after revoking', { timeout: 30_000 });
      const after = await fetch(`${BASE_URL}/api/account`, { headers: { Authorization: `Bearer ${secret}` } });
      if (after.status !== 401) throw new Error(`the revoked token answers ${after.status}`);
    } finally {
      await phone.close();
      run.activePage = page;
    }
  });
}
