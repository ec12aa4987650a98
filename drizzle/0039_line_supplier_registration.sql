-- The GST registration that supplies an order line when its units come from a stock location under its own (decision 0043): its invoice's GSTIN and the state that decided CGST + SGST or IGST; null: the catalog's seller's.
ALTER TABLE "order_items" ADD COLUMN "gst_registration_id" text;
