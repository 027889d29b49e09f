-- Cases, their files, dentists, storage accounting, uploads in progress, exports, background jobs, scanners.

CREATE TABLE dentists (
  id bigserial PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE UNIQUE INDEX dentists_name_per_org ON dentists (organization_id, lower(name));
--;
CREATE TABLE devices (
  id bigserial PRIMARY KEY,
  serial_number text NOT NULL UNIQUE,
  model text NOT NULL,
  name text,
  oem_organization_id bigint REFERENCES organizations (id),
  dealer_organization_id bigint REFERENCES organizations (id),
  clinic_organization_id bigint REFERENCES organizations (id),
  status text NOT NULL DEFAULT 'InActiveted' CHECK (status IN ('Activated', 'DataTransferring', 'DataTransferred', 'InActiveted', 'Disabled', 'Canceled')),
  local_save boolean NOT NULL DEFAULT true,
  cloud_save boolean NOT NULL DEFAULT true,
  limit_type smallint NOT NULL DEFAULT 3 CHECK (limit_type IN (1, 2, 3)),
  warranty_date date,
  battery_health smallint CHECK (battery_health BETWEEN 0 AND 100),
  activation_code_hash text NOT NULL,
  activated_at timestamptz,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX devices_clinic_idx ON devices (clinic_organization_id);
--;
CREATE INDEX devices_dealer_idx ON devices (dealer_organization_id);
--;
CREATE INDEX devices_oem_idx ON devices (oem_organization_id);
--;
CREATE TABLE device_tokens (
  token_hash text PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
--;
CREATE TABLE cases (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  name text NOT NULL CHECK (char_length(name) <= 128),
  patient_name text NOT NULL,
  patient_id text,
  birth_date date,
  scan_date timestamptz,
  dentist_id bigint REFERENCES dentists (id) ON DELETE SET NULL,
  treatments text[] NOT NULL DEFAULT '{}',
  memo text,
  status text NOT NULL DEFAULT 'registered',
  device_id bigint REFERENCES devices (id),
  created_by bigint REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
--;
-- The default list: an organization's live cases by scan date; the recycle bin by deletion date.
CREATE INDEX cases_list_idx ON cases (organization_id, scan_date DESC NULLS LAST, id DESC) WHERE deleted_at IS NULL;
--;
CREATE INDEX cases_created_idx ON cases (organization_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
--;
CREATE INDEX cases_bin_idx ON cases (organization_id, deleted_at DESC) WHERE deleted_at IS NOT NULL;
--;
CREATE INDEX cases_patient_idx ON cases (organization_id, lower(patient_name) text_pattern_ops) WHERE deleted_at IS NULL;
--;
CREATE INDEX cases_patient_id_idx ON cases (organization_id, lower(patient_id) text_pattern_ops) WHERE deleted_at IS NULL;
--;
CREATE TABLE files (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  case_id bigint NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  name text NOT NULL,
  format text NOT NULL,
  kind text NOT NULL,
  jaw text CHECK (jaw IN ('upper', 'lower', 'bite')),
  size bigint NOT NULL,
  storage_key text NOT NULL,
  viewer_key text,
  viewer_size bigint,
  viewer_status text NOT NULL DEFAULT 'none' CHECK (viewer_status IN ('none', 'pending', 'ready', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX files_case_idx ON files (case_id);
--;
CREATE INDEX files_org_size_idx ON files (organization_id, size DESC);
--;
-- Uploads in progress: whose they are and the bytes they hold against the quota.
CREATE TABLE uploads (
  id text PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  case_id bigint NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  user_id bigint REFERENCES users (id),
  device_id bigint REFERENCES devices (id),
  name text NOT NULL,
  format text NOT NULL,
  jaw text,
  size bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX uploads_org_idx ON uploads (organization_id);
--;
-- Exact storage use per organization: changed in the same transaction as the file rows.
CREATE TABLE storage_accounts (
  organization_id bigint PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  used_bytes bigint NOT NULL DEFAULT 0 CHECK (used_bytes >= 0),
  quota_bytes bigint
);
--;
CREATE TABLE exports (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  user_id bigint NOT NULL REFERENCES users (id),
  case_ids bigint[] NOT NULL,
  types text[] NOT NULL,
  status smallint NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 5),
  progress smallint NOT NULL DEFAULT 0,
  storage_key text,
  size bigint,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
--;
-- Durable background jobs, claimed with SKIP LOCKED so several processes can share them.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_at timestamptz,
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
CREATE INDEX jobs_ready_idx ON jobs (run_after) WHERE status = 'queued';
--;
INSERT INTO menus (code, parent_code, name, path, icon, show_flag, show_always, component, type, api_permissions, sort) VALUES
  ('cases', NULL, 'menu.cases', '/case-management', 'FolderOpenOutlined', true, false, 'caseList', 1, '{case:view}', 20),
  ('caseDetail', 'cases', 'menu.caseDetail', '/case-management/detail/:id', NULL, false, false, 'caseDetail', 1, '{case:view}', 1),
  ('cases.edit', 'cases', 'menu.caseEdit', NULL, NULL, false, false, NULL, 2, '{case:edit}', 2),
  ('recycleBin', NULL, 'menu.recycleBin', '/recycle-bin', 'DeleteOutlined', true, false, 'recycleBin', 1, '{case:edit}', 85);
--;
-- Clinics and laboratories work with cases; dealers and OEMs see scanners in their own space.
INSERT INTO role_menus (role_id, menu_id)
  SELECT r.id, m.id FROM roles r JOIN menus m ON m.code IN ('cases', 'caseDetail', 'cases.edit', 'recycleBin')
   WHERE r.code IN ('clinic_admin', 'lab_admin');
