// Where evidence files live. One interface, two drivers:
// - local (default): the service signs its own PUT address (HMAC over object name, content type,
//   declared size and expiry), receives the bytes itself and serves them back at the public URL;
// - s3: a presigned PUT to any S3-compatible store, content type and length bound into the signature.
import type { Readable } from 'node:stream'

export interface UploadTarget {
  objectName: string
  contentType: string
  sizeBytes: number
  expiresAt: Date
}

export interface Storage {
  readonly driver: 'local' | 's3'
  /** Where upload addresses point (scheme, host, port): a browser that PUTs there must be allowed to (the console's CSP). */
  readonly uploadOrigin: string
  /** The signed address the client PUTs the bytes to, and the headers it must send. */
  signUpload(target: UploadTarget): Promise<{ uploadUrl: string; headers: { 'Content-Type': string } & Record<string, string> }>
  publicUrl(objectName: string): string
  /** Size of a stored object, or null when there is none. */
  stat(objectName: string): Promise<{ size: number } | null>
}

export interface LocalStorage extends Storage {
  readonly driver: 'local'
  /** Checks a PUT's signature and expiry; returns the signed terms. */
  verify(objectName: string, query: { expires?: string; size?: string; type?: string; signature?: string }, now: Date): UploadTarget | null
  /** Streams the body to disk, at most `maxBytes`; nothing is kept when it fails. Returns bytes written and the first bytes. */
  write(objectName: string, body: Readable, maxBytes: number): Promise<{ size: number; head: Buffer }>
  read(objectName: string): Readable | null
  remove(objectName: string): Promise<void>
}

export class TooLargeError extends Error {}
