import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import type { S3Config } from '../../core/config/config';
import { assertSafeKey, FileNotStoredError, FileStorage, StoredType } from './file-storage';

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** Files in an S3-compatible bucket (AWS S3, MinIO, R2...), linked by public or signed URLs. */
export class S3FileStorage extends FileStorage {
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    super();
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    });
  }

  /** Everything but decoded images is stored as an `attachment`, so a stored HTML page never renders from the bucket. */
  async save(key: string, body: Buffer | Readable, { contentType, inline }: StoredType): Promise<void> {
    assertSafeKey(key);
    const params = { Bucket: this.config.bucket, Key: key, ContentType: contentType || 'application/octet-stream', ContentDisposition: inline ? undefined : 'attachment' };
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand({ ...params, Body: body }));
      return;
    }
    // Streams go up in parts: the size need not be known and nothing is held whole in memory.
    await new Upload({ client: this.client, params: { ...params, Body: body } }).done();
  }

  async open(key: string): Promise<Readable> {
    assertSafeKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new FileNotStoredError(key);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  async url(key: string, options: { downloadName?: string } = {}): Promise<string> {
    assertSafeKey(key);
    if (this.config.publicUrl) return `${this.config.publicUrl}${key}`;
    const command = new GetObjectCommand({
      Bucket: this.config.bucket,
      Key: key,
      ResponseContentDisposition: options.downloadName ? `attachment; filename*=UTF-8''${encodeURIComponent(options.downloadName)}` : undefined,
    });
    return getSignedUrl(this.client, command, { expiresIn: this.config.signedUrlExpirySeconds });
  }
}
