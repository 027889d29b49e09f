-- A case's file count and bytes, kept with the file rows, so the list reads them instead of counting.
ALTER TABLE cases ADD COLUMN file_count integer NOT NULL DEFAULT 0, ADD COLUMN file_bytes bigint NOT NULL DEFAULT 0;
--;
UPDATE cases c SET file_count = f.n, file_bytes = f.bytes
  FROM (SELECT case_id, count(*) AS n, sum(size) AS bytes FROM files GROUP BY case_id) f WHERE f.case_id = c.id;
