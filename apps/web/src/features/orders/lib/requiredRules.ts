import { PRESCRIPTION_FIELDS, TREATMENTS } from '@portal/contracts';
import type { PrescriptionField, RequiredFieldRule } from '../api/types';

/** Turns one required field of one work type on or off; rules stay in catalogue order and a rule without fields is dropped. */
export function setRuleField(
  rules: readonly RequiredFieldRule[],
  workType: RequiredFieldRule['workType'],
  field: PrescriptionField,
  on: boolean,
): RequiredFieldRule[] {
  const current = new Set(rules.find((r) => r.workType === workType)?.fields ?? []);
  if (on) current.add(field);
  else current.delete(field);
  const others = rules.filter((r) => r.workType !== workType);
  const next = current.size
    ? [...others, { workType, fields: PRESCRIPTION_FIELDS.filter((f) => current.has(f)) }]
    : others;
  return next.sort((a, b) => TREATMENTS.indexOf(a.workType) - TREATMENTS.indexOf(b.workType));
}

/** Whether two rule sets require the same fields (order does not matter). */
export function sameRules(a: readonly RequiredFieldRule[], b: readonly RequiredFieldRule[]): boolean {
  const key = (rules: readonly RequiredFieldRule[]) =>
    rules
      .filter((r) => r.fields.length > 0)
      .map((r) => `${r.workType}:${[...r.fields].sort().join(',')}`)
      .sort()
      .join('|');
  return key(a) === key(b);
}
