-- Products with options and their variants (decision 0043): the options on the product, a row per variant; order lines keep the variant as sold (its title and named option values). Products without options need nothing here.
CREATE TABLE "product_variants" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"catalog_id" text NOT NULL,
	"position" integer NOT NULL,
	"option_values" text[] NOT NULL,
	"sku" text NOT NULL,
	"selling_price" bigint NOT NULL,
	"mrp" bigint NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"weight_grams" integer,
	"length_cm" integer,
	"breadth_cm" integer,
	"height_cm" integer,
	"barcode" text,
	"hsn_code" text,
	"gst_rate_bps" integer,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_money_check" CHECK ("product_variants"."selling_price" >= 0 and "product_variants"."mrp" >= "product_variants"."selling_price"),
	CONSTRAINT "product_variants_stock_check" CHECK ("product_variants"."stock" >= 0),
	CONSTRAINT "product_variants_gst_rate_check" CHECK ("product_variants"."gst_rate_bps" between 0 and 10000),
	CONSTRAINT "product_variants_dimensions_check" CHECK (("product_variants"."length_cm" is null and "product_variants"."breadth_cm" is null and "product_variants"."height_cm" is null) or ("product_variants"."length_cm" between 1 and 500 and "product_variants"."breadth_cm" between 1 and 500 and "product_variants"."height_cm" between 1 and 500))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_title" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_combination_uq" ON "product_variants" USING btree ("product_id","option_values");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_catalog_sku_uq" ON "product_variants" USING btree ("catalog_id","sku");--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position");--> statement-breakpoint
-- Variants are audited as products are (decision 0033): a back-office change of one records who, when and the values before and after.
CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON "product_variants" FOR EACH ROW WHEN (coalesce(current_setting('commerce.audit', true), '') <> '') EXECUTE FUNCTION audit_record('product_variant', 'id', 'product_id');
