-- Parcels are the shipping module's, below orders (decision 0035): a parcel names its order and its lines by id, with no foreign key across modules, as returns and tickets name theirs.
ALTER TABLE "shipment_items" DROP CONSTRAINT "shipment_items_order_item_id_order_items_id_fk";
--> statement-breakpoint
ALTER TABLE "shipments" DROP CONSTRAINT "shipments_order_id_orders_id_fk";
