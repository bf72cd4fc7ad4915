#!/usr/bin/env bash
# A capacity run's crossing checked by an independent closed-model client: wrk keeps one request in flight per
# connection, as the lab's closed users do, so -c N is N users. For one variant and the loads given (users), the p99
# and throughput wrk reads at each, to set beside where `./lab run --scenario capacity` put p99 = 1 s.
#
#   scripts/wrk-crossing.sh app-tomcat-loom 900 1170 1500
#
# The downstream (500 ms) and wrk on CPU 1, the service on CPU 0 as the t2-micro profile runs it
# (-XX:ActiveProcessorCount=1 -XX:MaxRAM=1g), the capacity scenario's request (GET /address/500, pure waiting). One
# fresh service for all the loads: 60 s of wrk at 80% of the first load (1,000 at most) as its warm-up, then per load,
# 10 s after the last, wrk -t1 -c N -d20s --timeout 30s --latency: the lab's ramp and hold in one (wrk opens its
# connections at once and reads from the start, so its p99 holds that burst; one wrk per load, because requests a wrk
# run abandons at its end still hold a heap-bound service's heap). Traffic goes to 127.0.0.1 only; the script ends the
# processes it started, by PID. About 1.5 minutes plus 30 s a load. Build first (./lab run --dry-run builds).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/wrk-crossing.sh VARIANT USERS [USERS ...] (e.g. app-tomcat-loom 900 1170 1500)"
(( $# >= 2 )) || { echo "wrk-crossing: $usage" >&2; exit 2; }
variant=$1
shift
for users in "$@"; do
  if ! [[ $users =~ ^[0-9]+$ ]] || (( users < 1 || users > 16000 )); then
    echo "wrk-crossing: '$users' is not a number of users from 1 to 16000: $usage" >&2
    exit 2
  fi
done
[[ -f $root/$variant/target/$variant.jar ]] || { echo "wrk-crossing: $variant/target/$variant.jar is missing: a variant's module name, built first (./lab run --dry-run builds)" >&2; exit 2; }
[[ -f $root/downstream-delay-service/target/downstream-delay-service.jar ]] || { echo "wrk-crossing: the downstream's jar is missing: build first (./lab run --dry-run builds)" >&2; exit 2; }
# shellcheck source=scripts/jdk.sh
source "$root/scripts/jdk.sh"
find_jdk
java=$JAVA_HOME/bin/java
for tool in wrk taskset; do
  command -v $tool >/dev/null || { echo "wrk-crossing: $tool is missing (apt-get install wrk util-linux)" >&2; exit 2; }
done
work=$(mktemp -d)
script=wrk-crossing
# shellcheck source=scripts/processes.sh
source "$root/scripts/processes.sh"
# More connections than the default limit of open files allows would fail in wrk, not in the service.
ulimit -n "$(ulimit -Hn)"

taskset -c 1 "$java" -XX:+UseSerialGC -Xms1g -Xmx1g -Xmn512m -jar "$root/downstream-delay-service/target/downstream-delay-service.jar" \
  --server.port=0 --management.server.port=0 --lab.port-file="$work/downstream-port" > "$work/downstream.log" 2>&1 &
pids+=($!)
downstream=$(port_of "$work/downstream-port")
taskset -c 0 "$java" -XX:ActiveProcessorCount=1 -XX:MaxRAM=1g -jar "$root/$variant/target/$variant.jar" \
  --server.port=0 --management.server.port=0 --lab.port-file="$work/port" --lab.downstream.base-url="http://127.0.0.1:$downstream" \
  > "$work/service.log" 2>&1 &
pids+=($!)
url="http://127.0.0.1:$(port_of "$work/port")/address/500"
sleep 3
warm=$(( $1 * 8 / 10 ))
(( warm > 1000 )) && warm=1000
echo "== $variant: warm-up, wrk -t1 -c$warm -d60s --timeout 30s $url"
taskset -c 1 timeout 100 wrk -t1 -c"$warm" -d60s --timeout 30s "$url" > /dev/null
for users in "$@"; do
  # Every request answered before the next load opens its connections: a request wrk gives up on keeps its virtual
  # thread and its heap until the downstream answers, and a heap-bound service under two loads at once stalls.
  sleep 10
  echo "== $variant at $users users: wrk -t1 -c$users -d20s --timeout 30s --latency (its first seconds open the connections)"
  taskset -c 1 timeout 60 wrk -t1 -c"$users" -d20s --timeout 30s --latency "$url" | grep -E "^ +(50|90|99)%|requests in|Requests/sec|Socket errors|Non-2xx"
done
