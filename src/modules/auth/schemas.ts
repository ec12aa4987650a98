// Request and response schemas of the auth module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'

export const User = Type.Object({
  id: Type.String(),
  partnerId: Type.String(),
  phone: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String(),
})
export const TokenPair = Type.Object({
  accessToken: Type.String(),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'Seconds until the access token expires' }),
  refreshToken: Type.String(),
  user: User,
})
export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 200 }) })
