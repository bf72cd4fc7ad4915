package lab.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import lab.analyse.profile.LevelSeries;
import lab.analyse.profile.StartProfile;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The report's start section (a run of a {@code coldStart} scenario): per variant, its starts' figures as ranges
 * (min–max over the starts), and two charts from process start, answers per second and the JIT's CPU, each variant's
 * line the median of its starts second by second.
 *
 * @param byVariant each variant's starts, in the run's order
 */
record Starts(Map<String, List<StartProfile>> byVariant) {

	static Starts of(List<LevelSeries> series) {
		Map<String, List<StartProfile>> byVariant = new LinkedHashMap<>();
		for (LevelSeries level : series) {
			if (level.start() != null) {
				byVariant.computeIfAbsent(level.start().variant(), k -> new ArrayList<>()).add(level.start());
			}
		}
		return new Starts(byVariant);
	}

	boolean isEmpty() {
		return this.byVariant.isEmpty();
	}

	/** One row per variant: each figure as the range over its starts. */
	List<Map<String, String>> rows() {
		List<Map<String, String>> rows = new ArrayList<>();
		this.byVariant.forEach((variant, starts) -> {
			Map<String, String> row = new LinkedHashMap<>();
			row.put("variant", variant);
			row.put("starts", String.valueOf(starts.size()));
			row.put("ready", range(starts, StartProfile::readySeconds, "%.1f"));
			row.put("load", range(starts, StartProfile::loadSeconds, "%.1f"));
			row.put("firstAnswer", range(starts, StartProfile::firstAnswerSeconds, "%.0f"));
			row.put("to50", range(starts, StartProfile::to50Seconds, "%.0f"));
			row.put("to90", range(starts, StartProfile::to90Seconds, "%.0f"));
			row.put("steadyRps", range(starts, StartProfile::steadyRps, "%,.0f"));
			row.put("aotCache", starts.stream().map(StartProfile::aotCache).filter(java.util.Objects::nonNull).findFirst().orElse(""));
			for (int i = 0; i < StartProfile.MARKS.size(); i++) {
				int mark = i;
				String suffix = String.valueOf(StartProfile.MARKS.get(i));
				row.put("answered" + suffix, range(starts, s -> s.answered().get(mark), "%,.0f"));
				row.put("p99" + suffix, range(starts, s -> s.p99Ms().get(mark), "%,.0f"));
				row.put("jit" + suffix, range(starts, s -> s.jitCpuSeconds().get(mark), "%.1f"));
			}
			rows.add(row);
		});
		return rows;
	}

	/** "12–15" (or "12" when every start gave the same, "-" when none measured it), rounded by {@code format}. */
	static String range(List<StartProfile> starts, ToDoubleFunction<StartProfile> figure, String format) {
		double min = Double.NaN;
		double max = Double.NaN;
		for (StartProfile start : starts) {
			double value = figure.applyAsDouble(start);
			if (Double.isFinite(value)) {
				min = Double.isNaN(min) ? value : Math.min(min, value);
				max = Double.isNaN(max) ? value : Math.max(max, value);
			}
		}
		if (Double.isNaN(min)) {
			return "-";
		}
		String low = String.format(Locale.ROOT, format, min);
		String high = String.format(Locale.ROOT, format, max);
		return low.equals(high) ? low : low + "–" + high;
	}

	/** Answers per second and the JIT's CPU from process start, per variant the median of its starts each second. */
	List<Charts.Chart> charts() throws IOException {
		List<Charts.Chart> charts = new ArrayList<>();
		charts.add(chart("Answers per second from process start", "answers / s", second -> second.answered()));
		charts.add(chart("JIT compiler threads' CPU from process start", "% of one core", StartProfile.Second::jitPercent));
		return charts;
	}

	private Charts.Chart chart(String title, String unit, ToDoubleFunction<StartProfile.Second> value) throws IOException {
		XYChart chart = new XYChartBuilder().width(560).height(400).title(title).xAxisTitle("s since the service's process started").yAxisTitle(unit)
			.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
		chart.getStyler().setYAxisMin(0.0);
		chart.getStyler().setMarkerSize(2);
		chart.getStyler().setDecimalPattern("#,##0");
		this.byVariant.forEach((variant, starts) -> {
			List<double[]> points = StartProfile.medians(starts, value);
			if (!points.isEmpty()) {
				chart.addSeries(variant + ((starts.size() > 1) ? " (median of " + starts.size() + ")" : ""),
						points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray());
			}
		});
		return Charts.png(chart);
	}

}
