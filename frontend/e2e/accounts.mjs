// Who gets in (issue 20): the first account is the admin, invitations, a disabled account, and
// Settings → Account (change password, sign out everywhere, two-factor sign-in with its recovery
// codes, issue 42).
import { createHmac } from 'node:crypto';
import { accessToken, BASE_URL, checkNoOverflow, DESKTOP, jwtKeysInLocalStorage, newContext, PHONE, REFRESH_COOKIE, refreshFromPage, run, shot, step, waitForLabeled, watch } from './harness.mjs';

export async function fetchConfig() {
  const response = await fetch(`${BASE_URL}/config.json`);
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  return response.json();
}

const settingsPanel = (page, tab) => page.getByRole('tabpanel', { name: tab });

/** What `GET /api/account` answers to `token` (run in the page, as the SPA would call it). */
const accountStatusWith = (page, token) =>
  page.evaluate(async (bearer) => (await fetch('/api/account', { headers: { Authorization: `Bearer ${bearer}` } })).status, token);

/**
 * Local accounts keep the access token in memory only: no value of localStorage looks like a JWT,
 * and a reload keeps the user signed in on the same page, the session restored by
 * `POST /api/auth/refresh` with the httpOnly cookie alone (no Authorization header).
 */
export async function checkSessionInMemory(page, { heading, level = 1 }) {
  const before = await jwtKeysInLocalStorage(page);
  if (before.length > 0) throw new Error(`localStorage keeps a token under ${before.join(', ')}`);
  const pathname = new URL(page.url()).pathname;
  const refreshes = [];
  const onRequest = (request) => {
    if (new URL(request.url()).pathname === '/api/auth/refresh') refreshes.push(request);
  };
  page.on('request', onRequest);
  try {
    await page.reload();
    await waitForLabeled(page.getByRole('heading', { name: heading, level }), `"${heading}" after a reload (still signed in)`, { timeout: 30_000 });
  } finally {
    page.off('request', onRequest);
  }
  if (new URL(page.url()).pathname !== pathname) throw new Error(`after a reload the page is ${page.url()}, not ${pathname}`);
  if (refreshes.length === 0) throw new Error('the reload restored the session without POST /api/auth/refresh');
  for (const request of refreshes) {
    if ((await request.allHeaders()).authorization) throw new Error('POST /api/auth/refresh carried an Authorization header');
    const status = (await request.response())?.status();
    if (status !== 200) throw new Error(`POST /api/auth/refresh answered ${status} on the reload`);
  }
  const after = await jwtKeysInLocalStorage(page);
  if (after.length > 0) throw new Error(`after the reload localStorage keeps a token under ${after.join(', ')}`);
  const keys = await page.evaluate(() => Object.keys(localStorage));
  console.log(`  localStorage: ${keys.join(', ') || '(empty)'}; the reload: ${refreshes.length} POST /api/auth/refresh, no bearer, 200`);
}

