-- The case list's total is counted from its own index alone: the index carries the two dates under its sort
-- expression, which PostgreSQL needs to read an expression index without the table (see 0011). Before, the count
-- read the matching rows from the table, or every entry of the organization in another index.
DROP INDEX cases_list_idx;
--;
CREATE INDEX cases_list_idx ON cases (organization_id, (COALESCE(scan_date, created_at)) DESC, id DESC) INCLUDE (scan_date, created_at) WHERE deleted_at IS NULL;
