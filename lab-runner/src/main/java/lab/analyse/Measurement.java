package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import lab.load.LoadFiles;
import lab.load.LoadWindow;
import tools.jackson.databind.json.JsonMapper;

/**
 * One run of one level, computed from its raw files only: {@code level.json}, {@code load-window.csv},
 * {@code latency.hlog}, {@code requests.csv}, {@code metrics.csv}. Every series is clipped to the steady window,
 * counters are {@code last - first} (reset-aware), rates are per the real time between samples.
 */
public record Measurement(Path dir, LevelFacts facts, LoadWindow window, Latency latency, RequestCounts counts,
		double rps, double serviceCpuPercent, double cpuMsPerRequest, double gcPercent, double peakHeapMiB,
		double peakRssMiB, double peakNativeThreads, double peakVirtualThreads, double pinnedEvents,
		double contextSwitchesPerSecond, double injectorCpuPercent, double injectorCoresBusyPercent,
		double downstreamP99OverheadMs, List<String> gatlingReports) {

	static final JsonMapper json = JsonMapper.builder().build();

	private static final double MIB = 1024.0 * 1024.0;

	public static LevelFacts facts(Path dir) {
		return json.readValue(dir.resolve("level.json").toFile(), LevelFacts.class);
	}

	public static Measurement of(Path dir, Path resultsRoot) throws IOException {
		LevelFacts facts = facts(dir);
		LoadWindow window = LoadFiles.window(dir);
		List<String> reports = gatlingReports(dir, resultsRoot);
		if (window == null) {
			return new Measurement(dir, facts, null, Latency.empty(), new RequestCounts(0, 0, 0, 0, 0, 0), Double.NaN, Double.NaN,
					Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
					Double.NaN, Double.NaN, reports);
		}
		Latency latency = Latency.read(dir.resolve(LoadFiles.LATENCY), window);
		RequestCounts counts = RequestCounts.read(dir.resolve(LoadFiles.REQUESTS), window);
		Samples samples = Samples.read(dir.resolve("metrics.csv"));
		double seconds = window.steadySeconds();
		double rps = latency.ok().getTotalCount() / seconds;
		double cpuPerSecond = CounterDelta.ratePerSecond(samples.series("service", "proc_cpu_seconds").clipTo(window));
		double requestsPerSecond = (latency.ok().getTotalCount() + latency.ko().getTotalCount()) / seconds;
		double injector = CounterDelta.ratePerSecond(samples.series("injector", "proc_cpu_seconds").clipTo(window));
		double downstream = CounterDelta.ratePerSecond(samples.series("downstream", "proc_cpu_seconds").clipTo(window));
		return new Measurement(dir, facts, window, latency, counts, rps, 100 * cpuPerSecond,
				(requestsPerSecond > 0) ? 1000 * cpuPerSecond / requestsPerSecond : Double.NaN,
				100 * CounterDelta.ratePerSecond(samples.series("service", "gc_pause_seconds").clipTo(window)),
				peak(samples, "heap_used_bytes", window) / MIB, peak(samples, "rss_bytes", window) / MIB,
				peak(samples, "native_threads", window), peak(samples, "virtual_threads", window),
				CounterDelta.over(samples.series("service", "pinned_count").clipTo(window)),
				CounterDelta.ratePerSecond(samples.series("service", "ctx_voluntary")
					.plus(samples.series("service", "ctx_involuntary"))
					.clipTo(window)),
				100 * injector, 100 * (injector + downstream) / Math.max(1, facts.injectorCpus()),
				downstreamP99OverheadMillis(samples, window), reports);
	}

	private static double peak(Samples samples, String series, LoadWindow window) {
		return samples.series("service", series).clipTo(window).max().orElse(Double.NaN);
	}

	/**
	 * p99 of how late the downstream answered beyond the requested delay, in the window, from its cumulative
	 * Prometheus buckets: counts per bucket are {@code last - first}, the percentile is interpolated linearly inside
	 * its bucket.
	 */
	static double downstreamP99OverheadMillis(Samples samples, LoadWindow window) {
		TreeMap<Double, Double> cumulative = new TreeMap<>();
		for (Map.Entry<Double, TimeSeries> bucket : samples.buckets("downstream").entrySet()) {
			double count = CounterDelta.over(bucket.getValue().clipTo(window));
			if (!Double.isNaN(count)) {
				cumulative.put(bucket.getKey(), count);
			}
		}
		Double total = cumulative.get(Double.POSITIVE_INFINITY);
		if (total == null || total <= 0) {
			return Double.NaN;
		}
		double rank = 0.99 * total;
		double lowerBound = 0;
		double lowerCount = 0;
		for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
			if (bucket.getValue() >= rank) {
				if (bucket.getKey().isInfinite()) {
					return lowerBound * 1000;
				}
				double inBucket = bucket.getValue() - lowerCount;
				double fraction = (inBucket > 0) ? (rank - lowerCount) / inBucket : 1;
				return 1000 * (lowerBound + fraction * (bucket.getKey() - lowerBound));
			}
			lowerBound = bucket.getKey();
			lowerCount = bucket.getValue();
		}
		return Double.NaN;
	}

	private static List<String> gatlingReports(Path dir, Path resultsRoot) throws IOException {
		Path gatling = dir.resolve("gatling");
		if (!Files.isDirectory(gatling)) {
			return List.of();
		}
		List<String> reports = new ArrayList<>();
		try (Stream<Path> runs = Files.list(gatling)) {
			runs.map(run -> run.resolve("index.html")).filter(Files::isRegularFile).sorted()
				.forEach(index -> reports.add(resultsRoot.relativize(index).toString()));
		}
		return reports;
	}

}
