#!/usr/bin/env bash
# Start-to-exit time of 'bin/sluice sql --local 2' with a one-row query over a small Parquet file
# (issue 30's yardstick: median of 5 at most 2 s), next to DuckDB's time for the same query.
#
#   scripts/bench-cli-start.sh [RUNS]      (default 5; build first: mvn -DskipTests package)
#
# Writes a 35-row Parquet table with one untimed run of 'sluice sql' (which also makes bin/sluice's
# class data sharing archive when there is none: the timed runs see what a user's second call
# sees), then times RUNS runs of
#   bin/sluice sql --local 2 -e "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '<dir>'; SELECT count(*) FROM t"
# and prints each wall time, its CPU time (user+sys), and the median wall time. Every run must print
# the answer, 35. SLUICE_CDS=off measures without the archive. The machine's load average is printed
# too: on a loaded machine wall times say little, CPU times more.
#
# DuckDB's side, in the same run: the 'duckdb' CLI if one is on the PATH, else a fresh JVM running
# the same count over DuckDB's JDBC driver (scripts/DuckDbQuery.java; the driver jar from the local
# Maven repository, $DUCKDB_JDBC_JAR to name another), RUNS times; the ratio of the medians is printed.
# -Dsluice.debug.startup-trace=true in SLUICE_JAVA_OPTS prints where each Sluice run's time goes.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench-start.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
{ echo "id,name"; for i in $(seq 1 35); do echo "$i,name-$i"; done; } > "$dir/t.csv"
bin/sluice sql --local 1 --format csv -e "CREATE EXTERNAL TABLE c STORED AS CSV LOCATION '$dir/t.csv';
  CREATE TABLE p STORED AS PARQUET LOCATION '$dir/p' AS SELECT * FROM c" >/dev/null
query="CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '$dir/p'; SELECT count(*) FROM t"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"

median() {
  printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# Times RUNS runs of a command whose last output line must be 35; prints each and leaves the median in $result.
timed() {
  local name="$1"
  shift
  local times=() wall user sys
  for i in $(seq 1 "$runs"); do
    /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" > "$dir/out"
    [ "$(tail -n 1 "$dir/out")" = "35" ] || { echo "$name run $i answered: $(cat "$dir/out")" >&2; exit 1; }
    read -r wall user sys < "$dir/time"
    echo "$name run $i: ${wall} s wall, $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') s CPU"
    times+=("$wall")
  done
  result="$(median "${times[@]}")"
  echo "$name median of $runs: ${result} s wall"
}

timed sluice bin/sluice sql --local 2 --format csv -e "$query"
sluice="$result"

duckdb_query="SELECT count(*) FROM read_parquet('$dir/p/*.parquet')"
jar="${DUCKDB_JDBC_JAR:-$(ls "${HOME}"/.m2/repository/org/duckdb/duckdb_jdbc/*/duckdb_jdbc-*.jar 2>/dev/null | sort -V | tail -n 1)}"
peer=""
if command -v duckdb >/dev/null 2>&1; then
  timed "duckdb CLI" duckdb -csv -noheader -c "$duckdb_query"
  peer="DuckDB CLI"
elif [ -n "$jar" ] && [ -f "$jar" ] && command -v javac >/dev/null 2>&1; then
  javac -d "$dir/classes" scripts/DuckDbQuery.java
  timed "duckdb JDBC" "${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp "$dir/classes:$jar" DuckDbQuery "$duckdb_query"
  peer="DuckDB JDBC in a fresh JVM"
else
  echo "no DuckDB to compare with: no 'duckdb' on the PATH, and no duckdb_jdbc jar under ~/.m2 (DUCKDB_JDBC_JAR)"
fi
if [ -n "$peer" ]; then
  echo "sluice ${sluice} s vs ${peer} ${result} s: $(awk -v a="$sluice" -v b="$result" 'BEGIN { printf "%.1f", a / b }')x"
fi
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
