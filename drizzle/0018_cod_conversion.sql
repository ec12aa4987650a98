ALTER TABLE "partner_pricing" ADD COLUMN "prepaid_discount_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_pricing" ADD COLUMN "prepaid_discount_cap" bigint;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "prepaid_discount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prepaid_discount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_pricing" ADD CONSTRAINT "partner_pricing_prepaid_discount_range" CHECK ("partner_pricing"."prepaid_discount_percent" between 0 and 50 and ("partner_pricing"."prepaid_discount_cap" is null or "partner_pricing"."prepaid_discount_cap" >= 0));