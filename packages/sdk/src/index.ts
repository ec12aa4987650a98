// @commerce-api/sdk: a typed client for commerce-api and the check of its partner events.
export { API_PREFIX, createCommerceClient, type CommerceClient, type CommerceClientOptions, type CustomerTokens, type PagedPath, type RetryOptions } from './client.ts'
export { CommerceApiError, CommerceNetworkError, type ErrorBody } from './errors.ts'
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_OPERATIONS } from './operations.ts'
export type { components, operations, paths, webhooks } from './openapi.ts'
export {
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  verifyWebhook,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.ts'
