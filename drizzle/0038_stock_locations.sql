-- Stock locations (decision 0043, step 5): locations, the units each holds per variant, the append-only inventory ledger, the locations each order's units came from, and the catalog's flag that its stock is kept at locations; back-office changes of locations and levels are audited.
CREATE TABLE "inventory_allocations" (
	"order_id" text NOT NULL,
	"location_id" text NOT NULL,
	"product_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "inventory_allocations_order_id_variant_id_location_id_pk" PRIMARY KEY("order_id","variant_id","location_id"),
	CONSTRAINT "inventory_allocations_quantity_check" CHECK ("inventory_allocations"."quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "inventory_levels" (
	"location_id" text NOT NULL,
	"product_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_levels_location_id_variant_id_pk" PRIMARY KEY("location_id","variant_id"),
	CONSTRAINT "inventory_levels_on_hand_check" CHECK ("inventory_levels"."on_hand" >= 0)
);
--> statement-breakpoint
CREATE TABLE "inventory_moves" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "inventory_moves_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"catalog_id" text NOT NULL,
	"location_id" text NOT NULL,
	"product_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"actor" text NOT NULL,
	"reason" text NOT NULL,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_moves_quantity_check" CHECK ("inventory_moves"."quantity" <> 0)
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" text PRIMARY KEY NOT NULL,
	"catalog_id" text NOT NULL,
	"name" text NOT NULL,
	"address_line1" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"pincode" text NOT NULL,
	"registration_id" text,
	"pickup_name" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalogs" ADD COLUMN "stock_at_locations" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "inventory_allocations" ADD CONSTRAINT "inventory_allocations_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_moves" ADD CONSTRAINT "inventory_moves_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_registration_id_gst_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."gst_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventory_levels_variant_idx" ON "inventory_levels" USING btree ("variant_id");--> statement-breakpoint
CREATE INDEX "inventory_moves_catalog_idx" ON "inventory_moves" USING btree ("catalog_id","seq");--> statement-breakpoint
CREATE INDEX "inventory_moves_level_idx" ON "inventory_moves" USING btree ("location_id","variant_id");--> statement-breakpoint
CREATE INDEX "locations_catalog_idx" ON "locations" USING btree ("catalog_id","position");
--> statement-breakpoint
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON "locations" FOR EACH ROW WHEN (coalesce(current_setting('commerce.audit', true), '') <> '') EXECUTE FUNCTION audit_record('location', 'id', 'catalog_id');
--> statement-breakpoint
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON "inventory_levels" FOR EACH ROW WHEN (coalesce(current_setting('commerce.audit', true), '') <> '') EXECUTE FUNCTION audit_record('inventory_level', 'variant_id', 'location_id');
