/**
 * Where API calls get the bearer token from. The auth feature registers a getter once it knows
 * the auth mode: the local account's token in the store, `getAccessTokenSilently` for OIDC.
 */
export type AccessTokenGetter = () => Promise<string | null | undefined> | string | null | undefined;

/**
 * Asked once when a call that carried `refused` was answered 401: resolves true when there is now
 * another token to try the call with (renewed, or renewed meanwhile), false when the session is
 * over. Only local accounts register one; without it a 401 signs out at once.
 */
export type AccessTokenRenewer = (refused: string | null) => Promise<boolean>;

let getter: AccessTokenGetter = () => null;
let renewer: AccessTokenRenewer | null = null;

export function setAccessTokenGetter(next: AccessTokenGetter): void {
  getter = next;
}

export function setAccessTokenRenewer(next: AccessTokenRenewer | null): void {
  renewer = next;
}

export async function getAccessToken(): Promise<string | null> {
  try {
    return (await getter()) ?? null;
  } catch {
    return null;
  }
}

/** Whether a call refused with 401 while carrying `refused` may be tried once more. */
export async function renewRefusedToken(refused: string | null): Promise<boolean> {
  if (!renewer) return false;
  try {
    return await renewer(refused);
  } catch {
    return false;
  }
}
