// The audit module's own table: who changed what in the back office, and the values before and
// after (issue #39, decision 0033). Rows are written by the database itself, by the trigger
// `audit_record` on the audited tables (migration 0030), in the transaction that made the change.
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** The kinds of record the trigger records (migration 0030's list of audited tables). */
export const OBJECT_TYPES = [
  'order', 'order_item', 'refund', 'shipment', 'ndr_action', 'return', 'ticket', 'ticket_message', 'customer', 'ledger_entry', 'catalog', 'category', 'product', 'product_variant', 'location', 'inventory_level',
  'partner', 'api_key', 'partner_pricing', 'cod_rules', 'cod_blocked_pincode', 'coupon', 'delivery_zone', 'zone_rule', 'gst_registration', 'gst_seller', 'admin',
] as const
export type ObjectType = (typeof OBJECT_TYPES)[number]

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** When the request that made the change began (the service's clock). */
    at: timestamp('at', { withTimezone: true }).notNull(),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    /** The operation (the OpenAPI operationId) of the request, e.g. adminUpdateOrderStatus. */
    action: text('action').notNull(),
    requestId: text('request_id').notNull(),
    /** order, order_item, product, customer, coupon...: the kind of record changed. */
    objectType: text('object_type').$type<ObjectType>().notNull(),
    objectId: text('object_id').notNull(),
    /** The record this one belongs to (an order line's order, a ledger entry's customer); null for none. */
    relatedId: text('related_id'),
    operation: text('operation').$type<'INSERT' | 'UPDATE' | 'DELETE'>().notNull(),
    /** The changed columns' values before (null for an insert); secrets and hashes never. */
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_object_idx').on(t.objectId, t.at),
    index('audit_log_related_idx').on(t.relatedId, t.at),
    index('audit_log_actor_idx').on(t.actorId, t.at),
    index('audit_log_request_idx').on(t.requestId),
  ],
)
