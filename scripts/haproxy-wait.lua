-- While no portal process is up (all restarting, or the first one still migrating), a request waits here for one, up
-- to 30 s, instead of getting the balancer's 503 at once.
core.register_action("wait_for_portal", { "http-req" }, function(txn)
  local backend = core.backends["portal"]
  for _ = 1, 150 do
    for _, server in pairs(backend.servers) do
      if string.sub(server:get_stats().status, 1, 2) == "UP" then return end
    end
    core.msleep(200)
  end
end, 0)
