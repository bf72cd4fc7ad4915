package lab.run.search;

import java.util.ArrayList;
import java.util.List;

import lab.analyse.search.SearchCosts;

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

	void started(double seconds) {
		add(this.startSeconds, seconds);
	}

	void probed(double seconds) {
		add(this.probeSeconds, seconds);
	}

	void roundOverhead(double seconds) {
		add(this.overheadSeconds, seconds);
	}

	/** The median probe so far (0 before the first: the budget cannot judge before it has a cost). */
	double probe() {
		double median = median(this.probeSeconds);
		return Double.isNaN(median) ? 0 : median;
	}

	/** The median start so far, else {@value #START_SECONDS_UNMEASURED} s. */
	double start() {
		double median = median(this.startSeconds);
		return Double.isNaN(median) ? START_SECONDS_UNMEASURED : median;
	}

	/** The median round's own time beyond its probes. */
	double overhead() {
		double median = median(this.overheadSeconds);
		return Double.isNaN(median) ? 0 : median;
	}

	/** A round of {@code probes} probes after {@code starts} fresh JVMs, at this run's costs. */
	double round(int probes, int starts) {
		return starts * start() + probes * probe() + overhead();
	}

	SearchCosts costs() {
		return new SearchCosts(start(), probe());
	}

	private static void add(List<Double> list, double seconds) {
		if (Double.isFinite(seconds)) {
			list.add(seconds);
		}
	}

	static double median(List<Double> values) {
		double[] finite = values.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().toArray();
		if (finite.length == 0) {
			return Double.NaN;
		}
		return (finite.length % 2 == 1) ? finite[finite.length / 2] : (finite[finite.length / 2 - 1] + finite[finite.length / 2]) / 2;
	}

}
