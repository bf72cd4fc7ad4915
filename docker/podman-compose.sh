#!/usr/bin/env bash
# The Compose stack on podman (Linux, as root), where Docker is not installed: sets podman up for this host, builds
# stand-ins for the base images when their registry (Docker Hub) is unreachable, then runs podman-compose with the
# arguments given, on the repository's own docker-compose.yml:
#   docker/podman-compose.sh up -d --build
#   docker/podman-compose.sh --profile load run --rm gatling
#   docker/podman-compose.sh down -v
# With Docker (Docker Desktop on macOS or Windows) none of this is needed: `docker compose up -d --build`.
#
# What it sets, and why (nothing outside the repository's git-ignored .tools/ is written):
# - runtime runc: podman's default crun refuses a host that mounts cgroup v1 controllers ("hybrid mode");
# - ulimits within the host's hard limits: podman's defaults ask for more open files and processes than a host's
#   hard limits may allow (and a container given a nofile limit gets podman's nproc default unless one is set), so
#   nproc is set to the host's hard limit and the Compose file's nofile (LAB_NOFILE, default 65,536) lowered to it;
# - docker.io as the registry of the Compose file's short image names, as Docker resolves them;
# - Docker's image format, which keeps the Dockerfile's HEALTHCHECK (OCI images have none).
# Stand-in base images (LAB_STAND_INS=auto, the default: only when Docker Hub cannot be reached; yes: always; no:
# never) are tagged with the official names the Dockerfile and Compose file use, so those files stay as users run
# them: a Debian bookworm root filesystem (debootstrap, from this host's Debian mirror), this host's Temurin 25 JDK
# as eclipse-temurin:25-jre, it plus Maven 3.9.11 (Maven Central, checksum pinned) as maven:3.9-eclipse-temurin-25,
# Debian's Prometheus as prom/prometheus:v3.5.0 (2.42: older, but it reads this prometheus.yml), the root filesystem
# itself as debian:bookworm-slim (the database set's PostgreSQL image installs Debian's PostgreSQL on it). No Grafana
# distribution comes from a package registry: without Docker Hub, Grafana is not started (say `up -d` with the
# services to start, as below).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
tools="$root/.tools/podman"
say() { echo "podman-compose.sh: $*" >&2; }
die() { say "$*"; exit 2; }

PODMAN_COMPOSE_VERSION=1.6.0
MAVEN_VERSION=3.9.11
MAVEN_SHA512=bcfe4fe305c962ace56ac7b5fc7a08b87d5abd8b7e89027ab251069faebee516b0ded8961445d6d91ec1985dfe30f8153268843c89aa392733d1a3ec956c9978
BUILD_IMAGE=docker.io/library/maven:3.9-eclipse-temurin-25
RUN_IMAGE=docker.io/library/eclipse-temurin:25-jre
PROMETHEUS_IMAGE=docker.io/prom/prometheus:v3.5.0
DEBIAN_IMAGE=docker.io/library/debian:bookworm-slim

command -v podman >/dev/null || die "podman is not installed: apt-get install podman runc (Debian 12), or use Docker's own 'docker compose'"
command -v runc >/dev/null || die "runc is not installed: apt-get install runc"
[ "$(id -u)" = 0 ] || die "run as root: rootless podman needs subordinate ids and a user session this script does not set up"

mkdir -p "$tools"
hard=$(ulimit -Hn)
if [ -z "${LAB_NOFILE:-}" ] && [ "$hard" != unlimited ] && [ "$hard" -lt 65536 ]; then
  export LAB_NOFILE="$hard"
  say "open files per container: $hard (this host's hard limit; the Compose file asks 65,536)"
