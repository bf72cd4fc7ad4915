#!/usr/bin/env bash
# The lab on AWS in three commands, built on terraform/ and the lab's remote mode (--target, --downstream, --injectors):
#   ./lab aws up   [--yes] [--dry-run] [--scenario S]   create the lab (prints what, its hourly cost and how many injectors
#                                                  scenario S's top load needs, then asks), ship the services to their
#                                                  instances and start them, ship the lab to injector 1
#   ./lab aws run  [--dry-run] [RUN FLAGS...]      run a scenario (default: --scenario seed) from injector 1 against every
#                                                  deployed variant, one after the other; the results come home into results/
#   ./lab aws down [--yes] [--dry-run]            destroy everything the lab created, and check nothing is left
# Each step can be repeated after a failure: up applies only what is missing and ships again; run starts a new run;
# down destroys what is left. --dry-run prints every command and runs none.
# Settings: terraform/terraform.tfvars (copy terraform.tfvars.example). AWS credentials as Terraform reads them
# (AWS_PROFILE, AWS_ACCESS_KEY_ID...). SSH as ./lab's remote mode uses it: BatchMode, keys from ~/.ssh/config or the
# agent, extra options from LAB_SSH_OPTIONS (e.g. "-i ~/.ssh/lab.pem"). LAB_AWS_DIR: another Terraform directory;
# LAB_RESULTS_DIR: where results come home (default results/).
# Exit codes: 0 done; 1 a step failed (the line says which; repeat the command); 2 bad usage or a missing tool.
set -euo pipefail
LAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TF_DIR="${LAB_AWS_DIR:-$LAB_ROOT/terraform}"
SSH_USER="${LAB_AWS_USER:-ubuntu}"
# Where a run's results come home.
RESULTS="${LAB_RESULTS_DIR:-$LAB_ROOT/results}"
# The lab on injector 1, relative to its user's home.
REMOTE_HOME=loom-lab-home
DRY=0
YES=0

say() { echo "lab aws: $*" >&2; }
die() { local code="$1"; shift; say "$*"; exit "$code"; }
usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

# A command as a person would type it: words quoted only where the shell needs it.
shown() {
  local out=() word
  for word in "$@"; do
    if [[ "$word" =~ ^[][A-Za-z0-9_@%+=:,./\<\>-]+$ ]]; then out+=("$word"); else out+=("'${word//\'/\'\\\'\'}'"); fi
  done
  echo "+ ${out[*]}" >&2
}

# Prints a command, then runs it (unless --dry-run).
x() {
  shown "$@"
  [[ $DRY == 1 ]] || "$@"
}

tf() { x terraform -chdir="$TF_DIR" "$@"; }

read -r -a SSH_OPTS <<<"-o BatchMode=yes -o ConnectTimeout=10 -o StrictHostKeyChecking=accept-new -o ServerAliveInterval=15 ${LAB_SSH_OPTIONS:-}"
# ssh and scp with SSH_OPTS, shown without them (say_ssh_options prints them once).
ssh_to() {
  local host="$1"; shift
  shown ssh "$SSH_USER@$host" "$@"
  # shellcheck disable=SC2029 # the remote command is meant to expand there
  [[ $DRY == 1 ]] || ssh "${SSH_OPTS[@]}" "$SSH_USER@$host" "$@"
}
scp_to() {
  local host="$1" target="$2"; shift 2
  shown scp -q "$@" "$SSH_USER@$host:$target"
  [[ $DRY == 1 ]] || scp -q "${SSH_OPTS[@]}" "$@" "$SSH_USER@$host:$target"
}
say_ssh_options() { say "every ssh and scp below runs with: ${SSH_OPTS[*]}"; }

need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die 2 "'$tool' not found: install it (terraform from developer.hashicorp.com, python3, openssh-client)"
  done
}

