#!/usr/bin/env bash
# Start-to-exit time of 'bin/sluice sql --local 2' with a one-row query over a small Parquet file
# (issue 30's yardstick: median of 5 at most 2 s on a quiet machine).
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
times=()
for i in $(seq 1 "$runs"); do
  /usr/bin/time -f "%e %U %S" -o "$dir/time" bin/sluice sql --local 2 --format csv -e "$query" > "$dir/out"
  [ "$(tail -n 1 "$dir/out")" = "35" ] || { echo "run $i answered: $(cat "$dir/out")" >&2; exit 1; }
  read -r wall user sys < "$dir/time"
  echo "run $i: ${wall} s wall, $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') s CPU"
  times+=("$wall")
done
median="$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')"
echo "median of $runs: ${median} s wall (load average now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?))"
