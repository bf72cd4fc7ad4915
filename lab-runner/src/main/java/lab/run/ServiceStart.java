package lab.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import lab.analyse.LevelJson;
import lab.analyse.read.LevelFacts;
import lab.launch.Interruption;
import lab.launch.RemoteService;
import lab.launch.RunningService;
import lab.launch.Service;
import lab.launch.ServiceFailure;
import lab.layout.ServiceDir;
import lab.plan.Arm;
import lab.plan.Jdks;
import lab.plan.OwnService;
import lab.plan.PlannedLevel;
import lab.plan.RunPlan;
import lab.plan.Tuning;
import lab.sample.SteadyRecording;
import lab.verify.ClientReadback;
import lab.verify.ContractCheck;
import lab.verify.OwnCheck;
import lab.verify.TuningCheck;
import tools.jackson.databind.JsonNode;

/**
 * A service's life before its levels, the one path an ordinary run and a capacity search both take ({@link #begin}):
 * started with its arguments and flags (or reached, for a service the lab did not start), admitted (its contract checked
 * twice, with a thread dump between; its downstream client and its tuning read back from the running service), warmed up
 * until its JIT settles. A service that does not get that far is not measured: the caller is told whose fault it was,
 * with the reasons and the evidence.
 */
final class ServiceStart {

	/** A service ready for its levels, and its warm-up's directory (null: no warm-up, or it died during it). */
	record Live(Service service, Path warmup) {
	}

	private final Harness harness;

	private final List<String> jvmFlags;

	ServiceStart(Harness harness) {
		this.harness = harness;
		this.jvmFlags = harness.plan().jvmFlags();
	}

	/**
	 * Starts {@code module} in {@code arm} as {@code variant} into {@code dir}, admits it and warms it up at the scenario's
	 * warm-up users; empty when it did not get ready (then {@code notRun} was told why, for {@code levels}, unless the
	 * person interrupted the run) or was interrupted.
	 */
	Optional<Live> begin(String module, Arm arm, String variant, Service downstream, Path dir, List<PlannedLevel> levels, NotRun.Recorder notRun)
			throws IOException, InterruptedException {
		return begin(module, arm, variant, downstream, dir, levels, notRun, this.harness.plan().scenario().warmupUsers());
	}

	/** As {@link #begin(String, Arm, String, Service, Path, List, NotRun.Recorder)}, warmed up at {@code warmupUsers}. */
	Optional<Live> begin(String module, Arm arm, String variant, Service downstream, Path dir, List<PlannedLevel> levels, NotRun.Recorder notRun,
			int warmupUsers) throws IOException, InterruptedException {
		Service service;
		try {
			service = start(module, arm, variant, downstream, dir);
		}
		catch (ServiceFailure ex) {
			if (!Interruption.requested()) {
				say("lab: " + variant + " FAILED to start: " + ex.getMessage());
				notRun.record(variant, dir, levels, new NotRun(LevelFacts.Blame.SERVICE, List.of(ex.getMessage()),
						List.of(this.harness.plan().out().relativize(dir.resolve(ServiceDir.LOG)).toString())));
			}
			return Optional.empty();
		}
		boolean ready = false;
		try {
			say("lab: " + variant + " up at " + service.url() + pidNote(service));
			if (service instanceof RemoteService remote) {
				say("lab: " + variant + "'s JVM: " + remote.jvmFacts());
			}
			Optional<NotRun> refused = admit(service, module, arm.tuning(), downstream, dir);
			if (refused.isPresent()) {
				if (refused.get().blame() != null) {
					notRun.record(variant, dir, levels, refused.get());
				}
				return Optional.empty();
			}
			Path warmup = new WarmUp(this.harness).run(service, dir.resolve(ServiceDir.WARMUP), warmupUsers);
			ready = true;
			return Optional.of(new Live(service, warmup));
		}
		finally {
			if (!ready) {
				service.close();
			}
		}
	}

	static String pidNote(Service service) {
		return service.pid().isPresent() ? " (pid " + service.pid().getAsLong() + ")" : " (already running)";
	}

