#!/usr/bin/env bash
# Writes the expected answers of the Spark SQL corpus (api/src/test/resources/spark-sql/*.slt) by
# running its statements on Apache Spark 4.2 itself (bench/spark-peer's SparkSltGenerator). By hand,
# never in CI; commit the rewritten files.
#   scripts/spark-slt-expected.sh [FILE_OR_DIR...]   (default: the whole corpus)
# SPARK_LIB names the directory of Spark's jars (default: bench/spark-peer/target/lib, built by
# 'mvn -f bench/spark-peer/pom.xml -DskipTests package').
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="${SPARK_LIB:-$root/bench/spark-peer/target/lib}"
if [ ! -d "$lib" ]; then
  echo "no Spark jars in $lib: build bench/spark-peer or set SPARK_LIB" >&2
  exit 2
fi
classes="$(mktemp -d)"
trap 'rm -rf "$classes"' EXIT
javac -nowarn -d "$classes" -cp "$lib/*" "$root/bench/spark-peer/src/main/java/io/sluice/sparkpeer/SparkSltGenerator.java"
mapfile -t opts < <(grep -v '^#' "$root/bench/spark-peer/jvm.options" | grep -v '^$')
if [ $# -eq 0 ]; then
  set -- "$root/api/src/test/resources/spark-sql"
fi
exec java "${opts[@]}" -Duser.timezone=UTC -Dlog4j2.level=error -cp "$classes:$lib/*" io.sluice.sparkpeer.SparkSltGenerator "$@"
