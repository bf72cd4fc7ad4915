package lab.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import lab.analyse.judge.Figure;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's charts: one line per variant against load, rendered by XChart to PNG and embedded as data URIs so
 * report.html needs no network. Points without data (NaN) are left out, never drawn as zero.
 */
final class Charts {

	record Chart(String title, String dataUri) {
	}

	private Charts() {
	}

	static List<Chart> all(List<LevelResult> results, String loadAxis) throws IOException {
		Map<String, List<LevelResult>> byVariant = new LinkedHashMap<>();
		results.forEach(r -> byVariant.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(r));
		List<Chart> charts = new ArrayList<>();
		add(charts, throughput(byVariant, loadAxis));
		// Every other declared figure with a chart, in declaration order.
		for (Figure figure : Figures.of(results)) {
			if (figure != Figures.RPS && figure.shown().chart() != null) {
				add(charts, line(byVariant, loadAxis, figure.shown().chart(), figure.unit(), r -> r.value(figure)));
			}
		}
		for (Map.Entry<String, List<LevelResult>> variant : byVariant.entrySet()) {
			CategoryChart breakdown = breakdown(variant.getKey(), variant.getValue());
			if (breakdown != null) {
				charts.add(encoded(breakdown));
			}
		}
		return charts;
	}

	/**
	 * Where a variant's requests spent their mean time at each level, stacked: before the server's timer, in the service
	 * outside the call, the call (their sum is the injector's mean). Null when no level has the three parts (a run
	 * {@code observe lean}). A part a few ms below zero (the clocks' populations differ slightly at low load) is drawn as zero.
	 */
	static CategoryChart breakdown(String variant, List<LevelResult> rows) {
		List<String> levels = new ArrayList<>();
		List<List<Double>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
		List<Figure> figures = List.of(Figures.BEFORE_SERVER_MS, Figures.OUTSIDE_CALL_MS, Figures.CLIENT_MEAN_MS);
		rows.stream().filter(row -> row.verdict() != LevelResult.Verdict.INTERRUPTED).sorted(java.util.Comparator.comparingInt(LevelResult::load))
			.filter(row -> figures.stream().allMatch(figure -> Double.isFinite(row.value(figure))))
			.forEach(row -> {
				levels.add(row.level().name().replaceFirst("^(users|rate)-", ""));
				for (int i = 0; i < figures.size(); i++) {
					parts.get(i).add(Math.max(0, row.value(figures.get(i))));
				}
			});
		if (levels.isEmpty()) {
			return null;
		}
		CategoryChart chart = new CategoryChartBuilder().width(560).height(400).title("Where the time went: " + variant)
			.xAxisTitle("level").yAxisTitle("mean ms").build();
		chart.getStyler().setStacked(true);
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
		chart.getStyler().setDecimalPattern("#,##0");
		chart.getStyler().setXAxisLabelRotation(45);
		List<String> names = List.of("before the server's timer", "in the service, outside the call", "the downstream call");
		for (int i = 0; i < names.size(); i++) {
			chart.addSeries(names.get(i), levels, parts.get(i));
		}
		return chart;
	}

	/** Charts of several runs: one line per variant and run ({@code series}: label → its levels). */
	static List<Chart> comparison(Map<String, List<LevelResult>> series, String loadAxis) throws IOException {
		List<Chart> charts = new ArrayList<>();
		// Every figure ./lab compare sets side by side, in declaration order.
		List<LevelResult> all = series.values().stream().flatMap(List::stream).toList();
		for (Figure figure : Figures.of(all)) {
			if (figure.compared().isShown()) {
				String title = (figure.shown().chart() != null) ? figure.shown().chart() : figure.compared().column();
				add(charts, line(series, loadAxis, title, figure.unit(), r -> r.value(figure)));
			}
		}
		return charts;
	}

	private static void add(List<Chart> charts, XYChart chart) throws IOException {
		Chart png = png(chart);
		if (png != null) {
			charts.add(png);
		}
	}

	/** A chart as an embedded PNG (every chart of the report, the timelines and the sections); null when it has no series. */
	static Chart png(XYChart chart) throws IOException {
		return chart.getSeriesMap().isEmpty() ? null : encoded(chart);
	}

