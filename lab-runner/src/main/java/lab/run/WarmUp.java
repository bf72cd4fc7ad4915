package lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import lab.analyse.LevelJson;
import lab.analyse.judge.Rule;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.WarmUpProfile;
import lab.launch.Interruption;
import lab.launch.Service;
import lab.layout.Level;
import lab.layout.LevelDir;
import lab.layout.LoadShape;
import lab.layout.ServiceDir;
import lab.load.Injectors;
import lab.load.LoadFiles;
import lab.sample.HeapSnapshot;
import lab.sample.Sampler;

/**
 * A service's warm-up (sampled like a level, never judged): the scenario's warmupSeconds, then rounds of
 * {@value #SETTLE_ROUND_SECONDS} s while the JIT compiled for more than {@link Rule#WARMUP_SETTLE} of the not-warm threshold of the last
 * {@value #SETTLE_TAIL_SECONDS} s, up to warmupMaxSeconds in all; it says how long it took.
 */
final class WarmUp {

	/** A warm-up round after the first, run while the JIT still compiles. */
	static final int SETTLE_ROUND_SECONDS = 20;

	/** The last seconds of a warm-up round whose JIT compile time decides whether the service has settled. */
	static final int SETTLE_TAIL_SECONDS = 10;

	private final Harness harness;

	WarmUp(Harness harness) {
		this.harness = harness;
	}

	/**
	 * Warms {@code service} up at {@code users}; returns the first round's directory (its heap snapshots are the memory
	 * profile's), null when skipped or the service died.
	 */
	Path run(Service service, Path dir, int users) throws IOException, InterruptedException {
		var scenario = this.harness.plan().scenario();
		int seconds = scenario.warmupSeconds();
		if (scenario.coldStart()) {
			say("lab: " + service.name() + " started cold on purpose (coldStart): loaded at once, no warm-up");
			return null;
		}
		if (seconds == 0) {
			say("lab: " + service.name() + " warm-up skipped (warmupSeconds: 0): every level will be INVALID");
			return null;
		}
		int max = scenario.warmupMaxSeconds();
		say("lab: " + service.name() + " warming up for " + seconds + " s at " + users + " users (not recorded)"
				+ ((max > seconds) ? ", longer while the JIT still compiles (up to " + max + " s)" : ""));
		Files.createDirectories(dir);
		// The base, before any load: after a warm-up, Tomcat's processor and buffer caches would still hold the
		// buffers of hundreds of connections and hide part of what each request costs.
		HeapSnapshot.take(service, dir, LevelDir.HEAP_IDLE);
		round(service, dir, users, seconds, true);
		int total = seconds;
		int rounds = 1;
		double limit = this.harness.thresholds().get(Rule.NOT_WARM_JIT) * this.harness.thresholds().get(Rule.WARMUP_SETTLE) / 100;
		// The JIT's share is of the last round's last seconds: all of a round shorter than those.
		int tail = Math.min(SETTLE_TAIL_SECONDS, seconds);
		double jit = Measurement.warmupJitPercent(dir, SETTLE_TAIL_SECONDS);
		while (jit > limit && total < max && service.alive() && !Interruption.requested()) {
			int round = Math.min(SETTLE_ROUND_SECONDS, max - total);
			say(String.format(Locale.ROOT, "lab: %s still compiling (JIT %.1f%% of the last %d s > %s, %s): "
					+ "warming up %d s more", service.name(), jit, tail, Rule.NOT_WARM_JIT.format(limit),
					Rule.WARMUP_SETTLE.format(this.harness.thresholds().get(Rule.WARMUP_SETTLE)), round));
			rounds++;
			Path more = dir.resolveSibling(ServiceDir.warmupRound(rounds));
			Files.createDirectories(more);
			round(service, more, users, round, false);
			total += round;
			tail = Math.min(SETTLE_TAIL_SECONDS, round);
			jit = Measurement.warmupJitPercent(more, SETTLE_TAIL_SECONDS);
		}
		// Unknown is not settled: a warm-up whose injector failed has no window, a service without a JIT series none.
		boolean settled = !Double.isNaN(jit) && !(jit > limit);
		if (!Interruption.requested() && service.alive()) {
			Path last = (rounds == 1) ? dir : dir.resolveSibling(ServiceDir.warmupRound(rounds));
			say(Double.isNaN(jit) ? "lab: " + service.name() + " warm-up of " + total + " s could not be judged: "
					+ ((LoadFiles.levelWindow(last) == null) ? "the injector did not finish it (see " + last.resolve(LevelDir.GATLING_LOG) + ")"
							: "no JIT series was sampled")
					: String.format(Locale.ROOT, "lab: %s %s after %d s of warm-up (JIT %.1f%% of its last %d s%s)", service.name(),
							settled ? "warm" : "still compiling", total, jit, tail,
							settled ? " <= " + Rule.NOT_WARM_JIT.format(limit) + settledAt(dir, limit)
									: String.format(Locale.ROOT, " > %s, the cap warmupMaxSeconds %d s reached: its first level may be "
											+ "INVALID, not warm", Rule.NOT_WARM_JIT.format(limit), max)));
		}
		LevelJson.json.writeValue(dir.resolveSibling(ServiceDir.WARMUP_SETTLED).toFile(),
				Map.of("seconds", total, "rounds", rounds, "settled", settled, "jitPercentOfLastSeconds", Double.isNaN(jit) ? "NaN" : jit,
						"lastSeconds", tail, "settleBelowPercent", limit, "maxSeconds", max));
		return service.alive() ? dir : null;
	}

	/** ", every trailing 10 s under it from +29 s": when a shorter warm-up would have passed the same test. */
	private static String settledAt(Path first, double limit) throws IOException {
		double seconds = WarmUpProfile.of(first).jitSettledSeconds(limit);
		return Double.isNaN(seconds) ? "" : String.format(Locale.ROOT, ", every trailing %d s under it from +%.0f s", WarmUpProfile.TRAILING_SECONDS, seconds);
	}

	/** One round of {@code seconds} at {@code users}, sampled into {@code dir}; the first also snapshots the heap. */
	private void round(Service service, Path dir, int users, int seconds, boolean first) throws IOException, InterruptedException {
		int ramp = first ? Math.min(5, seconds / 3) : 0;
		try (Sampler sampler = this.harness.sampler(service, null, dir);
				Progress progress = new Progress(this.harness.out(), service.name() + " warm-up", seconds)) {
			Injectors.Load load = this.harness.injectors().start(new Level.Closed(users),
					share -> this.harness.loadProperties(service, LoadShape.CLOSED, share, ramp, seconds - ramp, 0, null), seconds + 120, dir,
					progress::accept);
			load.localPids().forEach(sampler::watchProcess);
			// The heap under the warm-up's load, 3 s before it ends: with the idle one below, the prediction's slope.
			Thread loaded = first ? this.harness.window().snapshotAtWindowEnd(service, dir, LevelDir.HEAP_LOADED, -3_000, seconds + 60) : null;
			load.await(seconds + 120);
			if (loaded != null) {
				loaded.join(Duration.ofSeconds(60));
			}
		}
	}

	private void say(String line) {
		this.harness.out().println(line);
	}

}
