package lab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/** The manifest as key / value rows for the report's "what was measured" table. */
final class ManifestRows {

	private ManifestRows() {
	}

	static List<Map<String, String>> of(JsonNode m) {
		List<Map<String, String>> rows = new ArrayList<>();
		JsonNode host = m.path("host");
		add(rows, "host", host.path("hostname").asString("") + ", " + host.path("cores").asString("?") + " cores, "
				+ Summaries.number(host.path("memoryBytes").asDouble(Double.NaN) / (1 << 30)) + " GiB, " + host.path("os").asString(""));
		add(rows, "descriptors (nofile soft / hard)", host.path("nofileSoft").asString("?") + " / " + host.path("nofileHard").asString("?"));
		add(rows, "JDK of the services", m.path("java").path("version").asString("") + " — " + m.path("java").path("runtime").asString(""));
		JsonNode versions = m.path("versions");
		add(rows, "versions", "lab " + versions.path("lab.version").asString("?") + ", Spring Boot "
				+ versions.path("spring-boot.version").asString("?") + ", Gatling " + versions.path("gatling.version").asString("?"));
		add(rows, "git commit", m.path("gitCommit").asString("unknown"));
		add(rows, "profile", m.path("profile").asString("") + " (service CPUs " + m.path("cpus").path("service").asString("")
				+ ", downstream and injector CPUs " + m.path("cpus").path("downstreamAndInjector").asString("") + ")");
		JsonNode remote = m.path("remote");
		if (!remote.path("target").asString("").isEmpty() || !remote.path("downstream").asString("").isEmpty()
				|| !remote.path("injectors").isEmpty()) {
			add(rows, "measured remotely", "target " + remote.path("target").asString("(started here)") + ", downstream "
					+ remote.path("downstream").asString("(started here)") + ", injectors "
					+ (remote.path("injectors").isEmpty() ? "(one, here)" : join(remote.path("injectors")).replace(" ", ", ")));
		}
		add(rows, "service JVM flags", join(m.path("jvmFlags").path("service")));
		// Runs made before the observe axis existed observed in full.
		JsonNode observe = m.path("scenario").path("observe");
		add(rows, "observation", (observe.isEmpty() ? "full" : join(observe).replace(" ", ", "))
				+ " (full: per-request server and client timers with histograms on every variant; lean: JVM, process and connection meters only)");
		// Each tuning as applied, per variant label: the flags and properties it added (default adds none).
		m.path("tunings").properties().forEach(tuning -> tuning.getValue().path("variants").properties().forEach(variant -> {
			List<String> settings = new ArrayList<>();
			variant.getValue().path("jvm").forEach(flag -> settings.add(flag.asString()));
			variant.getValue().path("properties").properties().forEach(p -> settings.add(p.getKey() + "=" + p.getValue().asString()));
			add(rows, "tuning " + tuning.getKey() + ": " + variant.getKey(), settings.isEmpty() ? "(nothing added)" : String.join(" ", settings));
		}));
		JsonNode s = m.path("scenario");
		add(rows, "scenario", s.path("name").asString("") + ": " + s.path("model").asString("") + " model, delay "
				+ s.path("delayMs").asString("") + " ms, ramp " + s.path("rampSeconds").asString("") + " s, hold "
				+ s.path("holdSeconds").asString("") + " s, warm-up " + s.path("warmupSeconds").asString("") + " s at "
				+ s.path("warmupUsers").asString("") + " users, request timeout " + s.path("requestTimeoutMs").asString("")
				+ " ms, repeat " + s.path("repeat").asString(""));
		add(rows, "started", m.path("startedAt").asString(""));
		add(rows, "command", join(m.path("commandLine")));
		return rows;
	}

	private static String join(JsonNode array) {
		List<String> values = new ArrayList<>();
		array.forEach(v -> values.add(v.asString()));
		return values.isEmpty() ? "(none)" : String.join(" ", values);
	}

	private static void add(List<Map<String, String>> rows, String key, String value) {
		rows.add(Map.of("key", key, "value", value));
	}

}
