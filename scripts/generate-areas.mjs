#!/usr/bin/env node
/**
 * Writes the area migration (countries → states/provinces/regions/nations → cities/counties/provinces) for the
 * portal's three regional sites from maintained data packages, never a hand-typed list:
 *
 * - United States and Canada: states, provinces and their cities from `country-state-city`.
 * - United Kingdom: the four nations, and their counties, council areas and districts (ISO 3166-2:GB names from
 *   `iso-3166`, placed under their nation by Unicode CLDR's subdivision containment in `cldr-core`).
 * - Europe: each country's regions and, where ISO 3166-2 has a second tier (French departments, Italian and Spanish
 *   provinces…), that tier from `iso-3166`; cities there are typed, which keeps the table small.
 *
 * Usage: node scripts/generate-areas.mjs > apps/server/migrations/0025_organization_areas.sql (the migration holds
 * more than the areas: regenerate into a new migration, never rewrite an applied one).
 */
import { City, Country, State } from 'country-state-city';
import { iso31661, iso31662 } from 'iso-3166';
import cldrContainment from 'cldr-core/supplemental/subdivisionContainment.json' with { type: 'json' };

const EUROPE = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'NO',
  'IS',
  'LI',
  'CH',
];
const UK_NATIONS = ['ENG', 'NIR', 'SCT', 'WLS'];

/** @type {{ id: string; parent: string | null; name: string; level: number; region: string }[]} */
const rows = [];
const add = (id, parent, name, level, region) => rows.push({ id, parent, name, level, region });
const byName = (a, b) => a.name.localeCompare(b.name, 'en');

// United States and Canada.
for (const cc of ['US', 'CA']) {
  add(cc, null, Country.getCountryByCode(cc).name, 1, 'us');
  for (const state of State.getStatesOfCountry(cc).sort(byName)) {
    const stateId = `${cc}-${state.isoCode}`;
    add(stateId, cc, state.name, 2, 'us');
    const names = [...new Set(City.getCitiesOfState(cc, state.isoCode).map((c) => c.name))].sort((a, b) =>
      a.localeCompare(b, 'en'),
    );
    names.forEach((name, i) => add(`${stateId}-${String(i + 1).padStart(4, '0')}`, stateId, name, 3, 'us'));
  }
}

// United Kingdom: the nations, and each county or council area under its nation (CLDR's subdivision containment).
add('GB', null, Country.getCountryByCode('GB').name, 1, 'uk');
const containment = cldrContainment.supplemental.subdivisionContainment;
const within = (code) => (containment[code]?._contains ?? []).flatMap((c) => [c, ...within(c)]);
const ukNames = new Map(iso31662.filter((s) => s.code.startsWith('GB-')).map((s) => [s.code, s.name]));
for (const nation of UK_NATIONS.map((code) => State.getStateByCodeAndCountry(code, 'GB')).sort(byName)) {
  const nationId = `GB-${nation.isoCode}`;
  add(nationId, 'GB', nation.name, 2, 'uk');
  const counties = within(`gb${nation.isoCode.toLowerCase()}`)
    .map((c) => `GB-${c.slice(2).toUpperCase()}`)
    .filter((id) => ukNames.has(id))
    .map((id) => ({ id, name: ukNames.get(id) }))
    .sort(byName);
  for (const county of counties) add(county.id, nationId, county.name, 3, 'uk');
}

// Europe: ISO 3166-2 regions and their second tier.
const countryName = new Map(iso31661.map((c) => [c.alpha2, c.name]));
for (const cc of EUROPE) {
  add(cc, null, Country.getCountryByCode(cc)?.name ?? countryName.get(cc), 1, 'eu');
  const subdivisions = iso31662.filter((s) => s.code.startsWith(`${cc}-`));
  const ids = new Set(subdivisions.map((s) => s.code));
  const top = subdivisions.filter((s) => s.parent === cc || !ids.has(s.parent)).sort(byName);
  for (const region of top) {
    add(region.code, cc, region.name, 2, 'eu');
    for (const child of subdivisions.filter((s) => s.parent === region.code).sort(byName))
      add(child.code, region.code, child.name, 3, 'eu');
  }
}

const quote = (s) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);
const out = [];
const CHUNK = 1000;
for (let i = 0; i < rows.length; i += CHUNK) {
  const values = rows
    .slice(i, i + CHUNK)
    .map((r) => `(${quote(r.id)}, ${quote(r.parent)}, ${quote(r.name)}, ${r.level}, ${quote(r.region)})`);
  out.push(`INSERT INTO areas (id, parent_id, name, level, region) VALUES\n${values.join(',\n')};`);
}
process.stdout.write(out.join('\n--;\n') + '\n');
