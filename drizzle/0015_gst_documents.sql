CREATE TABLE "tax_document_lines" (
	"document_id" text NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"order_item_id" text,
	"quantity" integer NOT NULL,
	"gst_rate_bps" integer NOT NULL,
	"amount" bigint NOT NULL,
	"discount" bigint NOT NULL,
	"taxable_value" bigint NOT NULL,
	"cgst" bigint NOT NULL,
	"sgst" bigint NOT NULL,
	"igst" bigint NOT NULL,
	CONSTRAINT "tax_document_lines_document_id_position_pk" PRIMARY KEY("document_id","position"),
	CONSTRAINT "tax_document_lines_adds_up" CHECK ("tax_document_lines"."taxable_value" + "tax_document_lines"."cgst" + "tax_document_lines"."sgst" + "tax_document_lines"."igst" = "tax_document_lines"."amount" - "tax_document_lines"."discount" and "tax_document_lines"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "tax_document_series" (
	"catalog_id" text NOT NULL,
	"series" text NOT NULL,
	"financial_year" text NOT NULL,
	"last_serial" integer NOT NULL,
	CONSTRAINT "tax_document_series_catalog_id_series_financial_year_pk" PRIMARY KEY("catalog_id","series","financial_year"),
	CONSTRAINT "tax_document_series_serial_check" CHECK ("tax_document_series"."last_serial" between 1 and 9999999)
);
--> statement-breakpoint
CREATE TABLE "tax_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"catalog_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"financial_year" text NOT NULL,
	"serial" integer NOT NULL,
	"number" text NOT NULL,
	"order_id" text NOT NULL,
	"invoice_id" text,
	"return_id" text,
	"issued_at" timestamp with time zone NOT NULL,
	"issue_date" date NOT NULL,
	"place_of_supply_state_code" text NOT NULL,
	"intra_state" boolean NOT NULL,
	"taxable_value" bigint NOT NULL,
	"cgst" bigint NOT NULL,
	"sgst" bigint NOT NULL,
	"igst" bigint NOT NULL,
	"total" bigint NOT NULL,
	"document" jsonb NOT NULL,
	CONSTRAINT "tax_documents_adds_up" CHECK ("tax_documents"."taxable_value" + "tax_documents"."cgst" + "tax_documents"."sgst" + "tax_documents"."igst" = "tax_documents"."total" and "tax_documents"."taxable_value" >= 0 and "tax_documents"."cgst" >= 0 and "tax_documents"."sgst" >= 0 and "tax_documents"."igst" >= 0),
	CONSTRAINT "tax_documents_credit_note_has_invoice" CHECK (("tax_documents"."type" = 'TAX_INVOICE') = ("tax_documents"."invoice_id" is null))
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "catalog_id" text;--> statement-breakpoint
-- Lines from before: the product's catalog (products never change catalog).
UPDATE "order_items" SET "catalog_id" = "products"."catalog_id" FROM "products" WHERE "products"."id" = "order_items"."product_id";--> statement-breakpoint
ALTER TABLE "tax_document_lines" ADD CONSTRAINT "tax_document_lines_document_id_tax_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."tax_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_document_series" ADD CONSTRAINT "tax_document_series_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_series_uq" ON "tax_documents" USING btree ("catalog_id","type","financial_year","serial");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_invoice_per_order_uq" ON "tax_documents" USING btree ("order_id","catalog_id") WHERE type = 'TAX_INVOICE';--> statement-breakpoint
CREATE INDEX "tax_documents_order_idx" ON "tax_documents" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "tax_documents_report_idx" ON "tax_documents" USING btree ("catalog_id","issue_date");