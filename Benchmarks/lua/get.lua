function done(summary, latency, requests)
  io.write(string.format("non-2xx answers: %d\n", summary.errors.status))
end
