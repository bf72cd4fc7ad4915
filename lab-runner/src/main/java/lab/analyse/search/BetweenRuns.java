package lab.analyse.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/**
 * One ratio (an entry's capacity relative to a baseline, within rounds) across several whole runs: whether the runs
 * reproduce it. A run's own interval rests on its rounds, which share one JVM per entry; a fresh run gives every entry
 * fresh JVMs (other JIT decisions, another heap layout), a level of noise no single run sees. So each run's ratio is one
 * observation here: their geometric mean, their 95% t-interval with the runs as the level (Kalibera and Jones'
 * invocations), and how far the runs lie from it.
 *
 * @param entry the entry measured
 * @param baseline the entry it is relative to
 * @param runs the names of the runs that placed this ratio, in the order given
 * @param perRun each of those runs' ratio (its geometric mean over its rounds)
 * @param interval their geometric mean and interval over the runs
 * @param spreadPercent the farthest run from that mean, in percent of it
 * @param ownIntervals each run's own interval for it, in the same order: set beside the spread between runs, a reader
 * sees whether one run's stated precision held for the next
 */
public record BetweenRuns(String entry, String baseline, List<String> runs, List<Double> perRun, Interval interval, double spreadPercent,
		List<Interval> ownIntervals) {

	/** The agreement asked of repeated runs: every run's ratio within this many percent of their mean. */
	public static final double AGREE_PERCENT = 5;

	/**
	 * Every ratio placed by at least one run, keyed by entry and baseline (a run whose baseline differs is another ratio),
	 * in the order first met.
	 *
	 * @param runs each run's name and its searches' summaries, in the order given
	 */
	public static List<BetweenRuns> of(Map<String, List<SearchSummary>> runs) {
		return of(runs, false);
	}

	/**
	 * As {@link #of(Map)}, with {@code pairs}: every pair of entries instead of each entry against the baseline (the later
	 * in the run's order relative to the earlier; a pair that leaves out a noisy baseline may reproduce where ratios to it
	 * do not).
	 */
	public static List<BetweenRuns> of(Map<String, List<SearchSummary>> runs, boolean pairs) {
		Map<String, List<String>> names = new LinkedHashMap<>();
		Map<String, List<Double>> values = new LinkedHashMap<>();
		Map<String, List<Interval>> own = new LinkedHashMap<>();
		for (Map.Entry<String, List<SearchSummary>> run : runs.entrySet()) {
			for (SearchSummary summary : run.getValue()) {
				for (SearchSummary.Ratio ratio : pairs ? summary.pairs() : summary.ratios()) {
					if (ratio.interval().n() == 0) {
						continue;
					}
					String key = ratio.entry() + "\u0000" + ratio.baseline();
					names.computeIfAbsent(key, k -> new ArrayList<>()).add(run.getKey());
					values.computeIfAbsent(key, k -> new ArrayList<>()).add(ratio.interval().estimate());
					own.computeIfAbsent(key, k -> new ArrayList<>()).add(ratio.interval());
				}
			}
		}
		List<BetweenRuns> all = new ArrayList<>();
		for (Map.Entry<String, List<Double>> e : values.entrySet()) {
			String[] key = e.getKey().split("\u0000", 2);
			double[] each = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
			Interval interval = Interval.ofGeometricMean(each);
			double spread = 0;
			for (double value : each) {
				spread = Math.max(spread, 100 * Math.abs(value / interval.estimate() - 1));
			}
			all.add(new BetweenRuns(key[0], key[1], List.copyOf(names.get(e.getKey())), List.copyOf(e.getValue()), interval, spread,
					List.copyOf(own.get(e.getKey()))));
		}
		return List.copyOf(all);
	}

	/**
	 * The runs whose own interval misses another run's estimate, in words ("run2's 0.620-0.730 misses run1's 0.790");
	 * empty when every run's interval holds every other's estimate (or fewer than two runs).
	 */
	public List<String> misses() {
		List<String> misses = new ArrayList<>();
		for (int i = 0; i < this.perRun.size(); i++) {
			Interval mine = this.ownIntervals.get(i);
			for (int j = 0; j < this.perRun.size(); j++) {
				double other = this.perRun.get(j);
				if (i != j && mine.hasSpread() && !(mine.low() <= other && other <= mine.high())) {
					misses.add(String.format(Locale.ROOT, "%s's %s-%s misses %s's %s", this.runs.get(i), Interval.figure(mine.low(), false),
							Interval.figure(mine.high(), false), this.runs.get(j), Interval.figure(other, false)));
				}
			}
		}
		return misses;
	}

	/**
	 * Two runs judged by the interval of their difference: the log of one run's ratio over the other's, and its 95%
	 * half-width from the two runs' own intervals taken at their word ({@code sqrt(h1² + h2²)}, each {@code h} half the
	 * log-width of a run's interval). Two right 95% intervals of equal width hold each other's estimate only about 83% of
	 * the time, since the difference carries both runs' errors: this is the yardstick that does not cry wolf.
	 *
	 * @param first, second the runs, in the order given
	 * @param logDifference {@code ln(second / first)}
	 * @param halfWidth the 95% half-width of that difference
	 */
	public record Pair(String first, String second, double logDifference, double halfWidth) {

		/** Whether the difference's interval holds 0: the two runs are consistent with one truth. */
		public boolean consistent() {
			return Math.abs(this.logDifference) <= this.halfWidth;
		}

	}

	/** Every pair of runs whose own intervals both have a spread, judged by the interval of their difference. */
	public List<Pair> pairs() {
		List<Pair> pairs = new ArrayList<>();
		for (int i = 0; i < this.perRun.size(); i++) {
			for (int j = i + 1; j < this.perRun.size(); j++) {
				Interval a = this.ownIntervals.get(i);
				Interval b = this.ownIntervals.get(j);
				if (!a.hasSpread() || !b.hasSpread()) {
					continue;
				}
				double ha = Math.log(a.high() / a.low()) / 2;
				double hb = Math.log(b.high() / b.low()) / 2;
				pairs.add(new Pair(this.runs.get(i), this.runs.get(j), Math.log(this.perRun.get(j) / this.perRun.get(i)), Math.sqrt(ha * ha + hb * hb)));
			}
		}
		return List.copyOf(pairs);
	}

	/**
	 * Whether the runs reproduce it: two or more placed it, every pair could be judged by its difference, and every
	 * pair is consistent there. The only place a comparison says "reproduced".
	 */
	public boolean reproduced() {
		List<Pair> pairs = pairs();
		int expected = this.perRun.size() * (this.perRun.size() - 1) / 2;
		return this.perRun.size() >= 2 && pairs.size() == expected && pairs.stream().allMatch(Pair::consistent);
	}

	/**
	 * How far one run's ratio lies from the runs' mean, and what that asks of a run's own interval: the SD of the runs'
	 * log ratios (as a fraction) with its 95% interval (χ² with runs - 1 degrees of freedom), and the narrowest half-width a
	 * run's own 95% interval can have and still hold the long-run ratio 95% of the time (1.96 SDs: a run that states less
	 * claims a precision its repeats do not show). Null with fewer than three runs.
	 *
	 * @param sd the SD of a run's log ratio between runs
	 * @param sdLow the low end of its 95% interval
	 * @param sdHigh the high end
	 * @param runs the runs it rests on
	 */
	public record Spread(double sd, double sdLow, double sdHigh, int runs) {

		/** The narrowest 95% half-width (%) a run's own interval can state at this spread: 1.96 SDs, on the ratio's scale. */
		public double narrowestHalfWidthPercent(double sd) {
			return 100 * (Math.exp(1.959964 * sd) - 1);
		}

		/** In words: "runs spread ±8.4% (95%: 5.2-20.6%): a run's own 95% interval needs ±18% or more (±11-50%)". */
		public String describe() {
			return String.format(Locale.ROOT, "the runs spread ±%.1f%% (SD of a run's log ratio; 95%%: %.1f-%.1f%%): one run's 95%% interval holds the "
					+ "long-run ratio 95%% of the time only from ±%.0f%% (±%.0f-%.0f%%)", 100 * this.sd, 100 * this.sdLow, 100 * this.sdHigh,
					narrowestHalfWidthPercent(this.sd), narrowestHalfWidthPercent(this.sdLow), narrowestHalfWidthPercent(this.sdHigh));
		}

	}

	/** The runs' spread of this ratio ({@link Spread}); null with fewer than three runs. */
	public Spread between() {
		int n = this.perRun.size();
		if (n < 3) {
			return null;
		}
		double mean = this.perRun.stream().mapToDouble(Math::log).average().orElseThrow();
		double ss = this.perRun.stream().mapToDouble(v -> (Math.log(v) - mean) * (Math.log(v) - mean)).sum();
		double sd = Math.sqrt(ss / (n - 1));
		ChiSquaredDistribution chi = ChiSquaredDistribution.of(n - 1);
		return new Spread(sd, Math.sqrt(ss / chi.inverseCumulativeProbability(0.975)), Math.sqrt(ss / chi.inverseCumulativeProbability(0.025)), n);
	}

	/** Whether two runs or more placed it and every one lies within {@code percent} of their mean. */
	public boolean agrees(double percent) {
		return this.perRun.size() >= 2 && this.spreadPercent <= percent;
	}

	/**
	 * "0.38 over 3 runs (0.34-0.42 between them, interval 0.28-0.51): the runs lie within ±10%, not within ±5%" or
	 * "...: they agree within ±5%"; one run: "0.38 from one run: repeat the run to see whether it reproduces".
	 */
	public String describe() {
		if (this.perRun.size() < 2) {
			return Interval.figure(this.interval.estimate(), false) + " from one run: repeat the run to see whether it reproduces";
		}
		double low = this.perRun.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
		double high = this.perRun.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
		String head = String.format(Locale.ROOT, "%s over %d runs (%s-%s between them, 95%% interval %s-%s)", Interval.figure(this.interval.estimate(), false),
				this.perRun.size(), Interval.figure(low, false), Interval.figure(high, false), Interval.figure(this.interval.low(), false),
				Interval.figure(this.interval.high(), false));
		List<String> misses = misses();
		boolean anyOwn = this.ownIntervals.stream().anyMatch(Interval::hasSpread);
		String held = !anyOwn ? "" : misses.isEmpty() ? "; each run's own interval holds the others' estimates"
				: "; a run's own interval missed another's estimate: " + String.join(", ", misses);
		List<Pair> pairs = pairs();
		String byDifference = pairs.isEmpty() ? "; no pair of runs with intervals of their own to judge by their difference"
				: reproduced() ? String.format(Locale.ROOT, "; reproduced: consistent by the interval of their difference in %d of %d pairs of runs",
						pairs.size(), pairs.size())
				: String.format(Locale.ROOT, "; not reproduced: consistent by the interval of their difference in %d of %d pairs of runs (%s)",
						pairs.stream().filter(Pair::consistent).count(), pairs.size(), String.join(", ", pairs.stream().filter(p -> !p.consistent())
							.map(p -> String.format(Locale.ROOT, "%s against %s: %+.1f%% ± %.1f%%", p.second(), p.first(), 100 * (Math.exp(p.logDifference()) - 1),
									100 * (Math.exp(p.halfWidth()) - 1))).toList()));
		Spread between = between();
		held += (between == null) ? "" : "; " + between.describe();
		return head + (agrees(AGREE_PERCENT) ? String.format(Locale.ROOT, ": they agree within ±%.0f%%", AGREE_PERCENT)
				: String.format(Locale.ROOT, ": the runs lie within ±%.0f%%, not within ±%.0f%%", Math.ceil(this.spreadPercent), AGREE_PERCENT)) + byDifference + held;
	}

}
