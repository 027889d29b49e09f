export interface S3Server {
  server: { context: { store: { getResourcePath(bucket: string, key: undefined, resource: string): string } } };
  env: {
    STORAGE: 's3';
    S3_BUCKET: string;
    S3_ENDPOINT: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: 'true';
  };
  stop(): Promise<void>;
}
export function startS3Server(options: { directory: string; bucket?: string; port?: number }): Promise<S3Server>;
