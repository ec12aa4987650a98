// What the /admin GST route files share: their dependencies, the role ADMIN guard (registering a
// GSTIN and filing are legal acts), OpenAPI tag and security.
import type { Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import type { TaxService } from './service.ts'

export interface TaxAdminDeps {
  tax: TaxService
  guards: Guards
}

/** The options of a role ADMIN route, spread in first: its guard. */
export const adminOnlyOf = (guards: Guards) => ({ preValidation: guards.admin() })
export const tags = ['Admin: GST']
export const sec = security.admin
