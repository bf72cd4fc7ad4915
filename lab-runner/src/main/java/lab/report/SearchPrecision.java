package lab.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import lab.analyse.search.BetweenRuns;
import lab.analyse.search.Interval;
import lab.analyse.search.SearchSummary;
import lab.analyse.search.Sizing;

/** A search's precision in words: which ratios it resolved, which it did not and why, and what would resolve them. */
public final class SearchPrecision {

	/** A knee this flat or flatter is named as a reason a ratio is imprecise: p99's wobble moves its crossing 1.25 times as far or more. */
	static final double FLAT_SLOPE = 0.8;

	private SearchPrecision() {
	}

	/**
	 * Which ratios this run resolved to ±5% (an interval that sees the JVM level and is that narrow) and which it did not,
	 * with how many more JVMs per entry would resolve them, from the run's own variance components.
	 */
	public static String of(SearchSummary summary) {
		double bound = BetweenRuns.AGREE_PERCENT;
		List<String> within = new ArrayList<>();
		List<String> wider = new ArrayList<>();
		Set<String> involved = new LinkedHashSet<>();
		for (SearchSummary.Ratio ratio : summary.ratios()) {
			if (ratio.interval().n() == 0) {
				continue;
			}
			if (ratio.resolvedWithin(bound)) {
				within.add(ratio.entry() + String.format(Locale.ROOT, " ±%.1f%%", ratio.precisionPercent()));
				continue;
			}
			involved.add(ratio.baseline());
			involved.add(ratio.entry());
			wider.add(ratio.entry() + " " + widthText(ratio.interval()) + sizing(ratio.sizing()));
		}
		if (within.isEmpty() && wider.isEmpty()) {
			return null;
		}
		// Why a crossing is imprecise: where p99 rises slowly with load, p99's own wobble moves the crossing 1/slope times as far.
		List<String> flat = summary.entries().stream().filter(e -> involved.contains(e.entry()) && e.elasticity().flatterThan(FLAT_SLOPE))
			.map(e -> String.format(Locale.ROOT, "%s %.2f%s (a 5%% wobble of p99 moves its crossing %.0f%%)", e.entry(), e.slope(),
					e.elasticity().clamped() ? String.format(Locale.ROOT, ", fit reaches %.2f", e.elasticity().low()) : "", 5 / e.slope()))
			.toList();
		String why = flat.isEmpty() ? "" : "; flat knees (p99's rise per 1% more load near the crossing): " + String.join(", ", flat);
		String level = summary.ratios().stream().map(r -> r.interval().jvmLevel()).anyMatch(l -> l == Interval.JvmLevel.PRIOR)
				? " Every entry ran on one JVM, so the spread between JVMs was not measured: the lab's prior stands in (each shipped variant's spread between JVMs as this project measured it, "
						+ "capacity-variance.json; 7.5% for any other service) and none is called resolved."
				: " Intervals hold the spread between JVMs (each variant's prior, the spread this project measured between its JVMs, "
						+ "rescaled by this run's JVMs, where one has too few of its own).";
		level += " Repeat the run and `./lab compare` the runs to see whether the ratios reproduce.";
		return String.format(Locale.ROOT, "Ratios this run resolved to ±%.0f%% (their 95%% interval's half-width): %s; wider: %s%s.%s", bound,
				within.isEmpty() ? "none" : String.join(", ", within), wider.isEmpty() ? "none" : String.join(", ", wider), why, level);
	}

	private static String widthText(Interval interval) {
		return interval.hasSpread() ? String.format(Locale.ROOT, "±%.0f%%", Math.ceil(interval.halfWidthPercent())) : "(no interval)";
	}

	/** A ratio's {@link Sizing} in words: the JVMs each entry would need to resolve it, and the minutes at this run's costs. */
	public static String sizing(Sizing sizing) {
		if (sizing == null) {
			return "";
		}
		if (!sizing.reachable()) {
			return String.format(Locale.ROOT, " (no number of JVMs in one run resolves it: the run level alone is ±%.0f%%; repeat the run and compare)",
					sizing.runFloorPercent());
		}
		return Double.isNaN(sizing.minutes()) ? String.format(Locale.ROOT, " (about %d more JVMs each to resolve)", sizing.moreJvms())
				: String.format(Locale.ROOT, " (about %d more JVMs each to resolve, ≈ %.0f min at this run's costs)", sizing.moreJvms(), sizing.minutes());
	}

}
