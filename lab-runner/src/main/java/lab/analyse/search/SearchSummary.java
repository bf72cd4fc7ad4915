package lab.analyse.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import lab.analyse.search.JvmLevels.Tagged;
import lab.plan.VariancePrior;

/**
 * What an interleaved search found. What counts is one rule: every round whose CPU reference held (bracket and refining
 * rounds alike; a marked round's probes steered the search and place nothing, nor enter the elasticity's fit). In a
 * counted round, an entry's probe places that round's crossing from its own latency and the entry's {@link Elasticity}
 * ({@link Crossing#at}), never from another round's probe; never above the lowest load at which a counted probe of the
 * entry broke its JVM or missed by more than twice (a cliff the elasticity cannot see: then the capacity's interval
 * reaches from the highest load met below it to it). A capacity is the mean of its JVMs' mean log crossings, with a
 * hierarchical interval ({@link JvmLevels}) widened by the elasticity's own range (an error common to every round). A
 * ratio is computed within each round where both placed a crossing (the host's drift of that round falls on both),
 * grouped by the pair of JVMs, and summarised the same way. A ratio whose interval holds 1 cannot be told apart on this
 * run; the A/A twin's ratio is the run's own noise floor.
 *
 * @param record what ran
 * @param entries one per entry, in the run's order
 * @param ratios each other entry's capacity relative to the baseline's
 * @param pairs every pair of entries (the first named earlier in the run), the later's capacity relative to the earlier's
 */
public record SearchSummary(SearchRecord record, List<EntryResult> entries, List<Ratio> ratios, List<Ratio> pairs) {

	/**
	 * @param entry the entry
	 * @param bracket its bracket (null: none finished)
	 * @param elasticity d ln(latency) / d ln(load) near its knee, with its range
	 * @param crossings its crossing in each counted round, in round order (NaN where that round placed none)
	 * @param capacity their hierarchical mean and interval
	 * @param wall the lowest load that broke its JVM or missed by more than twice, bounding its crossings (0: none did)
	 * @param ended why its search ended early, null when it did not
	 * @param limit what bound it at its knee: the {@link lab.analyse.judge.Limit} of its counted probe nearest its capacity ("" when unknown)
	 */
	public record EntryResult(String entry, BracketFound bracket, Elasticity elasticity, List<Double> crossings, Interval capacity, int wall,
			String ended, String limit) {

		/** "2,310 users (2,200-2,420, 2 JVMs, 5 rounds); bracket 2,000-3,000". */
		public String describe(String unit) {
			String bracketText = (this.bracket == null) ? "no bracket"
					: (this.bracket.capacity() == 0 && this.bracket.firstMissed() == 0) ? "not found: " + this.bracket.why()
					: (this.bracket.capacity() == 0) ? "none met, missed at " + number(this.bracket.firstMissed())
					+ " " + unit : (this.bracket.firstMissed() == 0) ? "at least " + number(this.bracket.capacity()) + " " + unit + " (" + this.bracket.why() + ")"
							: "bracket " + number(this.bracket.capacity()) + "-" + number(this.bracket.firstMissed());
			if (this.capacity.n() == 0) {
				return bracketText + ((this.ended != null) ? "; ended: " + this.ended : "");
			}
			return this.capacity.asLoad().replaceFirst("^([0-9,.]+)", "$1 " + unit) + "; " + bracketText;
		}

		/** The elasticity crossings were placed with. */
		public double slope() {
			return this.elasticity.value();
		}

	}

	/**
	 * @param entry the entry measured
	 * @param baseline the entry it is relative to
	 * @param perRound the ratio in each round both placed a crossing in
	 * @param interval their hierarchical mean and interval
	 * @param sizing the JVMs each entry would need to resolve it ({@link Sizing}); null without an interval to size from
	 * (not written to summary.json: the report words it)
	 */
	public record Ratio(String entry, String baseline, List<Double> perRound, Interval interval,
			@com.fasterxml.jackson.annotation.JsonIgnore Sizing sizing) {

		/** A ratio with no sizing. */
		public Ratio(String entry, String baseline, List<Double> perRound, Interval interval) {
			this(entry, baseline, perRound, interval, null);
		}

		/** Whether it cannot be told from 1 on this run: no interval, or one that holds 1. */
		public boolean unresolved() {
			return !this.interval.hasSpread() || this.interval.holds(1.0);
		}

		/** Its interval's half-width in percent of the estimate (the wider side); NaN without an interval. */
		public double precisionPercent() {
			return this.interval.halfWidthPercent();
		}

		/** Whether this run resolved it to ±{@code percent}: an interval that sees the JVM level and is that narrow. */
		public boolean resolvedWithin(double percent) {
			return this.interval.hasSpread() && this.interval.jvmLevel() != Interval.JvmLevel.PRIOR && precisionPercent() <= percent;
		}

		/** "0.620 (0.580-0.660, 2 JVMs, 5 rounds)" or "≈ 1.03 (0.940-1.12, 2 JVMs, 5 rounds): cannot be told apart on this run". */
		public String describe() {
			if (this.interval.n() == 0) {
				return "no round placed both";
			}
			if (!this.interval.hasSpread()) {
				return this.interval.asRatio() + ": cannot be told apart";
			}
			return (this.interval.holds(1.0) ? "≈ " : "") + this.interval.asRatio() + (this.interval.holds(1.0) ? ": cannot be told apart on this run" : "");
		}

	}

