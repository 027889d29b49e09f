-- Blobs whose rows are gone: listed in the transaction that removes the rows, deleted from the store after the
-- commit, swept by the upkeep when a crash came in between.
CREATE TABLE blob_deletions (
  key text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX blob_deletions_created_idx ON blob_deletions (created_at);
