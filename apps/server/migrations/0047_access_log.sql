-- Every access to patient data (docs/product-decisions.md "Patient-data access log"): who (a member, an app acting for
-- one, or a share's visitor), when, what, from where. Entries hold ids, never names, and no foreign keys: a case or a
-- user erased later leaves its entries as they were. The share access log is part of it from now on.
CREATE TABLE access_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- The organization whose patient data was read (the clinic that holds the case, the order's clinic).
  owner_org_id bigint NOT NULL,
  action text NOT NULL CHECK (action IN (
    'case.view', 'case.list', 'order.view', 'order.list', 'file.open', 'export.create',
    'report.view', 'report.pdf', 'share.create', 'share.page', 'share.pdf', 'share.file'
  )),
  -- The member who read it (null: a share's visitor) and their organization at the time (a laboratory reading an order).
  actor_user_id bigint,
  actor_org_id bigint,
  -- The app whose token made the call, when an app did.
  app_id bigint,
  -- The share the access came through (created, or visited).
  share_id bigint,
  -- The case read, also when it was read through a file, an order, a report or a share of one.
  case_id bigint,
  order_id bigint,
  file_id bigint,
  report_id bigint,
  -- A member's address; for a share's visitor, the salted hash the share log always kept.
  address text CHECK (char_length(address) <= 64),
  user_agent text CHECK (char_length(user_agent) <= 64)
);
--;
CREATE INDEX access_log_owner_idx ON access_log (owner_org_id, at DESC, id DESC);
--;
CREATE INDEX access_log_actor_idx ON access_log (actor_org_id, at DESC, id DESC) WHERE actor_org_id IS NOT NULL;
--;
CREATE INDEX access_log_share_idx ON access_log (share_id, at DESC, id DESC) WHERE share_id IS NOT NULL;
--;
CREATE INDEX access_log_case_idx ON access_log (case_id, at DESC) WHERE case_id IS NOT NULL;
--;
INSERT INTO access_log (at, owner_org_id, action, share_id, case_id, order_id, report_id, address, user_agent)
  SELECT l.at, s.organization_id, 'share.' || l.kind, s.id,
         CASE s.resource_type WHEN 'case' THEN s.resource_id WHEN 'order' THEN o.case_id ELSE r.case_id END,
         CASE WHEN s.resource_type = 'order' THEN s.resource_id END,
         CASE WHEN s.resource_type = 'report' THEN s.resource_id END,
         l.address_hash, l.user_agent
    FROM share_access_log l
    JOIN shares s ON s.id = l.share_id
    LEFT JOIN orders o ON s.resource_type = 'order' AND o.id = s.resource_id
    LEFT JOIN reports r ON s.resource_type = 'report' AND r.id = s.resource_id
   ORDER BY l.id;
--;
DROP TABLE share_access_log;
--;
-- Append-only: no statement through any role may change or remove an entry (the application's role also lacks the
-- rights on PostgreSQL, below and in docs/operations.md).
CREATE FUNCTION access_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'access_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--;
CREATE TRIGGER access_log_no_update_delete BEFORE UPDATE OR DELETE ON access_log
  FOR EACH ROW EXECUTE FUNCTION access_log_refuse_change();
--;
CREATE TRIGGER access_log_no_truncate BEFORE TRUNCATE ON access_log
  FOR EACH STATEMENT EXECUTE FUNCTION access_log_refuse_change();
--;
-- Roles other than the one running migrations (the application's, given rights by default privileges) keep SELECT and
-- INSERT only.
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT DISTINCT grantee FROM information_schema.role_table_grants
            WHERE table_name = 'access_log' AND privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
              AND grantee <> current_user
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON access_log FROM %I', r.grantee);
  END LOOP;
END
$$;
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('ownSpace.accessLog', 'ownSpace', 'menu.accessLog', NULL, NULL, false, false, NULL, 2, '{audit:read}', 7);
--;
-- The clinics' administrators read the log: the clinic answers for its patients' data, and sees every reading of it,
-- its laboratories' included.
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'ownSpace.accessLog'
   WHERE r.code = 'clinic_admin'
  ON CONFLICT DO NOTHING;
