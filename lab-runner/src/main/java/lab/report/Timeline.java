package lab.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.profile.LevelSeries;
import lab.analyse.read.Samples;
import lab.analyse.read.TimeSeries;
import lab.layout.LevelDir;
import lab.load.LoadWindow;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One level over time ({@code timeline.html} in its directory): per second, the requests sent and answered, the
 * latency of successes by send second (p50, p99), errors, the service's CPU, heap and GC pauses, and the requests
 * in flight, with the steady window (the only part the report's row summarises) between dashed lines. Drawn from
 * the level's series ({@link LevelSeries}, taken from its raw files by the analysis), through
 * {@code timeline.html.mustache}.
 */
final class Timeline {

	private static final double MIB = 1024 * 1024;

	private Timeline() {
	}

	/**
	 * Writes the level's timeline; false when the level has no load window (it never ran).
	 * @param title what the page is about, e.g. "app-webflux, 2,000 users"
	 * @param report the report's path relative to the level directory, for the link back
	 */
	static boolean write(LevelSeries level, String title, String report) throws IOException {
		LoadWindow window = level.window();
		if (window == null) {
			return false;
		}
		// A cold start is drawn from its process start (its first seconds are what it measures), any other level from its load's.
		long origin = (level.start() != null) ? level.start().startedEpochMs() : window.start();
		Samples samples = level.samples();
		List<Charts.Chart> charts = new ArrayList<>();
		XYChart throughput = chart("Requests per second", "requests / s", window, origin);
		series(throughput, "sent (by send second)", level.sentAndFailed(), origin, v -> v[0]);
		seriesOf(throughput, "answered (by completion)", level.answered(), origin);
		charts.add(Charts.png(throughput));
		XYChart latency = chart("Latency of successes, by send second", "ms", window, origin);
		percentile(latency, "p50", level.okPercentiles(), origin, 0);
		percentile(latency, "p99", level.okPercentiles(), origin, 1);
		charts.add(Charts.png(latency));
		XYChart errors = chart("Errors, by send second", "requests", window, origin);
		series(errors, "4xx + 5xx + timeout + refused + check", level.sentAndFailed(), origin, v -> v[1]);
		charts.add(Charts.png(errors));
		XYChart cpu = chart("Service CPU", "% of one core", window, origin);
		rate(cpu, "CPU", samples.series("service", "proc_cpu_seconds"), origin, 100);
		charts.add(Charts.png(cpu));
		XYChart jit = chart("JIT compiler threads' CPU", "% of one core", window, origin);
		rate(jit, "JIT", samples.series("service", "jit_cpu_seconds"), origin, 100);
		charts.add(Charts.png(jit));
		XYChart heap = chart("Service heap used", "MiB", window, origin);
		level(heap, "heap used", samples.series("service", "heap_used_bytes"), origin, 1 / MIB);
		level(heap, "jstat heap (S0U+S1U+EU+OU)", samples.series("service", "jstat_heap_bytes"), origin, 1 / MIB);
		charts.add(Charts.png(heap));
		XYChart gc = chart("GC pauses", "ms of pause per second", window, origin);
		rate(gc, "GC pause", samples.series("service", "gc_pause_seconds"), origin, 1000);
		charts.add(Charts.png(gc));
		XYChart inFlight = chart("Requests in flight (server connections)", "connections", window, origin);
		level(inFlight, "open connections", samples.series("service", "server_connections"), origin, 1);
		// Runs recorded before the one gauge for every server.
		level(inFlight, "Tomcat", samples.series("service", "tomcat_connections"), origin, 1);
		level(inFlight, "Netty", samples.series("service", "netty_connections"), origin, 1);
		charts.add(Charts.png(inFlight));
		Map<String, Object> scope = new LinkedHashMap<>();
		scope.put("title", title);
		scope.put("report", report);
		if (level.start() != null) {
			scope.put("coldStart", String.format(java.util.Locale.ROOT, "ready after %.1f s, first answer by %.0f s, 90%% of its steady %,.0f rps by %.0f s",
					level.start().readySeconds(), level.start().firstAnswerSeconds(), level.start().steadyRps(), level.start().to90Seconds()));
		}
		if (level.jfr()) {
			scope.put("jfr", Map.of("summary", LevelDir.JFR_SUMMARY, "flame", LevelDir.JFR_FLAME, "stacks", LevelDir.JFR_STACKS,
					"recording", LevelDir.JFR_RECORDING));
		}
		if (level.profile()) {
			scope.put("profile", Map.of("flame", LevelDir.PROFILE_FLAME, "stacks", LevelDir.PROFILE_STACKS));
		}
		scope.put("charts", charts.stream().filter(java.util.Objects::nonNull).toList());
		Templates.render("timeline.html.mustache", scope, level.dir().resolve(LevelDir.TIMELINE));
		return true;
	}

	private static XYChart chart(String title, String unit, LoadWindow window, long origin) {
		String axis = (origin == window.start()) ? "s since the load began" : "s since the service's process started";
		XYChart chart = new XYChartBuilder().width(560).height(300).title(title).xAxisTitle(axis).yAxisTitle(unit).build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
		chart.getStyler().setYAxisMin(0.0);
		chart.getStyler().setMarkerSize(3);
		chart.getStyler().setDecimalPattern("#,##0.#");
		chart.getStyler().setAnnotationLineColor(java.awt.Color.GRAY);
		chart.getStyler().setAnnotationLineStroke(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
				10f, new float[] { 6f, 4f }, 0f));
		for (long edge : new long[] { window.steadyStart(), window.end() }) {
			chart.addAnnotation(new AnnotationLine((edge - origin) / 1000.0, true, false));
		}
		return chart;
	}

	private static void add(XYChart chart, String name, List<double[]> points) {
		if (points.isEmpty()) {
			return;
		}
		XYSeries series = chart.addSeries(name, points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray());
		series.setMarker(SeriesMarkers.CIRCLE);
	}

	private static void series(XYChart chart, String name, Map<Long, long[]> perSecond, long origin,
			java.util.function.ToLongFunction<long[]> value) {
		List<double[]> points = new ArrayList<>();
		perSecond.forEach((second, v) -> points.add(new double[] { (second - origin) / 1000.0, value.applyAsLong(v) }));
		add(chart, name, points);
	}

	private static void seriesOf(XYChart chart, String name, Map<Long, Long> values, long origin) {
		List<double[]> points = new ArrayList<>();
		values.forEach((t, v) -> points.add(new double[] { (t - origin) / 1000.0, v }));
		add(chart, name, points);
	}

	/** {@code which}: 0 for p50, 1 for p99 of the per-second percentiles. */
	private static void percentile(XYChart chart, String name, Map<Long, double[]> bySecond, long origin, int which) {
		List<double[]> points = new ArrayList<>();
		bySecond.forEach((second, percentiles) -> points.add(new double[] { (second - origin) / 1000.0, percentiles[which] }));
		add(chart, name, points);
	}

	/** A counter's rate per second between consecutive samples, times {@code scale}. */
	private static void rate(XYChart chart, String name, TimeSeries series, long origin, double scale) {
		List<double[]> points = new ArrayList<>();
		List<TimeSeries.Sample> s = series.samples();
		for (int i = 1; i < s.size(); i++) {
			double seconds = (s.get(i).epochMs() - s.get(i - 1).epochMs()) / 1000.0;
			if (seconds > 0) {
				points.add(new double[] { (s.get(i).epochMs() - origin) / 1000.0, scale * (s.get(i).value() - s.get(i - 1).value()) / seconds });
			}
		}
		add(chart, name, points);
	}

	private static void level(XYChart chart, String name, TimeSeries series, long origin, double scale) {
		add(chart, name, series.samples().stream().map(s -> new double[] { (s.epochMs() - origin) / 1000.0, scale * s.value() }).toList());
	}

}
