-- Events get their position as soon as their transaction has committed (docs/architecture.md, "Events and live
-- updates"): one position giver at a time numbers what it sees committed, so positions follow the commits. Waiting
-- for every older transaction of the whole PostgreSQL server to end held every event back behind any long one,
-- another database's included; the transaction id that wait compared is no longer kept.
ALTER TABLE events DROP COLUMN xid;
