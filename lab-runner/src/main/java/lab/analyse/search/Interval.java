package lab.analyse.search;

import java.util.Arrays;
import java.util.Locale;

/**
 * An estimate from a few rounds with its interval: the geometric mean of the rounds' values and the 95% Student-t
 * interval of their mean logarithm (a paired t-test on log ratios, in Pinpoint's and Kalibera and Jones' spirit). With
 * three rounds t is 4.30, so the interval is wide unless the rounds agree closely: a percentile bootstrap of three values
 * would exclude 1 whenever all three fall on one side, a quarter of the time for two identical services.
 *
 * @param estimate the geometric mean (NaN without a value)
 * @param low the interval's lower end
 * @param high its upper end
 * @param n how many rounds it rests on
 */
public record Interval(double estimate, double low, double high, int n) {

	/** Student's t, two-sided 95%, for 1 to 30 degrees of freedom; 1.96 beyond. */
	private static final double[] T95 = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
			2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };

	public static final Interval NONE = new Interval(Double.NaN, Double.NaN, Double.NaN, 0);

	/** The geometric mean of positive, finite {@code values} with its t interval; the rest are left out. */
	public static Interval ofGeometricMean(double[] values) {
		double[] logs = Arrays.stream(values).filter(v -> v > 0 && Double.isFinite(v)).map(Math::log).toArray();
		if (logs.length == 0) {
			return NONE;
		}
		double mean = Arrays.stream(logs).average().orElseThrow();
		if (logs.length == 1) {
			return new Interval(Math.exp(mean), Math.exp(mean), Math.exp(mean), 1);
		}
		double squares = Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum();
		double halfWidth = t95(logs.length - 1) * Math.sqrt(squares / (logs.length - 1) / logs.length);
		return new Interval(Math.exp(mean), Math.exp(mean - halfWidth), Math.exp(mean + halfWidth), logs.length);
	}

	static double t95(int degreesOfFreedom) {
		return (degreesOfFreedom <= T95.length) ? T95[degreesOfFreedom - 1] : 1.96;
	}

	/** Whether the interval rests on at least two rounds and holds {@code value}: then the two cannot be told apart. */
	public boolean holds(double value) {
		return this.n >= 2 && this.low <= value && value <= this.high;
	}

	/** Whether it rests on at least two rounds (one round has no interval). */
	public boolean hasSpread() {
		return this.n >= 2;
	}

	/** "0.62 (0.58-0.66, 3 rounds)", ratios; {@link #asLoad} for capacities. */
	public String asRatio() {
		if (this.n == 0) {
			return "-";
		}
		return String.format(Locale.ROOT, "%.2f", this.estimate) + (hasSpread() ? String.format(Locale.ROOT, " (%.2f-%.2f, %d rounds)", this.low,
				this.high, this.n) : " (1 round, no interval)");
	}

	/** "2,310 (2,200-2,420, 3 rounds)". */
	public String asLoad() {
		if (this.n == 0) {
			return "-";
		}
		return String.format(Locale.ROOT, "%,.0f", this.estimate) + (hasSpread() ? String.format(Locale.ROOT, " (%,.0f-%,.0f, %d rounds)", this.low,
				this.high, this.n) : " (1 round, no interval)");
	}

}
