// End-to-end check of the SPA's sign-in in OIDC mode, in headless Chromium, against a running
// gateway (`scribevault all` with SCRIBEVAULT_AUTH=oidc) and the test OpenID provider of
// scripts/oidc-provider (panva's oidc-provider, set up like Auth0). scripts/e2e-oidc.sh starts both.
//
//   BASE_URL=http://127.0.0.1:8080 OIDC_ISSUER=http://127.0.0.1:9000/ node e2e/oidc.mjs
//
// Checks that /config.json leads auth0-spa-js to the issuer; that a signed-out visit is sent to the
// issuer's login page; that alice (OIDC_ALLOWED_EMAIL) signs in and lands back in the app shell
// with the side menu, her email on the account button, and API calls that carry the issuer's RS256
// access token (iss, aud = OIDC_AUDIENCE, azp = the SPA's client id, her email); that /vault loads
// without an error; that a reload keeps her signed in (silent authentication: prompt=none in the
// issuer's hidden iframe, response_mode=web_message); that Sign out ends the issuer's session
// (/v2/logout) and the next visit asks for a login again. Then mallory (OIDC_DENIED_EMAIL, not on
// SCRIBEVAULT_OIDC_ALLOWED_EMAILS) signs in at the issuer and must not get into the app: no API
// call answers her with success, GET /api/account answers 403, and instead of the app shell the
// SPA shows its full-page 'No access to this Scribevault' screen with the server's message and her
// email; its Sign out ends her issuer session (/v2/logout) and leads back to the issuer's login.
//
// /config.json is used as served (its `domain` is the issuer's origin for an http issuer or one
// with a port, which auth0-spa-js takes as given). Screenshots go to SCREENSHOT_DIR (else a new
// temporary folder). The last line is `oidc-e2e: N passed, N failed`; the exit code is non-zero on
// any failure.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const ISSUER = process.env.OIDC_ISSUER;
const AUDIENCE = process.env.OIDC_AUDIENCE ?? 'https://scribevault.test/api';
const CLIENT_ID = process.env.OIDC_CLIENT_ID ?? 'scribevault-spa';
const ALLOWED_EMAIL = process.env.OIDC_ALLOWED_EMAIL ?? 'alice@example.org';
const DENIED_EMAIL = process.env.OIDC_DENIED_EMAIL ?? 'mallory@example.org';
if (!ISSUER) {
  console.log('✗ OIDC_ISSUER is not set');
  console.log('oidc-e2e: 0 passed, 1 failed');
  process.exit(1);
}
const ISSUER_ORIGIN = new URL(ISSUER).origin;
const shotsDir = process.env.SCREENSHOT_DIR
  ? path.resolve(process.env.SCREENSHOT_DIR)
  : mkdtempSync(path.join(tmpdir(), 'scribevault-oidc-e2e-'));
mkdirSync(shotsDir, { recursive: true });

const LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
const DESKTOP = { width: 1280, height: 860 };

let passed = 0;
let failed = 0;
const reported = new WeakSet();
let activePage = null;
const pageErrors = [];

/** One check; a failure is counted and reported, and thrown on unless `fatal` is false. */
async function step(name, fn, { fatal = true } = {}) {
  const started = Date.now();
  try {
    const result = await fn();
    passed += 1;
    console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    return result;
  } catch (error) {
    failed += 1;
    console.log(`✗ ${name}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    if (error && typeof error === 'object') reported.add(error);
    await activePage
      ?.screenshot({ path: path.join(shotsDir, `failure-${passed + failed}.png`), fullPage: true })
      .catch(() => {});
    if (fatal) throw error;
    return undefined;
  }
}

async function shot(page, name) {
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

function watch(page, label) {
  page.on('pageerror', (error) => pageErrors.push(`${label}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    console.log(`  [${label} console] ${message.text()}`);
    if (/Content Security Policy/i.test(message.text()) && page.url().startsWith(BASE_URL)) {
      cspViolations.push(`${label} ${page.url()}: ${message.text()}`);
    }
  });
}

/**
 * The app's pages run under the gateway's real Content-Security-Policy, which in OIDC mode must let
 * the SPA call the issuer (connect-src) and frame it for silent authentication (frame-src). Every
 * `securitypolicyviolation` on an app page (the issuer's own pages are not ours) is collected,
 * with Chromium's console lines about the policy, and the last steps fail on any.
 */
const cspViolations = [];

async function newContext(browser) {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.exposeBinding('__scribevaultCspViolation', ({ frame }, violation) => {
    const where = frame?.url() ?? '';
    if (where.startsWith(BASE_URL)) {
      cspViolations.push(`${where}: ${violation.directive} blocked ${violation.blocked}${violation.source ? ` (from ${violation.source})` : ''}`);
    }
  });
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const sent = window.__scribevaultCspViolation?.({
          directive: event.effectiveDirective || event.violatedDirective,
          blocked: event.blockedURI || '(none)',
          source: event.sourceFile ? `${event.sourceFile}:${event.lineNumber}` : '',
        });
        sent?.catch?.(() => {});
      },
      true,
    );
  });
  return context;
}

