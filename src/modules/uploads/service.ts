// Evidence uploads: slots (signed PUT addresses) for support tickets and returns, the local
// driver's PUT and GET, and the check that `imageUrls` are this customer's uploads for that purpose.
import { and, eq, inArray } from 'drizzle-orm'
import type { Readable } from 'node:stream'
import type { Db, Executor } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import type { ObjectNames } from './object-names.ts'
import { type UploadPurpose, uploads } from './schema.sql.ts'
import { type LocalStorage, type Storage, TooLargeError } from './storage.ts'

export const MAX_FILE_BYTES = 15 * 1024 * 1024
export const MAX_FILES_PER_REQUEST = 5
export const SLOT_LIFETIME_MS = 15 * 60_000
export const CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
export type ImageType = (typeof CONTENT_TYPES)[number]
const EXTENSIONS: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }

/** Does the file start the way this image type starts? */
export function looksLike(contentType: ImageType, head: Buffer): boolean {
  switch (contentType) {
    case 'image/png':
      return head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    case 'image/jpeg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff
    case 'image/gif':
      return ['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'))
    case 'image/webp':
      return head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP'
  }
}

const PREFIX: Record<UploadPurpose, string> = { support: 'support/tickets', returns: 'returns' }

export interface SlotRequest {
  fileName: string
  contentType: ImageType
  sizeBytes: number
}

export class UploadService {
  readonly #db: Db
  readonly #clock: Clock
  readonly #names: ObjectNames
  readonly storage: Storage

  constructor(db: Db, clock: Clock, storage: Storage, names: ObjectNames) {
    this.storage = storage
    this.#db = db
    this.#clock = clock
    this.#names = names
  }


  async issueSlots(customer: { userId: string; partnerId: string }, purpose: UploadPurpose, files: SlotRequest[]) {
    const now = this.#clock.now()
    const expiresAt = new Date(now.getTime() + SLOT_LIFETIME_MS)
    const slots = []
    const rows = []
    for (const file of files) {
      const id = newId('upl', now.getTime())
      // The stored name is ours: nothing of the client's file name reaches the path. Its tag
      // lets the public GET refuse names it never issued without a query (object-names.ts).
      const objectName = this.#names.name(`${PREFIX[purpose]}/${customer.userId}/${id}`, EXTENSIONS[file.contentType])
      const signed = await this.storage.signUpload({ objectName, contentType: file.contentType, sizeBytes: file.sizeBytes, expiresAt })
      const publicUrl = this.storage.publicUrl(objectName)
      rows.push({ id, partnerId: customer.partnerId, userId: customer.userId, purpose, objectName, publicUrl, fileName: file.fileName, contentType: file.contentType, sizeBytes: file.sizeBytes, expiresAt, createdAt: now })
      slots.push({ fileName: file.fileName, objectName, uploadUrl: signed.uploadUrl, publicUrl, method: 'PUT' as const, headers: signed.headers, expiresAt: expiresAt.toISOString() })
    }
    await this.#db.insert(uploads).values(rows)
    return slots
  }

  /** The local driver's PUT: signature, Content-Type, size (while streaming) and image bytes checked. */
  async receive(objectName: string, query: Record<string, string | undefined>, contentTypeHeader: string | undefined, contentLength: number | null, body: Readable) {
    const local = this.storage as LocalStorage
    const target = local.verify(objectName, query, this.#clock.now())
    if (!target) throw new AppError('FORBIDDEN', 'Invalid or expired upload signature')
    const [slot] = await this.#db.select().from(uploads).where(eq(uploads.objectName, objectName)).limit(1)
    if (!slot) throw notFound('Upload slot')
    // One-shot: a signed address stays valid until it expires, so a replay must not replace the file.
    if (slot.status === 'UPLOADED') throw new AppError('CONFLICT', 'This upload address has already been used')
    const sent = (contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase()
    if (sent !== target.contentType) throw new AppError('BAD_REQUEST', `Content-Type must be ${target.contentType}, as signed`)
    const limit = Math.min(target.sizeBytes, MAX_FILE_BYTES)
    if (contentLength !== null && contentLength > limit) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the ${limit} bytes declared for this slot`)
    let written: { size: number; head: Buffer }
    try {
      written = await local.write(objectName, body, limit)
    } catch (err) {
      if (err instanceof TooLargeError) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the ${limit} bytes declared for this slot`)
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new AppError('CONFLICT', 'This upload address has already been used')
      throw err
    }
    const refuse = async (message: string) => {
      await local.remove(objectName)
      return new AppError('BAD_REQUEST', message)
    }
    if (written.size !== target.sizeBytes) throw await refuse(`The file is ${written.size} bytes; this slot was declared for ${target.sizeBytes}`)
    if (!looksLike(target.contentType as ImageType, written.head)) throw await refuse(`The file content is not a valid ${target.contentType} file`)
    await this.#db.update(uploads).set({ status: 'UPLOADED', uploadedAt: this.#clock.now() }).where(eq(uploads.id, slot.id))
    return { objectName, size: written.size, contentType: target.contentType }
  }

  /**
   * The local driver's GET of an uploaded file. It is public, so a miss must be cheap: a name we
   * never issued is refused in memory, and a file that is not on disk before any query; the
   * database then says whether the upload completed and its type.
   */
  async open(objectName: string) {
    const local = this.storage as LocalStorage
    if (this.#names.check(objectName) === 'never-issued' || !(await local.stat(objectName))) throw notFound('File')
    const [slot] = await this.#db.select().from(uploads).where(and(eq(uploads.objectName, objectName), eq(uploads.status, 'UPLOADED'))).limit(1)
    const stream = slot ? local.read(objectName) : null
    if (!slot || !stream) throw notFound('File')
    return { stream, contentType: slot.contentType }
  }
}

/**
 * `imageUrls` of a ticket or return: each must be a publicUrl issued to this customer for this
 * purpose, and uploaded (s3: found in the bucket with the declared size). 400 naming the bad URL.
 */
export async function checkImageUrls(db: Executor, storage: Storage, customer: { userId: string; partnerId: string }, purpose: UploadPurpose, urls: string[], now: Date) {
  if (urls.length === 0) return []
  const rows = await db.select().from(uploads).where(inArray(uploads.publicUrl, urls))
  for (const url of urls) {
    const row = rows.find((r) => r.publicUrl === url)
    if (!row || row.userId !== customer.userId || row.partnerId !== customer.partnerId || row.purpose !== purpose) {
      throw new AppError('BAD_REQUEST', `imageUrls: ${url} is not an upload of this customer for ${purpose === 'support' ? 'support' : 'returns'}`)
    }
    if (row.status !== 'UPLOADED') {
      const stored = storage.driver === 's3' ? await storage.stat(row.objectName) : null
      if (!stored || stored.size !== row.sizeBytes) throw new AppError('BAD_REQUEST', `imageUrls: ${url} has not been uploaded`)
      await db.update(uploads).set({ status: 'UPLOADED', uploadedAt: now }).where(eq(uploads.id, row.id))
    }
  }
  return [...new Set(urls)]
}
