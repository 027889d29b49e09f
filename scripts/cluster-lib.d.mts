export interface Cluster {
  /** The balancer's address. */
  url: string;
  databaseUrl: string;
  processes: Array<{ name: string; url: string }>;
  output(i: number): string;
  pids(): { portals: number[]; haproxy: number | undefined };
  stop(): Promise<void>;
  kill(i: number): Promise<void>;
  restart(i: number): Promise<void>;
}
export interface ClusterOptions {
  /** A PostgreSQL of the cluster's own even where one answers. */
  throwawayPostgres?: boolean;
  /** Through PgBouncer in transaction mode (LISTEN directly). */
  pgbouncer?: boolean;
  adminUrl?: string;
  database?: string;
  port?: number;
  processes?: number;
  env?: Record<string, string>;
  onOutput?: (name: string, text: string) => void;
  dropDatabaseOnStop?: boolean;
}
export function startCluster(options?: ClusterOptions): Promise<Cluster>;
export function clusterPrerequisites(): string[];
export function haproxyInstalled(): boolean;
export interface HaproxyOptions {
  port: number;
  servers: Array<{ name: string; port: number; host?: string }>;
  bind?: string;
  luaPath?: string;
  byName?: boolean;
}
export function haproxyConfig(options: HaproxyOptions): string;
export const COMPOSE_HAPROXY: HaproxyOptions;
