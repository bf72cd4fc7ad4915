package lab.analyse.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

import lab.analyse.read.Latency;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.Samples;
import lab.analyse.read.TimeSeries;
import lab.analyse.stat.Stats;
import lab.json.Json;
import lab.layout.LevelDir;
import lab.layout.ServiceDir;
import lab.load.LoadFiles;
import lab.load.LoadWindow;
import org.HdrHistogram.Histogram;

/**
 * A cold start under load (a level of a {@code coldStart} scenario), timed from the service's process start: when it
 * was ready (its health check answered), when the load got its first answer, when it reached half and 90% of the
 * throughput it held at the end of the level, what it answered and how fast in its first 10, 30 and 60 s, and the JIT
 * compiler threads' CPU second by second. Read from the level's own files and its service directory's
 * {@code started-at} and {@code ready-at}.
 *
 * @param variant the row label
 * @param dir the level's directory
 * @param startedEpochMs when the runner launched the service's process
 * @param readySeconds process start → the health check answered
 * @param loadSeconds process start → the load began (after the contract check and the injector's own start)
 * @param firstAnswerSeconds process start → the end of the first second in which the load got an answer
 * @param steadyRps the throughput held at the end: the median answers per second over the level's last 30 s
 * @param to50Seconds process start → the first second from which three seconds average at least half of {@code steadyRps}
 * @param to90Seconds the same for 90%
 * @param answered answers (any status) in the first 10, 30 and 60 s after process start, by completion time
 * @param p99Ms p99 of every request sent in the first 10, 30 and 60 s after process start (successes and failures), ms
 * @param jitCpuSeconds the JIT compiler threads' CPU by 10, 30 and 60 s after process start (the nearest sample)
 * @param seconds per second since process start: answers, and the JIT's CPU in % of one core
 * @param aotCache the AOT cache it started with, in words ({@code aot-cache.json} in its directory); null without the AOT axis
 */
