-- Tax invoices and bills of supply are stored with their order and numbered just after it commits (decision 0045): serial and number wait as null.
ALTER TABLE "tax_documents" ALTER COLUMN "serial" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tax_documents" ALTER COLUMN "number" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "tax_documents_unnumbered_idx" ON "tax_documents" USING btree ("issued_at") WHERE serial is null;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_numbered_whole" CHECK (("tax_documents"."serial" is null) = ("tax_documents"."number" is null) and ("tax_documents"."serial" is not null or "tax_documents"."type" <> 'CREDIT_NOTE'));