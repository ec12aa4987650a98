// The WHERE conditions of a list scope (src/lib/scope.ts) over a table's tenant columns.
import { eq, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { ListScope } from '../lib/scope.ts'

export function scopeConditions(scope: ListScope, columns: { partnerId: PgColumn; userId: PgColumn }): SQL[] {
  if (scope.kind === 'customer') return [eq(columns.partnerId, scope.partnerId), eq(columns.userId, scope.userId)]
  if (scope.kind === 'partner') return [eq(columns.partnerId, scope.partnerId)]
  return [
    ...(scope.partnerId === null ? [] : [eq(columns.partnerId, scope.partnerId)]),
    ...(scope.userId === null ? [] : [eq(columns.userId, scope.userId)]),
  ]
}
