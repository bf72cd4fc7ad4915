package lab.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.search.EarlierRun;
import lab.analyse.search.Interval;
import lab.analyse.search.SearchSummary;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A search's answer as a picture: each variant's ratio to the baseline with its 95% interval, one row each, with the
 * baseline's 1 drawn through them (a forest plot). A ratio whose interval crosses that line cannot be told
 * apart from the baseline; the width of each bar is how sure the run is. From the search's summary alone.
 */
final class ForestPlot {

	private ForestPlot() {
	}

	/** The plot of a search's ratios with an interval; null when none has one (or it could not be drawn: the table says it all). */
	static Charts.Chart of(SearchSummary summary) {
		try {
			return draw(summary);
		}
		catch (IOException ex) {
			return null;
		}
	}

	private static Charts.Chart draw(SearchSummary summary) throws IOException {
		List<SearchSummary.Ratio> ratios = drawable(summary);
		if (ratios.isEmpty()) {
			return null;
		}
		XYChart chart = new XYChartBuilder().width(760).height(200 + 60 * ratios.size())
			.title("Capacity × " + ratios.get(0).baseline() + ", each with its 95% interval").xAxisTitle("capacity relative to " + ratios.get(0).baseline())
			.yAxisTitle("").build();
		chart.getStyler().setYAxisTicksVisible(false);
		chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
		chart.getStyler().setMarkerSize(8);
		chart.getStyler().setYAxisMin(0.0);
		chart.getStyler().setYAxisMax(ratios.size() + 1.0);
		double low = 1;
		double high = 1;
		for (int i = 0; i < ratios.size(); i++) {
			SearchSummary.Ratio ratio = ratios.get(i);
			double row = ratios.size() - i;
			// The bar from the interval's low to its high, the estimate marked on it.
			XYSeries series = chart.addSeries(ratio.entry() + " " + ratio.interval().asRatio(), new double[] { ratio.interval().low(),
					ratio.interval().estimate(), ratio.interval().high() }, new double[] { row, row, row });
			series.setMarker(SeriesMarkers.CIRCLE);
			low = Math.min(low, ratio.interval().low());
			high = Math.max(high, ratio.interval().high());
		}
		XYSeries one = chart.addSeries(ratios.get(0).baseline() + " (1)", new double[] { 1, 1 }, new double[] { 0, ratios.size() + 1.0 });
		one.setMarker(SeriesMarkers.NONE);
		one.setLineStyle(SeriesLines.DASH_DASH);
		one.setLineColor(java.awt.Color.GRAY);
		chart.getStyler().setXAxisMin(Math.max(0, low - 0.1 * (high - low)));
		chart.getStyler().setXAxisMax(high + 0.1 * (high - low));
		return Charts.encoded(chart);
	}

	/**
	 * One run's ratios to one baseline as the picture draws them.
	 *
	 * @param name the run, for the legend
	 * @param baseline the entry its ratios are relative to
	 * @param ratios each entry's ratio with its interval (one without a width is drawn as its estimate alone)
	 */
	record RunRatios(String name, String baseline, Map<String, Interval> ratios) {

		/** A search's ratios that can be drawn; null when it has none (or there is no search). */
		static RunRatios of(String name, SearchSummary summary) {
			List<SearchSummary.Ratio> drawable = (summary == null) ? List.of() : drawable(summary);
			if (drawable.isEmpty()) {
				return null;
			}
			Map<String, Interval> ratios = new LinkedHashMap<>();
			drawable.forEach(r -> ratios.put(r.entry(), r.interval()));
			return new RunRatios(name, drawable.get(0).baseline(), ratios);
		}

		/** An earlier run on this host as the search's settings keep it; null when it has nothing to draw. */
		static RunRatios of(EarlierRun run) {
			Map<String, Interval> ratios = new LinkedHashMap<>();
			run.ratios().forEach((entry, bounds) -> {
				Interval interval = Interval.of(bounds);
				if (interval.low() > 0 && Double.isFinite(interval.high())) {
					ratios.put(entry, interval);
				}
			});
			return ratios.isEmpty() ? null : new RunRatios(run.name(), run.baseline(), ratios);
		}

	}

