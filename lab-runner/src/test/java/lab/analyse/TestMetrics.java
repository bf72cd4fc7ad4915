package lab.analyse;

import java.util.EnumMap;
import java.util.Map;

/** The declared metrics of a hand-made row. */
public final class TestMetrics {

	private TestMetrics() {
	}

	/** The metrics named, each with its value; every other declared metric NaN (not measured). */
	public static Map<Metric, Double> with(Metric first, double value, Object... more) {
		Map<Metric, Double> metrics = Metric.unmeasured();
		metrics.put(first, value);
		for (int i = 0; i + 1 < more.length; i += 2) {
			metrics.put((Metric) more[i], ((Number) more[i + 1]).doubleValue());
		}
		return metrics;
	}

	/** One value per declared metric, in declaration order. */
	public static Map<Metric, Double> of(double... values) {
		if (values.length != Metric.values().length) {
			throw new IllegalArgumentException("one value per declared metric: " + Metric.values().length);
		}
		Map<Metric, Double> metrics = new EnumMap<>(Metric.class);
		for (Metric metric : Metric.values()) {
			metrics.put(metric, values[metric.ordinal()]);
		}
		return metrics;
	}

}
