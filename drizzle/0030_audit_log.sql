CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"request_id" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"related_id" text,
	"operation" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_object_idx" ON "audit_log" USING btree ("object_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_related_idx" ON "audit_log" USING btree ("related_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_request_idx" ON "audit_log" USING btree ("request_id");--> statement-breakpoint
-- The audit trigger (decision 0033): inside a back-office write, whose transaction sets
-- commerce.audit to its actor (src/db/audit-scope.ts), every row it inserts, changes or deletes in
-- an audited table is recorded here, in the same transaction: on a change, the changed columns only,
-- before and after. A column whose name says it holds a secret, a hash or a password is recorded as
-- changed, its values as '(hidden)'; search indexes and updated_at are left out. Arguments: the
-- object type, the column of the record's id, the column of the record it belongs to ('' for none).
CREATE FUNCTION audit_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ctx jsonb := current_setting('commerce.audit', true)::jsonb;
  secret constant text := '(_hash|secret|_encrypted|_sealed|token)$|^password$';
  noise constant text := '^(search_.*|updated_at)$';
  old_row jsonb;
  new_row jsonb;
  row_data jsonb;
  before_values jsonb;
  after_values jsonb;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
  IF TG_OP = 'UPDATE' THEN
    SELECT jsonb_object_agg(key, CASE WHEN key ~ secret THEN '"(hidden)"'::jsonb ELSE value END),
           jsonb_object_agg(key, CASE WHEN key ~ secret THEN '"(hidden)"'::jsonb ELSE new_row -> key END)
      INTO before_values, after_values
      FROM jsonb_each(old_row) WHERE key !~ noise AND value IS DISTINCT FROM new_row -> key;
    IF before_values IS NULL THEN RETURN NULL; END IF;
  ELSE
    SELECT jsonb_object_agg(key, CASE WHEN key ~ secret AND value <> 'null'::jsonb THEN '"(hidden)"'::jsonb ELSE value END)
      INTO row_data FROM jsonb_each(coalesce(new_row, old_row)) WHERE key !~ noise;
    IF TG_OP = 'INSERT' THEN after_values := row_data; ELSE before_values := row_data; END IF;
  END IF;
  row_data := coalesce(new_row, old_row);
  INSERT INTO audit_log (at, actor_id, actor_email, action, request_id, object_type, object_id, related_id, operation, before, after)
  VALUES ((ctx ->> 'at')::timestamptz, ctx ->> 'actorId', ctx ->> 'actorEmail', ctx ->> 'action', ctx ->> 'requestId',
    TG_ARGV[0], row_data ->> TG_ARGV[1], CASE WHEN TG_ARGV[2] = '' THEN NULL ELSE row_data ->> TG_ARGV[2] END,
    TG_OP, before_values, after_values);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  audited constant text[][] := ARRAY[
    ['orders', 'order', 'id', ''],
    ['order_items', 'order_item', 'id', 'order_id'],
    ['refunds', 'refund', 'id', 'order_id'],
    ['shipments', 'shipment', 'id', 'order_id'],
    ['shipment_ndr_actions', 'ndr_action', 'id', 'shipment_id'],
    ['return_requests', 'return', 'id', 'order_id'],
    ['support_tickets', 'ticket', 'id', 'order_id'],
    ['ticket_messages', 'ticket_message', 'id', 'ticket_id'],
    ['users', 'customer', 'id', ''],
    ['ledger_entries', 'ledger_entry', 'id', 'user_id'],
    ['catalogs', 'catalog', 'id', ''],
    ['categories', 'category', 'id', 'catalog_id'],
    ['products', 'product', 'id', 'catalog_id'],
    ['partners', 'partner', 'id', ''],
    ['api_keys', 'api_key', 'id', 'partner_id'],
    ['partner_pricing', 'partner_pricing', 'partner_id', ''],
    ['partner_cod_rules', 'cod_rules', 'partner_id', ''],
    ['cod_blocked_pincodes', 'cod_blocked_pincode', 'pincode', 'partner_id'],
    ['coupons', 'coupon', 'id', 'partner_id'],
    ['delivery_zones', 'delivery_zone', 'id', ''],
    ['zone_courier_rules', 'zone_rule', 'zone_id', ''],
    ['gst_registrations', 'gst_registration', 'id', ''],
    ['gst_sellers', 'gst_seller', 'catalog_id', 'registration_id'],
    ['admin_users', 'admin', 'id', '']
  ];
  i int;
BEGIN
  FOR i IN 1 .. array_length(audited, 1) LOOP
    EXECUTE format(
      'CREATE TRIGGER audit AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW '
      'WHEN (coalesce(current_setting(''commerce.audit'', true), '''') <> '''') '
      'EXECUTE FUNCTION audit_record(%L, %L, %L)',
      audited[i][1], audited[i][2], audited[i][3], audited[i][4]);
  END LOOP;
END
$$;
