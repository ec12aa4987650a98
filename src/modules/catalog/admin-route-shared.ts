// What the /admin catalog route files share: their dependencies, guard (roles CATALOG or ADMIN),
// OpenAPI tag and security.
import type { Guards } from '../../http/guards.ts'
import { security } from '../../http/schemas.ts'
import type { CatalogAdminService } from './admin-service.ts'

export interface CatalogAdminDeps {
  admin: CatalogAdminService
  guards: Guards
}

/** The options every /admin catalog route spreads in first: its guard. */
export const catalogAdminCommon = (guards: Guards) => ({ preValidation: guards.admin('CATALOG') })
export const tags = ['Admin: catalog']
export const sec = security.admin
