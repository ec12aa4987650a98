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

export type ListScope = CustomerScope | BackOfficeScope

export function customerScope(partnerId: string, userId: string): CustomerScope {
  if (!partnerId || !userId) throw new Error('a customer scope needs both a partner and a customer')
  return { kind: 'customer', partnerId, userId } as CustomerScope
}

export function backOfficeScope(partnerId: string | undefined, userId?: string): BackOfficeScope {
  if (partnerId === '' || userId === '') throw new Error('an empty id names nobody')
  return { kind: 'back-office', partnerId: partnerId ?? null, userId: userId ?? null }
}
