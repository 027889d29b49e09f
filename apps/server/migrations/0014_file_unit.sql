-- The length unit a model was found in when its viewer version was prepared: 'mm', 'm' or 'in' (the viewer
-- version is always in millimetres), 'unknown' when its size fits no plausible unit; null until then, and for
-- files that are no models.
ALTER TABLE files ADD COLUMN unit text CHECK (unit IN ('mm', 'm', 'in', 'unknown'));
--;
-- Models prepared before are prepared again (they stay shown meanwhile): their unit becomes known, and those in
-- metres or inches, ASCII STL with several solids, PLY with face colours and OBJ with vertex weights get a
-- faithful viewer version.
INSERT INTO jobs (kind, payload)
SELECT 'prepareModel', jsonb_build_object('fileId', id) FROM files WHERE viewer_status IN ('ready', 'failed');
