package lab.analyse;

import java.util.EnumMap;
import java.util.Map;

/** The declared metrics of a hand-made row, in declaration order. */
public final class TestMetrics {

	private TestMetrics() {
	}

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
