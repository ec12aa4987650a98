// The signature partners verify: `x-commerce-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
// `<t>.<raw body>` with the partner's webhook secret (src/lib/signature.ts). While a rotation's
// overlap lasts there are two `v1` (the new and the previous secret), so a receiver that still holds
// the previous secret keeps accepting events until it deploys the new one. docs/webhooks.md shows
// the check in full.
export { signPayload, verifySignature } from '../../lib/signature.ts'

export const SIGNATURE_HEADER = 'x-commerce-signature'
export const EVENT_ID_HEADER = 'x-commerce-event-id'
export const EVENT_TYPE_HEADER = 'x-commerce-event-type'