/** Every /api/ answer a page got, and the bearer tokens it sent. */
function recordApi(page) {
  const record = { responses: [], tokens: new Set() };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== BASE_URL || !url.pathname.startsWith('/api/')) return;
    const authorization = request.headers().authorization;
    if (authorization?.startsWith('Bearer ')) record.tokens.add(authorization.slice(7));
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin !== BASE_URL || !url.pathname.startsWith('/api/')) return;
    record.responses.push({ method: response.request().method(), path: url.pathname, status: response.status() });
  });
  return record;
}

function decodeJwt(token) {
  const [header, payload] = token.split('.');
  const decode = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return { header: decode(header), claims: decode(payload) };
}

/** What auth0-spa-js 2.x makes of the `domain` option (getDomain and getTokenIssuer). */
function auth0SpaJsView(domain) {
  const domainUrl = /^https?:\/\//.test(domain) ? domain : `https://${domain}`;
  return { domainUrl, expectedIss: `${domainUrl}/`, authorize: `${domainUrl}/authorize` };
}

const loginForm = (page) => page.locator('form[action*="/interaction/"] input[name="email"]');
const sideMenu = (page) => page.getByRole('complementary', { name: 'Main navigation' });
const isIssuerPage = (url) => url.startsWith(ISSUER_ORIGIN);

async function waitForIssuerLogin(page, timeout = 30_000) {
  await page.waitForURL((url) => isIssuerPage(url.href) && url.pathname.startsWith('/interaction/'), { timeout });
  await loginForm(page).waitFor({ timeout });
}

async function logInAtIssuer(page, email) {
  await loginForm(page).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function configStep() {
  await step('/config.json leads auth0-spa-js to the issuer', async () => {
    const response = await fetch(`${BASE_URL}/config.json`);
    if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
    const config = await response.json();
    console.log(`  /config.json: ${JSON.stringify(config)}`);
    if (config.authMode !== 'oidc') throw new Error(`authMode is ${config.authMode}, not oidc`);
    if (config.clientId !== CLIENT_ID) throw new Error(`clientId is ${config.clientId}, not ${CLIENT_ID}`);
    if (config.audience !== AUDIENCE) throw new Error(`audience is ${config.audience}, not ${AUDIENCE}`);
    const view = auth0SpaJsView(config.domain);
    if (view.expectedIss !== ISSUER) {
      throw new Error(
        `domain "${config.domain}" sends auth0-spa-js to ${view.authorize} and makes it expect iss "${view.expectedIss}", ` +
          `but the issuer is ${ISSUER} (an http issuer or one with a port needs domain "${ISSUER.replace(/\/$/, '')}")`,
      );
    }
  });
}

/** Alice's sign-in: the issuer's login page, back in the app shell, and the issuer's token on the API calls. */
async function aliceSignInSteps(page, api) {
  await step('signed out, the app sends the browser to the issuer\'s login page', async () => {
    await page.goto(`${BASE_URL}/vault`);
    await waitForIssuerLogin(page);
    const login = new URL(page.url());
    console.log(`  login page: ${login.origin}${login.pathname}`);
    await shot(page, 'issuer-login');
  });

  await step(`log in as ${ALLOWED_EMAIL} and land back in the app shell with the side menu`, async () => {
    await logInAtIssuer(page, ALLOWED_EMAIL);
    await page.waitForURL((url) => url.href.startsWith(BASE_URL), { timeout: 30_000 });
    await sideMenu(page).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: `Account: ${ALLOWED_EMAIL}` }).waitFor({ timeout: 10_000 });
    const url = new URL(page.url());
    if (url.searchParams.has('code') || url.searchParams.has('state')) throw new Error(`the callback parameters stayed in the URL: ${page.url()}`);
    console.log(`  landed on ${url.pathname}${url.search}`);
    await shot(page, 'signed-in');
  });

  await step('API calls carry the issuer\'s access token (RS256, iss, aud, azp, email)', async () => {
    for (let waited = 0; api.tokens.size === 0 && waited < 10_000; waited += 250) await page.waitForTimeout(250);
    if (api.tokens.size === 0) throw new Error('no /api/ call carried a bearer token');
    const { header, claims } = decodeJwt([...api.tokens][0]);
    console.log(`  token header ${JSON.stringify(header)}`);
    console.log(`  token claims ${JSON.stringify(claims)}`);
    const problems = [];
    if (header.alg !== 'RS256') problems.push(`alg ${header.alg}`);
    if (claims.iss !== ISSUER) problems.push(`iss ${claims.iss}`);
    if (claims.aud !== AUDIENCE && !(Array.isArray(claims.aud) && claims.aud.includes(AUDIENCE))) problems.push(`aud ${claims.aud}`);
    if (claims.azp !== CLIENT_ID) problems.push(`azp ${claims.azp}`);
    if (claims.email !== ALLOWED_EMAIL) problems.push(`email ${claims.email}`);
    if (problems.length > 0) throw new Error(`unexpected ${problems.join(', ')}`);
  });
}

