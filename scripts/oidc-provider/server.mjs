// A real OpenID Connect provider for Scribevault's OIDC tests: panva's OpenID-certified
// `oidc-provider`, configured to look like Auth0 to the SPA's auth0-spa-js and to the gateway.
//
//   node server.mjs [--port 0] [--host 127.0.0.1] [--access-token-ttl 3600] [--no-web-message] [--verbose]
//
// Prints one line `OIDC_ISSUER=http://127.0.0.1:<port>/` (the exact `iss` of every token, with
// the trailing slash Auth0 uses: auth0-spa-js expects an ID token's `iss` to be `<domain>/`),
// then serves until SIGTERM or SIGINT.
//
// Auth0's routes: /authorize, /oauth/token, /.well-known/jwks.json, /userinfo, /v2/logout
// (`returnTo` and `client_id`, as auth0-spa-js sends them), discovery at
// /.well-known/openid-configuration. The API audience comes as Auth0's `audience` parameter (on
// /authorize and on /oauth/token) or as RFC 8707 `resource`; any absolute URL is accepted as an
// audience, so tests can also mint tokens for a wrong one. Access tokens for an audience are RS256
// JWTs (typ at+jwt) with iss, aud, sub, azp, client_id, scope, iat, exp, jti, and `email` with
// `email_verified` for users.
//
// Clients:
//   scribevault-spa, other-spa  public (PKCE, no secret), authorization_code + refresh_token;
//                               redirect and post-logout URIs: any http://127.0.0.1:<port>/<path>,
//                               http://localhost:<port>/<path> or http://[::1]:<port>/<path>
//   machine                     confidential, client_credentials, secret `machine-secret`
//                               (client_secret_post or client_secret_basic); sub = client id
//
// Users: the login page (GET /interaction/<uid>) is a plain HTML form with one field, `email`,
// posted to /interaction/<uid>/login. Any email signs in: sub = `oidc|` + the first 24 hex digits
// of sha256(lower-cased email), email = the email as typed. Consent is granted automatically.
// Signing keys are generated at start (RSA 2048, RS256); nothing is stored on disk.
//
// auth0-spa-js's silent sign-in (a reload: prompt=none in a hidden iframe) needs
// response_mode=web_message, which is on; --no-web-message turns it off, as most non-Auth0
// issuers have it. --access-token-ttl sets the access tokens' lifetime (to test expiry).
// --verbose (or OIDC_PROVIDER_VERBOSE=1) logs every request and sign-in on stderr.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'access-token-ttl': { type: 'string', default: '3600' },
    'no-web-message': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const accessTokenTtl = Number(args['access-token-ttl']);
if (!Number.isSafeInteger(accessTokenTtl) || accessTokenTtl <= 0) {
  console.error(`server.mjs: --access-token-ttl must be a positive number of seconds, got ${args['access-token-ttl']}`);
  process.exit(2);
}
const verbose = args.verbose || !!process.env.OIDC_PROVIDER_VERBOSE;
const log = (...parts) => console.error('[oidc-provider]', ...parts);

const SPA_CLIENTS = ['scribevault-spa', 'other-spa'];
const MACHINE = { id: 'machine', secret: 'machine-secret' };
const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

/** Any http URL on a loopback host, on any port and path (the gateway's port is random). */
function isLoopbackUrl(value) {
  const url = URL.parse(value);
  return (
    url !== null &&
    url.protocol === 'http:' &&
    ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) &&
    url.hash === '' &&
    url.username === '' &&
    url.password === ''
  );
}

/** The stable subject of an email: `oidc|` and 24 hex digits of its sha256. */
export function subjectFor(email) {
  return `oidc|${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24)}`;
}

/** sub -> email of everyone who signed in since start (tokens only exist for them). */
const accounts = new Map();

function accountFor(sub) {
  const email = accounts.get(sub);
  if (!email) return undefined;
  return {
    accountId: sub,
    async claims() {
      return { sub, email, email_verified: true, name: email, nickname: email.split('@')[0] };
    },
  };
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]);

