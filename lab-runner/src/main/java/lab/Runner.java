package lab;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import lab.analyse.Analyser;
import lab.analyse.LevelFacts;
import lab.analyse.LevelJson;
import lab.analyse.LevelResult;
import lab.analyse.LevelResult.Verdict;
import lab.analyse.Measurement;
import lab.analyse.Thresholds;
import lab.launch.Children;
import lab.launch.Interruption;
import lab.launch.RemoteService;
import lab.launch.RunningService;
import lab.launch.Service;
import lab.launch.ServiceFailure;
import lab.launch.Watchdog;
import lab.load.GatlingRun;
import lab.load.Injectors;
import lab.plan.PlanException;
import lab.plan.Pinning;
import lab.plan.PlannedLevel;
import lab.plan.RunPlan;
import lab.plan.ServiceSource;
import lab.plan.Tuning;
import lab.plan.Variant;
import lab.report.ReportWriter;
import lab.report.Summaries;
import lab.layout.Level;
import lab.layout.LevelDir;
import lab.layout.LoadShape;
import lab.layout.RunDir;
import lab.layout.ServiceDir;
import lab.sample.CpuProfile;
import lab.sample.DownstreamProbe;
import lab.sample.HeapSnapshot;
import lab.sample.SteadyRecording;
import lab.sample.Sampler;
import lab.sample.WindowTasks;
import lab.verify.ClientReadback;
import lab.verify.ContractCheck;
import lab.verify.TuningCheck;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A whole run: the downstream once, then per variant start → verify → warm up → each level (sampled, recorded),
 * then the report. Everything is written as it is produced; a variant that breaks is recorded FAILED with its
 * evidence and the run goes on with the next.
 */
final class Runner {

	static final JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	/**
	 * The downstream must never add latency. With the JVM's default on one core (Serial GC, heap growing to a
	 * quarter of RAM) its young pauses reached 330 ms at 2,500 rps here, holding thousands of 500 ms timers
	 * alive; ZGC's pauses stay under a millisecond and its concurrent work shows in the injector cores' CPU.
	 */
	static final List<String> DOWNSTREAM_JVM_FLAGS = List.of("-XX:+UseSerialGC", "-Xms1g", "-Xmx1g", "-Xmn512m", "-XX:+AlwaysPreTouch");

	private final RunPlan plan;

	private final PrintStream out;

	private final Thresholds thresholds = Thresholds.DEFAULT;

	private final Injectors injectors;

	private final Pinning cpus;

	/** What happens at moments of each level's window: heap snapshots, --jfr, --profile-cpu. */
	private WindowTasks window;

	/** Extra Spring arguments of the downstream (the fault suite's test-only modes). */
	private List<String> downstreamArguments = List.of();

	/** How many times the downstream died during this run; a second death stops it. */
	private int downstreamDeaths;

	/** Levels measured or recorded as not run, and service runs (variant × tuning × repeat) begun: the ETA's base. */
	private int levelsDone;

	private int serviceRunsBegun;

	/** {@code --jfr}: record each level's steady window with JFR and summarise it. */
	private boolean jfr;

	/** {@code --profile-cpu}: async-profiler's agent library, loaded into the service for each steady window; or null. */
	private Path profiler;

	Runner(RunPlan plan, PrintStream out) {
		this.plan = plan;
		this.out = out;
		this.cpus = Pinning.of(plan);
		this.window = new WindowTasks(plan.javaHome(), plan.out(), out, null);
		this.injectors = Injectors.of(plan.remote(), plan.root(), java(), this.cpus.harnessTaskset());
	}

	Runner withCpuProfile(Path library) {
		this.profiler = library;
		this.window = new WindowTasks(this.plan.javaHome(), this.plan.out(), this.out, library);
		return this;
	}

	Runner withJfr(boolean jfr) {
		this.jfr = jfr;
		return this;
	}

	Runner withDownstreamArguments(List<String> arguments) {
		this.downstreamArguments = List.copyOf(arguments);
		return this;
	}

	Path java() {
		return this.plan.javaHome().resolve("bin/java");
	}

	/** A run that cannot go on (the downstream died twice): one line, then the report of what was measured. */
	static final class StopRun extends RuntimeException {

		StopRun(String message) {
			super(message);
		}

	}

