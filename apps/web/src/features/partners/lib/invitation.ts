import { OrgType } from '@portal/contracts';

/**
 * The emailed invitation link is /register?invitation=<token>. The token survives registration and the
 * email confirmation (often opened in another tab) in localStorage, kept through sign-in; after sign-in the
 * laboratory is sent to the confirmation screen.
 */
export const INVITATION_STORAGE_KEY = 'portal.partnerInvitation';
export const INVITATION_PATH = '/partner-list-from-email';

/** A token from the query string: ?token= first, then ?invitation=. */
export function tokenFromSearch(search: string): string | null {
  const qs = new URLSearchParams(search);
  const v = (qs.get('token') ?? qs.get('invitation') ?? '').trim();
  return v || null;
}

function session(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function rememberInvitation(token: string | null): void {
  if (!token) return;
  try {
    session()?.setItem(INVITATION_STORAGE_KEY, token);
  } catch {
    /* blocked storage: the link still works when opened again */
  }
}

export function storedInvitation(): string | null {
  try {
    return session()?.getItem(INVITATION_STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

export function forgetInvitation(): void {
  try {
    session()?.removeItem(INVITATION_STORAGE_KEY);
  } catch {
    /* nothing to forget */
  }
}

export const invitationPath = (token: string) => `${INVITATION_PATH}?token=${encodeURIComponent(token)}`;

/**
 * For the post-sign-in redirect (app/RedirectPage.tsx): the confirmation screen when an invitation is
 * waiting, else null. Only laboratories (organization type 3) can confirm; anyone else keeps it for later.
 * Reading does not consume it (a render may run twice); the confirmation screen forgets the stored token
 * once the token is in its address, so `/` does not loop back to it.
 */
export function pendingInvitationRedirect(orgType: number | undefined): string | null {
  const token = storedInvitation();
  if (!token || orgType !== OrgType.Lab) return null;
  return invitationPath(token);
}
