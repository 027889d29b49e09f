-- Idempotency keys (docs/api.md, "Retrying a write"): a write sent again with the same `Idempotency-Key` is answered
-- with the first answer instead of being applied twice. Keyed per caller (a user, or an app acting for one).
CREATE TABLE idempotency_keys (
  caller text NOT NULL,
  key text NOT NULL,
  -- The call and its body, hashed: the same key with another request is refused.
  request_hash text NOT NULL,
  -- Null while the first request runs.
  status integer,
  content_type text,
  body bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (caller, key)
);
--;
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
