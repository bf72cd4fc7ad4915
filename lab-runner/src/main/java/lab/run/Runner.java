package lab.run;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import lab.analyse.Manifest;
import lab.analyse.Analyser;
import lab.analyse.LevelFacts;
import lab.analyse.LevelJson;
import lab.analyse.LevelResult.Verdict;
import lab.analyse.LevelResult;
import lab.analyse.Thresholds;
import lab.launch.Children;
import lab.launch.Interruption;
import lab.launch.RemoteService;
import lab.launch.RunningService;
import lab.launch.Service;
import lab.launch.ServiceFailure;
import lab.launch.Watchdog;
import lab.layout.RunDir;
import lab.layout.ServiceDir;
import lab.load.GatlingRun;
import lab.load.Injectors;
import lab.plan.Arm;
import lab.plan.Pinning;
import lab.plan.PlanException;
import lab.plan.PlannedLevel;
import lab.plan.RunPlan;
import lab.plan.ServiceSource;
import lab.plan.Variant;
import lab.report.ReportWriter;
import lab.sample.PinnedRecording;
import lab.sample.WindowTasks;
import tools.jackson.databind.json.JsonMapper;

/**
 * A whole run: the downstream once, then per variant start → verify → warm up → each level (sampled, recorded),
 * then the report. Everything is written as it is produced; a variant that breaks is recorded FAILED with its
 * evidence and the run goes on with the next.
 */
public final class Runner {

	/** The lab's JSON mapper for what it writes (indented; a {@code Level} by its field). */
	private static final JsonMapper json = LevelJson.json;

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

	/** Each level's recording of pinned virtual threads, at the services' pinned threshold. */
	private final PinnedRecording pinned;

	/** What happens at moments of each level's window: heap snapshots, --jfr, --profile-cpu. */
	private WindowTasks window;

	/** Extra Spring arguments of the downstream (the fault suite's test-only modes). */
	private List<String> downstreamArguments = List.of();

	/** How many times the downstream died during this run; a second death stops it. */
	private int downstreamDeaths;

	/** Levels measured or recorded as not run, and service runs (variant × tuning × repeat) begun: the ETA's base. */
	private int levelsDone;

	private int serviceRunsBegun;

	/** The Spring properties that reach what a service of the user's own needs (its PostgreSQL); empty for the lab's own. */
	private java.util.Map<String, String> needs = java.util.Map.of();

	/** The PostgreSQL this run started for a service of the user's own, or null. */
	private lab.launch.Postgres postgres;

	/** {@code --jfr}: record each level's steady window with JFR and summarise it. */
	private boolean jfr;

	/** {@code --profile-cpu}: async-profiler's agent library, loaded into the service for each steady window; or null. */
	private Path profiler;

	public Runner(RunPlan plan, PrintStream out) {
		this.plan = plan;
		this.out = out;
		this.cpus = Pinning.of(plan);
		this.pinned = PinnedRecording.of(plan.jvmFlags());
		this.window = new WindowTasks(plan.out(), out, null);
		this.injectors = Injectors.of(plan.remote(), plan.root(), java(), this.cpus.harnessTaskset());
	}

	public Runner withCpuProfile(Path library) {
		this.profiler = library;
		this.window = new WindowTasks(this.plan.out(), this.out, library);
		return this;
	}

	public Runner withJfr(boolean jfr) {
		this.jfr = jfr;
		return this;
	}

