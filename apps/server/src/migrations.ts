import { readdirSync } from 'node:fs';
import { migrate, type DataMigration, type Db } from './platform/db.js';
import { MIGRATIONS_DIR } from './platform/paths.js';
import { SignInIdentifiers } from './modules/users/sign-in-identifiers.service.js';

/** The migrations written in code, each named after the SQL file it follows (see `DataMigration`). */
export const DATA_MIGRATIONS: Record<string, DataMigration> = {
  '0030_permissions_and_sign_in_identifiers.sql:keys': (db) => SignInIdentifiers.backfill(db),
};

/** Every migration, SQL files and code, in order: what the server, its tests and its tools apply. */
export function migrateAll(db: Db): Promise<string[]> {
  return migrate(db, DATA_MIGRATIONS);
}

/** Only the given migrations (a backup's schema), in order. */
export function migrateOnly(db: Db, names: string[]): Promise<string[]> {
  return migrate(db, DATA_MIGRATIONS, new Set(names));
}

/** The name of every migration in the order they are applied (as `schema_migrations` records them). */
export function migrationNames(): string[] {
  return [...readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')), ...Object.keys(DATA_MIGRATIONS)].sort();
}
