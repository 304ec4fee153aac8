// Gets an access token from the test provider (server.mjs) over plain HTTP, the way a browser
// would, and prints it on stdout.
//
//   node get-token.mjs --issuer <url> --client scribevault-spa|other-spa --audience <aud> --email alice@example.org
//       the authorization code flow with PKCE: /authorize (with Auth0's `audience`), the login
//       form, the automatic consent, the code back on a loopback redirect URI, /oauth/token
//   node get-token.mjs --issuer <url> --client-credentials --client machine --secret machine-secret --audience <aud>
//       the client_credentials grant (client_secret_post, Auth0's `audience`)
//
// Options: --scope (default "openid profile email"), --print access_token|id_token|json
// (default access_token; json prints the whole token response), --redirect-uri (default
// http://127.0.0.1/callback; any loopback URI is accepted). Exits 1 with a message on stderr
// when any step fails.
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

const USAGE = `usage:
  node get-token.mjs --issuer <url> --client <id> --audience <aud> --email <email> [--scope s] [--print access_token|id_token|json]
  node get-token.mjs --issuer <url> --client-credentials --client <id> --secret <secret> --audience <aud> [--print access_token|json]`;

class Failure extends Error {}
const fail = (message) => {
  throw new Failure(message);
};

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      issuer: { type: 'string' },
      client: { type: 'string' },
      audience: { type: 'string' },
      email: { type: 'string' },
      secret: { type: 'string' },
      scope: { type: 'string' },
      'client-credentials': { type: 'boolean', default: false },
      'redirect-uri': { type: 'string', default: 'http://127.0.0.1/callback' },
      print: { type: 'string', default: 'access_token' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  console.error(`get-token: ${error.message}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

/** A minimal cookie jar: one host, every cookie sent on every request (the names differ). */
class Jar {
  #cookies = new Map();

  store(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      if (index <= 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expires = attributes.map((a) => a.trim()).find((a) => /^expires=/i.test(a));
      const maxAge = attributes.map((a) => a.trim()).find((a) => /^max-age=/i.test(a));
      const expired =
        value === '' ||
        (maxAge && Number(maxAge.split('=')[1]) <= 0) ||
        (expires && Date.parse(expires.slice(8)) <= Date.now());
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header() {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const base64url = (buffer) => buffer.toString('base64url');

async function request(url, { jar, method = 'GET', form, headers = {} } = {}) {
  const init = { method, redirect: 'manual', headers: { Accept: 'text/html,application/json', ...headers } };
  if (jar) {
    const cookie = jar.header();
    if (cookie) init.headers.Cookie = cookie;
  }
  if (form) {
    init.body = new URLSearchParams(form).toString();
    init.headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    fail(`${method} ${url}: ${error.cause?.message ?? error.message}`);
  }
  jar?.store(response);
  return response;
}

/** The error text of one of the provider's HTML error pages, or the start of the body. */
function describe(body) {
  const match = /<p[^>]*id="error"[^>]*>([\s\S]*?)<\/p>/.exec(body);
  const text = (match ? match[1] : body)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.slice(0, 300);
}

async function discover(issuer) {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await request(url);
  if (!response.ok) fail(`discovery ${url} answered ${response.status}`);
  return response.json();
}

async function tokenRequest(discovery, form) {
  const response = await request(discovery.token_endpoint, { method: 'POST', form, headers: { Accept: 'application/json' } });
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    fail(`token endpoint answered ${response.status} with no JSON: ${text.slice(0, 200)}`);
  }
  if (!response.ok) fail(`token endpoint answered ${response.status}: ${body.error}${body.error_description ? ` (${body.error_description})` : ''}`);
  return body;
}

async function authorizationCode(discovery) {
  if (!args.email) fail('--email is required for the authorization code flow');
  const jar = new Jar();
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const state = base64url(randomBytes(16));
  const nonce = base64url(randomBytes(16));
  const redirectUri = args['redirect-uri'];
  const authorize = new URL(discovery.authorization_endpoint);
  for (const [key, value] of Object.entries({
    client_id: args.client,
    response_type: 'code',
    response_mode: 'query',
    redirect_uri: redirectUri,
    scope: args.scope ?? 'openid profile email',
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(args.audience ? { audience: args.audience } : {}),
  })) {
    authorize.searchParams.set(key, value);
  }

  let url = authorize.href;
  let method = 'GET';
  let form;
  let loggedIn = false;
  for (let hop = 0; hop < 20; hop += 1) {
    const response = await request(url, { jar, method, form });
    const sent = method;
    method = 'GET';
    form = undefined;
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      if (!location) fail(`${url} answered ${response.status} without a Location`);
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) {
        const params = next.searchParams;
        if (params.get('error')) fail(`authorization failed: ${params.get('error')}${params.get('error_description') ? ` (${params.get('error_description')})` : ''}`);
        if (params.get('state') !== state) fail('the state in the redirect does not match');
        const code = params.get('code');
        if (!code) fail(`the redirect has no code: ${next.href}`);
        return tokenRequest(discovery, {
          grant_type: 'authorization_code',
          client_id: args.client,
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          ...(args.audience ? { audience: args.audience } : {}),
        });
      }
      url = next.href;
      continue;
    }
    const body = await response.text();
    const where = new URL(url).pathname;
    if (!response.ok) fail(`${sent === 'POST' ? 'the login form' : where} answered ${response.status}: ${describe(body)}`);
    const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(body);
    if (!action || !/name="email"/.test(body)) fail(`expected the login form at ${where}, got: ${describe(body)}`);
    if (loggedIn) fail('the login form came back after signing in');
    loggedIn = true;
    url = new URL(action[1].replace(/&amp;/g, '&'), url).href;
    method = 'POST';
    form = { email: args.email };
  }
  return fail('too many redirects');
}

async function clientCredentials(discovery) {
  if (!args.secret) fail('--secret is required with --client-credentials');
  return tokenRequest(discovery, {
    grant_type: 'client_credentials',
    client_id: args.client,
    client_secret: args.secret,
    ...(args.audience ? { audience: args.audience } : {}),
    ...(args.scope ? { scope: args.scope } : {}),
  });
}

try {
  if (!args.issuer) fail('--issuer is required');
  if (!args.client) fail('--client is required');
  if (!args.audience) fail('--audience is required');
  if (!['access_token', 'id_token', 'json'].includes(args.print)) fail('--print must be access_token, id_token or json');
  const discovery = await discover(args.issuer);
  const tokens = args['client-credentials'] ? await clientCredentials(discovery) : await authorizationCode(discovery);
  if (args.print === 'json') {
    console.log(JSON.stringify(tokens, null, 2));
  } else {
    const value = tokens[args.print];
    if (!value) fail(`the token response has no ${args.print}`);
    if (args.print === 'access_token' && value.split('.').length !== 3) fail('the access token is not a JWT (was the audience resolved?)');
    console.log(value);
  }
} catch (error) {
  console.error(`get-token: ${error instanceof Failure ? error.message : error.stack}`);
  process.exit(1);
}
