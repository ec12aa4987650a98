// The invariant sweep (reliability plan, section 0): SQL checks that must hold after every test,
// whatever the test did. `invariantViolations` answers one readable line per violation; an empty
// list means the database is healthy. createTestApp's close() runs it before dropping the database.
//
// What this schema can express of I1-I8:
//   I1 no oversell: stock never negative; an order's reservation is released exactly when it is cancelled.
//   I2 one effect per request: one order (or payment) per idempotency key, one key per order, at most
//      one unrefunded charge per order, at most one coupon use per order.
//   I3 money conserved: ledger balances >= 0; every order/return ledger entry matches what the order
//      or return says (amount, kind, customer); Wallet Cash refunds match their ledger credits.
//      (Debits for other reasons are not refused: tests debit through debitLedger with their own.)
//   I4 refunds within what was paid: the refunds_within_paid trigger's rule (drizzle/0010), per
//      payment, per return, per returned unit and for Reward Points given back.
//   I5 no half-written order: lines, history, order.created event and consistent amounts.
//   I6 provider events applied once and forward only: payment vs order status, the order machine.
//   I7 tenancy: every row that points at another agrees on partner and customer.
//   I8 (no 5xx on bad input) is a property of responses, not of rows: the HTTP tests cover it.
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { type Executor, queryRows } from '../../src/db/client.ts'

interface Check {
  id: string
  rule: string
  /** Returns a text column `detail`, one row per violation. */
  query: string
}

// Orders created by an approved REPLACEMENT return: zero-value, no idempotency key, no payment.
const REPLACEMENTS = `
  replacements as (
    select h.order_id as id from order_status_history h
     where h.from_status is null and h.actor = 'SYSTEM' and h.note like 'Replacement%'
    union
    select replacement_order_id from return_requests where replacement_order_id is not null
  )`

// The order machine of src/modules/orders/lifecycle.ts (NEXT_STATUSES), plus the first rows.
const MOVES = `
  moves(from_status, to_status) as (values
    ('PENDING_PAYMENT', 'CONFIRMED'), ('PENDING_PAYMENT', 'CANCELLED'),
    ('CONFIRMED', 'PACKED'), ('CONFIRMED', 'CANCELLED'),
    ('PACKED', 'SHIPPED'), ('PACKED', 'CANCELLED'),
    ('SHIPPED', 'OUT_FOR_DELIVERY'), ('OUT_FOR_DELIVERY', 'DELIVERED'),
    ('SHIPPED', 'DELIVERY_FAILED'), ('OUT_FOR_DELIVERY', 'DELIVERY_FAILED'),
    ('DELIVERY_FAILED', 'OUT_FOR_DELIVERY'), ('DELIVERY_FAILED', 'DELIVERED'),
    ('SHIPPED', 'RTO'), ('OUT_FOR_DELIVERY', 'RTO'), ('DELIVERY_FAILED', 'RTO')
  )`

