package lab.run;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import lab.analyse.Manifest;
import lab.analyse.judge.Thresholds;
import lab.plan.Arm;
import lab.plan.Compose;
import lab.plan.RunPlan;
import lab.plan.Turns;
import lab.plan.Work;

/**
 * A run's {@link Manifest} as the run takes it, with the probes of the host that only the run makes: its name, memory
 * and limits, the JDKs' {@code java -version}, the lab's versions, the git commit (or the one Compose's or AWS's
 * copy states), the JVM flags, pinning and every tuning applied. The analysis and the report read it back; they
 * probe nothing.
 */
public final class RunManifest {

	private RunManifest() {
	}

	/** The services' default of {@code lab.pinned-threshold} (service-common's lab-service-defaults.properties). */
	static final String DEFAULT_PINNED_THRESHOLD = "1ms";

	public static Manifest of(RunPlan plan, List<String> serviceFlags, List<String> downstreamFlags, List<String> gatlingFlags,
			List<String> args) {
		Map<String, Object> host = new LinkedHashMap<>();
		host.put("hostname", hostname());
		host.put("cores", plan.host().cores());
		host.put("memoryBytes", Turns.memInfoBytes("MemTotal:"));
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
		Map<String, URI> targets = plan.remote().targets();
		remote.put("target", (targets.size() == 1) ? targets.values().iterator().next().toString() : null);
		// Every variant's URL when several ran elsewhere (--target name=URL,..., --compose).
		remote.put("targets", targets.isEmpty() ? null : new LinkedHashMap<>(targets));
		// Where a target's health and metrics were scraped when not on its base URL (--management).
		remote.put("management", plan.remote().managements().isEmpty() ? null : new LinkedHashMap<>(plan.remote().managements()));
		remote.put("compose", (plan.remote().compose() != null) ? Compose.EMULATION + "; reached " + plan.remote().compose().describe() : null);
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
	static Map<String, Manifest.AppliedTuning> tunings(RunPlan plan) {
		Map<String, Manifest.AppliedTuning> tunings = new LinkedHashMap<>();
		for (Arm arm : plan.arms()) {
			Map<String, Manifest.Applied> variants = new LinkedHashMap<>();
			for (String variant : plan.scenario().variants()) {
				variants.put(arm.label(variant), new Manifest.Applied(arm.jvmFlags(variant), arm.tuning().properties(variant)));
			}
			String description = arm.labelled() ? join(arm.tuning().description(), "on JDK " + arm.jdk().feature()) : arm.tuning().description();
			tunings.put(arm.name(), new Manifest.AppliedTuning(description, variants));
		}
		return tunings;
	}

	/** What each row's requests asked of its service besides waiting, by row label (every variant in every arm). */
	static Map<String, Work> works(RunPlan plan) {
		Map<String, Work> works = new LinkedHashMap<>();
		for (Arm arm : plan.arms()) {
			for (String variant : plan.scenario().variants()) {
				works.put(arm.label(variant), arm.work());
			}
		}
		return works;
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
		try (InputStream in = RunManifest.class.getResourceAsStream("/lab-versions.properties")) {
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

}
