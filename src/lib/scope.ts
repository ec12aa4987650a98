// Whose rows a list may show. A customer's scope is made only from a verified credential (the auth
// module makes it when it checks a token); the back office sees every partner, or one it names.
// Repositories that serve lists take a scope as a required argument, never as optional filter
// fields: a filter field that is empty or missing drops its condition, and a spread query string
// once used that to show a customer every partner's returns. The brand makes a scope impossible to
// write as an object literal, and customerScope() refuses an empty tenant at run time too.
declare const verified: unique symbol

export interface CustomerScope {
  readonly kind: 'customer'
  readonly partnerId: string
  readonly userId: string
  readonly [verified]: true
}

export interface BackOfficeScope {
  readonly kind: 'back-office'
  /** One partner's rows, or null for every partner's. */
  readonly partnerId: string | null
  /** One customer's rows (the back office's customer view), or null for every customer's. */
  readonly userId: string | null
}

/** A partner's own server: every row of that partner. Only the partner guard makes one. */
export interface PartnerScope {
  readonly kind: 'partner'
  readonly partnerId: string
  readonly [verified]: true
}

export type ListScope = CustomerScope | PartnerScope | BackOfficeScope

export function customerScope(partnerId: string, userId: string): CustomerScope {
  if (!partnerId || !userId) throw new Error('a customer scope needs both a partner and a customer')
  return { kind: 'customer', partnerId, userId } as CustomerScope
}

export function partnerScope(partnerId: string): PartnerScope {
  if (!partnerId) throw new Error('a partner scope needs a partner')
  return { kind: 'partner', partnerId } as PartnerScope
}

/** Whether a row (its partner, and its customer where it has one) is inside a scope: else it answers 404. */
export function inScope(scope: ListScope, row: { partnerId: string; userId?: string }): boolean {
  if (scope.partnerId !== null && row.partnerId !== scope.partnerId) return false
  if (scope.kind === 'customer') return row.userId === scope.userId
  if (scope.kind === 'back-office' && scope.userId !== null) return row.userId === scope.userId
  return true
}

export function backOfficeScope(partnerId: string | undefined, userId?: string): BackOfficeScope {
  if (partnerId === '' || userId === '') throw new Error('an empty id names nobody')
  return { kind: 'back-office', partnerId: partnerId ?? null, userId: userId ?? null }
}