	public Runner withDownstreamArguments(List<String> arguments) {
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

	/**
	 * Runs the plan; returns the exit code: 0, 3 when a declared latency target was missed ({@link #gate}), 4 when the
	 * results disk filled ({@link lab.launch.Storage}), 130 when interrupted.
	 */
	public int run(List<String> args) throws IOException, InterruptedException {
		lab.analyse.RunAnalysis analysis = null;
		// SSH injectors get the simulation first: a host that cannot take it stops the run before anything starts.
		this.injectors.install();
		Files.createDirectories(this.plan.out());
		tools.jackson.databind.node.ObjectNode manifest = json.valueToTree(Manifest.of(this.plan, this.plan.jvmFlags(), DOWNSTREAM_JVM_FLAGS,
				GatlingRun.JVM_FLAGS, args));
		if (this.plan.own() != null) {
			recordOwnService(manifest);
		}
		json.writeValue(this.plan.out().resolve(RunDir.MANIFEST).toFile(), manifest);
		this.out.println("lab: results in " + this.plan.out() + " (" + lab.launch.Storage.describe(this.plan.out()) + ")");
		AutoCloseable diskGuard = lab.launch.Storage.guard(this.plan.out(), this.out);
		Service downstream = null;
		// If this JVM is killed outright, the watchdog ends what it started; a normal end or Ctrl-C closes it.
		Watchdog watchdog = Watchdog.start(this.plan.out().resolve(RunDir.CHILDREN), this.plan.out().resolve(RunDir.WATCHDOG_LOG));
		try {
			startNeeds();
			downstream = startDownstream();
			int repeats = this.plan.scenario().repeat();
			List<String> variants = this.plan.scenario().variants();
			List<Arm> arms = this.plan.arms();
			if (this.plan.scenario().searching()) {
				// Every variant of an arm searched at once, round by round; arms (tunings, JDKs, works) one after another.
				for (int a = 0; a < arms.size() && !Interruption.requested(); a++) {
					downstream = ensureDownstream(downstream);
					Arm arm = arms.get(a);
					this.serviceRunsBegun += variants.size();
					new SearchRun(harness(arm.work()), arm, downstream, (variant, dir, level, blame, reasons, evidence) -> recordNotRun(variant, dir,
							List.of(level), 1, blame, reasons, evidence)).run();
				}
				repeats = 0;
			}
			for (int repeat = 1; repeat <= repeats && !Interruption.requested(); repeat++) {
				// Each repeat starts every variant afresh, in an order rotated by one: no variant always runs first.
				for (int i = 0; i < variants.size() && !Interruption.requested(); i++) {
					String variant = variants.get((i + repeat - 1) % variants.size());
					for (int a = 0; a < arms.size() && !Interruption.requested(); a++) {
						downstream = ensureDownstream(downstream);
						runVariant(variant, arms.get(a), downstream, repeat);
					}
				}
			}
		}
		catch (StopRun ex) {
			this.out.println("lab: run stopped: " + ex.getMessage());
		}
		catch (IOException | RuntimeException ex) {
			// A write refused for want of space ends the run as the guard would have; anything else is the runner's bug.
			if (!lab.launch.Storage.isNoSpace(ex)) {
				throw ex;
			}
			lab.launch.Storage.stop(this.plan.out(), "no space left on device (" + ex.getMessage() + ")", this.out);
		}
		finally {
			if (downstream != null) {
				downstream.close();
			}
			// PostgreSQL after the services: a smart shutdown waits for their connections to close.
			Children.stopAll();
			if (this.postgres != null) {
				this.postgres.close();
			}
			watchdog.close();
			closeQuietly(diskGuard);
			// A full disk takes no report: it could not be written; ./lab report renders it once there is room.
			analysis = lab.launch.Storage.full() ? null : render();
		}
		if (lab.launch.Storage.full()) {
			return lab.launch.Storage.EXIT_CODE;
		}
		if (Interruption.requested()) {
			this.out.println("lab: interrupted; the partial report holds every level measured so far");
			return Interruption.EXIT_CODE;
		}
		return gate(analysis);
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Only the disk guard's thread: it ends with the JVM anyway.
		}
	}

	/** The exit code of a run whose declared latency target a variant missed at a level (documented in docs/latency-target.md). */
	public static final int TARGET_MISSED_EXIT_CODE = 3;

	/**
	 * A run that declared its latency target fails (exit 3) when a variant missed it at any level it ran: the gate a
	 * user's CI runs. Without a declared target, or with every variant within it, 0.
	 */
	int gate(lab.analyse.RunAnalysis analysis) {
		if (!this.plan.scenario().targetDeclared() || analysis == null) {
			return 0;
		}
		if (this.plan.scenario().searching()) {
			// A search misses the target by design (it looks for where): its answer is the capacity it printed.
			this.out.println("lab: a capacity search is not a gate: its probes above the capacity miss the target by design");
			return 0;
		}
		String target = this.plan.scenario().target().describe();
		List<String> missed = new ArrayList<>();
		for (lab.analyse.LevelResult level : analysis.levels()) {
			if (Boolean.FALSE.equals(level.meetsTarget())) {
				missed.add(level.variant() + " at " + level.load() + " (" + level.verdict()
						+ (level.verdict() == lab.analyse.LevelResult.Verdict.OK ? ", " + level.targetText(this.plan.scenario().target())
								: level.reasons().isEmpty() ? "" : ": " + level.reasons().get(0)) + ")");
			}
		}
		if (missed.isEmpty()) {
			this.out.println("lab: every level met the latency target " + target);
			return 0;
		}
		this.out.println("lab: the latency target " + target + " was missed: " + String.join("; ", missed) + " (exit code " + TARGET_MISSED_EXIT_CODE + ")");
		return TARGET_MISSED_EXIT_CODE;
	}

