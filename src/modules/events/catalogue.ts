// The partner event catalogue as schemas (docs/webhooks.md, "Event catalogue"): what each event's
// `data` carries, for the OpenAPI document's `webhooks` section (decision 0026) and the SDK's types.
// The fields listed stay; the objects beside them (`order`, `return`, `ticket`…) are the API's own
// answers at the moment the event was written, described here by reference to that route.
import { type TSchema, Type } from 'typebox'
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from './signing.ts'

/** Every type of event a partner receives, in the order of docs/webhooks.md's table. */
const Gstin = Type.String({ description: 'The GSTIN of the registration that issued the document', examples: ['27AAPFU0939F1ZV'] })

export const EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'payment.succeeded',
  'payment.failed',
  'payment.user_dropped',
  'refund.succeeded',
  'refund.failed',
  'return.created',
  'return.status_changed',
  'ticket.created',
  'ticket.message.created',
  'ticket.status_changed',
  'customer.created',
  'invoice.created',
  'credit_note.created',
  'bill_of_supply.created',
  'shipment.created',
  'shipment.updated',
  'order.items_cancelled',
  'order.converted_to_prepaid',
  'webhook.test',
] as const

export type EventType = (typeof EVENT_TYPES)[number]

const Rupees = (what: string) => Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: `${what}, rupees with two decimals`, examples: ['798.00'] })
const Id = (prefix: string, what: string) => Type.String({ description: what, examples: [`${prefix}_01JD3Q8Z4K7M2X9R6T1V0B8C5N`] })
const AnswerOf = (route: string) => Type.Object({}, { additionalProperties: true, description: `As ${route} answers it when the event is written` })

const OrderRef = {
  orderId: Id('ord', 'The order'),
  orderNumber: Type.String({ examples: ['CM-7K3P-9QX2'] }),
}
const OrderObject = { order: Type.Optional(AnswerOf('GET /orders/{orderId}')) }
const OrderStatus = Type.String({ description: 'An order status (docs/orders.md)', examples: ['CONFIRMED'] })

