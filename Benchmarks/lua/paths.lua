-- GETs cycling through the paths listed in a file (the first argument), one per line.
local paths, index = {}, 0
function init(args)
  for line in io.lines(args[1]) do table.insert(paths, line) end
end
request = function()
  index = index % #paths + 1
  return wrk.format("GET", paths[index])
end
function done(summary, latency, requests)
  io.write(string.format("non-2xx answers: %d\n", summary.errors.status))
end
