#!/usr/bin/env bash
# Benchmarks of the running suite on this machine (release build, loopback, wrk as the client).
#   Benchmarks/run.sh gateway   gateway overhead: the same small JSON endpoint on auth-svc directly
#                               and through the gateway, same concurrency
#   Benchmarks/run.sh auth      logins/s, refreshes/s and a protected GET through the gateway
#   Benchmarks/run.sh market    100,000 posts and 10,000 filters seeded: a feed page and a filter detail
# Environment: DURATION (seconds per run, default 10), CONCURRENCY (default 16).
set -euo pipefail
cd "$(dirname "$0")/.."
which wrk >/dev/null || { echo "needs wrk (apt-get install wrk)"; exit 1; }
swift build -c release >/dev/null
BIN=$(swift build -c release --show-bin-path)
DURATION=${DURATION:-10}
CONCURRENCY=${CONCURRENCY:-16}
DATA=$(mktemp -d)
SECRET=bench-internal-secret-0123456789
KEY=bench-app-key
pick_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
AUTH_PORT=$(pick_port); MARKET_PORT=$(pick_port); GATEWAY_PORT=$(pick_port)
export INTERNAL_SECRET=$SECRET DATA_DIR=$DATA LOG_LEVEL=warning AUTH_DEV_APP_KEY=$KEY \
  AUTH_SVC_URL=http://127.0.0.1:$AUTH_PORT MARKET_SVC_URL=http://127.0.0.1:$MARKET_PORT \
  GATEWAY_RATE_PER_IP=1000000 GATEWAY_BURST_PER_IP=1000000 GATEWAY_RATE_PER_APP=1000000 GATEWAY_BURST_PER_APP=1000000
PIDS=()
cleanup() { kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT
PORT=$AUTH_PORT "$BIN/auth-svc" > "$DATA/auth.log" 2>&1 & PIDS+=($!)
PORT=$MARKET_PORT "$BIN/market-svc" > "$DATA/market.log" 2>&1 & PIDS+=($!)
PORT=$GATEWAY_PORT "$BIN/gateway" > "$DATA/gateway.log" 2>&1 & PIDS+=($!)
for port in $AUTH_PORT $MARKET_PORT $GATEWAY_PORT; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
done
GW=http://127.0.0.1:$GATEWAY_PORT
APP_ID=$(curl -sf -H "x-internal-secret: $SECRET" -H "x-internal-app-key: $KEY" "http://127.0.0.1:$AUTH_PORT/internal/apps/resolve" | python3 -c 'import json,sys; print(json.load(sys.stdin)["app_id"])')
run() { echo "== $1"; shift; wrk -t1 -c"$CONCURRENCY" -d"${DURATION}s" --latency "$@" | grep -E "Requests/sec|^ +50%|^ +99%|non-2|non-200|Socket errors"; }
echo "machine: $(nproc) cores; concurrency $CONCURRENCY; ${DURATION}s per run"

case "${1:-gateway}" in
gateway)
  BODY='{"email":"nobody@bench.example"}'
  run "direct: POST /v1/users/validation/email on auth-svc" -s Benchmarks/lua/post.lua \
    -H "x-internal-secret: $SECRET" -H "x-internal-app-id: $APP_ID" "http://127.0.0.1:$AUTH_PORT/v1/users/validation/email" -- "$BODY"
  run "through the gateway: POST /v1/users/validation/email" -s Benchmarks/lua/post.lua \
    -H "SeSACKey: $KEY" "$GW/v1/users/validation/email" -- "$BODY"
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
  # 100,000 posts and 10,000 filters by one real user, written straight into market-svc's file.
  AUTH=$(curl -sf -H "SeSACKey: $KEY" -H 'Content-Type: application/json' "$GW/v1/users/join" \
    -d '{"email":"seller@bench.example","password":"bench123!","nick":"seller"}')
  USER_ID=$(echo "$AUTH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["user_id"])')
  TOKEN=$(echo "$AUTH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  sqlite3 "$DATA/market-svc.sqlite" <<SQL
PRAGMA busy_timeout = 5000;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
INSERT INTO post (id, app_id, creator_id, category, title, price, content, created_at, updated_at)
SELECT printf('%024x', i), '$APP_ID', '$USER_ID', 'c' || (i % 5), 'title ' || i, 0, 'content #tag' || (i % 100), 1700000000000 + i, 1700000000000 + i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
INSERT INTO filter (id, app_id, creator_id, category, title, description, price, files, filter_values, created_at, updated_at)
SELECT printf('f%023x', i), '$APP_ID', '$USER_ID', 'film', 'filter ' || i, 'description ' || i, 1000,
       '["/data/filters/a.jpg","/data/filters/b.jpg"]', '{"brightness":0.1,"contrast":1.2}', 1700000000000 + i, 1700000000000 + i FROM n;
SQL
  echo "seeded: $(sqlite3 "$DATA/market-svc.sqlite" 'SELECT COUNT(*) FROM post') posts, $(sqlite3 "$DATA/market-svc.sqlite" 'SELECT COUNT(*) FROM filter') filters"
  run "GET /v1/posts?limit=20" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/posts?limit=20"
  run "GET /v1/filters/{id}" -s Benchmarks/lua/get.lua -H "SeSACKey: $KEY" -H "Authorization: $TOKEN" "$GW/v1/filters/$(printf 'f%023x' 4242)"
  ;;
*) echo "usage: $0 gateway|auth|market"; exit 2 ;;
esac