const DATA: Record<EventType, { summary: string; data: TSchema }> = {
  'order.created': {
    summary: 'An order is placed (also a replacement order, with replacementFor)',
    data: Type.Object({
      ...OrderRef,
      status: OrderStatus,
      paymentMode: Type.Enum(['PREPAID', 'COD']),
      totalAmount: Rupees('The order total'),
      amountPayable: Rupees('What is left to pay after Wallet Cash and Reward Points'),
      replacementFor: Type.Optional(Id('ord', 'The order this one replaces')),
      ...OrderObject,
    }),
  },
  'order.status_changed': {
    summary: 'Any move of the order machine: payment confirmation, packing, shipping, delivery, cancellation, expiry',
    data: Type.Object({ ...OrderRef, from: OrderStatus, status: OrderStatus, paymentStatus: Type.String({ examples: ['PAID'] }), ...OrderObject }),
  },
  'payment.succeeded': {
    summary: 'A provider payment succeeded',
    data: Type.Object({ ...OrderRef, paymentId: Id('pay', 'The payment'), amount: Rupees('The amount paid'), ...OrderObject }),
  },
  'payment.failed': {
    summary: 'A provider payment failed',
    data: Type.Object({ ...OrderRef, paymentId: Id('pay', 'The payment'), reason: Type.String({ examples: ['Card declined'] }), ...OrderObject }),
  },
  'payment.user_dropped': {
    summary: 'The customer closed the provider checkout',
    data: Type.Object({ ...OrderRef, paymentId: Id('pay', 'The payment'), ...OrderObject }),
  },
  'refund.succeeded': {
    summary: 'A provider refund or a payout (the cash of a COD order to a UPI ID or bank account) finished, or the Wallet Cash part of a cancellation or a return was credited (method WALLET_CREDIT)',
    data: Type.Object({
      orderId: Id('ord', 'The order'),
      orderNumber: Type.Optional(Type.String({ examples: ['CM-7K3P-9QX2'] })),
      refundId: Id('ref', 'The refund'),
      amount: Rupees('The amount refunded'),
      returnId: Type.Optional(Id('ret', 'The return refunded, for a return’s Wallet Cash')),
      method: Type.Optional(Type.Literal('WALLET_CREDIT')),
      refund: Type.Optional(AnswerOf('GET /orders/{orderId} (refunds[])')),
      ...OrderObject,
    }),
  },
  'refund.failed': {
    summary: 'A provider refund or a payout failed',
    data: Type.Object({
      ...OrderRef,
      refundId: Id('ref', 'The refund'),
      amount: Rupees('The amount of the refund'),
      failureReason: Type.Optional(Type.String({ description: 'Why, in words the back office can act on', examples: ['The beneficiary account is closed'] })),
      ...OrderObject,
    }),
  },
  'return.created': {
    summary: 'A customer asks for a return',
    data: Type.Object({
      returnId: Id('ret', 'The return'),
      orderId: Id('ord', 'The order'),
      status: Type.Literal('REQUESTED'),
      requestedResolution: Type.String({ examples: ['WALLET_CREDIT'] }),
      return: Type.Optional(AnswerOf('GET /returns/{returnId}')),
    }),
  },
  'return.status_changed': {
    summary: 'Any move of the return machine',
    data: Type.Object({
      returnId: Id('ret', 'The return'),
      orderId: Id('ord', 'The order'),
      from: Type.String({ examples: ['APPROVED'] }),
      status: Type.String({ examples: ['REFUNDED'] }),
      return: Type.Optional(AnswerOf('GET /returns/{returnId}')),
    }),
  },
  'ticket.created': {
    summary: 'A customer opens a support ticket',
    data: Type.Object({ ticketId: Id('tkt', 'The ticket'), orderId: Type.Union([Type.String(), Type.Null()]), ticket: AnswerOf('GET /support/tickets/{ticketId}') }),
  },
  'ticket.message.created': {
    summary: 'A message on a ticket, from the customer, the back office or the partner’s support',
    data: Type.Object({ ticketId: Id('tkt', 'The ticket'), orderId: Type.Union([Type.String(), Type.Null()]), message: AnswerOf('GET /support/tickets/{ticketId}/messages (one item)') }),
  },
  'ticket.status_changed': {
    summary: 'A ticket moves (opening is ticket.created)',
    data: Type.Object({
      ticketId: Id('tkt', 'The ticket'),
      orderId: Type.Union([Type.String(), Type.Null()]),
      from: Type.String({ examples: ['OPEN'] }),
      status: Type.String({ examples: ['IN_PROGRESS'] }),
      by: Type.String({ description: 'Who moved it', examples: ['PARTNER:prt_01JD3Q8Z4K7M2X9R6T1V0B8C5N'] }),
      ticket: AnswerOf('GET /support/tickets/{ticketId}'),
    }),
  },
  'customer.created': {
    summary: 'A partner’s first customer token for a mobile creates the customer',
    data: Type.Object({ customerId: Id('usr', 'The customer'), customer: AnswerOf('POST /auth/customer-token (user)') }),
  },
  'invoice.created': {
    summary: 'A tax invoice is issued (one per GST registration of the order with taxable lines)',
    data: Type.Object({ ...OrderRef, documentId: Id('doc', 'The tax document'), gstin: Gstin, number: Type.String({ examples: ['IN/26-27/0000123'] }), total: Rupees('The invoice total'), document: AnswerOf('GET /orders/{orderId}/invoice') }),
  },
  'bill_of_supply.created': {
    summary: 'A bill of supply is issued: the nil-rated goods of an order (one per GST registration), instead of a tax invoice',
    data: Type.Object({ ...OrderRef, documentId: Id('doc', 'The tax document'), gstin: Gstin, number: Type.String({ examples: ['BS/26-27/0000042'] }), total: Rupees('The bill of supply total'), document: AnswerOf('GET /orders/{orderId}/invoice (billsOfSupply)') }),
  },
  'credit_note.created': {
    summary: 'A credit note is issued: a cancellation after invoicing, or a refunded return; by the registration of the document it reverses',
    data: Type.Object({ ...OrderRef, documentId: Id('doc', 'The tax document'), gstin: Gstin, number: Type.String({ examples: ['CN/26-27/0000007'] }), total: Rupees('The credit note total'), document: AnswerOf('GET /orders/{orderId}/invoice (with invoice and reason)') }),
  },
  'shipment.created': {
    summary: 'A parcel is booked with a carrier (to the customer, or a return’s pickup)',
    data: Type.Object({ ...OrderRef, shipmentId: Id('shp', 'The parcel'), status: Type.String({ examples: ['CREATED'] }), shipment: AnswerOf('GET /orders/{orderId} (shipments[])') }),
  },
  'shipment.updated': {
    summary: 'A tracking event moves a parcel (also to LOST or DAMAGED), the back office cancels it or resolves its loss, or a non-delivery action (re-attempt, return) is sent to the carrier',
    data: Type.Object({
      ...OrderRef,
      shipmentId: Id('shp', 'The parcel'),
      from: Type.String({ examples: ['IN_TRANSIT'] }),
      status: Type.String({ examples: ['OUT_FOR_DELIVERY'] }),
      shipment: AnswerOf('GET /orders/{orderId} (shipments[])'),
      ndrAction: Type.Optional(
        Type.Object(
          {
            action: Type.Union([Type.Literal('REATTEMPT'), Type.Literal('RTO')]),
            deferredDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
            addressLine: Type.Union([Type.String(), Type.Null()]),
            phone: Type.Union([Type.String(), Type.Null()]),
            note: Type.Union([Type.String(), Type.Null()]),
            requestedBy: Type.String({ examples: ['ADMIN:adm_01JD4Y3A10'] }),
          },
          { description: 'The non-delivery action sent to the carrier, on the event that records it' },
        ),
      ),
      resolution: Type.Optional(
        Type.Object(
          {
            action: Type.Union([Type.Literal('RESHIP'), Type.Literal('REFUND')]),
            note: Type.Union([Type.String(), Type.Null()]),
            by: Type.String({ examples: ['ADMIN:adm_01JD4Y3A10'] }),
          },
          { description: 'How the back office resolved a LOST or DAMAGED parcel, on the event that records it' },
        ),
      ),
    }),
  },
  'order.items_cancelled': {
    summary: 'Some units are cancelled before shipping, a parcel of a split order comes back (RTO), or a lost or damaged parcel is refunded',
    data: Type.Object({
      ...OrderRef,
      items: Type.Array(Type.Object({ orderItemId: Type.String(), quantity: Type.Integer({ minimum: 1 }), amount: Rupees('The units’ amount'), rewardPoints: Type.Integer() })),
      amount: Rupees('The amount of the units cancelled'),
      refunded: Type.Object({ originalPayment: Rupees('Back to the original payment'), walletCash: Rupees('Back as Wallet Cash') }),
      cashToCollectReducedBy: Rupees('The COD cash no longer to collect'),
      rewardPointsReturned: Type.Integer(),
      reason: Type.String(),
      by: Type.String({ description: 'Who cancelled', examples: ['CUSTOMER'] }),
      ...OrderObject,
    }),
  },
  'order.converted_to_prepaid': {
    summary: 'A COD order was paid online instead (after its payment.succeeded); the status does not change',
    data: Type.Object({
      ...OrderRef,
      paymentId: Id('pay', 'The payment'),
      amountPaid: Rupees('Paid online'),
      codFeeWaived: Rupees('The COD fee no longer charged'),
      prepaidDiscount: Rupees('The prepaid discount given'),
      saving: Rupees('codFeeWaived + prepaidDiscount'),
      paymentMode: Type.Literal('PREPAID'),
      paymentStatus: Type.Literal('PAID'),
      ...OrderObject,
    }),
  },
  'webhook.test': {
    summary: 'Sent from the back office (POST /admin/partners/{partnerId}/webhook/test)',
    data: Type.Object({ message: Type.String({ examples: ['Test event from the back office'] }) }),
  },
}