	/** Starts {@code module} in {@code arm} (its tuning, on its JDK) as {@code variant} into {@code dir}, or reaches it at its target. */
	private Service start(String module, Arm arm, String variant, Service downstream, Path dir) throws IOException, InterruptedException {
		RunPlan plan = this.harness.plan();
		Optional<OwnService.ServiceArm> own = plan.ownArm(module);
		if (own.isPresent()) {
			return startOwn(plan.own(), own.get(), variant, dir);
		}
		Optional<URI> target = plan.remote().target(module);
		if (target.isPresent()) {
			return RemoteService.at(variant, target.get(), plan.remote().management(module).orElseThrow(), dir);
		}
		// The sampler walks the service's threads for context switches from outside (Sampler.watchThreads).
		List<String> arguments = new ArrayList<>(List.of("--lab.downstream.base-url=" + downstream.url(), "--lab.process-metrics.thread-walk=false"));
		Tuning tuning = arm.tuning();
		arguments.addAll(tuning.arguments(module));
		if (!tuning.properties(module).isEmpty()) {
			// Only for a service this runner starts on loopback: its tuning is read back from /actuator/env.
			arguments.addAll(List.of("--management.endpoints.web.exposure.include=health,info,prometheus,env",
					"--management.endpoint.env.show-values=always"));
		}
		List<String> flags = jvmFlags(arm.jvmFlags(module));
		if (arm.aot() != null) {
			// From the extracted jar, with the cache its mode asks for (trained now when missing or stale).
			AotCache.Prepared aot = new AotCache(this.harness).prepare(module, arm, flags, arguments, dir);
			List<String> withCache = new ArrayList<>(flags);
			withCache.addAll(aot.flags());
			Files.createDirectories(dir);
			LevelJson.json.writeValue(dir.resolve(AotCache.APPLIED).toFile(), aot.stamp());
			return RunningService.start(variant, arm.jdk().home().resolve("bin/java"), aot.jar(), withCache, arguments,
					this.harness.cpus().serviceTaskset(), dir);
		}
		Path java = arm.jdk().home().resolve("bin/java");
		return RunningService.start(variant, java, AotCache.extractedJar(java, RunPlan.jar(plan.root(), module), module), flags, arguments,
				this.harness.cpus().serviceTaskset(), dir);
	}

	/**
	 * An arm of the user's own service: its jar on the arm's JDK (the run's by default) with the profile's flags, then
	 * everyone's JVM options and the arm's; the file's properties, the arm's, and what it needs (its PostgreSQL's URL).
	 */
	private Service startOwn(OwnService own, OwnService.ServiceArm arm, String variant, Path dir) throws IOException, InterruptedException {
		Path javaHome = (arm.jdk() != null) ? Jdks.resolve(arm.jdk(), this.harness.plan().root(), this.harness.out())
				: this.harness.plan().jdks().get(0).home();
		List<String> flags = jvmFlags(own.jvmOptions(arm));
		List<String> arguments = new ArrayList<>();
		this.harness.needs().forEach((key, value) -> arguments.add("--" + key + "=" + value));
		arguments.addAll(own.arguments(arm));
		return RunningService.startOwn(variant, javaHome.resolve("bin/java"), own.jar(arm), flags, own.port(),
				(own.metrics() != null) ? own.metrics().port() : null, own.readiness(), arguments, this.harness.cpus().serviceTaskset(), dir);
	}

	/** The JVM options the module's service would start with in this arm; null when it is not started here (a remote target). */
	List<String> flags(String module, Arm arm) {
		RunPlan plan = this.harness.plan();
		Optional<OwnService.ServiceArm> own = plan.ownArm(module);
		if (own.isPresent()) {
			return jvmFlags(plan.own().jvmOptions(own.get()));
		}
		return plan.remote().target(module).isPresent() ? null : jvmFlags(arm.jvmFlags(module));
	}

	/** The one JVM-flag builder: the profile's flags, then the arm's, then JFR's stack depth when recording. */
	private List<String> jvmFlags(List<String> armFlags) {
		List<String> flags = new ArrayList<>(this.jvmFlags);
		flags.addAll(armFlags);
		if (this.harness.jfr()) {
			// Reactive stacks run deeper than JFR's default 64 frames: truncated ones cannot be merged in a flame graph.
			flags.add(SteadyRecording.STACK_DEPTH_FLAG);
		}
		return flags;
	}