	/** Runs the plan; returns the exit code: 0, or 130 when the person interrupted it. */
	int run(List<String> args) throws IOException, InterruptedException {
		// SSH injectors get the simulation first: a host that cannot take it stops the run before anything starts.
		this.injectors.install();
		Files.createDirectories(this.plan.out());
		json.writeValue(this.plan.out().resolve(RunDir.MANIFEST).toFile(),
				Manifest.of(this.plan, this.plan.jvmFlags(), DOWNSTREAM_JVM_FLAGS, GatlingRun.JVM_FLAGS, args));
		this.out.println("lab: results in " + this.plan.out());
		Service downstream = null;
		// If this JVM is killed outright, the watchdog ends what it started; a normal end or Ctrl-C closes it.
		Watchdog watchdog = Watchdog.start(this.plan.out().resolve(RunDir.CHILDREN), this.plan.out().resolve(RunDir.WATCHDOG_LOG));
		try {
			downstream = startDownstream();
			int repeats = this.plan.scenario().repeat();
			List<String> variants = this.plan.scenario().variants();
			List<Tuning> tunings = this.plan.tunings();
			for (int repeat = 1; repeat <= repeats && !Interruption.requested(); repeat++) {
				// Each repeat starts every variant afresh, in an order rotated by one: no variant always runs first.
				for (int i = 0; i < variants.size() && !Interruption.requested(); i++) {
					String variant = variants.get((i + repeat - 1) % variants.size());
					for (int t = 0; t < tunings.size() && !Interruption.requested(); t++) {
						downstream = ensureDownstream(downstream);
						runVariant(variant, tunings.get(t), downstream, repeat);
					}
				}
			}
		}
		catch (StopRun ex) {
			this.out.println("lab: run stopped: " + ex.getMessage());
		}
		finally {
			if (downstream != null) {
				downstream.close();
			}
			Children.stopAll();
			watchdog.close();
			render();
		}
		if (Interruption.requested()) {
			this.out.println("lab: interrupted; the partial report holds every level measured so far");
			return Interruption.EXIT_CODE;
		}
		return 0;
	}

	/** The runner's own JVM on the harness cores ({@link Pinning#pinThisProcess}). */
	void pinSelf() {
		this.cpus.pinThisProcess(this.out);
	}

	/** The downstream: started here, already running (--downstream), or none to watch (--target alone). */
	private Service startDownstream() throws IOException, InterruptedException {
		Path dir = this.plan.out().resolve(Variant.DOWNSTREAM);
		Service downstream;
		if (this.plan.remote().downstream() instanceof ServiceSource.ReachedAt(URI url)) {
			try {
				downstream = RemoteService.at(Variant.DOWNSTREAM, url, dir);
			}
			catch (ServiceFailure ex) {
				throw new PlanException("--downstream: " + ex.getMessage());
			}
		}
		else if (this.plan.remote().targetsGiven()) {
			this.out.println("lab: the target's downstream is not watched (no --downstream): its overhead check is skipped");
			return null;
		}
		else {
			downstream = RunningService.start(Variant.DOWNSTREAM, java(), RunPlan.jar(this.plan.root(), Variant.DOWNSTREAM),
					DOWNSTREAM_JVM_FLAGS, this.downstreamArguments, this.cpus.harnessTaskset(), dir);
		}
		this.out.println("lab: " + Variant.DOWNSTREAM + " up at " + downstream.url() + pidNote(downstream));
		return downstream;
	}

	/**
	 * Before each variant: a downstream that died or stopped answering is stopped, counted and started again; the
	 * second time, the run stops (a harness that keeps dying measures nothing).
	 */
	private Service ensureDownstream(Service downstream) throws IOException, InterruptedException {
		if (downstream == null || (downstream.alive() && Service.healthy(downstream.managementUrl()))) {
			return downstream;
		}
		this.downstreamDeaths++;
		String how = downstream.alive() ? "stopped answering its health check" : "died (exit code " + downstream.exitCode() + ")";
		if (this.downstreamDeaths >= 2 || downstream.pid().isEmpty()) {
			throw new StopRun("the downstream " + how + ((this.downstreamDeaths >= 2) ? " a second time" : " and is not the lab's to restart")
					+ "; see " + this.plan.out().relativize(downstream.dir()) + "/");
		}
		downstream.close();
		this.out.println("lab: the downstream " + how + "; starting it again");
		return startDownstream();
	}

