/**
 * One-shot task of the cluster (compose's s3-init, the Kubernetes ensure-bucket job): creates
 * S3_BUCKET through the project's own storage adapter, then exits. Cluster services never
 * create it; standalone mode does at start. Compiled to dist/ensure-bucket.js.
 */
import { loadConfig } from '../config/load';
import { storageFromConfig } from '../runtime';

storageFromConfig(loadConfig())
  .ensureBucket()
  .then(
    () => console.log('bucket ready'),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
