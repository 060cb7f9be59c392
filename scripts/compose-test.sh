#!/usr/bin/env bash
# End-to-end test of docker-compose.yml under a real Docker engine, as a user meets it:
#
#   1. finds a JRE base image (SLUICE_BASE_IMAGE, else jre17:local, else eclipse-temurin:17-jre if
#      present locally), or builds jre17:local with debootstrap from apt's Debian mirror (needs
#      root and no registry; --build-base forces it); skips (exit 77) when it has none and cannot;
#   2. builds the project image from ./Dockerfile and brings the cluster up under its own compose
#      project name (never touching other containers), HTTP port published on 127.0.0.1;
#   3. writes CSV test data into ./data/<project>/ (the cluster turns it into Parquet with a CTAS)
#      and checks query answers from the host (`bin/sluice sql --coordinator 127.0.0.1:PORT`)
#      against counts and sums it computed itself while writing the data;
#   4. checks /v1/health (workers, slots, free slots) and docker's health checks of both services
#      (docker-compose.yml), scales to 3 workers, runs a shuffle join,
#      then runs it again and kills one worker container (`docker kill`) once the join's two map
#      stages are done and its reduce stage runs (/v1/jobs), so that map outputs the reducers
#      are reading are lost with the worker and must be recomputed, and asserts the right answer arrives within 30 s plus the undisturbed join's time of the
#      kill: 17 s to notice (10 s heartbeat pause, 7 s before the unreachable worker is removed),
#      at most one join's work again, some slack; a stalled shuffle read alone would take longer;
#   5. scales to 0 workers and asserts a query fails at once (within 5 s at the HTTP port) with
#      the message that there are no workers, which `bin/sluice sql` prints;
#   6. tears everything down on exit (containers, networks, volumes, its image and data).
#
# Needs: a running Docker engine, docker-compose (v1) or `docker compose` (v2), curl, Java 17 for
# bin/sluice, and the jar built: `mvn -DskipTests package`. Exit 0: passed; 77: skipped (no
# engine, no base image and none can be built); anything else: failed. Every wait is bounded
# (generously: on a loaded 2-core machine a node takes a minute or two to start).
#
# Settings (environment): SLUICE_BASE_IMAGE (JRE base image), SLUICE_TEST_PROJECT (compose project
# name; default sluice-ctest-PID), SLUICE_TEST_PORT (host HTTP port; default 8080, or a free one),
# SLUICE_TEST_ROWS (rows of test data; 2000000), SLUICE_TEST_KILL_BOUND (seconds; see 4.),
# SLUICE_DEBIAN_MIRROR (for debootstrap; default: apt's own).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

SKIPPED=77
started=$(date +%s)
log() { printf '[compose-test %4ss] %s\n' "$(( $(date +%s) - started ))" "$*"; }
fail() { log "FAIL: $*"; exit 1; }
skip() { log "SKIP: $*"; exit "$SKIPPED"; }
now_ms() { date +%s%3N; }
secs_since() { awk -v a="$1" -v b="$(now_ms)" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }

build_base=false
for arg in "$@"; do
  case "$arg" in
    --build-base) build_base=true ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

# ---- prerequisites ---------------------------------------------------------------------------
command -v docker >/dev/null 2>&1 || skip "no docker command"
timeout 20 docker info >/dev/null 2>&1 || skip "no Docker engine answers 'docker info'"
if command -v docker-compose >/dev/null 2>&1; then
  compose_cmd=(docker-compose)
elif timeout 20 docker compose version >/dev/null 2>&1; then
  compose_cmd=(docker compose)
else
  skip "neither docker-compose nor 'docker compose' is installed"
fi
command -v curl >/dev/null 2>&1 || skip "curl is needed to read /v1/health"
"${JAVA_HOME:+$JAVA_HOME/bin/}java" -version >/dev/null 2>&1 || skip "no java for bin/sluice on this host"
ls cli/target/sluice-cli-*.jar >/dev/null 2>&1 && [ -d cli/target/lib ] \
  || fail "cli/target has no jar: run 'mvn -DskipTests package' first"

