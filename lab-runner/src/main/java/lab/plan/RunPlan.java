package lab.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lab.layout.LoadShape;
import lab.layout.Level;

/**
 * Everything a run will do, fixed and validated before anything starts: the scenario after the flags'
 * overrides, the levels after the host's descriptor limit, where the jars and the results are.
 *
 * @param javaHome the JDK the harness runs on (downstream, injectors, jcmd and jfr), and the services unless
 * {@code jdks} names theirs
 * @param jdks the JDKs each variant runs on, side by side; one JDK by default: {@code javaHome}
 * @param own the service of the user's own whose arms are this run's variants ({@code --service}); null: the lab's own
 */
public record RunPlan(Scenario scenario, Profile profile, List<PlannedLevel> levels, Path root, Path out, Path javaHome,
		List<String> extraJvmOptions, Host host, Remote remote, List<Jdk> jdks, OwnService own) {

	public static RunPlan of(Scenario scenario, Path root, Path out, Path javaHome, List<String> extraJvmOptions, Host host) {
		return of(scenario, root, out, javaHome, extraJvmOptions, host, Remote.NONE);
	}

	public static RunPlan of(Scenario scenario, Path root, Path out, Path javaHome, List<String> extraJvmOptions, Host host,
			Remote remote) {
		return of(scenario, root, out, javaHome, extraJvmOptions, host, remote, null);
	}

	/**
	 * The plan of a run; {@code own}: the service of the user's own whose arms are its variants ({@code --service}),
	 * no downstream started for them, its jar checked when its file was read; null for the lab's variants.
	 */
	public static RunPlan of(Scenario scenario, Path root, Path out, Path javaHome, List<String> extraJvmOptions, Host host,
			Remote remote, OwnService own) {
		Variants known = (own != null) ? new Variants(own.variants()) : Variants.LAB;
		if (!scenario.problems(known).isEmpty()) {
			throw new PlanException(String.join("; ", scenario.problems(known)));
		}
		List<String> problems = new ArrayList<>();
		Profile profile = Profile.parse(scenario.profile());
		if (!Files.isExecutable(javaHome.resolve("bin/java"))) {
			problems.add("--jdk " + javaHome + " has no bin/java: point it at a JDK 21 or newer");
		}
		else if (Jdk.feature(javaHome) > 0 && Jdk.feature(javaHome) < 21) {
			problems.add("--jdk " + javaHome + " is JDK " + Jdk.feature(javaHome) + "; the services need 21 or newer: --jdk 21, 25 or a path");
		}
		if (!remote.injectorsLocal() && !remote.targetsGiven()) {
			problems.add("--injectors on other hosts cannot reach a service this machine starts on 127.0.0.1: "
					+ "pass the service's address with --target");
		}
		for (String module : modules(scenario, remote, known)) {
			if (!Files.isRegularFile(jar(root, module))) {
				problems.add(jar(root, module) + " is missing: build with ./lab build");
			}
		}
		if (!Files.isRegularFile(root.resolve("gatling/target/classpath.txt"))) {
			problems.add("the gatling module is not built: run ./lab build");
		}
		if (profile.pinned() && host.cores() < 2 && !remote.targetsGiven()) {
			problems.add("profile t2-micro pins the service to one core and needs a second for the downstream and the "
					+ "injector; this host has " + host.cores() + ": use --profile unconstrained");
		}
		for (String tuning : scenario.tunings()) {
			try {
				Tuning.load(tuning);
			}
			catch (PlanException ex) {
				problems.add(ex.getMessage());
			}
		}
		if (remote.targetsGiven() && !scenario.tunings().equals(List.of(Tuning.DEFAULT))) {
			problems.add("--tuning applies to services the lab starts; a --target or --compose service runs with its own settings");
		}
		if (!scenario.aot().isEmpty() && remote.targetsGiven()) {
			problems.add("--aot applies to services the lab starts; a --target or --compose service starts the way it was deployed");
		}
		if (!scenario.aot().isEmpty() && Jdk.feature(javaHome) > 0 && Jdk.feature(javaHome) < 25) {
			problems.add("--aot needs the services on JDK 25 or newer (-XX:AOTCacheOutput, JEP 514), this run's is JDK " + Jdk.feature(javaHome)
					+ ": --jdk 25");
		}
		if (remote.targetsGiven() && !scenario.observe().equals(List.of(Observe.FULL.id()))) {
			problems.add("--observe applies to services the lab starts; a --target or --compose service observes what its own settings say");
		}
		if (!problems.isEmpty()) {
			throw new PlanException(String.join("; ", problems));
		}
		List<PlannedLevel> levels = scenario.levels().stream().map(level -> capped(level, host)).toList();
		return new RunPlan(scenario, profile, levels, root, out, javaHome, List.copyOf(extraJvmOptions), host, remote,
				List.of(Jdk.at("", javaHome)), own);
	}

	/** This plan with its probes held {@code seconds} (a variance study's hold arm). */
	public RunPlan withHold(int seconds) {
		return new RunPlan(new Overrides(null, null, null, seconds, null, null, null, null, null, null, null).applyTo(this.scenario), this.profile,
				this.levels, this.root, this.out, this.javaHome, this.extraJvmOptions, this.host, this.remote, this.jdks, this.own);
	}

	/** This plan with every variant run on each of {@code jdks} side by side (one: all on it, unlabelled). */
	public RunPlan withJdks(List<Jdk> jdks) {
		List<String> problems = new ArrayList<>();
		if (jdks.isEmpty()) {
			problems.add("--jdk names no JDK: give 21, 25 or a path, or several separated by commas");
		}
		for (Jdk jdk : jdks) {
			if (!Files.isExecutable(jdk.home().resolve("bin/java"))) {
				problems.add("--jdk " + jdk.spec() + ": " + jdk.home() + " has no bin/java: point it at a JDK 21 or newer");
			}
			else if (jdk.feature() < 21) {
				problems.add("--jdk " + jdk.spec() + ": " + jdk.home() + " is JDK " + ((jdk.feature() > 0) ? jdk.feature() : "of unknown version")
						+ "; the services need 21 or newer");
			}
		}
		if (jdks.stream().map(Jdk::feature).distinct().count() != jdks.size()) {
			problems.add("--jdk " + String.join(",", jdks.stream().map(Jdk::spec).toList()) + " names one feature version twice: "
					+ "rows are labelled by it (jdk21, jdk25), so give each once");
		}
		if (!this.scenario.aot().isEmpty() && jdks.stream().anyMatch(jdk -> jdk.feature() > 0 && jdk.feature() < 25)) {
			problems.add("--aot needs the services on JDK 25 or newer (-XX:AOTCacheOutput, JEP 514): --jdk 25");
		}
		if (this.remote.targetsGiven() && jdks.size() > 1) {
			problems.add("--jdk applies to services the lab starts; a --target or --compose service runs on its own JDK");
		}
		if (!problems.isEmpty()) {
			throw new PlanException(String.join("; ", problems));
		}
		return new RunPlan(this.scenario, this.profile, this.levels, this.root, this.out, this.javaHome, this.extraJvmOptions, this.host,
				this.remote, List.copyOf(jdks), this.own);
	}

	/** The variants this run knows: the lab's, and the arms of its service of the user's own if it measures one. */
	public Variants variants() {
		return (this.own != null) ? new Variants(this.own.variants()) : Variants.LAB;
	}

	/** The service of the user's own in --dry-run's words: its jar, requests, arms and what it needs. */
	private String describeOwn() {
		StringBuilder text = new StringBuilder();
		text.append("your service ").append(this.own.name()).append(": ").append((this.own.jar() != null) ? this.own.jar() : "a jar per arm").append(", port by --").append(this.own.port())
			.append(", ready when ").append(this.own.readiness()).append(" answers 200")
			.append((this.own.metrics() != null) ? ", its pool meters from " + this.own.metrics().path() : ", no metrics endpoint read")
			.append((this.own.needs().downstream() != null) ? "; the lab's downstream (" + this.scenario.delayMs() + " ms probes), its URL in --"
					+ this.own.needs().downstream().property() + "\n" : "; no downstream\n");
		int total = this.own.requests().stream().mapToInt(OwnService.Request::weight).sum();
		text.append("each request: ").append(String.join("; ", this.own.requests().stream().map(r -> String.format(java.util.Locale.ROOT,
				"%s %s (%.0f%%, expects %d%s%s%s)", r.method(), r.path(), 100.0 * r.weight() / total, r.status(),
				(r.feed() == null) ? "" : ", " + r.feed().strategy() + " values of " + ((r.feed().file() != null) ? r.feed().file().getFileName() : r.feed().values()),
				(r.thinkMs() > 0) ? ", then " + r.thinkMs() + " ms' think" : "", (r.target() != null) ? ", its target " + r.target() : "")).toList())).append('\n');
		PostgresNeed pg = this.own.needs().postgres();
		if (pg != null) {
			text.append("needs PostgreSQL: ").append(pg.startedHere() ? "started here from the distribution's binaries (database " + pg.database()
					+ ((pg.init() != null) ? ", init " + pg.init() : "") + "), placement " + pg.placed() + ": " + DatabasePlacement.describe(pg.placed(), Pinning.of(this))
					+ "; its CPU is its own figure, never the harness's; removed after the run" : "already running at " + pg.url() + " (another host: its CPU is not read here)")
				.append('\n');
		}
		for (OwnService.ServiceArm arm : this.own.arms()) {
			text.append("arm ").append(this.own.label(arm)).append(": ").append(String.join(" ", this.own.arguments(arm)))
				.append(this.own.jvmOptions(arm).isEmpty() ? "" : " " + String.join(" ", this.own.jvmOptions(arm)))
				.append((arm.jdk() != null) ? " on JDK " + arm.jdk() : "").append((arm.jar() != null) ? ", its jar " + arm.jar() : "").append('\n');
		}
		return text.toString();
	}

	/** The arm of the user's own service a variant of this run is, if it is one. */
	public java.util.Optional<OwnService.ServiceArm> ownArm(String variant) {
		return (this.own == null) ? java.util.Optional.empty() : this.own.arm(variant);
	}

	/** A closed level above what the descriptor limit allows runs capped, and says so. */
	static PlannedLevel capped(Level level, Host host) {
		if (level instanceof Level.Closed closed && closed.users() > host.maxUsers()) {
			return new PlannedLevel(new Level.Closed(host.maxUsers()), closed.users());
		}
		return PlannedLevel.of(level);
	}

	public static Path jar(Path root, String module) {
		return root.resolve(module).resolve("target").resolve(module + ".jar");
	}

	/** The jars this run starts itself: none for a --target, no downstream for a --target or a --downstream. */
	static List<String> modules(Scenario scenario, Remote remote, Variants known) {
		List<String> modules = new ArrayList<>();
		if (!remote.targetsGiven()) {
			// The arms of a service of the user's own run its jar, checked when its file was read.
			scenario.variants().stream().filter(variant -> !known.isOwn(variant)).forEach(modules::add);
			if (remote.downstream().startedHere()) {
				modules.add(Variant.DOWNSTREAM);
			}
		}
		return modules;
	}

	/** Whether the runner pins processes to CPUs: only for what it starts itself under a pinned profile. */
	public boolean pinned() {
		return this.profile.pinned() && !this.remote.targetsGiven();
	}

	/** Cores the service under test may use, and the ones left to the downstream and the injector. */
	public String serviceCpus() {
		return "0";
	}

	public String otherCpus() {
		return (this.host.cores() == 2) ? "1" : "1-" + (this.host.cores() - 1);
	}

	/** What --dry-run prints: the plan, one line per step, and its estimated length. */
	public String describe() {
		StringBuilder text = new StringBuilder();
		text.append("scenario ").append(this.scenario.name()).append(" (").append(this.scenario.model().id()).append("): ")
			.append(this.scenario.description()).append('\n');
		text.append(this.remote.describe());
		if (this.remote.targetsGiven()) {
			text.append("profile: not applied (").append((this.remote.compose() != null) ? Compose.EMULATION
					: "the target runs with its own JVM flags and CPUs").append(")\n");
		}
		else {
			text.append("profile ").append(this.profile.id()).append(pinned()
					? ": service on CPU " + serviceCpus() + ", downstream and injector on CPU " + otherCpus() : ": no pinning")
				.append(", JVM flags ").append(String.join(" ", jvmFlags())).append('\n');
		}
		text.append("delay ").append(this.scenario.delayMs()).append(" ms, ramp ").append(this.scenario.rampSeconds())
			.append(" s, hold ").append(this.scenario.holdSeconds()).append(" s, warm-up ")
			.append(this.scenario.warmupSeconds()).append(" s at ").append(this.scenario.warmupUsers())
			.append(((this.scenario.searching() || this.scenario.variance()) && this.scenario.model() == LoadShape.CLOSED) ? " users (or 80% of where a variant's knee is expected, if lower)" : " users")
			.append(", repeat ")
			.append(this.scenario.repeat()).append(", tuning ").append(String.join(", ", this.scenario.tunings()))
			.append(", observe ").append(String.join(", ", this.scenario.observe())).append('\n');
		if (this.own != null) {
			text.append(describeOwn());
		}
		else {
			text.append("each request: ").append(String.join("; ", this.scenario.requestWorks().stream()
				.map(work -> ((this.scenario.works().size() > 1) ? work.label() + " = " : "") + work.describe()).toList())).append('\n');
		}
		if (!this.remote.targetsGiven()) {
			text.append("services on ").append(String.join(", ", this.jdks.stream().map(jdk -> "JDK " + jdk.feature() + " (" + jdk.home() + ")").toList()))
				.append('\n');
		}
		if (this.scenario.coldStart()) {
			text.append("cold start: each service loaded at once with its level the moment it answers its health check, no warm-up; "
					+ "every time from its process start; " + this.scenario.repeat() + " starts each\n");
		}
		if (!this.scenario.aot().isEmpty()) {
			text.append("AOT cache, side by side: ").append(String.join("; ", this.scenario.aot().stream().map(id -> Aot.of(id).description()).toList()))
				.append(this.scenario.aot().contains(Aot.TRAINED.id()) ? " (trained at " + this.levels.get(0).id() + " for "
						+ this.scenario.aotTrainingSeconds() + " s)" : "").append("; kept under $LAB_CACHE_DIR/aot, trained again when stale\n");
		}
		if (this.scenario.searching()) {
			text.append(SearchPlanText.of(this));
		}
		if (this.scenario.variance()) {
			text.append(VariancePlanText.of(this));
		}
		// A variance study's loads are named in its own line (its users are one per variant, not a ladder).
		for (String variant : (this.levels.isEmpty() || this.scenario.variance()) ? List.<String>of() : this.scenario.variants()) {
			text.append(variant).append(": ");
			for (PlannedLevel level : this.levels) {
				text.append(level.id()).append(level.cappedFrom() != null ? " (capped from " + level.cappedFrom() + " by nofile "
						+ this.host.nofileHard() + ")" : "").append(' ');
			}
			text.append('\n');
		}
		text.append("results in ").append(this.out).append('\n');
		text.append(String.format("estimated time: %.1f minutes%n", estimatedSeconds() / 60.0));
		text.append(String.format(java.util.Locale.ROOT, "estimated disk: %,d MiB at most%n", estimatedBytes() >> 20));
		return text.toString();
	}

	/** The tunings each variant runs under, in order, each under every observe mode ({@code full} first). */
	public List<Tuning> tunings() {
		List<Observe> modes = this.scenario.observe().stream().map(Observe::of).sorted().toList();
		return this.scenario.tunings().stream().map(Tuning::load).flatMap(tuning -> modes.stream().map(tuning::observed)).toList();
	}

	/**
	 * Every way each variant runs, in order: each tuning (under each observe mode) on each JDK under each work per
	 * request, rows named by the JDK and the work when there are several.
	 */
	public List<Arm> arms() {
		List<Work> works = this.scenario.requestWorks();
		// No AOT axis: one arm per tuning, JDK and work, on the fat jar as always.
		List<Aot> aots = this.scenario.aot().isEmpty() ? java.util.Collections.singletonList(null) : this.scenario.aot().stream().map(Aot::of).toList();
		return tunings().stream()
			.flatMap(tuning -> this.jdks.stream()
				.flatMap(jdk -> works.stream()
					.flatMap(work -> aots.stream().map(aot -> new Arm(tuning, jdk, this.jdks.size() > 1, work, works.size() > 1, aot)))))
			.toList();
	}

	public List<String> jvmFlags() {
		List<String> flags = new ArrayList<>(this.profile.jvmFlags());
		flags.addAll(this.extraJvmOptions);
		return flags;
	}

	/**
	 * Every service run (each repeat afresh): start, warm-up, per level ramp + hold + drain + injector start; each AOT
	 * cache's training, as if none were kept; a variance study's probes as a search's (idle wait included), and its arms'.
	 */
	public long estimatedSeconds() {
		long probe = this.scenario.variance() ? searchProbeSeconds() : levelSeconds();
		long estimate = 10 + (long) serviceRuns() * (serviceStartSeconds() + probe * probesPerServiceRun()) + aotTrainingSeconds()
				+ (this.scenario.variance() ? VariancePlanText.armSeconds(this, probe) : 0);
		if (this.scenario.halvingSteps() != null && this.scenario.searchMinutes() != null) {
			// A tune's steps share out the whole budget, whatever the arms' count (and a minute to stop and summarise).
			return 10 + Math.round(this.scenario.searchMinutes() * 60) + 60;
		}
		if (this.scenario.searching() && this.scenario.searchMinutes() != null) {
			// Each arm's search ends within its budget (and a minute to stop its services and summarise).
			return Math.min(estimate, 10 + (long) arms().size() * (Math.round(this.scenario.searchMinutes() * 60) + 60));
		}
		return estimate;
	}

	/**
	 * Levels per service run: the ladder's; for a capacity search the bracket's doublings and halvings from its start
	 * until the gap is within its resolution (about log2 of max/start, at most 4, plus one per halving) and its refining
	 * rounds.
	 */
	long probesPerServiceRun() {
		if (this.scenario.variance()) {
			return this.scenario.probesPerJvm();
		}
		if (!this.scenario.searching()) {
			return this.levels.size();
		}
		int halvings = (int) Math.ceil(Math.log(100 / this.scenario.searchResolution()) / Math.log(2));
		return Math.min(4, (long) Math.ceil(Math.log((double) this.scenario.searchMax() / this.levels.get(0).level().amount()) / Math.log(2))) + 1
				+ Math.max(0, halvings) + this.scenario.rounds();
	}

	/**
	 * The AOT caches' trainings, once per variant and arm (not per repeat): measured here, a training under load took its
	 * {@code aotTrainingSeconds} and 18-24 s more (start, injector, the cache's writing), Spring Boot's 16-18 s.
	 */
	long aotTrainingSeconds() {
		long caches = (long) this.scenario.variants().size() * this.scenario.tunings().size() * this.scenario.observe().size() * this.jdks.size()
				* this.scenario.works().size();
		long each = 0;
		for (String mode : this.scenario.aot()) {
			each += switch (Aot.of(mode)) {
				case NONE -> 0;
				case TRAINED -> this.scenario.aotTrainingSeconds() + 25;
				case REFRESH -> 20;
			};
		}
		return caches * each;
	}

	/**
	 * The disk a run needs, estimated from what runs wrote (a smoke run of one variant: 5 MiB; this says 11): 8 MiB per
	 * service run (its logs, warm-up rounds, heap snapshots), 3 MiB per level (per-second series, JFR, Gatling's
	 * report, the timeline) and 100 bytes per request it may send at its ceiling (latency log, Gatling's own log).
	 */
	public long estimatedBytes() {
		long mib = 1L << 20;
		long requests = 0;
		for (PlannedLevel planned : this.levels) {
			double rps = switch (planned.level()) {
				case Level.Closed closed -> closed.users() * 1000.0 / Math.max(this.scenario.delayMs(), 1);
				case Level.Open open -> open.ratePerSecond();
			};
			requests += (long) (Math.min(rps, 50_000) * levelSeconds());
		}
		return mib + serviceRuns() * (8 * mib + probesPerServiceRun() * 3 * mib + 100 * requests);
	}

	/**
	 * How many times a service is started: each variant under each tuning and observe mode on each JDK and work, each
	 * repeat afresh.
	 */
	public int serviceRuns() {
		return (this.scenario.variants().size() + (this.scenario.aa() ? 1 : 0)) * this.scenario.tunings().size() * this.scenario.observe().size() * this.jdks.size()
				* this.scenario.works().size() * Math.max(1, this.scenario.aot().size()) * this.scenario.repeat()
				* (this.scenario.variance() ? this.scenario.jvms() * VariancePlanText.entriesPerArm(this.scenario) : 1);
	}

	/** One level, as estimated: ramp + hold + drain + injector start. */
	/**
	 * A search's probe as it runs: the level, and the check that its JVM fell idle, the round's CPU reference and the
	 * analysis between probes (a tune run here: 34 probes of a 5 s ramp and 15 s hold in about 24 minutes, 42 s each).
	 */
	public long searchProbeSeconds() {
		return levelSeconds() + 16;
	}

	public long levelSeconds() {
		return this.scenario.rampSeconds() + this.scenario.holdSeconds() + this.scenario.delayMs() / 1000 + 6;
	}

	/** One service's start and warm-up, as estimated. */
	public long serviceStartSeconds() {
		return 15 + ((this.scenario.warmupSeconds() > 0) ? this.scenario.warmupSeconds() + 6 : 0);
	}

}
