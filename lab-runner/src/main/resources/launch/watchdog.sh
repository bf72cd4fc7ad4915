# The runner's watchdog: started by the runner, outlives it. When the runner is gone without having stopped its
# children (SIGKILL, the OOM killer), it ends every process listed in the ledger (pid and start time, one per line,
# written as each child starts) and their descendants: SIGTERM, then SIGKILL after a grace period. A PID whose
# start time differs was reused by another process since, and is left alone. Args: runner PID, ledger file.
trap '' INT HUP
runner=$1
ledger=$2
grace=${3:-5}

# Field 22 of /proc/PID/stat (start time in clock ticks since boot); the command name may hold spaces.
start_time() {
  local line rest
  read -r line < "/proc/$1/stat" 2>/dev/null || return 1
  rest=${line##*) }
  set -- $rest
  echo "${20}"
}

# The children of $parent (a variable of the caller, tree).
children_of() {
  local stat line rest pid
  for stat in /proc/[0-9]*/stat; do
    read -r line < "$stat" 2>/dev/null || continue
    rest=${line##*) }
    set -- $rest
    if [ "$2" = "$parent" ]; then
      pid=${stat#/proc/}
      echo "${pid%/stat}"
    fi
  done
}

tree() { # PID and its descendants
  local parent=$1 child
  echo "$parent"
  for child in $(children_of); do tree "$child"; done
}

# Directories the runner listed beside the ledger (a PostgreSQL's data), removed once their processes are gone; only
# those named loom-lab-*, whatever the file says.
remove_listed() {
  local dir
  [ -r "$ledger.remove" ] || return 0
  while read -r dir; do
    case "$dir" in
      /*/loom-lab-*) [ -d "$dir" ] && rm -rf -- "$dir" ;;
    esac
  done < "$ledger.remove"
}
trap remove_listed EXIT

# A pause this shell can be woken from: SIGTERM (the runner's normal end, which has stopped and removed everything
# itself) ends the shell's own background sleep, waits for it and exits. Without it the sleep would outlive the
# watchdog, orphaned.
nap() { sleep "$1" & wait "$!"; }
trap 'trap - EXIT; naps=$(jobs -p); [ -z "$naps" ] || { kill $naps 2>/dev/null; wait $naps; }; exit 0' TERM

while kill -0 "$runner" 2>/dev/null; do nap 1; done

targets=()
if [ -r "$ledger" ]; then
  while read -r pid started; do
    [ -n "$pid" ] || continue
    [ "$(start_time "$pid")" = "$started" ] || continue
    for p in $(tree "$pid"); do targets+=("$p"); done
  done < "$ledger"
fi
[ ${#targets[@]} -gt 0 ] || exit 0
echo "lab watchdog: the runner ($runner) is gone; stopping ${targets[*]}" >&2
kill -TERM "${targets[@]}" 2>/dev/null
kill -CONT "${targets[@]}" 2>/dev/null
for _ in $(seq $((grace * 5))); do
  alive=()
  for p in "${targets[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
  [ ${#alive[@]} -eq 0 ] && exit 0
  nap 0.2
done
kill -KILL "${alive[@]}" 2>/dev/null
exit 0
