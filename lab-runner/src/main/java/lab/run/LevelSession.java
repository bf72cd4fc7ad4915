package lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import lab.analyse.Analyser;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.measure.Measurement;
import lab.analyse.read.LevelFacts;
import lab.launch.Interruption;
import lab.launch.Service;
import lab.layout.LevelDir;
import lab.layout.LoadShape;
import lab.load.Injectors;
import lab.plan.PlannedLevel;
import lab.report.OffCpuFile;
import lab.report.PoolFile;
import lab.report.Summaries;
import lab.sample.CpuProfile;
import lab.sample.DownstreamProbe;
import lab.sample.PinnedRecording;
import lab.sample.Sampler;
import lab.sample.SteadyRecording;

/**
 * One level against a running service: its load, sampled with the downstream's probe and whatever is timed to the
 * steady window (heap snapshot, JFR, CPU profile); its facts written as soon as they are known (a placeholder that
 * says "interrupted" until then, so a runner killed mid-level leaves a readable level); its console line.
 */
final class LevelSession {

	/** Seconds the load goes on after the steady-heap snapshot starts (the tail beyond the delay's drain). */
	static final int SNAPSHOT_TAIL_SECONDS = 3;

	/** A level as it ended: its facts and, when it was judged, its row (verdict, target; null when interrupted: not analysed). */
	record Outcome(LevelFacts facts, LevelResult result) {

		Verdict verdict() {
			return (this.result != null) ? this.result.verdict() : null;
		}

	}

	private final Harness harness;

	LevelSession(Harness harness) {
		this.harness = harness;
	}

	/**
	 * Runs {@code level} as {@code id} (its name, a repeat's included) in the service's directory; {@code warmup} is the
	 * warm-up's directory (null: none); {@code firstAfterWarmup}: this is the first level after it (its facts name the
	 * warm-up, whose tail its first seconds are compared with).
	 */
	Outcome run(Service service, Service downstream, PlannedLevel level, String id, int repeat, Path warmup, boolean firstAfterWarmup)
			throws IOException, InterruptedException {
		Path dir = service.dir().resolve(id);
		Files.createDirectories(dir);
		// Until the level's own facts replace it: what a report says of this level if the runner is killed during it.
		LevelFacts.write(dir, facts(service.name(), level, repeat, warmup != null, true, null, false, -1, List.of(),
				List.of("interrupted: the runner ended during this level without finishing it (killed?); its raw files are kept"),
				LevelFacts.Blame.RUNNER_ENDED.field(), null, null, null, null, null));
		int exit = drive(service, downstream, level, id, dir);
		String name = service.name() + " " + id;
		if (this.harness.jfr() && !Interruption.requested() && SteadyRecording.summarise(this.harness.plan().javaHome(), dir)) {
			say("  " + name + ": JFR summary in " + relative(dir.resolve(LevelDir.JFR_SUMMARY)));
		}
		Long interruptedAt = Interruption.byPerson() ? Interruption.requestedAtMs() : null;
		boolean alive = service.alive();
		List<String> evidence = new ArrayList<>(this.harness.relative(service.logs()));
		// Who else ran on the service's core (when anything did): shown with any verdict that is not OK.
		Path strangers = dir.resolve(LevelDir.CORE_STRANGERS);
		if (Files.isRegularFile(strangers) && Files.size(strangers) > "epoch_ms,pid,command,cpu_seconds\n".length()) {
			evidence.add(relative(strangers));
		}
		LevelFacts facts = facts(service.name(), level, repeat, warmup != null, alive, service.exitCode(), service.outOfMemory(), exit,
				evidence, List.of(), null, downstream != null, (downstream == null) ? null : downstream.alive(),
				(downstream == null) ? null : downstream.exitCode(), interruptedAt, (firstAfterWarmup && warmup != null) ? relative(warmup) : null);
		if (interruptedAt != null) {
			LevelFacts.write(dir, facts);
			say("  " + name + ": INTERRUPTED");
			return new Outcome(facts, null);
		}
		var target = this.harness.plan().scenario().target();
		Measurement measurement = Measurement.of(dir, this.harness.plan().out(), facts);
		LevelResult result = new Analyser(this.harness.thresholds()).withTarget(target).analyseOne(measurement);
		// Missed the target with the core not saturated: where the time went, as evidence of the level.
		Optional<Path> offCpu = OffCpuFile.write(measurement, result, target);
		if (offCpu.isPresent()) {
			evidence.add(relative(offCpu.get()));
			facts = facts.withEvidence(evidence);
		}
		// A connection pool with every connection busy and threads waiting: named as the limit, whatever the verdict.
		Optional<Path> pool = PoolFile.write(measurement);
		if (pool.isPresent()) {
			evidence.add(relative(pool.get()));
			facts = facts.withEvidence(evidence);
			say("  " + name + ": " + PoolFile.line(measurement) + "; see " + relative(pool.get()));
		}
		if (result.verdict() == Verdict.FAILED && alive) {
			// What filled the heap, taken while the service still lives.
			Optional<Path> histogram = service.heapHistogram(dir.resolve(LevelDir.HEAP_HISTOGRAM));
			histogram.ifPresent(file -> evidence.add(relative(file)));
			facts = facts.withEvidence(evidence);
		}
		// Written once, after the evidence is in (the placeholder above stood for it until now).
		LevelFacts.write(dir, facts);
		say(Summaries.line(result, this.harness.plan().scenario().target()));
		// No pause for the last connections to close: the next level's injector is a fresh JVM, which sends its first
		// request 1.7-2.9 s after it starts (measured here), and a search checks its JVM fell idle between probes.
		return new Outcome(facts, result);
	}

