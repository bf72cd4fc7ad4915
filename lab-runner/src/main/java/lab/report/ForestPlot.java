package lab.report;

import java.io.IOException;
import java.util.List;

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
		List<SearchSummary.Ratio> ratios = summary.ratios().stream().filter(r -> r.interval().n() > 0 && r.interval().low() > 0
				&& Double.isFinite(r.interval().high())).toList();
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

}
