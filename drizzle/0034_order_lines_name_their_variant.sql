-- Order lines name the variant sold (decision 0043). Every line so far sold a product's default variant, whose id is the product's with var_ for prd_: filled in before the column becomes required.
ALTER TABLE "order_items" ADD COLUMN "variant_id" text;
--> statement-breakpoint
UPDATE "order_items" SET "variant_id" = 'var_' || substr("product_id", strpos("product_id", '_') + 1);
--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "variant_id" SET NOT NULL;
