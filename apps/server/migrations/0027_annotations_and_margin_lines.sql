-- The 3D viewer's tools. Points are millimetres in the frame of the model file's compact viewer version.
--
-- Annotations: notes a clinician pins to a model of a case; the laboratory of an order reads its case's. They go
-- with their case, and with their model file when that file is deleted.
CREATE TABLE annotations (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  case_id bigint NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  file_id bigint NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  x double precision NOT NULL CHECK (x BETWEEN -10000 AND 10000),
  y double precision NOT NULL CHECK (y BETWEEN -10000 AND 10000),
  z double precision NOT NULL CHECK (z BETWEEN -10000 AND 10000),
  text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--;
-- A case's list, oldest first (and its count, for the limit per case).
CREATE INDEX annotations_case_idx ON annotations (case_id, created_at, id);
--;
CREATE INDEX annotations_file_idx ON annotations (file_id);
--;
-- Margin lines: one closed loop per prepared tooth of an order, drawn by either party on a model of the order's
-- case. Addressed by the order and the tooth; saving again replaces the line.
CREATE TABLE margin_lines (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  tooth smallint NOT NULL CHECK (tooth BETWEEN 11 AND 48),
  file_id bigint NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  -- [[x, y, z], …]: 3 to 500 points.
  points jsonb NOT NULL CHECK (jsonb_typeof(points) = 'array'),
  -- Who saved it last, and for which party of the order.
  organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_id, tooth)
);
--;
CREATE INDEX margin_lines_file_idx ON margin_lines (file_id);