fi
# Processes (threads) per user: podman's default is over what runc could set here (it refused 49,152 and took
# 32,768 on a host whose hard limit is 96,364); every service runs as one user, so the limit is their sum.
nproc=$(ulimit -Hu)
{ [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
export LAB_NPROC="${LAB_NPROC:-$nproc}"
nofile="${LAB_NOFILE:-$hard}"
cat >"$tools/containers.conf" <<EOF
[containers]
default_ulimits = ["nproc=$nproc:$nproc", "nofile=$nofile:$nofile"]
[engine]
runtime = "runc"
EOF
cat >"$tools/registries.conf" <<'EOF'
unqualified-search-registries = ["docker.io"]
short-name-mode = "permissive"
EOF
# Docker's image format: podman's default (OCI) has no HEALTHCHECK, which the Dockerfile's services rely on.
export CONTAINERS_CONF="$tools/containers.conf" CONTAINERS_REGISTRIES_CONF="$tools/registries.conf" BUILDAH_FORMAT=docker

if [ ! -x "$tools/venv/bin/podman-compose" ]; then
  say "installing podman-compose $PODMAN_COMPOSE_VERSION from PyPI into .tools/podman/venv"
  python3 -m venv "$tools/venv" && "$tools/venv/bin/pip" install -q "podman-compose==$PODMAN_COMPOSE_VERSION" \
    || die "podman-compose could not be installed from PyPI"
fi

hub_reachable() { timeout 10 bash -c 'exec 3<>/dev/tcp/registry-1.docker.io/443' 2>/dev/null; }

# Raised when the build image's stand-in changes (2: fontconfig, for the runner's charts); one of an older revision is
# built again. An official image is never touched.
STAND_IN_REVISION=2

stand_ins() {
  local missing=() label
  if podman image exists "$BUILD_IMAGE"; then
    label=$(podman image inspect --format '{{index .Labels "lab.stand-in"}}|{{index .Labels "lab.stand-in.revision"}}' "$BUILD_IMAGE")
    if [[ "$label" != "|"* && "${label##*|}" != "$STAND_IN_REVISION" ]]; then
      say "the stand-in $BUILD_IMAGE is of an older revision: building it again"
      podman rmi "$BUILD_IMAGE" >/dev/null || die "the old stand-in $BUILD_IMAGE could not be removed (a container uses it?)"
    fi
  fi
  for image in "$BUILD_IMAGE" "$RUN_IMAGE" "$PROMETHEUS_IMAGE" "$DEBIAN_IMAGE"; do
    podman image exists "$image" || missing+=("$image")
  done
  [ ${#missing[@]} = 0 ] && return 0
  say "building stand-ins for ${missing[*]} (Docker Hub unreachable or LAB_STAND_INS=yes)"
  command -v debootstrap >/dev/null || die "debootstrap is not installed: apt-get install debootstrap"
  local jdk="${LAB_STAND_IN_JDK:-}"
  if [ -z "$jdk" ]; then
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25*; do
      if [ -x "$candidate/bin/javac" ] && "$candidate/bin/java" -version 2>&1 | grep -q '"25'; then jdk="$candidate"; break; fi
    done
  fi
  [ -n "$jdk" ] || die "no JDK 25 with javac found for the stand-ins: set LAB_STAND_IN_JDK=/path/to/jdk-25"
  local work="$tools/stand-ins"
  rm -rf "$work" && mkdir -p "$work"
  local base=localhost/lab-stand-in/debian:bookworm
  if ! podman image exists "$base"; then
    local mirror
    mirror=$(grep -hE '^(URIs:|deb) ' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
      | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -1 | tr -d ' ' || true)
    mirror="${mirror:-http://deb.debian.org/debian}"
    local start=$SECONDS
    debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
      || die "debootstrap failed (see $work/debootstrap.log)"
    tar -C "$work/rootfs" -c . | podman import - "$base" >/dev/null
    rm -rf "$work/rootfs"
    say "Debian bookworm root filesystem from $mirror in $((SECONDS - start)) s"
  fi
  # Debian's own image is a minimal Debian: the root filesystem above is one.
  podman image exists "$DEBIAN_IMAGE" || podman tag "$base" "$DEBIAN_IMAGE"
  # -L: a packaged JDK links its CA certificates (lib/security/cacerts) to the host's store, absent in the image.
  mkdir -p "$work/jdk" && cp -rL "$jdk/." "$work/jdk/"
  if ! podman image exists "$RUN_IMAGE"; then
    cat >"$work/Containerfile.jre" <<EOF
FROM $base
COPY jdk /opt/java/openjdk
ENV JAVA_HOME=/opt/java/openjdk PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
LABEL lab.stand-in="the host's $(basename "$jdk") on Debian bookworm, for $RUN_IMAGE"
EOF
    podman build -q -f "$work/Containerfile.jre" -t "$RUN_IMAGE" "$work" >/dev/null
  fi
  if ! podman image exists "$BUILD_IMAGE"; then
    curl -fsSL -o "$work/maven.tar.gz" \
      "https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/$MAVEN_VERSION/apache-maven-$MAVEN_VERSION-bin.tar.gz" \
      || die "Maven $MAVEN_VERSION could not be downloaded from Maven Central"
    echo "$MAVEN_SHA512  $work/maven.tar.gz" | sha512sum -c --quiet - || die "Maven $MAVEN_VERSION: checksum mismatch"
    # fontconfig and its fonts, as the official Temurin images carry: the lab's runner (Compose's lab service) draws charts.
    cat >"$work/Containerfile.maven" <<EOF
FROM $RUN_IMAGE
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fontconfig >/dev/null \\
    && rm -rf /var/lib/apt/lists/*
ADD maven.tar.gz /usr/share/
RUN ln -s /usr/share/apache-maven-$MAVEN_VERSION/bin/mvn /usr/bin/mvn
ENV MAVEN_HOME=/usr/share/apache-maven-$MAVEN_VERSION
LABEL lab.stand-in="the host's $(basename "$jdk") and Maven $MAVEN_VERSION on Debian bookworm, for $BUILD_IMAGE"
LABEL lab.stand-in.revision="$STAND_IN_REVISION"
EOF
    podman build -q -f "$work/Containerfile.maven" -t "$BUILD_IMAGE" "$work" >/dev/null
  fi
  if ! podman image exists "$PROMETHEUS_IMAGE"; then
    ( cd "$work" && apt-get download prometheus >/dev/null 2>&1 && dpkg-deb -x prometheus_*.deb deb ) \
      || die "Debian's prometheus package could not be downloaded (apt-get download prometheus)"
    cp "$work/deb/usr/bin/prometheus" "$work/prometheus"
    cat >"$work/Containerfile.prometheus" <<EOF
FROM $base
COPY prometheus /bin/prometheus
# Debian's build keeps its data in /var/lib/prometheus/metrics2 unless told otherwise (Compose's command does not).
RUN mkdir -p /prometheus /etc/prometheus /var/lib/prometheus/metrics2 && chown nobody:nogroup /prometheus /var/lib/prometheus/metrics2
USER nobody
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
LABEL lab.stand-in="Debian's prometheus $(dpkg-deb -f "$work"/prometheus_*.deb Version) on Debian bookworm, for $PROMETHEUS_IMAGE"
EOF
    podman build -q -f "$work/Containerfile.prometheus" -t "$PROMETHEUS_IMAGE" "$work" >/dev/null
  fi
  rm -rf "$work"
}

case "${LAB_STAND_INS:-auto}" in
  yes) stand_ins ;;
  no) ;;
  auto) hub_reachable || stand_ins ;;
  *) die "LAB_STAND_INS=${LAB_STAND_INS}: say auto, yes or no" ;;
esac

exec "$tools/venv/bin/podman-compose" -f "$root/docker-compose.yml" "$@"
