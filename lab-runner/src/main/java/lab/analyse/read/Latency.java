package lab.analyse.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

import lab.layout.LevelDir;
import lab.load.LoadWindow;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Response times of a level from the injector's interval log (microseconds, one OK and one KO histogram a
 * second). Intervals whose midpoint lies in the window are merged; percentiles come from the merged histogram,
 * never from averaged percentiles. Merging several logs (repeats, injectors) is the same operation.
 */
public record Latency(Histogram ok, Histogram ko) {

	private static final long HIGHEST_MICROS = 3_600_000_000L;

	public static Latency empty() {
		return new Latency(new Histogram(HIGHEST_MICROS, 3), new Histogram(HIGHEST_MICROS, 3));
	}

	/** Every interval of the log when {@code window} is null. */
	public static Latency read(Path hlog, LoadWindow window) throws IOException {
		return read(hlog, window, null);
	}

	/**
	 * The log read once: the intervals whose midpoint lies in {@code window} (every one when it is null) merged, and,
	 * when {@code okBySecond} is given, every success interval added to its send second there.
	 */
	static Latency read(Path hlog, LoadWindow window, Map<Long, Histogram> okBySecond) throws IOException {
		Latency latency = empty();
		if (!Files.isRegularFile(hlog)) {
			return latency;
		}
		HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
		try {
			for (EncodableHistogram interval = nextOrNull(reader); interval != null; interval = nextOrNull(reader)) {
				long midpoint = (interval.getStartTimeStamp() + interval.getEndTimeStamp()) / 2;
				if (window == null || window.contains(midpoint)) {
					Histogram target = "ko".equals(interval.getTag()) ? latency.ko : latency.ok;
					target.add((Histogram) interval);
				}
				if (okBySecond != null && "ok".equals(interval.getTag())) {
					okBySecond.computeIfAbsent(interval.getStartTimeStamp(), k -> new Histogram(HIGHEST_MICROS, 3)).add((Histogram) interval);
				}
			}
		}
		finally {
			reader.close();
		}
		return latency;
	}

	/**
	 * Each named request's successes and failures ({@link LevelDir#LATENCY_BY_REQUEST}), by its place in the mix: the
	 * intervals whose midpoint lies in {@code window} (every one when it is null); empty without the file.
	 */
	public static Map<Integer, Latency> byRequest(Path hlog, LoadWindow window) throws IOException {
		Map<Integer, Latency> byRequest = new java.util.TreeMap<>();
		if (!Files.isRegularFile(hlog)) {
			return byRequest;
		}
		HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
		try {
			for (EncodableHistogram interval = nextOrNull(reader); interval != null; interval = nextOrNull(reader)) {
				String tag = (interval.getTag() != null) ? interval.getTag() : "";
				java.util.regex.Matcher matcher = REQUEST_TAG.matcher(tag);
				long midpoint = (interval.getStartTimeStamp() + interval.getEndTimeStamp()) / 2;
				if (matcher.matches() && (window == null || window.contains(midpoint))) {
					Latency latency = byRequest.computeIfAbsent(Integer.parseInt(matcher.group(2)), k -> empty());
					(matcher.group(1).equals("ok") ? latency.ok : latency.ko).add((Histogram) interval);
				}
			}
		}
		finally {
			reader.close();
		}
		return byRequest;
	}

	private static final java.util.regex.Pattern REQUEST_TAG = java.util.regex.Pattern.compile("(ok|ko)-(\\d+)");

	/** A line cut short by an interrupted run ends the log there instead of failing the report. */
	private static EncodableHistogram nextOrNull(HistogramLogReader reader) {
		try {
			return reader.nextIntervalHistogram();
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	public static Latency merge(Collection<Latency> parts) {
		Latency merged = empty();
		for (Latency part : parts) {
			merged.ok.add(part.ok);
			merged.ko.add(part.ko);
		}
		return merged;
	}

	/** A percentile of the successful responses, in milliseconds; NaN when there were none. */
	public double okMillis(double percentile) {
		return (this.ok.getTotalCount() == 0) ? Double.NaN : this.ok.getValueAtPercentile(percentile) / 1000.0;
	}

	/**
	 * Every request of the window: successes, failures at the time they took to fail, and {@code unanswered}
	 * requests counted at {@code atMicros} (the request timeout: they waited at least that long).
	 */
	public Histogram all(long unanswered, long atMicros) {
		Histogram all = this.ok.copy();
		all.add(this.ko);
		if (unanswered > 0) {
			all.recordValueWithCount(Math.min(Math.max(1, atMicros), HIGHEST_MICROS), unanswered);
		}
		return all;
	}

	/** A percentile of {@code histogram} in milliseconds; NaN when it is empty. */
	public static double millis(Histogram histogram, double percentile) {
		return (histogram.getTotalCount() == 0) ? Double.NaN : histogram.getValueAtPercentile(percentile) / 1000.0;
	}

	public double okMaxMillis() {
		return (this.ok.getTotalCount() == 0) ? Double.NaN : this.ok.getMaxValue() / 1000.0;
	}

}
