package lab.analyse.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.plan.VariancePrior;

/**
 * The hierarchical interval of a search's capacities (or ratios): rounds within a JVM, JVMs within an entry (Kalibera and
 * Jones' levels: a JVM invocation carries its own JIT decisions and heap layout, which move all of its rounds alike).
 * Each series is one entry's (or pair's) log values per round, tagged with the JVM (or pair of JVMs) of that round. The
 * estimate is the mean of its JVMs' means; its variance is (σ²_jvm + σ²_round · mean(1/rounds per JVM)) / JVMs, where
 * σ²_round is the series' own spread between rounds of one JVM (or, with too few, the pooled one) and σ²_jvm is the spread
 * between JVMs beyond what their rounds explain: the series' own with four JVMs or more; else its variant's prior
 * ({@link VariancePrior}: what the lab measured of that variant between whole runs; a ratio's is the sum of its two
 * variants'), rescaled by what this run's JVMs show: every series with two JVMs or more adds its spread beyond its rounds'
 * against its prior, and the prior weighs as its degrees of freedom (a scaled inverse χ² prior on the host's scale: a
 * handful of JVMs outweighs it, none leaves it alone). The degrees of freedom of the two parts are combined by
 * Satterthwaite's approximation. With one prior for all, as the lab had before it shipped per-variant ones
 * ({@link VariancePrior#UNIFORM}), this is the pooled spread of every series with the prior as its degrees of freedom.
 */
final class JvmLevels {

	/** A series' own JVM-level spread is used from this many JVMs on; fewer borrow the pooled one. */
	static final int OWN_FROM = 4;

	/** A series' own round-level spread is used from this many degrees of freedom on. */
	static final int OWN_ROUNDS_FROM = 2;

	/** One round's log value, tagged with its JVM (or pair of JVMs). */
	record Tagged(String unit, double log) {
	}

	private JvmLevels() {
	}

	/**
	 * One interval per series, in order; a series without values gets {@link Interval#NONE}.
	 *
	 * @param priors each series' prior variance of a log value between JVMs (a ratio's: its two variants' summed)
	 * @param prior the prior's weight, and whether there is a JVM level at all
	 */
	static List<Interval> intervals(List<List<Tagged>> series, List<Double> priors, VariancePrior prior) {
		return intervals(series, priors, priors.stream().map(p -> 0.0).toList(), prior);
	}

	/**
	 * As {@link #intervals(List, List, VariancePrior)}, each series' variance also holding a run-wide part that no JVM of
	 * one run can show (a variant's whole run shifted): {@code runPriors}, not divided by the JVMs, known only from the
	 * prior (its degrees of freedom).
	 */
	static List<Interval> intervals(List<List<Tagged>> series, List<Double> priors, List<Double> runPriors, VariancePrior prior) {
		List<Stats> stats = series.stream().map(Stats::of).toList();
		double withinSquares = 0;
		int withinDf = 0;
		for (Stats s : stats) {
			withinSquares += s.withinSquares;
			withinDf += s.withinDf;
		}
		double pooledWithin = (withinDf > 0) ? withinSquares / withinDf : Double.NaN;
		// The host's scale of the priors: each series with two or more JVMs gives its JVM means' spread less what its
		// rounds explain, set against its own prior; the prior itself is a scale of 1 worth its degrees of freedom.
		double betweenSum = 0;
		double priorSum = 0;
		int betweenDf = 0;
		double meanPrior = priors.stream().mapToDouble(Double::doubleValue).average().orElse(0);
		for (int i = 0; i < stats.size(); i++) {
			Stats s = stats.get(i);
			if (s.means.size() >= 2) {
				double within = s.within(pooledWithin);
				betweenSum += (s.means.size() - 1) * (s.meansVariance() - (Double.isFinite(within) ? within * s.inverseRounds() : 0));
				priorSum += (s.means.size() - 1) * priors.get(i);
				betweenDf += s.means.size() - 1;
			}
		}
		double scale = (meanPrior > 0) ? (Math.max(0, betweenSum) + prior.df() * meanPrior) / (priorSum + prior.df() * meanPrior) : 1;
		Interval.JvmLevel level = (betweenDf > 0) ? Interval.JvmLevel.POOLED : Interval.JvmLevel.PRIOR;
		List<Interval> intervals = new ArrayList<>();
		for (int i = 0; i < stats.size(); i++) {
			double between = prior.jvmTerm() ? scale * priors.get(i) : 0;
			double run = prior.jvmTerm() ? runPriors.get(i) : 0;
			intervals.add(stats.get(i).interval(pooledWithin, withinDf, between, betweenDf + prior.df(), run, prior.df(), level));
		}
		return intervals;
	}

	/** One series' JVM means and its spread between rounds of one JVM. */
	private record Stats(List<Double> means, List<Integer> rounds, double withinSquares, int withinDf) {

		static Stats of(List<Tagged> values) {
			Map<String, List<Double>> byUnit = new LinkedHashMap<>();
			values.forEach(v -> byUnit.computeIfAbsent(v.unit(), k -> new ArrayList<>()).add(v.log()));
			List<Double> means = new ArrayList<>();
			List<Integer> rounds = new ArrayList<>();
			double squares = 0;
			int df = 0;
			for (List<Double> unit : byUnit.values()) {
				double mean = unit.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
				means.add(mean);
				rounds.add(unit.size());
				squares += unit.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
				df += unit.size() - 1;
			}
			return new Stats(means, rounds, squares, df);
		}

		double within(double pooled) {
			return (this.withinDf >= OWN_ROUNDS_FROM) ? this.withinSquares / this.withinDf : pooled;
		}

		double inverseRounds() {
			return this.rounds.stream().mapToDouble(r -> 1.0 / r).average().orElse(1);
		}

		double meansVariance() {
			double mean = this.means.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
			return this.means.stream().mapToDouble(m -> (m - mean) * (m - mean)).sum() / (this.means.size() - 1);
		}

		Interval interval(double pooledWithin, int pooledWithinDf, double pooledBetween, int pooledBetweenDf, double run, int runDf,
				Interval.JvmLevel level) {
			int n = this.rounds.stream().mapToInt(Integer::intValue).sum();
			int k = this.means.size();
			if (k == 0) {
				return Interval.NONE;
			}
			double estimate = this.means.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
			if (k >= OWN_FROM) {
				double own = meansVariance() / k;
				double df = (own + run) * (own + run) / (own * own / (k - 1) + ((run > 0) ? run * run / runDf : 0));
				return Interval.ofLog(estimate, Math.sqrt(own + run), (own + run > 0) ? df : k - 1, n, k, Interval.JvmLevel.OWN);
			}
			double within = within(pooledWithin);
			double withinDf = (this.withinDf >= OWN_ROUNDS_FROM) ? this.withinDf : pooledWithinDf;
			double roundPart = Double.isFinite(within) ? within * inverseRounds() / k : 0;
			double jvmPart = pooledBetween / k;
			double variance = jvmPart + roundPart + run;
			// Satterthwaite: the degrees of freedom of a sum of estimated variances.
			double df = (variance > 0) ? variance * variance / (jvmPart * jvmPart / pooledBetweenDf
					+ ((roundPart > 0 && withinDf > 0) ? roundPart * roundPart / withinDf : 0) + ((run > 0) ? run * run / runDf : 0)) : 0;
			return Interval.ofLog(estimate, Math.sqrt(variance), Math.max(1, df), n, k, level);
		}

	}

}
