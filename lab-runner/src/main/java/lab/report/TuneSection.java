package lab.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.search.TuneSummary;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's section of a tune run: the answer in words (the best arm within the target, the arms it cannot be told
 * from, every arm it beats and by how much), a table of every arm with its values, capacity, limit, RSS, connections
 * and place on the fronts, each axis's effect around the best, and capacity against RSS drawn. From
 * {@link TuneSummary} alone.
 */
final class TuneSection {

	private TuneSection() {
	}

	/** The templates' scope of the section, or null for a run that is not a tune run. */
	static Map<String, Object> scope(TuneSummary tune, String loadUnit) {
		if (tune == null) {
			return null;
		}
		Map<String, Object> scope = new LinkedHashMap<>();
		scope.put("answer", answer(tune, loadUnit));
		List<Map<String, Object>> rows = new ArrayList<>();
		for (TuneSummary.Arm arm : tune.arms()) {
			Map<String, Object> row = new LinkedHashMap<>();
			row.put("arm", arm.label());
			row.put("values", String.join(", ", arm.values().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
			row.put("capacity", arm.capacity().asLoad());
			row.put("step", (arm.lastStep() == 0) ? "-" : String.valueOf(arm.lastStep()));
			row.put("standing", arm.standing().toString());
			row.put("limit", arm.limit().isEmpty() ? "-" : arm.limit());
			row.put("rss", Summaries.number(arm.rssMiB()));
			row.put("connections", Summaries.number(arm.connections()));
			row.put("front", front(arm));
			rows.add(row);
		}
		scope.put("arms", rows);
		List<Map<String, Object>> effects = new ArrayList<>();
		for (TuneSummary.Effect effect : tune.effects()) {
			effects.add(Map.of("axis", effect.axis(), "points", String.join("; ", effect.points().stream().map(p -> point(p, tune.best())).toList())));
		}
		scope.put("effects", effects);
		return scope;
	}

	/** The console's and the report's paragraph: the best, the ones within noise, the beaten with their intervals. */
	static String answer(TuneSummary tune, String loadUnit) {
		if (!tune.groupBests().isEmpty()) {
			return groups(tune, loadUnit);
		}
		TuneSummary.Arm best = tune.arms().stream().filter(a -> a.label().equals(tune.best())).findFirst().orElse(null);
		if (best == null) {
			// A best is named only where its capacity was measured: none here, and why each arm has none.
			return (tune.interrupted() ? "No best named: the run was interrupted before the study ended." : "No best named: no arm's capacity within "
					+ tune.target().text() + " was found.") + (tune.unplaced().isEmpty() ? "" : " " + unplaced(tune) + ".");
		}
		StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "Best within %s: %s, %s %s.", tune.target().text(), best.label(),
				best.capacity().asLoad(), loadUnit));
		List<String> near = tune.arms().stream().filter(a -> a.standing() == TuneSummary.Standing.WITHIN_NOISE).map(TuneSummary.Arm::label).toList();
		text.append(near.isEmpty() ? " It leads every other arm beyond its interval."
				: " Within noise of it (intervals overlap): " + String.join(", ", near) + ".");
		text.append(confirmation(tune, best.label(), loadUnit, false));
		List<String> beaten = tune.arms().stream().filter(a -> a.standing() == TuneSummary.Standing.BEATEN)
			.map(a -> String.format(Locale.ROOT, "%s %s (%.2f× the best)", a.label(), a.capacity().asLoad(), a.capacity().estimate() / best.capacity().estimate()))
			.toList();
		if (!beaten.isEmpty()) {
			text.append(" It beats ").append(String.join("; ", beaten)).append(".");
		}
		List<String> rss = tune.arms().stream().filter(TuneSummary.Arm::frontRss).map(TuneSummary.Arm::label).toList();
		List<String> connections = tune.arms().stream().filter(TuneSummary.Arm::frontConnections).map(TuneSummary.Arm::label).toList();
		if (!rss.isEmpty()) {
			text.append(" Front of capacity against RSS: ").append(String.join(", ", rss)).append(".");
		}
		if (!connections.isEmpty()) {
			text.append(" Front of capacity against connections: ").append(String.join(", ", connections)).append(".");
		}
		return text.toString();
	}

