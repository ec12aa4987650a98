import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export type UploadPurpose = 'support' | 'returns'

/**
 * Upload slots issued to customers. A slot becomes UPLOADED when its bytes arrived (local driver)
 * or were found in the bucket (s3). Only uploaded slots of the same customer and purpose may be
 * cited in `imageUrls`.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    userId: text('user_id').notNull(),
    purpose: text('purpose').$type<UploadPurpose>().notNull(),
    objectName: text('object_name').notNull(),
    publicUrl: text('public_url').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    status: text('status').$type<'PENDING' | 'UPLOADED'>().notNull().default('PENDING'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('uploads_object_name_uq').on(t.objectName), index('uploads_public_url_idx').on(t.publicUrl), index('uploads_user_idx').on(t.userId, t.createdAt)],
)
