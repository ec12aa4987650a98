import { sql } from 'drizzle-orm'
import { type Db, queryRows } from './client.ts'

/** True before anything was created: no partner and no admin. */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const rows = await queryRows<{ empty: boolean }>(
    db,
    sql`select not exists (select 1 from partners) and not exists (select 1 from admin_users) as empty`,
  )
  return rows[0]?.empty === true
}