const CHECKS: Check[] = [
  // ---- I1 no oversell ----
  {
    id: 'I1',
    rule: 'products.stock >= 0',
    query: `select 'product ' || id || ' has stock ' || stock as detail from products where stock < 0`,
  },
  {
    id: 'I1',
    rule: 'only a cancelled order, or one returned to origin, has released its reservation',
    query: `select 'order ' || id || ' is ' || status || ' but its reservation was released at ' || released_at as detail
              from orders where released_at is not null and status not in ('CANCELLED', 'RTO')`,
  },
  {
    // cancelOrder always releases (and releasing sets released_at), so a cancelled order that
    // reserved anything (every order has lines; coupon, Wallet Cash, points) must have it set.
    id: 'I1',
    rule: 'a cancelled order, or one returned to origin, has given back what it reserved',
    query: `select 'order ' || o.id || ' is ' || o.status || ' but released_at is null' as detail from orders o
             where o.status in ('CANCELLED', 'RTO') and o.released_at is null
               and (exists (select 1 from order_items i where i.order_id = o.id)
                    or o.wallet_cash_used > 0 or o.reward_points_used > 0 or o.coupon_id is not null)`,
  },
  {
    // Stock kept at locations (decision 0043, step 5): every level is the sum of its ledger's moves.
    id: 'I1',
    rule: "a location's level of a variant is the sum of its inventory moves",
    query: `select 'location ' || l.location_id || ' holds ' || l.on_hand || ' of ' || l.variant_id || ', its moves add up to ' || coalesce(m.total, 0) as detail
              from inventory_levels l
              left join (select location_id, variant_id, sum(quantity) as total from inventory_moves group by location_id, variant_id) m
                on m.location_id = l.location_id and m.variant_id = l.variant_id
             where l.on_hand <> coalesce(m.total, 0)`,
  },
  {
    // ... and a catalog at locations can sell exactly what its locations hold, unit by unit.
    id: 'I1',
    rule: "a catalog at locations has the stock of each unit its levels add up to",
    query: `with units as (
              select p.catalog_id, 'var_' || substr(p.id, 5) as variant_id, p.stock from products p where p.options = '[]'::jsonb
              union all select v.catalog_id, v.id, v.stock from product_variants v),
            held as (select variant_id, sum(on_hand) as total from inventory_levels group by variant_id)
            select 'unit ' || u.variant_id || ' of catalog ' || u.catalog_id || ' has stock ' || u.stock || ', its locations hold ' || coalesce(h.total, 0) as detail
              from units u join catalogs c on c.id = u.catalog_id and c.stock_at_locations
              left join held h on h.variant_id = u.variant_id
             where u.stock <> coalesce(h.total, 0)`,
  },

  // ---- I2 one logical request, one effect ----
  {
    id: 'I2',
    rule: 'one idempotency key per created resource',
    query: `select count(*) || ' keys on route ' || route || ' point at ' || resource_id as detail
              from idempotency_keys where resource_id is not null group by route, resource_id having count(*) > 1`,
  },
  {
    id: 'I2',
    rule: 'a POST /orders key points at an order of its own partner and customer',
    query: `select 'key ' || k.key || ' of customer ' || k.user_id || ' points at ' ||
                   case when k.resource_id is null then 'nothing'
                        when o.id is null then 'missing order ' || k.resource_id
                        else 'order ' || o.id || ' of partner ' || o.partner_id || ', customer ' || o.user_id end as detail
              from idempotency_keys k left join orders o on o.id = k.resource_id
             where k.route = 'POST /orders'
               and (o.id is null or o.partner_id <> k.partner_id or o.user_id <> k.user_id)`,
  },
  {
    id: 'I2',
    rule: 'a POST /orders/{id}/payments key points at a payment of that order, partner and customer',
    query: `select 'key ' || k.key || ' on ' || k.route || ' points at ' ||
                   case when p.id is null then 'missing payment ' || coalesce(k.resource_id, 'null')
                        else 'payment ' || p.id || ' of order ' || p.order_id end as detail
              from idempotency_keys k
              left join payments p on p.id = k.resource_id
              left join orders o on o.id = p.order_id
             where k.route like 'POST /orders/%/payments'
               and (p.id is null or k.route <> 'POST /orders/' || p.order_id || '/payments'
                    or o.partner_id <> k.partner_id or o.user_id <> k.user_id)`,
  },
  {
    // The key is written in the order's own transaction; only the 24-hour purge removes it.
    id: 'I2',
    rule: 'every order (except replacements) has its POST /orders key until the key expires',
    query: `select 'order ' || o.id || ' (created ' || o.created_at || ') has no idempotency key' as detail
              from orders o
             where o.id not in (select id from replacements)
               and o.created_at + interval '24 hours' > $NOW
               and not exists (select 1 from idempotency_keys k where k.route = 'POST /orders' and k.resource_id = o.id)`,
  },
  {
    // A second capture is refunded in the transaction that records it (applySuccess), and a
    // cancellation queues a refund of every capture: a capture without any refund row is a charge.
    id: 'I2',
    rule: 'at most one charge per order (extra captures are refunded; none kept by a cancelled order)',
    query: `select 'order ' || o.id || ' (' || o.status || ') keeps ' || count(*) || ' captured payments without a refund: ' || string_agg(p.id, ', ') as detail
              from payments p join orders o on o.id = p.order_id
             where p.status = 'SUCCEEDED' and not exists (select 1 from refunds r where r.payment_id = p.id)
             group by o.id, o.status
            having count(*) > case when o.status in ('CANCELLED', 'RTO') then 0 else 1 end`,
  },
  {
    id: 'I2',
    rule: 'a coupon is used once per order, by a live order, and counted',
    query: `select 'order ' || o.id || ' (' || o.status || case when o.released_at is null then '' else ', released' end ||
                   ') has ' || count(r.id) || ' redemptions of coupon ' || o.coupon_id as detail
              from orders o left join coupon_redemptions r on r.order_id = o.id and r.coupon_id = o.coupon_id
             where o.coupon_id is not null
             group by o.id, o.status, o.released_at, o.coupon_id
            having count(r.id) <> case when o.released_at is null then 1 else 0 end
            union all
            select 'redemption ' || r.id || ' of coupon ' || r.coupon_id || ' belongs to ' ||
                   coalesce('order ' || o.id || ' of customer ' || o.user_id || ' with coupon ' || coalesce(o.coupon_id, 'none'), 'missing order ' || r.order_id) as detail
              from coupon_redemptions r left join orders o on o.id = r.order_id
             where r.order_id is not null and (o.id is null or o.coupon_id is distinct from r.coupon_id or o.user_id <> r.user_id)
            union all
            select 'coupon ' || c.id || ' used_count ' || c.used_count || ' but ' || count(r.id) || ' redemptions' ||
                   coalesce(' (limit ' || c.total_usage_limit || ')', '') as detail
              from coupons c left join coupon_redemptions r on r.coupon_id = c.id
             group by c.id, c.used_count, c.total_usage_limit
            having c.used_count <> count(r.id) or c.used_count > coalesce(c.total_usage_limit, c.used_count)
            union all
            select 'customer ' || r.user_id || ' used coupon ' || c.id || ' ' || count(*) || ' times (limit ' || c.per_customer_limit || ')' as detail
              from coupon_redemptions r join coupons c on c.id = r.coupon_id
             where c.per_customer_limit is not null
             group by r.user_id, c.id, c.per_customer_limit
            having count(*) > c.per_customer_limit`,
  },

  // ---- I3 money is conserved ----
  {
    id: 'I3',
    rule: 'Wallet Cash and Reward Points balances >= 0',
    query: `select 'customer ' || user_id || ' has ' || kind || ' balance ' || sum(amount) as detail
              from ledger_entries group by user_id, kind having sum(amount) < 0`,
  },
  {
    id: 'I3',
    rule: 'ledger entries are non-zero, of a known kind, of a customer of their partner',
    query: `select 'ledger entry ' || l.id || ' (' || l.kind || ' ' || l.amount || ', partner ' || l.partner_id || ') ' ||
                   case when u.id is null then 'has no customer ' || l.user_id
                        when u.partner_id <> l.partner_id then 'belongs to customer ' || u.id || ' of partner ' || u.partner_id
                        when l.amount = 0 then 'is zero'
                        else 'has an unknown kind' end as detail
              from ledger_entries l left join users u on u.id = l.user_id
             where u.id is null or u.partner_id <> l.partner_id or l.amount = 0 or l.kind not in ('WALLET_CASH', 'REWARD_POINTS')`,
  },
  {
    // Order creation debits exactly wallet_cash_used / reward_points_used; releasing a
    // reservation credits exactly that back once (ORDER_CANCELLED), less what units cancelled
    // before gave back (ORDER_ITEMS_CANCELLED); delivery credits the points earned.
    id: 'I3',
    rule: 'order ledger entries match the order (ORDER_PAYMENT, ORDER_CANCELLED, ORDER_REWARD)',
    query: `with kinds(kind) as (values ('WALLET_CASH'), ('REWARD_POINTS')),
            expected as (
              select o.id, o.user_id, k.kind, r.reason,
                     case when r.reason = 'ORDER_PAYMENT' then -1 else 1 end *
                     case when r.reason = 'ORDER_REWARD' then case when k.kind = 'REWARD_POINTS' then o.reward_points_earned else 0 end
                          when r.reason = 'ORDER_CANCELLED' and o.released_at is null then 0
                          when k.kind = 'WALLET_CASH' then o.wallet_cash_used else o.reward_points_used end
                     - case when r.reason = 'ORDER_CANCELLED' and o.released_at is not null
                            then (select coalesce(sum(l.amount), 0) from ledger_entries l where l.reason = 'ORDER_ITEMS_CANCELLED' and l.reference = o.id and l.kind = k.kind)
                            else 0 end as amount
                from orders o cross join kinds k cross join (values ('ORDER_PAYMENT'), ('ORDER_CANCELLED'), ('ORDER_REWARD')) r(reason)
            ),
            actual as (
              select reference as id, user_id, kind, reason, sum(amount) as amount, count(*) as n
                from ledger_entries where reason in ('ORDER_PAYMENT', 'ORDER_CANCELLED', 'ORDER_REWARD')
               group by reference, user_id, kind, reason
            )
            select coalesce(a.reason, e.reason) || ' ' || coalesce(a.kind, e.kind) || ' of order ' || coalesce(a.id, e.id, 'null') ||
                   case when e.id is null then ' (customer ' || a.user_id || '): no such order of that customer'
                        else ': expected ' || e.amount || ', ledger has ' || coalesce(a.amount, 0) || ' in ' || coalesce(a.n, 0) || ' entries' end as detail
              from expected e full join actual a on a.id = e.id and a.user_id = e.user_id and a.kind = e.kind and a.reason = e.reason
             where e.id is null or coalesce(a.amount, 0) <> e.amount or coalesce(a.n, 0) > 1`,
  },
  {
    id: 'I3',
    rule: 'return ledger entries reference a return of the same customer',
    query: `select 'ledger entry ' || l.id || ' (' || l.reason || ' ' || l.kind || ' ' || l.amount || ') ' ||
                   case when r.id is null then 'references no return: ' || coalesce(l.reference, 'null')
                        else 'belongs to customer ' || l.user_id || ' but return ' || r.id || ' to ' || r.user_id end as detail
              from ledger_entries l left join return_requests r on r.id = l.reference
             where l.reason in ('RETURN_REFUND', 'RETURN_POINTS_BACK', 'RETURN_POINTS_REVERSED')
               and (r.id is null or r.user_id <> l.user_id or r.partner_id <> l.partner_id
                    or (l.reason = 'RETURN_REFUND') <> (l.kind = 'WALLET_CASH'))`,
  },
  {
    // startRefund writes the SUCCEEDED WALLET_CREDIT refund and its RETURN_REFUND credit together.
    id: 'I3',
    rule: 'Wallet Cash refunded for a return equals its RETURN_REFUND credits',
    query: `with refunded as (
              select return_request_id as id, sum(amount) as amount from refunds
               where return_request_id is not null and method = 'WALLET_CREDIT' and status = 'SUCCEEDED' group by return_request_id
            ),
            credited as (
              select reference as id, sum(amount) as amount from ledger_entries where reason = 'RETURN_REFUND' group by reference
            )
            select 'return ' || coalesce(f.id, c.id) || ': WALLET_CREDIT refunds ' || coalesce(f.amount, 0) ||
                   ', Wallet Cash credited ' || coalesce(c.amount, 0) as detail
              from refunded f full join credited c on c.id = f.id
             where coalesce(f.amount, 0) <> coalesce(c.amount, 0)`,
  },
  {
    // settleCancelledUnits (flows/order-moves/partial-cancel.ts) writes the SUCCEEDED WALLET_CREDIT refund of
    // cancelled units (no return) and its ORDER_ITEMS_CANCELLED credit together.
    id: 'I3',
    rule: 'Wallet Cash refunded for cancelled units equals its ORDER_ITEMS_CANCELLED credits; points given back within what was spent',
    query: `with refunded as (
              select order_id as id, sum(amount) as amount from refunds
               where return_request_id is null and method = 'WALLET_CREDIT' and status = 'SUCCEEDED' and reason like 'Items cancelled: %' group by order_id
            ),
            credited as (
              select reference as id, min(user_id) as user_id, coalesce(sum(amount) filter (where kind = 'WALLET_CASH'), 0) as cash,
                     coalesce(sum(amount) filter (where kind = 'REWARD_POINTS'), 0) as points
                from ledger_entries where reason = 'ORDER_ITEMS_CANCELLED' group by reference
            )
            select 'order ' || coalesce(f.id, c.id) || ': WALLET_CREDIT refunds of cancelled units ' || coalesce(f.amount, 0) ||
                   ', Wallet Cash credited ' || coalesce(c.cash, 0) as detail
              from refunded f full join credited c on c.id = f.id
             where coalesce(f.amount, 0) <> coalesce(c.cash, 0)
            union all
            select 'order ' || c.id || ': ' || c.points || ' points given back for cancelled units, of ' || coalesce(o.reward_points_used::text, 'no order') ||
                   ' spent by customer ' || coalesce(o.user_id, '-') || ' (ledger: ' || c.user_id || ')' as detail
              from credited c left join orders o on o.id = c.id
             where o.id is null or c.points > o.reward_points_used or o.user_id <> c.user_id`,
  },
  {
    id: 'I3',
    rule: 'Reward Points given back or taken back for returns stay within what the order spent or earned',
    query: `select 'order ' || o.id || ': returns gave back ' ||
                   coalesce(sum(l.amount) filter (where l.reason = 'RETURN_POINTS_BACK'), 0) || ' of ' || o.reward_points_used ||
                   ' points spent and took back ' || coalesce(-sum(l.amount) filter (where l.reason = 'RETURN_POINTS_REVERSED'), 0) ||
                   ' of ' || o.reward_points_earned || ' earned' as detail
              from orders o join return_requests r on r.order_id = o.id join ledger_entries l on l.reference = r.id
             where l.reason in ('RETURN_POINTS_BACK', 'RETURN_POINTS_REVERSED')
             group by o.id, o.reward_points_used, o.reward_points_earned
            having coalesce(sum(l.amount) filter (where l.reason = 'RETURN_POINTS_BACK'), 0) > o.reward_points_used
                or coalesce(-sum(l.amount) filter (where l.reason = 'RETURN_POINTS_REVERSED'), 0) > o.reward_points_earned`,
  },

  // ---- I4 refunds never exceed what was paid ----
  {
    // The rule of the refunds_within_paid trigger (drizzle/0010_refund_limits.sql), for every order.
    id: 'I4',
    rule: 'refunds within what was paid (provider refunds <= captured; all refunds <= captured + Wallet Cash + COD collected)',
    query: `with paid as (
              select o.id, coalesce(p.amount, 0) as provider_paid,
                     coalesce(p.amount, 0) + o.wallet_cash_used +
                     case when o.payment_mode = 'COD' and o.payment_status in ('PAID', 'PARTIALLY_REFUNDED', 'REFUNDED') then o.amount_payable else 0 end as total_paid
                from orders o left join (select order_id, sum(amount) as amount from payments where status = 'SUCCEEDED' group by order_id) p on p.order_id = o.id
            ),
            refunded as (
              select order_id, coalesce(sum(amount) filter (where method = 'ORIGINAL_PAYMENT'), 0) as provider_refunded, sum(amount) as total_refunded
                from refunds where status <> 'FAILED' group by order_id
            )
            select 'order ' || p.id || ': provider refunds ' || r.provider_refunded || ' of ' || p.provider_paid ||
                   ' captured; all refunds ' || r.total_refunded || ' of ' || p.total_paid || ' paid' as detail
              from paid p join refunded r on r.order_id = p.id
             where r.provider_refunded > p.provider_paid or r.total_refunded > p.total_paid`,
  },
  {
    id: 'I4',
    rule: 'a provider refund refunds a captured payment of its own order, within its amount',
    query: `select 'payment ' || coalesce(p.id, 'null') || ' (' || coalesce(p.status, 'missing') || ', ' || coalesce(p.amount::text, '-') ||
                   ') of order ' || coalesce(p.order_id, '-') || ' has refunds ' || sum(r.amount) || ' from order ' || min(r.order_id) as detail
              from refunds r left join payments p on p.id = r.payment_id
             where r.status <> 'FAILED' and (r.method = 'ORIGINAL_PAYMENT' or r.payment_id is not null)
             group by p.id, p.status, p.amount, p.order_id
            having p.id is null or p.status <> 'SUCCEEDED' or sum(r.amount) > p.amount
                or bool_or(r.order_id <> p.order_id) or bool_or(r.method <> 'ORIGINAL_PAYMENT')`,
  },
  {
    id: 'I4',
    rule: 'a return is refunded at most its approved amount, from its own order',
    query: `select 'return ' || rr.id || ' (' || rr.status || ', approved ' || coalesce(rr.approved_amount::text, 'none') ||
                   ' of ' || rr.requested_amount || ') has refunds ' || sum(f.amount) || ' on order ' || min(f.order_id) as detail
              from refunds f join return_requests rr on rr.id = f.return_request_id
             where f.status <> 'FAILED'
             group by rr.id, rr.status, rr.approved_amount, rr.requested_amount
            having sum(f.amount) > coalesce(rr.approved_amount, rr.requested_amount) or bool_or(f.order_id <> rr.order_id)
                or rr.requested_resolution = 'REPLACEMENT' or rr.status in ('REQUESTED', 'UNDER_REVIEW', 'NEEDS_INFO', 'REJECTED')
            union all
            select 'refund ' || f.id || ' references missing return ' || f.return_request_id as detail
              from refunds f left join return_requests rr on rr.id = f.return_request_id
             where f.return_request_id is not null and rr.id is null`,
  },
  {
    id: 'I4',
    rule: 'units returned never exceed units bought; a return asks what its units cost; each line counts the units of its live returns',
    query: `select 'order item ' || i.id || ' of order ' || i.order_id || ': ' || sum(ri.quantity) || ' of ' || i.quantity || ' units in live returns, ' ||
                   i.cancelled_quantity || ' cancelled' as detail
              from return_items ri join return_requests rr on rr.id = ri.return_request_id join order_items i on i.id = ri.order_item_id
             where rr.status <> 'REJECTED'
             group by i.id, i.order_id, i.quantity, i.cancelled_quantity
            having sum(ri.quantity) + i.cancelled_quantity > i.quantity
            union all
            select 'return item ' || ri.id || ' of return ' || rr.id || ' (order ' || rr.order_id || ') is ' ||
                   coalesce('item ' || i.id || ' of order ' || i.order_id, 'a missing order item') as detail
              from return_items ri join return_requests rr on rr.id = ri.return_request_id left join order_items i on i.id = ri.order_item_id
             where i.id is null or i.order_id <> rr.order_id
            union all
            select 'order item ' || i.id || ' of order ' || i.order_id || ' counts ' || i.returned_quantity || ' units in returns; its live returns hold ' ||
                   coalesce((select sum(ri.quantity) from return_items ri join return_requests rr on rr.id = ri.return_request_id
                              where ri.order_item_id = i.id and rr.status <> 'REJECTED'), 0) as detail
              from order_items i
             where i.returned_quantity <> coalesce((select sum(ri.quantity) from return_items ri join return_requests rr on rr.id = ri.return_request_id
                                                     where ri.order_item_id = i.id and rr.status <> 'REJECTED'), 0)
            union all
            select 'return ' || rr.id || ' requests ' || rr.requested_amount || ' but its items add up to ' || coalesce(sum(ri.requested_amount), 0) as detail
              from return_requests rr left join return_items ri on ri.return_request_id = rr.id
             group by rr.id, rr.requested_amount
            having rr.requested_amount <> coalesce(sum(ri.requested_amount), 0)`,
  },

  // ---- I5 no half-written order ----
  {
    id: 'I5',
    rule: 'every order has lines, history and exactly one order.created event',
    query: `select 'order ' || o.id || ' has ' ||
                   (select count(*) from order_items i where i.order_id = o.id) || ' lines, ' ||
                   (select count(*) from order_status_history h where h.order_id = o.id) || ' history rows, ' ||
                   (select count(*) from outbox_events e where e.subject_id = o.id and e.type = 'order.created' and e.partner_id = o.partner_id) ||
                   ' order.created events of its partner' as detail
              from orders o
             where not exists (select 1 from order_items i where i.order_id = o.id)
                or not exists (select 1 from order_status_history h where h.order_id = o.id)
                or (select count(*) from outbox_events e where e.subject_id = o.id and e.type = 'order.created' and e.partner_id = o.partner_id) <> 1`,
  },
  {
    id: 'I5',
    rule: 'order lines add up (line = price x quantity; paid = line - coupon - points - prepaid discount; totals = sum of lines)',
    query: `select 'order ' || o.id || ': items_total ' || o.items_total || ' vs lines ' || sum(i.line_total) ||
                   ', mrp_total ' || o.mrp_total || ' vs ' || sum(i.unit_mrp * i.quantity) ||
                   ', coupon ' || o.coupon_discount || ' vs ' || sum(i.coupon_discount) ||
                   ', points ' || o.reward_points_value || ' vs ' || sum(i.reward_points_discount) ||
                   ', prepaid discount ' || o.prepaid_discount || ' vs ' || sum(i.prepaid_discount) ||
                   ', bad lines ' || count(*) filter (where i.line_total <> i.unit_price * i.quantity
                                                       or i.paid_amount <> i.line_total - i.coupon_discount - i.reward_points_discount - i.prepaid_discount) as detail
              from orders o join order_items i on i.order_id = o.id
             group by o.id, o.items_total, o.mrp_total, o.coupon_discount, o.reward_points_value, o.prepaid_discount
            having o.items_total <> sum(i.line_total) or o.mrp_total <> sum(i.unit_mrp * i.quantity)
                or o.coupon_discount <> sum(i.coupon_discount) or o.reward_points_value <> sum(i.reward_points_discount)
                or o.prepaid_discount <> sum(i.prepaid_discount)
                or bool_or(i.line_total <> i.unit_price * i.quantity or i.paid_amount <> i.line_total - i.coupon_discount - i.reward_points_discount - i.prepaid_discount)`,
  },
  {
    id: 'I5',
    // A COD order's cash to collect goes down by the cash share of units cancelled before shipping:
    // what they cost (the first units of their lines) less the Wallet Cash refunded for them.
    rule: 'order amounts add up (total = items - coupon - prepaid discount + shipping + COD fee; payable = total - points - Wallet Cash [- COD cash of cancelled units])',
    query: `with cod_cancelled as (
              select o.id,
                     (select coalesce(sum(i.paid_amount * i.cancelled_quantity / i.quantity), 0) from order_items i where i.order_id = o.id) -
                     (select coalesce(sum(r.amount), 0) from refunds r
                       where r.order_id = o.id and r.method = 'WALLET_CREDIT' and r.return_request_id is null and r.status <> 'FAILED'
                         and r.reason like 'Items cancelled: %') as cash
                from orders o where o.payment_mode = 'COD'
            )
            select 'order ' || o.id || ': total ' || o.total_amount || ' (items ' || o.items_total || ' - coupon ' || o.coupon_discount || ' - prepaid discount ' || o.prepaid_discount ||
                   ' + shipping ' || o.shipping_charge || ' + COD fee ' || o.cod_fee || '), payable ' || o.amount_payable ||
                   ' (points ' || o.reward_points_value || ', Wallet Cash ' || o.wallet_cash_used || ', COD cash of cancelled units ' || coalesce(c.cash, 0) || ')' as detail
              from orders o left join cod_cancelled c on c.id = o.id
             where o.total_amount <> o.items_total - o.coupon_discount - o.prepaid_discount + o.shipping_charge + o.cod_fee
                or o.amount_payable <> o.total_amount - o.reward_points_value - o.wallet_cash_used - coalesce(c.cash, 0)`,
  },
  {
    id: 'I5',
    rule: 'an unpaid order holds a reservation with an expiry and a payment to pay it',
    query: `select 'order ' || o.id || ' (' || o.status || ', ' || o.payment_mode || ', payable ' || o.amount_payable || ', payment ' ||
                   o.payment_status || ', expires ' || coalesce(o.reservation_expires_at::text, 'never') || ') has ' ||
                   (select count(*) from payments p where p.order_id = o.id) || ' payments' as detail
              from orders o
             where (o.status = 'PENDING_PAYMENT'
                    and (o.payment_mode <> 'PREPAID' or o.amount_payable = 0 or o.reservation_expires_at is null or o.payment_status <> 'PENDING'))
                or (o.payment_mode = 'PREPAID' and o.amount_payable > 0 and o.id not in (select id from replacements)
                    and not exists (select 1 from payments p where p.order_id = o.id))`,
  },

  // ---- I6 provider events applied once, states only move forward ----
  {
    id: 'I6',
    rule: 'a captured payment has confirmed its order',
    query: `select 'payment ' || p.id || ' SUCCEEDED but order ' || o.id || ' is still PENDING_PAYMENT' as detail
              from payments p join orders o on o.id = p.order_id
             where p.status = 'SUCCEEDED' and o.status = 'PENDING_PAYMENT'`,
  },
  {
    id: 'I6',
    rule: 'a confirmed prepaid order with something to pay has a captured payment',
    query: `select 'order ' || o.id || ' is ' || o.status || ' (payment ' || o.payment_status || ') with ' || o.amount_payable ||
                   ' payable but no SUCCEEDED payment' as detail
              from orders o
             where o.payment_mode = 'PREPAID' and o.amount_payable > 0 and o.status not in ('PENDING_PAYMENT', 'CANCELLED')
               and o.id not in (select id from replacements)
               and not exists (select 1 from payments p where p.order_id = o.id and p.status = 'SUCCEEDED')`,
  },
  {
    id: 'I6',
    // A COD order's payment is its conversion to prepaid (docs/orders.md): for what is payable less
    // the COD fee and the prepaid discount; once converted, it is what the order had left to pay.
    rule: 'a payment asks for what the order has left to pay (a COD order: at most that less the COD fee)',
    query: `select 'payment ' || p.id || ' is for ' || p.amount || ' ' || p.currency || ' but order ' || o.id || ' (' || o.payment_mode || ') has ' || o.amount_payable || ' payable' as detail
              from payments p join orders o on o.id = p.order_id
             where (o.payment_mode = 'PREPAID' and p.amount <> o.amount_payable)
                or (o.payment_mode = 'COD' and p.amount > o.amount_payable - o.cod_fee)
                or p.currency <> 'INR'`,
  },
  {
    id: 'I6',
    rule: 'order history follows the order machine and ends at the current status',
    query: `select 'order ' || h.order_id || ': history moves ' || coalesce(h.from_status, '(start)') || ' -> ' || h.to_status || ' (' || h.actor || ')' as detail
              from order_status_history h
             where (h.from_status is null and h.to_status not in ('PENDING_PAYMENT', 'CONFIRMED'))
                or (h.from_status is not null and (h.from_status, h.to_status) not in (select from_status, to_status from moves)
                    -- a shipped order whose last units were lost on the way and refunded (decision 0030)
                    and not (h.to_status = 'CANCELLED' and h.from_status in ('SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED')
                             and exists (select 1 from shipments s where s.order_id = h.order_id and s.resolution = 'REFUND')))
            union all
            select 'order ' || order_id || ' has ' || count(*) || ' starting history rows' as detail
              from order_status_history where from_status is null group by order_id having count(*) > 1
            union all
            select 'order ' || o.id || ' is ' || o.status || ' but no history row moves it there' as detail
              from orders o
             where not exists (select 1 from order_status_history h where h.order_id = o.id and h.to_status = o.status)`,
  },
  {
    id: 'I6',
    rule: 'a recorded provider event names an existing payment',
    query: `select 'webhook event ' || w.provider || '/' || w.event_id || ' names missing payment ' || w.payment_id as detail
              from payment_webhook_events w left join payments p on p.id = w.payment_id
             where w.payment_id is not null and p.id is null`,
  },

  // ---- I7 tenant isolation ----
  {
    id: 'I7',
    rule: 'an order belongs to a customer of its partner',
    query: `select 'order ' || o.id || ' of partner ' || o.partner_id || ' names customer ' || o.user_id ||
                   coalesce(' of partner ' || u.partner_id, ' who does not exist') as detail
              from orders o left join users u on u.id = o.user_id
             where u.id is null or u.partner_id <> o.partner_id`,
  },
  {
    id: 'I7',
    rule: 'payments.partner_id = orders.partner_id',
    query: `select 'payment ' || p.id || ' of partner ' || p.partner_id || ' is for order ' || o.id || ' of partner ' || o.partner_id as detail
              from payments p join orders o on o.id = p.order_id where p.partner_id <> o.partner_id`,
  },
  {
    id: 'I7',
    rule: 'an event about an order goes to the partner of the order',
    query: `select 'event ' || e.id || ' (' || e.type || ') about order ' || o.id || ' goes to partner ' || e.partner_id || ', not ' || o.partner_id as detail
              from outbox_events e join orders o on o.id = e.subject_id where e.partner_id <> o.partner_id`,
  },
  {
    id: 'I7',
    rule: 'a support ticket is of a customer of its partner, about one of their own orders',
    query: `select 'ticket ' || t.id || ' (customer ' || t.user_id || ', partner ' || t.partner_id || ') ' ||
                   case when u.id is null or u.partner_id <> t.partner_id then 'names a customer of another partner'
                        when o.id is null then 'is about missing order ' || t.order_id
                        else 'is about order ' || o.id || ' of customer ' || o.user_id || ', partner ' || o.partner_id end as detail
              from support_tickets t left join users u on u.id = t.user_id left join orders o on o.id = t.order_id
             where u.id is null or u.partner_id <> t.partner_id
                or (t.order_id is not null and (o.id is null or o.user_id <> t.user_id or o.partner_id <> t.partner_id))`,
  },
  {
    id: 'I7',
    rule: 'a return is of a customer of its partner, for one of their own orders',
    query: `select 'return ' || r.id || ' (customer ' || r.user_id || ', partner ' || r.partner_id || ') ' ||
                   case when u.id is null or u.partner_id <> r.partner_id then 'names a customer of another partner'
                        when o.id is null then 'is for missing order ' || r.order_id
                        else 'is for order ' || o.id || ' of customer ' || o.user_id || ', partner ' || o.partner_id end as detail
              from return_requests r left join users u on u.id = r.user_id left join orders o on o.id = r.order_id
             where u.id is null or u.partner_id <> r.partner_id or o.id is null or o.user_id <> r.user_id or o.partner_id <> r.partner_id
            union all
            select 'return ' || r.id || ' (customer ' || r.user_id || ') was replaced by ' ||
                   coalesce('order ' || o.id || ' of customer ' || o.user_id || ', partner ' || o.partner_id, 'missing order ' || r.replacement_order_id) as detail
              from return_requests r left join orders o on o.id = r.replacement_order_id
             where r.replacement_order_id is not null and (o.id is null or o.user_id <> r.user_id or o.partner_id <> r.partner_id)`,
  },
  {
    id: 'I7',
    rule: 'images cited by tickets, customer messages and returns are uploads of that customer for that purpose',
    query: `with cited as (
              select 'ticket ' || t.id as owner, t.user_id, t.partner_id, 'support' as purpose, u.url
                from support_tickets t cross join lateral jsonb_array_elements_text(t.image_urls) as u(url)
              union all
              select 'message ' || m.id || ' of ticket ' || t.id, t.user_id, t.partner_id, 'support', u.url
                from ticket_messages m join support_tickets t on t.id = m.ticket_id cross join lateral jsonb_array_elements_text(m.image_urls) as u(url)
               where m.author = 'CUSTOMER'
              union all
              select 'return ' || r.id, r.user_id, r.partner_id, 'returns', u.url
                from return_requests r cross join lateral jsonb_array_elements_text(r.image_urls) as u(url)
            )
            select c.owner || ' (customer ' || c.user_id || ') cites ' || c.url || ': ' ||
                   case when not exists (select 1 from uploads up where up.public_url = c.url) then 'not an upload'
                        else 'an upload of another customer or purpose' end as detail
              from cited c
             where not exists (select 1 from uploads up where up.public_url = c.url and up.user_id = c.user_id
                                 and up.partner_id = c.partner_id and up.purpose = c.purpose)
            union all
            select 'message ' || m.id || ' of ticket ' || t.id || ' (customer ' || t.user_id || ') was written by customer ' || m.author_id as detail
              from ticket_messages m join support_tickets t on t.id = m.ticket_id
             where m.author = 'CUSTOMER' and m.author_id <> t.user_id`,
  },
]

