-- Live updates (docs/architecture.md, "Events and live updates"): a service records an event row in the transaction
-- that makes the change; after the commit it is given a position, in commit order, and sent to the open sockets of
-- those it concerns. Rows hold codes, statuses and counts, never patient names: a client reads the rest through the
-- API, with its own rights. Kept 7 days; a client that saw a position older than the oldest kept refetches.
CREATE TABLE events (
  id bigserial PRIMARY KEY,
  -- Given once every transaction that could still write an earlier event has ended (NULL until then): a client that
  -- saw position 101 has seen every event before it.
  position bigint UNIQUE,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- Only this user's sockets (their notifications); NULL for every member of the organization.
  user_id bigint REFERENCES users (id) ON DELETE CASCADE,
  -- What a member's role must hold to receive it (order:view for an order's change); NULL for everyone.
  permission text,
  kind text NOT NULL,
  subject text,
  data jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX events_waiting_idx ON events (id) WHERE position IS NULL;
--;
CREATE INDEX events_organization_idx ON events (organization_id, position) WHERE position IS NOT NULL;
--;
CREATE INDEX events_created_idx ON events (created_at);
--;
CREATE SEQUENCE event_positions;
