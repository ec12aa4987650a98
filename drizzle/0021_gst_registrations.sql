CREATE TABLE "gst_document_series" (
	"registration_id" text NOT NULL,
	"series" text NOT NULL,
	"financial_year" text NOT NULL,
	"last_serial" integer NOT NULL,
	CONSTRAINT "gst_document_series_registration_id_series_financial_year_pk" PRIMARY KEY("registration_id","series","financial_year"),
	CONSTRAINT "gst_document_series_serial_check" CHECK ("gst_document_series"."last_serial" between 1 and 9999999)
);
--> statement-breakpoint
CREATE TABLE "gst_registrations" (
	"id" text PRIMARY KEY NOT NULL,
	"gstin" text NOT NULL,
	"legal_name" text NOT NULL,
	"trade_name" text,
	"state_code" text NOT NULL,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"pincode" text NOT NULL,
	"invoice_prefix" text DEFAULT 'IN' NOT NULL,
	"bill_of_supply_prefix" text DEFAULT 'BS' NOT NULL,
	"credit_note_prefix" text DEFAULT 'CN' NOT NULL,
	"filing_frequency" text DEFAULT 'MONTHLY' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gst_registrations_prefixes_check" CHECK ("gst_registrations"."invoice_prefix" ~ '^[A-Z0-9-]{1,4}$' and "gst_registrations"."bill_of_supply_prefix" ~ '^[A-Z0-9-]{1,4}$' and "gst_registrations"."credit_note_prefix" ~ '^[A-Z0-9-]{1,4}$'),
	CONSTRAINT "gst_registrations_frequency_check" CHECK ("gst_registrations"."filing_frequency" in ('MONTHLY', 'QUARTERLY'))
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "eco_gstin" text;--> statement-breakpoint
ALTER TABLE "gst_sellers" ADD COLUMN "registration_id" text;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD COLUMN "registration_id" text;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD COLUMN "eco_gstin" text;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD COLUMN "duplicate_serial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gst_document_series" ADD CONSTRAINT "gst_document_series_registration_id_gst_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."gst_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gst_registrations_gstin_uq" ON "gst_registrations" USING btree ("gstin");--> statement-breakpoint
ALTER TABLE "gst_sellers" ADD CONSTRAINT "gst_sellers_registration_id_gst_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."gst_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_registration_id_gst_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."gst_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Data (decision 0029): one registration per GSTIN. Catalogs that share a GSTIN share one registration,
-- with the details of the seller written last; a GSTIN that only past documents name (a catalog moved
-- to another GSTIN since) gets a registration from its latest document's seller.
INSERT INTO "gst_registrations" ("id", "gstin", "legal_name", "trade_name", "state_code", "address_line1", "address_line2", "city", "state", "pincode", "created_at", "updated_at")
SELECT DISTINCT ON ("gstin") 'gsr_' || upper(substr(md5("gstin"), 1, 26)), "gstin", "legal_name", "trade_name", "state_code", "address_line1", "address_line2", "city", "state", "pincode", "created_at", "updated_at"
  FROM "gst_sellers" ORDER BY "gstin", "updated_at" DESC;--> statement-breakpoint
INSERT INTO "gst_registrations" ("id", "gstin", "legal_name", "trade_name", "state_code", "address_line1", "address_line2", "city", "state", "pincode", "created_at", "updated_at")
SELECT DISTINCT ON (d."document"->'seller'->>'gstin') 'gsr_' || upper(substr(md5(d."document"->'seller'->>'gstin'), 1, 26)), d."document"->'seller'->>'gstin',
       d."document"->'seller'->>'name', d."document"->'seller'->>'tradeName', d."document"->'seller'->>'stateCode',
       d."document"->'seller'->'address'->>'line1', d."document"->'seller'->'address'->>'line2', d."document"->'seller'->'address'->>'city',
       d."document"->'seller'->'address'->>'state', d."document"->'seller'->'address'->>'pincode', d."issued_at", d."issued_at"
  FROM "tax_documents" d
 WHERE NOT EXISTS (SELECT 1 FROM "gst_registrations" r WHERE r."gstin" = d."document"->'seller'->>'gstin')
 ORDER BY d."document"->'seller'->>'gstin', d."issued_at" DESC;--> statement-breakpoint
UPDATE "gst_sellers" s SET "registration_id" = r."id" FROM "gst_registrations" r WHERE r."gstin" = s."gstin";--> statement-breakpoint
-- Each document belongs to the GSTIN printed on it, not to its catalog's seller of today.
UPDATE "tax_documents" d SET "registration_id" = r."id" FROM "gst_registrations" r WHERE r."gstin" = d."document"->'seller'->>'gstin';--> statement-breakpoint
-- Two catalogs of one GSTIN each ran a series: where both issued the same serial, the later document
-- keeps its printed number and is marked, outside the series' unique index.
UPDATE "tax_documents" d SET "duplicate_serial" = true
  FROM (SELECT "id", row_number() OVER (PARTITION BY "registration_id", "type", "financial_year", "serial" ORDER BY "issued_at", "id") AS n FROM "tax_documents") x
 WHERE x."id" = d."id" AND x.n > 1;--> statement-breakpoint
-- The merged series continue after the highest serial any of them issued.
INSERT INTO "gst_document_series" ("registration_id", "series", "financial_year", "last_serial")
SELECT "registration_id", CASE "type" WHEN 'TAX_INVOICE' THEN 'IN' WHEN 'BILL_OF_SUPPLY' THEN 'BS' ELSE 'CN' END, "financial_year", max("serial")
  FROM "tax_documents" GROUP BY 1, 2, 3;
