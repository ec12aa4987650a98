// Partners (integrations), their secrets and their API keys: what other modules and app.ts use of
// the module (partners.ts holds it; the back office is admin.ts and admin-routes.ts).
export { activeCatalogIds, anyPartnerExists, partnerHasWebhook, activeCatalogIdsQuery, announceRevocations, API_KEY_CACHE_MS, type ApiKeyAuthenticator, type ApiKeyIdentity, createApiKey, createApiKeyAuthenticator, createPartner, ecoGstinOf, findPartner, findPartnerByName, forgetApiKeys, isActivePartner, type IssuedApiKey, KEY_USAGE_FLUSH_MS, normalizeOrigins, partnerIsActive, partnerReturnOrigins, type PartnerWebhook, partnerWebhooks, revokeApiKey, rotatePartnerSecret, setPartnerReturnOrigins, setPartnerWebhook, verifyPartnerSecret } from './partners.ts'
export { PartnerAdminService } from './admin.ts'
export { partnerAdminRoutes } from './admin-routes.ts'
