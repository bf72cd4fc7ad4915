package lab.run;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import lab.analyse.Analyser;
import lab.analyse.LevelJson;
import lab.analyse.Manifest;
import lab.analyse.RunAnalysis;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.judge.Thresholds;
import lab.analyse.read.LevelFacts;
import lab.launch.Children;
import lab.launch.Interruption;
import lab.launch.RemoteService;
import lab.launch.RunningService;
import lab.launch.Service;
import lab.launch.ServiceFailure;
import lab.launch.Storage;
import lab.launch.Watchdog;
import lab.layout.RunDir;
import lab.layout.ServiceDir;
import lab.load.GatlingRun;
import lab.load.Injectors;
import lab.plan.Arm;
import lab.plan.HarnessFlags;
import lab.plan.Pinning;
import lab.plan.PlanException;
import lab.plan.PlannedLevel;
import lab.plan.RunPlan;
import lab.plan.ServiceSource;
import lab.plan.Variant;
import lab.plan.Work;
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

	/** The downstream's JVM flags ({@link lab.plan.HarnessFlags#DOWNSTREAM}). */
	static final List<String> DOWNSTREAM_JVM_FLAGS = HarnessFlags.DOWNSTREAM;

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

	/** A service of the user's own: its manifest entry, and the PostgreSQL this run started for it. */
	private final OwnServiceNeeds ownNeeds;

	/** {@code --jfr}: record each level's steady window with JFR and summarise it. */
	private boolean jfr;

	/** {@code --profile-cpu}: async-profiler's agent library, loaded into the service for each steady window; or null. */
	private Path profiler;

	public Runner(RunPlan plan, PrintStream out) {
		this.plan = plan;
		this.out = out;
		this.cpus = Pinning.of(plan);
		this.ownNeeds = new OwnServiceNeeds(plan, out, this.cpus);
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
		RunAnalysis analysis = null;
		// SSH injectors get the simulation first: a host that cannot take it stops the run before anything starts.
		this.injectors.install();
		Files.createDirectories(this.plan.out());
		tools.jackson.databind.node.ObjectNode manifest = json.valueToTree(RunManifest.of(this.plan, this.plan.jvmFlags(), DOWNSTREAM_JVM_FLAGS,
				GatlingRun.JVM_FLAGS, args));
		if (this.plan.own() != null) {
			this.ownNeeds.record(manifest);
		}
		json.writeValue(this.plan.out().resolve(RunDir.MANIFEST).toFile(), manifest);
		this.out.println("lab: results in " + this.plan.out() + " (" + Storage.describe(this.plan.out()) + ")");
		AutoCloseable diskGuard = Storage.guard(this.plan.out(), this.out);
		Service downstream = null;
		// If this JVM is killed outright, the watchdog ends what it started; a normal end or Ctrl-C closes it.
		Watchdog watchdog = Watchdog.start(this.plan.out().resolve(RunDir.CHILDREN), this.plan.out().resolve(RunDir.WATCHDOG_LOG));
		try {
			this.needs = this.ownNeeds.start();
			downstream = startDownstream();
			int repeats = this.plan.scenario().repeat();
			List<String> variants = this.plan.scenario().variants();
			List<Arm> arms = this.plan.arms();
			if (this.plan.scenario().variance()) {
				// Every variant under every arm (the causes tested) in one study: fresh JVMs in batches, probed at one load each.
				downstream = ensureDownstream(downstream);
				this.serviceRunsBegun += variants.size() * arms.size();
				new VarianceRun(this::harness, arms, downstream, (variant, dir, levels, why) -> recordNotRun(variant, dir, levels, 1, why)).run();
				repeats = 0;
			}
			else if (this.plan.scenario().searching()) {
				// Every variant of an arm searched at once, round by round; arms (tunings, JDKs, works) one after another.
				for (int a = 0; a < arms.size() && !Interruption.requested(); a++) {
					downstream = ensureDownstream(downstream);
					Arm arm = arms.get(a);
					this.serviceRunsBegun += variants.size();
					new SearchRun(harness(arm.work()), arm, downstream, (variant, dir, levels, why) -> recordNotRun(variant, dir, levels, 1, why)).run();
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
			if (!Storage.isNoSpace(ex)) {
				throw ex;
			}
			Storage.stop(this.plan.out(), "no space left on device (" + ex.getMessage() + ")", this.out);
		}
		finally {
			if (downstream != null) {
				downstream.close();
			}
			// PostgreSQL after the services: a smart shutdown waits for their connections to close.
			Children.stopAll();
			this.ownNeeds.close();
			watchdog.close();
			closeQuietly(diskGuard);
			// A full disk takes no report: it could not be written; ./lab report renders it once there is room.
			analysis = Storage.full() ? null : render();
		}
		if (Storage.full()) {
			return Storage.EXIT_CODE;
		}
		if (Interruption.requested()) {
			this.out.println("lab: interrupted; the partial report holds every level measured so far");
			return Interruption.EXIT_CODE;
		}
		return Gate.of(this.plan, analysis, this.out);
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Only the disk guard's thread: it ends with the JVM anyway.
		}
	}

	/** The runner's own JVM on the harness cores ({@link Pinning#pinThisProcess}). */
	public void pinSelf() {
		this.cpus.pinThisProcess(this.out);
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
		this.out.println("lab: " + Variant.DOWNSTREAM + " up at " + downstream.url() + ServiceStart.pidNote(downstream));
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
	RunAnalysis render() {
		try {
			RunAnalysis analysis = new Analyser(this.thresholds).withTarget(this.plan.scenario().target())
				.run(this.plan.out(), Manifest.readTree(this.plan.out()), null);
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
		Optional<ServiceStart.Live> live = new ServiceStart(harness).begin(module, arm, variant, downstream, dir, levels,
				(name, variantDir, notRun, why) -> recordNotRun(name, variantDir, notRun, repeat, why));
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
					recordNotRun(variant, dir, rest, repeat, new NotRun(LevelFacts.Blame.HARNESS,
							List.of("not run: the downstream died during " + level.id() + "; the run goes on with the next variant"), List.of()));
					return;
				}
				if (outcome.verdict() == Verdict.FAILED || !facts.serviceAlive()) {
					// The analysis of this level said whose fault it was: the rest were not run for the same reason.
					recordNotRun(variant, dir, rest, repeat, new NotRun((outcome.verdict() == Verdict.FAILED) ? LevelFacts.Blame.SERVICE : LevelFacts.Blame.HARNESS,
							List.of("not run: the service " + (facts.serviceAlive() ? "failed" : "died") + " at " + level.id()), List.of()));
					return;
				}
			}
		}
	}

	/** What the run's parts share ({@link Harness}), for a service whose load asks {@code work} of each request. */
	private Harness harness(Work work) {
		return new Harness(this.plan, this.out, this.cpus, this.injectors, this.window, this.thresholds, this.jfr, this.profiler != null,
				this.pinned, work, this.needs, this.ownNeeds.postgres());
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
	private void recordNotRun(String variant, Path variantDir, List<PlannedLevel> levels, int repeat, NotRun why) throws IOException {
		this.levelsDone += levels.size();
		new LevelSession(harness(Work.NONE)).recordNotRun(variant, variantDir, levels, levels.stream().map(level -> levelId(level, repeat)).toList(), repeat,
				why);
	}

}
