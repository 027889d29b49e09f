-- The case list sorts and filters by the scan date, or the creation date for cases not scanned:
-- one index serves the default list's filter, order and count (index-only once vacuumed).
DROP INDEX cases_list_idx;
--;
CREATE INDEX cases_list_idx ON cases (organization_id, (COALESCE(scan_date, created_at)) DESC, id DESC) WHERE deleted_at IS NULL;
--;
-- Role permissions are held in memory too: changes to menus and role grants notify like the rest.
CREATE TRIGGER role_menus_auth_changed AFTER INSERT OR UPDATE OR DELETE ON role_menus FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
--;
CREATE TRIGGER menus_auth_changed AFTER INSERT OR UPDATE OR DELETE ON menus FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
--;
-- Patient search by prefix as a range on byte order, so prepared (generic) plans still use the index.
DROP INDEX cases_patient_idx;
--;
DROP INDEX cases_patient_id_idx;
--;
CREATE INDEX cases_patient_idx ON cases (organization_id, (lower(patient_name) COLLATE "C")) WHERE deleted_at IS NULL;
--;
CREATE INDEX cases_patient_id_idx ON cases (organization_id, (lower(patient_id) COLLATE "C")) WHERE deleted_at IS NULL;