	/** Checks a started service before it is measured: empty when admitted, else why its levels are not run. */
	private Optional<NotRun> admit(Service service, String module, Tuning tuning, Service downstream, Path dir) throws IOException, InterruptedException {
		String variant = service.name();
		if (this.harness.plan().own() != null) {
			// A service of the user's own: every request of its file answered once with the status it names.
			List<String> problems = OwnCheck.problems(service.url(), this.harness.plan().own().requests());
			if (problems.isEmpty() || Interruption.requested()) {
				return Interruption.requested() ? Optional.of(NotRun.INTERRUPTED) : Optional.empty();
			}
			say("lab: " + variant + " FAILED its requests' check (" + String.join("; ", problems) + ")");
			return Optional.of(new NotRun(LevelFacts.Blame.SERVICE, problems, this.harness.relative(service.logs())));
		}
		long delay = Math.min(this.harness.plan().scenario().delayMs(), 100);
		List<String> problems = ContractCheck.problems(service.url(), service.managementUrl(), delay, this.harness.work());
		if (!problems.isEmpty() && !Interruption.requested()) {
			// What every thread was doing, while it still runs: the evidence of a hang, and a second chance.
			Optional<Path> dump = service.threadDump(dir.resolve(ServiceDir.THREAD_DUMP));
			say("lab: " + variant + " contract check failed (" + String.join("; ", problems) + ")" + dump.map(file -> "; thread dump in " + file).orElse("")
					+ "; checking once more");
			problems = ContractCheck.problems(service.url(), service.managementUrl(), delay, this.harness.work());
		}
		if (Interruption.requested()) {
			return Optional.of(NotRun.INTERRUPTED);
		}
		if (!problems.isEmpty()) {
			// A downstream that does not answer makes every proxy fail its contract: the harness's fault.
			boolean harnessFault = downstream != null && !(downstream.alive() && Service.healthy(downstream.managementUrl()));
			say("lab: " + variant + (harnessFault ? " not measured: the downstream does not answer (" : " FAILED the contract check: (")
					+ String.join("; ", problems) + ")");
			List<String> evidence = new ArrayList<>(this.harness.relative(service.logs()));
			for (String dump : List.of(ServiceDir.THREAD_DUMP, ServiceDir.THREAD_DUMP_JSON)) {
				if (Files.exists(dir.resolve(dump))) {
					evidence.add(this.harness.plan().out().relativize(dir.resolve(dump)).toString());
				}
			}
			List<String> reasons = new ArrayList<>(problems);
			if (harnessFault) {
				reasons.add(0, "not run: the downstream did not answer during the contract check");
			}
			return Optional.of(new NotRun(harnessFault ? LevelFacts.Blame.HARNESS : LevelFacts.Blame.SERVICE, reasons, evidence));
		}
		Optional<JsonNode> client = ClientReadback.read(service.managementUrl());
		if (client.isPresent()) {
			// The client's settings as the service reads them from the client it built: the same on every variant.
			LevelJson.json.writeValue(dir.resolve(ServiceDir.DOWNSTREAM_CLIENT).toFile(), client.get());
			say("lab: " + variant + " calls the downstream with " + ClientReadback.describe(client.get()));
		}
		if (!tuning.properties(module).isEmpty()) {
			// The tuning as the service resolved it, kept beside its log; a setting it never saw was not measured.
			Map<String, String> applied = TuningCheck.readBack(service.managementUrl(), tuning.properties(module));
			LevelJson.json.writeValue(dir.resolve(ServiceDir.TUNING_APPLIED).toFile(), applied);
			List<String> unapplied = TuningCheck.problems(tuning.properties(module), applied);
			if (!unapplied.isEmpty()) {
				say("lab: " + variant + " not measured: " + String.join("; ", unapplied));
				List<String> reasons = new ArrayList<>(List.of("not run: the tuning " + tuning.name() + " was not applied"));
				reasons.addAll(unapplied);
				return Optional.of(new NotRun(LevelFacts.Blame.HARNESS, reasons,
						List.of(this.harness.plan().out().relativize(dir.resolve(ServiceDir.TUNING_APPLIED)).toString())));
			}
		}
		return Optional.empty();
	}

	private void say(String line) {
		this.harness.out().println(line);
	}

}
