CREATE TABLE "delivery_zones" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"serviceable" boolean DEFAULT true NOT NULL,
	"standard_slabs" jsonb NOT NULL,
	"standard_min_days" integer NOT NULL,
	"standard_max_days" integer NOT NULL,
	"express_available" boolean DEFAULT false NOT NULL,
	"express_slabs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"express_min_days" integer DEFAULT 1 NOT NULL,
	"express_max_days" integer DEFAULT 1 NOT NULL,
	"free_shipping_threshold" bigint,
	"cutoff_hour" integer DEFAULT 14 NOT NULL,
	"cod_available" boolean DEFAULT true NOT NULL,
	"cod_limit" bigint DEFAULT 5000000 NOT NULL,
	"cod_fee" bigint DEFAULT 4900 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zone_pincodes" (
	"prefix" text PRIMARY KEY NOT NULL,
	"zone_id" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "zone_pincodes" ADD CONSTRAINT "zone_pincodes_zone_id_delivery_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."delivery_zones"("id") ON DELETE no action ON UPDATE no action;