package lab.analyse;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import lab.analyse.judge.Thresholds;
import lab.layout.RunDir;
import lab.plan.Arm;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code manifest.json}: everything needed to know what was measured and to re-render the report: host, JDK,
 * versions, every JVM flag, profile and pinning, the scenario as run, the git commit, the thresholds.
 */
public record Manifest(String startedAt, Map<String, Object> host, Map<String, String> java, Map<String, String> versions,
		String gitCommit, String profile, Map<String, String> cpus, Map<String, Object> remote, Map<String, List<String>> jvmFlags, Scenario scenario,
		List<Map<String, Object>> levels, Thresholds thresholds, String pinnedThreshold, Map<String, AppliedTuning> tunings,
		List<String> commandLine, Map<String, Map<String, String>> jdks, Map<String, lab.plan.Work> works) {

	/** The latency target the run declared (its scenario's), else the lab's default (a run older than targets too). */
	public lab.layout.LatencyTarget target() {
		return (this.scenario != null) ? this.scenario.target() : lab.layout.LatencyTarget.DEFAULT;
	}

	/** Another lab run this one measured beside (--allow-concurrent), in words; null when it had the host alone. */
	public String sharedWith() {
		return (this.host != null && this.host.get("sharedWith") != null) ? String.valueOf(this.host.get("sharedWith")) : null;
	}

	/** Reads manifests back leniently: a run older than a field has none, a field since dropped is ignored. */
	private static final JsonMapper reader = lab.json.Json.MAPPER;

	/**
	 * A tuning as it was applied.
	 *
	 * @param description the tuning's one line
	 * @param variants per variant label, the JVM flags and Spring properties it added
	 */
	public record AppliedTuning(String description, Map<String, Applied> variants) {
	}

	/** What a tuning added to one variant. */
	public record Applied(List<String> jvm, Map<String, String> properties) {
	}

	/**
	 * A run's manifest read back, typed as it was written; null where a run older than a field did not record it. Its
	 * thresholds are those the run recorded, or the current defaults for a run that recorded none or only some
	 * ({@link Thresholds#recordedIn}). A directory without a manifest reads as an empty one.
	 */
	public static Manifest read(Path results) {
		return parse(readTree(results));
	}

	/** A manifest already read as a tree ({@link #readTree}), typed. */
	public static Manifest parse(JsonNode raw) {
		// The thresholds are read field by field (a run older than a threshold did not record it), not as one record.
		JsonNode withoutThresholds = raw.deepCopy();
		if (withoutThresholds instanceof tools.jackson.databind.node.ObjectNode object) {
			object.remove("thresholds");
		}
		// A manifest from a newer or older lab may hold fields this one does not know: read leniently.
		Manifest typed = reader.readerFor(Manifest.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(withoutThresholds);
		return new Manifest(typed.startedAt, typed.host, typed.java, typed.versions, typed.gitCommit, typed.profile, typed.cpus,
				typed.remote, typed.jvmFlags, typed.scenario, typed.levels, Thresholds.recordedIn(raw), typed.pinnedThreshold,
				typed.tunings, typed.commandLine, typed.jdks, typed.works);
	}

	/** The manifest exactly as written (summary.json embeds it unchanged); an empty object when there is none. */
	public static JsonNode readTree(Path results) {
		Path file = results.resolve(RunDir.MANIFEST);
		return Files.isRegularFile(file) ? reader.readTree(file.toFile()) : reader.createObjectNode();
	}

	/** The scenario's name, or {@code fallback} for a directory without a manifest. */
	public String scenarioName(String fallback) {
		return (this.scenario != null && this.scenario.name() != null) ? this.scenario.name() : fallback;
	}

	/** The services' default of {@code lab.pinned-threshold} (service-common's lab-service-defaults.properties). */
	static final String DEFAULT_PINNED_THRESHOLD = "1ms";

	public static Manifest of(RunPlan plan, List<String> serviceFlags, List<String> downstreamFlags, List<String> gatlingFlags,
			List<String> args) {
		Map<String, Object> host = new LinkedHashMap<>();
		host.put("hostname", hostname());
		host.put("cores", plan.host().cores());
		host.put("memoryBytes", memoryBytes());
		host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
		host.put("nofileSoft", plan.host().nofileSoft());
		host.put("nofileHard", plan.host().nofileHard());
		host.put("portRange", plan.host().portRange());
		host.put("somaxconn", plan.host().somaxconn());
		// Another lab run measured on this host at the same time (./lab run --allow-concurrent): the report says so.
		String sharedWith = System.getenv("LAB_CONCURRENT_WITH");
		if (sharedWith != null && !sharedWith.isBlank()) {
			host.put("sharedWith", sharedWith);
		}
		Map<String, String> cpus = new LinkedHashMap<>();
		cpus.put("service", plan.remote().targetsGiven() ? "remote" : plan.pinned() ? plan.serviceCpus() : "all");
		cpus.put("downstreamAndInjector", plan.pinned() ? plan.otherCpus() : "all");
		// What was measured elsewhere: null / empty when the runner started everything itself.
		Map<String, Object> remote = new LinkedHashMap<>();
		// Recorded as the URL reached, or null for a process the runner started (the manifest's format since it began).
		Map<String, java.net.URI> targets = plan.remote().targets();
		remote.put("target", (targets.size() == 1) ? targets.values().iterator().next().toString() : null);
		// Every variant's URL when several ran elsewhere (--target name=URL,..., --compose).
		remote.put("targets", targets.isEmpty() ? null : new LinkedHashMap<>(targets));
		// Where a target's health and metrics were scraped when not on its base URL (--management).
		remote.put("management", plan.remote().managements().isEmpty() ? null : new LinkedHashMap<>(plan.remote().managements()));
		remote.put("compose", (plan.remote().compose() != null) ? lab.plan.Compose.EMULATION + "; reached " + plan.remote().compose().describe() : null);
		remote.put("downstream", plan.remote().downstream().reachedAt().map(Object::toString).orElse(null));
		remote.put("injectors", plan.remote().injectors());
		// Where the instances stand, as ./lab aws run states it from terraform output (region, zone, instance types).
		remote.put("site", System.getenv("LAB_SITE"));
		Map<String, List<String>> flags = new LinkedHashMap<>();
		flags.put("service", serviceFlags);
		flags.put("downstream", downstreamFlags);
		flags.put("injector", gatlingFlags);
		List<Map<String, Object>> levels = plan.levels().stream().map(level -> {
			Map<String, Object> row = new LinkedHashMap<>();
			row.put("id", level.id());
			// The level as level.json records it (LevelJson): users and ratePerSecond, 0 for the one not used.
			row.put("users", level.level().usersField());
			row.put("ratePerSecond", level.level().ratePerSecondField());
			row.put("cappedFrom", (level.cappedFrom() != null) ? level.cappedFrom() : 0);
			return row;
		}).toList();
		return new Manifest(Instant.now().toString(), host, describeJava(plan.javaHome()), readVersions(), git(plan.root()),
				plan.profile().id(), cpus, remote, flags, plan.scenario(), levels, Thresholds.DEFAULT,
				pinnedThreshold(plan.extraJvmOptions(), plan.remote().targetsGiven()), tunings(plan), args, jdks(plan), works(plan));
	}

	/**
	 * Each tuning as it was applied, on each JDK when the run compared several (named like its rows: {@code tuned-jdk21}):
	 * per variant, the JVM flags added to the profile's and the Spring properties.
	 */
	static Map<String, AppliedTuning> tunings(RunPlan plan) {
		Map<String, AppliedTuning> tunings = new LinkedHashMap<>();
		for (Arm arm : plan.arms()) {
			Map<String, Applied> variants = new LinkedHashMap<>();
			for (String variant : plan.scenario().variants()) {
				variants.put(arm.label(variant), new Applied(arm.jvmFlags(variant), arm.tuning().properties(variant)));
			}
			String description = arm.labelled() ? join(arm.tuning().description(), "on JDK " + arm.jdk().feature()) : arm.tuning().description();
			tunings.put(arm.name(), new AppliedTuning(description, variants));
		}
		return tunings;
	}

	/** What each row's requests asked of its service besides waiting, by row label (every variant in every arm). */
	static Map<String, lab.plan.Work> works(RunPlan plan) {
		Map<String, lab.plan.Work> works = new LinkedHashMap<>();
		for (Arm arm : plan.arms()) {
			for (String variant : plan.scenario().variants()) {
				works.put(arm.label(variant), arm.work());
			}
		}
		return works;
	}

	/** The work per request of a row, by its label: as recorded, else pure waiting (a run older than the work). */
	public lab.plan.Work work(String label) {
		return (this.works != null && this.works.get(label) != null) ? this.works.get(label) : lab.plan.Work.NONE;
	}

	private static String join(String description, String more) {
		return description.isEmpty() ? more : description + "; " + more;
	}

	/**
	 * The JDKs the services ran on when the run compared several, by label ({@code jdk21}): each one's home, version
	 * and vendor as {@code java -version} prints them; null for a run on one JDK ({@code java} names it).
	 */
	static Map<String, Map<String, String>> jdks(RunPlan plan) {
		if (plan.jdks().size() < 2) {
			return null;
		}
		Map<String, Map<String, String>> jdks = new LinkedHashMap<>();
		plan.jdks().forEach(jdk -> jdks.put(jdk.label(), describeJava(jdk.home())));
		return jdks;
	}

	/**
	 * The JFR threshold behind the pinned count: {@code -Dlab.pinned-threshold=...} when the run set it, else the
	 * services' default (a service measured elsewhere runs with whatever it was started with).
	 */
	static String pinnedThreshold(List<String> jvmOptions, boolean remote) {
		String set = null;
		for (String option : jvmOptions) {
			if (option.startsWith("-Dlab.pinned-threshold=")) {
				set = option.substring("-Dlab.pinned-threshold=".length());
			}
		}
		String value = (set != null) ? set : DEFAULT_PINNED_THRESHOLD;
		String text = value + " (lab.pinned-threshold" + ((set != null) ? ", set for this run" : ", the services' default") + ")";
		return remote && set == null ? text + " unless the remote service was started with another; its scrape shows lab_pinned_threshold_seconds" : text;
	}

	static Map<String, String> describeJava(Path javaHome) {
		Map<String, String> java = new LinkedHashMap<>();
		java.put("home", javaHome.toString());
		String version = run(List.of(javaHome.resolve("bin/java").toString(), "-version"), null);
		java.put("version", version.lines().findFirst().orElse("unknown"));
		java.put("runtime", version.lines().skip(1).findFirst().orElse(""));
		return java;
	}

	static Map<String, String> readVersions() {
		Map<String, String> versions = new LinkedHashMap<>();
		try (InputStream in = Manifest.class.getResourceAsStream("/lab-versions.properties")) {
			Properties properties = new Properties();
			if (in != null) {
				properties.load(in);
			}
			properties.stringPropertyNames().stream().sorted().forEach(name -> versions.put(name, properties.getProperty(name)));
		}
		catch (IOException ex) {
			versions.put("error", ex.getMessage());
		}
		return versions;
	}

	public static String git(Path root) {
		String commit = run(List.of("git", "rev-parse", "HEAD"), root).trim();
		String dirty = run(List.of("git", "status", "--porcelain", "--untracked-files=no"), root).trim();
		if (commit.isEmpty() && System.getenv("LAB_GIT_DIR") != null) {
			// Compose's lab service runs a copy of the checkout without git: the commit read from the checkout's .git.
			return headOf(Path.of(System.getenv("LAB_GIT_DIR"))).map(head -> head + " (read from .git; uncommitted changes not checked)").orElse("unknown");
		}
		if (commit.isEmpty() && System.getenv("LAB_GIT_COMMIT") != null) {
			// ./lab aws run ships the built lab without its checkout: the commit it was built from, as the shipper read it.
			return System.getenv("LAB_GIT_COMMIT") + " (stated by ./lab aws; uncommitted changes not checked)";
		}
		return commit.isEmpty() ? "unknown" : commit + (dirty.isEmpty() ? "" : " (with uncommitted changes)");
	}

	/** The commit HEAD names in a .git directory, without git: HEAD, then its ref's file or packed-refs. */
	static Optional<String> headOf(Path gitDir) {
		try {
			String head = Files.readString(gitDir.resolve("HEAD")).trim();
			if (!head.startsWith("ref: ")) {
				return Optional.of(head);
			}
			String ref = head.substring(5);
			if (Files.isRegularFile(gitDir.resolve(ref))) {
				return Optional.of(Files.readString(gitDir.resolve(ref)).trim());
			}
			if (Files.isRegularFile(gitDir.resolve("packed-refs"))) {
				return Files.readAllLines(gitDir.resolve("packed-refs")).stream().filter(line -> line.endsWith(" " + ref))
					.map(line -> line.substring(0, line.indexOf(' '))).findFirst();
			}
		}
		catch (IOException ex) {
			// unknown
		}
		return Optional.empty();
	}

	private static String run(List<String> command, Path dir) {
		try {
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
			if (dir != null) {
				builder.directory(dir.toFile());
			}
			Process process = builder.start();
			String output = new String(process.getInputStream().readAllBytes());
			if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
				return "";
			}
			return output;
		}
		catch (IOException ex) {
			return "";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "";
		}
	}

	public static String hostname() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	private static long memoryBytes() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// unknown
		}
		return -1;
	}

}