# The host's few client calls go without a class data sharing archive: making one (bin/sluice's
# training run, once per build) would only add to the test's time.
export SLUICE_CDS="${SLUICE_CDS:-off}"
project="${SLUICE_TEST_PROJECT:-sluice-ctest-$$}"
rows="${SLUICE_TEST_ROWS:-2000000}"
image="sluice:${project}"
sub="compose-test-${project}"            # under ./data, seen by the nodes as /data/$sub
rootfs=""
cluster_up=false
made_data_dir=false

# ---- teardown: everything this run created, and nothing else ---------------------------------
compose() { timeout "${COMPOSE_TIMEOUT:-300}" "${compose_cmd[@]}" -p "$project" -f "$root/docker-compose.yml" "$@"; }
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  if $cluster_up; then
    if [ "$rc" -ne 0 ] && [ "$rc" -ne "$SKIPPED" ]; then
      log "last log lines of the cluster:"
      COMPOSE_TIMEOUT=30 compose logs --no-color --tail 40 2>&1 | tail -n 120
    fi
    log "tearing down project $project"
    # files the cluster wrote belong to the image's user (uid 10001): remove them as that user
    timeout 60 docker run --rm --network none -v "$root/data:/data" --entrypoint rm "$image" -rf "/data/$sub" \
      >/dev/null 2>&1
    COMPOSE_TIMEOUT=120 compose down -v --remove-orphans -t 5 >/dev/null 2>&1
    for id in $(docker ps -aq --filter "label=com.docker.compose.project=$project"); do
      docker rm -f -v "$id" >/dev/null 2>&1
    done
    for net in $(docker network ls -q --filter "label=com.docker.compose.project=$project"); do
      docker network rm "$net" >/dev/null 2>&1
    done
  fi
  docker image inspect "$image" >/dev/null 2>&1 && docker rmi -f "$image" >/dev/null 2>&1
  rm -rf "$root/data/$sub"
  $made_data_dir && rmdir "$root/data" 2>/dev/null
  [ -n "$rootfs" ] && rm -rf "$rootfs" "$rootfs.log"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- base image ------------------------------------------------------------------------------
# The Debian mirror apt uses (one-line and deb822 sources), for debootstrap.
debian_mirror() {
  { cat /etc/apt/sources.list 2>/dev/null | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }'
    cat /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }'
    cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i }'
  } | grep -E '/debian/?$' | head -n 1
}

build_base_image() {
  command -v debootstrap >/dev/null 2>&1 || return 1
  [ "$(id -u)" -eq 0 ] || return 1
  local mirror="${SLUICE_DEBIAN_MIRROR:-$(debian_mirror)}"
  [ -n "$mirror" ] || return 1
  rootfs="$(mktemp -d "${TMPDIR:-/tmp}/sluice-jre17.XXXXXX")"
  log "building base image jre17:local: debootstrap bookworm from $mirror (a minute on an idle machine, several on a loaded one)"
  if ! timeout 900 debootstrap --variant=minbase --include=openjdk-17-jre-headless bookworm "$rootfs" "$mirror" \
      >"$rootfs.log" 2>&1; then
    tail -n 5 "$rootfs.log"
    return 1
  fi
  local previous
  previous="$(docker image inspect -f '{{.Id}}' jre17:local 2>/dev/null || true)"
  tar -C "$rootfs" -c . | timeout 300 docker import - jre17:local >/dev/null || return 1
  # the image it replaces would linger untagged
  [ -n "$previous" ] && docker rmi "$previous" >/dev/null 2>&1
  rm -rf "$rootfs" "$rootfs.log"
  rootfs=""
  timeout 60 docker run --rm --network none jre17:local java -version >/dev/null 2>&1
}

