-- The claim that runs a job: its process renews locked_at while the job runs; a running job whose claim stopped
-- being renewed (its process died) is queued again, and only the current claim may record the outcome.
ALTER TABLE jobs ADD COLUMN claimed_by text;
--;
CREATE INDEX jobs_running_idx ON jobs (locked_at) WHERE status = 'running';
