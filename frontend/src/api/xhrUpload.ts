import { getAccessToken } from './accessToken';

export interface UploadResult<T> {
  ok: boolean;
  status: number;
  body: T | null;
}

export interface UploadOptions {
  url: string;
  form: FormData;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** Called with the answer's body on a 401. */
  onUnauthorized?: (body: unknown) => void;
}

/**
 * Multipart POST through XMLHttpRequest, because fetch has no upload progress events.
 * Resolves for every HTTP answer (check `ok`) and rejects only on network failure or abort.
 */
export async function uploadWithProgress<T>({ url, form, onProgress, signal, onUnauthorized }: UploadOptions) {
  const token = await getAccessToken();
  return new Promise<UploadResult<T>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      const body = parseJson<T>(xhr.responseText);
      if (xhr.status === 401) onUnauthorized?.(body);
      resolve({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('Network error'));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

function parseJson<T>(text: string): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
