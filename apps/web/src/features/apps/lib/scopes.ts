import type { TFunction } from 'i18next';

/** A scope in words ("cases:read" is looked up as scope.cases_read: a colon separates i18next namespaces). */
export function scopeLabel(t: TFunction<'apps'>, scope: string): string {
  return t(`scope.${scope.replace(/[^a-z_]/gi, '_')}`, { defaultValue: scope });
}

/**
 * Where the browser goes after an answer: the provider's own address on this site, never elsewhere (the server
 * answers it; a page that followed any address would be an open redirect if that answer were ever wrong).
 */
export function sameOriginTarget(returnTo: string, origin = window.location.origin): string {
  const target = new URL(returnTo, origin);
  return target.origin === origin ? target.href : origin;
}
