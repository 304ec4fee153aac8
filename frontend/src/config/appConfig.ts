import type { Schema } from '@/api/types';

/**
 * Who may create a local account: anyone (`open`), only with an invitation from an admin
 * (`invite`), or nobody (`closed`). A gateway that does not say is taken as `open`, as before.
 */
export type SignupPolicy = 'open' | 'invite' | 'closed';

const SIGNUP_POLICIES: readonly SignupPolicy[] = ['open', 'invite', 'closed'];

type ServedConfig = Schema<'ClientConfig'>;

/**
 * Runtime configuration served by the gateway at /config.json (the contract's ClientConfig), so
 * one build runs anywhere; `signup` narrowed to the policies the SPA knows.
 */
export type AppConfig =
  | (Pick<Extract<ServedConfig, { authMode: 'local' }>, 'authMode'> & { signup?: SignupPolicy })
  | Pick<Extract<ServedConfig, { authMode: 'oidc' }>, 'authMode' | 'domain' | 'clientId' | 'audience'>;

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** Validates the shape of /config.json; throws with a readable reason when it is wrong. */
export function parseAppConfig(raw: unknown): AppConfig {
  if (!raw || typeof raw !== 'object') throw new Error('config.json is not an object');
  const value = raw as Record<string, unknown>;
  if (value.authMode === 'local') {
    const signup = SIGNUP_POLICIES.find((policy) => policy === value.signup) ?? 'open';
    return { authMode: 'local', signup };
  }
  if (value.authMode === 'oidc') {
    const { domain, clientId, audience } = value;
    if (!isNonEmptyString(domain) || !isNonEmptyString(clientId)) {
      throw new Error('config.json: oidc mode needs domain and clientId');
    }
    return { authMode: 'oidc', domain, clientId, audience: isNonEmptyString(audience) ? audience : '' };
  }
  throw new Error(`config.json: unknown authMode ${JSON.stringify(value.authMode)}`);
}

export async function loadAppConfig(): Promise<AppConfig> {
  const response = await fetch('/config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
  return parseAppConfig(await response.json());
}
