/**
 * One-shot task of the cluster (compose's s3-init, the Kubernetes ensure-bucket job): creates
 * S3_BUCKET through the project's own storage adapter, then exits. Every process also creates
 * it at start when missing (runtime.ts); this task is for credentials that only it may use to
 * create buckets. Compiled to dist/ensure-bucket.js.
 */
import { loadConfig } from '../config/load';
import { ConfigError } from '../errors';
import { storageFromConfig } from '../runtime';

function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message); // names the bad variable, like every other entry point
    process.exitCode = 2;
    return Promise.resolve();
  }
  return storageFromConfig(config)
    .ensureBucket()
    .then(() => console.log('bucket ready'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
