import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { catalogs } from '../catalog/schema.sql.ts'

/** A partner is one integration: its ID is the `x-partner-id` value. */
export const partners = pgTable(
  'partners',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** After a rotation, the secret before it, accepted until previousSecretExpiresAt (the overlap). */
    previousSecretHash: text('previous_secret_hash'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    isActive: boolean('is_active').notNull().default(true),
    /** Origins (`https://shop.example`) where payment return URLs may point; empty: any absolute URL. */
    returnUrlOrigins: jsonb('return_url_origins').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Where partner events are POSTed; null: events are kept but not sent. */
    webhookUrl: text('webhook_url'),
    /** The webhook signing secret, encrypted with a key derived from AUTH_SECRET (it must be usable to sign). */
    webhookSecretEncrypted: text('webhook_secret_encrypted'),
    /** After a rotation, the signing secret before it: deliveries are signed with both until it expires. */
    previousWebhookSecretEncrypted: text('previous_webhook_secret_encrypted'),
    previousWebhookSecretExpiresAt: timestamp('previous_webhook_secret_expires_at', { withTimezone: true }),
    /**
     * The partner's GSTIN as an e-commerce operator (a TCS registration), when its app collects the
     * payment: the sales made through it are reported in GSTR-1 Table 14 against it (decision 0029).
     */
    ecoGstin: text('eco_gstin'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('partners_name_uq').on(sql`lower(${t.name})`)],
)

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.id),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    name: text('name').notNull().default('default'),
    keyHash: text('key_hash').notNull(),
    /** The first characters of the key, shown to operators so they can tell keys apart. */
    keyPrefix: text('key_prefix').notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Written in batches (at most once a minute a key), never on the request path. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_uq').on(t.keyHash),
    index('api_keys_partner_idx').on(t.partnerId),
    index('api_keys_active_partner_catalog_idx').on(t.partnerId, t.catalogId).where(sql`revoked_at is null`),
  ],
)
