CREATE TABLE "shipment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"shipment_id" text NOT NULL,
	"carrier" text NOT NULL,
	"event_id" text NOT NULL,
	"status" text NOT NULL,
	"location" text,
	"note" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"applied" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_items" (
	"shipment_id" text NOT NULL,
	"order_item_id" text NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "shipment_items_shipment_id_order_item_id_pk" PRIMARY KEY("shipment_id","order_item_id"),
	CONSTRAINT "shipment_items_quantity_positive" CHECK ("shipment_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"direction" text NOT NULL,
	"return_request_id" text,
	"carrier" text NOT NULL,
	"carrier_shipment_id" text,
	"awb" text NOT NULL,
	"courier_name" text,
	"tracking_url" text NOT NULL,
	"label_url" text,
	"expected_delivery_date" date,
	"status" text NOT NULL,
	"weight_grams" integer NOT NULL,
	"last_event_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shipments_weight_range" CHECK ("shipments"."weight_grams" between 1 and 1000000)
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "cancelled_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "qc_result" text;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "qc_note" text;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "qc_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "restocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_items" ADD CONSTRAINT "shipment_items_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_events_carrier_event_uq" ON "shipment_events" USING btree ("carrier","event_id");--> statement-breakpoint
CREATE INDEX "shipment_events_shipment_idx" ON "shipment_events" USING btree ("shipment_id","occurred_at");--> statement-breakpoint
CREATE INDEX "shipment_items_item_idx" ON "shipment_items" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "shipments_return_idx" ON "shipments" USING btree ("return_request_id") WHERE return_request_id is not null;--> statement-breakpoint
CREATE INDEX "shipments_created_idx" ON "shipments" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_carrier_awb_uq" ON "shipments" USING btree ("carrier","awb");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_cancelled_range" CHECK ("order_items"."cancelled_quantity" between 0 and "order_items"."quantity");