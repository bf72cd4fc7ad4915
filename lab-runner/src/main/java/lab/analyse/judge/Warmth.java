package lab.analyse.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.analyse.read.Halves;

/**
 * The rules {@link Rule#NOT_WARM_JIT}, {@link Rule#NOT_WARM_HALVES} and {@link Rule#NOT_WARM_HALVES_MIN_CORE}, which
 * combine figures: the JIT's share of the window, the window's halves' CPU per request and what the difference
 * amounts to in one core. Its reasons are INVALID ("not warm") or notes.
 */
public final class Warmth {

	private final Thresholds thresholds;

	public Warmth(Thresholds thresholds) {
		this.thresholds = thresholds;
	}

	/**
	 * Warm means the JIT has settled: read from the JIT's own counter (its compile time in the window). The window's
	 * stationarity (its first half dearer per request than its second, GC taken out) judges runs older than the JIT
	 * series, and say so; where the JIT was measured and had settled, a dearer first half is named ("not steady"),
	 * since then it was not the JIT that made it dearer.
	 */
	public List<String> judge(Measurement m, Set<String> notes) {
		List<String> invalid = new ArrayList<>();
		double jit = m.sampled().getOrDefault(Metric.JIT_PERCENT, Double.NaN);
		Halves halves = m.halves();
		double dearer = halves.firstHalfDearerPercent();
		if (Double.isNaN(jit) && Double.isNaN(dearer)) {
			invalid.add("whether the service was warm could not be computed (no JIT samples, and the window too short to compare its halves)");
			return invalid;
		}
		if (Double.isNaN(jit)) {
			notes.add("the JIT was not sampled (a run older than its series): warmth judged by the window's halves only");
		}
		else if (jit > this.thresholds.get(Rule.NOT_WARM_JIT)) {
			invalid.add(String.format(Locale.ROOT, "not warm: the JIT was busy %.1f s of the %.0f s window (%.0f%% > %.0f%%: %.1f times the bound); "
					+ "give the warm-up longer: --warmup-max-seconds (or warmupMaxSeconds in the scenario or service file)",
					jit / 100 * m.window().steadySeconds(), m.window().steadySeconds(), jit, this.thresholds.get(Rule.NOT_WARM_JIT),
					jit / this.thresholds.get(Rule.NOT_WARM_JIT)));
		}
		if (!Double.isNaN(dearer) && dearer > this.thresholds.get(Rule.NOT_WARM_HALVES)) {
			String dearerText = String.format(Locale.ROOT, "the window's first half cost %.3f ms mutator CPU per request, its second %.3f (+%.0f%% > %.0f%%)",
					halves.firstCpuMsPerRequest(), halves.secondCpuMsPerRequest(), dearer, this.thresholds.get(Rule.NOT_WARM_HALVES));
			double extra = halves.firstHalfExtraCorePercent();
			if (extra > this.thresholds.get(Rule.NOT_WARM_HALVES_MIN_CORE) && !Double.isNaN(jit) && jit <= this.thresholds.get(Rule.NOT_WARM_JIT)) {
				// The JIT's own counter says it had settled: what made the first half dearer was something else (measured
				// here: GC at 13-42% of the window, whose pause time taken out leaves its cost to the mutator; a saturated
				// level still taking its ramp's connections). Not the JIT, so not "not warm": named with its figures.
				notes.add(String.format(Locale.ROOT, "not steady: %s; not the JIT (busy %.1f%% of the window <= %.0f%%): the window's CPU per "
						+ "request is the mean of its halves", dearerText, jit, this.thresholds.get(Rule.NOT_WARM_JIT)));
			}
			else if (extra > this.thresholds.get(Rule.NOT_WARM_HALVES_MIN_CORE)) {
				invalid.add("not warm: " + dearerText + "; give the warm-up longer: --warmup-max-seconds (or warmupMaxSeconds in the scenario or service file)");
			}
			else {
				notes.add(String.format(Locale.ROOT, "%s, but the difference was %.1f%% of one core (<= %.0f%%: what fixed per-second costs move)",
						dearerText, extra, this.thresholds.get(Rule.NOT_WARM_HALVES_MIN_CORE)));
			}
		}
		return invalid;
	}

}
