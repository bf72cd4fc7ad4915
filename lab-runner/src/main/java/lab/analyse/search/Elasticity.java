package lab.analyse.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An entry's elasticity near its knee, d ln(latency) / d ln(load), with the range its probes leave it: a crossing
 * placed from a probe on one side of the target rests on it, so its error goes into every crossing's interval
 * ({@link SearchSummary}). Fitted by least squares over the probes near the target and off the floor, with one intercept
 * per JVM (a JVM that is faster shifts its curve along log load without changing its slope); else from the bracket's
 * met and missed probes (two points: no error of its own, so a range of half to twice); else the prior.
 *
 * @param value the elasticity crossings are placed with, within {@link #MIN} and {@link #MAX}
 * @param low the lowest the probes leave possible (95%, from the fit's standard error)
 * @param high the highest
 * @param source how it was had
 * @param clamped the fit fell outside {@link #MIN} to {@link #MAX}: {@code value} is the bound and the range reaches the
 * fit (a flat knee's 0.40 is not read as 0.50)
 */
public record Elasticity(double value, double low, double high, Source source, boolean clamped) {

	public enum Source {
		FITTED, TWO_POINT, PRIOR
	}

	/** Probes whose latency is within this factor of the target shape the fit; farther ones are off the knee. */
	static final double NEAR = 2.5;

	/** A probe within this factor of the floor (the downstream's delay: no load answers sooner) sits on the flat part, not the knee. */
	static final double FLOOR = 1.15;

	/** The elasticity assumed when too few probes place one: closed users past saturation wait in proportion to their number. */
	static final double PRIOR = 1.0;

	/** A crossing is placed with an elasticity within these bounds: outside them a fit is more noise than knee. */
	static final double MIN = 0.5;

	static final double MAX = 4;

	/** The range never reaches below or above these: p99 that hardly moves with load, or a wall. */
	static final double RANGE_MIN = 0.2;

	static final double RANGE_MAX = 8;

	/** The prior's range: what the knees measured on this lab's hosts spanned (0.40 to 3.5), and a margin. */
	public static final Elasticity PRIOR_RANGE = new Elasticity(PRIOR, 0.3, 4, Source.PRIOR, false);

	/**
	 * The elasticity of one entry from its counted probes, else from its bracket's met and missed probes (from
	 * {@code bracketProbes}), else the prior.
	 */
	public static Elasticity of(List<RoundProbe> counted, BracketFound bracket, List<RoundProbe> bracketProbes, double targetMs, double floorMs) {
		Elasticity fitted = fit(counted, targetMs, floorMs);
		if (fitted != null) {
			return fitted;
		}
		if (bracket != null && bracket.capacity() > 0 && bracket.firstMissed() > 0) {
			RoundProbe met = last(bracketProbes, bracket.capacity());
			RoundProbe missed = last(bracketProbes, bracket.firstMissed());
			if (met != null && missed != null && met.measured() && missed.measured() && missed.latencyMs() > met.latencyMs()) {
				double raw = Math.log(missed.latencyMs() / met.latencyMs()) / Math.log((double) missed.load() / met.load());
				double value = clamp(raw, MIN, MAX);
				return new Elasticity(value, clamp(Math.min(raw, value / 2), RANGE_MIN, RANGE_MAX), clamp(Math.max(raw, value * 2), RANGE_MIN, RANGE_MAX),
						Source.TWO_POINT, raw != value);
			}
		}
		return PRIOR_RANGE;
	}

	/** The least-squares fit with an intercept per JVM; null without two residual degrees of freedom or a rising latency. */
	static Elasticity fit(List<RoundProbe> probes, double targetMs, double floorMs) {
		List<RoundProbe> near = probes.stream()
			.filter(p -> p.measured() && p.latencyMs() >= Math.max(targetMs / NEAR, FLOOR * floorMs) && p.latencyMs() <= targetMs * NEAR)
			.toList();
		Map<Integer, List<RoundProbe>> byJvm = new LinkedHashMap<>();
		near.forEach(p -> byJvm.computeIfAbsent(p.jvmNumber(), k -> new ArrayList<>()).add(p));
		double[] fit = fit(new ArrayList<>(byJvm.values()));
		if (fit == null) {
			// Too few probes per JVM for a slope within each: one line through them all (the JVMs' offsets are then residuals).
			fit = fit(List.of(near));
		}
		if (fit == null || !(fit[0] > 0)) {
			return null;
		}
		double raw = fit[0];
		double half = Interval.t95(fit[2]) * fit[1];
		double value = clamp(raw, MIN, MAX);
		return new Elasticity(value, clamp(Math.min(value, raw - half), RANGE_MIN, RANGE_MAX), clamp(Math.max(value, raw + half), RANGE_MIN, RANGE_MAX),
				Source.FITTED, raw != value);
	}

	/** {slope, its standard error, residual degrees of freedom} over groups that share a slope; null without two degrees of freedom. */
	private static double[] fit(List<List<RoundProbe>> groups) {
		double sxy = 0;
		double sxx = 0;
		int n = 0;
		int intercepts = 0;
		List<double[]> centred = new ArrayList<>();
		for (List<RoundProbe> group : groups) {
			if (group.stream().mapToInt(RoundProbe::load).distinct().count() < 2) {
				continue;
			}
			double mx = group.stream().mapToDouble(p -> Math.log(p.load())).average().orElseThrow();
			double my = group.stream().mapToDouble(p -> Math.log(p.latencyMs())).average().orElseThrow();
			for (RoundProbe p : group) {
				double x = Math.log(p.load()) - mx;
				double y = Math.log(p.latencyMs()) - my;
				centred.add(new double[] { x, y });
				sxy += x * y;
				sxx += x * x;
			}
			n += group.size();
			intercepts++;
		}
		int df = n - intercepts - 1;
		if (df < 2 || !(sxx > 0)) {
			return null;
		}
		double slope = sxy / sxx;
		double rss = 0;
		for (double[] xy : centred) {
			double r = xy[1] - slope * xy[0];
			rss += r * r;
		}
		return new double[] { slope, Math.sqrt(rss / df / sxx), df };
	}

	/** Whether it is flatter than {@code slope}. */
	public boolean flatterThan(double slope) {
		return this.value < slope || this.clamped && this.low < slope;
	}

	private static RoundProbe last(List<RoundProbe> probes, int load) {
		RoundProbe last = null;
		for (RoundProbe p : probes) {
			if (p.load() == load) {
				last = p;
			}
		}
		return last;
	}

	private static double clamp(double value, double min, double max) {
		return Math.max(min, Math.min(max, value));
	}

}
