package lab.analyse.search;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Locale;

import lab.layout.TuneAnswer;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * An estimate with its 95% interval, on a log scale: a capacity or a ratio of capacities (geometric means; a host that
 * is 10% slower moves every value by the same factor). Student's t, not a bootstrap: with the few values a run has (a
 * handful of rounds, two or three JVMs) a percentile bootstrap is too narrow, and excludes 1 whenever three A/A values
 * fall on one side, a quarter of the time for two identical services. The values are grouped by JVM ({@link JvmLevels}):
 * a JVM's own JIT decisions and heap layout move all of its rounds alike, so its rounds are not independent repeats.
 *
 * @param estimate the geometric mean (NaN without a value)
 * @param low the interval's lower end
 * @param high its upper end
 * @param n how many rounds' values it rests on
 * @param jvms how many JVMs (or pairs of JVMs, for a ratio) those rounds ran on
 * @param df the t quantile's degrees of freedom (0: no interval)
 * @param jvmLevel where the JVM-to-JVM part of its width came from
 */
public record Interval(double estimate, double low, double high, int n, int jvms, double df, JvmLevel jvmLevel) {

	public enum JvmLevel {
		/** From its own JVMs' spread (four or more) or, for repeated runs, the runs' spread. */
		OWN,
		/** From the spread between JVMs of every entry of the search, pooled: one entry has too few JVMs to see its own. */
		POOLED,
		/** Not measured in this run (every entry ran on one JVM): the lab's prior spread between JVMs stands in, and the interval is wide. */
		PRIOR
	}

	public static final Interval NONE = new Interval(Double.NaN, Double.NaN, Double.NaN, 0, 0, 0, JvmLevel.PRIOR);

	/** As a result file holds it ({@link TuneAnswer.Bounds}). */
	public TuneAnswer.Bounds bounds() {
		return new TuneAnswer.Bounds(this.estimate, this.low, this.high, this.n, this.jvms, this.df, this.jvmLevel.name());
	}

	/** Read back from a result file; {@link #NONE} for none. */
	public static Interval of(TuneAnswer.Bounds bounds) {
		return (bounds == null) ? NONE
				: new Interval(bounds.estimate(), bounds.low(), bounds.high(), bounds.n(), bounds.jvms(), bounds.df(), JvmLevel.valueOf(bounds.jvmLevel()));
	}

	/** The geometric mean of positive, finite {@code values}, each an independent repeat (a run), with its t interval. */
	public static Interval ofGeometricMean(double[] values) {
		double[] logs = Arrays.stream(values).filter(v -> v > 0 && Double.isFinite(v)).map(Math::log).toArray();
		if (logs.length == 0) {
			return NONE;
		}
		double mean = Arrays.stream(logs).average().orElseThrow();
		if (logs.length == 1) {
			return new Interval(Math.exp(mean), Math.exp(mean), Math.exp(mean), 1, 1, 0, JvmLevel.OWN);
		}
		double squares = Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum();
		double halfWidth = t95(logs.length - 1) * Math.sqrt(squares / (logs.length - 1) / logs.length);
		return new Interval(Math.exp(mean), Math.exp(mean - halfWidth), Math.exp(mean + halfWidth), logs.length, logs.length, logs.length - 1,
				JvmLevel.OWN);
	}

	/** An interval around {@code logMean} with a standard error and degrees of freedom. */
	static Interval ofLog(double logMean, double standardError, double df, int n, int jvms, JvmLevel level) {
		if (!(df > 0) || !(standardError >= 0) || !Double.isFinite(standardError)) {
			return new Interval(Math.exp(logMean), Math.exp(logMean), Math.exp(logMean), n, jvms, 0, level);
		}
		double half = t95(df) * standardError;
		return new Interval(Math.exp(logMean), Math.exp(logMean - half), Math.exp(logMean + half), n, jvms, df, level);
	}

	/** Student's t, two-sided 95% ({@code df} may be fractional, from Satterthwaite's approximation). */
	public static double t95(double df) {
		return TDistribution.of(df).inverseCumulativeProbability(0.975);
	}

	/**
	 * The interval with more width on a log scale, added in quadrature to each side's: an error common to every round
	 * (the elasticity's), which no spread between rounds shows.
	 */
	Interval widened(double downLog, double upLog) {
		if (!hasSpread()) {
			return this;
		}
		double mean = Math.log(this.estimate);
		double down = Math.hypot(mean - Math.log(this.low), Math.max(0, downLog));
		double up = Math.hypot(Math.log(this.high) - mean, Math.max(0, upLog));
		return new Interval(this.estimate, Math.exp(mean - down), Math.exp(mean + up), this.n, this.jvms, this.df, this.jvmLevel);
	}

	/** The interval reaching at least from {@code from} to {@code to} (a crossing bounded by a load that broke the JVM). */
	Interval spanning(double from, double to) {
		if (this.n == 0) {
			return this;
		}
		return new Interval(this.estimate, Math.min(this.low, from), Math.max(this.high, to), this.n, this.jvms, Math.max(this.df, 1), this.jvmLevel);
	}

	/**
	 * Whether it lies wholly below {@code other}: its high under the other's low; never without both intervals. Two
	 * capacities whose intervals overlap cannot be told apart; a ratio's own interval is {@link #holds}(1).
	 */
	public boolean whollyBelow(Interval other) {
		return hasSpread() && other.hasSpread() && this.high < other.low;
	}

	/** Whether it has a width and holds {@code value}: then the two cannot be told apart. */
	public boolean holds(double value) {
		return hasSpread() && this.low <= value && value <= this.high;
	}

	/** Whether it has an interval (at least one degree of freedom and a width). */
	public boolean hasSpread() {
		return this.df > 0 && this.high > this.low;
	}

	/** Its half-width in percent of the estimate (the wider side); NaN without an interval. */
	public double halfWidthPercent() {
		return hasSpread() ? 100 * Math.max(this.high / this.estimate - 1, 1 - this.low / this.estimate) : Double.NaN;
	}

	/** "0.742 (0.681-0.809, 2 JVMs, 5 rounds)", ratios to three significant figures; {@link #asLoad} for capacities. */
	public String asRatio() {
		return text(false);
	}

	/** "2,310 (2,200-2,420, 2 JVMs, 5 rounds)". */
	public String asLoad() {
		return text(true);
	}

	private String text(boolean load) {
		if (this.n == 0) {
			return "-";
		}
		String basis = String.format(Locale.ROOT, "%d JVM%s, %d round%s", this.jvms, (this.jvms == 1) ? "" : "s", this.n, (this.n == 1) ? "" : "s");
		if (!hasSpread()) {
			return figure(this.estimate, load) + " (" + basis + ", no interval)";
		}
		return figure(this.estimate, load) + " (" + figure(this.low, load) + "-" + figure(this.high, load) + ", " + basis + ")";
	}

	/** A value to three significant figures, trailing zeros kept: "0.500", "0.742", "12.3", "3,090", "12,300". */
	public static String figure(double value, boolean grouped) {
		if (!Double.isFinite(value)) {
			return "-";
		}
		if (value == 0) {
			return "0";
		}
		double rounded = new BigDecimal(value).round(new MathContext(3)).doubleValue();
		int decimals = Math.max(0, 2 - (int) Math.floor(Math.log10(Math.abs(rounded))));
		if (decimals == 0) {
			return String.format(Locale.ROOT, grouped ? "%,d" : "%d", Math.round(rounded));
		}
		return String.format(Locale.ROOT, "%." + decimals + "f", rounded);
	}

}
