/**
 * Where API calls get the bearer token from. The auth feature registers a getter once it knows
 * the auth mode: the stored JWT for local accounts, `getAccessTokenSilently` for OIDC.
 */
export type AccessTokenGetter = () => Promise<string | null | undefined> | string | null | undefined;

let getter: AccessTokenGetter = () => null;

export function setAccessTokenGetter(next: AccessTokenGetter): void {
  getter = next;
}

export async function getAccessToken(): Promise<string | null> {
  try {
    return (await getter()) ?? null;
  } catch {
    return null;
  }
}
