import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/platform/storage-url';

// A real S3-compatible server on this machine for the storage tests: s3rver (a pure-npm implementation of the
// S3 REST API; it checks the access key, not SigV4 signatures) on a free loopback port, keeping its objects in
// a temp directory. Parley
// reaches it exactly as it reaches MinIO or AWS: through STORAGE_URL, S3_ENDPOINT and the AWS_* keys.

/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** What openStorage takes for this server. */
  settings: S3Settings;
  /** Parley's environment for this server, with STORAGE_URL at `s3://bucket[/prefix]`. */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'parley-test'): Promise<S3TestServer> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    settings: {
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    },
    env: (prefix) => ({
      STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
    }),
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
