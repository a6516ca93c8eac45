import type { BucketLocationConstraint, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { BadRequest, NotFound } from '../errors';
import { guard } from '../streams';
import { assertValidKey, assertValidPrefix } from './keys';
import { isStreamBody, readParts, releaseBody } from './parts';
import { describeError, errorName, httpStatus, stripQuotes, toStorageError } from './s3-errors';
import { MAX_PARTS, uploadMultipart } from './s3-multipart';
import { loadS3Sdk, type S3Sdk } from './s3-sdk';
import type { GetOptions, ObjectInfo, ObjectStorage, PutBody, PutOptions, StorageTuning } from './types';

export interface S3StorageOptions {
  /** Omit for AWS; set for MinIO, Garage, SeaweedFS, gofakes3 and the like. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Both or neither; without them the SDK's default credential chain applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Defaults to true when `endpoint` is set: self-hosted servers rarely have wildcard DNS. */
  forcePathStyle?: boolean;
  /**
   * The SDK's default (WHEN_SUPPORTED) adds CRC32 checksums everywhere and, for streamed bodies,
   * an aws-chunked framing with a trailer that several self-hosted servers mishandle. We only
   * ever send Buffers, so both settings work; WHEN_REQUIRED is the default for the servers we
   * run in tests and self-hosting. See docs/adr/0002-s3-test-server.md.
   */
  checksums?: 'WHEN_REQUIRED' | 'WHEN_SUPPORTED';
}

const MiB = 1024 * 1024;
const DEFAULT_PART_SIZE = 8 * MiB;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

function checkLength(actual: number, expected: number | undefined): void {
  if (expected !== undefined && actual !== expected) {
    throw new BadRequest(`Body is ${actual} bytes, declared ${expected}`);
  }
}

export function createS3Storage(opts: S3StorageOptions, tuning: StorageTuning = {}): ObjectStorage {
  if ((opts.accessKeyId === undefined) !== (opts.secretAccessKey === undefined)) {
    throw new Error('S3 storage: give both accessKeyId and secretAccessKey, or neither');
  }
  const checksums = opts.checksums ?? 'WHEN_REQUIRED';
  const clientFor = ({ S3Client }: S3Sdk, validation: 'WHEN_REQUIRED' | 'WHEN_SUPPORTED') =>
    new S3Client({
      region: opts.region,
      ...(opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {}),
      forcePathStyle: opts.forcePathStyle ?? opts.endpoint !== undefined,
      requestChecksumCalculation: checksums,
      responseChecksumValidation: validation,
      ...(opts.accessKeyId !== undefined && opts.secretAccessKey !== undefined
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
      // Fail a health check or request fast when the endpoint blackholes connections.
      requestHandler: { connectionTimeout: 5_000 },
    });
  // The SDK and its clients, made with the first request (s3-sdk.ts).
  let clients: Promise<{ sdk: S3Sdk; client: S3Client; rangeClient: S3Client }> | undefined;
  const connect = () =>
    (clients ??= loadS3Sdk().then((sdk) => {
      const client = clientFor(sdk, checksums);
      // A whole-object checksum cannot check a byte range. S3 sends none with a ranged answer, but
      // some compatible servers (gofakes3) do, and the SDK would then fail every range it validates.
      const rangeClient = checksums === 'WHEN_REQUIRED' ? client : clientFor(sdk, 'WHEN_REQUIRED');
      return { sdk, client, rangeClient };
    }));
  const Bucket = opts.bucket;
  const partSize = tuning.partSize ?? DEFAULT_PART_SIZE;
  const listPageSize = tuning.listPageSize ?? 1000;

  async function bucketExists(): Promise<boolean> {
    try {
      const { sdk, client } = await connect();
      await client.send(new sdk.HeadBucketCommand({ Bucket }));
      return true;
    } catch (err) {
      if (httpStatus(err) === 404) return false;
      throw toStorageError(err);
    }
  }

  async function putBuffer(key: string, body: Buffer, contentType: string): Promise<ObjectInfo> {
    const { sdk, client } = await connect();
    const res = await client.send(
      new sdk.PutObjectCommand({
        Bucket,
        Key: key,
        Body: body,
        ContentLength: body.length,
        ContentType: contentType,
      }),
    );
    return { key, size: body.length, etag: stripQuotes(res.ETag), contentType };
  }

  async function putStream(
    key: string,
    stream: NodeJS.ReadableStream | Readable,
    contentType: string,
    expectedLength: number | undefined,
  ): Promise<ObjectInfo> {
    // A declared length too big for MAX_PARTS parts of the default size gets bigger parts.
    const size = Math.max(partSize, expectedLength === undefined ? 0 : Math.ceil(expectedLength / MAX_PARTS));
    const parts = readParts(stream, size);
    const first = await parts.next();
    if (first.done || first.value.length < size) {
      // The whole body fitted in less than one part: one PutObject.
      const body = first.done ? Buffer.alloc(0) : first.value;
      checkLength(body.length, expectedLength);
      return putBuffer(key, body, contentType);
    }
    const { sdk, client } = await connect();
    const res = await uploadMultipart(
      {
        sdk,
        client,
        bucket: Bucket,
        key,
        contentType,
        crc32: checksums === 'WHEN_SUPPORTED',
        expectedLength,
        onPartUploaded: tuning.onPartUploaded,
      },
      first,
      parts,
    );
    return { key, size: res.size, etag: res.etag, contentType };
  }

  return {
    async ensureBucket() {
      if (await bucketExists()) return;
      try {
        // AWS wants the region spelled out outside us-east-1; other servers take their default.
        const location =
          opts.endpoint === undefined && opts.region !== 'us-east-1'
            ? { CreateBucketConfiguration: { LocationConstraint: opts.region as BucketLocationConstraint } }
            : {};
        const { sdk, client } = await connect();
        await client.send(new sdk.CreateBucketCommand({ Bucket, ...location }));
      } catch (err) {
        // Lost a race with another process, or a server (gofakes3) that answers the owner with
        // BucketAlreadyExists: fine as long as we can reach the bucket now.
        const name = errorName(err);
        const alreadyThere = name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists';
        if (alreadyThere && (await bucketExists())) return;
        throw toStorageError(err);
      }
    },

    async put(key: string, body: PutBody, putOpts: PutOptions = {}) {
      const contentType = putOpts.contentType ?? DEFAULT_CONTENT_TYPE;
      try {
        assertValidKey(key);
        if (isStreamBody(body)) return await putStream(key, body, contentType, putOpts.contentLength);
        const buf = typeof body === 'string' ? Buffer.from(body) : body;
        checkLength(buf.length, putOpts.contentLength);
        return await putBuffer(key, buf, contentType);
      } catch (err) {
        releaseBody(body);
        throw toStorageError(err);
      }
    },

    async get(key: string, opts: GetOptions = {}) {
      assertValidKey(key);
      const Range = opts.range ? `bytes=${opts.range.start}-${opts.range.end}` : undefined;
      try {
        const { sdk, client, rangeClient } = await connect();
        const res = await (Range ? rangeClient : client).send(
          new sdk.GetObjectCommand({ Bucket, Key: key, ...(Range ? { Range } : {}) }),
        );
        if (res.Body === undefined) throw new Error('GetObject returned no body');
        const info: ObjectInfo = {
          key,
          // A ranged answer's length is the range's; the whole size is after the "/".
          size: Range ? Number(res.ContentRange?.split('/')[1] ?? NaN) : (res.ContentLength ?? 0),
          etag: stripQuotes(res.ETag),
          ...(res.LastModified ? { lastModified: res.LastModified } : {}),
          ...(res.ContentType ? { contentType: res.ContentType } : {}),
        };
        // In Node the SDK body is an http.IncomingMessage (or a checksum-checking wrapper of it).
        return { body: guard(res.Body as Readable), info };
      } catch (err) {
        if (errorName(err) === 'NoSuchKey') throw new NotFound('Object not found');
        throw toStorageError(err);
      }
    },

    async stat(key: string) {
      assertValidKey(key);
      try {
        const { sdk, client } = await connect();
        const res = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return {
          key,
          size: res.ContentLength ?? 0,
          etag: stripQuotes(res.ETag),
          ...(res.LastModified ? { lastModified: res.LastModified } : {}),
          ...(res.ContentType ? { contentType: res.ContentType } : {}),
        };
      } catch (err) {
        // HEAD responses have no body, so a missing bucket looks the same as a missing key here.
        if (httpStatus(err) === 404) return null;
        throw toStorageError(err);
      }
    },

    async delete(key: string) {
      assertValidKey(key);
      try {
        const { sdk, client } = await connect();
        await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        throw toStorageError(err);
      }
    },

    async *list(prefix = '') {
      assertValidPrefix(prefix);
      let token: string | undefined;
      do {
        let res;
        try {
          const { sdk, client } = await connect();
          res = await client.send(
            new sdk.ListObjectsV2Command({
              Bucket,
              MaxKeys: listPageSize,
              ...(prefix ? { Prefix: prefix } : {}),
              ...(token ? { ContinuationToken: token } : {}),
            }),
          );
        } catch (err) {
          throw toStorageError(err);
        }
        for (const o of res.Contents ?? []) {
          if (o.Key === undefined) continue;
          yield {
            key: o.Key,
            size: o.Size ?? 0,
            etag: stripQuotes(o.ETag),
            ...(o.LastModified ? { lastModified: o.LastModified } : {}),
          };
        }
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
        if (res.IsTruncated && !token) {
          throw new Error('ListObjectsV2 was truncated but gave no continuation token');
        }
      } while (token);
    },

    async health() {
      try {
        if (await bucketExists()) return { ok: true };
        return { ok: false, detail: `bucket ${Bucket} does not exist` };
      } catch (err) {
        const cause = (err as { cause?: unknown }).cause ?? err;
        return { ok: false, detail: describeError(cause) };
      }
    },
  };
}