export interface InvariantOptions {
  /**
   * The app's clock. Idempotency keys live 24 hours by that clock, so an order may lack its key
   * only when it is older than that. Without it, the database's own clock is used.
   */
  now?: Date
}

/** Every check as one statement: one round trip, so the sweep stays cheap on PGlite too. */
const SWEEP = `with ${REPLACEMENTS}, ${MOVES}\n${CHECKS.map((c, i) => `select ${i} as n, detail from (${c.query}) as c${i}`).join('\nunion all\n')}`

/** Runs every invariant check; one readable line per violation, none when the database is healthy. */
export async function invariantViolations(db: Executor, options: InvariantOptions = {}): Promise<string[]> {
  const now = options.now ? `'${options.now.toISOString()}'::timestamptz` : 'now()'
  let rows: { n: number; detail: string | null }[]
  try {
    rows = await db.transaction(async (tx) => {
      // PostgreSQL would JIT-compile this statement (its cost estimates on small, never-analysed
      // tables pass jit_above_cost): that alone takes ~50 ms, ten times the sweep itself.
      await tx.execute(sql`set local jit = off`)
      return queryRows<{ n: number; detail: string | null }>(tx, sql.raw(SWEEP.replaceAll('$NOW', now)))
    })
  } catch (err) {
    // Name the check that cannot run (the statement as a whole only says where it broke).
    for (const check of CHECKS) {
      try {
        await queryRows(db, sql.raw(`with ${REPLACEMENTS}, ${MOVES}\nselect detail from (${check.query.replaceAll('$NOW', now)}) as c`))
      } catch (inner) {
        throw new Error(`invariant check "${check.id} ${check.rule}" failed to run: ${(inner as Error).message} (the sweep: ${(err as Error).message})`, { cause: inner })
      }
    }
    throw err
  }
  return rows
    .sort((a, b) => Number(a.n) - Number(b.n))
    .map((row) => {
      const check = CHECKS[Number(row.n)]!
      return `${check.id} ${check.rule}: ${row.detail ?? '(null detail)'}`
    })
}

