package lab.analyse.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

import org.apache.commons.numbers.gamma.Digamma;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * An entry's elasticity near its knee, d ln(latency) / d ln(load), with the range its probes leave it: a crossing
 * placed from a probe on one side of the target rests on it, so its error goes into every crossing's interval
 * ({@link SearchSummary}). Fitted by least squares over the probes near the target and off the floor, with one intercept
 * per JVM (a JVM that is faster shifts its curve along log load without changing its slope); else from the bracket's
 * met and missed probes (two points: no error of its own, so a range of half to twice); else the prior.
 * <p>
 * The bracket's last two probes are not a design fixed in advance: the bracket stops where one probe met the target and
 * the next one up missed it, so the wobble of their p99 chose them, the met one's low and the missed one's high, and the
 * slope between them is steeper than the knee's by E[ε₂ − ε₁ | the pair straddles the target] / ln(step). On a flat
 * knee that is as large as the knee's own rise across the step (0.45 read as 0.62-0.67 in the coverage test's synthetic
 * lab, p99 wobbling 8-15%; a knee of 1.2 as 1.22-1.30), and crossings placed with it spread less than the knee moves. So
 * where that pair is among the probes, the elasticity is the one whose straddling pair would show, on average, the slope
 * fitted ({@link #unselected}); its range's ends alike.
 *
 * @param value the elasticity crossings are placed with, within {@link #MIN} and {@link #MAX}
 * @param low the lowest the probes leave possible (95%, from the fit's standard error)
 * @param high the highest
 * @param source how it was had
 * @param clamped the fit fell outside {@link #MIN} to {@link #MAX}: {@code value} is the bound and the range reaches the
 * fit (a flat knee's 0.30 is not read as 0.40)
 */
public record Elasticity(double value, double low, double high, Source source, boolean clamped) {

	private static final NormalDistribution NORMAL = NormalDistribution.of(0, 1);

	public enum Source {
		FITTED, TWO_POINT, PRIOR
	}

	/** Probes whose latency is within this factor of the target shape the fit; farther ones are off the knee. */
	static final double NEAR = 2.5;

	/** A probe within this factor of the floor (the downstream's delay: no load answers sooner) sits on the flat part, not the knee. */
	static final double FLOOR = 1.15;

	/** The elasticity assumed when too few probes place one: closed users past saturation wait in proportion to their number. */
	static final double PRIOR = 1.0;

	/**
	 * A crossing is placed with an elasticity within these bounds: outside them a fit is more noise than knee. The lower
	 * one is the flattest knee measured on this lab's hosts (0.40).
	 */
	static final double MIN = 0.4;

	static final double MAX = 4;

	/** The range never reaches below or above these: p99 that hardly moves with load, or a wall. */
	static final double RANGE_MIN = 0.2;

	static final double RANGE_MAX = 8;

	/**
	 * The p99 wobble the lab expects of one probe about its JVM's curve (the SD of its log), which a run's own residuals
	 * refine ({@link #wobble}): 8% to 15% measured at one load over a 15-s hold on this lab's hosts (the coverage test's
	 * harder world draws it from that range); 4% to 13% within one JVM in the variance studies. Too large a wobble reads a
	 * flat knee flatter than it is, which widens the intervals; too small, steeper.
	 */
	static final double WOBBLE = 0.11;

	/** The weight of {@link #WOBBLE} against a run's own residuals ({@link #wobble}), in degrees of freedom. */
	static final double WOBBLE_DF = 6;

	/** The prior's range: what the knees measured on this lab's hosts spanned (0.40 to 3.5), and a margin. */
	public static final Elasticity PRIOR_RANGE = new Elasticity(PRIOR, 0.3, 4, Source.PRIOR, false);

	/**
	 * The elasticity of one entry from its counted probes, else from its bracket's met and missed probes (from
	 * {@code bracketProbes}), else the prior; the bracket's selection undone with a p99 wobble of {@code wobble}
	 * ({@link #wobble}).
	 */
	public static Elasticity of(List<RoundProbe> counted, BracketFound bracket, List<RoundProbe> bracketProbes, double targetMs, double floorMs, double wobble) {
		double step = straddleStep(bracket);
		Fit fit = fitted(counted, targetMs, floorMs);
		if (fit != null) {
			boolean straddled = step > 0 && counted.stream().anyMatch(p -> p.load() == bracket.capacity())
					&& counted.stream().anyMatch(p -> p.load() == bracket.firstMissed());
			return straddled ? fit.elasticity(raw -> unselected(raw, wobble, step)) : fit.elasticity(raw -> raw);
		}
		if (step > 0) {
			RoundProbe met = last(bracketProbes, bracket.capacity());
			RoundProbe missed = last(bracketProbes, bracket.firstMissed());
			if (met != null && missed != null && met.measured() && missed.measured() && missed.latencyMs() > met.latencyMs()) {
				double raw = unselected(Math.log(missed.latencyMs() / met.latencyMs()) / step, wobble, step);
				double value = clamp(raw, MIN, MAX);
				return new Elasticity(value, clamp(Math.min(raw, value / 2), RANGE_MIN, RANGE_MAX), clamp(Math.max(raw, value * 2), RANGE_MIN, RANGE_MAX),
						Source.TWO_POINT, raw != value);
			}
		}
		return PRIOR_RANGE;
	}

	/**
	 * The p99 wobble of one probe about its JVM's curve in a run (the SD of its log), that the bracket's selection is undone
	 * with: the residuals of every entry's fit within its JVMs, pooled over their degrees of freedom with {@link #WOBBLE}
	 * weighing {@link #WOBBLE_DF} (a scaled inverse χ² prior, as the JVM level's: a run with few residuals states the
	 * lab's figure, one with many its own). On this project's six capacity runs it came to 7.3-9.5%.
	 */
	static double wobble(List<List<RoundProbe>> entries, double targetMs, double floorMs) {
		double squares = 0;
		double df = 0;
		for (List<RoundProbe> counted : entries) {
			double[] fit = fit(byJvm(near(counted, targetMs, floorMs)));
			if (fit != null && fit[0] > 0) {
				squares += fit[3];
				df += fit[2];
			}
		}
		return Math.sqrt((squares + WOBBLE_DF * WOBBLE * WOBBLE) / (df + WOBBLE_DF));
	}

	/** Below this an entry's own p99 wobble is not told apart from none (a handful of residuals cannot say less). */
	static final double WOBBLE_FLOOR = 0.005;

	/**
	 * The p99 wobble of one entry's probes about its JVM's curve: its own fit's residual variance, freed of the bias of a
	 * log variance at few degrees of freedom (E[ln s²] = ln σ² + ψ(df/2) − ln(df/2)), shrunk on the log scale toward the
	 * run's ({@link #wobble}), which weighs {@link #WOBBLE_DF}: variants differ many-fold (on this lab's hosts the platform
	 * pool's p99 lies about 1% off its curve, a heap-bound variant's near its wall 15-25%), and a quiet one's elasticity is
	 * not to be undone with a noisy one's wobble. Without residuals of its own, the run's.
	 */
	static double entryWobble(List<RoundProbe> counted, double targetMs, double floorMs, double runWobble) {
		double[] fit = fit(byJvm(near(counted, targetMs, floorMs)));
		if (fit == null || !(fit[0] > 0)) {
			return runWobble;
		}
		double df = fit[2];
		double own = Math.max(fit[3] / df, WOBBLE_FLOOR * WOBBLE_FLOOR);
		double logOwn = Math.log(own) - (Digamma.value(df / 2) - Math.log(df / 2));
		return Math.sqrt(Math.exp((df * logOwn + WOBBLE_DF * Math.log(runWobble * runWobble)) / (df + WOBBLE_DF)));
	}

	/** The log of the bracket's last step, from the highest load that met the target to the lowest that missed it; 0 without both. */
	private static double straddleStep(BracketFound bracket) {
		return (bracket != null && bracket.capacity() > 0 && bracket.firstMissed() > bracket.capacity())
				? Math.log((double) bracket.firstMissed() / bracket.capacity()) : 0;
	}

	/**
	 * The slope a straddling pair of probes {@code step} apart in log load shows on average when the knee's elasticity is
	 * {@code e} and each probe's log p99 wobbles by {@code sigma}: e + E[ε₂ − ε₁ | ε₁ below the target, ε₂ above it] / step,
	 * the target's place within the step uniform. Two normal tails: E[ε | ε < a] = −σ φ(a/σ) / Φ(a/σ).
	 */
	static double straddleSlope(double e, double sigma, double step) {
		double weighted = 0;
		double weights = 0;
		for (int i = 0; i < 64; i++) {
			double below = e * step * (i + 0.5) / 64 / sigma;
			double above = e * step / sigma - below;
			double metBelow = NORMAL.cumulativeProbability(below);
			double missedAbove = NORMAL.cumulativeProbability(above);
			double straddles = metBelow * missedAbove;
			weighted += straddles * sigma * (NORMAL.density(below) / metBelow + NORMAL.density(above) / missedAbove);
			weights += straddles;
		}
		return e + weighted / weights / step;
	}

	/**
	 * The elasticity whose straddling pair shows {@code slope} on average ({@link #straddleSlope}, which rises with it):
	 * by bisection; near 0 when even a flat curve's pair would show more.
	 */
	static double unselected(double slope, double sigma, double step) {
		double low = 1e-3;
		double high = Math.max(slope, low);
		if (straddleSlope(low, sigma, step) >= slope) {
			return low;
		}
		for (int i = 0; i < 40; i++) {
			double mid = (low + high) / 2;
			if (straddleSlope(mid, sigma, step) < slope) {
				low = mid;
			}
			else {
				high = mid;
			}
		}
		return (low + high) / 2;
	}

	/** The least-squares fit with an intercept per JVM; null without two residual degrees of freedom or a rising latency. */
	static Elasticity fit(List<RoundProbe> probes, double targetMs, double floorMs) {
		Fit fit = fitted(probes, targetMs, floorMs);
		return (fit == null) ? null : fit.elasticity(raw -> raw);
	}

	/** A fitted slope with its standard error and residual degrees of freedom. */
	private record Fit(double slope, double standardError, double df) {

		/** As an elasticity, the slope and its range's ends first mapped by {@code undo} (the bracket's selection taken out). */
		Elasticity elasticity(DoubleUnaryOperator undo) {
			double half = Interval.t95(this.df) * this.standardError;
			double raw = undo.applyAsDouble(this.slope);
			double value = clamp(raw, MIN, MAX);
			double low = (this.slope - half > 0) ? undo.applyAsDouble(this.slope - half) : this.slope - half;
			return new Elasticity(value, clamp(Math.min(value, low), RANGE_MIN, RANGE_MAX),
					clamp(Math.max(value, undo.applyAsDouble(this.slope + half)), RANGE_MIN, RANGE_MAX), Source.FITTED, raw != value);
		}

	}

	/** The fit of {@link #fit}, unmapped. */
	private static Fit fitted(List<RoundProbe> probes, double targetMs, double floorMs) {
		List<RoundProbe> near = near(probes, targetMs, floorMs);
		double[] fit = fit(byJvm(near));
		if (fit == null) {
			// Too few probes per JVM for a slope within each: one line through them all (the JVMs' offsets are then residuals).
			fit = fit(List.of(near));
		}
		if (fit == null || !(fit[0] > 0)) {
			return null;
		}
		return new Fit(fit[0], fit[1], fit[2]);
	}

	/** The measured probes near the target and off the floor: the ones that shape a fit. */
	private static List<RoundProbe> near(List<RoundProbe> probes, double targetMs, double floorMs) {
		return probes.stream()
			.filter(p -> p.measured() && p.latencyMs() >= Math.max(targetMs / NEAR, FLOOR * floorMs) && p.latencyMs() <= targetMs * NEAR)
			.toList();
	}

	/** The probes in groups by the JVM they probed, in the order the JVMs first appear. */
	private static List<List<RoundProbe>> byJvm(List<RoundProbe> probes) {
		Map<Integer, List<RoundProbe>> byJvm = new LinkedHashMap<>();
		probes.forEach(p -> byJvm.computeIfAbsent(p.jvmNumber(), k -> new ArrayList<>()).add(p));
		return new ArrayList<>(byJvm.values());
	}

	/** {slope, its standard error, residual degrees of freedom, residual sum of squares} over groups that share a slope; null without two degrees of freedom. */
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
		return new double[] { slope, Math.sqrt(rss / df / sxx), df, rss };
	}

	/**
	 * Whether it is flatter than {@code slope}: by its value (a fit clamped at {@link #MAX} whose range reaches down past
	 * {@code slope} is a steep knee poorly fitted, not a flat one).
	 */
	public boolean flatterThan(double slope) {
		return this.value < slope;
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
