# shellcheck shell=bash disable=SC2154 # $work and $script are the sourcing script's
# The processes a wrk script starts, ended by PID when it exits (never by name), and the port a service writes to its
# --lab.port-file. Sourced by scripts/wrk-waves.sh and scripts/wrk-crossing.sh after they set $work (a scratch
# directory, removed at exit) and $script (their name, for messages).
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 2
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
port_of() { for _ in $(seq 120); do [[ -s $1 ]] && { cat "$1"; return 0; }; sleep 0.5; done; echo "$script: no port in $1" >&2; exit 1; }
