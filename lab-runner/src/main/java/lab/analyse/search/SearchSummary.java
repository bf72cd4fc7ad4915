package lab.analyse.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import lab.analyse.search.CapacitySearch.Found;

/**
 * What an interleaved search found: each entry's capacity as a crossing with its interval over the counted rounds, its
 * bracket, and each entry's capacity relative to the baseline within each round (the ratio of two crossings of one
 * round: the host's drift of that round falls on both), summarised over rounds with a bootstrap interval. A ratio whose
 * interval holds 1 cannot be told apart on this run; the A/A twin's ratio is the run's own noise floor.
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
	 * @param slope d ln(latency) / d ln(load) near its knee (an elasticity; the prior 1 when too few probes fit one)
	 * @param crossings its crossing in each counted round, in round order (NaN where that round placed none: no probe
	 * of it within twice the target and off the floor)
	 * @param capacity their geometric mean and interval
	 * @param ended why its search ended early, null when it did not
	 */
	public record EntryResult(String entry, Found bracket, double slope, List<Double> crossings, Interval capacity, String ended) {

		/** "2,310 users (2,200-2,420, 3 rounds; bracket 2,000-2,500)". */
		public String describe(String unit) {
			String bracketText = (this.bracket == null) ? "no bracket"
					: (this.bracket.capacity() == 0 && this.bracket.firstMissed() == 0) ? "not found: " + this.bracket.why()
					: (this.bracket.capacity() == 0) ? "none met, missed at " + number(this.bracket.firstMissed())
					+ " " + unit : (this.bracket.firstMissed() == 0) ? "at least " + number(this.bracket.capacity()) + " " + unit + " (" + this.bracket.why() + ")"
							: "bracket " + number(this.bracket.capacity()) + "-" + number(this.bracket.firstMissed());
			if (this.capacity.n() == 0) {
				return bracketText + ((this.ended != null) ? "; ended: " + this.ended : "");
			}
			return this.capacity.asLoad().replaceFirst("^([0-9,]+)", "$1 " + unit) + "; " + bracketText;
		}

	}

	/**
	 * @param entry the entry measured
	 * @param baseline the entry it is relative to
	 * @param perRound the ratio in each round both placed a crossing in
	 * @param interval their geometric mean and interval
	 */
	public record Ratio(String entry, String baseline, List<Double> perRound, Interval interval) {

		/** Whether the interval rests on two rounds or more and holds 1: the two cannot be told apart on this run. */
		public boolean unresolved() {
			return !this.interval.hasSpread() || this.interval.holds(1.0);
		}

		/** The interval's half-width in percent of the estimate (its upper side, the wider on a log scale); NaN under two rounds. */
		public double precisionPercent() {
			return this.interval.hasSpread() ? 100 * (this.interval.high() / this.interval.estimate() - 1) : Double.NaN;
		}

		/** "0.62 (0.58-0.66, 3 rounds)" or "≈ 1.03 (0.94-1.12, 3 rounds): cannot be told apart". */
		public String describe() {
			if (this.interval.n() == 0) {
				return "no round placed both";
			}
			if (!this.interval.hasSpread()) {
				return this.interval.asRatio() + ": one round, cannot be told apart";
			}
			return (this.interval.holds(1.0) ? "≈ " : "") + this.interval.asRatio() + (this.interval.holds(1.0) ? ": cannot be told apart on this run" : "");
		}

	}

	/** A knee this flat or flatter is named as a reason a ratio is imprecise: p99's wobble moves its crossing 1.25 times as far or more. */
	static final double FLAT_SLOPE = 0.8;

	public static SearchSummary of(SearchRecord record) {
		double target = record.settings().targetMs();
		List<EntryResult> entries = new ArrayList<>();
		for (String entry : record.entries()) {
			List<RoundProbe> own = record.probes().stream().filter(p -> p.entry().equals(entry)).toList();
			double slope = slope(own, record.probes(), record.brackets().get(entry), entry, target, record.settings().floorMs());
			double[] crossings = roundCrossings(entry, record.probes(), record.rounds(), slope, target, record.settings().floorMs());
			entries.add(new EntryResult(entry, record.brackets().get(entry), slope, java.util.Arrays.stream(crossings).boxed().toList(),
					Interval.ofGeometricMean(crossings), record.ended().get(entry)));
		}
		List<Round> counted = record.rounds().stream().filter(Round::counts).toList();
		List<Ratio> ratios = new ArrayList<>();
		List<Ratio> pairs = new ArrayList<>();
		EntryResult base = entries.stream().filter(e -> e.entry().equals(record.baseline())).findFirst().orElse(null);
		for (int i = 0; i < entries.size(); i++) {
			for (int j = i + 1; j < entries.size(); j++) {
				pairs.add(ratio(entries.get(j), entries.get(i), counted.size()));
			}
			if (base != null && entries.get(i) != base) {
				ratios.add(ratio(entries.get(i), base, counted.size()));
			}
		}
		return new SearchSummary(record, List.copyOf(entries), List.copyOf(ratios), List.copyOf(pairs));
	}

	/**
	 * The entry's elasticity near its knee: fitted from its probes, else from its bracket's met and missed probes, else
	 * the prior ({@link Crossing#PRIOR}).
	 */
	static double slope(List<RoundProbe> own, List<RoundProbe> all, Found bracket, String entry, double targetMs, double floorMs) {
		double fitted = Crossing.slope(own, targetMs, floorMs);
		if (fitted > 0) {
			return fitted;
		}
		if (bracket != null && bracket.capacity() > 0 && bracket.firstMissed() > 0) {
			RoundProbe met = last(entry, all, bracket.capacity());
			RoundProbe missed = last(entry, all, bracket.firstMissed());
			if (met != null && missed != null && met.measured() && missed.measured() && missed.latencyMs() > met.latencyMs()) {
				return Math.log(missed.latencyMs() / met.latencyMs()) / Math.log((double) missed.load() / met.load());
			}
		}
		return Crossing.PRIOR;
	}

	/**
	 * Which ratios this run resolved to ±5% (their interval's half-width) and which it did not, with theirs: "within ±5%:
	 * a, b; wider: c ±12%, d (one round)". A whole run again gives every variant fresh JVMs, which no round of this run
	 * sees: `./lab compare` of repeated runs says whether they reproduce.
	 */
	public String precision() {
		double bound = BetweenRuns.AGREE_PERCENT;
		List<String> within = new ArrayList<>();
		List<String> wider = new ArrayList<>();
		java.util.Set<String> involved = new java.util.LinkedHashSet<>();
		for (Ratio ratio : this.ratios) {
			double percent = ratio.precisionPercent();
			if (ratio.interval().n() == 0) {
				continue;
			}
			if (Double.isNaN(percent) || percent > bound) {
				involved.add(ratio.baseline());
				involved.add(ratio.entry());
			}
			if (Double.isNaN(percent)) {
				wider.add(ratio.entry() + " (one round)");
			}
			else if (percent <= bound) {
				within.add(ratio.entry() + String.format(Locale.ROOT, " ±%.1f%%", percent));
			}
			else {
				wider.add(ratio.entry() + String.format(Locale.ROOT, " ±%.0f%%", Math.ceil(percent)));
			}
		}
		if (within.isEmpty() && wider.isEmpty()) {
			return null;
		}
		// Why a crossing is imprecise: where p99 rises slowly with load, p99's own wobble moves the crossing 1/slope times as far.
		List<String> flat = this.entries.stream().filter(e -> involved.contains(e.entry()) && e.slope() > 0 && e.slope() < FLAT_SLOPE)
			.map(e -> String.format(Locale.ROOT, "%s %.2f (a 5%% wobble of p99 moves its crossing %.0f%%)", e.entry(), e.slope(), 5 / e.slope())).toList();
		String why = flat.isEmpty() ? "" : "; flat knees (p99's rise per 1% more load near the crossing): " + String.join(", ", flat);
		return String.format(Locale.ROOT, "Ratios this run resolved to ±%.0f%% (their interval's half-width): %s; wider: %s%s. Fresh JVMs in another run add noise no round of this one sees: repeat the run and `./lab compare` the runs to see whether the ratios reproduce",
				bound, within.isEmpty() ? "none" : String.join(", ", within), wider.isEmpty() ? "none" : String.join(", ", wider), why);
	}

	/** The A/A twin's ratio to the baseline: the run's noise floor; null without a twin. */
	public Ratio noiseFloor() {
		return this.ratios.stream().filter(r -> r.entry().equals(this.record.twin())).findFirst().orElse(null);
	}

	/** The entry's result by name. */
	public EntryResult entry(String entry) {
		return this.entries.stream().filter(e -> e.entry().equals(entry)).findFirst().orElse(null);
	}

	private static Ratio ratio(EntryResult entry, EntryResult base, int rounds) {
		List<Double> perRound = new ArrayList<>();
		for (int r = 0; r < rounds; r++) {
			double a = entry.crossings().get(r);
			double b = base.crossings().get(r);
			if (a > 0 && b > 0 && Double.isFinite(a) && Double.isFinite(b)) {
				perRound.add(a / b);
			}
		}
		return new Ratio(entry.entry(), base.entry(), List.copyOf(perRound),
				Interval.ofGeometricMean(perRound.stream().mapToDouble(Double::doubleValue).toArray()));
	}

	/**
	 * The entry's crossing in each counted round (its reference held), in round order: the geometric mean of the
	 * crossings its probes of that round placed with its slope ({@link Crossing#at}); NaN where none did.
	 */
	static double[] roundCrossings(String entry, List<RoundProbe> probes, List<Round> rounds, double slope, double targetMs, double floorMs) {
		List<Round> counted = rounds.stream().filter(Round::counts).toList();
		List<RoundProbe> own = probes.stream().filter(p -> p.entry().equals(entry)).toList();
		double[] crossings = new double[counted.size()];
		for (int r = 0; r < counted.size(); r++) {
			int index = counted.get(r).index();
			double[] logs = own.stream().filter(p -> p.round() == index).mapToDouble(p -> crossing(p, own, slope, targetMs, floorMs))
				.filter(c -> c > 0).map(Math::log).toArray();
			crossings[r] = (logs.length == 0) ? Double.NaN : Math.exp(java.util.Arrays.stream(logs).average().orElseThrow());
		}
		return crossings;
	}

	/**
	 * A probe's crossing ({@link Crossing#at}), placed against its nearest neighbour on the other side of the target
	 * when the entry has one: a met probe towards the lowest load above it that missed, a missed one towards the highest
	 * load below it that met (interpolated between the two in log latency against log load, {@link Crossing#between};
	 * with the slope when that neighbour broke and has no latency), and never beyond that neighbour's load. A knee can be
	 * a cliff (a heap filling up: p99 772 ms at 1,120 users, 4.6 s at 1,500) that a slope fitted below it cannot see.
	 */
	static double crossing(RoundProbe probe, List<RoundProbe> own, double slope, double targetMs, double floorMs) {
		double alone = Crossing.at(probe, slope, targetMs, floorMs);
		if (Double.isNaN(alone)) {
			return alone;
		}
		boolean met = probe.latencyMs() <= targetMs;
		RoundProbe neighbour = null;
		for (RoundProbe other : own) {
			boolean otherMissed = other.verdict() == lab.analyse.LevelResult.Verdict.FAILED || (other.measured() && other.latencyMs() > targetMs);
			boolean otherMet = other.measured() && other.latencyMs() <= targetMs;
			if (met && otherMissed && other.load() > probe.load() && (neighbour == null || other.load() < neighbour.load())) {
				neighbour = other;
			}
			if (!met && otherMet && other.load() < probe.load() && (neighbour == null || other.load() > neighbour.load())) {
				neighbour = other;
			}
		}
		if (neighbour == null) {
			return alone;
		}
		if (neighbour.measured()) {
			return met ? Crossing.between(probe, neighbour, targetMs) : Crossing.between(neighbour, probe, targetMs);
		}
		return met ? Math.min(alone, neighbour.load()) : Math.max(alone, neighbour.load());
	}

	/** The bracket's crossing: interpolated between the last probes at its met and missed loads; NaN without both. */
	static double bracketCrossing(String entry, List<RoundProbe> probes, Found found, double targetMs) {
		if (found == null || found.capacity() == 0 || found.firstMissed() == 0) {
			return Double.NaN;
		}
		RoundProbe met = last(entry, probes, found.capacity());
		RoundProbe missed = last(entry, probes, found.firstMissed());
		return (met == null || missed == null) ? (found.capacity() + found.firstMissed()) / 2.0 : Crossing.between(met, missed, targetMs);
	}

	private static RoundProbe last(String entry, List<RoundProbe> probes, int load) {
		RoundProbe last = null;
		for (RoundProbe p : probes) {
			if (p.entry().equals(entry) && p.load() == load) {
				last = p;
			}
		}
		return last;
	}

	private static String number(int value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

}
