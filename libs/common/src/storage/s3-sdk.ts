/**
 * The AWS SDK's S3 client, loaded with the first S3 request: a process on the disk store (standalone)
 * never holds it (about 20 MB of resident memory).
 */
export type S3Sdk = typeof import('@aws-sdk/client-s3');

let sdk: Promise<S3Sdk> | undefined;

export function loadS3Sdk(): Promise<S3Sdk> {
  return (sdk ??= import('@aws-sdk/client-s3'));
}
