package lab.run;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import lab.analyse.search.Interval;

/**
 * Where each entry's bracket starts: the crossing the last run on this host recorded for it, or the one the lab ships
 * ({@link CapacityHistory#shipped}) when the host has none; an A/A twin where its variant's last crossing was. With its
 * lines for the console: which came from this host (and its commit), which from the lab's own runs.
 *
 * @param users the first load of each entry with an earlier crossing, to three figures
 * @param lines what the console says of them; none when no entry had one
 */
record BracketStarts(Map<String, Integer> users, List<String> lines) {

	/**
	 * @param last the last crossings by entry label ({@link CapacityHistory#last})
	 * @param labels the search's entries
	 * @param variantLabel an entry's variant's label (the baseline's for its A/A twin; its own otherwise)
	 * @param hostReferenceMs this host's CPU reference now, which a shipped crossing bound by the core or the heap is
	 *        scaled to ({@link CapacityHistory.Crossing#usersAt}); NaN: not timed
	 */
	static BracketStarts of(Map<String, CapacityHistory.Crossing> last, Collection<String> labels, UnaryOperator<String> variantLabel,
			double hostReferenceMs) {
		Map<String, Integer> users = new LinkedHashMap<>();
		Map<String, CapacityHistory.Crossing> from = new LinkedHashMap<>();
		for (String label : labels) {
			CapacityHistory.Crossing crossing = last.getOrDefault(label, last.get(variantLabel.apply(label)));
			if (crossing != null && crossing.users() >= 1) {
				double at = CapacityHistory.shipped(crossing) ? crossing.usersAt(hostReferenceMs) : crossing.users();
				users.put(label, (int) Math.max(1, Math.round(Double.parseDouble(Interval.figure(at, false)))));
				from.put(label, crossing);
			}
		}
		List<String> own = users.keySet().stream().filter(label -> !CapacityHistory.shipped(from.get(label))).toList();
		List<String> shipped = users.keySet().stream().filter(label -> CapacityHistory.shipped(from.get(label))).toList();
		List<String> lines = new ArrayList<>();
		if (!own.isEmpty()) {
			lines.add("lab: brackets start from the last run's crossings on this host, steps of 1.5: " + String.join(", ", own.stream()
				.map(label -> label + " " + users.get(label) + " (commit " + shortCommit(from.get(label).commit()) + ")").toList()));
		}
		if (!shipped.isEmpty()) {
			CapacityHistory.Crossing first = from.get(shipped.get(0));
			List<String> scaled = shipped.stream().filter(label -> from.get(label).usersAt(hostReferenceMs) != from.get(label).users()).toList();
			lines.add("lab: this host has no crossings of its own for " + String.join(", ", shipped) + ": their brackets start from the crossings the lab "
					+ "ships (this project's 2-core machine, commit " + shortCommit(first.commit()) + "; a host that differs costs bracket "
					+ "steps, never a wrong result)" + (scaled.isEmpty() ? "" : String.format(Locale.ROOT, ", %s scaled to this host's CPU reference (%.1f ms "
							+ "against %.1f ms there: the core or the heap bound them)", String.join(", ", scaled), hostReferenceMs, first.referenceMs()))
					+ ", steps of 1.5: " + String.join(", ", shipped.stream().map(label -> label + " " + users.get(label)).toList()));
		}
		return new BracketStarts(Collections.unmodifiableMap(users), List.copyOf(lines));
	}

	private static String shortCommit(String commit) {
		return (commit == null) ? "unknown" : commit.substring(0, Math.min(7, commit.length()));
	}

}