	/** A study of groups: each group's best (or that it named none) and the arms within noise of it, in the groups' order. */
	private static String groups(TuneSummary tune, String loadUnit) {
		List<String> parts = new ArrayList<>();
		tune.groupBests().forEach((group, label) -> {
			TuneSummary.Arm best = tune.arms().stream().filter(a -> a.label().equals(label)).findFirst().orElse(null);
			if (best == null) {
				parts.add(group + ": no best named");
				return;
			}
			List<String> near = tune.arms().stream().filter(a -> a.standing() == TuneSummary.Standing.WITHIN_NOISE && group.equals(a.group()))
				.map(TuneSummary.Arm::label).toList();
			parts.add(String.format(Locale.ROOT, "%s: %s, %s %s%s%s", group, best.label(), best.capacity().asLoad(), loadUnit,
					near.isEmpty() ? "" : " (within noise of it: " + String.join(", ", near) + ")", confirmation(tune, label, loadUnit, true)));
		});
		String unplaced = tune.unplaced().isEmpty() ? ""
				: " Without a capacity: " + unplaced(tune) + ".";
		return "Best of each group within " + tune.target().text() + (tune.interrupted() ? " (the run was interrupted)" : "") + ": "
				+ String.join("; ", parts) + "." + unplaced;
	}

	/**
	 * " Confirmed on fresh JVMs: 450 (...) users." (or not, and why), as a clause of a group's part when {@code inline}
	 * ("; confirmed on ..."); "" when the best was not searched again.
	 */
	private static String confirmation(TuneSummary tune, String label, String loadUnit, boolean inline) {
		TuneSummary.Confirmation again = tune.confirmations().get(label);
		if (again == null) {
			return "";
		}
		String text = String.format(Locale.ROOT, "%s on fresh JVMs: %s %s%s", again.confirmed() ? "confirmed" : "not confirmed", again.capacity().asLoad(),
				loadUnit, again.confirmed() ? "" : " (its interval there does not overlap the study's, or an arm of its group led it there)");
		return inline ? ", " + text : " " + Character.toUpperCase(text.charAt(0)) + text.substring(1) + ".";
	}

	/** Each arm without a capacity and why: "a: INVALID twice at 25, never a bound; b: ...". */
	private static String unplaced(TuneSummary tune) {
		return String.join("; ", tune.unplaced().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList());
	}

	private static String front(TuneSummary.Arm arm) {
		List<String> fronts = new ArrayList<>();
		if (arm.frontRss()) {
			fronts.add("RSS");
		}
		if (arm.frontConnections()) {
			fronts.add("connections");
		}
		return fronts.isEmpty() ? "-" : String.join(", ", fronts);
	}

	private static String point(TuneSummary.Point point, String best) {
		if (point.label() == null) {
			return point.value() + ": not in the study";
		}
		return String.format(Locale.ROOT, "%s: %s (%.2f×%s)", point.value(), point.capacity().asLoad(), point.ratio(),
				point.label().equals(best) ? ", the best" : point.overlaps() ? ", within noise" : "");
	}

	/** Capacity against RSS, one point per arm with both, the best and the front marked; null without two such arms. */
	static Charts.Chart chart(TuneSummary tune, String loadUnit) throws IOException {
		if (tune == null) {
			return null;
		}
		List<TuneSummary.Arm> placed = tune.arms().stream().filter(a -> Double.isFinite(a.rssMiB()) && Double.isFinite(a.capacity().estimate())).toList();
		if (placed.size() < 2) {
			return null;
		}
		XYChart chart = new XYChartBuilder().width(560).height(420).title("Tune: capacity against RSS").xAxisTitle("peak RSS at the knee, MiB")
			.yAxisTitle(loadUnit + " within the target").build();
		chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
		chart.getStyler().setMarkerSize(9);
		// Arm labels are long (named by their values): the legend under the plot leaves it the width.
		chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
		for (TuneSummary.Arm arm : placed) {
			XYSeries series = chart.addSeries(arm.label() + (arm.label().equals(tune.best()) ? " (best)" : arm.frontRss() ? " (front)" : ""),
					new double[] { arm.rssMiB() }, new double[] { arm.capacity().estimate() });
			series.setMarker(arm.frontRss() ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
		}
		return Charts.encoded(chart);
	}

}
