#!/usr/bin/env bash
# Closed users in waves behind one carrier (docs/findings.md, "Where the time went"), reproduced with wrk outside the
# lab: Tomcat + virtual threads at work=100 under 600 connections, as built and with four carriers
# (-Djdk.virtualThreadScheduler.parallelism=4).
#
#   scripts/wrk-waves.sh
#
# The downstream (500 ms) and wrk on CPU 1, the service on CPU 0 as the t2-micro profile runs it
# (-XX:ActiveProcessorCount=1 -XX:MaxRAM=1g). Per arm: a fresh service, 60 s of wrk -c400 as its warm-up, then
# wrk -t2 -c600 -d20s --latency and the service's CPU over those 20 s from /proc. Traffic goes to 127.0.0.1 only; the
# script ends the processes it started, by PID. Takes about 3.5 minutes. Build first (./lab doctor, or ./lab run once).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/jdk.sh"
find_jdk
java=$JAVA_HOME/bin/java
for tool in wrk taskset; do
  command -v $tool >/dev/null || { echo "wrk-waves: $tool is missing (apt-get install wrk util-linux)"; exit 2; }
done
for jar in downstream-delay-service app-tomcat-loom; do
  [[ -f $root/$jar/target/$jar.jar ]] || { echo "wrk-waves: $jar/target/$jar.jar is missing: build first (./lab run --dry-run builds)"; exit 2; }
done
work=$(mktemp -d)
script=wrk-waves
# shellcheck source=scripts/processes.sh
source "$root/scripts/processes.sh"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

taskset -c 1 "$java" -XX:+UseSerialGC -Xms1g -Xmx1g -Xmn512m -jar "$root/downstream-delay-service/target/downstream-delay-service.jar" \
  --server.port=0 --management.server.port=0 --lab.port-file="$work/downstream-port" > "$work/downstream.log" 2>&1 &
pids+=($!)
downstream=$(port_of "$work/downstream-port")
for arm in as-built four-carriers; do
  extra=()
  [[ $arm == four-carriers ]] && extra=(-Djdk.virtualThreadScheduler.parallelism=4)
  rm -f "$work/port"
  taskset -c 0 "$java" -XX:ActiveProcessorCount=1 -XX:MaxRAM=1g "${extra[@]}" -jar "$root/app-tomcat-loom/target/app-tomcat-loom.jar" \
    --server.port=0 --management.server.port=0 --lab.port-file="$work/port" --lab.downstream.base-url="http://127.0.0.1:$downstream" \
    --lab.process-metrics.thread-walk=false > "$work/$arm.log" 2>&1 &
  service=$!
  pids+=("$service")
  url="http://127.0.0.1:$(port_of "$work/port")/address/500?work=100"
  sleep 3
  taskset -c 1 timeout 90 wrk -t2 -c400 -d60s "$url" > /dev/null
  before=$(cpu_ticks "$service")
  echo "== $arm: wrk -t2 -c600 -d20s --latency $url"
  taskset -c 1 timeout 40 wrk -t2 -c600 -d20s --latency "$url"
  after=$(cpu_ticks "$service")
  echo "service CPU over the 20 s: $(( (after - before) * 10 / 20 )) ms a second"
  kill "$service"
  wait "$service" 2>/dev/null || true
done
