import type { CompletedPart, S3Client } from '@aws-sdk/client-s3';
import type { S3Sdk } from './s3-sdk';
import { BadRequest } from '../errors';
import { stripQuotes } from './s3-errors';
import type { StorageTuning } from './types';

/** S3 refuses more parts than this in one upload. */
export const MAX_PARTS = 10_000;

export interface MultipartTarget {
  sdk: S3Sdk;
  client: S3Client;
  bucket: string;
  key: string;
  contentType: string;
  /** With WHEN_SUPPORTED, declare CRC32 up front as lib-storage does, so parts and the upload agree. */
  crc32: boolean;
  expectedLength: number | undefined;
  onPartUploaded: StorageTuning['onPartUploaded'];
}

/**
 * Uploads `parts` (the first already read) as one multipart upload. One part uploads while the
 * next is read, so memory stays near two parts whatever the object size. Every part is a
 * Buffer with a known length: the SDK then never uses its aws-chunked streaming framing, which
 * several self-hosted S3 servers reject or store verbatim (docs/adr/0002-s3-test-server.md),
 * and each part can be retried by the SDK. On any failure the upload is aborted (no orphaned
 * parts to pay for) and the source stream is destroyed.
 */
export async function uploadMultipart(
  t: MultipartTarget,
  first: IteratorResult<Buffer>,
  parts: AsyncGenerator<Buffer>,
): Promise<{ size: number; etag: string | undefined }> {
  const { sdk, client, bucket: Bucket, key: Key } = t;
  const checksum = t.crc32 ? ({ ChecksumAlgorithm: 'CRC32' } as const) : {};
  const created = await client.send(
    new sdk.CreateMultipartUploadCommand({ Bucket, Key, ContentType: t.contentType, ...checksum }),
  );
  const UploadId = created.UploadId;
  if (!UploadId) throw new Error('CreateMultipartUpload returned no UploadId');

  const done: CompletedPart[] = [];
  const failures: unknown[] = [];
  let inflight: Promise<void> = Promise.resolve();
  let partNumber = 0;
  let size = 0;

  const uploadPart = async (PartNumber: number, Body: Buffer): Promise<void> => {
    const res = await client.send(
      new sdk.UploadPartCommand({
        Bucket,
        Key,
        UploadId,
        PartNumber,
        Body,
        ContentLength: Body.length,
        ...checksum,
      }),
    );
    done.push({
      PartNumber,
      ETag: res.ETag,
      ...(res.ChecksumCRC32 ? { ChecksumCRC32: res.ChecksumCRC32 } : {}),
    });
    t.onPartUploaded?.({ key: Key, partNumber: PartNumber, size: Body.length });
  };

  try {
    for (let next = first; !next.done; next = await parts.next()) {
      await inflight;
      if (failures.length) throw failures[0];
      if (++partNumber > MAX_PARTS) throw new BadRequest(`Object needs more than ${MAX_PARTS} parts`);
      size += next.value.length;
      if (t.expectedLength !== undefined && size > t.expectedLength) {
        throw new BadRequest(`Body is longer than the declared ${t.expectedLength} bytes`);
      }
      // The rejection is recorded, not left unhandled while the next part is being read.
      inflight = uploadPart(partNumber, next.value).catch((err: unknown) => void failures.push(err));
    }
    await inflight;
    if (failures.length) throw failures[0];
    if (t.expectedLength !== undefined && size !== t.expectedLength) {
      throw new BadRequest(`Body is ${size} bytes, declared ${t.expectedLength}`);
    }
    done.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
    const res = await client.send(
      new sdk.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: done } }),
    );
    return { size, etag: stripQuotes(res.ETag) };
  } catch (err) {
    await parts.return(undefined);
    await inflight;
    // Best effort: the original error is what the caller needs; a lifecycle rule on the bucket
    // (AbortIncompleteMultipartUpload) is the backstop for an abort that fails too.
    await client.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
    throw err;
  }
}
