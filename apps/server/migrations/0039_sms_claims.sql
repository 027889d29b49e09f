-- A text message being handed to the SMPP centre is claimed by one process until `claimed_until` (docs/operations.md,
-- "Text messages"): another process, or another run of the same one, leaves it alone meanwhile; a claim that outlives
-- a crashed process runs out and the message is tried again.
ALTER TABLE mail_outbox ADD COLUMN claimed_until timestamptz;
