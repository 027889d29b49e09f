/**
 * Who wrote a line of an order's history or thread: "Anna Berg · Smile Clinic", or the organization once when the
 * person's display name is the organization's (an organization's first account often carries its name). A deleted
 * user shows as `formerUser`.
 */
export function authorLine(
  name: string | null | undefined,
  organization: string | null | undefined,
  formerUser: string,
) {
  const person = name?.trim() || (organization ? formerUser : '');
  const org = organization?.trim() ?? '';
  if (person && org && person.localeCompare(org, undefined, { sensitivity: 'base' }) === 0) return org;
  return [person, org].filter(Boolean).join(' · ');
}
