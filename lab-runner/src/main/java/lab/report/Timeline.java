package lab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import lab.analyse.Samples;
import lab.layout.LevelDir;
import lab.sample.CpuProfile;
import lab.sample.SteadyRecording;
import lab.analyse.TimeSeries;
import lab.load.LoadFiles;
import lab.load.LoadWindow;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One level over time ({@code timeline.html} in its directory): per second, the requests sent and answered, the
 * latency of successes by send second (p50, p99), errors, the service's CPU, heap and GC pauses, and the requests
 * in flight, with the steady window (the only part the report's row summarises) between dashed lines. Drawn from
 * the raw files alone, so any results directory can be drawn again.
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
	static boolean write(Path level, String title, String report) throws IOException {
		LoadWindow window = LoadFiles.window(level);
		if (window == null) {
			window = LoadFiles.plan(level);
		}
		if (window == null) {
			return false;
		}
		long origin = window.start();
		TreeMap<Long, long[]> perSecond = new TreeMap<>();
		TreeMap<Long, Histogram> okBySecond = new TreeMap<>();
		TreeMap<Long, Long> answered = LoadFiles.answeredPerSecond(level);
		for (Path part : LoadFiles.injectorDirs(level)) {
			readRequests(part.resolve(LevelDir.REQUESTS), perSecond);
			readLatency(part.resolve(LevelDir.LATENCY), okBySecond);
		}
		Samples samples = Samples.read(level.resolve(LevelDir.METRICS));
		List<Charts.Chart> charts = new ArrayList<>();
		XYChart throughput = chart("Requests per second", "requests / s", window, origin);
		series(throughput, "sent (by send second)", perSecond, origin, v -> v[0]);
		seriesOf(throughput, "answered (by completion)", answered, origin);
		charts.add(png(throughput));
		XYChart latency = chart("Latency of successes, by send second", "ms", window, origin);
		percentile(latency, "p50", okBySecond, origin, 50);
		percentile(latency, "p99", okBySecond, origin, 99);
		charts.add(png(latency));
		XYChart errors = chart("Errors, by send second", "requests", window, origin);
		series(errors, "4xx + 5xx + timeout + refused + check", perSecond, origin, v -> v[1]);
		charts.add(png(errors));
		XYChart cpu = chart("Service CPU", "% of one core", window, origin);
		rate(cpu, "CPU", samples.series("service", "proc_cpu_seconds"), origin, 100);
		charts.add(png(cpu));
		XYChart heap = chart("Service heap used", "MiB", window, origin);
		level(heap, "heap used", samples.series("service", "heap_used_bytes"), origin, 1 / MIB);
		charts.add(png(heap));
		XYChart gc = chart("GC pauses", "ms of pause per second", window, origin);
		rate(gc, "GC pause", samples.series("service", "gc_pause_seconds"), origin, 1000);
		charts.add(png(gc));
		XYChart inFlight = chart("Requests in flight (server connections)", "connections", window, origin);
		level(inFlight, "open connections", samples.series("service", "server_connections"), origin, 1);
		// Runs recorded before the one gauge for every server.
		level(inFlight, "Tomcat", samples.series("service", "tomcat_connections"), origin, 1);
		level(inFlight, "Netty", samples.series("service", "netty_connections"), origin, 1);
		charts.add(png(inFlight));
		StringBuilder html = new StringBuilder();
		html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(escape(title))
			.append(" over time</title>\n<style>body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1250px; color: #1d2330; padding: 0 1rem; }"
					+ " .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 1rem; }"
					+ " .charts img { width: 100%; border: 1px solid #e3e6ec; } .sub { color: #5a6375; }</style>\n</head>\n<body>\n")
			.append("<h1>").append(escape(title)).append(" over time</h1>\n")
			.append("<p class=\"sub\">Seconds from the start of the level's load (the ramp). The dashed lines mark the steady window, the only part the ")
			.append("report's row summarises. Latency and errors are placed at the second each request was sent; answered requests at the second ")
			.append("they completed. CPU, heap, GC and connections are the runner's samples of the service. <a href=\"")
			.append(escape(report)).append("\">Back to the report</a>.</p>\n");
		if (Files.isRegularFile(level.resolve(LevelDir.JFR_SUMMARY))) {
			html.append("<p>JFR recording of the steady window (<code>--jfr</code>): <a href=\"").append(LevelDir.JFR_SUMMARY)
				.append("\">summary</a> (hot methods, allocation sites, GC pauses, pinned threads, contention), <a href=\"")
				.append(LevelDir.JFR_FLAME).append("\">CPU flame graph</a>, <a href=\"")
				.append(LevelDir.JFR_STACKS).append("\">collapsed CPU stacks</a> (for flamegraph.pl or speedscope), <a href=\"")
				.append(LevelDir.JFR_RECORDING).append("\">the recording</a> (JDK Mission Control).</p>\n");
		}
		if (Files.isRegularFile(level.resolve(LevelDir.PROFILE_FLAME))) {
			html.append("<p>async-profiler's CPU profile of the steady window (<code>--profile-cpu</code>, native and JVM frames included): <a href=\"")
				.append(LevelDir.PROFILE_FLAME).append("\">CPU flame graph</a>, <a href=\"").append(LevelDir.PROFILE_STACKS)
				.append("\">collapsed stacks</a> (for flamegraph.pl or speedscope).</p>\n");
		}
		html.append("<div class=\"charts\">\n");
		for (Charts.Chart chart : charts) {
			if (chart == null) {
				continue;
			}
			html.append("<figure><img alt=\"").append(escape(chart.title())).append("\" src=\"").append(chart.dataUri()).append("\"></figure>\n");
		}
		html.append("</div>\n</body>\n</html>\n");
		Files.writeString(level.resolve(LevelDir.TIMELINE), html);
		return true;
	}

	private static XYChart chart(String title, String unit, LoadWindow window, long origin) {
		XYChart chart = new XYChartBuilder().width(560).height(300).title(title).xAxisTitle("s").yAxisTitle(unit).build();
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

	private static void percentile(XYChart chart, String name, Map<Long, Histogram> bySecond, long origin, double percentile) {
		List<double[]> points = new ArrayList<>();
		bySecond.forEach((second, histogram) -> {
			if (histogram.getTotalCount() > 0) {
				points.add(new double[] { (second - origin) / 1000.0, histogram.getValueAtPercentile(percentile) / 1000.0 });
			}
		});
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

	/** requests.csv: per send second, requests sent and failed (a second may appear on several lines: summed). */
	private static void readRequests(Path csv, Map<Long, long[]> perSecond) throws IOException {
		if (!Files.isRegularFile(csv)) {
			return;
		}
		for (String line : Files.readAllLines(csv)) {
			String[] f = line.split(",");
			if (f.length < 8 || !f[0].chars().allMatch(Character::isDigit)) {
				continue;
			}
			long[] sums = perSecond.computeIfAbsent(Long.parseLong(f[0]), k -> new long[2]);
			sums[0] += Long.parseLong(f[1]);
			for (int i = 3; i < 8; i++) {
				sums[1] += Long.parseLong(f[i]);
			}
		}
	}

	/** The successes' latency intervals by send second, merged across the log's lines. */
	private static void readLatency(Path hlog, Map<Long, Histogram> bySecond) throws IOException {
		if (!Files.isRegularFile(hlog)) {
			return;
		}
		HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
		try {
			while (true) {
				EncodableHistogram interval;
				try {
					interval = reader.nextIntervalHistogram();
				}
				catch (RuntimeException ex) {
					break; // a line cut short by an interrupted run
				}
				if (interval == null) {
					break;
				}
				if ("ok".equals(interval.getTag())) {
					bySecond.computeIfAbsent(interval.getStartTimeStamp(), k -> new Histogram(3_600_000_000L, 3)).add((Histogram) interval);
				}
			}
		}
		finally {
			reader.close();
		}
	}

	/** The chart as an embedded PNG; null when it has no series (nothing was sampled). */
	private static Charts.Chart png(XYChart chart) throws IOException {
		if (chart.getSeriesMap().isEmpty()) {
			return null;
		}
		byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
		return new Charts.Chart(chart.getTitle(), "data:image/png;base64," + Base64.getEncoder().encodeToString(png));
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
