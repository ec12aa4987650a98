ALTER TABLE "orders" ADD COLUMN "place_of_supply_state_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "place_of_supply_state" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_intra_state" boolean;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "taxable_value" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cgst" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sgst" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "igst" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_charges" jsonb;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "hsn_code" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "gst_rate_bps" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "taxable_value" bigint;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "cgst" bigint;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "sgst" bigint;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "igst" bigint;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_tax_adds_up" CHECK ("order_items"."taxable_value" is null or ("order_items"."taxable_value" >= 0 and "order_items"."cgst" >= 0 and "order_items"."sgst" >= 0 and "order_items"."igst" >= 0 and "order_items"."taxable_value" + "order_items"."cgst" + "order_items"."sgst" + "order_items"."igst" = "order_items"."line_total" - "order_items"."coupon_discount"));