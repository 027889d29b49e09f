import { API_BASE } from '@portal/contracts';
import { appConfigStore } from './appConfig';

/**
 * A link the server made to itself (a signed download, the compact viewer file), as a path on the page's own
 * origin. The server names itself by its public address, which the browser may know by another name (127.0.0.1,
 * the address of a server on the practice's network) when none is configured; another origin would fail.
 * Links elsewhere (S3's pre-signed ones) are kept as they are.
 */
export function serverLink(url: string): string {
  const api = appConfigStore.get()?.apiEndpoint;
  return api && url.startsWith(`${api}/`) ? `${API_BASE}${url.slice(api.length)}` : url;
}

/** Starts a browser download of a URL (a signed link) under the given name. */
export function downloadUrl(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = serverLink(url);
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Saves a file the server sent as an attachment; the object URL is released once the click has started the download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  downloadUrl(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