/** Issue 20: the instance's first account is its admin, and from now on sign-up needs an invitation. */
export async function firstAccountSteps(page, email) {
  await step("the first account is the instance's admin: Settings → Users lists it; sign-up now needs an invitation", async () => {
    const { signup } = await fetchConfig();
    if (signup !== 'invite') throw new Error(`after the first account /config.json says signup "${signup}", not "invite" (the default)`);
    await page.goto(`${BASE_URL}/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await waitForLabeled(page.getByRole('tab', { name: 'Users' }), 'the Users tab', { timeout: 30_000 });
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.waitForURL(/[?&]tab=users/);
    const panel = settingsPanel(page, 'Users');
    const row = panel.getByTestId('user-row').filter({ hasText: email });
    await waitForLabeled(row, "the admin's own row", { timeout: 30_000 });
    const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
    console.log(`  ${text}`);
    if (!/\(you\)/.test(text) || !/\bAdmin\b/.test(text) || !/\bActive\b/.test(text)) throw new Error(`the row says "${text}"`);
    const rows = await panel.getByTestId('user-row').count();
    if (rows !== 1) throw new Error(`${rows} accounts listed on a new instance`);
    await panel.getByRole('region', { name: 'Invitations' }).getByText('No invitations yet.').waitFor();
    await shot(page, 'desktop-settings-users-first');
  });
}

/** Creates an invitation on the Users tab and answers its link. */
async function createInvitationStep(page) {
  let link = '';
  await step('users: create an invitation and read its link (shown once)', async () => {
    run.activePage = page;
    await page.goto(`${BASE_URL}/settings?tab=users`);
    const invitations = settingsPanel(page, 'Users').getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('button', { name: 'Create invitation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create invitation' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Create invitation' }).click();
    const created = page.getByRole('dialog', { name: 'Invitation created' });
    await waitForLabeled(created, 'the created invitation', { timeout: 30_000 });
    link = await created.getByLabel('Invitation link').inputValue();
    const url = new URL(link);
    console.log(`  link: ${url.origin}${url.pathname}?invitation=…`);
    if (url.origin !== BASE_URL || url.pathname !== '/sign-up' || !url.searchParams.get('invitation')) throw new Error(`the link is ${link}`);
    await shot(page, 'desktop-users-invitation-created', { fullPage: false });
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'hidden' });
    await waitForLabeled(invitations.getByTestId('invitation-row').filter({ hasText: 'Pending' }), 'the pending invitation', { timeout: 30_000 });
  });
  return link;
}

/** The link at 390 px, then a fresh desktop browser signs up with it; answers that browser. */
async function invitedSignUpStep(link, invitedEmail, invitedPassword) {
  let invitedContext = null;
  let invitedPage = null;
  await step('invitation: a fresh browser opens the link, the invitation is checked, the invited person signs up and lands in the app', async () => {
    // At 390 px first: checking an invitation does not use it.
    const phone = await newContext({ viewport: PHONE, isMobile: true, hasTouch: true }, 'phone-invited');
    try {
      const mobile = await phone.newPage();
      watch(mobile, 'phone-invited');
      run.activePage = mobile;
      await mobile.goto(link);
      await waitForLabeled(mobile.getByText('You have been invited to Scribevault.', { exact: false }), 'the invitation notice (390 px)', { timeout: 30_000 });
      await mobile.getByLabel('Email').waitFor();
      await checkNoOverflow(mobile, 'the invited sign-up');
      await shot(mobile, 'phone-invited-sign-up');
    } finally {
      await phone.close();
    }

    invitedContext = await newContext({ viewport: DESKTOP }, 'invited');
    invitedPage = await invitedContext.newPage();
    watch(invitedPage, 'invited');
    run.activePage = invitedPage;
    await invitedPage.goto(link);
    await invitedPage.getByRole('heading', { name: 'Create your account' }).waitFor();
    await waitForLabeled(invitedPage.getByText('You have been invited to Scribevault.', { exact: false }), 'the invitation notice', { timeout: 30_000 });
    await shot(invitedPage, 'desktop-invited-sign-up');
    await invitedPage.getByLabel('Email').fill(invitedEmail);
    await invitedPage.getByLabel('Password').fill(invitedPassword);
    await invitedPage.getByRole('button', { name: 'Create account' }).click();
    await invitedPage.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor({ timeout: 30_000 });
    if (new URL(invitedPage.url()).pathname !== '/') throw new Error(`landed on ${invitedPage.url()}`);
    // Not an admin: no Users tab, not even by its link.
    await invitedPage.goto(`${BASE_URL}/settings?tab=users`);
    await waitForLabeled(invitedPage.getByRole('tab', { name: 'Preferences', selected: true }), 'Preferences instead of Users', { timeout: 30_000 });
    if ((await invitedPage.getByRole('tab', { name: 'Users' }).count()) > 0) throw new Error('the invited user sees the Users tab');
    console.log(`  ${invitedEmail} signed up and is in the app`);
  });
  return { invitedContext, invitedPage };
}

async function disableInvitedAccountStep(page, adminEmail, invitedEmail) {
  await step('users: the admin sees the invitation used and the new account, and disables it', async () => {
    run.activePage = page;
    await page.goto(`${BASE_URL}/settings?tab=users`);
    const panel = settingsPanel(page, 'Users');
    const used = panel.getByTestId('invitation-row').filter({ hasText: invitedEmail });
    await waitForLabeled(used, 'the invitation used by the new account', { timeout: 30_000 });
    if (!/\bUsed\b/.test(await used.innerText())) throw new Error(`the invitation row says "${(await used.innerText()).replace(/\s+/g, ' ')}"`);
    const row = panel.getByTestId('user-row').filter({ hasText: invitedEmail });
    await waitForLabeled(row, 'the new account', { timeout: 30_000 });
    const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
    console.log(`  ${text}`);
    if (!/\bUser\b/.test(text) || !/\bActive\b/.test(text)) throw new Error(`the new account's row says "${text}"`);
    if ((await panel.getByTestId('user-row').filter({ hasText: adminEmail }).count()) !== 1) throw new Error('the admin is not listed');
    await shot(page, 'desktop-settings-users');
    await row.getByRole('button', { name: `Actions for ${invitedEmail}` }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await page.getByText('User disabled').first().waitFor({ timeout: 30_000 });
    await waitForLabeled(row.getByText('Disabled', { exact: true }), 'the Disabled badge', { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-settings-users-disabled');
  });
}

async function disabledAccountSignOutStep(page, { invitedContext, invitedPage, invitedEmail, invitedPassword }) {
  await step("a disabled account: its next API call signs it out and the sign-in screen says why; signing in again is refused", async () => {
    run.activePage = invitedPage;
    const answers = [];
    invitedPage.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === BASE_URL && url.pathname.startsWith('/api/')) answers.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    });
    await invitedPage.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Vault', exact: true }).click();
    await invitedPage.getByRole('heading', { name: 'Sign in to Scribevault' }).waitFor({ timeout: 30_000 });
    console.log(`  API answers: ${answers.join(', ')}`);
    if (!answers.some((answer) => answer.endsWith(' 401'))) throw new Error('no API call answered 401');
    const notice = invitedPage.getByTestId('sign-out-notice');
    await waitForLabeled(notice, 'the sign-out notice', { timeout: 10_000 });
    const text = (await notice.innerText()).trim();
    console.log(`  notice: ${text}`);
    if (!/This account is disabled/.test(text)) throw new Error(`the sign-in screen says "${text}"`);
    // The socket's connection toasts (the server closed it when the account was disabled) go first.
    await invitedPage.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(invitedPage, 'desktop-signed-out-disabled');
    await invitedPage.getByLabel('Email').fill(invitedEmail);
    await invitedPage.getByLabel('Password').fill(invitedPassword);
    await invitedPage.getByRole('button', { name: 'Sign in' }).click();
    const refusal = invitedPage.locator('form.auth-form [role=alert]');
    await waitForLabeled(refusal, 'the refusal at sign-in', { timeout: 30_000 });
    const refused = (await refusal.innerText()).trim();
    console.log(`  sign-in: ${refused}`);
    if (!/This account is disabled/.test(refused)) throw new Error(`signing in says "${refused}"`);
    await shot(invitedPage, 'desktop-sign-in-disabled');
    await invitedContext.close();
    run.activePage = page;
  });
}

/**
 * Issue 20: an invitation made on the Users tab, used in a fresh browser (the sign-up lands in the
 * app); then the admin disables that account and its next API call signs it out, the sign-in
 * screen saying why, and signing in again is refused with the same words.
 */
export async function invitationSteps(page, adminEmail) {
  const invitedEmail = `invited-${Date.now()}@example.com`;
  const invitedPassword = 'invited-password-456';
  const link = await createInvitationStep(page);
  const { invitedContext, invitedPage } = await invitedSignUpStep(link, invitedEmail, invitedPassword);
  await disableInvitedAccountStep(page, adminEmail, invitedEmail);
  await disabledAccountSignOutStep(page, { invitedContext, invitedPage, invitedEmail, invitedPassword });
}

/** Change password: a wrong current password is refused in the dialog, then the right one changes it. */
async function changePasswordStep(page, password, newPassword) {
  await step('account: Change password refuses a wrong current password in the dialog, then changes it', async () => {
    await page.goto(`${BASE_URL}/settings?tab=account`);
    const panel = settingsPanel(page, 'Account');
    await panel.getByRole('button', { name: 'Change password' }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll('.toast').length === 0, null, { timeout: 20_000 }).catch(() => {});
    await shot(page, 'desktop-settings-account');
    await panel.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    await dialog.getByLabel('Current password').fill('not-the-password');
    await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog.getByLabel('Confirm new password').fill(newPassword);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    const error = dialog.getByRole('alert');
    await waitForLabeled(error, 'the refusal of a wrong current password', { timeout: 30_000 });
    const said = (await error.innerText()).trim();
    console.log(`  wrong current password: ${said}`);
    if (!/current password/i.test(said)) throw new Error(`the dialog says "${said}"`);
    await shot(page, 'desktop-change-password-wrong', { fullPage: false });
    // A token of the session as it is now: the change ends every session, this one too.
    const before = await accessToken(page);
    await dialog.getByLabel('Current password').fill(password);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').first().waitFor({ timeout: 30_000 });
    await dialog.waitFor({ state: 'hidden' });
    run.account.password = newPassword;
    const oldStatus = await accountStatusWith(page, before);
    if (oldStatus !== 401) throw new Error(`a token of the session before the change still answers ${oldStatus}`);
    // This tab goes on at once with the token the change answered: its next calls (no reload) are
    // taken the first time (a 401 would mean it sent its old token and had to renew).
    const answers = [];
    const onResponse = (response) => {
      const url = new URL(response.url());
      if (url.origin === BASE_URL && url.pathname.startsWith('/api/library/')) {
        answers.push({ call: url.pathname, status: response.status(), authorization: response.request().headers().authorization ?? '' });
      }
    };
    page.on('response', onResponse);
    try {
      await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Vault', exact: true }).click();
      await page.getByRole('heading', { name: 'Vault', level: 1 }).waitFor({ timeout: 30_000 });
      for (let waited = 0; answers.length === 0 && waited < 10_000; waited += 250) await page.waitForTimeout(250);
    } finally {
      page.off('response', onResponse);
    }
    console.log(`  after the change: ${answers.map(({ call, status }) => `${call} ${status}`).join(', ')}`);
    if (answers.length === 0) throw new Error('the Vault made no API call after the change');
    if (answers.some(({ status }) => status === 401)) throw new Error('a call after the change was refused (401)');
    if (answers.some(({ authorization }) => authorization === `Bearer ${before}`)) throw new Error('a call after the change carried the old token');
    if (new URL(page.url()).pathname !== '/vault') throw new Error(`after the change the page is ${page.url()}`);
    // And after a reload: the new session's cookie restores it.
    await page.goto(`${BASE_URL}/settings?tab=account`);
    await panel.getByRole('button', { name: 'Sign out everywhere' }).waitFor({ timeout: 30_000 });
    if (new URL(page.url()).pathname !== '/settings') throw new Error(`after the change and a reload the page is ${page.url()}`);
  });
}

/** Sign out everywhere ends this session too; the old password is refused and the new one signs in. */
async function signOutEverywhereStep(page, email, password, newPassword) {
  await step('account: Sign out everywhere ends this session too (its token and its refresh cookie are refused); the new password signs in', async () => {
    // The SPA keeps its token in memory: the page asks a token of this session with the cookie.
    const oldToken = await accessToken(page);
    const panel = settingsPanel(page, 'Account');
    await panel.getByRole('button', { name: 'Sign out everywhere' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await confirm.waitFor();
    await shot(page, 'desktop-sign-out-everywhere', { fullPage: false });
    await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('heading', { name: 'Sign in to Scribevault' }).waitFor({ timeout: 30_000 });
    if ((await page.getByTestId('sign-out-notice').count()) > 0) throw new Error('a sign-out notice after signing out on purpose');
    const status = await accountStatusWith(page, oldToken);
    if (status !== 401) throw new Error(`the ended session's token still answers ${status}`);
    // Nothing left to mint another: the server cleared the cookie, and its session is over.
    const left = (await page.context().cookies(`${BASE_URL}/api/auth/refresh`)).filter((cookie) => cookie.name === REFRESH_COOKIE && cookie.value);
    if (left.length > 0) throw new Error(`the ${REFRESH_COOKIE} cookie is still in the browser after signing out everywhere`);
    const refresh = await refreshFromPage(page);
    if (refresh.status !== 401) throw new Error(`after signing out everywhere POST /api/auth/refresh answers ${refresh.status}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refusal = page.locator('form.auth-form [role=alert]');
    await waitForLabeled(refusal, 'the old password refused', { timeout: 30_000 });
    console.log(`  the old password: ${(await refusal.innerText()).trim()}`);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor({ timeout: 30_000 });
  });
}

/**
 * Settings → Account of a local account: Change password (a wrong current password is refused in
 * the dialog; the right one changes it, ends every session, the old session's token is refused
 * and this tab goes on with the answered token, also after a reload), then Sign out everywhere
 * (this session ends too: its token and its refresh cookie are refused) and the new password
 * signs in, keeping no token in localStorage and staying signed in over a reload. Runs last: it
 * ends every session of the run's account.
 */
export async function accountSecuritySteps(page, email, password) {
  const newPassword = 'e2e-new-password-456';
  run.activePage = page;

  await changePasswordStep(page, password, newPassword);
  await signOutEverywhereStep(page, email, password, newPassword);

  await step('after sign-in: no token in localStorage, and a reload keeps the session (the refresh cookie)', async () => {
    await checkSessionInMemory(page, { heading: 'Find Videos' });
  });

  await secondFactorSteps(page, email, newPassword);
}

/** RFC 6238's code of a base32 secret now (what an authenticator app shows). */
function totpNow(secret) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/\s+/g, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * Two-factor sign-in: set-up asks the password first (a session alone cannot add a factor), then
 * the QR code and key, then the ten recovery codes, shown once (desktop and 390 px). A fresh
 * browser signs in with one of them and is told how many are left and that the factor changed.
 */
async function secondFactorSteps(page, email, password) {
  let codes = [];
  await step('account: two-factor set-up asks the password, then shows ten recovery codes once (desktop and 390 px)', async () => {
    await page.goto(`${BASE_URL}/settings?tab=account`);
    const panel = settingsPanel(page, 'Account');
    await panel.getByRole('button', { name: 'Set up' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set up two-factor sign-in' });
    await dialog.waitFor();
    await dialog.getByLabel('Your password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await waitForLabeled(dialog.getByRole('alert'), 'the refusal of a wrong password', { timeout: 30_000 });
    await shot(page, 'desktop-two-factor-password-wrong', { fullPage: false });
    await dialog.getByLabel('Your password').fill(password);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const key = dialog.getByLabel('Or enter this key');
    await waitForLabeled(key, 'the key of the new secret', { timeout: 30_000 });
    await dialog.getByLabel('Code from the app').fill(totpNow(await key.inputValue()));
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
    await waitForLabeled(saved, 'the recovery codes', { timeout: 30_000 });
    codes = (await saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts()).map((code) => code.trim());
    if (codes.length !== 10 || !codes.every((code) => /^[0-9a-z]{5}-[0-9a-z]{5}$/.test(code))) {
      throw new Error(`the recovery codes shown: ${JSON.stringify(codes)}`);
    }
    await shot(page, 'desktop-two-factor-recovery-codes', { fullPage: false });
    await page.setViewportSize(PHONE);
    await checkNoOverflow(page, 'the recovery codes at 390 px');
    await shot(page, 'phone-two-factor-recovery-codes', { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await saved.getByRole('button', { name: 'Done' }).click();
    await saved.waitFor({ state: 'hidden' });
    await panel.getByTestId('two-factor-status').filter({ hasText: 'On' }).waitFor({ timeout: 30_000 });
  });

  await step('sign-in with a recovery code: it works once, says how many are left and that the factor changed (desktop and 390 px)', async () => {
    for (const [viewport, name, code] of [
      [DESKTOP, 'desktop', codes[0]],
      [PHONE, 'phone', codes[1]],
    ]) {
      const context = await newContext({ viewport }, `recovery-code-${name}`);
      const fresh = await context.newPage();
      watch(fresh, `recovery-code-${name}`);
      await fresh.goto(`${BASE_URL}/sign-in`);
      await fresh.getByLabel('Email').fill(email);
      await fresh.getByLabel('Password').fill(password);
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      await fresh.getByRole('button', { name: /recovery codes instead/ }).click();
      await fresh.getByLabel('Recovery code').fill(code);
      await fresh.getByRole('button', { name: 'Verify' }).click();
      await fresh.getByRole('heading', { name: 'Find Videos', level: 1 }).waitFor({ timeout: 30_000 });
      const left = fresh.getByText(/recovery codes? left/).first();
      await waitForLabeled(left, 'how many recovery codes are left', { timeout: 30_000 });
      const said = (await left.innerText()).trim();
      console.log(`  ${name}: ${said}`);
      const expected = name === 'desktop' ? '9 recovery codes left' : '8 recovery codes left';
      if (!said.includes(expected)) throw new Error(`the sign-in says "${said}"`);
      if (name === 'desktop') await fresh.getByText('Your two-factor sign-in changed').first().waitFor({ timeout: 10_000 });
      else await checkNoOverflow(fresh, 'the sign-in notices at 390 px');
      await shot(fresh, `${name}-signed-in-with-a-recovery-code`, { fullPage: false });
      if (name === 'desktop') {
        // The changed-factor notice is shown once (at the first sign-in after the change): its
        // phone layout is this page at 390 px.
        await fresh.setViewportSize(PHONE);
        await fresh.getByText('Your two-factor sign-in changed').first().waitFor({ timeout: 10_000 });
        await checkNoOverflow(fresh, 'the changed-factor notice at 390 px');
        await shot(fresh, 'phone-second-factor-changed-notice', { fullPage: false });
      }
      await context.close();
    }
  });
}
