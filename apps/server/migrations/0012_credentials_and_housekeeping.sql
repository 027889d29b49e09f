-- Credentials that die with their session, counters shared by every process, purges that keep orders readable,
-- and order mails that survive a crash between the change and the mail.

-- A one-time sign-in sign belongs to the session that made it: it dies when that session ends.
ALTER TABLE email_tokens ADD COLUMN session_id uuid REFERENCES sessions (id) ON DELETE CASCADE;
--;
-- A retired refresh token keeps its successor, sealed with a key only the retired token's holder can derive, for a
-- few seconds: two tabs refreshing with the same token at once both get the same new pair.
ALTER TABLE refresh_tokens ADD COLUMN successor_box text;
--;
-- Rate-limit counters in fixed windows, shared by every server process.
CREATE TABLE rate_limit_hits (
  bucket text NOT NULL,
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL DEFAULT 1,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (bucket, key, window_start)
);
--;
CREATE INDEX rate_limit_hits_expiry_idx ON rate_limit_hits (expires_at);
--;
-- A purged case that has orders stays as a tombstone (no files, hidden from the clinic's screens) so the orders
-- that name it stay readable.
ALTER TABLE cases ADD COLUMN purged_at timestamptz;
--;
-- Order mails follow the notifications written in the changing transaction: a notification waits for its mail
-- until the mail is in the outbox, so a crash between the two loses nothing.
ALTER TABLE notifications ADD COLUMN mail_batch uuid;
--;
CREATE INDEX notifications_mail_pending_idx ON notifications (mail_batch, created_at) WHERE mail_batch IS NOT NULL;
--;
-- The last run of each periodic job, so a failing one is visible (common/monitor, the logs).
CREATE TABLE job_runs (
  name text PRIMARY KEY,
  last_started_at timestamptz NOT NULL,
  last_finished_at timestamptz,
  last_ok boolean,
  last_error text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  details jsonb NOT NULL DEFAULT '{}'
);
