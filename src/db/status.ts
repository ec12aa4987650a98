import { sql } from 'drizzle-orm'
import type { Db } from './client.ts'

/** True before anything was created: no partner and no admin. */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const rows = await db.execute<{ empty: boolean }>(
    sql`select not exists (select 1 from partners) and not exists (select 1 from admin_users) as empty`,
  )
  const list = (Array.isArray(rows) ? rows : (rows as unknown as { rows: { empty: boolean }[] }).rows) as { empty: boolean }[]
  return list[0]?.empty === true
}