	private static String pidNote(Service service) {
		return service.pid().isPresent() ? " (pid " + service.pid().getAsLong() + ")" : " (already running)";
	}

	void render() {
		try {
			List<LevelResult> results = new Analyser(this.thresholds).analyse(this.plan.out(), Variant.names());
			Path html = new ReportWriter().write(this.plan.out(), results);
			this.out.println("lab: report " + html);
		}
		catch (IOException | RuntimeException ex) {
			this.out.println("lab: the report failed (" + ex + "); the raw files are intact: ./lab report " + this.plan.out());
		}
	}

	private void runVariant(String module, Tuning tuning, Service downstream, int repeat) throws IOException, InterruptedException {
		boolean repeated = this.plan.scenario().repeat() > 1;
		this.serviceRunsBegun++;
		// Results, rows and charts name the variant with its tuning (the module alone under default).
		String variant = tuning.label(module);
		Path dir = this.plan.out().resolve(variant);
		if (repeated) {
			// A fresh JVM per repeat: its log, GC log and warm-up apart from the others'.
			dir = dir.resolve(ServiceDir.repeat(repeat));
		}
		List<PlannedLevel> levels = this.plan.levels();
		Service service;
		try {
			Optional<URI> target = this.plan.remote().target(module);
			if (target.isPresent()) {
				service = RemoteService.at(variant, target.get(), this.plan.remote().management(module).orElseThrow(), dir);
			}
			else {
				// The sampler walks the service's threads for context switches from outside (Sampler.watchThreads).
				List<String> arguments = new ArrayList<>(List.of("--lab.downstream.base-url=" + downstream.url(),
						"--lab.process-metrics.thread-walk=false"));
				arguments.addAll(tuning.arguments(module));
				if (!tuning.properties(module).isEmpty()) {
					// Only for a service this runner starts on loopback: its tuning is read back from /actuator/env.
					arguments.addAll(List.of("--management.endpoints.web.exposure.include=health,info,prometheus,env",
							"--management.endpoint.env.show-values=always"));
				}
				List<String> flags = new ArrayList<>(this.plan.jvmFlags());
				flags.addAll(tuning.jvmFlags(module));
				if (this.jfr) {
					// Reactive stacks run deeper than JFR's default 64 frames: truncated ones cannot be merged in a flame graph.
					flags.add(SteadyRecording.STACK_DEPTH_FLAG);
				}
				service = RunningService.start(variant, java(), RunPlan.jar(this.plan.root(), module), flags, arguments, this.cpus.serviceTaskset(), dir);
			}
		}
		catch (ServiceFailure ex) {
			if (Interruption.requested()) {
				return;
			}
			this.out.println("lab: " + variant + " FAILED to start: " + ex.getMessage());
			recordNotRun(variant, dir, levels, repeat, Verdict.FAILED, List.of(ex.getMessage()),
					List.of(this.plan.out().relativize(dir.resolve(ServiceDir.LOG)).toString()));
			return;
		}
		try (service) {
			this.out.println("lab: " + variant + " up at " + service.url() + pidNote(service));
			if (service instanceof RemoteService remote) {
				this.out.println("lab: " + variant + "'s JVM: " + remote.jvmFacts());
			}
			List<String> problems = ContractCheck.problems(service.url(), service.managementUrl(), Math.min(this.plan.scenario().delayMs(), 100));
			if (!problems.isEmpty() && !Interruption.requested()) {
				// What every thread was doing, while it still runs: the evidence of a hang, and a second chance.
				Optional<Path> dump = service.threadDump(this.plan.javaHome(), dir.resolve(ServiceDir.THREAD_DUMP));
				this.out.println("lab: " + variant + " contract check failed (" + String.join("; ", problems) + ")"
						+ dump.map(file -> "; thread dump in " + file).orElse("") + "; checking once more");
				problems = ContractCheck.problems(service.url(), service.managementUrl(), Math.min(this.plan.scenario().delayMs(), 100));
			}
			if (Interruption.requested()) {
				return;
			}
			if (!problems.isEmpty()) {
				// A downstream that does not answer makes every proxy fail its contract: the harness's fault.
				boolean harness = downstream != null && !(downstream.alive() && Service.healthy(downstream.managementUrl()));
				this.out.println("lab: " + variant + (harness ? " not measured: the downstream does not answer (" : " FAILED the contract check: (")
						+ String.join("; ", problems) + ")");
				List<String> evidence = new ArrayList<>(relative(service.logs()));
				if (Files.exists(dir.resolve(ServiceDir.THREAD_DUMP))) {
					evidence.add(this.plan.out().relativize(dir.resolve(ServiceDir.THREAD_DUMP)).toString());
				}
				if (Files.exists(dir.resolve(ServiceDir.THREAD_DUMP_JSON))) {
					evidence.add(this.plan.out().relativize(dir.resolve(ServiceDir.THREAD_DUMP_JSON)).toString());
				}
				List<String> reasons = new ArrayList<>(problems);
				if (harness) {
					reasons.add(0, "not run: the downstream did not answer during the contract check");
				}
				recordNotRun(variant, dir, levels, repeat, harness ? Verdict.INVALID : Verdict.FAILED, reasons, evidence);
				return;
			}
			Optional<JsonNode> client = ClientReadback.read(service.managementUrl());
			if (client.isPresent()) {
				// The client's settings as the service reads them from the client it built: the same on every variant.
				json.writeValue(dir.resolve(ServiceDir.DOWNSTREAM_CLIENT).toFile(), client.get());
				this.out.println("lab: " + variant + " calls the downstream with " + ClientReadback.describe(client.get()));
			}
			if (!tuning.properties(module).isEmpty()) {
				// The tuning as the service resolved it, kept beside its log; a setting it never saw was not measured.
				Map<String, String> applied = TuningCheck.readBack(service.managementUrl(), tuning.properties(module));
				json.writeValue(dir.resolve(ServiceDir.TUNING_APPLIED).toFile(), applied);
				List<String> unapplied = TuningCheck.problems(tuning.properties(module), applied);
				if (!unapplied.isEmpty()) {
					this.out.println("lab: " + variant + " not measured: " + String.join("; ", unapplied));
					List<String> reasons = new ArrayList<>(List.of("not run: the tuning " + tuning.name() + " was not applied"));
					reasons.addAll(unapplied);
					recordNotRun(variant, dir, levels, repeat, Verdict.INVALID, reasons, List.of(this.plan.out().relativize(dir.resolve(ServiceDir.TUNING_APPLIED)).toString()));
					return;
				}
			}
			Path warmup = warmUp(service, downstream, dir.resolve(ServiceDir.WARMUP));
			for (int i = 0; i < levels.size() && !Interruption.requested(); i++) {
				PlannedLevel level = levels.get(i);
				Outcome outcome = runLevel(service, downstream, level, repeat, warmup, (i == 0) ? warmup : null);
				LevelFacts facts = outcome.facts();
				if (facts.interruptedAtMs() != null) {
					return;
				}
				List<PlannedLevel> rest = levels.subList(i + 1, levels.size());
				if (Boolean.FALSE.equals(facts.downstreamAlive())) {
					recordNotRun(variant, dir, rest, repeat, Verdict.INVALID,
							List.of("not run: the downstream died during " + level.id() + "; the run goes on with the next variant"), List.of());
					return;
				}
				if (outcome.verdict() == Verdict.FAILED || !facts.serviceAlive()) {
					Verdict verdict = (outcome.verdict() == Verdict.FAILED) ? Verdict.FAILED : Verdict.INVALID;
					recordNotRun(variant, dir, rest, repeat, verdict, List.of("not run: the service "
							+ (facts.serviceAlive() ? "failed" : "died") + " at " + level.id()), List.of());
					return;
				}
			}
		}
	}

