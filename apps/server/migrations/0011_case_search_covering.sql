-- Patient search answers from the two prefix indexes alone: each carries what the search needs to count its hits
-- and put them in order (the searched column itself, the sort dates and the id), so only the page's rows are read
-- from the table. PostgreSQL reads an expression index alone only when the column under the expression is in it.
DROP INDEX cases_patient_idx;
--;
DROP INDEX cases_patient_id_idx;
--;
CREATE INDEX cases_patient_idx ON cases (organization_id, (lower(patient_name) COLLATE "C")) INCLUDE (patient_name, scan_date, created_at, id) WHERE deleted_at IS NULL;
--;
CREATE INDEX cases_patient_id_idx ON cases (organization_id, (lower(patient_id) COLLATE "C")) INCLUDE (patient_id, scan_date, created_at, id) WHERE deleted_at IS NULL;