	/** The level's load, sampled, with what is timed to its window; returns the injector's exit code. */
	private int drive(Service service, Service downstream, PlannedLevel level, String id, Path dir) throws IOException, InterruptedException {
		var scenario = this.harness.plan().scenario();
		int ramp = scenario.rampSeconds();
		int hold = scenario.holdSeconds();
		LoadShape shape = scenario.model();
		// An unmeasured tail keeps the load on after the window while the heap is looked at (a full GC): the window's
		// last requests are answered by then, and no pause falls inside it. The snapshot (jcmd GC.class_histogram) took
		// 0.7-0.8 s here at 20 users: 3 s more leave it time under load (5 s did, with 4 s of load still to go).
		long snapshotAfterEndMs = scenario.delayMs() + 1_500;
		int tail = service.pid().isPresent() ? (int) (snapshotAfterEndMs / 1000) + SNAPSHOT_TAIL_SECONDS : 0;
		int loadSeconds = shape.steadyAfterSeconds(ramp) + hold + tail;
		long timeout = loadSeconds + scenario.requestTimeoutMs() / 1000 + 120;
		String name = service.name() + " " + id;
		var window = this.harness.window();
		// Pinned virtual threads with their stacks, the whole level long (the analysis keeps the window's events).
		boolean pinned = service.pid().isPresent() && !Interruption.requested()
				&& service.diagnose(this.harness.pinned().start(), dir.resolve(LevelDir.PINNED_START_LOG));
		try (Sampler sampler = this.harness.sampler(service, downstream, dir);
				DownstreamProbe probe = (downstream != null) ? new DownstreamProbe(downstream.url(), scenario.delayMs(), dir.resolve(LevelDir.PROBE))
						: null;
				Progress progress = new Progress(this.harness.out(), name, loadSeconds)) {
			Injectors.Load load = this.harness.injectors().start(level.level(),
					share -> this.harness.loadProperties(service, shape, share, ramp, hold, tail,
							this.harness.plan().scenario().target()), timeout, dir, progress::accept);
			load.localPids().forEach(sampler::watchProcess);
			Thread snapshot = (tail > 0) ? window.snapshotAtWindowEnd(service, dir, LevelDir.HEAP_STEADY, snapshotAfterEndMs, loadSeconds + 60) : null;
			Thread recording = (this.harness.jfr() && service.pid().isPresent()) ? window.recordSteadyWindow(service, dir, loadSeconds + 60) : null;
			Thread threads = service.pid().isPresent() ? window.threadsAtSteadyWindow(service, dir, loadSeconds + 60) : null;
			Thread dump = (this.harness.plan().own() != null && service.pid().isPresent()) ? window.threadDumpAtWindowEnd(service, dir, loadSeconds + 60)
					: null;
			AtomicReference<String> profiledWith = new AtomicReference<>();
			Thread profiling = (this.harness.profiling() && service.pid().isPresent())
					? window.profileSteadyWindow(service, dir, loadSeconds + 60, profiledWith) : null;
			int exit = load.await(timeout);
			if (profiling != null) {
				profiling.join(Duration.ofSeconds(60));
				if (!Interruption.requested() && profiledWith.get() != null && CpuProfile.draw(dir, profiledWith.get())) {
					say("  " + name + ": CPU profile (async-profiler, event=" + profiledWith.get() + ") in " + relative(dir.resolve(LevelDir.PROFILE_FLAME)));
				}
			}
			for (Thread task : new Thread[] { snapshot, recording, threads, dump }) {
				if (task != null) {
					task.join(Duration.ofSeconds(60));
				}
			}
			return exit;
		}
		finally {
			if (pinned && service.alive()) {
				service.diagnose(PinnedRecording.stop(dir), dir.resolve(LevelDir.PINNED_STOP_LOG));
			}
		}
	}

	/** A level's facts with what the plan and the cores fix filled in. */
	private LevelFacts facts(String variant, PlannedLevel level, int repeat, boolean warmedUp, boolean alive, Integer exitCode, boolean oom,
			int injectorExit, List<String> evidence, List<String> problems, String notRun, Boolean downstreamWatched, Boolean downstreamAlive,
			Integer downstreamExit, Long interruptedAt, String warmupDir) {
		var scenario = this.harness.plan().scenario();
		var cpus = this.harness.cpus();
		return new LevelFacts(variant, level.level(), level.cappedFrom(), scenario.delayMs(), repeat, warmedUp, cpus.serviceCpuCount(),
				cpus.injectorCpuCount(), alive, exitCode, oom, injectorExit, evidence, problems, notRun, scenario.requestTimeoutMs(),
				downstreamWatched, downstreamAlive, downstreamExit, interruptedAt, warmupDir, scenario.coldStart() ? Boolean.TRUE : null);
	}

	/** Levels a variant never ran still get a row, with the verdict the cause deserves, the reason and the evidence. */
	void recordNotRun(String variant, Path variantDir, List<PlannedLevel> levels, List<String> ids, int repeat, NotRun why) throws IOException {
		for (int i = 0; i < levels.size(); i++) {
			Path dir = variantDir.resolve(ids.get(i));
			Files.createDirectories(dir);
			LevelFacts.write(dir, facts(variant, levels.get(i), repeat, false, true, null, false, -1, why.evidence(), why.reasons(), why.blame().field(), null, null,
					null, null, null));
		}
	}

	private String relative(Path file) {
		return this.harness.plan().out().relativize(file).toString();
	}

	private void say(String line) {
		this.harness.out().println(line);
	}

}
