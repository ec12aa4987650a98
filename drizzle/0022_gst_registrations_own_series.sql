ALTER TABLE "tax_document_series" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "tax_document_series" CASCADE;--> statement-breakpoint
ALTER TABLE "tax_documents" DROP CONSTRAINT "tax_documents_credit_note_has_invoice";--> statement-breakpoint
DROP INDEX "tax_documents_series_uq";--> statement-breakpoint
DROP INDEX "tax_documents_invoice_per_order_uq";--> statement-breakpoint
DROP INDEX "tax_documents_report_idx";--> statement-breakpoint
ALTER TABLE "gst_sellers" ALTER COLUMN "registration_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tax_documents" ALTER COLUMN "registration_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_registration_series_uq" ON "tax_documents" USING btree ("registration_id","type","financial_year","serial") WHERE not duplicate_serial;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_sale_per_order_uq" ON "tax_documents" USING btree ("order_id","registration_id","type") WHERE type <> 'CREDIT_NOTE';--> statement-breakpoint
CREATE INDEX "tax_documents_registration_report_idx" ON "tax_documents" USING btree ("registration_id","issue_date");--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "legal_name";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "trade_name";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "gstin";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "state_code";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "address_line1";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "address_line2";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "city";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "state";--> statement-breakpoint
ALTER TABLE "gst_sellers" DROP COLUMN "pincode";--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_number_length" CHECK (char_length("tax_documents"."number") <= 16);--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_credit_note_reverses_a_sale" CHECK (("tax_documents"."type" = 'CREDIT_NOTE') = ("tax_documents"."invoice_id" is not null));