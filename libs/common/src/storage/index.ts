export type { GetOptions, ObjectInfo, ObjectStorage, PutBody, PutOptions, StorageTuning } from './types';
export { createS3Storage, type S3StorageOptions } from './s3';
export { createDiskStorage, type DiskStorageOptions } from './disk';
export { assertValidKey } from './keys';