	public static SearchSummary of(SearchRecord record) {
		return of(record, record.settings().variancePrior());
	}

	/** As {@link #of(SearchRecord)}, with {@code prior} for the JVM level of its intervals (the coverage test's controls). */
	public static SearchSummary of(SearchRecord record, VariancePrior prior) {
		double target = record.settings().targetMs();
		double floor = record.settings().floorMs();
		List<Round> counted = record.rounds().stream().filter(Round::counted).toList();
		List<Integer> countedIndexes = counted.stream().map(Round::index).toList();
		List<List<RoundProbe>> alls = record.entries().stream().map(entry -> record.probes().stream().filter(p -> p.entry().equals(entry)).toList()).toList();
		List<List<RoundProbe>> owns = alls.stream().map(all -> all.stream().filter(p -> countedIndexes.contains(p.round())).toList()).toList();
		double wobble = Elasticity.wobble(owns, target, floor);
		List<Placed> placed = new ArrayList<>();
		for (int i = 0; i < record.entries().size(); i++) {
			String entry = record.entries().get(i);
			List<RoundProbe> own = owns.get(i);
			Elasticity elasticity = Elasticity.of(own, record.brackets().get(entry), alls.get(i), target, floor, Elasticity.entryWobble(own, target, floor, wobble));
			placed.add(new Placed(entry, own, elasticity, Placed.wall(own, target), countedIndexes, target, floor));
		}
		List<Interval> capacities = JvmLevels.intervals(placed.stream().map(p -> p.tagged(p.elasticity().value())).toList(),
				placed.stream().map(p -> prior.variance(p.entry())).toList(), placed.stream().map(p -> prior.runVariance(p.entry())).toList(), prior);
		List<EntryResult> entries = new ArrayList<>();
		for (int i = 0; i < placed.size(); i++) {
			Placed p = placed.get(i);
			Interval capacity = capacities.get(i);
			double mean = p.meanLog(p.elasticity().value());
			double atLow = p.meanLog(p.elasticity().low()) - mean;
			double atHigh = p.meanLog(p.elasticity().high()) - mean;
			capacity = capacity.widened(-Math.min(atLow, atHigh), Math.max(atLow, atHigh));
			if (p.walled(p.elasticity().value())) {
				capacity = capacity.spanning(p.highestMetBelowWall(), p.wall());
			}
			entries.add(new EntryResult(p.entry(), record.brackets().get(p.entry()), p.elasticity(), p.crossings(p.elasticity().value()), capacity, p.wall(),
					record.ended().get(p.entry()), Placed.limitAt(p.counted(), capacity.estimate())));
		}
		Placed base = placed.stream().filter(p -> p.entry().equals(record.baseline())).findFirst().orElse(null);
		List<Placed[]> toBase = new ArrayList<>();
		List<Placed[]> pairs = new ArrayList<>();
		for (int i = 0; i < placed.size(); i++) {
			for (int j = i + 1; j < placed.size(); j++) {
				pairs.add(new Placed[] { placed.get(j), placed.get(i) });
			}
			if (base != null && placed.get(i) != base) {
				toBase.add(new Placed[] { placed.get(i), base });
			}
		}
		return new SearchSummary(record, List.copyOf(entries), ratios(toBase, entries, record.costs(), prior, record.twin()),
				ratios(pairs, entries, record.costs(), prior, record.twin()));
	}

