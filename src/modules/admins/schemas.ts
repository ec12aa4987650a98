// Request and response schemas of the admins module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Email } from '../../http/schemas.ts'
import { ADMIN_ROLES } from './schema.sql.ts'

export const LoginBody = Type.Object({ email: Email(), password: Type.String({ minLength: 1, maxLength: 200 }) })

export const AdminSession = Type.Object({
  accessToken: Type.String(),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer(),
  admin: Type.Object({
    id: Type.String(),
    email: Type.String(),
    role: Type.Enum(ADMIN_ROLES),
    mustChangePassword: Type.Boolean({ description: 'Signed in with a temporary password (an invitation or a reset): set your own (PUT /admin/me/password)' }),
  }),
})

/** A back-office account as the People screen lists it (never its password). */
export const Person = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.Enum(ADMIN_ROLES),
  isActive: Type.Boolean(),
  mustChangePassword: Type.Boolean({ description: 'Has a temporary password it has not changed yet' }),
  createdAt: Type.String({ format: 'date-time' }),
})
export const PersonWithPassword = Type.Object({
  admin: Person,
  temporaryPassword: Type.String({ description: 'Shown this once: give it to the person, who sets their own after signing in' }),
})
export const InviteBody = Type.Object({ email: Email(), role: Type.Enum(ADMIN_ROLES) })
/** One or both (an empty change is a 400 naming them). */
export const PersonChanges = Type.Object({ role: Type.Optional(Type.Enum(ADMIN_ROLES)), isActive: Type.Optional(Type.Boolean({ description: 'false ends every session of the account' })) })
export const PersonParams = Type.Object({ adminId: Type.String({ minLength: 1, maxLength: 100 }) })
export const OwnPasswordBody = Type.Object({ currentPassword: Type.String({ minLength: 1, maxLength: 200 }), newPassword: Type.String({ minLength: 12, maxLength: 200 }) })
