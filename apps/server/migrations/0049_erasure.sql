-- Erasing a patient's data on request (docs/product-decisions.md, "Erasing a patient's data"). An erased case that
-- orders name stays as a tombstone without patient data (the laboratory keeps its order); one without orders goes.
ALTER TABLE cases ADD COLUMN erased_at timestamptz;
--;
-- A legal hold keeps a case from erasure and from the recycle bin's purge while the law requires keeping it.
ALTER TABLE cases ADD COLUMN legal_hold_reason text CHECK (char_length(legal_hold_reason) <= 500);
--;
ALTER TABLE cases ADD COLUMN legal_hold_at timestamptz;
--;
ALTER TABLE cases ADD COLUMN legal_hold_by bigint REFERENCES users (id) ON DELETE SET NULL;
--;
-- One erasure and its certificate (ids and codes, no patient data). The same record goes to the file store's
-- erasure ledger before anything is erased, so a database restored from an older backup erases again at start.
CREATE TABLE erasures (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  reason text NOT NULL CHECK (char_length(reason) <= 500),
  case_ids bigint[] NOT NULL,
  certificate jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX erasures_org_idx ON erasures (organization_id, created_at DESC, id DESC);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('cases.erase', 'cases', 'menu.patientErase', NULL, NULL, false, false, NULL, 2, '{patient:erase}', 8);
--;
-- The clinic answers for its patients' data: its administrators erase it and set the holds.
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code = 'cases.erase'
   WHERE r.code = 'clinic_admin'
  ON CONFLICT DO NOTHING;
