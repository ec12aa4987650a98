CREATE TABLE "categories" (
	"id" text PRIMARY KEY NOT NULL,
	"catalog_id" text NOT NULL,
	"parent_id" text,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"image" text,
	"position" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"catalog_id" text NOT NULL,
	"category_id" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"brand" text NOT NULL,
	"sku" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"selling_price" bigint NOT NULL,
	"mrp" bigint NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"weight_grams" integer DEFAULT 500 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"search_vector" "tsvector",
	"search_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_money_check" CHECK ("products"."selling_price" >= 0 and "products"."mrp" >= "products"."selling_price"),
	CONSTRAINT "products_stock_check" CHECK ("products"."stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "search_queries" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"catalog_id" text NOT NULL,
	"query" text NOT NULL,
	"normalized_query" text NOT NULL,
	"type" text NOT NULL,
	"source" text,
	"result_count" integer NOT NULL,
	"top_score" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_catalog_slug_uq" ON "categories" USING btree ("catalog_id","slug");--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_catalog_slug_uq" ON "products" USING btree ("catalog_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "products_catalog_sku_uq" ON "products" USING btree ("catalog_id","sku");--> statement-breakpoint
CREATE INDEX "products_list_created_idx" ON "products" USING btree ("catalog_id","is_active","created_at","id");--> statement-breakpoint
CREATE INDEX "products_list_updated_idx" ON "products" USING btree ("catalog_id","is_active","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_list_name_idx" ON "products" USING btree ("catalog_id","is_active",lower("name") collate "C","id");--> statement-breakpoint
CREATE INDEX "products_list_brand_idx" ON "products" USING btree ("catalog_id","is_active",lower("brand") collate "C","id");--> statement-breakpoint
CREATE INDEX "products_list_sku_idx" ON "products" USING btree ("catalog_id","is_active",lower("sku") collate "C","id");--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("category_id","is_active");--> statement-breakpoint
CREATE INDEX "products_search_vector_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "products_search_text_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_brand_trgm_idx" ON "products" USING gin (lower("brand") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_queries_catalog_time_idx" ON "search_queries" USING btree ("catalog_id","created_at");