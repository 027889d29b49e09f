-- A case follows its order in every status (CASE_STATUS_BY_ORDER): the newest of its running orders, else the newest
-- settled one, else the newest canceled one (CASE_FOLLOWS_RANK). Before, a case stayed 'accepted' while its order was
-- ready or shipped, and whichever order moved last set the status, even while another order of the case was running.
-- The cases that have orders are set again by the new rule.
UPDATE cases c
   SET status = f.case_status
  FROM (
    SELECT DISTINCT ON (o.case_id)
           o.case_id,
           CASE o.status
             WHEN 'pending' THEN 'sent'
             WHEN 'accepted' THEN 'accepted'
             WHEN 'ready' THEN 'ready'
             WHEN 'shipped' THEN 'shipped'
             WHEN 'completed' THEN 'completed'
             WHEN 'canceled' THEN 'notSent'
             WHEN 'rejected' THEN 'rejected'
           END AS case_status
      FROM orders o
     ORDER BY o.case_id,
              CASE
                WHEN o.status IN ('pending', 'accepted', 'ready', 'shipped') THEN 2
                WHEN o.status IN ('completed', 'rejected') THEN 1
                ELSE 0
              END DESC,
              o.id DESC
  ) f
 WHERE f.case_id = c.id
   AND c.status <> f.case_status;