async function aliceVaultAndReloadSteps(page, api) {
  await step('/vault loads without an error', async () => {
    const before = api.responses.length;
    await sideMenu(page).getByRole('link', { name: 'Vault', exact: true }).click();
    await page.waitForURL(`${BASE_URL}/vault`);
    await page.getByRole('heading', { name: 'Vault', level: 1 }).waitFor();
    await page.locator('[aria-label="Loading transcripts"]').waitFor({ state: 'detached', timeout: 30_000 });
    if (await page.getByText('Error loading vault').isVisible()) {
      throw new Error(`the Vault shows "Error loading vault": ${(await page.locator('.empty-state[role=alert]').innerText()).replace(/\s+/g, ' ')}`);
    }
    const calls = api.responses.slice(before);
    const bad = calls.filter((call) => call.status >= 400);
    console.log(`  API calls: ${calls.map((call) => `${call.method} ${call.path} ${call.status}`).join(', ') || 'none'}`);
    if (bad.length > 0) throw new Error(`API errors: ${bad.map((call) => `${call.method} ${call.path} ${call.status}`).join(', ')}`);
    if (!calls.some((call) => call.path.startsWith('/api/library'))) throw new Error('the Vault made no /api/library call');
    await shot(page, 'vault');
  });

  await step(
    'a reload keeps the session (silent authentication, prompt=none, web_message)',
    async () => {
      await page.reload();
      await sideMenu(page).waitFor({ timeout: 30_000 });
      await page.getByRole('heading', { name: 'Vault', level: 1 }).waitFor();
      if (isIssuerPage(page.url())) throw new Error(`ended on the issuer: ${page.url()}`);
    },
    { fatal: false },
  );
}

