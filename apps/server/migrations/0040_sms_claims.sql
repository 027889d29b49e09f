-- A text message being handed to the SMPP centre is claimed by one process until `claimed_until` (docs/operations.md,
-- "Mail"): another process, or another run of the same one, leaves it alone meanwhile; a claim that outlives a
-- crashed process runs out and the message is tried again.
ALTER TABLE mail_outbox ADD COLUMN claimed_until timestamptz;
--;
-- Of a text message sent in concatenated parts, how many the centre took: a retry sends only the rest.
ALTER TABLE mail_outbox ADD COLUMN parts_sent smallint NOT NULL DEFAULT 0;
