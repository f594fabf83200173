import { FilesystemBlobStore, S3BlobStore, createBlobStore } from '../src';

describe('createBlobStore', () => {
  test('when nothing is configured, then it is the filesystem under DATA_DIR/blobs', () => {
    const store = createBlobStore({ DATA_DIR: '/var/pitwall' });
    expect(store).toBeInstanceOf(FilesystemBlobStore);
    expect((store as FilesystemBlobStore).dir).toBe('/var/pitwall/blobs');
    expect((createBlobStore({ BLOB_DIR: '/srv/blobs' }) as FilesystemBlobStore).dir).toBe('/srv/blobs');
  });

  test('when BLOB_STORE=s3, then it is the S3 backend on the configured bucket', async () => {
    const store = createBlobStore({
      BLOB_STORE: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'pitwall-blobs',
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'minio-secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(store).toBeInstanceOf(S3BlobStore);
    expect((store as S3BlobStore).bucket).toBe('pitwall-blobs');
    const url = await store.presignGet(`sha256/${'a'.repeat(64)}`, 60);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:9000\/pitwall-blobs\/sha256\/a{64}\?/);
    await store.close();
  });

  test('when a setting is wrong, then it fails naming the variable', () => {
    expect(() => createBlobStore({ BLOB_STORE: 'ftp' })).toThrow(/BLOB_STORE/);
    expect(() => createBlobStore({ BLOB_STORE: 's3' })).toThrow(/S3_BUCKET is required/);
    expect(() => createBlobStore({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => createBlobStore({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
