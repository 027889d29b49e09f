-- Oral health reports: several per case, a draft the dentist edits, and a frozen version each time it is published.
CREATE TABLE reports (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  case_id bigint NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  title text NOT NULL DEFAULT '',
  draft jsonb NOT NULL,
  version integer NOT NULL DEFAULT 0,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
--;
CREATE INDEX reports_case_idx ON reports (case_id, created_at DESC);
--;
CREATE INDEX reports_org_idx ON reports (organization_id);
--;
CREATE TABLE report_versions (
  report_id bigint NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version >= 1),
  content jsonb NOT NULL,
  published_by bigint REFERENCES users (id) ON DELETE SET NULL,
  published_by_name text NOT NULL DEFAULT '',
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (report_id, version)
);
--;
-- 3D snapshots taken for a report (PNG, checked by content), counted against the organization's storage.
CREATE TABLE report_snapshots (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  report_id bigint NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  view text NOT NULL CHECK (view IN ('upper', 'lower', 'bite')),
  size bigint NOT NULL,
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX report_snapshots_report_idx ON report_snapshots (report_id, id);
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('cases.reportView', 'cases', 'menu.reportView', NULL, NULL, false, false, NULL, 2, '{report:view}', 3),
  ('cases.reportEdit', 'cases', 'menu.reportEdit', NULL, NULL, false, false, NULL, 2, '{report:edit}', 4);
--;
-- Reports are the clinic's: the dentist writes them for the patient.
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code IN ('cases.reportView', 'cases.reportEdit')
   WHERE r.code = 'clinic_admin'
  ON CONFLICT DO NOTHING;
--;
-- However a snapshot's row goes (its report or case deleted, the case purged), its bytes leave the organization's
-- storage and its blob is listed for deletion in the same transaction.
CREATE FUNCTION report_snapshots_gone() RETURNS trigger AS $$
BEGIN
  INSERT INTO blob_deletions (key) VALUES (OLD.storage_key) ON CONFLICT DO NOTHING;
  UPDATE storage_accounts SET used_bytes = GREATEST(used_bytes - OLD.size, 0) WHERE organization_id = OLD.organization_id;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--;
CREATE TRIGGER report_snapshots_gone AFTER DELETE ON report_snapshots
  FOR EACH ROW EXECUTE FUNCTION report_snapshots_gone();
