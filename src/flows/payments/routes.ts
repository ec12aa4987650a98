// Provider callbacks (POST /payments/webhooks/{provider}) and the sandbox checkout page.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import { security } from '../../http/schemas.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { notFound } from '../../lib/errors.ts'
import { formatPaise } from '../../lib/money.ts'
import type { Database } from '../../db/client.ts'
import type { PaymentService } from './service.ts'
import { findPaymentBySession, type PaymentProvider, type SandboxAction, type SandboxProvider } from '../../modules/payments/index.ts'
import { SandboxActionParams, SandboxActionResult, SessionParams, WebhookParams, WebhookReceipt } from './schemas.ts'
import { findOrderById } from '../../modules/orders/index.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
/** A value as a JavaScript literal inside <script>: JSON, with `<` escaped so `</script>` cannot end it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

export const paymentRoutes: FastifyPluginAsyncTypebox<{
  payments: PaymentService
  provider: PaymentProvider
  sandbox: SandboxProvider | null
  database: Database
}> = async (app, { payments, provider, sandbox, database }) => {
  // Signatures are over the exact bytes the provider sent: keep the raw body in this scope (in place
  // of the app's JSON parser, src/app.ts).
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  webhookRoutes(app, { payments, provider })
  if (!sandbox) return
  sandboxCheckoutRoutes(app, { payments, sandbox, database })
}

/** The payment and payout providers' callbacks. */
export function webhookRoutes(app: RouteApp, { payments, provider }: { payments: PaymentService; provider: PaymentProvider }): void {
  app.post(
    '/payments/webhooks/:provider',
    {
      schema: {
        operationId: 'receivePaymentWebhook',
        tags: ['Payments'],
        security: security.public,
        summary: 'Payment provider callbacks: signature-verified, applied once per provider event id, in any order',
        params: WebhookParams,
        response: { 200: Envelope(WebhookReceipt), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      if (request.params.provider !== provider.name) throw notFound('Payment provider')
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('')
      return ok(await payments.handleWebhook(raw, request.headers), 'Webhook received')
    },
  )

  app.post(
    '/payouts/webhooks/:provider',
    {
      schema: {
        operationId: 'receivePayoutWebhook',
        tags: ['Payments'],
        security: security.public,
        summary: 'Payout provider callbacks (RazorpayX payout.processed, payout.failed, payout.rejected, payout.reversed): signature-verified, applied once per event id',
        params: WebhookParams,
        response: { 200: Envelope(WebhookReceipt), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const provider = payments.payouts.provider
      // The sandbox pays at once and has no callbacks.
      if (!provider || provider.name === 'sandbox' || request.params.provider !== provider.name) throw notFound('Payout provider')
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('')
      return ok(await payments.payouts.handleWebhook(raw, request.headers), 'Webhook received')
    },
  )
}

/** The sandbox checkout page and what its buttons call (registered only with the sandbox provider). */
export function sandboxCheckoutRoutes(app: RouteApp, { payments, sandbox, database }: { payments: PaymentService; sandbox: SandboxProvider; database: Database }): void {
  const session = async (sessionId: string) => {
    const payment = await findPaymentBySession(database.db, 'sandbox', sessionId)
    if (!payment) throw notFound('Checkout session')
    const order = (await findOrderById(database.db, payment.orderId))!
    return { payment, order }
  }

  app.get(
    '/sandbox/checkout/:sessionId',
    {
      schema: {
        operationId: 'getSandboxCheckoutPage',
        documentedAnswer: ['text/html'],
        tags: ['Payments'],
        security: security.public,
        summary: 'The sandbox checkout page: Pay, Fail or Close a payment as a customer would',
        params: SessionParams,
      },
    },
    async (request, reply) => {
      const { payment, order } = await session(request.params.sessionId)
      reply.type('text/html; charset=utf-8')
      return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox checkout · ${escapeHtml(order.orderNumber)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.2rem;margin:.3rem}#status{margin-top:1rem;font-weight:600}</style>
</head><body>
<h1>Sandbox checkout</h1>
<p>Order <strong>${escapeHtml(order.orderNumber)}</strong></p>
<p>Amount <strong id="amount">₹${formatPaise(payment.amount)}</strong></p>
<p>Payment status <strong id="payment-status">${escapeHtml(payment.status)}</strong></p>
<button id="pay">Pay</button><button id="fail">Fail</button><button id="close">Close</button>
<p id="status" role="status"></p>
<script>
const returnUrl = ${scriptJson(order.paymentReturnUrl ?? null)};
const sessionId = ${scriptJson(request.params.sessionId)};
for (const action of ['pay', 'fail', 'close']) {
  document.getElementById(action).addEventListener('click', async () => {
    const res = await fetch('/api/v1/sandbox/checkout/' + encodeURIComponent(sessionId) + '/' + action, { method: 'POST' });
    const body = await res.json();
    const status = res.ok ? body.data.paymentStatus : 'ERROR';
    document.getElementById('payment-status').textContent = status;
    document.getElementById('status').textContent = res.ok ? body.data.message : (body.message || 'Error');
    if (res.ok && returnUrl) setTimeout(() => {
      const back = new URL(returnUrl);
      back.searchParams.set('orderId', body.data.orderId);
      back.searchParams.set('paymentStatus', status);
      location.href = back.toString();
    }, 800);
  });
}
</script>
</body></html>`
    },
  )

  const messages: Record<SandboxAction, string> = { pay: 'Payment successful', fail: 'Payment failed', close: 'Checkout closed' }
  app.post(
    '/sandbox/checkout/:sessionId/:action',
    {
      schema: {
        operationId: 'submitSandboxCheckoutAction',
        tags: ['Payments'],
        security: security.public,
        summary: 'What the sandbox page buttons call: sends a signed provider callback through the webhook path',
        params: SandboxActionParams,
        response: {
          200: Envelope(SandboxActionResult),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => {
      const { payment } = await session(request.params.sessionId)
      const action = request.params.action
      const event = sandbox.eventFor(action, { sessionId: request.params.sessionId, amount: payment.amount, currency: payment.currency })
      const signed = sandbox.signedEvent(event)
      await payments.handleWebhook(signed.rawBody, signed.headers)
      const after = await session(request.params.sessionId)
      return ok(
        { orderId: after.order.id, paymentId: after.payment.id, paymentStatus: after.payment.status, orderStatus: after.order.status, message: messages[action] },
        messages[action],
      )
    },
  )
}

