-- Payments, refunds, payout accounts and provider callbacks are the payments module's, below orders (decision 0035): a payment or refund names its order by id, with no foreign key across modules, as parcels, returns and tickets name theirs.
ALTER TABLE "payments" DROP CONSTRAINT "payments_order_id_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_order_id_orders_id_fk";
