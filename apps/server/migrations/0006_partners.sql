-- Partnerships between clinics and laboratories, with every change as an event row.
ALTER TABLE organizations ADD COLUMN invitation_code text NOT NULL DEFAULT upper(substr(md5(random()::text || clock_timestamp()::text), 1, 10));
--;
CREATE UNIQUE INDEX organizations_invitation_code_key ON organizations (invitation_code);
--;
CREATE TABLE partnerships (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  clinic_organization_id bigint NOT NULL REFERENCES organizations (id),
  -- Empty while a laboratory invited by email has not registered yet.
  lab_organization_id bigint REFERENCES organizations (id),
  invited_email text,
  status smallint NOT NULL CHECK (status IN (-2, 0, 1, 2, 3, 4)),
  initiator_organization_id bigint NOT NULL REFERENCES organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (lab_organization_id IS NOT NULL OR invited_email IS NOT NULL)
);
--;
CREATE UNIQUE INDEX partnerships_pair_key ON partnerships (clinic_organization_id, lab_organization_id) WHERE lab_organization_id IS NOT NULL;
--;
CREATE INDEX partnerships_lab_idx ON partnerships (lab_organization_id, status);
--;
CREATE INDEX partnerships_clinic_idx ON partnerships (clinic_organization_id, status);
--;
CREATE TABLE partnership_events (
  id bigserial PRIMARY KEY,
  partnership_id bigint NOT NULL REFERENCES partnerships (id) ON DELETE CASCADE,
  action text NOT NULL,
  from_status smallint,
  to_status smallint NOT NULL,
  reason text,
  actor_user_id bigint REFERENCES users (id),
  actor_organization_id bigint REFERENCES organizations (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX partnership_events_idx ON partnership_events (partnership_id, id);
--;
CREATE TABLE partner_invitations (
  token_hash text PRIMARY KEY,
  partnership_id bigint NOT NULL REFERENCES partnerships (id) ON DELETE CASCADE,
  email text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
-- The partner screens come with their menu entry (a menu entry appears when its screen exists).