	/** A search's ratios in its report: beside the host's earlier runs of the same search where it has them. */
	static Charts.Chart withEarlier(SearchSummary summary) {
		List<EarlierRun> earlier = summary.record().settings().earlier();
		if (earlier.isEmpty()) {
			return of(summary);
		}
		List<RunRatios> runs = new ArrayList<>();
		earlier.forEach(run -> runs.add(RunRatios.of(run)));
		runs.add(RunRatios.of("this run", summary));
		try {
			XYChart chart = ofRuns(runs);
			return (chart == null) ? null : Charts.encoded(chart);
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * Several runs' answers in one picture ({@code ./lab compare}, and a run's report beside the host's earlier runs): a
	 * row per variant, in it each run's ratio to the baseline with its 95% interval (an earlier run recorded without one:
	 * its estimate alone), one colour per run in the order given, the baseline's 1 drawn through them. A run whose
	 * baseline is not the first drawn run's is left out (its ratios measure something else); a null run is skipped.
	 * Null when no run has a ratio to draw.
	 */
	static XYChart ofRuns(List<RunRatios> runs) {
		List<RunRatios> drawn = new ArrayList<>();
		for (RunRatios run : runs) {
			if (run != null && (drawn.isEmpty() || run.baseline().equals(drawn.get(0).baseline()))) {
				drawn.add(run);
			}
		}
		if (drawn.isEmpty()) {
			return null;
		}
		String baseline = drawn.get(0).baseline();
		List<String> variants = drawn.stream().flatMap(run -> run.ratios().keySet().stream()).distinct().toList();
		XYChart chart = new XYChartBuilder().width(760).height(140 + 35 * variants.size() * Math.max(2, drawn.size()))
			.title("Capacity × " + baseline + ", each run's ratio with its 95% interval").xAxisTitle("capacity relative to " + baseline).yAxisTitle("")
			.build();
		chart.getStyler().setYAxisTicksVisible(false);
		chart.getStyler().setPlotGridHorizontalLinesVisible(false);
		chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
		chart.getStyler().setMarkerSize(7);
		chart.getStyler().setYAxisMin(0.6);
		chart.getStyler().setYAxisMax(variants.size() + 0.5);
		java.awt.Color[] colours = chart.getStyler().getSeriesColors();
		double low = 1;
		double high = 1;
		for (int v = 0; v < variants.size(); v++) {
			double row = variants.size() - v;
			String variant = variants.get(v);
			// The runs' bars about the variant's row, first run on top.
			for (int r = 0; r < drawn.size(); r++) {
				Interval ratio = drawn.get(r).ratios().get(variant);
				if (ratio == null) {
					continue;
				}
				double y = row + 0.3 - 0.6 * (r + 0.5) / drawn.size();
				XYSeries bar = chart.addSeries(drawn.get(r).name() + " · " + variant, new double[] { ratio.low(), ratio.estimate(), ratio.high() },
						new double[] { y, y, y });
				bar.setMarker(SeriesMarkers.CIRCLE);
				bar.setLineStyle(SeriesLines.SOLID);
				bar.setLineColor(colours[r % colours.length]);
				bar.setMarkerColor(colours[r % colours.length]);
				// The legend names the runs (below), not each bar.
				bar.setShowInLegend(false);
				low = Math.min(low, ratio.low());
				high = Math.max(high, ratio.high());
			}
		}
		for (int r = 0; r < drawn.size(); r++) {
			// The legend's entry of each run, drawn off the plot.
			XYSeries key = chart.addSeries(drawn.get(r).name(), new double[] { -1 }, new double[] { -1 });
			key.setMarker(SeriesMarkers.CIRCLE);
			key.setLineStyle(SeriesLines.SOLID);
			key.setLineColor(colours[r % colours.length]);
			key.setMarkerColor(colours[r % colours.length]);
		}
		XYSeries one = chart.addSeries(baseline + " (1)", new double[] { 1, 1 }, new double[] { 0.6, variants.size() + 0.5 });
		one.setMarker(SeriesMarkers.NONE);
		one.setLineStyle(SeriesLines.DASH_DASH);
		one.setLineColor(java.awt.Color.GRAY);
		double from = Math.max(0, low - 0.1 * (high - low));
		double to = high + 0.1 * (high - low);
		chart.getStyler().setXAxisMin(from);
		chart.getStyler().setXAxisMax(to);
		// Each row's name above its bars at the left (XChart centres a text on its point: about 7 pixels a character on a
		// plot of about 700; the axes' own labels are numbers only, so the names are drawn in the plot).
		for (int v = 0; v < variants.size(); v++) {
			String name = variants.get(v);
			double centre = from + (to - from) * (8 + 3.5 * name.length()) / 700;
			chart.addAnnotation(new org.knowm.xchart.AnnotationText(name, centre, variants.size() - v + 0.42, false));
		}
		return chart;
	}

	/** A summary's ratios that can be drawn: measured, with a positive low and a finite high. */
	private static List<SearchSummary.Ratio> drawable(SearchSummary summary) {
		return summary.ratios().stream().filter(r -> r.interval().n() > 0 && r.interval().low() > 0 && Double.isFinite(r.interval().high())).toList();
	}

}
