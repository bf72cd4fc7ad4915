#!/usr/bin/env bash
# WebFlux's accept under a burst of new connections (docs/webflux-tail.md), reproduced with wrk outside the lab.
#
#   [SERVICE=app-webflux-loom] scripts/wrk-burst.sh ARM STARTS RUNS [--hog]
#
# SERVICE: app-webflux (the default) or app-webflux-loom (the same Netty server; arms as-built and accept-own only).
# ARM: as-built   app-webflux as the lab builds it (Reactor Netty 1.3, Netty 4.2)
#      accept-own  the same jar with -Dreactor.netty.ioSelectCount=1 (tuned's setting: accepting on its own thread)
#      rn12-n41    the same code built on Reactor Netty 1.2.18 / Netty 4.1.135 (a copy of HEAD in a temporary directory)
#      rn12-n42    the same code built on Reactor Netty 1.2.18 / Netty 4.2 (Boot's)
# Each start: the downstream (500 ms) and wrk on CPU 1, the service on CPU 0 as the t2-micro profile runs it;
# a 60 s warm-up at 1,000 connections, then RUNS runs of `wrk -c4000 -d30s`, 10 s apart. --hog adds a busy loop on
# CPU 0 during each run (31 s, bounded). Per run it keeps wrk's output, the service's Prometheus page before and
# after, `nstat` counters and the listening socket's accept queue every 100 ms; one line per run on stdout.
# Traffic goes to 127.0.0.1 only; the script ends the processes it started, by PID. Takes ~(70 + 45 x RUNS) s a start.
set -euo pipefail
arm=${1:?usage: scripts/wrk-burst.sh as-built|accept-own|rn12-n41|rn12-n42 STARTS RUNS [--hog]}
starts=${2:?STARTS missing}; runs=${3:?RUNS missing}; hog=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/jdk.sh"
find_jdk
java=$JAVA_HOME/bin/java
for tool in wrk nstat ss taskset curl; do
  command -v $tool >/dev/null || { echo "wrk-burst: $tool is missing (apt-get install wrk iproute2 util-linux curl)"; exit 2; }
done
[[ $starts =~ ^[0-9]+$ && $runs =~ ^[0-9]+$ && $starts -le 20 && $runs -le 10 ]] || { echo "wrk-burst: STARTS (<= 20) and RUNS (<= 10) are counts"; exit 2; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ -n ${build:-} ]]; then rm -rf "$build"; fi
}
trap cleanup EXIT
service=${SERVICE:-app-webflux}
case $service in
  app-webflux) ;;
  app-webflux-loom) [[ $arm == as-built || $arm == accept-own ]] || { echo "wrk-burst: SERVICE=app-webflux-loom takes the arms as-built and accept-own only"; exit 2; } ;;
  *) echo "wrk-burst: unknown SERVICE '$service': use app-webflux or app-webflux-loom"; exit 2 ;;
esac
jar=$root/$service/target/$service.jar; flags=()
case $arm in
  as-built) ;;
  accept-own) flags=(-Dreactor.netty.ioSelectCount=1) ;;
  rn12-n41|rn12-n42)
    build=$(mktemp -d /tmp/wrk-burst-build.XXXXXX)
    git -C "$root" archive HEAD | tar -x -C "$build"
    # Reactor Netty pinned ahead of Boot's Reactor BOM; Netty left at Boot's 4.2 or set to Reactor Netty 1.2's 4.1.
    sed -i '/<dependencyManagement>/{n;s|<dependencies>|<dependencies><dependency><groupId>io.projectreactor.netty</groupId><artifactId>reactor-netty-core</artifactId><version>1.2.18</version></dependency><dependency><groupId>io.projectreactor.netty</groupId><artifactId>reactor-netty-http</artifactId><version>1.2.18</version></dependency>|}' "$build/pom.xml"
    netty=(); [[ $arm == rn12-n41 ]] && netty=(-Dnetty.version=4.1.135.Final)
    (cd "$build" && mvn -B -q package -DskipTests -pl app-webflux -am "${netty[@]}") >&2
    jar=$build/app-webflux/target/app-webflux.jar ;;
  *) echo "wrk-burst: unknown arm '$arm': use as-built, accept-own, rn12-n41 or rn12-n42"; exit 2 ;;
esac
[[ -f $jar ]] || { echo "wrk-burst: $jar is missing: ./lab build"; exit 2; }
out=$root/results/wrk-burst-${service#app-}-$arm-$(date +%Y%m%d-%H%M%S); mkdir -p "$out"
echo "wrk-burst: $service $arm, $starts starts x $runs runs${hog:+, service core shared with a busy loop}; files in $out"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
prom() { curl -s "http://127.0.0.1:$2/actuator/prometheus" > "$1" || true; }
for start in $(seq "$starts"); do
  dir=$out/start-$start; mkdir -p "$dir"
  dp=$(free_port); sp=$(free_port); mp=$(free_port)
  taskset -c 1 "$java" -XX:+UseSerialGC -Xms1g -Xmx1g -Xmn512m -jar "$root/downstream-delay-service/target/downstream-delay-service.jar" \
    --server.port="$dp" > "$dir/downstream.log" 2>&1 & dpid=$!
  taskset -c 0 "$java" "${flags[@]}" -XX:ActiveProcessorCount=1 -XX:MaxRAM=1g -jar "$jar" --server.port="$sp" --management.server.port="$mp" \
    --lab.downstream.base-url="http://127.0.0.1:$dp" --lab.process-metrics.thread-walk=false \
    --management.endpoints.web.exposure.include=health,prometheus > "$dir/service.log" 2>&1 & spid=$!
  pids=("$dpid" "$spid")
  for _ in $(seq 60); do curl -sf "http://127.0.0.1:$sp/address/1" >/dev/null 2>&1 && break; sleep 1; done
  taskset -c 1 wrk -t2 -c1000 -d60s --timeout 30s "http://127.0.0.1:$sp/address/500" > "$dir/warm.txt"
  sleep 10
  for run in $(seq "$runs"); do
    prom "$dir/prom-$run-before.txt" "$mp"; nstat -n
    ( for _ in $(seq 400); do echo "$(date +%s.%N) $(ss -Hltn "sport = :$sp" | awk '{print $2}')"; sleep 0.1; done ) > "$dir/acceptq-$run.txt" & qpid=$!
    [[ $hog == --hog ]] && { taskset -c 0 timeout 31 sh -c 'while :; do :; done' & }
    taskset -c 1 wrk -t2 -c4000 -d30s --latency --timeout 30s "http://127.0.0.1:$sp/address/500" > "$dir/wrk-$run.txt"
    nstat > "$dir/nstat-$run.txt"; kill "$qpid" 2>/dev/null || true
    prom "$dir/prom-$run-after.txt" "$mp"
    echo "start $start run $run: $(grep -E 'Requests/sec' "$dir/wrk-$run.txt" | tr -s ' '), p99 $(awk '/ 99%/{print $2}' "$dir/wrk-$run.txt"), slowest $(awk '/Latency/{print $4; exit}' "$dir/wrk-$run.txt"), accept queue peak $(sort -k2 -n "$dir/acceptq-$run.txt" | tail -1 | cut -d' ' -f2)"
    sleep 10
  done
  kill "$spid" "$dpid"; wait "$spid" "$dpid" 2>/dev/null || true
done