async function aliceSignOutStep(page, context) {
  await step('sign out ends the issuer session and the next visit asks for a login', async () => {
    if (!(await sideMenu(page).isVisible())) {
      await page.goto(`${BASE_URL}/vault`);
      await sideMenu(page).waitFor({ timeout: 30_000 });
    }
    const visited = [];
    const onNavigated = (frame) => frame === page.mainFrame() && visited.push(frame.url());
    page.on('framenavigated', onNavigated);
    await page.getByRole('button', { name: `Account: ${ALLOWED_EMAIL}` }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    // /v2/logout -> the provider ends its session -> returnTo (/sign-in) -> the SPA starts a new
    // sign-in, and the issuer, having no session any more, shows its login form.
    await waitForIssuerLogin(page);
    page.off('framenavigated', onNavigated);
    const path = (href) => {
      const url = new URL(href);
      return `${url.origin === BASE_URL ? 'app' : url.origin === ISSUER_ORIGIN ? 'issuer' : url.origin}${url.pathname}`;
    };
    console.log(`  went through: ${visited.map(path).join(' -> ')}`);
    if (!visited.some((href) => href.startsWith(`${ISSUER_ORIGIN}/v2/logout`))) throw new Error('the issuer\'s /v2/logout was not visited');
    if (!visited.some((href) => href.startsWith(`${BASE_URL}/sign-in`))) throw new Error('the app\'s /sign-in (returnTo) was not reached');
    const cookies = await context.cookies(BASE_URL);
    const flag = cookies.find((cookie) => cookie.name === `auth0.${CLIENT_ID}.is.authenticated`);
    if (flag) throw new Error(`the SPA still has its ${flag.name} cookie`);
    await shot(page, 'signed-out');
  });
}

/** alice (OIDC_ALLOWED_EMAIL) in a context of her own: signs in, uses the Vault, reloads and signs out. */
async function aliceSteps(browser) {
  const context = await newContext(browser);
  const page = await context.newPage();
  watch(page, 'alice');
  activePage = page;
  const api = recordApi(page);

  await aliceSignInSteps(page, api);
  await aliceVaultAndReloadSteps(page, api);
  await aliceSignOutStep(page, context);
  await context.close();
}

async function malloryDeniedStep(malloryPage, malloryApi) {
  await step(
    `${DENIED_EMAIL} (not on the allow-list) signs in at the issuer and gets the not-allowed screen, not the app`,
    async () => {
      await malloryPage.goto(`${BASE_URL}/vault`);
      await waitForIssuerLogin(malloryPage);
      await logInAtIssuer(malloryPage, DENIED_EMAIL);
      await malloryPage.waitForURL((url) => url.href.startsWith(BASE_URL), { timeout: 30_000 });
      const screen = malloryPage.getByTestId('not-allowed');
      await screen.getByRole('heading', { name: 'No access to this Scribevault', level: 1 }).waitFor({ timeout: 30_000 });
      // Nothing else is asked behind the screen.
      await malloryPage.waitForTimeout(1500);
      const calls = malloryApi.responses;
      console.log(`  API calls: ${calls.map((call) => `${call.method} ${call.path} ${call.status}`).join(', ') || 'none'}`);
      const ok = calls.filter((call) => call.status < 400);
      if (ok.length > 0) throw new Error(`the API let ${DENIED_EMAIL} in: ${ok.map((call) => `${call.method} ${call.path} ${call.status}`).join(', ')}`);
      if (!calls.some((call) => call.path === '/api/account' && call.status === 403)) throw new Error('GET /api/account did not answer 403');
      const others = calls.filter((call) => call.path !== '/api/account');
      if (others.length > 0) throw new Error(`calls behind the screen: ${others.map((call) => `${call.method} ${call.path}`).join(', ')}`);
      const message = (await screen.getByRole('alert').innerText()).trim();
      console.log(`  the screen says: ${message}`);
      const expected = `${DENIED_EMAIL} is not allowed on this instance. Ask its owner to add you.`;
      if (message !== expected) throw new Error(`the message is "${message}", not the server's "${expected}"`);
      const who = (await screen.locator('.not-allowed-who').innerText()).replace(/\s+/g, ' ').trim();
      if (!who.includes(DENIED_EMAIL)) throw new Error(`the screen names "${who}", not ${DENIED_EMAIL}`);
      if (await sideMenu(malloryPage).isVisible()) throw new Error('the app shell (side menu) is shown too');
      if ((await malloryPage.locator('.toast').count()) > 0) throw new Error(`toasts: ${(await malloryPage.locator('.toast').allInnerTexts()).join('; ')}`);
      await shot(malloryPage, 'denied');
    },
    { fatal: false },
  );
}

async function mallorySignOutStep(mallory, malloryPage) {
  await step(
    `the not-allowed screen's Sign out ends ${DENIED_EMAIL}'s issuer session and leads to the issuer's login`,
    async () => {
      const screen = malloryPage.getByTestId('not-allowed');
      if (!(await screen.isVisible())) throw new Error('the not-allowed screen is not shown');
      const visited = [];
      const onNavigated = (frame) => frame === malloryPage.mainFrame() && visited.push(frame.url());
      malloryPage.on('framenavigated', onNavigated);
      await screen.getByRole('button', { name: 'Sign out' }).click();
      await waitForIssuerLogin(malloryPage);
      malloryPage.off('framenavigated', onNavigated);
      if (!visited.some((href) => href.startsWith(`${ISSUER_ORIGIN}/v2/logout`))) throw new Error("the issuer's /v2/logout was not visited");
      const cookies = await mallory.cookies(BASE_URL);
      const flag = cookies.find((cookie) => cookie.name === `auth0.${CLIENT_ID}.is.authenticated`);
      if (flag) throw new Error(`the SPA still has its ${flag.name} cookie`);
      await shot(malloryPage, 'denied-signed-out');
    },
    { fatal: false },
  );
}

/** mallory (OIDC_DENIED_EMAIL) signs in at the issuer and must not get into the app. */
async function mallorySteps(browser) {
  const mallory = await newContext(browser);
  const malloryPage = await mallory.newPage();
  watch(malloryPage, 'mallory');
  activePage = malloryPage;
  const malloryApi = recordApi(malloryPage);
  await malloryDeniedStep(malloryPage, malloryApi);
  await mallorySignOutStep(mallory, malloryPage);
  await mallory.close();
}

async function finalChecks() {
  await step('no Content-Security-Policy violation on the app\'s pages', async () => {
    if (cspViolations.length > 0) throw new Error(cspViolations.join('; '));
  });

  await step('no uncaught page errors', async () => {
    if (pageErrors.length > 0) throw new Error(pageErrors.join('; '));
  });
}

async function main() {
  console.log(`oidc e2e against ${BASE_URL}, issuer ${ISSUER}; screenshots in ${shotsDir}`);
  await configStep();

  const browser = await chromium.launch(LAUNCH);
  try {
    await aliceSteps(browser);
    await mallorySteps(browser);
    await finalChecks();
  } finally {
    await browser.close();
  }
}

try {
  await main();
} catch (error) {
  if (!(error && typeof error === 'object' && reported.has(error))) {
    failed += 1;
    console.log(`✗ ${error instanceof Error ? error.message : error}`);
  }
}
console.log(`screenshots: ${shotsDir}`);
console.log(`oidc-e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