	/** One family of ratios (to the baseline, or every pair), their JVM level pooled within the family. */
	private static List<Ratio> ratios(List<Placed[]> family, List<EntryResult> entries, SearchCosts costs, VariancePrior prior, String twin) {
		List<List<Tagged>> series = family.stream().map(f -> Placed.ratioTagged(f[0], f[1], f[0].elasticity().value(), f[1].elasticity().value())).toList();
		// A ratio's two JVMs move it independently, and so do its two variants' runs: its priors are the sums of its variants'.
		// An A/A twin and its baseline are one variant in one run: a shift of the whole run moves both, and none is in their ratio.
		List<Double> runs = family.stream().map(f -> prior.ratioRunVariance(f[0].entry(), f[1].entry(), twin)).toList();
		List<Interval> intervals = JvmLevels.intervals(series, family.stream().map(f -> prior.variance(f[0].entry()) + prior.variance(f[1].entry())).toList(),
				runs, prior);
		List<Ratio> ratios = new ArrayList<>();
		for (int i = 0; i < family.size(); i++) {
			Placed a = family.get(i)[0];
			Placed b = family.get(i)[1];
			Interval interval = intervals.get(i);
			if (interval.n() > 0) {
				double mean = Placed.meanOfUnits(series.get(i));
				double[] moves = { Placed.meanOfUnits(Placed.ratioTagged(a, b, a.elasticity().low(), b.elasticity().value())) - mean,
						Placed.meanOfUnits(Placed.ratioTagged(a, b, a.elasticity().high(), b.elasticity().value())) - mean,
						Placed.meanOfUnits(Placed.ratioTagged(a, b, a.elasticity().value(), b.elasticity().low())) - mean,
						Placed.meanOfUnits(Placed.ratioTagged(a, b, a.elasticity().value(), b.elasticity().high())) - mean };
				double upA = Math.max(0, Math.max(moves[0], moves[1]));
				double downA = Math.max(0, -Math.min(moves[0], moves[1]));
				double upB = Math.max(0, Math.max(moves[2], moves[3]));
				double downB = Math.max(0, -Math.min(moves[2], moves[3]));
				interval = interval.widened(Math.hypot(downA, downB), Math.hypot(upA, upB));
				// A crossing bounded by a wall widens the ratio as it widened the capacity.
				Interval ca = entry(entries, a.entry()).capacity();
				Interval cb = entry(entries, b.entry()).capacity();
				if ((a.walled(a.elasticity().value()) || b.walled(b.elasticity().value())) && ca.hasSpread() && cb.hasSpread()) {
					double est = interval.estimate();
					interval = interval.spanning(est * (ca.low() / ca.estimate()) / (cb.high() / cb.estimate()),
							est * (ca.high() / ca.estimate()) / (cb.low() / cb.estimate()));
				}
			}
			List<Double> perRound = series.get(i).stream().map(t -> Math.exp(t.log())).toList();
			ratios.add(new Ratio(a.entry(), b.entry(), perRound, interval, Sizing.of(interval, costs, entries.size(), prior.jvmTerm() ? runs.get(i) : 0)));
		}
		return List.copyOf(ratios);
	}

	/**
	 * Where the search should place an entry's next refining probe around: its capacity so far, else its bracket's
	 * crossing (interpolated between the last probes at its met and missed loads); NaN without either.
	 */
	public static double estimate(SearchRecord record, String entry) {
		EntryResult result = of(record).entry(entry);
		if (result != null && result.capacity().n() > 0) {
			return result.capacity().estimate();
		}
		BracketFound found = record.brackets().get(entry);
		if (found == null || found.capacity() == 0 || found.firstMissed() == 0) {
			return Double.NaN;
		}
		RoundProbe met = lastAt(record.probes(), entry, found.capacity());
		RoundProbe missed = lastAt(record.probes(), entry, found.firstMissed());
		return (met == null || missed == null) ? (found.capacity() + found.firstMissed()) / 2.0 : Crossing.between(met, missed, record.settings().targetMs());
	}

	private static RoundProbe lastAt(List<RoundProbe> probes, String entry, int load) {
		RoundProbe last = null;
		for (RoundProbe p : probes) {
			if (p.entry().equals(entry) && p.load() == load) {
				last = p;
			}
		}
		return last;
	}

	/** The A/A twin's ratio to the baseline: the run's noise floor; null without a twin. */
	public Ratio noiseFloor() {
		return this.ratios.stream().filter(r -> r.entry().equals(this.record.twin())).findFirst().orElse(null);
	}

	/** The entry's result by name. */
	public EntryResult entry(String entry) {
		return entry(this.entries, entry);
	}

	private static EntryResult entry(List<EntryResult> entries, String entry) {
		return entries.stream().filter(e -> e.entry().equals(entry)).findFirst().orElse(null);
	}

	private static String number(int value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

}