// Back-office writes are in the audit log (issue #39, decision 0033): the test app notes each write
// that succeeded (an admin's 2xx answer to anything but a read), and the sweep checks that every
// operation seen wrote entries under at least one of its requests. One request may rightly write
// none (a save that changed nothing); an operation none of whose requests did is a path that
// escapes the log. The operations that change no audited record are listed, each with the reason.
const CHANGE_NO_AUDITED_RECORD = new Set([
  'adminLogin', // a session, not a record
  'adminGetShipmentLabels', // a PDF of labels already booked
  'adminRefreshShipmentTracking', // asks the carrier; changes a parcel only when it has news
  'adminQuoteShippingRates', // asks the carriers for rates; keeps nothing
  'adminCreateTicketUploadUrls', // an upload slot; the reply that cites its image is recorded
  'adminPingWebhook', // sends a signed ping, keeps nothing
  'adminQueueWebhookTest', // queues an outbox event of type webhook.test
  'adminReplayEvent', // the event's delivery history records the replay
  'adminReplayFailedEvents',
])

export interface BackOfficeWrite {
  requestId: string
  action: string
}

export function recordBackOfficeWrites(app: FastifyInstance): BackOfficeWrite[] {
  const writes: BackOfficeWrite[] = []
  app.addHook('onResponse', async (request, reply) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(request.method) || !request.adminIdentity || reply.statusCode >= 300) return
    const action = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId ?? request.url
    if (!CHANGE_NO_AUDITED_RECORD.has(action)) writes.push({ requestId: request.id, action })
  })
  return writes
}

export async function unauditedWrites(db: Executor, writes: BackOfficeWrite[]): Promise<string[]> {
  if (writes.length === 0) return []
  const found = await queryRows<{ request_id: string }>(db, sql`select distinct request_id from audit_log where request_id in ${writes.map((w) => w.requestId)}`)
  const seen = new Set(found.map((r) => r.request_id))
  const actions = new Map<string, { requests: number; audited: number }>()
  for (const w of writes) {
    const a = actions.get(w.action) ?? { requests: 0, audited: 0 }
    a.requests++
    if (seen.has(w.requestId)) a.audited++
    actions.set(w.action, a)
  }
  return [...actions].filter(([, a]) => a.audited === 0).map(([action, a]) => `audit: ${action} answered 2xx ${a.requests} time(s) and never wrote an audit entry`)
}
