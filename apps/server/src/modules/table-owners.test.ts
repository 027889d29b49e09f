import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from './table-owners.js';

/**
 * The gate: a module's repositories write (INSERT INTO, UPDATE, DELETE FROM) only the tables `TABLE_OWNERS` gives
 * that module. The statements are read from the repositories' string and template literals (comments are not
 * code), so a constant holding SQL counts where it is written.
 */
const MODULES = import.meta.dirname;
const MIGRATIONS = join(MODULES, '../../migrations');
const OWNERS: Record<string, string> = TABLE_OWNERS;

const WRITE = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?((?:"?[A-Za-z_]\w*"?\.)?"?[A-Za-z_]\w*"?)?/gi;
/** Outside repositories SQL is written in capitals, as everywhere here: "Update log" in an API summary is prose. */
const WRITE_IN_CAPITALS = new RegExp(WRITE.source, 'g');
/** `FOR UPDATE`, `FOR NO KEY UPDATE`, `ON CONFLICT … DO UPDATE` and `ON UPDATE` (a foreign key) change no table. */
const NOT_A_WRITE = /\b(FOR|KEY|DO|ON)\s+$/i;

/** The tables an SQL text writes; `null` for a write whose table is not written in place (`UPDATE ${table}`). */
function writeTargets(sql: string, pattern = WRITE): (string | null)[] {
  const found: (string | null)[] = [];
  for (const m of sql.matchAll(pattern)) {
    const before = sql.slice(0, m.index);
    if (m[1]!.toUpperCase() === 'UPDATE' && NOT_A_WRITE.test(before)) continue;
    const table = m[2]?.replaceAll('"', '').toLowerCase();
    // `UPDATE SET` after `DO` is skipped above; a bare keyword at the end of a template part names no table here.
    found.push(table && table !== 'set' ? (table.split('.').pop() ?? table) : null);
  }
  return found;
}

/** The texts of a TypeScript file's string and template literals, each template part on its own. */
function literals(file: string, source: string): string[] {
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      texts.push(node.head.text);
      for (const span of node.templateSpans) texts.push(span.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return texts;
}

const SRC = join(MODULES, '..');

/** The server's source files, tests left out. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/**
 * Who may write a table from a file: a module's files its own tables, `platform/` the platform's (and the migration
 * log it keeps itself), and nothing else (start-up, the demo seed, the commands) any table: they call the owners.
 */
function writer(file: string): string | null {
  const [top, module] = relative(SRC, file).split(/[\\/]/);
  if (top === 'modules' && module && !module.endsWith('.ts')) return module;
  if (top === 'platform') return 'platform';
  return null;
}
const PLATFORM_OWN = new Set(['schema_migrations']);

function migrationTables() {
  return readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.sql'))
    .flatMap((f) =>
      [
        ...readFileSync(join(MIGRATIONS, f), 'utf8').matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/gi),
      ].map((m) => m[1]!.toLowerCase()),
    );
}

describe('writeTargets', () => {
  it('finds the table each statement writes, and nothing in locks and upserts', () => {
    expect(writeTargets(`UPDATE cases SET status = $2 WHERE id = $1`)).toEqual(['cases']);
    expect(writeTargets(`update organizations o set name = $2 from x`)).toEqual(['organizations']);
    expect(writeTargets(`DELETE FROM files WHERE case_id = $1 RETURNING id`)).toEqual(['files']);
    expect(
      writeTargets(`INSERT INTO storage_accounts (organization_id) VALUES ($1)
        ON CONFLICT (organization_id) DO UPDATE SET used_bytes = storage_accounts.used_bytes + $2`),
    ).toEqual(['storage_accounts']);
    expect(
      writeTargets(`WITH live AS (SELECT id FROM partnerships FOR UPDATE), ended AS (UPDATE partnerships p SET status = 4)
        INSERT INTO partnership_events (partnership_id) SELECT id FROM ended`),
    ).toEqual(['partnerships', 'partnership_events']);
    expect(writeTargets(`SELECT id FROM cases WHERE id = $1 FOR UPDATE SKIP LOCKED`)).toEqual([]);
    expect(writeTargets(`SELECT 1 FROM notifications n FOR UPDATE OF n SKIP LOCKED`)).toEqual([]);
    expect(writeTargets(`SELECT 1 FROM orders FOR NO KEY UPDATE`)).toEqual([]);
    expect(writeTargets(`INSERT INTO public."Cases" (id) VALUES (1)`)).toEqual(['cases']);
  });

  it('outside repositories, counts statements in capitals only', () => {
    expect(writeTargets('Update log entries', WRITE_IN_CAPITALS)).toEqual([]);
    expect(writeTargets('UPDATE cases SET memo = $1', WRITE_IN_CAPITALS)).toEqual(['cases']);
  });

  it('reports a write whose table is an expression', () => {
    expect(writeTargets('UPDATE ')).toEqual([null]);
    expect(writeTargets('DELETE FROM ')).toEqual([null]);
  });
});

describe('table ownership', () => {
  it('names an owning module for every table the migrations create, and no other', () => {
    const created = migrationTables();
    expect(created.length).toBeGreaterThan(40);
    const modules = new Set(
      readdirSync(MODULES, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name),
    );
    expect(created.filter((t) => !(t in OWNERS)).sort(), 'tables without an owner in TABLE_OWNERS').toEqual([]);
    expect(
      Object.keys(OWNERS).filter((t) => !created.includes(t)),
      'owners of tables no migration creates',
    ).toEqual([]);
    expect(
      Object.entries(OWNERS).filter(([, m]) => m !== 'platform' && !modules.has(m)),
      'owners that are not modules',
    ).toEqual([]);
  });

  it('lets each file write only the tables its module owns: outside modules and the platform, none', () => {
    const files = sources();
    expect(files.filter((f) => f.endsWith('.repository.ts')).length).toBeGreaterThan(25);
    const crossings: string[] = [];
    let writes = 0;
    for (const file of files) {
      const module = writer(file);
      const pattern = file.endsWith('.repository.ts') ? WRITE : WRITE_IN_CAPITALS;
      for (const text of literals(file, readFileSync(file, 'utf8'))) {
        for (const table of writeTargets(text, pattern)) {
          writes += 1;
          const where = relative(join(SRC, '../../..'), file);
          if (table === null) crossings.push(`${where}: writes a table named by an expression`);
          else if (module === null) crossings.push(`${where}: writes ${table} outside a module (call its owner)`);
          else if (module === 'platform' && PLATFORM_OWN.has(table)) continue;
          else if (!(table in OWNERS)) crossings.push(`${where}: writes ${table}, which has no owner in TABLE_OWNERS`);
          else if (OWNERS[table] !== module)
            crossings.push(
              `${where}: writes ${table}, owned by ${OWNERS[table]} (${OWNERS[table] === 'platform' ? 'use the platform' : 'call its service'})`,
            );
        }
      }
    }
    expect(writes).toBeGreaterThan(100);
    expect(crossings).toEqual([]);
  });
});
