-- Rotating refresh tokens at concurrency: a queue of (access, refresh) pairs; each request takes
-- one, each answer puts the rotated pair back. Pairs come from the file named by the first arg.
local queue = {}
local head, tail = 1, 0
local failures = 0

function init(args)
  for line in io.lines(args[1]) do
    local access, refresh = line:match("^(%S+) (%S+)$")
    if access then tail = tail + 1; queue[tail] = {access, refresh} end
  end
end

function request()
  local pair = queue[head]
  queue[head] = nil
  head = head + 1
  return wrk.format("GET", "/v1/auth/refresh", {
    ["SeSACKey"] = wrk.headers["SeSACKey"], ["Authorization"] = pair[1], ["RefreshToken"] = pair[2],
  })
end

function response(status, headers, body)
  local access = body:match('"accessToken":"([^"]+)"')
  local refresh = body:match('"refreshToken":"([^"]+)"')
  if status ~= 200 or not access then failures = failures + 1; return end
  tail = tail + 1
  queue[tail] = {access, refresh}
end

function done(summary, latency, requests)
  io.write(string.format("non-200 answers: %d\n", summary.errors.status))
end
