-- A fixed JSON POST; the body is the first argument.
function init(args)
  wrk.method = "POST"
  wrk.body = args[1]
  wrk.headers["Content-Type"] = "application/json"
end

function done(summary, latency, requests)
  io.write(string.format("non-2xx answers: %d\n", summary.errors.status))
end
