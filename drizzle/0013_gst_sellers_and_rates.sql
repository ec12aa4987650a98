CREATE TABLE "gst_rate_slabs" (
	"id" text PRIMARY KEY NOT NULL,
	"rate_bps" integer NOT NULL,
	"cess_bps" integer,
	"label" text NOT NULL,
	"effective_from" date NOT NULL,
	"effective_to" date,
	CONSTRAINT "gst_rate_slabs_rate_check" CHECK ("gst_rate_slabs"."rate_bps" between 0 and 10000 and ("gst_rate_slabs"."cess_bps" is null or "gst_rate_slabs"."cess_bps" between 0 and 100000)),
	CONSTRAINT "gst_rate_slabs_dates_check" CHECK ("gst_rate_slabs"."effective_to" is null or "gst_rate_slabs"."effective_to" > "gst_rate_slabs"."effective_from")
);
--> statement-breakpoint
CREATE TABLE "gst_sellers" (
	"catalog_id" text PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"trade_name" text,
	"gstin" text NOT NULL,
	"state_code" text NOT NULL,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"pincode" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "hsn_code" text;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "gst_rate_bps" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hsn_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "gst_rate_bps" integer;--> statement-breakpoint
ALTER TABLE "gst_sellers" ADD CONSTRAINT "gst_sellers_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gst_rate_slabs_rate_from_uq" ON "gst_rate_slabs" USING btree ("rate_bps","effective_from");--> statement-breakpoint
CREATE INDEX "gst_rate_slabs_from_idx" ON "gst_rate_slabs" USING btree ("effective_from");--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_gst_rate_check" CHECK ("categories"."gst_rate_bps" between 0 and 10000);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_gst_rate_check" CHECK ("products"."gst_rate_bps" between 0 and 10000);--> statement-breakpoint
-- GST rate slabs (decision 0021). effective_to is exclusive: the 12 % and general 28 % slabs were last
-- in force on 21 September 2025. 28 % stays for tobacco and related goods (plus a compensation cess that
-- varies by item) until that cess ends. A later change of rates is a migration like this one.
INSERT INTO "gst_rate_slabs" ("id", "rate_bps", "cess_bps", "label", "effective_from", "effective_to") VALUES
  ('gst_0_2017', 0, NULL, 'Nil rated', '2017-07-01', NULL),
  ('gst_0.25_2017', 25, NULL, '0.25 % (rough precious and semi-precious stones)', '2017-07-01', NULL),
  ('gst_3_2017', 300, NULL, '3 % (gold, silver and jewellery)', '2017-07-01', NULL),
  ('gst_5_2017', 500, NULL, '5 %', '2017-07-01', NULL),
  ('gst_12_2017', 1200, NULL, '12 % (merged into 5 % and 18 % from 22 September 2025)', '2017-07-01', '2025-09-22'),
  ('gst_18_2017', 1800, NULL, '18 %', '2017-07-01', NULL),
  ('gst_28_2017', 2800, NULL, '28 % (merged into 18 % and 40 % from 22 September 2025)', '2017-07-01', '2025-09-22'),
  ('gst_28_cess_2025', 2800, NULL, '28 % plus compensation cess (tobacco and related goods, until the cess ends)', '2025-09-22', NULL),
  ('gst_40_2025', 4000, NULL, '40 % (sin and luxury goods)', '2025-09-22', NULL);