	/** "lab: level 3 of 12 (app-webflux users-2000), about 14 min left", from the plan's own estimate per step. */
	String position(String what) {
		int serviceRuns = this.plan.serviceRuns();
		int levels = serviceRuns * this.plan.levels().size();
		long left = (levels - this.levelsDone) * this.plan.levelSeconds()
				+ Math.max(0, serviceRuns - this.serviceRunsBegun) * this.plan.serviceStartSeconds();
		return String.format(java.util.Locale.ROOT, "lab: level %d of %d (%s), about %d min left", this.levelsDone + 1, levels, what,
				Math.max(1, Math.round(left / 60.0)));
	}

	private String levelId(PlannedLevel level, int repeat) {
		return (this.plan.scenario().repeat() > 1) ? level.level().name(repeat) : level.id();
	}

	private List<String> relative(List<Path> files) {
		return files.stream().map(file -> this.plan.out().relativize(file).toString()).toList();
	}

	/** A warm-up round after the first, run while the JIT still compiles. */
	static final int SETTLE_ROUND_SECONDS = 20;

	/** The last seconds of a warm-up round whose JIT compile time decides whether the service has settled. */
	static final int SETTLE_TAIL_SECONDS = 10;

	/**
	 * Warms the service up (sampled like a level, never judged) for the scenario's warmupSeconds, then in rounds of
	 * {@value #SETTLE_ROUND_SECONDS} s while the JIT compiled for more than the not-warm threshold of the last
	 * {@value #SETTLE_TAIL_SECONDS} s, up to warmupMaxSeconds in all; says how long it took. Returns the first
	 * round's directory (its heap snapshots are the memory profile's), null when skipped or the service died.
	 */
	private Path warmUp(Service service, Service downstream, Path dir) throws IOException, InterruptedException {
		int seconds = this.plan.scenario().warmupSeconds();
		if (seconds == 0) {
			this.out.println("lab: " + service.name() + " warm-up skipped (warmupSeconds: 0): every level will be INVALID");
			return null;
		}
		int users = this.plan.scenario().warmupUsers();
		int max = this.plan.scenario().warmupMaxSeconds();
		this.out.println("lab: " + service.name() + " warming up for " + seconds + " s at " + users + " users (not recorded)"
				+ ((max > seconds) ? ", longer while the JIT still compiles (up to " + max + " s)" : ""));
		Files.createDirectories(dir);
		// The base, before any load: after a warm-up, Tomcat's processor and buffer caches would still hold the
		// buffers of hundreds of connections and hide part of what each request costs.
		HeapSnapshot.take(service, this.plan.javaHome(), dir, LevelDir.HEAP_IDLE);
		warmUpRound(service, dir, users, seconds, true);
		int total = seconds;
		int rounds = 1;
		double limit = this.thresholds.notWarmJitPercent();
		double jit = Measurement.warmupJitPercent(dir, SETTLE_TAIL_SECONDS);
		while (jit > limit && total < max && service.alive() && !Interruption.requested()) {
			int round = Math.min(SETTLE_ROUND_SECONDS, max - total);
			this.out.println(String.format(java.util.Locale.ROOT, "lab: %s still compiling (JIT %.0f%% of the last %d s > %.0f%%): warming up %d s more",
					service.name(), jit, SETTLE_TAIL_SECONDS, limit, round));
			rounds++;
			Path more = dir.resolveSibling(ServiceDir.warmupRound(rounds));
			Files.createDirectories(more);
			warmUpRound(service, more, users, round, false);
			total += round;
			jit = Measurement.warmupJitPercent(more, SETTLE_TAIL_SECONDS);
		}
		// Unknown is not settled: a warm-up whose injector failed has no window, a service without a JIT series none.
		boolean settled = !Double.isNaN(jit) && !(jit > limit);
		if (!Interruption.requested() && service.alive()) {
			Path last = (rounds == 1) ? dir : dir.resolveSibling(ServiceDir.warmupRound(rounds));
			if (Double.isNaN(jit)) {
				this.out.println("lab: " + service.name() + " warm-up of " + total + " s could not be judged: "
						+ ((lab.load.LoadFiles.window(last) == null) ? "the injector did not finish it (see " + last.resolve(lab.layout.LevelDir.GATLING_LOG) + ")"
								: "no JIT series was sampled"));
			}
			else {
				this.out.println(String.format(java.util.Locale.ROOT, "lab: %s %s after %d s of warm-up (JIT %.1f%% of its last %d s%s)", service.name(),
						settled ? "warm" : "still compiling", total, jit, SETTLE_TAIL_SECONDS,
						settled ? "" : String.format(java.util.Locale.ROOT, " > %.0f%%, the cap warmupMaxSeconds %d s reached: its first level may be INVALID, not warm", limit, max)));
			}
		}
		json.writeValue(dir.resolveSibling(ServiceDir.WARMUP_SETTLED).toFile(),
				Map.of("seconds", total, "rounds", rounds, "settled", settled, "jitPercentOfLastSeconds", Double.isNaN(jit) ? "NaN" : jit,
						"lastSeconds", SETTLE_TAIL_SECONDS, "maxSeconds", max));
		return service.alive() ? dir : null;
	}

