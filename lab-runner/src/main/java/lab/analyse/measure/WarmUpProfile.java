package lab.analyse.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lab.analyse.read.LevelFacts;
import lab.analyse.read.Samples;
import lab.layout.LevelDir;
import lab.layout.ServiceDir;
import lab.load.LoadFiles;
import lab.load.LoadWindow;

/**
 * The warm-up before a service JVM's first level, from its rounds' files: its CPU per request in its last seconds,
 * how long it lasted, and the JIT's share of a core over every trailing {@value #TRAILING_SECONDS} s, second by
 * second of its load. From that series, {@link #jitSettledSeconds} says when the compiler had settled (the runner's
 * own test between rounds, applied to every second): what a shorter warm-up could have saved, and whether a JVM
 * started with an AOT cache settles sooner.
 *
 * @param cpuMsPerRequest the service's CPU per request sent in the warm-up's last {@value Measurement#WARMUP_TAIL_SECONDS} s
 * @param loadSeconds the seconds of load the warm-up's rounds held, together
 * @param trailingJitPercent per second of load from the {@value #TRAILING_SECONDS}th on (rounds end to end): the JIT's
 *     CPU over the trailing {@value #TRAILING_SECONDS} s, in % of that wall time (NaN where not sampled)
 */
public record WarmUpProfile(double cpuMsPerRequest, double loadSeconds, List<Double> trailingJitPercent) {

	/** The trailing seconds each point of the JIT series covers: the runner's settle test ({@code WarmUp}'s tail). */
	public static final int TRAILING_SECONDS = 10;

	public static final WarmUpProfile NONE = new WarmUpProfile(Double.NaN, Double.NaN, List.of());

	/** The warm-up this level was the first after ({@link LevelFacts#warmupDir()}), NONE when there was none. */
	public static WarmUpProfile of(LevelFacts facts, Path resultsRoot) throws IOException {
		if (facts.warmupDir() == null) {
			return NONE;
		}
		return of(resultsRoot.resolve(facts.warmupDir()));
	}

	/** The warm-up whose first round is {@code first} ({@link ServiceDir#WARMUP}), its later rounds beside it. */
	public static WarmUpProfile of(Path first) throws IOException {
		LoadWindow whole = LoadFiles.levelWindow(first);
		if (whole == null) {
			return NONE;
		}
		double cpu = Double.NaN;
		List<Double> jit = new ArrayList<>();
		double seconds = 0;
		for (int k = 1;; k++) {
			Path round = (k == 1) ? first : first.resolveSibling(ServiceDir.warmupRound(k));
			LoadWindow window = (k == 1) ? whole : LoadFiles.levelWindow(round);
			if (window == null) {
				break;
			}
			// Each round is a new load after a pause: its series starts again once it has held TRAILING_SECONDS.
			Samples samples = Samples.read(round.resolve(LevelDir.METRICS));
			if (k == 1) {
				cpu = Measurement.warmupCpuMsPerRequest(first, whole, samples);
			}
			for (long end = window.start() + TRAILING_SECONDS * 1000L; end <= window.end(); end += 1000) {
				// The point of load second s sits at index s - TRAILING_SECONDS; the seconds a round's pause skipped are NaN.
				int index = (int) Math.round(seconds + (end - window.start()) / 1000.0) - TRAILING_SECONDS;
				while (jit.size() < index) {
					jit.add(Double.NaN);
				}
				jit.add(Metric.JIT_PERCENT.measure(samples, new LoadWindow(window.start(), end - TRAILING_SECONDS * 1000L, end)));
			}
			seconds += (window.end() - window.start()) / 1000.0;
			if (!Files.isDirectory(first.resolveSibling(ServiceDir.warmupRound(k + 1)))) {
				break;
			}
		}
		return new WarmUpProfile(cpu, seconds, List.copyOf(jit));
	}

	/**
	 * The second of the warm-up's load from which the JIT's share of every trailing {@value #TRAILING_SECONDS} s stayed
	 * at or below {@code boundPercent} to the warm-up's end; NaN when its last point was above it or nothing was
	 * sampled (never settled, or not known).
	 */
	public double jitSettledSeconds(double boundPercent) {
		int settled = -1;
		for (int i = this.trailingJitPercent.size() - 1; i >= 0; i--) {
			double jit = this.trailingJitPercent.get(i);
			if (Double.isNaN(jit)) {
				continue;
			}
			if (jit > boundPercent) {
				break;
			}
			settled = i;
		}
		return (settled < 0) ? Double.NaN : settled + TRAILING_SECONDS;
	}

}
