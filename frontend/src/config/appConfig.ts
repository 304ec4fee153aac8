/** Runtime configuration served by the gateway at /config.json, so one build runs anywhere. */
export type AppConfig =
  | { authMode: 'local' }
  | { authMode: 'oidc'; domain: string; clientId: string; audience: string };

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** Validates the shape of /config.json; throws with a readable reason when it is wrong. */
export function parseAppConfig(raw: unknown): AppConfig {
  if (!raw || typeof raw !== 'object') throw new Error('config.json is not an object');
  const value = raw as Record<string, unknown>;
  if (value.authMode === 'local') return { authMode: 'local' };
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