	/** One warm-up round of {@code seconds} at {@code users}, sampled into {@code dir}; the first also snapshots the heap. */
	private void warmUpRound(Service service, Path dir, int users, int seconds, boolean first) throws IOException, InterruptedException {
		int ramp = first ? Math.min(5, seconds / 3) : 0;
		try (Sampler sampler = sampler(service, null, dir);
				Progress progress = new Progress(this.out, service.name() + " warm-up", seconds)) {
			Injectors.Load load = this.injectors.start(new Level.Closed(users),
					share -> properties(service, LoadShape.CLOSED, share, ramp, seconds - ramp, 0),
					seconds + 120, dir, progress::accept);
			load.localPids().forEach(sampler::watchProcess);
			// The heap under the warm-up's load, 3 s before it ends: with the idle one below, the prediction's slope.
			Thread loaded = first ? this.window.snapshotAtWindowEnd(service, dir, LevelDir.HEAP_LOADED, -3_000, seconds + 60) : null;
			load.await(seconds + 120);
			if (loaded != null) {
				loaded.join(Duration.ofSeconds(60));
			}
		}
	}

	private Sampler sampler(Service service, Service downstream, Path dir) throws IOException {
		Sampler sampler = new Sampler(dir.resolve(LevelDir.METRICS));
		sampler.watchEndpoint("service", service.managementUrl());
		service.pid().ifPresent(pid -> {
			sampler.watchProcess("service", pid);
			sampler.watchThreads("service", pid);
		});
		if (downstream != null) {
			sampler.watchEndpoint("downstream", downstream.managementUrl());
			downstream.pid().ifPresent(pid -> sampler.watchProcess("downstream", pid));
		}
		sampler.watchCores(this.cpus.harnessCores());
		return sampler;
	}

