package lab.analyse.read;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import lab.load.LoadWindow;

/**
 * One series of samples, each with the time it was taken. Joins are by timestamp, never by index, and every
 * figure of a level comes from {@link #clipTo(LoadWindow) the series clipped to its load window}.
 */
public record TimeSeries(List<Sample> samples) {

	public record Sample(long epochMs, double value) {
	}

	public TimeSeries {
		samples = samples.stream().sorted(java.util.Comparator.comparingLong(Sample::epochMs)).toList();
	}

	public TimeSeries clipTo(LoadWindow window) {
		return new TimeSeries(this.samples.stream().filter(s -> window.contains(s.epochMs())).toList());
	}

	public OptionalDouble max() {
		return this.samples.stream().mapToDouble(Sample::value).max();
	}

	/** Seconds between the first and the last sample: the real interval a rate is divided by. */
	public double spanSeconds() {
		return (this.samples.size() < 2) ? 0 : (last().epochMs() - first().epochMs()) / 1000.0;
	}

	public Sample first() {
		return this.samples.get(0);
	}

	public Sample last() {
		return this.samples.get(this.samples.size() - 1);
	}

	/** Pointwise sum of two series sampled together (same scrape): joined by timestamp, unmatched samples dropped. */
	public TimeSeries plus(TimeSeries other) {
		List<Sample> sum = new ArrayList<>();
		for (Sample sample : this.samples) {
			other.samples.stream()
				.filter(o -> o.epochMs() == sample.epochMs())
				.findFirst()
				.ifPresent(o -> sum.add(new Sample(sample.epochMs(), sample.value() + o.value())));
		}
		return new TimeSeries(sum);
	}

}
