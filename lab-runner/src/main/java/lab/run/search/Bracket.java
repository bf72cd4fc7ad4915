package lab.run.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.search.BracketFound;
import lab.analyse.search.RoundProbe;

/**
 * Brackets a variant's knee within a latency target, one probe at a time: from {@code start}, it steps the load up by
 * {@code step} while each probe meets the target (up to {@code max}) and down by it while each misses, then halves the
 * gap between the highest load that met it and the lowest that did not, until that gap is at most
 * {@code resolutionPercent} of the lower one. Every probe is an ordinary judged level. A probe that broke the service
 * (FAILED) or missed the target bounds the search from above; an INVALID probe is run once more and, INVALID again, is
 * never a bound: the search stops there and says why.
 */
public final class Bracket {

	private final int start;

	private final int max;

	private final double resolutionPercent;

	private final double step;

	private final List<RoundProbe> probes = new ArrayList<>();

	private BracketFound found;

	public Bracket(int start, int max, double resolutionPercent) {
		this(start, max, resolutionPercent, 2);
	}

	public Bracket(int start, int max, double resolutionPercent, double step) {
		if (start < 1 || max < start || !(resolutionPercent > 0) || !(step > 1)) {
			throw new IllegalArgumentException("a capacity search needs 1 <= start <= max, a resolution > 0% and a step > 1");
		}
		this.start = start;
		this.max = max;
		this.resolutionPercent = resolutionPercent;
		this.step = step;
	}

	/** Records a probe's judgment. */
	public void record(RoundProbe probe) {
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
		RoundProbe last = this.probes.get(this.probes.size() - 1);
		int lo = RoundProbe.highestMet(this.probes);
		int hi = RoundProbe.lowestMissed(this.probes);
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
			return OptionalInt.of(Math.min(this.max, (int) Math.round(this.step * lo)));
		}
		if (lo == 0) {
			int lower = (int) Math.round(hi / this.step);
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
	public BracketFound found() {
		return this.found;
	}

	public List<RoundProbe> probes() {
		return List.copyOf(this.probes);
	}

	private OptionalInt stop(int capacity, int missed, boolean atLeast, String why) {
		this.found = new BracketFound(capacity, missed, atLeast, why);
		return OptionalInt.empty();
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
