-- The day a report version was published, in the publisher's timezone: the date its PDF prints. Counted from the
-- instant in UTC, a clinic in California publishing at 7 pm printed the next day. Versions published before this
-- keep the UTC day they printed.
ALTER TABLE report_versions ADD COLUMN published_on date;
--;
UPDATE report_versions SET published_on = (published_at AT TIME ZONE 'UTC')::date;
--;
ALTER TABLE report_versions ALTER COLUMN published_on SET NOT NULL;
