# A JDK 21 or newer: JAVA_HOME if it is one, else the newest under /usr/lib/jvm. Sourced by ./lab and by the
# scripts under scripts/, so they all run on the JDK ./lab would choose.
MIN_JAVA=21

java_major() { # prints the feature version of the java binary $1, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1
}

find_jdk() {
  local candidates=() best="" best_version=0 dir version
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME")
  # Prefer the newest JDK under /usr/lib/jvm (25 before 21) when JAVA_HOME is unset or too old.
  for dir in /usr/lib/jvm/*; do [[ -d "$dir" ]] && candidates+=("$dir"); done
  for dir in "${candidates[@]}"; do
    [[ -x "$dir/bin/java" && -x "$dir/bin/javac" ]] || continue
    version=$(java_major "$dir/bin/java")
    [[ "$version" =~ ^[0-9]+$ ]] || continue
    if [[ "$dir" == "${JAVA_HOME:-}" && "$version" -ge $MIN_JAVA ]]; then best="$dir"; break; fi
    if (( version >= MIN_JAVA && version > best_version )); then best="$dir"; best_version=$version; fi
  done
  if [[ -z "$best" ]]; then
    echo "lab: no JDK $MIN_JAVA or newer found (looked at JAVA_HOME and /usr/lib/jvm/*)." >&2
    echo "lab: install one, e.g. 'apt-get install temurin-25-jdk' (Adoptium repository) or 'apt-get install openjdk-21-jdk'," >&2
    echo "lab: or point JAVA_HOME at it." >&2
    exit 2
  fi
  export JAVA_HOME="$best"
  export PATH="$JAVA_HOME/bin:$PATH"
}
