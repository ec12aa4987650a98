// The cod-conversion flow (issue #25, #40): a confirmed cash-on-delivery order paid online instead.
// Its quote and the captured payment's effect on the order, lines, tax documents and events
// (conversion.ts), the requests that open its payment (desk.ts) and their routes (routes.ts).
export { CodConversion } from './desk.ts'
export { codConversionRoutes, partnerCodConversionRoutes } from './routes.ts'
export { convertPaidCodOrder } from './conversion.ts'