public record StartProfile(String variant, Path dir, long startedEpochMs, double readySeconds, double loadSeconds, double firstAnswerSeconds, double steadyRps, double to50Seconds,
		double to90Seconds, List<Long> answered, List<Double> p99Ms, List<Double> jitCpuSeconds, List<Second> seconds, String aotCache) {

	/** Beside a service started with the AOT axis: the cache it started with and how it was made (the runner's AotCache). */
	public static final String AOT_CACHE = ServiceDir.AOT_CACHE;

	/** The marks the first-seconds figures are taken at. */
	public static final List<Integer> MARKS = List.of(10, 30, 60);

	/** How long the end of the level is that the steady throughput is the median of. */
	static final int STEADY_SECONDS = 30;

	/** One second since process start: answers in it and the JIT's CPU in % of one core (NaN: not sampled then). */
	public record Second(int second, long answered, double jitPercent) {
	}

	/** The start profile of a cold-start level, empty for any other level or one without its start time. */
	public static Optional<StartProfile> read(Path level, LevelFacts facts, Samples samples) throws IOException {
		if (facts == null || !facts.startedCold()) {
			return Optional.empty();
		}
		Path service = level.getParent();
		long started = epoch(service.resolve(ServiceDir.STARTED_AT));
		if (started <= 0) {
			return Optional.empty();
		}
		long ready = epoch(service.resolve(ServiceDir.READY_AT));
		TreeMap<Long, Long> answered = LoadFiles.answeredPerSecond(level);
		LoadWindow window = LoadFiles.levelWindow(level);
		List<Histogram> sentBy = new ArrayList<>();
		for (int mark : MARKS) {
			Histogram all = Latency.empty().ok();
			for (Path part : LoadFiles.injectorDirs(level)) {
				Latency latency = Latency.read(part.resolve(LevelDir.LATENCY), new LoadWindow(started, started, started + mark * 1000L));
				all.add(latency.ok());
				all.add(latency.ko());
			}
			sentBy.add(all);
		}
		StartProfile profile = of(facts.variant(), level, started, ready, answered, window, sentBy, samples.series("service", "jit_cpu_seconds"));
		return Optional.of(profile.withAotCache(aotCache(service.resolve(AOT_CACHE))));
	}

	/** The figures from what was read: answers per completion second, the window, histograms of the first marks, the JIT's counter. */
	public static StartProfile of(String variant, Path level, long started, long ready, TreeMap<Long, Long> answered, LoadWindow window,
			List<Histogram> sentBy, TimeSeries jit) {
		TreeMap<Integer, Long> bySecond = bySecond(answered, started);
		double firstAnswer = bySecond.entrySet().stream().filter(e -> e.getValue() > 0).findFirst().map(e -> e.getKey() + 1.0).orElse(Double.NaN);
		int end = (window != null) ? (int) ((window.end() - started) / 1000) : (bySecond.isEmpty() ? 0 : bySecond.lastKey() + 1);
		List<Long> last = new ArrayList<>(bySecond.subMap(end - STEADY_SECONDS, true, end, false).values());
		last.sort(null);
		double steady = last.isEmpty() ? Double.NaN : last.get(last.size() / 2);
		List<Long> counts = new ArrayList<>();
		List<Double> p99 = new ArrayList<>();
		List<Double> jitAt = new ArrayList<>();
		for (int i = 0; i < MARKS.size(); i++) {
			counts.add(bySecond.headMap(MARKS.get(i), false).values().stream().mapToLong(Long::longValue).sum());
			p99.add(Latency.millis(sentBy.get(i), 99));
			jitAt.add(valueAt(jit, started + MARKS.get(i) * 1000L));
		}
		return new StartProfile(variant, level, started, (ready > 0) ? (ready - started) / 1000.0 : Double.NaN,
				(window != null) ? (window.start() - started) / 1000.0 : Double.NaN, firstAnswer, steady,
				reaches(bySecond, 0.5 * steady), reaches(bySecond, 0.9 * steady), counts, p99, jitAt, seconds(bySecond, jit, started), null);
	}

	StartProfile withAotCache(String cache) {
		return new StartProfile(this.variant, this.dir, this.startedEpochMs, this.readySeconds, this.loadSeconds, this.firstAnswerSeconds, this.steadyRps,
				this.to50Seconds, this.to90Seconds, this.answered, this.p99Ms, this.jitCpuSeconds, this.seconds, cache);
	}

	/**
	 * The AOT cache a service started with, in words, from what the runner kept beside it ({@code aot-cache.json}: the
	 * mode, how it was trained, its size, how long training took, whether an earlier run's cache was reused).
	 */
	static String aotCache(Path file) throws IOException {
		if (!Files.isRegularFile(file)) {
			return null;
		}
		return describeAotCache(Json.MAPPER.readValue(file.toFile(), Map.class));
	}

	/** An AOT cache's stamp in words: its mode, how it was trained, its size, how long training took, whose run made it, where. */
	public static String describeAotCache(Map<?, ?> stamp) {
		if ("none".equals(stamp.get("mode"))) {
			return "none (the extracted jar)";
		}
		List<String> parts = new ArrayList<>();
		parts.add(stamp.get("mode") + " (" + stamp.get("training") + ")");
		if (stamp.get("sizeBytes") instanceof Number size) {
			parts.add(String.format(java.util.Locale.ROOT, "%.1f MiB", size.doubleValue() / (1 << 20)));
		}
		if (stamp.get("trainedInSeconds") != null) {
			parts.add("training took " + stamp.get("trainedInSeconds") + " s");
		}
		parts.add(Boolean.TRUE.equals(stamp.get("reused")) ? "made by an earlier run (" + stamp.get("createdAt") + ")" : "made by this run");
		parts.add(String.valueOf(stamp.get("path")));
		return String.join("; ", parts);
	}

	/**
	 * Answers per second since process start: a completions row stamped at {@code t} counts the second before it, so
	 * it is second {@code floor((t - 1 s - started) / 1 s)}; rows before the start are left out.
	 */
	static TreeMap<Integer, Long> bySecond(TreeMap<Long, Long> answered, long started) {
		TreeMap<Integer, Long> bySecond = new TreeMap<>();
		answered.forEach((stamp, count) -> {
			int second = (int) Math.floorDiv(stamp - 1000 - started, 1000L);
			if (second >= 0) {
				bySecond.merge(second, count, Long::sum);
			}
		});
		return bySecond;
	}

	/**
	 * Seconds from process start to the end of the first second from which three seconds (a second without answers
	 * counts as none) average at least {@code rps}; NaN when none does.
	 */
	static double reaches(TreeMap<Integer, Long> bySecond, double rps) {
		if (!(rps > 0) || bySecond.isEmpty()) {
			return Double.NaN;
		}
		for (int second = bySecond.firstKey(); second + 2 <= bySecond.lastKey(); second++) {
			double mean = (bySecond.getOrDefault(second, 0L) + bySecond.getOrDefault(second + 1, 0L) + bySecond.getOrDefault(second + 2, 0L)) / 3.0;
			if (mean >= rps) {
				return second + 1.0;
			}
		}
		return Double.NaN;
	}

	/** A cumulative counter's value at the sample nearest {@code epochMs} (NaN: none within 2 s). */
	static double valueAt(TimeSeries series, long epochMs) {
		TimeSeries.Sample nearest = null;
		for (TimeSeries.Sample sample : series.samples()) {
			if (nearest == null || Math.abs(sample.epochMs() - epochMs) < Math.abs(nearest.epochMs() - epochMs)) {
				nearest = sample;
			}
		}
		return (nearest != null && Math.abs(nearest.epochMs() - epochMs) <= 2_000) ? nearest.value() : Double.NaN;
	}

	/**
	 * Per second since process start, the answers and the JIT's share of a core. The JIT's first value is its mean from
	 * process start to its first sample (the samples begin with the load; its counter counts from the start).
	 */
	static List<Second> seconds(TreeMap<Integer, Long> bySecond, TimeSeries jit, long started) {
		TreeMap<Integer, Double> jitBySecond = new TreeMap<>();
		List<TimeSeries.Sample> s = jit.samples();
		for (int i = 0; i < s.size(); i++) {
			long from = (i == 0) ? started : s.get(i - 1).epochMs();
			double before = (i == 0) ? 0 : s.get(i - 1).value();
			double seconds = (s.get(i).epochMs() - from) / 1000.0;
			if (seconds > 0) {
				double percent = 100 * (s.get(i).value() - before) / seconds;
				for (int second = (int) ((from - started) / 1000); second < (int) Math.ceil((s.get(i).epochMs() - started) / 1000.0); second++) {
					jitBySecond.put(second, percent);
				}
			}
		}
		List<Second> seconds = new ArrayList<>();
		int last = Math.max(bySecond.isEmpty() ? 0 : bySecond.lastKey(), jitBySecond.isEmpty() ? 0 : jitBySecond.lastKey());
		for (int second = 0; second <= last; second++) {
			seconds.add(new Second(second, bySecond.getOrDefault(second, 0L), jitBySecond.getOrDefault(second, Double.NaN)));
		}
		return seconds;
	}

	private static long epoch(Path file) throws IOException {
		if (!Files.isRegularFile(file)) {
			return -1;
		}
		try {
			return Long.parseLong(Files.readString(file).trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/** Per second since process start, the median over the starts that have a value then. */
	public static List<double[]> medians(List<StartProfile> starts, ToDoubleFunction<StartProfile.Second> value) {
		int last = starts.stream().mapToInt(s -> s.seconds().size()).max().orElse(0);
		List<double[]> points = new ArrayList<>();
		for (int second = 0; second < last; second++) {
			List<Double> values = new ArrayList<>();
			for (StartProfile start : starts) {
				if (second < start.seconds().size()) {
					double v = value.applyAsDouble(start.seconds().get(second));
					if (Double.isFinite(v)) {
						values.add(v);
					}
				}
			}
			if (!values.isEmpty()) {
				points.add(new double[] { second, Stats.median(values) });
			}
		}
		return points;
	}

}
