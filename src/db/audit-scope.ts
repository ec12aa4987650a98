// Who is writing, for the audit log (issue #39, decision 0033). A back-office write request runs
// its handler inside `runAudited`; every transaction begun inside it (db/client.ts) first sets the
// transaction-local setting `commerce.audit` to this JSON, and the database's trigger on each
// audited table records the change with it, in the same transaction. Outside a back-office write
// (customers, partners, workers) nothing is set and the trigger does not fire.
import { AsyncLocalStorage } from 'node:async_hooks'

export interface AuditActor {
  actorId: string
  actorEmail: string
  /** The request's operation, e.g. adminUpdateOrderStatus. */
  action: string
  requestId: string
  /** ISO time the request began, by the service's clock. */
  at: string
}

interface Scope {
  setting: string
  /** False once the handler has answered: work it left running (a worker it woke) is not its. */
  open: boolean
}

const scopes = new AsyncLocalStorage<Scope>()

/** Runs a back-office write's handler with its actor in scope for the transactions it begins. */
export async function runAudited<T>(actor: AuditActor, handler: () => Promise<T>): Promise<T> {
  const scope: Scope = { setting: JSON.stringify(actor), open: true }
  try {
    return await scopes.run(scope, handler)
  } finally {
    scope.open = false
  }
}

/** The `commerce.audit` setting for a transaction begun now; null outside a back-office write. */
export function auditSetting(): string | null {
  const scope = scopes.getStore()
  return scope?.open ? scope.setting : null
}
