package lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import lab.analyse.Analyser;
import lab.analyse.LevelFacts;
import lab.analyse.LevelResult;
import lab.analyse.Measurement;
import lab.analyse.Thresholds;
import lab.launch.Children;
import lab.launch.RemoteService;
import lab.launch.RunningService;
import lab.launch.Service;
import lab.launch.ServiceFailure;
import lab.load.GatlingRun;
import lab.load.Injectors;
import lab.plan.Level;
import lab.plan.PlanException;
import lab.plan.RunPlan;
import lab.plan.Variant;
import lab.report.ReportWriter;
import lab.report.Summaries;
import lab.sample.Sampler;
import lab.verify.ContractCheck;
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

	Runner(RunPlan plan, PrintStream out) {
		this.plan = plan;
		this.out = out;
		this.injectors = Injectors.of(plan.remote(), plan.root(), java(), otherCpus());
	}

	Path java() {
		return this.plan.javaHome().resolve("bin/java");
	}

	String serviceCpus() {
		return this.plan.pinned() ? this.plan.serviceCpus() : null;
	}

	String otherCpus() {
		return this.plan.pinned() ? this.plan.otherCpus() : null;
	}

	int injectorCpus() {
		return this.plan.pinned() ? this.plan.host().cores() - 1 : this.plan.host().cores();
	}

	void run(List<String> args) throws IOException, InterruptedException {
		// SSH injectors get the simulation first: a host that cannot take it stops the run before anything starts.
		this.injectors.install();
		Files.createDirectories(this.plan.out());
		json.writeValue(this.plan.out().resolve("manifest.json").toFile(),
				Manifest.of(this.plan, this.plan.jvmFlags(), DOWNSTREAM_JVM_FLAGS, GatlingRun.JVM_FLAGS, args));
		this.out.println("lab: results in " + this.plan.out());
		// Ctrl-C: stop every child, then render what was measured so far into a readable partial report.
		Thread onInterrupt = new Thread(() -> {
			Children.stopAll();
			try {
				render();
			}
			catch (Exception ex) {
				this.out.println("lab: partial report failed (" + ex + "); ./lab report " + this.plan.out() + " renders it later");
			}
		}, "lab-partial-report");
		Runtime.getRuntime().addShutdownHook(onInterrupt);
		try (Service downstream = startDownstream()) {
			for (String variant : this.plan.scenario().variants()) {
				runVariant(variant, downstream);
			}
		}
		finally {
			try {
				Runtime.getRuntime().removeShutdownHook(onInterrupt);
			}
			catch (IllegalStateException shuttingDown) {
				// Ctrl-C: the hook is already rendering the partial report.
				return;
			}
			render();
		}
	}

	/** The downstream: started here, already running (--downstream), or none to watch (--target alone). */
	private Service startDownstream() throws IOException, InterruptedException {
		Path dir = this.plan.out().resolve(Variant.DOWNSTREAM);
		Service downstream;
		if (this.plan.remote().downstream() != null) {
			try {
				downstream = RemoteService.at(Variant.DOWNSTREAM, this.plan.remote().downstream(), dir);
			}
			catch (ServiceFailure ex) {
				throw new PlanException("--downstream: " + ex.getMessage());
			}
		}
		else if (this.plan.remote().target() != null) {
			this.out.println("lab: the target's downstream is not watched (no --downstream): its overhead check is skipped");
			return null;
		}
		else {
			downstream = RunningService.start(Variant.DOWNSTREAM, java(), RunPlan.jar(this.plan.root(), Variant.DOWNSTREAM),
					DOWNSTREAM_JVM_FLAGS, List.of(), otherCpus(), dir);
		}
		this.out.println("lab: " + Variant.DOWNSTREAM + " up at " + downstream.url() + pidNote(downstream));
		return downstream;
	}

	private static String pidNote(Service service) {
		return service.pid().isPresent() ? " (pid " + service.pid().getAsLong() + ")" : " (already running)";
	}

	void render() throws IOException {
		List<LevelResult> results = new Analyser(this.thresholds).analyse(this.plan.out(), Variant.names());
		Path html = new ReportWriter().write(this.plan.out(), results);
		this.out.println("lab: report " + html);
	}

	private void runVariant(String variant, Service downstream) throws IOException, InterruptedException {
		Path dir = this.plan.out().resolve(variant);
		Service service;
		try {
			if (this.plan.remote().target() != null) {
				service = RemoteService.at(variant, this.plan.remote().target(), dir);
			}
			else {
				List<String> arguments = List.of("--lab.downstream.base-url=" + downstream.url());
				service = RunningService.start(variant, java(), RunPlan.jar(this.plan.root(), variant), this.plan.jvmFlags(),
						arguments, serviceCpus(), dir);
			}
		}
		catch (ServiceFailure ex) {
			this.out.println("lab: " + variant + " FAILED to start: " + ex.getMessage());
			recordNotRun(variant, List.of(ex.getMessage()), List.of(this.plan.out().relativize(dir.resolve("service.log")).toString()));
			return;
		}
		try (service) {
			this.out.println("lab: " + variant + " up at " + service.url() + pidNote(service));
			List<String> problems = ContractCheck.problems(service.url(), service.managementUrl(), Math.min(this.plan.scenario().delayMs(), 100));
			if (!problems.isEmpty()) {
				// What every thread was doing, while it still runs: the evidence of a hang, and a second chance.
				Optional<Path> dump = service.threadDump(this.plan.javaHome(), dir.resolve("thread-dump.txt"));
				this.out.println("lab: " + variant + " contract check failed (" + String.join("; ", problems) + ")"
						+ dump.map(file -> "; thread dump in " + file).orElse("") + "; checking once more");
				problems = ContractCheck.problems(service.url(), service.managementUrl(), Math.min(this.plan.scenario().delayMs(), 100));
			}
			if (!problems.isEmpty()) {
				this.out.println("lab: " + variant + " FAILED the contract check: " + String.join("; ", problems));
				List<String> evidence = new ArrayList<>(relative(service.logs()));
				if (Files.exists(dir.resolve("thread-dump.txt"))) {
					evidence.add(this.plan.out().relativize(dir.resolve("thread-dump.txt")).toString());
				}
				recordNotRun(variant, problems, evidence);
				return;
			}
			boolean warmedUp = warmUp(service, dir.resolve("warmup"));
			for (int i = 0; i < this.plan.levels().size(); i++) {
				Level level = this.plan.levels().get(i);
				for (int repeat = 1; repeat <= this.plan.scenario().repeat(); repeat++) {
					LevelResult.Verdict verdict = runLevel(service, downstream, level, repeat, warmedUp);
					if (verdict == LevelResult.Verdict.FAILED) {
						recordNotRun(variant, this.plan.levels().subList(i + 1, this.plan.levels().size()),
								List.of("not run: the service failed at " + level.id()), List.of());
						return;
					}
				}
			}
		}
	}

	private List<String> relative(List<Path> files) {
		return files.stream().map(file -> this.plan.out().relativize(file).toString()).toList();
	}

	private boolean warmUp(Service service, Path dir) throws IOException, InterruptedException {
		int seconds = this.plan.scenario().warmupSeconds();
		if (seconds == 0) {
			this.out.println("lab: " + service.name() + " warm-up skipped (warmupSeconds: 0): every level will be INVALID");
			return false;
		}
		int users = this.plan.scenario().warmupUsers();
		this.out.println("lab: " + service.name() + " warming up for " + seconds + " s at " + users + " users (not recorded)");
		int ramp = Math.min(5, seconds / 3);
		try (Progress progress = new Progress(this.out, service.name() + " warm-up", seconds)) {
			this.injectors.start(users, 0, (u, r) -> properties(service, "closed", u, r, ramp, seconds), seconds + 120, dir, progress::accept)
				.await(seconds + 120);
		}
		return service.alive();
	}

	private LevelResult.Verdict runLevel(Service service, Service downstream, Level level, int repeat,
			boolean warmedUp) throws IOException, InterruptedException {
		String id = level.id() + ((this.plan.scenario().repeat() > 1) ? "-r" + repeat : "");
		Path dir = service.dir().resolve(id);
		Files.createDirectories(dir);
		int ramp = this.plan.scenario().rampSeconds();
		int hold = this.plan.scenario().holdSeconds();
		String shape = this.plan.scenario().model().id();
		long timeout = ramp + hold + this.plan.scenario().requestTimeoutMs() / 1000 + 120;
		int exit;
		try (Sampler sampler = new Sampler(dir.resolve("metrics.csv"));
				Progress progress = new Progress(this.out, service.name() + " " + id, ramp + hold)) {
			sampler.watchEndpoint("service", service.managementUrl());
			service.pid().ifPresent(pid -> sampler.watchProcess("service", pid));
			if (downstream != null) {
				sampler.watchEndpoint("downstream", downstream.managementUrl());
				downstream.pid().ifPresent(pid -> sampler.watchProcess("downstream", pid));
			}
			Injectors.Load load = this.injectors.start(level.users(), level.ratePerSecond(),
					(users, rate) -> properties(service, shape, users, rate, ramp, hold), timeout, dir, progress::accept);
			load.localPids().forEach(sampler::watchProcess);
			exit = load.await(timeout);
		}
		boolean alive = service.alive();
		boolean oom = service.outOfMemory();
		List<String> evidence = new ArrayList<>();
		evidence.addAll(relative(service.logs()));
		LevelFacts facts = facts(service.name(), level, repeat, warmedUp, alive, service.exitCode(), oom, exit, evidence, List.of());
		json.writeValue(dir.resolve("level.json").toFile(), facts);
		Analyser analyser = new Analyser(this.thresholds);
		LevelResult result = analyser.analyseOne(Measurement.of(dir, this.plan.out()));
		if (result.verdict() == LevelResult.Verdict.FAILED && alive) {
			// What filled the heap, taken while the service still lives.
			Optional<Path> histogram = service.heapHistogram(this.plan.javaHome(), dir.resolve("heap-histogram.txt"));
			histogram.ifPresent(file -> evidence.add(this.plan.out().relativize(file).toString()));
			json.writeValue(dir.resolve("level.json").toFile(),
					facts(service.name(), level, repeat, warmedUp, alive, service.exitCode(), oom, exit, evidence, List.of()));
		}
		this.out.println(Summaries.line(result));
		// Lets the last connections close before the next level starts.
		Thread.sleep(1_000);
		return result.verdict();
	}

	private List<String> properties(Service service, String shape, int users, int rate, int ramp, int hold) {
		long timeout = this.plan.scenario().requestTimeoutMs();
		return List.of("baseUrl=" + service.url(), "shape=" + shape, "users=" + Math.max(1, users),
				"ratePerSecond=" + Math.max(1, rate), "delayMs=" + this.plan.scenario().delayMs(), "rampSeconds=" + ramp,
				"holdSeconds=" + hold, "requestTimeoutMs=" + timeout, "gatling.http.requestTimeout=" + timeout);
	}

	private LevelFacts facts(String variant, Level level, int repeat, boolean warmedUp, boolean alive, Integer exitCode,
			boolean oom, int injectorExit, List<String> evidence, List<String> problems) {
		return new LevelFacts(variant, level.users(), level.ratePerSecond(), level.cappedFrom(), this.plan.scenario().delayMs(),
				repeat, warmedUp, serviceCpuCount(), injectorCpus(), alive, exitCode,
				oom, injectorExit, evidence, problems);
	}

	/** CPUs the service had: 1 pinned, the host's cores unpinned, 0 when it runs elsewhere (unknown here). */
	private int serviceCpuCount() {
		return (this.plan.remote().target() != null) ? 0 : this.plan.pinned() ? 1 : this.plan.host().cores();
	}

	private void recordNotRun(String variant, List<String> problems, List<String> evidence) throws IOException {
		recordNotRun(variant, this.plan.levels(), problems, evidence);
	}

	/** Levels a variant never ran still get a row: FAILED, with the reason and the evidence. */
	private void recordNotRun(String variant, List<Level> levels, List<String> problems, List<String> evidence) throws IOException {
		for (Level level : levels) {
			Path dir = this.plan.out().resolve(variant).resolve(level.id());
			Files.createDirectories(dir);
			json.writeValue(dir.resolve("level.json").toFile(),
					facts(variant, level, 1, false, true, null, false, -1, evidence, problems));
		}
	}

}
