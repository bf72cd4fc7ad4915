#!/usr/bin/env bash
# CPU per request of a warm service with and without its trained AOT cache (docs/start.md), measured with wrk outside
# the lab: an independent check of the lab's own figures.
#
#   scripts/wrk-aot.sh VARIANT ROUNDS
#
# VARIANT: a module (app-webflux, app-tomcat-loom, ...) whose trained cache a lab run made on this JDK, e.g.
# `./lab run --scenario quick --aot none,trained --variants app-webflux`. Each round starts the service twice, without
# and then with the cache (the extracted jar both times, the t2-micro profile's flags, pinned alone to CPU 0; the
# downstream (500 ms) and wrk on CPU 1): 60 s of `wrk -c1000` to warm, then 30 s measured, the service's CPU from
# /proc/<pid>/stat before and after. One line per start on stdout: requests, rps, p99 and CPU ms per request.
# Traffic goes to 127.0.0.1 only; the script ends the processes it started, by PID. Takes ~100 s a start.
set -euo pipefail
variant=${1:?usage: scripts/wrk-aot.sh VARIANT ROUNDS}
rounds=${2:?ROUNDS missing}
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 && $rounds -le 10 ]] || { echo "wrk-aot: ROUNDS is a count from 1 to 10"; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/jdk.sh"
find_jdk
java=$JAVA_HOME/bin/java
for tool in wrk taskset curl sha256sum python3; do
  command -v $tool >/dev/null || { echo "wrk-aot: $tool is missing (apt-get install wrk util-linux curl coreutils python3)"; exit 2; }
done
fat=$root/$variant/target/$variant.jar
[[ -f $fat ]] || { echo "wrk-aot: no $fat: build it (./lab run builds it) or name a variant module"; exit 2; }
# The cache directory the lab uses for this jar (AotCache.cacheRoot, named by the jar's SHA-256).
cache_root=${LAB_CACHE_DIR:+$LAB_CACHE_DIR/aot}
cache_root=${cache_root:-${XDG_CACHE_HOME:-$HOME/.cache}/loom-lab/aot}
home=$cache_root/$variant-$(sha256sum "$fat" | cut -c1-12)
jdk=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1)
shopt -s nullglob
caches=("$home"/jdk$jdk-trained-*.aot)
[[ ${#caches[@]} -eq 1 && -f $home/$variant.jar ]] || { echo "wrk-aot: expected one trained cache in $home (found ${#caches[@]}): make it with ./lab run --scenario quick --aot none,trained --variants $variant"; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/wrk-aot-$variant-XXXX")
echo "wrk-aot: $variant, $rounds rounds, cache ${caches[0]}; files in $out"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
dp=$(free_port)
taskset -c 1 "$java" -XX:+UseSerialGC -Xms1g -Xmx1g -Xmn512m -jar "$root/downstream-delay-service/target/downstream-delay-service.jar" \
  --server.port="$dp" --management.server.port=0 > "$out/downstream.log" 2>&1 & dpid=$!
pids=("$dpid")
for _ in $(seq 60); do curl -sf "http://127.0.0.1:$dp/address/1" >/dev/null 2>&1 && break; sleep 1; done
for round in $(seq "$rounds"); do
  for mode in none trained; do
    flags=(-XX:ActiveProcessorCount=1 -XX:MaxRAM=1g)
    [[ $mode == trained ]] && flags+=("-XX:AOTCache=${caches[0]}" -XX:AOTMode=on)
    sp=$(free_port)
    taskset -c 0 "$java" "${flags[@]}" -jar "$home/$variant.jar" --server.port="$sp" --management.server.port=0 \
      --lab.downstream.base-url="http://127.0.0.1:$dp" > "$out/service-$mode-$round.log" 2>&1 & spid=$!
    pids=("$dpid" "$spid")
    for _ in $(seq 120); do curl -sf "http://127.0.0.1:$sp/address/1" >/dev/null 2>&1 && break; sleep 0.5; done
    taskset -c 1 wrk -t1 -c1000 -d60s --timeout 10s "http://127.0.0.1:$sp/address/500" > "$out/warm-$mode-$round.txt"
    before=$(ticks "$spid")
    taskset -c 1 wrk -t1 -c1000 -d30s --timeout 10s --latency "http://127.0.0.1:$sp/address/500" > "$out/measure-$mode-$round.txt"
    after=$(ticks "$spid")
    kill "$spid"; wait "$spid" 2>/dev/null || true
    pids=("$dpid")
    awk -v v="$variant" -v m="$mode" -v r="$round" -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" '
      / requests in / { n = $1 } /Requests\/sec/ { rps = $2 } / 99% / { p99 = $2 }
      END { printf "%s %s round %s: %d requests, %.0f rps, p99 %s, CPU %.3f ms per request\n", v, m, r, n, rps, p99, 1000 * t / hz / n }' \
      "$out/measure-$mode-$round.txt"
  done
done