function page(title, body) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>
    body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:48px 16px}
    main{max-width:360px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 28px;box-shadow:0 1px 3px rgba(0,0,0,.2)}
    h1{font-size:1.3rem;margin:0 0 4px} p{color:#555;margin:0 0 16px;font-size:.9rem}
    label{display:block;font-weight:600;margin-bottom:4px} input{width:100%;box-sizing:border-box;padding:8px;margin-bottom:16px;font-size:1rem}
    button{width:100%;padding:10px;font-size:1rem;background:#3b5bdb;color:#fff;border:0;border-radius:4px;cursor:pointer}
  </style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** Reads an application/x-www-form-urlencoded body (the interaction forms only). */
async function readForm(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 16 * 1024) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The audience asked for the Auth0 way (`audience`), on /authorize or on /oauth/token. */
function requestedAudience(ctx) {
  const value = ctx.oidc?.params?.audience ?? ctx.oidc?.body?.audience ?? ctx.query?.audience;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const signingKey = await (async () => {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: `test-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
})();

const spaClient = (clientId) => ({
  client_id: clientId,
  application_type: 'web',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  // Placeholders: any loopback URI is allowed, see redirectUriAllowed below.
  redirect_uris: ['http://127.0.0.1/'],
  post_logout_redirect_uris: ['http://127.0.0.1/'],
});

const configuration = {
  clients: [
    ...SPA_CLIENTS.map(spaClient),
    {
      client_id: MACHINE.id,
      client_secret: MACHINE.secret,
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  routes: {
    authorization: '/authorize',
    token: '/oauth/token',
    jwks: '/.well-known/jwks.json',
    userinfo: '/userinfo',
    end_session: '/v2/logout',
  },
  scopes: OIDC_SCOPES,
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'nickname'],
  },
  // Like Auth0: the ID token carries the scopes' claims (email, name) even in the code flow.
  conformIdTokenClaims: false,
  extraParams: ['audience'],
  responseTypes: ['code'],
  pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
  async findAccount(_ctx, sub) {
    return accountFor(sub);
  },
  interactions: {
    url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
  },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    userinfo: { enabled: true },
    revocation: { enabled: true },
    // auth0-spa-js's getTokenSilently without refresh tokens: prompt=none in a hidden iframe.
    // --no-web-message: like most issuers that are not Auth0 (the draft is rarely implemented).
    webMessageResponseMode: args['no-web-message'] ? { enabled: false } : { enabled: true, ack: 'individual-draft-01' },
    rpInitiatedLogout: {
      enabled: true,
      // The confirmation form submits itself (Auth0's /v2/logout asks nothing either); a client
      // without JavaScript posts the form's fields, which include logout=yes.
      async logoutSource(ctx, form) {
        const autoForm = form.replace(
          '</form>',
          '<input type="hidden" name="logout" value="yes"/><button type="submit">Sign out</button></form>',
        );
        ctx.type = 'html';
        ctx.body = page(
          'Signing out',
          `<h1>Signing out</h1>${autoForm}<script>document.forms[0].submit()</script>`,
        );
      },
      async postLogoutSuccessSource(ctx) {
        ctx.type = 'html';
        ctx.body = page('Signed out', '<h1>Signed out</h1><p>You have been signed out of the test issuer.</p>');
      },
    },
    resourceIndicators: {
      enabled: true,
      async defaultResource(ctx, _client, oneOf) {
        if (oneOf) return oneOf.length === 1 ? oneOf[0] : oneOf;
        return requestedAudience(ctx);
      },
      // The code and refresh token keep the audience they were issued for.
      async useGrantedResource() {
        return true;
      },
      async getResourceServerInfo(_ctx, resourceIndicator) {
        return {
          scope: OIDC_SCOPES.join(' '),
          audience: resourceIndicator,
          accessTokenTTL: accessTokenTtl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  async extraTokenClaims(_ctx, token) {
    if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
    const email = accounts.get(token.accountId);
    // With its verification, as the gateway requires of an email it counts (docs/security.md).
    return email ? { email, email_verified: true } : undefined;
  },
  formats: {
    customizers: {
      async jwt(_ctx, _token, jwt) {
        jwt.payload.azp = jwt.payload.client_id;
      },
    },
  },
  clientBasedCORS(_ctx, origin) {
    return isLoopbackUrl(origin);
  },
  ttl: {
    AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
    AuthorizationCode: 60,
    ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
    IdToken: 3600,
    Interaction: 3600,
    Grant: 86_400,
    Session: 86_400,
    RefreshToken: 86_400,
  },
  async renderError(ctx, out) {
    ctx.type = 'html';
    ctx.body = page(
      'Error',
      `<h1>Error</h1><p id="error">${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? '')}</p>`,
    );
  },
};

const server = http.createServer();
try {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(args.port), args.host, resolve);
  });
} catch (error) {
  console.error(`server.mjs: cannot listen on ${args.host}:${args.port}: ${error.message}`);
  process.exit(1);
}
const { port } = server.address();
const hostForUrl = args.host.includes(':') ? `[${args.host}]` : args.host;
const issuer = `http://${hostForUrl}:${port}/`;

const provider = new Provider(issuer, configuration);

// Any loopback redirect (and post-logout redirect) URI for the SPA clients.
const { redirectUriAllowed, postLogoutRedirectUriAllowed } = provider.Client.prototype;
provider.Client.prototype.redirectUriAllowed = function allowLoopback(value) {
  if (SPA_CLIENTS.includes(this.clientId) && isLoopbackUrl(value)) return true;
  return redirectUriAllowed.call(this, value);
};
provider.Client.prototype.postLogoutRedirectUriAllowed = function allowLoopback(value) {
  if (SPA_CLIENTS.includes(this.clientId) && isLoopbackUrl(value)) return true;
  return postLogoutRedirectUriAllowed.call(this, value);
};

if (verbose) {
  provider.use(async (ctx, next) => {
    const started = Date.now();
    await next();
    log(`${ctx.method} ${ctx.path} -> ${ctx.status} (${Date.now() - started} ms)`);
  });
}

// Auth0's dialect on the provider's standard endpoints:
// - auth0-spa-js signs out with GET /v2/logout?client_id=..&returnTo=..: RP-initiated logout
//   under Auth0's parameter name;
// - Auth0 issues a refresh token for `offline_access` without prompt=consent, which OpenID Connect
//   (and so oidc-provider) requires; consent is automatic here, so asking for it changes nothing else.
provider.use(async (ctx, next) => {
  if (ctx.method === 'GET' && ctx.path === '/v2/logout' && ctx.query.returnTo && !ctx.query.post_logout_redirect_uri) {
    const { returnTo, ...rest } = ctx.query;
    ctx.query = { ...rest, post_logout_redirect_uri: returnTo };
  }
  if (
    ctx.method === 'GET' &&
    ctx.path === '/authorize' &&
    typeof ctx.query.scope === 'string' &&
    ctx.query.scope.split(' ').includes('offline_access') &&
    ctx.query.prompt === undefined
  ) {
    ctx.query = { ...ctx.query, prompt: 'consent' };
  }
  await next();
});

// The login page and its form; consent is granted without asking.
provider.use(async (ctx, next) => {
  const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(ctx.path);
  if (!match) return next();
  ctx.set('Cache-Control', 'no-store');
  let details;
  try {
    details = await provider.interactionDetails(ctx.req, ctx.res);
  } catch (error) {
    ctx.status = 400;
    ctx.type = 'html';
    ctx.body = page('Error', `<h1>Error</h1><p id="error">${escapeHtml(error.message)}</p>`);
    return undefined;
  }
  const { uid, prompt, params } = details;
  if (match[2] && ctx.method === 'POST') {
    const form = await readForm(ctx.req);
    const email = (form.get('email') ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = loginPage(uid, params.client_id, 'Enter an email address.');
      return undefined;
    }
    const sub = subjectFor(email);
    accounts.set(sub, email);
    if (verbose) log(`login ${email} as ${sub} for ${params.client_id}`);
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId: sub } },
      { mergeWithLastSubmission: false },
    );
    ctx.status = 303;
    ctx.redirect(returnTo);
    return undefined;
  }
  if (ctx.method !== 'GET') {
    ctx.status = 405;
    return undefined;
  }
  if (prompt.name === 'login') {
    ctx.type = 'html';
    ctx.body = loginPage(uid, params.client_id);
    return undefined;
  }
  if (prompt.name === 'consent') {
    const { session, grantId } = details;
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const missing = prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const savedId = await grant.save();
    const returnTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { consent: grantId ? {} : { grantId: savedId } },
      { mergeWithLastSubmission: true },
    );
    ctx.status = 303;
    ctx.redirect(returnTo);
    return undefined;
  }
  ctx.status = 400;
  ctx.body = `unexpected prompt ${prompt.name}`;
  return undefined;
});

function loginPage(uid, clientId, error) {
  return page(
    'Sign in',
    `<h1>Sign in</h1>
    <p>Test issuer for <strong>${escapeHtml(clientId)}</strong>. Any email signs in.</p>
    ${error ? `<p role="alert" id="error">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
      <label for="email">Email</label>
      <input id="email" name="email" type="email" inputmode="email" required autofocus>
      <button type="submit">Continue</button>
    </form>`,
  );
}

for (const event of ['server_error', 'authorization.error', 'grant.error', 'end_session.error', 'userinfo.error', 'backchannel.error']) {
  provider.on(event, (ctx, error) => {
    if (error instanceof errors.OIDCProviderError && !verbose && event !== 'server_error') return;
    log(`${event}: ${error?.message ?? error}${error?.error_description ? ` (${error.error_description})` : ''}${ctx?.path ? ` on ${ctx.path}` : ''}`);
  });
}

server.on('request', provider.callback());
console.log(`OIDC_ISSUER=${issuer}`);

function stop(signal) {
  if (verbose) log(`${signal}: stopping`);
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
