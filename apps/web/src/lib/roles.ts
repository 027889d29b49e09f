import type { TFunction } from 'i18next';

/** The role to show: built-in roles carry a translation key ('role.clinicAdmin'); roles made by users carry their own name. */
export function roleLabel(t: TFunction, name: string): string {
  return t(`layout:roles.${name.replace(/^role\./, '')}`, { defaultValue: name });
}