	/** The runner's own JVM on the harness cores ({@link Pinning#pinThisProcess}). */
	public void pinSelf() {
		this.cpus.pinThisProcess(this.out);
	}

	/**
	 * The service of the user's own in the manifest ({@code ownService}): its file as read, its jar's hash and libraries
	 * (the driver, pool, server, Boot and Spring named apart); and its requests as the simulation reads them
	 * ({@link lab.layout.RunDir#REQUEST_MIX}).
	 */
	private void recordOwnService(tools.jackson.databind.node.ObjectNode manifest) throws IOException {
		var own = this.plan.own();
		lab.layout.RequestMix.write(own.requests().stream().map(lab.plan.OwnService.Request::toMix).toList(),
				this.plan.out().resolve(lab.layout.RunDir.REQUEST_MIX));
		// The driver is the one the datasource URL names: the lab's own PostgreSQL, the file's database, or the service's property.
		var pg = own.needs().postgres();
		String url = (pg == null) ? own.properties().get("spring.datasource.url") : pg.startedHere() ? "jdbc:postgresql:" : pg.url();
		var facts = lab.plan.JarLibraries.read(own.jar(), url);
		tools.jackson.databind.node.ObjectNode node = manifest.putObject("ownService");
		node.set("file", json.valueToTree(own));
		node.put("jarSha256", facts.sha256());
		node.set("libraries", json.valueToTree(facts.roles()));
		node.set("allLibraries", json.valueToTree(facts.libraries().stream().map(Object::toString).toList()));
		node.set("driversPresent", json.valueToTree(facts.driversPresent()));
		List<String> others = facts.driversPresent().stream().filter(d -> !d.equals(facts.roles().get("driver"))).toList();
		this.out.println("lab: your service " + own.name() + ": " + own.jar().getFileName() + " (sha256 " + facts.sha256().substring(0, 12) + "), "
				+ (facts.roles().isEmpty() ? "no Spring Boot libraries found in BOOT-INF/lib" : String.join(", ", facts.roles().values()))
				+ (others.isEmpty() ? "" : "; also in the jar, not used: " + String.join(", ", others)));
	}

	/**
	 * What a service of the user's own needs before it starts: a PostgreSQL started here on the harness's cores (its
	 * log in {@code postgres/postgres.log}), or the URL of one already running; its properties go to every arm.
	 */
	private void startNeeds() throws IOException, InterruptedException {
		var pg = (this.plan.own() != null) ? this.plan.own().needs().postgres() : null;
		if (pg == null) {
			return;
		}
		if (!pg.startedHere()) {
			this.needs = lab.launch.Postgres.properties(pg.url(), pg.username(), pg.password());
			this.out.println("lab: the service's PostgreSQL is already running at " + pg.url());
			return;
		}
		try {
			this.postgres = lab.launch.Postgres.start(pg, this.cpus.harnessTaskset(), this.plan.out().resolve(lab.layout.RunDir.POSTGRES).resolve(lab.layout.RunDir.POSTGRES_LOG));
		}
		catch (ServiceFailure ex) {
			// Nothing was measured: one line and exit code 2, as for any other thing the run needs and lacks.
			throw new PlanException("the service's PostgreSQL did not start: " + ex.getMessage());
		}
		this.needs = this.postgres.properties();
		this.out.println("lab: PostgreSQL up at " + this.postgres.jdbcUrl() + " (pid " + this.postgres.pid() + ", data in " + this.postgres.data()
				+ ", removed after the run)");
	}