	/** A chart (any of XChart's kinds) as an embedded PNG, drawn even without a series. */
	static Chart encoded(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) throws IOException {
		return encoded(chart.getTitle(), BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
	}

	/** A PNG already drawn (one also written to a file), embedded. */
	static Chart encoded(String title, byte[] png) {
		return new Chart(title, "data:image/png;base64," + Base64.getEncoder().encodeToString(png));
	}

	private static XYChart throughput(Map<String, List<LevelResult>> byVariant, String loadAxis) {
		XYChart chart = line(byVariant, loadAxis, "Throughput", "requests / s", LevelResult::rps);
		// Little's law: the most N closed users on a D-second downstream can produce.
		Map<Integer, LevelResult> byLoad = new java.util.TreeMap<>();
		byVariant.values().forEach(rows -> rows.forEach(row -> byLoad.putIfAbsent(row.load(), row)));
		double[][] ceiling = points(List.copyOf(byLoad.values()), LevelResult::ceilingRps);
		if (ceiling[0].length > 0) {
			XYSeries series = chart.addSeries("ceiling (Little's law)", ceiling[0], ceiling[1]);
			series.setMarker(SeriesMarkers.NONE);
			series.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
					10f, new float[] { 6f, 4f }, 0f));
			series.setLineColor(java.awt.Color.GRAY);
		}
		return chart;
	}

	private static XYChart line(Map<String, List<LevelResult>> byVariant, String loadAxis, String title, String unit,
			ToDoubleFunction<LevelResult> metric) {
		XYChart chart = new XYChartBuilder().width(560).height(400).title(title).xAxisTitle(loadAxis).yAxisTitle(unit).build();
		// Below the plot, never over the lines.
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
		chart.getStyler().setYAxisMin(0.0);
		chart.getStyler().setDecimalPattern("#,##0.#");
		List<LevelResult> all = new ArrayList<>();
		byVariant.forEach((variant, rows) -> {
			List<LevelResult> measured = rows.stream().filter(row -> row.verdict() != LevelResult.Verdict.INTERRUPTED).toList();
			all.addAll(measured);
			double[][] xy = points(measured, metric);
			if (xy[0].length > 0) {
				chart.addSeries(variant, xy[0], xy[1]);
			}
		});
		// The verdict on top of each point: hollow for INVALID (not a measurement of the service), a cross for FAILED.
		overlay(chart, "INVALID: not ranked", all, LevelResult.Verdict.INVALID, new HollowCircle(), metric);
		overlay(chart, "FAILED", all, LevelResult.Verdict.FAILED, SeriesMarkers.CROSS, metric);
		return chart;
	}

	private static void overlay(XYChart chart, String name, List<LevelResult> rows, LevelResult.Verdict verdict,
			org.knowm.xchart.style.markers.Marker marker, ToDoubleFunction<LevelResult> metric) {
		double[][] xy = points(rows.stream().filter(row -> row.verdict() == verdict).toList(), metric);
		if (xy[0].length == 0 || chart.getSeriesMap().isEmpty()) {
			return;
		}
		XYSeries series = chart.addSeries(name, xy[0], xy[1]);
		series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
		series.setMarker(marker);
		series.setMarkerColor(java.awt.Color.BLACK);
	}

	/** A ring: the point is there, but it did not measure the service. */
	static final class HollowCircle extends org.knowm.xchart.style.markers.Marker {

		@Override
		public void paint(java.awt.Graphics2D g, double x, double y, int size) {
			double d = size * 1.8;
			g.setColor(java.awt.Color.WHITE);
			g.fill(new java.awt.geom.Ellipse2D.Double(x - d / 2, y - d / 2, d, d));
			g.setColor(java.awt.Color.BLACK);
			g.setStroke(new java.awt.BasicStroke(2f));
			g.draw(new java.awt.geom.Ellipse2D.Double(x - d / 2, y - d / 2, d, d));
		}

	}

	private static double[][] points(List<LevelResult> rows, ToDoubleFunction<LevelResult> metric) {
		List<double[]> points = new ArrayList<>();
		for (LevelResult row : rows) {
			double y = metric.applyAsDouble(row);
			if (!Double.isNaN(y) && !Double.isInfinite(y)) {
				points.add(new double[] { row.load(), y });
			}
		}
		return new double[][] { points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray() };
	}

}
