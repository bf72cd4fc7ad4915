package lab.analyse.read;

import java.util.List;

/**
 * How much a cumulative counter grew: {@code last - first}, never a sum of cumulative values. A counter that
 * drops has been reset (its process restarted): the growth after the reset starts from zero, so it counts the
 * new value whole.
 */
public final class CounterDelta {

	private CounterDelta() {
	}

	public static double between(TimeSeries.Sample first, TimeSeries.Sample last) {
		return last.value() - first.value();
	}

	/** Growth over the whole series, reset-aware; NaN for fewer than two samples. */
	public static double over(TimeSeries series) {
		return growth(series, true);
	}

	/**
	 * Growth over the whole series counting only its rises: for a counter summed over processes that come and go, whose
	 * drop is a process that ended, not a reset (that second's growth of the others is lost, where {@link #over} would
	 * count the whole sum again); NaN for fewer than two samples.
	 */
	public static double risesOver(TimeSeries series) {
		return growth(series, false);
	}

	/** The steps between samples summed; a drop counts the new value whole when it is a reset, else nothing. */
	private static double growth(TimeSeries series, boolean dropIsReset) {
		List<TimeSeries.Sample> samples = series.samples();
		if (samples.size() < 2) {
			return Double.NaN;
		}
		double growth = 0;
		for (int i = 1; i < samples.size(); i++) {
			double step = between(samples.get(i - 1), samples.get(i));
			growth += (step >= 0) ? step : dropIsReset ? samples.get(i).value() : 0;
		}
		return growth;
	}

	/** {@link #risesOver} per second over the real time between the first and the last sample; NaN when undefined. */
	public static double risesPerSecond(TimeSeries series) {
		double span = series.spanSeconds();
		return (span > 0) ? risesOver(series) / span : Double.NaN;
	}

	/** Growth per second over the real time between the first and the last sample; NaN when undefined. */
	public static double ratePerSecond(TimeSeries series) {
		double span = series.spanSeconds();
		return (span > 0) ? over(series) / span : Double.NaN;
	}

}