# One value of `terraform output -json`: a Python expression over `o` (the outputs' values); a list prints one item a
# line. In a dry run nothing is read: the placeholder given (even empty), else the expression in angle brackets.
output_json=""
outputs() {
  if [[ $DRY == 1 ]]; then
    if [[ $# -ge 2 ]]; then echo "$2"; else echo "<$1>"; fi
    return
  fi
  if [[ -z "$output_json" ]]; then
    output_json=$(terraform -chdir="$TF_DIR" output -json) || die 1 "terraform output failed in $TF_DIR"
  fi
  OUTPUTS="$output_json" EXPR="$1" python3 -c 'import json, os
o = {k: v["value"] for k, v in json.loads(os.environ["OUTPUTS"]).items()}
r = eval(os.environ["EXPR"])
print("\n".join(map(str, r)) if isinstance(r, list) else r)' 2>/dev/null || die 1 "terraform output has no $1: run ./lab aws up first"
}

# The variants deployed: from the outputs, or in a dry run from terraform.tfvars (else the configuration's default).
deployed() {
  if [[ $DRY == 0 ]]; then
    outputs 'sorted(o["proxy_urls"])'
    return
  fi
  python3 - "$TF_DIR" <<'PY'
import re, sys
d = sys.argv[1]
for f in (d + "/terraform.tfvars", d + "/variables.tf"):
    try:
        m = re.search(r'(?:^|\n)\s*(?:variants|default)\s*=\s*(\[[^\]]*"app-[^\]]*\])', open(f).read())
    except OSError:
        continue
    if m:
        print("\n".join(sorted(re.findall(r'"([^"]+)"', m.group(1)))))
        break
PY
}

# The database set's services deployed (terraform.tfvars' database_set): from the outputs, or in a dry run from the file.
db_deployed() {
  if [[ $DRY == 0 ]]; then
    outputs 'sorted(o.get("db_service_public_ips") or {})'
    return
  fi
  python3 - "$TF_DIR" <<'PY'
import re, sys
try:
    m = re.search(r'(?:^|\n)\s*database_set\s*=\s*(\[[^\]]*\])', open(sys.argv[1] + "/terraform.tfvars").read())
except OSError:
    m = None
if m:
    print("\n".join(sorted(re.findall(r'"([^"]+)"', m.group(1)))))
PY
}

management_port_of() { # the port a variant's health and metrics answer on (from its management URL)
  if [[ $DRY == 1 ]]; then echo "<management port of $1>"; else outputs "o['management_urls']['$1'].rsplit(':', 1)[1]"; fi
}

# The injectors' type and count: "standing" from the outputs (outside a dry run), else as configured in
# terraform.tfvars (else the configuration's defaults): what ./lab aws up is about to apply.
injector_site() {
  if [[ $DRY == 0 && "$1" == standing ]]; then
    echo "$(outputs 'o["site"]["instance_types"]["injector"]') $(outputs 'o["site"]["injector_count"]')"
    return
  fi
  python3 - "$TF_DIR" <<'PY'
import re, sys
d = sys.argv[1]
def first(pattern):
    for f in (d + "/terraform.tfvars", d + "/variables.tf"):
        try:
            m = re.search(pattern, open(f).read(), re.S)
        except OSError:
            continue
        if m:
            return m.group(1)
print(first(r'\binjector\s*=\s*"([^"]+)"') or "c5.xlarge",
      first(r'(?:^|\n)\s*injector_count\s*=\s*(\d+)') or first(r'variable "injector_count" \{[^}]*?default\s*=\s*(\d+)') or 1)
PY
}

# How many injectors of the chosen type the scenario's top load needs (./lab injectors), with a WARNING line when
# injector_count is below it. Arguments: standing|configured, then the run's --scenario, --users and --delay-ms.
injector_plan() {
  local type count
  read -r type count < <(injector_site "$1")
  shift
  if [[ ! -f "$LAB_ROOT/lab-runner/target/lab-runner-exec.jar" ]]; then
    say "injectors: the lab is not built yet (./lab build): no injector plan; $count x $type planned"
    return 0
  fi
  "$LAB_ROOT/lab" injectors --instance-type "$type" --count "$count" "$@" 2>&1 | sed 's/^/lab aws: /' >&2 || true
}

# Waits until the host answers SSH and its first boot (user data) has finished; a failed user data stops here.
await_host() {
  local host="$1" deadline=$((SECONDS + ${LAB_AWS_BOOT_SECONDS:-900}))
  [[ $DRY == 1 ]] && { ssh_to "$host" 'cloud-init status --wait'; return; }
  say "waiting for $host to answer SSH and finish its first boot..."
  until ssh "${SSH_OPTS[@]}" "$SSH_USER@$host" true 2>/dev/null; do
    (( SECONDS < deadline )) || die 1 "$host did not answer SSH within ${LAB_AWS_BOOT_SECONDS:-900} s: is operator_cidr your address, and the key pair yours? Then repeat ./lab aws up"
    sleep 5
  done
  if ! ssh_to "$host" 'cloud-init status --wait >/dev/null'; then
    die 1 "the user data failed on $host: read it with: ssh $SSH_USER@$host 'sudo tail -n 50 /var/log/cloud-init-output.log'"
  fi
}

# The service's jar to its instance, installed for its unit, (re)started and healthy on its health port (a proxy's
# management port, the downstream's one port).
ship_service() {
  local host="$1" module="$2" port="$3"
  local jar="$LAB_ROOT/$module/target/$module.jar"
  await_host "$host"
  scp_to "$host" "/tmp/$module.jar" "$jar"
  ssh_to "$host" "sudo install -o lab -g lab -m 644 /tmp/$module.jar /opt/lab/$module.jar && sudo systemctl restart $module \
&& for i in \$(seq 90); do curl -fs -o /dev/null http://127.0.0.1:$port/actuator/health && exit 0; sleep 2; done; \
echo '$module did not become healthy in 180 s: sudo journalctl -u $module' >&2; exit 1"
}

# The lab's runner and the simulation with its jars, as one archive for injector 1 (no build or Maven needed there).
bundle() {
  local dir="$LAB_ROOT/target/aws-bundle"
  x rm -rf "$dir"
  x mkdir -p "$dir/lab-runner/target" "$dir/gatling/target/lib"
  x cp "$LAB_ROOT/lab-runner/target/lab-runner-exec.jar" "$dir/lab-runner/target/"
  x cp -r "$LAB_ROOT/gatling/target/classes" "$dir/gatling/target/"
  if [[ $DRY == 0 ]]; then
    local classpath=() jars=() jar
    # The file has no final newline: read reports its end as a failure.
    IFS=: read -r -a jars < "$LAB_ROOT/gatling/target/classpath.txt" || true
    for jar in "${jars[@]}"; do
      [[ -e "$dir/gatling/target/lib/$(basename "$jar")" ]] && die 1 "two jars named $(basename "$jar") on the simulation's classpath"
      cp "$jar" "$dir/gatling/target/lib/"
      classpath+=("@ROOT@/gatling/target/lib/$(basename "$jar")")
    done
    (IFS=:; echo "${classpath[*]}") > "$dir/gatling/target/classpath.txt"
    git -C "$LAB_ROOT" rev-parse HEAD > "$dir/commit" 2>/dev/null || echo unknown > "$dir/commit"
  else
    echo "+ (each jar of gatling/target/classpath.txt copied into $dir/gatling/target/lib, the classpath rewritten to it)" >&2
  fi
  x tar -C "$dir" -czf "$LAB_ROOT/target/aws-bundle.tgz" .
}

confirm() {
  [[ $YES == 1 || $DRY == 1 ]] && return 0
  local answer
  read -r -p "$1 Type yes to go on: " answer || true
  [[ "$answer" == yes ]] || die 1 "stopped: nothing was changed"
}

# What a saved plan creates, changes and destroys, and what the lab costs an hour once it stands (list prices);
# returns 3 when no resource changes (outputs only).
describe_plan() {
  terraform -chdir="$TF_DIR" show -json lab.tfplan >"$TF_DIR/lab.tfplan.json"
  local status=0
  python3 - "$TF_DIR/lab.tfplan.json" <<'PY' || status=$?
import json, sys
# On-demand list prices in eu-west-1, USD per hour (Linux); other regions differ by up to ~30%: check the AWS pricing page.
PRICES = {"t2.micro": 0.0126, "t2.small": 0.025, "t2.medium": 0.05, "t3.micro": 0.0114, "t3.medium": 0.0456,
          "c5.large": 0.096, "c5.xlarge": 0.192, "c5.2xlarge": 0.384, "c6i.xlarge": 0.192, "m5.large": 0.107}
PUBLIC_IPV4, GP3_GB = 0.005, 0.088 / 730
plan = json.load(open(sys.argv[1]))
counts = {}
for change in plan["resource_changes"]:
    for action in change["change"]["actions"]:
        if action != "no-op" and action != "read":
            counts.setdefault(action, []).append(change["address"])
for action, addresses in counts.items():
    print(f"  {action}: {len(addresses)}: " + ", ".join(addresses))
if not counts:
    # Only outputs differ (e.g. one added to outputs.tf): nothing on the account changes.
    print("  no resource to create, change or destroy; outputs only")
    sys.exit(3)
hourly, unknown, lines = 0.0, [], []
for r in plan["planned_values"]["root_module"].get("resources", []):
    if r["type"] != "aws_instance":
        continue
    v = r["values"]
    kind, gb = v["instance_type"], sum(d.get("volume_size") or 0 for d in v.get("root_block_device", []))
    price = PRICES.get(kind)
    if price is None:
        unknown.append(kind)
        price = 0.0
    cost = price + PUBLIC_IPV4 + gb * GP3_GB
    hourly += cost
    lines.append(f"    {r['address']}: {kind}, {gb} GB gp3, public IPv4: ${cost:.3f}/h")
print("  the lab once created (eu-west-1 list prices; t2 in unlimited mode may add up to ~$0.05 per instance-hour flat out):")
print("\n".join(lines))
print(f"  about ${hourly:.2f} an hour" + (f" plus {sorted(set(unknown))} (price not in the table)" if unknown else ""))
PY
  rm -f "$TF_DIR/lab.tfplan.json"
  return "$status"
}

cmd_up() {
  need terraform python3 ssh scp
  [[ -f "$TF_DIR/terraform.tfvars" || $DRY == 1 ]] \
    || die 2 "no $TF_DIR/terraform.tfvars: copy terraform.tfvars.example to it and fill in region, owner, operator_cidr (your address as /32) and key_name"
  say_ssh_options
  injector_plan configured "${UP_PLAN_ARGS[@]+"${UP_PLAN_ARGS[@]}"}"
  tf init -input=false
  local changes=2
  if [[ $DRY == 1 ]]; then
    tf plan -input=false -out=lab.tfplan
  else
    echo "+ terraform -chdir=$TF_DIR plan -input=false -detailed-exitcode -out=lab.tfplan" >&2
    terraform -chdir="$TF_DIR" plan -input=false -detailed-exitcode -out=lab.tfplan >"$TF_DIR/lab.tfplan.log" 2>&1 || changes=$?
    (( changes == 0 || changes == 2 )) || { cat "$TF_DIR/lab.tfplan.log" >&2; die 1 "terraform plan failed (above); fix and repeat ./lab aws up"; }
  fi
  if (( changes == 2 )); then
    if [[ $DRY == 1 ]]; then
      tf apply -input=false lab.tfplan
    else
      say "the plan:"
      if describe_plan >&2; then
        confirm "Create or change these on your AWS account?"
      else
        say "the lab stands as planned: nothing to create (the outputs are updated)"
      fi
      tf apply -input=false lab.tfplan
    fi
  else
    say "the lab stands as planned: nothing to create"
  fi
  [[ $DRY == 1 ]] || rm -f "$TF_DIR/lab.tfplan" "$TF_DIR/lab.tfplan.log"

  local variants db_services missing=0
  shown terraform -chdir="$TF_DIR" output -json
  variants=$(deployed)
  db_services=$(db_deployed)
  for module in downstream-delay-service $variants $db_services; do
    [[ -f "$LAB_ROOT/$module/target/$module.jar" ]] || missing=1
  done
  [[ -f "$LAB_ROOT/lab-runner/target/lab-runner-exec.jar" ]] || missing=1
  (( missing == 0 )) || x "$LAB_ROOT/lab" build

  # Each value read by an assignment of its own: a missing output stops the script there (set -e), not as an empty host.
  local host port first injectors
  host=$(outputs 'o["downstream_public_ip"]' '<downstream_public_ip>')
  ship_service "$host" downstream-delay-service 7000
  for variant in $variants; do
    host=$(outputs "o['proxy_public_ips']['$variant']" "<proxy_public_ips[$variant]>")
    port=$(management_port_of "$variant")
    ship_service "$host" "$variant" "$port"
  done
  # The database set, when terraform.tfvars deploys it: its PostgreSQL's first boot (the table loaded), then each
  # service of the set like a proxy. ./lab aws run does not drive the set yet (docs/database.md).
  if [[ -n "$db_services" ]]; then
    host=$(outputs 'o["database_public_ip"]' '<database_public_ip>')
    await_host "$host"
    # The set's table, loaded once (the file the lab loads into the PostgreSQL it starts itself), as the role lab.
    scp_to "$host" /tmp/account.sql "$LAB_ROOT/db-common/src/main/resources/lab-db/account.sql"
    ssh_to "$host" "sudo -u postgres psql -d lab -tAc \"SELECT to_regclass('account')\" | grep -q account \
|| sudo -u postgres psql -v ON_ERROR_STOP=1 -d lab -c 'SET ROLE lab' -f /tmp/account.sql"
    for service in $db_services; do
      host=$(outputs "o['db_service_public_ips']['$service']" "<db_service_public_ips[$service]>")
      port=$(outputs "o['db_service_urls']['$service']['management'].rsplit(':', 1)[1]" "<management port of $service>")
      ship_service "$host" "$service" "$port"
    done
  fi
  bundle
  first=$(outputs 'o["injector_public_ips"][0]' '<injector_public_ips[0]>')
  injectors=$(outputs 'o["injector_public_ips"]' '<injector_public_ips...>')
  for injector in $injectors; do
    await_host "$injector"
  done
  scp_to "$first" /tmp/aws-bundle.tgz "$LAB_ROOT/target/aws-bundle.tgz"
  # shellcheck disable=SC2016 # expanded on the injector
  ssh_to "$first" 'rm -rf ~/'$REMOTE_HOME'/lab-runner ~/'$REMOTE_HOME'/gatling && mkdir -p ~/'$REMOTE_HOME' && tar -C ~/'$REMOTE_HOME' -xzf /tmp/aws-bundle.tgz && sed -i "s#@ROOT@#$HOME/'$REMOTE_HOME'#g" ~/'$REMOTE_HOME'/gatling/target/classpath.txt && java -version 2>&1 | head -1'
  if [[ $DRY == 1 ]]; then say "dry run: nothing was run"; return; fi
  say "up: $(echo "$variants" | wc -w) variant(s) healthy, the lab on injector $first; next: ./lab aws run"
}

cmd_run() {
  need terraform python3 ssh
  local given=("$@") args=() plan=() variants="" i
  # The run's own flags pass through; --variants is given once, below, with every variant checked to be deployed;
  # --scenario, --users and --delay-ms also make the injector plan.
  for ((i = 0; i < ${#given[@]}; i++)); do
    case "${given[$i]}" in
      --variants) variants="${given[$((i + 1))]:-}"; i=$((i + 1)); continue ;;
      --variants=*) variants="${given[$i]#--variants=}"; continue ;;
      --scenario|--users|--delay-ms) plan+=("${given[$i]}" "${given[$((i + 1))]:-}") ;;
      --scenario=*|--users=*|--delay-ms=*) plan+=("${given[$i]}") ;;
      --target*|--downstream*|--injectors*|--management*|--compose|--out*) die 2 "./lab aws run sets ${given[$i]%%=*} itself from terraform output: drop it" ;;
    esac
    args+=("${given[$i]}")
  done
  [[ " ${plan[*]-} " == *" --scenario"* ]] || { args=(--scenario seed "${args[@]+"${args[@]}"}"); plan+=(--scenario seed); }
  injector_plan standing "${plan[@]}"
  local deployed_variants targets="" managements="" names=""
  shown terraform -chdir="$TF_DIR" output -json
  deployed_variants=$(deployed)
  [[ -n "$variants" ]] || variants=$(echo "$deployed_variants" | paste -sd, -)
  for variant in ${variants//,/ }; do
    grep -qx "$variant" <<<"$deployed_variants" || die 2 "--variants: $variant is not deployed (deployed: $(echo "$deployed_variants" | paste -sd' ' -)); add it to variants in terraform.tfvars and run ./lab aws up"
    targets+="${targets:+,}$variant=$(outputs "o['proxy_urls']['$variant']" "<proxy_urls[$variant]>")"
    managements+="${managements:+,}$variant=$(outputs "o['management_urls']['$variant']" "<management_urls[$variant]>")"
    names+="${names:+,}$variant"
  done
  local injectors="" ip first downstream site name
  first=$(outputs 'o["injector_public_ips"][0]' '<injector_public_ips[0]>')
  # One injector: the runner's own local one. More: injector 1 locally and the others over SSH, the load split.
  for ip in $(outputs 'o["injector_private_ips"][1:]' ''); do
    injectors+="${injectors:---injectors local},$SSH_USER@$ip"
  done
  downstream=$(outputs 'o["downstream_url"]' '<downstream_url>')
  site=$(outputs '"AWS " + o["site"]["region"] + o["site"]["zone"] + ": proxy " + o["site"]["instance_types"]["proxy"] + " (t2 credits " + o["site"]["t2_cpu_credits"] + "), downstream " + o["site"]["instance_types"]["downstream"] + ", " + str(o["site"]["injector_count"]) + " x injector " + o["site"]["instance_types"]["injector"]' '<site>')
  name="$(date +%Y%m%d-%H%M%S)-aws"
  local remote
  remote="cd ~/$REMOTE_HOME && LAB_SITE=$(printf %q "$site") LAB_GIT_COMMIT=\$(cat commit) java -Dlab.root=\$HOME/$REMOTE_HOME -jar lab-runner/target/lab-runner-exec.jar run"
  remote+=" $(printf '%q ' "${args[@]}")--variants $names --target $targets --management $managements --downstream $downstream ${injectors:+$injectors }--out results/$name"
  [[ $DRY == 1 ]] || say "running on injector $first (the agent forwarded for the other injectors); the results come home into $RESULTS/$name"
  local status=0
  say_ssh_options
  # -A: injector 1 reaches the other injectors with the operator's own agent; no key is stored on an instance.
  shown ssh -A "$SSH_USER@$first" "$remote"
  if [[ $DRY == 0 ]]; then ssh -A "${SSH_OPTS[@]}" "$SSH_USER@$first" "$remote" || status=$?; fi
  # The results come home whatever the run's outcome: a partial run's report is readable too.
  x mkdir -p "$RESULTS"
  echo "+ ssh $SSH_USER@$first 'tar -C $REMOTE_HOME/results -cf - $name' | tar -C $RESULTS -xf -" >&2
  if [[ $DRY == 0 ]]; then
    # shellcheck disable=SC2029 # the directory names are this script's own
    ssh "${SSH_OPTS[@]}" "$SSH_USER@$first" "tar -C $REMOTE_HOME/results -cf - $name" | tar -C "$RESULTS" -xf - \
      || die 1 "the results could not be brought home: they are on $first in ~/$REMOTE_HOME/results/$name"
    if [[ ! -f "$RESULTS/$name/report.html" ]]; then
      # The raw files came home: the report is rendered here (the injector could not, or the run was cut short).
      say "no report came home: rendering it here from the raw files"
      x "$LAB_ROOT/lab" report "$RESULTS/$name" || say "the report could not be rendered; the raw files are in $RESULTS/$name"
    fi
    say "report: $RESULTS/$name/report.html (the run ended with exit code $status)"
  fi
  return "$status"
}

cmd_down() {
  need terraform
  tf init -input=false
  if [[ $DRY == 0 ]]; then
    local left
    left=$(terraform -chdir="$TF_DIR" state list 2>/dev/null || true)
    [[ -n "$left" ]] || { say "nothing to destroy: the state holds no resource"; return 0; }
    say "destroying $(echo "$left" | wc -l) resources: $(echo "$left" | paste -sd' ' -)"
  fi
  confirm "Destroy every resource of the lab?"
  tf destroy -input=false -auto-approve
  if [[ $DRY == 0 ]]; then
    [[ -z "$(terraform -chdir="$TF_DIR" state list)" ]] || die 1 "resources are left in the state: repeat ./lab aws down"
    say "down: nothing is left"
  fi
}

sub="${1:-}"
[[ $# -gt 0 ]] && shift
rest=()
# ./lab aws up --scenario S: the scenario whose top load the injector plan is for (default: run's default, seed).
UP_PLAN_ARGS=()
while [[ $# -gt 0 ]]; do
  arg="$1"
  shift
  case "$arg" in
    --dry-run) DRY=1 ;;
    --yes) [[ "$sub" == run ]] && rest+=("$arg") || YES=1 ;;
    -h|--help) usage; exit 0 ;;
    --scenario|--scenario=*)
      if [[ "$sub" == run ]]; then rest+=("$arg"); continue; fi
      [[ "$sub" == up ]] || die 2 "$sub: unknown flag '$arg': valid are --yes and --dry-run"
      if [[ "$arg" == --scenario ]]; then
        [[ $# -gt 0 ]] || die 2 "up: --scenario needs a name (e.g. --scenario capacity)"
        UP_PLAN_ARGS=(--scenario "$1"); shift
      else
        UP_PLAN_ARGS=(--scenario "${arg#--scenario=}")
      fi ;;
    *) if [[ "$sub" == run ]]; then rest+=("$arg"); else die 2 "$sub: unknown flag '$arg': valid are --yes$([[ "$sub" == up ]] && echo ", --dry-run and --scenario" || echo " and --dry-run")"; fi ;;
  esac
done
case "$sub" in
  up) cmd_up ;;
  run) cmd_run "${rest[@]+"${rest[@]}"}" ;;
  down) cmd_down ;;
  ""|-h|--help|help) usage ;;
  *) die 2 "unknown command '$sub': use up, run or down (./lab aws --help)" ;;
esac
