package lab.analyse.stat;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The summary statistics every room of the analysis (and the run's budget, and the report's start curves) takes, in one
 * place at the bottom: a median and a maximum over values that may be NaN (a figure that could not be computed), the
 * NaNs left out. It imports nothing of the lab.
 */
public final class Stats {

	private Stats() {
	}

	/** The median of the values that are not NaN (the mean of the middle two for an even count); NaN when none is. */
	public static <T> double median(List<T> items, ToDoubleFunction<T> value) {
		double[] values = items.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).sorted().toArray();
		if (values.length == 0) {
			return Double.NaN;
		}
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
	}

	/** The median of numbers, NaNs left out. */
	public static double median(List<Double> values) {
		return median(values, Double::doubleValue);
	}

	/** The largest of the values that are not NaN; NaN when none is. */
	public static <T> double max(List<T> items, ToDoubleFunction<T> value) {
		return items.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
	}

	/** The larger of two values, a NaN (not computed) left out; NaN when both are. */
	public static double max(double a, double b) {
		return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
	}

}