/** The body of every delivery: `{id, type, createdAt, data}` (dispatcher.ts webhookBody). */
export const eventBody = (type: string, data: TSchema) =>
  Type.Object(
    {
      id: Type.String({ description: 'The event id: receivers dedupe by it', examples: ['evt_01JD3Q8Z5N7M4K2X9R6T1V0B8C'] }),
      type: Type.Literal(type),
      createdAt: Type.String({ format: 'date-time', examples: ['2026-11-23T04:30:00.000Z'] }),
      data,
    },
    { title: `${type} event` },
  )

/** The ping a partner or the back office sends now (POST …/webhook/ping): not through the outbox. */
const PING = { summary: 'A signed ping, sent at once from POST /partner/webhook/ping or the back office', data: Type.Object({ partnerId: Type.String() }) }

const plain = <T>(schema: T): T => JSON.parse(JSON.stringify(schema)) as T

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type (and the ping), each a POST to the
 * partner's URL with the signed body. The receiver's answer: any 2xx within the timeout.
 */
export function eventWebhooks(): Record<string, unknown> {
  const headers = [
    {
      in: 'header',
      name: SIGNATURE_HEADER,
      required: true,
      description:
        '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the webhook secret>`; during a secret rotation a second `v1` of the previous secret. ' +
        'Accept when any v1 matches and t is within 5 minutes (docs/webhooks.md; the SDK’s verifyWebhook).',
      schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64}){1,4}$' },
      example: 't=1795000000,v1=5d41402abc4b2a76b9719d911017c592ae2f1c3a5a0f9b7e8d6c4b2a09876543',
    },
    { in: 'header', name: EVENT_ID_HEADER, required: true, description: 'The event id (as in the body)', schema: { type: 'string' } },
    { in: 'header', name: EVENT_TYPE_HEADER, required: true, description: 'The event type (as in the body)', schema: { type: 'string' } },
  ]
  const entries = [...EVENT_TYPES.map((type) => [type, DATA[type]] as const), ['ping', PING] as const]
  return Object.fromEntries(
    entries.map(([type, { summary, data }]) => [
      type,
      {
        post: {
          operationId: `on${type.split(/[._]/).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`,
          summary,
          tags: ['Partner webhooks'],
          security: [],
          parameters: headers,
          requestBody: { required: true, content: { 'application/json': { schema: plain(eventBody(type, data)) } } },
          responses: {
            '200': { description: 'Any 2xx within WEBHOOK_TIMEOUT_MS (5 s) delivers the event; anything else, or no answer, is retried' },
            '400': { description: 'A receiver refusing the event (for example a bad signature): the delivery is retried, and the event ends FAILED after 24 hours' },
          },
        },
      },
    ]),
  )
}
