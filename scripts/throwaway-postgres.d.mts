export interface ThrowawayPostgres {
  /** The `postgres` database as the `postgres` superuser. */
  adminUrl: string;
  port: number;
  /** Its temporary folder, removed by `stop()`. */
  dir: string;
  stop(): Promise<void>;
}
export function postgresBinaries(): string | undefined;
export function startThrowawayPostgres(options?: { onOutput?: (text: string) => void }): Promise<ThrowawayPostgres>;
