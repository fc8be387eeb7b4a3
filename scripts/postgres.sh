# Sourced by scripts/test and Benchmarks/run.sh: a throwaway cluster of Debian's `postgresql` on a
# free port in a temporary folder. PostgreSQL refuses to run as root; as root it runs as the
# package's `postgres` user.
#   start_postgres [server options…]  sets POSTGRES_URL and POSTGRES_PORT; fails when not installed
#   postgres_database NAME            creates a database and prints its URL
#   stop_postgres                     stops every cluster started and removes their folders
#   free_port                         prints a port nothing listens on
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
pg_dir=""
pg_dirs=()
pg_as=()

start_postgres() {
  [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || return 1
  pg_dir=$(mktemp -d)
  pg_dirs+=("$pg_dir")
  if [ "$(id -u)" = 0 ]; then chown postgres "$pg_dir"; pg_as=(runuser -u postgres --); fi
  POSTGRES_PORT=$(free_port)
  "${pg_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U glint --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w start \
    -o "-p $POSTGRES_PORT -k $pg_dir -c listen_addresses=127.0.0.1 $*" >/dev/null
  POSTGRES_URL="postgres://glint@127.0.0.1:$POSTGRES_PORT/postgres?sslmode=disable"
}

postgres_database() {
  "$pg_bin/psql" -q -h 127.0.0.1 -p "$POSTGRES_PORT" -U glint -d postgres -c "CREATE DATABASE $1" >/dev/null
  echo "postgres://glint@127.0.0.1:$POSTGRES_PORT/$1?sslmode=disable"
}

stop_postgres() {
  for dir in "${pg_dirs[@]}"; do
    "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
  done
  pg_dirs=()
  pg_dir=""
}
