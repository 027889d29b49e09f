/**
 * The password prompt for sensitive calls (code 1014). The prompt itself is loaded on first use;
 * this module only connects the http client to it.
 */
export type IdentityResolver = (ok: boolean) => void;
type Opener = (resolve: IdentityResolver) => void;

let mountHost: (() => void) | null = null;
let resolveReady: ((open: Opener) => void) | null = null;
const ready = new Promise<Opener>((resolve) => {
  resolveReady = resolve;
});

export function registerHost(mount: (() => void) | null) {
  mountHost = mount;
}

export function registerPrompt(open: Opener) {
  resolveReady?.(open);
}

/** Resolves true once the user confirmed their password, false when they cancel. */
export async function requestIdentity(): Promise<boolean> {
  if (!mountHost) return false;
  mountHost();
  const open = await ready;
  return new Promise((resolve) => open(resolve));
}
