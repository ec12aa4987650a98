// The auth module: customer sessions and refresh-token families (tables auth_sessions,
// refresh_tokens), customer tokens for partner servers, and the token signer the back office's
// tokens use too. What other modules and app.ts use of it is exported here.
export { AuthService, CUSTOMER_BLOCKED, type CustomerIdentity } from './service.ts'
export { authRoutes } from './routes.ts'
export type { TokenSigner } from './tokens.ts'
