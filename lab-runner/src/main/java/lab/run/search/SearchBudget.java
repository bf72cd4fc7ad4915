package lab.run.search;

import java.util.ArrayList;
import java.util.List;

import lab.analyse.search.SearchCosts;
import lab.analyse.stat.Stats;

/**
 * What the search's steps cost in this run, measured by the budget's clock: each start (the first JVMs' from the run,
 * every fresh one since), each probe, each round's own time beyond its probes (its two CPU references). A cost is the
 * median of its kind so far; the budget then says whether a step still fits.
 */
final class SearchBudget {

	/** A start's cost before one has been measured in this run (90-120 s on the development machine). */
	static final double START_SECONDS_UNMEASURED = 120;

	private final List<Double> probeSeconds = new ArrayList<>();

	private final List<Double> startSeconds = new ArrayList<>();

	private final List<Double> overheadSeconds = new ArrayList<>();

	/** The fresh JVMs forced by a probe that broke the one before (a subset of the starts). */
	private final List<Double> breakSeconds = new ArrayList<>();

	void started(double seconds) {
		add(this.startSeconds, seconds);
	}

	/** A fresh JVM forced because a probe broke the one before: a start, and a break. */
	void broke(double seconds) {
		add(this.startSeconds, seconds);
		add(this.breakSeconds, seconds);
	}

	void probed(double seconds) {
		add(this.probeSeconds, seconds);
	}

	void roundOverhead(double seconds) {
		add(this.overheadSeconds, seconds);
	}

	/** The median probe so far (0 before the first: the budget cannot judge before it has a cost). */
	double probe() {
		double median = Stats.median(this.probeSeconds);
		return Double.isNaN(median) ? 0 : median;
	}

	/** The median start so far, else {@value #START_SECONDS_UNMEASURED} s. */
	double start() {
		double median = Stats.median(this.startSeconds);
		return Double.isNaN(median) ? START_SECONDS_UNMEASURED : median;
	}

	/** The median round's own time beyond its probes. */
	double overhead() {
		double median = Stats.median(this.overheadSeconds);
		return Double.isNaN(median) ? 0 : median;
	}

	/** A round of {@code probes} probes after {@code starts} fresh JVMs, at this run's costs. */
	double round(int probes, int starts) {
		return starts * start() + probes * probe() + overhead();
	}

	SearchCosts costs() {
		return new SearchCosts(start(), probe(), this.startSeconds.size(), sum(this.startSeconds), this.breakSeconds.size(), sum(this.breakSeconds),
				this.probeSeconds.size(), sum(this.probeSeconds), sum(this.overheadSeconds));
	}

	private static double sum(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).sum();
	}

	private static void add(List<Double> list, double seconds) {
		if (Double.isFinite(seconds)) {
			list.add(seconds);
		}
	}

}
