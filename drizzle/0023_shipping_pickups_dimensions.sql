ALTER TABLE "products" ADD COLUMN "length_cm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "breadth_cm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "height_cm" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "length_cm" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "breadth_cm" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "height_cm" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "eway_bill_no" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "pickup_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "pickup_scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "pickup_reference" text;--> statement-breakpoint
CREATE INDEX "shipments_pickup_due_idx" ON "shipments" USING btree ("created_at") WHERE status = 'CREATED' and pickup_requested_at is null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_dimensions_check" CHECK (("products"."length_cm" is null and "products"."breadth_cm" is null and "products"."height_cm" is null) or ("products"."length_cm" between 1 and 500 and "products"."breadth_cm" between 1 and 500 and "products"."height_cm" between 1 and 500));--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_dimensions_range" CHECK ("shipments"."length_cm" between 1 and 1000 and "shipments"."breadth_cm" between 1 and 1000 and "shipments"."height_cm" between 1 and 1000);--> statement-breakpoint
-- Parcels booked before pickups were requested by this service were collected as the merchant
-- arranged (the carrier panel's auto-pickup): the sweep does not ask for them again.
UPDATE "shipments" SET "pickup_requested_at" = "created_at" WHERE "pickup_requested_at" IS NULL;