if $build_base; then
  build_base_image || fail "could not build jre17:local with debootstrap (needs root, debootstrap and a Debian mirror)"
  base=jre17:local
elif [ -n "${SLUICE_BASE_IMAGE:-}" ]; then
  base="$SLUICE_BASE_IMAGE"
elif docker image inspect jre17:local >/dev/null 2>&1; then
  base=jre17:local
elif docker image inspect eclipse-temurin:17-jre >/dev/null 2>&1; then
  base=eclipse-temurin:17-jre
elif build_base_image; then
  base=jre17:local
else
  skip "no JRE base image here (jre17:local, eclipse-temurin:17-jre; or set SLUICE_BASE_IMAGE) and none could be built (debootstrap as root with a Debian mirror)"
fi
log "base image $base"

# ---- the host HTTP port ----------------------------------------------------------------------
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port="${SLUICE_TEST_PORT:-}"
if [ -z "$port" ]; then
  for candidate in 8080 $(seq 18080 18099); do
    if port_free "$candidate"; then port=$candidate; break; fi
  done
  [ -n "$port" ] || fail "no free port among 8080 and 18080-18099 (set SLUICE_TEST_PORT)"
fi

export SLUICE_BASE_IMAGE="$base" SLUICE_IMAGE="$image" SLUICE_HTTP_PORT="$port"
SLUICE_AUTH_SECRET="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
export SLUICE_AUTH_SECRET

# ---- test data, and the answers it must give -------------------------------------------------
[ -d "$root/data" ] || { mkdir "$root/data"; made_data_dir=true; }
mkdir -p "$root/data/$sub/csv"
chmod 777 "$root/data/$sub"                # the nodes (uid 10001) write the Parquet copy here
files=6
log "writing $rows rows of CSV in $files files under data/$sub/csv"
awk -v rows="$rows" -v files="$files" -v dir="$root/data/$sub/csv" -v expected="$root/data/$sub/expected" 'BEGIN {
  per = int((rows + files - 1) / files)
  for (f = 0; f < files; f++) {
    out = sprintf("%s/part-%d.csv", dir, f)
    print "id,k,v" > out
    for (i = f * per + 1; i <= rows && i <= (f + 1) * per; i++) {
      k = i % 7; v = (i * 7919) % 1000
      printf "%d,%d,%d\n", i, k, v > out
      n[k]++; s[k] += v; total += v
    }
    close(out)
  }
  printf "%d,%d\n", rows, total > (expected ".total")
  for (k = 0; k < 7; k++) printf "%d,%d,%d\n", k, n[k], s[k] > (expected ".byk")
}'
expected_total="$(cat "$root/data/$sub/expected.total")"
expected_byk="$(cat "$root/data/$sub/expected.byk")"
chmod -R a+rX "$root/data/$sub"

tables="CREATE EXTERNAL TABLE c STORED AS CSV LOCATION '/data/$sub/csv';"
parquet="CREATE EXTERNAL TABLE p STORED AS PARQUET LOCATION '/data/$sub/parquet';"
# a shuffle join of all rows (never broadcast): two map stages and a reduce stage, seconds long
join_sql="SET sluice.join.broadcast-threshold = -1; $tables $parquet
SELECT count(*) AS n, sum(b.v) AS s FROM p a JOIN c b ON a.id = b.id AND a.k = b.k"

