package lab.analyse.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

import lab.analyse.LevelResult;
import lab.analyse.LevelResult.Verdict;

/**
 * Finds a variant's capacity within a latency target, one probe at a time: from {@code start}, it doubles the load
 * while each probe meets the target (up to {@code max}), then halves the gap between the highest load that met it and
 * the lowest that did not, until that gap is at most {@code resolutionPercent} of the lower one. Every probe is an
 * ordinary judged level. A probe that broke the service (FAILED) or missed the target bounds the search from above;
 * an INVALID probe is run once more and, INVALID again, is never a bound: the search stops there and says why.
 */
public final class CapacitySearch {

	/** One probe as judged: its load, verdict, whether it met the target, and its first reason. */
	public record Probe(int load, Verdict verdict, Boolean meets, String reason) {

		public static Probe of(LevelResult level) {
			return new Probe(level.load(), level.verdict(), level.meetsTarget(), level.reasons().isEmpty() ? "" : level.reasons().get(0));
		}

	}

	/**
	 * What the search found.
	 *
	 * @param capacity the highest load that met the target (0: none did, down to the smallest probed)
	 * @param firstMissed the lowest load that did not (0: none, up to {@code max})
	 * @param atLeast the capacity is a lower bound: the search could not go higher ({@code why})
	 * @param why in words: the resolution reached, the planned maximum, a load the harness could not measure
	 */
	public record Found(int capacity, int firstMissed, boolean atLeast, String why) {
	}

	private final int start;

	private final int max;

	private final double resolutionPercent;

	private final List<Probe> probes = new ArrayList<>();

	private Found found;

	public CapacitySearch(int start, int max, double resolutionPercent) {
		if (start < 1 || max < start || !(resolutionPercent > 0)) {
			throw new IllegalArgumentException("a capacity search needs 1 <= start <= max and a resolution > 0%");
		}
		this.start = start;
		this.max = max;
		this.resolutionPercent = resolutionPercent;
	}

	/** Records a probe's judgment. */
	public void record(Probe probe) {
		this.probes.add(probe);
	}

	/** The load to probe next, or empty when the search is over ({@link #found}). */
	public OptionalInt next() {
		if (this.found != null) {
			return OptionalInt.empty();
		}
		if (this.probes.isEmpty()) {
			return OptionalInt.of(this.start);
		}
		Probe last = this.probes.get(this.probes.size() - 1);
		int lo = highestMet(this.probes);
		int hi = lowestMissed(this.probes);
		if (last.verdict() == Verdict.INVALID || last.verdict() == Verdict.INTERRUPTED) {
			long tries = this.probes.stream().filter(p -> p.load() == last.load() && p.verdict() == last.verdict()).count();
			if (last.verdict() == Verdict.INVALID && tries < 2) {
				return OptionalInt.of(last.load());
			}
			return stop(lo, hi, true, String.format(Locale.ROOT, "%s twice at %,d, never a bound: %s", last.verdict(), last.load(), last.reason()));
		}
		if (hi == 0) {
			if (lo >= this.max) {
				return stop(lo, 0, true, String.format(Locale.ROOT, "met at the planned maximum, %,d", this.max));
			}
			return OptionalInt.of(Math.min(this.max, 2 * lo));
		}
		if (lo == 0) {
			int lower = hi / 2;
			if (lower < 1 || lower < this.start / 8) {
				return stop(0, hi, false, String.format(Locale.ROOT, "missed down to %,d", hi));
			}
			return OptionalInt.of(lower);
		}
		if (hi - lo <= Math.max(1, this.resolutionPercent / 100 * lo)) {
			return stop(lo, hi, false, String.format(Locale.ROOT, "between %,d (met) and %,d (missed): within %s%%", lo, hi,
					number(this.resolutionPercent)));
		}
		return OptionalInt.of(round(lo + (hi - lo) / 2, lo, hi));
	}

	/** What the search found, once {@link #next} is empty; null before. */
	public Found found() {
		return this.found;
	}

	public List<Probe> probes() {
		return List.copyOf(this.probes);
	}

	private OptionalInt stop(int capacity, int missed, boolean atLeast, String why) {
		this.found = new Found(capacity, missed, atLeast, why);
		return OptionalInt.empty();
	}

	/**
	 * The highest load that met the target below every load that did not (OK and within it): the capacity, for a
	 * search and for a report's "within the target" line alike.
	 */
	public static int highestMet(List<Probe> probes) {
		int hi = lowestMissed(probes);
		return probes.stream().filter(p -> Boolean.TRUE.equals(p.meets()) && (hi == 0 || p.load() < hi)).mapToInt(Probe::load).max().orElse(0);
	}

	/** The lowest load that did not meet it: FAILED, or OK outside the target. INVALID and INTERRUPTED probes bound nothing. */
	public static int lowestMissed(List<Probe> probes) {
		return probes.stream().filter(p -> p.verdict() == Verdict.FAILED || (p.verdict() == Verdict.OK && Boolean.FALSE.equals(p.meets())))
			.mapToInt(Probe::load).min().orElse(0);
	}

	/** A probe between lo and hi on a round step (a tenth of the gap's order of magnitude), strictly inside. */
	private static int round(int middle, int lo, int hi) {
		int step = (int) Math.pow(10, Math.max(0, Math.floor(Math.log10(Math.max(1, hi - lo))) - 1));
		int rounded = Math.round((float) middle / step) * step;
		return (rounded > lo && rounded < hi) ? rounded : middle;
	}

	private static String number(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
	}

}
