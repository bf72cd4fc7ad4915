package lab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import lab.analyse.Manifest;
import lab.plan.Scenario;

/** The manifest as key / value rows for the report's "what was measured" table. */
final class ManifestRows {

	private ManifestRows() {
	}

	static List<Map<String, String>> of(Manifest m) {
		List<Map<String, String>> rows = new ArrayList<>();
		Map<String, Object> host = orEmpty(m.host());
		add(rows, "host", text(host.get("hostname"), "") + ", " + text(host.get("cores"), "?") + " cores, "
				+ Summaries.number(number(host.get("memoryBytes")) / (1 << 30)) + " GiB, " + text(host.get("os"), ""));
		if (m.sharedWith() != null) {
			add(rows, "host shared with", "another lab run measured on this host at the same time (--allow-concurrent): " + m.sharedWith());
		}
		add(rows, "descriptors (nofile soft / hard)", text(host.get("nofileSoft"), "?") + " / " + text(host.get("nofileHard"), "?"));
		Map<String, String> java = orEmpty(m.java());
		if (m.jdks() != null && !m.jdks().isEmpty()) {
			// Several JDKs side by side: each row's label names its own; the harness ran on the one in java.
			m.jdks().forEach((label, jdk) -> add(rows, "JDK of the services, " + label, jdk.getOrDefault("version", "") + " — "
					+ jdk.getOrDefault("runtime", "") + " (" + jdk.getOrDefault("home", "") + ")"));
			add(rows, "JDK of the harness", java.getOrDefault("version", "") + " — " + java.getOrDefault("runtime", ""));
		}
		else {
			add(rows, "JDK of the services", java.getOrDefault("version", "") + " — " + java.getOrDefault("runtime", ""));
		}
		Map<String, String> versions = orEmpty(m.versions());
		add(rows, "versions", "lab " + versions.getOrDefault("lab.version", "?") + ", Spring Boot "
				+ versions.getOrDefault("spring-boot.version", "?") + ", Gatling " + versions.getOrDefault("gatling.version", "?"));
		add(rows, "git commit", text(m.gitCommit(), "unknown"));
		Map<String, String> cpus = orEmpty(m.cpus());
		add(rows, "profile", text(m.profile(), "") + " (service CPUs " + cpus.getOrDefault("service", "")
				+ ", downstream and injector CPUs " + cpus.getOrDefault("downstreamAndInjector", "") + ")");
		Map<String, Object> remote = orEmpty(m.remote());
		// A t2.micro two ways: pinned by taskset here, or a container's CPU quota and memory limit in Compose.
		String emulation = text(remote.get("compose"), "");
		if (emulation.isEmpty() && "t2-micro".equals(m.profile()) && !"remote".equals(cpus.get("service"))) {
			emulation = "taskset: the service pinned to host CPU " + cpus.getOrDefault("service", "?") + ", the downstream and the injector on "
					+ cpus.getOrDefault("downstreamAndInjector", "?") + "; its JVM told 1 processor and 1 GiB by flags (no container)";
		}
		if (!emulation.isEmpty()) {
			add(rows, "t2.micro emulated by", emulation);
		}
		if (!text(remote.get("site"), "").isEmpty()) {
			add(rows, "site", text(remote.get("site"), ""));
		}
		List<?> injectors = (remote.get("injectors") instanceof List<?> list) ? list : List.of();
		if (!text(remote.get("target"), "").isEmpty() || !text(remote.get("downstream"), "").isEmpty() || !injectors.isEmpty()) {
			add(rows, "measured remotely", "target " + text(remote.get("target"), text(remote.get("targets"), "(started here)")) + ", downstream "
					+ text(remote.get("downstream"), "(started here)") + ", injectors "
					+ (injectors.isEmpty() ? "(one, here)" : join(injectors).replace(" ", ", ")));
		}
		add(rows, "service JVM flags", join(orEmpty(m.jvmFlags()).get("service")));
		Scenario s = m.scenario();
		// Runs made before the observe axis existed observed in full.
		List<String> observe = (s != null) ? s.observe() : List.of();
		add(rows, "observation", (observe.isEmpty() ? "full" : join(observe).replace(" ", ", "))
				+ " (full: per-request server and client timers with histograms on every variant; lean: JVM, process and connection meters only)");
		// Each tuning as applied, per variant label: the flags and properties it added (default adds none).
		orEmpty(m.tunings()).forEach((name, tuning) -> orEmpty(tuning.variants()).forEach((label, applied) -> {
			List<String> settings = new ArrayList<>((applied.jvm() != null) ? applied.jvm() : List.of());
			orEmpty(applied.properties()).forEach((key, value) -> settings.add(key + "=" + value));
			add(rows, "tuning " + name + ": " + label, settings.isEmpty() ? "(nothing added)" : String.join(" ", settings));
		}));
		if (s != null) {
			add(rows, "scenario", s.name() + ": " + s.model() + " model, delay " + s.delayMs() + " ms, ramp " + s.rampSeconds()
					+ " s, hold " + s.holdSeconds() + " s, warm-up " + s.warmupSeconds() + " s at " + s.warmupUsers()
					+ " users, request timeout " + s.requestTimeoutMs() + " ms, repeat " + s.repeat());
			add(rows, "work per request", String.join("; ", s.requestWorks().stream()
				.map(work -> ((s.works().size() > 1) ? work.label() + ": " : "") + work.describe()).toList())
					+ " (each round builds, serialises to JSON and SHA-256-hashes 16 generated records; docs/work-per-request.md)");
		}
		add(rows, "started", text(m.startedAt(), ""));
		add(rows, "command", join(m.commandLine()));
		return rows;
	}

	private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
		return (map != null) ? map : Map.of();
	}

	private static String text(Object value, String fallback) {
		return (value != null) ? value.toString() : fallback;
	}

	private static double number(Object value) {
		return (value instanceof Number n) ? n.doubleValue() : Double.NaN;
	}

	private static String join(List<?> values) {
		if (values == null || values.isEmpty()) {
			return "(none)";
		}
		List<String> texts = new ArrayList<>();
		values.forEach(v -> texts.add(String.valueOf(v)));
		return String.join(" ", texts);
	}

	private static void add(List<Map<String, String>> rows, String key, String value) {
		rows.add(Map.of("key", key, "value", value));
	}

}
