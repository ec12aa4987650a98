ALTER TABLE "order_items" ADD COLUMN "returned_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Issue #40: the units of each line in returns not rejected, counted until now by reading the
-- returns module's tables from the orders module.
UPDATE "order_items" oi SET "returned_quantity" = r.n FROM (
  SELECT ri.order_item_id, sum(ri.quantity)::int AS n FROM return_items ri
  JOIN return_requests rr ON rr.id = ri.return_request_id AND rr.status <> 'REJECTED'
  GROUP BY ri.order_item_id
) r WHERE r.order_item_id = oi.id;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_returned_range" CHECK ("order_items"."returned_quantity" between 0 and "order_items"."quantity");