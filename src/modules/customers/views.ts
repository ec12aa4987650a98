// A customer as the API shows it.
import { users } from './schema.sql.ts'

export type Customer = typeof users.$inferSelect

export function toUser(row: Customer) {
  return { id: row.id, partnerId: row.partnerId, phone: row.phone, name: row.name, email: row.email, role: row.role }
}