	/** What the runner wrote for a level and the verdict it got (null when interrupted: not analysed). */
	private record Outcome(LevelFacts facts, Verdict verdict) {
	}

	private Outcome runLevel(Service service, Service downstream, PlannedLevel level, int repeat, Path warmup, Path firstAfter)
			throws IOException, InterruptedException {
		String id = levelId(level, repeat);
		Path dir = service.dir().resolve(id);
		Files.createDirectories(dir);
		this.out.println(position(service.name() + " " + id));
		this.levelsDone++;
		// Until the level's own facts replace it: what a report says of this level if the runner is killed during it.
		LevelJson.writeFacts(dir, new LevelFacts(service.name(), level.level(), level.cappedFrom(), this.plan.scenario().delayMs(), repeat,
				warmup != null, this.cpus.serviceCpuCount(), this.cpus.injectorCpuCount(), true, null, false, -1, List.of(),
				List.of("interrupted: the runner ended during this level without finishing it (killed?); its raw files are kept"),
				Verdict.INTERRUPTED.name(), this.plan.scenario().requestTimeoutMs(), null, null, null, null, null));
		int ramp = this.plan.scenario().rampSeconds();
		int hold = this.plan.scenario().holdSeconds();
		LoadShape shape = this.plan.scenario().model();
		// An unmeasured tail keeps the load on after the window while the heap is looked at (a full GC): the window's
		// last requests are answered by then, and no pause falls inside it.
		long snapshotAfterEndMs = this.plan.scenario().delayMs() + 1_500;
		int tail = service.pid().isPresent() ? (int) (snapshotAfterEndMs / 1000) + 5 : 0;
		int loadSeconds = this.plan.scenario().model().steadyAfterSeconds(ramp) + hold + tail;
		long timeout = loadSeconds + this.plan.scenario().requestTimeoutMs() / 1000 + 120;
		int exit;
		try (Sampler sampler = sampler(service, downstream, dir);
				DownstreamProbe probe = (downstream != null) ? new DownstreamProbe(downstream.url(), this.plan.scenario().delayMs(),
						dir.resolve(LevelDir.PROBE)) : null;
				Progress progress = new Progress(this.out, service.name() + " " + id, loadSeconds)) {
			Injectors.Load load = this.injectors.start(level.level(), share -> properties(service, shape, share, ramp, hold, tail), timeout,
					dir, progress::accept);
			load.localPids().forEach(sampler::watchProcess);
			Thread snapshot = (tail > 0) ? this.window.snapshotAtWindowEnd(service, dir, LevelDir.HEAP_STEADY, snapshotAfterEndMs, loadSeconds + 60) : null;
			Thread recording = (this.jfr && service.pid().isPresent()) ? this.window.recordSteadyWindow(service, dir, loadSeconds + 60) : null;
			AtomicReference<String> profiledWith = new AtomicReference<>();
			Thread profiling = (this.profiler != null && service.pid().isPresent())
					? this.window.profileSteadyWindow(service, dir, loadSeconds + 60, profiledWith) : null;
			exit = load.await(timeout);
			if (profiling != null) {
				profiling.join(Duration.ofSeconds(60));
				if (!Interruption.requested() && profiledWith.get() != null && CpuProfile.draw(dir, profiledWith.get())) {
					this.out.println("  " + service.name() + " " + id + ": CPU profile (async-profiler, event=" + profiledWith.get()
							+ ") in " + this.plan.out().relativize(dir.resolve(LevelDir.PROFILE_FLAME)));
				}
			}
			if (snapshot != null) {
				snapshot.join(Duration.ofSeconds(60));
			}
			if (recording != null) {
				recording.join(Duration.ofSeconds(60));
			}
		}
		if (this.jfr && !Interruption.requested() && SteadyRecording.summarise(this.plan.javaHome(), dir)) {
			this.out.println("  " + service.name() + " " + id + ": JFR summary in " + this.plan.out().relativize(dir.resolve(LevelDir.JFR_SUMMARY)));
		}
		Long interruptedAt = Interruption.requested() ? Interruption.requestedAtMs() : null;
		boolean alive = service.alive();
		boolean oom = service.outOfMemory();
		Boolean downstreamAlive = (downstream == null) ? null : downstream.alive();
		Integer downstreamExit = (downstream == null) ? null : downstream.exitCode();
		List<String> evidence = new ArrayList<>(relative(service.logs()));
		LevelFacts facts = new LevelFacts(service.name(), level.level(), level.cappedFrom(),
				this.plan.scenario().delayMs(), repeat, warmup != null, this.cpus.serviceCpuCount(), this.cpus.injectorCpuCount(), alive,
				service.exitCode(), oom, exit, evidence, List.of(), null, this.plan.scenario().requestTimeoutMs(), downstream != null,
				downstreamAlive, downstreamExit, interruptedAt,
				(firstAfter != null) ? this.plan.out().relativize(firstAfter).toString() : null);
		LevelJson.writeFacts(dir, facts);
		if (interruptedAt != null) {
			this.out.println("  " + service.name() + " " + id + ": INTERRUPTED");
			return new Outcome(facts, null);
		}
		LevelResult result = new Analyser(this.thresholds).analyseOne(Measurement.of(dir, this.plan.out()));
		if (result.verdict() == Verdict.FAILED && alive) {
			// What filled the heap, taken while the service still lives.
			Optional<Path> histogram = service.heapHistogram(this.plan.javaHome(), dir.resolve(LevelDir.HEAP_HISTOGRAM));
			histogram.ifPresent(file -> evidence.add(this.plan.out().relativize(file).toString()));
			facts = facts.withEvidence(evidence);
			LevelJson.writeFacts(dir, facts);
		}
		this.out.println(Summaries.line(result));
		// Lets the last connections close before the next level starts.
		Thread.sleep(1_000);
		return new Outcome(facts, result.verdict());
	}

	private List<String> properties(Service service, LoadShape shape, Level level, int ramp, int hold, int tail) {
		return GatlingRun.properties(service.url(), shape, level, this.plan.scenario().delayMs(), ramp, hold, tail,
				this.plan.scenario().requestTimeoutMs());
	}

	/** Levels a variant never ran still get a row, with the verdict the cause deserves, the reason and the evidence. */
	private void recordNotRun(String variant, Path variantDir, List<PlannedLevel> levels, int repeat, Verdict verdict,
			List<String> problems, List<String> evidence) throws IOException {
		this.levelsDone += levels.size();
		for (PlannedLevel level : levels) {
			Path dir = variantDir.resolve(levelId(level, repeat));
			Files.createDirectories(dir);
			LevelJson.writeFacts(dir,
					new LevelFacts(variant, level.level(), level.cappedFrom(), this.plan.scenario().delayMs(),
							repeat, false, this.cpus.serviceCpuCount(), this.cpus.injectorCpuCount(), true, null, false, -1, evidence, problems,
							verdict.name(), this.plan.scenario().requestTimeoutMs(), null, null, null, null, null));
		}
	}

}
