-- Random points inside a box per request: PATH_PREFIX is the path with its query up to the
-- coordinates; BOX = min_lon,min_lat,max_lon,max_lat.
local prefix, box
function init(args)
  prefix = args[1]
  box = {}
  for value in string.gmatch(args[2], "[^,]+") do table.insert(box, tonumber(value)) end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end
request = function()
  local lon = box[1] + math.random() * (box[3] - box[1])
  local lat = box[2] + math.random() * (box[4] - box[2])
  return wrk.format("GET", string.format("%slongitude=%.6f&latitude=%.6f", prefix, lon, lat))
end
function done(summary, latency, requests)
  io.write(string.format("non-2xx answers: %d\n", summary.errors.status))
end