	/** The downstream: started here, already running (--downstream), or none to watch (--target alone, a service of the user's own). */
	private Service startDownstream() throws IOException, InterruptedException {
		if (this.plan.own() != null && this.plan.own().needs().downstream() == null) {
			this.out.println("lab: a service of your own calls what it calls: no downstream is started");
			return null;
		}
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
		this.out.println("lab: " + Variant.DOWNSTREAM + " up at " + downstream.url() + ServiceLife.pidNote(downstream));
		if (this.plan.own() != null) {
			// A service of the user's own that calls the lab's downstream: its URL in the property the file names.
			var needed = new java.util.LinkedHashMap<>(this.needs);
			needed.put(this.plan.own().needs().downstream().property(), downstream.url());
			this.needs = needed;
		}
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

	/** Renders the report from the raw files; the analysis, or null when it failed. */
	lab.analyse.RunAnalysis render() {
		try {
			lab.analyse.RunAnalysis analysis = new Analyser(this.thresholds).withTarget(this.plan.scenario().target())
				.run(this.plan.out(), Manifest.readTree(this.plan.out()), null, Variant.names());
			Path html = new ReportWriter().write(analysis);
			this.out.println("lab: report " + html);
			return analysis;
		}
		catch (IOException | RuntimeException ex) {
			this.out.println("lab: the report failed (" + ex + "); the raw files are intact: ./lab report " + this.plan.out());
			return null;
		}
	}

	/** One variant in one arm (tuning, JDK), one repeat: start → admit → warm up → each level, until one breaks it. */
	private void runVariant(String module, Arm arm, Service downstream, int repeat) throws IOException, InterruptedException {
		this.serviceRunsBegun++;
		// Results, rows and charts name the variant with its tuning and JDK (the module alone under default on one JDK).
		String variant = arm.label(module);
		// A fresh JVM per repeat: its log, GC log and warm-up apart from the others'.
		Path dir = (this.plan.scenario().repeat() > 1) ? this.plan.out().resolve(variant).resolve(ServiceDir.repeat(repeat))
				: this.plan.out().resolve(variant);
		List<PlannedLevel> levels = this.plan.levels();
		Harness harness = harness(arm.work());
		Optional<ServiceLife.Live> live = new ServiceLife(harness).begin(module, arm, variant, downstream, dir,
				(blame, reasons, evidence) -> recordNotRun(variant, dir, levels, repeat, blame, reasons, evidence));
		if (live.isEmpty()) {
			return;
		}
		Path warmup = live.get().warmup();
		try (Service service = live.get().service()) {
			LevelSession session = new LevelSession(harness);
			for (int i = 0; i < levels.size() && !Interruption.requested(); i++) {
				PlannedLevel level = levels.get(i);
				String id = levelId(level, repeat);
				this.out.println(position(variant + " " + id));
				this.levelsDone++;
				LevelSession.Outcome outcome = session.run(service, downstream, level, id, repeat, warmup, i == 0);
				LevelFacts facts = outcome.facts();
				if (facts.interruptedAtMs() != null) {
					return;
				}
				List<PlannedLevel> rest = levels.subList(i + 1, levels.size());
				if (Boolean.FALSE.equals(facts.downstreamAlive())) {
					recordNotRun(variant, dir, rest, repeat, LevelFacts.Blame.HARNESS,
							List.of("not run: the downstream died during " + level.id() + "; the run goes on with the next variant"), List.of());
					return;
				}
				if (outcome.verdict() == Verdict.FAILED || !facts.serviceAlive()) {
					// The analysis of this level said whose fault it was: the rest were not run for the same reason.
					recordNotRun(variant, dir, rest, repeat, (outcome.verdict() == Verdict.FAILED) ? LevelFacts.Blame.SERVICE : LevelFacts.Blame.HARNESS,
							List.of("not run: the service " + (facts.serviceAlive() ? "failed" : "died") + " at " + level.id()), List.of());
					return;
				}
			}
		}
	}

	/** What the run's parts share ({@link Harness}), for a service whose load asks {@code work} of each request. */
	private Harness harness(lab.plan.Work work) {
		return new Harness(this.plan, this.out, this.cpus, this.injectors, this.window, this.thresholds, this.jfr, this.profiler != null,
				this.pinned, work, this.needs);
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

	/** Levels a variant never ran still get a row, with the verdict the cause deserves, the reason and the evidence. */
	private void recordNotRun(String variant, Path variantDir, List<PlannedLevel> levels, int repeat, LevelFacts.Blame blame,
			List<String> problems, List<String> evidence) throws IOException {
		this.levelsDone += levels.size();
		new LevelSession(harness(lab.plan.Work.NONE)).recordNotRun(variant, variantDir, levels, levels.stream().map(level -> levelId(level, repeat)).toList(), repeat,
				blame, problems, evidence);
	}

}
