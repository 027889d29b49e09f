export interface PgBouncer {
  /** The database `database` of the server, through the pooler. */
  url(database: string): string;
  port: number;
  stop(): Promise<void>;
}
export function pgbouncerInstalled(): boolean;
export function startPgBouncer(
  serverUrl: string,
  options?: { poolSize?: number; onOutput?: (text: string) => void },
): Promise<PgBouncer>;