# Runs a SQL script on the cluster; prints its rows as CSV without the header line.
sql() {
  local bound="$1"; shift
  timeout "$bound" "$root/bin/sluice" sql --coordinator "127.0.0.1:$port" --format csv --no-progress -e "$1" \
    | tail -n +2
}
health() { curl -fsS --max-time 5 "http://127.0.0.1:$port/v1/health" 2>/dev/null || true; }
# The unfinished stages of the running query, from /v1/jobs: [{"stage":2,"done":1,"total":12}].
stages() {
  curl -fsS --max-time 5 -H "Authorization: Bearer $SLUICE_AUTH_SECRET" "http://127.0.0.1:$port/v1/jobs" 2>/dev/null \
    | grep -o '"stages":\[[^]]*\]' | head -n 1 | sed 's/^"stages"://' || true
}
json_int() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" <<<"$2"; }
# Waits (at most $2 s) until /v1/health reports $1 workers with all their slots free.
await_workers() {
  local want="$1" bound="$2" deadline=$(( $(date +%s) + $2 )) h=""
  while [ "$(date +%s)" -lt "$deadline" ]; do
    h="$(health)"
    if [ "$(json_int workers "$h")" = "$want" ] && [ "$(json_int free_slots "$h")" = "$(json_int slots "$h")" ]; then
      log "health: $h"
      return 0
    fi
    sleep 1
  done
  fail "health did not report $want idle workers within ${bound}s; last: ${h:-no answer}"
}
# Waits (at most $2 s) until docker reports every container of service $1 healthy (docker-compose.yml's checks).
await_healthy() {
  local deadline=$(( $(date +%s) + $2 )) ids="" status=""
  while [ "$(date +%s)" -lt "$deadline" ]; do
    ids="$(docker ps -q --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=$1")"
    status="$(for id in $ids; do docker inspect -f '{{.State.Health.Status}}' "$id"; done | sort -u | tr '\n' ' ')"
    if [ -n "$ids" ] && [ "$status" = "healthy " ]; then
      log "ok: docker reports the $1 container(s) healthy"
      return 0
    fi
    sleep 2
  done
  fail "docker did not report the $1 containers healthy within ${2}s (last: ${status:-no container})"
}
worker_ids() { docker ps -q --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=worker"; }
expect() {   # expect NAME ACTUAL EXPECTED
  [ "$2" = "$3" ] || fail "$1: got [$2], expected [$3]"
  log "ok: $1 = $(tr '\n' ' ' <<<"$2")"
}

# ---- bring up --------------------------------------------------------------------------------
log "building image $image (project $project, HTTP port 127.0.0.1:$port)"
compose build coordinator >/dev/null || fail "docker-compose build failed"
cluster_up=true
t0=$(now_ms)
compose up -d --scale worker=1 2>&1 | sed 's/^/  /'
await_workers 1 300
log "cluster up with one worker in $(secs_since "$t0") s"
await_healthy coordinator 240
await_healthy worker 240
[ "$(json_int slots "$(health)")" -gt 0 ] || fail "health reports no slots"

# ---- queries from the host -------------------------------------------------------------------
expect "CSV count and sum" "$(sql 120 "$tables SELECT count(*) AS n, sum(v) AS s FROM c")" "$expected_total"
# a CTAS has no rows to print: in the table format its status (the rows written) goes to stderr
written="$(timeout 300 "$root/bin/sluice" sql --coordinator "127.0.0.1:$port" --no-progress \
  -e "$tables CREATE TABLE p STORED AS PARQUET LOCATION '/data/$sub/parquet' AS SELECT * FROM c" 2>&1 >/dev/null)"
grep -q "$rows rows" <<<"$written" || fail "CTAS to Parquet answered [$written]"
log "ok: the cluster wrote the table as Parquet ($written)"
expect "Parquet count and sum per k" \
  "$(sql 120 "$parquet SELECT k, count(*) AS n, sum(v) AS s FROM p GROUP BY k ORDER BY k")" "$expected_byk"

# ---- three workers ---------------------------------------------------------------------------
compose up -d --scale worker=3 2>&1 | sed 's/^/  /'
await_workers 3 300
[ "$(json_int slots "$(health)")" -ge 3 ] || fail "three workers but fewer than three slots"
t0=$(now_ms)
expect "join on 3 workers" "$(sql 300 "$join_sql")" "$expected_total"
baseline_ms=$(( $(now_ms) - t0 ))
log "the join took $(secs_since "$t0") s on three workers"
kill_bound="${SLUICE_TEST_KILL_BOUND:-$(( 30 + (baseline_ms + 999) / 1000 ))}"

# ---- a worker killed in the middle of the join -----------------------------------------------
out="$(mktemp)"; err="$(mktemp)"
t0=$(now_ms)
( set +e; sql 600 "$join_sql" >"$out" 2>"$err"; echo $? >"$out.rc" ) &
client=$!
# kill once the map stages (0 and 1) are done and the reduce stage (2) reads their outputs
deadline=$(( $(date +%s) + 300 ))
while :; do
  s="$(stages)"
  if [ "$(grep -o '"stage":' <<<"$s" | wc -l)" -eq 1 ] && grep -q '"stage":2,' <<<"$s"; then
    break
  fi
  [ -f "$out.rc" ] && fail "the join ended before a worker could be killed in its reduce stage (raise SLUICE_TEST_ROWS)"
  [ "$(date +%s)" -lt "$deadline" ] || fail "the join's reduce stage did not start within 300 s"
  sleep 0.2
done
victim="$(worker_ids | head -n 1)"
[ -n "$victim" ] || fail "no worker container to kill"
log "killing worker container ${victim:0:12} $(secs_since "$t0") s into the join (unfinished stages: $s; health: $(health))"
docker kill "$victim" >/dev/null
t_kill=$(now_ms)
deadline_ms=$(( t_kill + kill_bound * 1000 ))
while [ ! -f "$out.rc" ] && [ "$(now_ms)" -lt "$deadline_ms" ]; do sleep 0.2; done
if [ ! -f "$out.rc" ]; then
  kill "$client" 2>/dev/null || true
  fail "no answer within ${kill_bound}s of killing a worker"
fi
wait "$client" || true
answered="$(secs_since "$t_kill")"
[ "$(cat "$out.rc")" = 0 ] || fail "the join failed after a worker was killed: $(cat "$err")"
expect "join with a worker killed mid-query" "$(cat "$out")" "$expected_total"
log "answer ${answered} s after the kill (bound ${kill_bound} s; undisturbed join $((baseline_ms / 1000)) s)"
log "health after the kill: $(health)"
COMPOSE_TIMEOUT=30 compose logs --no-color coordinator 2>/dev/null \
  | grep -E "unreachable|left|is gone|recomputing|lost" | sed 's/^/  /' | cut -c1-220 || true
rm -f "$out" "$out.rc" "$err"
expect "count after the kill" "$(sql 120 "$tables SELECT count(*) AS n, sum(v) AS s FROM c")" "$expected_total"

# ---- no workers: a query fails fast and says why ---------------------------------------------
compose up -d --scale worker=0 2>&1 | sed 's/^/  /'
await_workers 0 300
# timed at the HTTP port (bin/sluice adds its JVM's start), then as a user sees it
t0=$(now_ms)
answer="$(curl -sS --max-time 30 -H "Authorization: Bearer $SLUICE_AUTH_SECRET" \
  --data-binary "$tables SELECT count(*) FROM c" -w ' (HTTP %{http_code})' "http://127.0.0.1:$port/v1/sql" 2>&1 || true)"
took="$(secs_since "$t0")"
grep -q "no workers" <<<"$answer" || fail "a query without workers did not fail saying so: $answer"
awk -v t="$took" 'BEGIN { exit !(t < 5) }' || fail "a query without workers took ${took}s to fail (bound 5 s)"
log "ok: without workers the coordinator fails a query in ${took} s: $answer"
if message="$(timeout 120 "$root/bin/sluice" sql --coordinator "127.0.0.1:$port" --no-progress \
    -e "$tables SELECT count(*) FROM c" 2>&1)"; then
  fail "a query without workers succeeded: $message"
fi
grep -q "no workers" <<<"$message" || fail "bin/sluice sql without workers failed without saying so: $message"
log "ok: bin/sluice sql says: $message"

log "PASS ($(( $(date +%s) - started )) s)"
