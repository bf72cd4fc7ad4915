#!/usr/bin/env bash
# The AWS Terraform provider, built here from the Go module proxy into a cache outside the clone, laid out as a
# Terraform filesystem mirror. Prints the mirror's directory on its last line of stdout; everything else goes to stderr.
#
#   scripts/aws-provider.sh            build once (about 4-10 min on 2 cores), then reuse the cached binary
#   scripts/aws-provider.sh --print    print what it would do and where, build nothing
#
# Why a build: the provider registry is not reachable on every machine the lab is tested on, the Go module proxy is.
# The module path has no /v6 suffix, so the proxy refuses the v6.x tags and serves a main-branch pseudo-version whose
# version/VERSION reads 6.47.1. The whole provider is ~2,000 packages (30-60 min, ~1 GB); the lab's configuration
# uses EC2 and STS only, so the build cuts the provider's two generated service registries down to the services
# listed in KEEP (in a temporary copy: nothing of the provider's code is kept, in the clone or in the cache).
# Exit codes: 0 built or cached; 2 a tool is missing (the line names it); 1 the download or build failed.
set -euo pipefail

MODULE=github.com/hashicorp/terraform-provider-aws
PSEUDO_VERSION=v1.60.1-0.20260602190131-5f2286d6d836
VERSION=6.47.1
# The provider's own service packages the build keeps: ec2 (VPC, subnet, routes, security groups, instances, AMIs,
# zones), sts (the caller's identity at start), meta (data sources such as aws_region), organizations (used by the
# provider's shared code).
KEEP="ec2 sts meta organizations"

cache="${LAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/loom-lab}"
mirror="$cache/terraform-mirror"
binary="$mirror/registry.terraform.io/hashicorp/aws/$VERSION/linux_amd64/terraform-provider-aws_v${VERSION}_x5"

if [[ "${1:-}" == "--print" ]]; then
  echo "module:  $MODULE@$PSEUDO_VERSION (version/VERSION $VERSION), services kept: $KEEP" >&2
  echo "binary:  $binary $( [[ -x "$binary" ]] && echo '(cached)' || echo '(not built yet)')" >&2
  echo "$mirror"
  exit 0
elif [[ $# -gt 0 ]]; then
  echo "aws-provider: unknown argument '$1': use no argument to build, or --print" >&2
  exit 2
fi

if [[ -x "$binary" ]]; then
  echo "aws-provider: cached $binary" >&2
  echo "$mirror"
  exit 0
fi

for tool in go python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "aws-provider: '$tool' not found: install it (Go 1.26.3+ from go.dev or the Debian backports, python3 from Debian)" >&2
    exit 2
  fi
done

mkdir -p "$mirror"
# Two builds at once (two test runs) would race on the same file: the second waits for the first and reuses its binary.
exec 9>"$cache/aws-provider.lock"
flock 9
if [[ -x "$binary" ]]; then
  echo "aws-provider: cached $binary (built by another run meanwhile)" >&2
  echo "$mirror"
  exit 0
fi

started=$SECONDS
echo "aws-provider: downloading $MODULE@$PSEUDO_VERSION from the Go module proxy..." >&2
source_dir=$(go mod download -json "$MODULE@$PSEUDO_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
work=$(mktemp -d "${TMPDIR:-/tmp}/aws-provider.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cp -r "$source_dir/." "$work/"
chmod -R u+w "$work"

echo "aws-provider: cutting the service registries down to: $KEEP" >&2
# shellcheck disable=SC2086 # one argument per service
python3 - "$work" $KEEP <<'PY'
import os, re, sys

root, keep = sys.argv[1], set(sys.argv[2:])
service_import = re.compile(r'^\s*(\w+ )?"github.com/hashicorp/terraform-provider-aws/internal/service/(\w+)"\s*$')

# 1. The SDKv2 registry lists every service package: keep the imports and ServicePackage(ctx) calls of KEEP only.
registry = os.path.join(root, "internal/provider/sdkv2/service_packages_gen.go")
lines = open(registry).read().split("\n")
kept = [l for l in lines
        if not ((m := service_import.match(l)) and m.group(2) not in keep)
        and not ((m := re.match(r"^\s*(\w+)\.ServicePackage\(ctx\),\s*$", l)) and m.group(1) not in keep)]
if len(kept) == len(lines):
    sys.exit("aws-provider: the registry's layout changed (nothing was cut from %s)" % registry)
open(registry, "w").write("\n".join(kept))

# 2. The AWS client has one accessor per AWS SDK service: keep those that code left in the build calls.
dropped_dirs = {os.path.join(root, "internal/service", d) for d in os.listdir(os.path.join(root, "internal/service")) if d not in keep}
dropped_dirs |= {os.path.join(root, "internal", d) for d in ("acctest", "sweep")}
called = set()
for dirpath, dirnames, filenames in os.walk(os.path.join(root, "internal")):
    if any(dirpath == d or dirpath.startswith(d + os.sep) for d in dropped_dirs):
        dirnames[:] = []
        continue
    for name in filenames:
        if name.endswith(".go") and not name.endswith("_test.go") and name != "awsclient_gen.go":
            called |= set(re.findall(r"\.(\w+Client)\(ctx\)", open(os.path.join(dirpath, name)).read()))
client_file = os.path.join(root, "internal/conns/awsclient_gen.go")
text = open(client_file).read()
accessor = re.compile(r"\nfunc \(c \*AWSClient\) (\w+)\(ctx context\.Context\) \*\w+\.Client \{\n.*?\n\}\n", re.S)
text = accessor.sub(lambda m: m.group(0) if m.group(1) in called else "\n", text)
head, body = text.split(")\n", 1)
used = set(re.findall(r"\b(\w+)\.", body))
imports = [l for l in head.split("\n")
           if not (m := re.match(r'^\s*(?:(\w+) )?"github.com/aws/aws-sdk-go-v2/service/([\w/]+)"', l))
           or (m.group(1) or m.group(2).split("/")[-1]) in used]
open(client_file, "w").write("\n".join(imports) + ")\n" + re.sub(r"\n{3,}", "\n\n", body))
print("aws-provider: client accessors kept: %s" % ", ".join(sorted(called)), file=sys.stderr)
PY

echo "aws-provider: building (the module cache and Go's build cache are reused by later builds)..." >&2
mkdir -p "$(dirname "$binary")"
( cd "$work" && go build -trimpath -ldflags "-s -w" -o "$binary.partial" . )
mv "$binary.partial" "$binary"
echo "aws-provider: built $binary ($(du -m "$binary" | cut -f1) MB) in $((SECONDS - started)) s" >&2
echo "$mirror"
