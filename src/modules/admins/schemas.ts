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
  admin: Type.Object({ id: Type.String(), email: Type.String(), role: Type.Enum(ADMIN_ROLES) }),
})
