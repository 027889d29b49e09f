-- A file's content digest (SHA-256), so a second upload of the same bytes to the same case is recognised and not
-- stored twice. Files stored before this have none and are never matched.
ALTER TABLE files ADD COLUMN sha256 bytea;
--;
-- Finished uploads keep answering the tus protocol (HEAD: offset = length) until they expire, so a client that lost
-- the last answer does not start over. They reserve nothing: the bytes belong to the file they became (file_id; a
-- duplicate maps to the file it repeats).
CREATE TABLE finished_uploads (
  id text PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  case_id bigint NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  file_id bigint REFERENCES files (id) ON DELETE SET NULL,
  size bigint NOT NULL,
  -- The tus Upload-Metadata, which HEAD answers repeat.
  metadata jsonb,
  created_at timestamptz NOT NULL
);
--;
CREATE INDEX finished_uploads_created_idx ON finished_uploads (created_at);
--;
CREATE INDEX finished_uploads_file_idx ON finished_uploads (file_id);
--;
CREATE INDEX finished_uploads_case_idx ON finished_uploads (case_id);
