package lab.analyse.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;

import lab.analyse.search.Round.Kind;

/**
 * Capacity searches of several entries (variants in their arms) at once, round by round (Randomized Multiple
 * Interleaved Trials): every entry is started and warmed once and kept alive; each round probes every entry still
 * searching once, in a freshly shuffled order, so a drift of the host falls on every entry of a round alike. First
 * bracket rounds ({@link CapacitySearch} to a coarse resolution) locate each knee; then {@code rounds} refining rounds
 * probe each entry just below or just above its estimate (alternately), and each of those probes places a crossing
 * ({@link Crossing}). A round whose CPU reference moved beyond the threshold is marked and run again. A probe that
 * broke an entry's JVM gets it a fresh one before its next probe; the others' searches go on untouched.
 */
public final class InterleavedSearch {

	/**
	 * @param start the first bracket probe's load
	 * @param max the bracket's planned maximum
	 * @param bracketPercent the bracket stops when its met and missed loads are this close
	 * @param rounds refining rounds
	 * @param spreadPercent a refining probe's distance below or above the estimate
	 * @param referenceMovedPercent a round whose reference is this far from the run's median so far is marked and run again
	 * @param maxReruns how many rounds may be run again in all (a host that keeps moving is said, not chased)
	 * @param seed the shuffles' seed (recorded: the order can be replayed)
	 * @param targetMs the latency target's bound, ms
	 * @param floorMs the latency no load goes below (the downstream's delay): probes near it are off the knee
	 */
	public record Settings(int start, int max, double bracketPercent, int rounds, double spreadPercent, double referenceMovedPercent, int maxReruns,
			long seed, double targetMs, double floorMs) {
	}

	/** What the search asks of the run: probes, fresh JVMs, the reference, and a place to keep what it found. */
	public interface Lab {

		/** Runs one probe, the {@code position}th of {@code of} in its round; null when the run cannot go on (interrupted, the downstream died): the search ends there. */
		Outcome probe(String entry, int load, int round, int position, int of) throws IOException, InterruptedException;

		/** A fresh JVM for an entry whose last probe broke its own; false when none could be had (that entry's search ends). */
		boolean restart(String entry) throws IOException, InterruptedException;

		/** The CPU reference timed on the service's core, with the host's steal counters read at that moment. */
		Reference reference() throws IOException, InterruptedException;

		/** After every probe and round: the search so far, to be written as it is produced. */
		void progress(InterleavedSearch search) throws IOException;

		void say(String line);

		/** Seconds left of the run's time budget for its search (infinite: none); no refining round starts that would pass it. */
		default double secondsLeft() {
			return Double.POSITIVE_INFINITY;
		}

	}

	/** A probe as judged, and whether it left its JVM broken (FAILED, or dead). */
	public record Outcome(RoundProbe probe, boolean broken) {
	}

	/** The reference's time in ms (NaN: could not be timed) and the host's steal and total CPU ticks at that moment. */
	public record Reference(double ms, long stealTicks, long totalTicks) {
	}

	private final List<String> entries;

	private final Settings settings;

	private final Random random;

	private final Map<String, CapacitySearch> brackets = new LinkedHashMap<>();

	private final List<RoundProbe> probes = new ArrayList<>();

	private final List<Round> rounds = new ArrayList<>();

	private final List<Double> references = new ArrayList<>();

	private final Set<String> broken = new HashSet<>();

	private final Map<String, String> ended = new LinkedHashMap<>();

	private boolean stopped;

	/** How long each probe took, by the budget's clock (fresh JVMs' starts apart). */
	private final List<Double> probeSeconds = new ArrayList<>();

	/** What a fresh JVM's start and warm-up take, as the budget counts it (90-120 s on the development machine). */
	static final double RESTART_ALLOWANCE_SECONDS = 120;

	/** A round's own time beyond its probes: the CPU reference timed before and after it. */
	static final double ROUND_OVERHEAD_SECONDS = 10;

	public InterleavedSearch(List<String> entries, Settings settings) {
		if (entries.isEmpty() || entries.stream().distinct().count() != entries.size()) {
			throw new IllegalArgumentException("an interleaved search needs distinct entries, got " + entries);
		}
		this.entries = List.copyOf(entries);
		this.settings = settings;
		this.random = new Random(settings.seed());
		for (String entry : entries) {
			this.brackets.put(entry, new CapacitySearch(settings.start(), settings.max(), settings.bracketPercent()));
		}
	}

	/** An entry that could not be started or admitted: it takes no probe. */
	public void exclude(String entry, String why) {
		this.ended.put(entry, why);
	}

	/** Runs the bracket rounds, then the refining rounds, until done or the lab says the run cannot go on. */
	public void run(Lab lab) throws IOException, InterruptedException {
		while (!this.stopped) {
			Map<String, Integer> loads = new LinkedHashMap<>();
			for (String entry : searching()) {
				OptionalInt next = this.brackets.get(entry).next();
				if (next.isPresent()) {
					loads.put(entry, next.getAsInt());
				}
			}
			if (loads.isEmpty()) {
				break;
			}
			runRound(lab, Kind.BRACKET, loads, null);
		}
		int reruns = 0;
		for (int k = 1; k <= this.settings.rounds() && !this.stopped; k++) {
			Map<String, Integer> loads = new LinkedHashMap<>();
			for (String entry : searching()) {
				CapacitySearch.Found found = this.brackets.get(entry).found();
				if (found != null && found.capacity() > 0 && found.firstMissed() > 0) {
					loads.put(entry, refineLoad(entry, k));
				}
			}
			if (loads.isEmpty()) {
				break;
			}
			if (outOfTime(lab, loads.size(), "before refining round " + k, loads.keySet())) {
				break;
			}
			Round round = runRound(lab, Kind.REFINE, loads, null);
			while (round != null && round.moved() && reruns < this.settings.maxReruns() && !this.stopped) {
				if (outOfTime(lab, loads.size(), "before running round " + round.index() + " again", loads.keySet())) {
					break;
				}
				reruns++;
				lab.say(String.format(Locale.ROOT, "lab: round %d's CPU reference moved (%s ms before, %s after, run median %s): marked, running it again",
						round.index(), ms(round.referenceBeforeMs()), ms(round.referenceAfterMs()), ms(median(this.references))));
				round = runRound(lab, Kind.REFINE, loads, round.index());
			}
			if (round != null && round.moved() && !this.stopped) {
				lab.say("lab: round " + round.index() + "'s CPU reference moved again; no re-runs left (" + this.settings.maxReruns()
						+ "): it stays marked and unused");
			}
		}
	}

	/**
	 * Whether the run's time budget has no room for another refining round of {@code probes} probes, each as long as
	 * the median probe so far (a fresh JVM's start is not counted: it is the exception), and {@value #ROUND_OVERHEAD_SECONDS}
	 * s for the round's CPU references: then the search ends here, said, and every entry still searching records why.
	 */
	private boolean outOfTime(Lab lab, int probes, String where, java.util.Collection<String> searching) {
		double left = lab.secondsLeft();
		double probe = median(this.probeSeconds);
		if (Double.isInfinite(left) || Double.isNaN(probe)) {
			return false;
		}
		double roundSeconds = probes * probe + ROUND_OVERHEAD_SECONDS;
		if (left >= roundSeconds) {
			return false;
		}
		String why = String.format(Locale.ROOT, "the run's time budget left %.0f s, less than a refining round (about %.0f s: %d probes of %.0f s); refining stopped %s",
				Math.max(0, left), roundSeconds, probes, probe, where);
		lab.say("lab: " + why);
		searching.forEach(entry -> this.ended.putIfAbsent(entry, why));
		this.stopped = true;
		return true;
	}

	/** The entries still searching, in the run's order. */
	private List<String> searching() {
		return this.entries.stream().filter(entry -> !this.ended.containsKey(entry)).toList();
	}

	/** One round: the reference, each entry's probe in a fresh random order (a broken JVM replaced first), the reference. */
	private Round runRound(Lab lab, Kind kind, Map<String, Integer> loads, Integer rerunOf) throws IOException, InterruptedException {
		int index = this.rounds.size() + 1;
		List<String> order = new ArrayList<>(loads.keySet());
		Collections.shuffle(order, this.random);
		Reference before = lab.reference();
		List<String> ran = new ArrayList<>();
		for (int i = 0; i < order.size() && !this.stopped; i++) {
			String entry = order.get(i);
			if (this.broken.contains(entry)) {
				double room = lab.secondsLeft() - (order.size() - i) * median(this.probeSeconds);
				if (kind == Kind.REFINE && room < RESTART_ALLOWANCE_SECONDS) {
					// A fresh JVM's start and warm-up would carry the round past the budget: this entry sits the round out.
					lab.say(String.format(Locale.ROOT, "lab: %s needs a fresh JVM, but the run's time budget leaves %.0f s beyond this round's probes (a start "
							+ "takes about %.0f s): it sits round %d out", entry, Math.max(0, room), RESTART_ALLOWANCE_SECONDS, index));
					continue;
				}
				if (!lab.restart(entry)) {
					this.ended.put(entry, "no fresh JVM could be had after its probe broke the last one");
					continue;
				}
				this.broken.remove(entry);
			}
			double left = lab.secondsLeft();
			Outcome outcome = lab.probe(entry, loads.get(entry), index, i + 1, order.size());
			double took = left - lab.secondsLeft();
			if (Double.isFinite(took)) {
				this.probeSeconds.add(took);
			}
			if (outcome == null) {
				this.stopped = true;
				break;
			}
			ran.add(entry);
			this.probes.add(outcome.probe());
			if (kind == Kind.BRACKET) {
				this.brackets.get(entry).record(outcome.probe().bracketProbe());
			}
			if (outcome.broken()) {
				this.broken.add(entry);
			}
			lab.progress(this);
		}
		if (this.stopped && ran.isEmpty()) {
			return null;
		}
		Reference after = lab.reference();
		double median = median(this.references);
		boolean moved = moved(before.ms(), median) || moved(after.ms(), Double.isNaN(median) ? before.ms() : median);
		this.references.add(before.ms());
		this.references.add(after.ms());
		long total = after.totalTicks() - before.totalTicks();
		Double steal = (total > 0) ? 100.0 * (after.stealTicks() - before.stealTicks()) / total : null;
		Round round = new Round(index, kind, ran, finite(before.ms()), finite(after.ms()), steal, moved, rerunOf);
		this.rounds.add(round);
		lab.progress(this);
		return this.stopped ? null : round;
	}

	private boolean moved(double ms, double median) {
		return Double.isFinite(ms) && Double.isFinite(median) && median > 0 && 100 * Math.abs(ms / median - 1) > this.settings.referenceMovedPercent();
	}

	/** Refining round k's load: alternately just below and just above the estimate, on three significant digits. */
	private int refineLoad(String entry, int k) {
		double estimate = estimate(entry);
		double factor = (k % 2 == 1) ? 1 - this.settings.spreadPercent() / 100 : 1 + this.settings.spreadPercent() / 100;
		double load = Math.max(1, estimate * factor);
		double step = Math.pow(10, Math.max(0, Math.floor(Math.log10(load)) - 2));
		return (int) Math.max(1, Math.round(load / step) * step);
	}

	/** The current estimate: the counted rounds' crossings so far, else the bracket's interpolated crossing. */
	double estimate(String entry) {
		double slope = SearchSummary.slope(probesOf(entry), this.probes, this.brackets.get(entry).found(), entry, this.settings.targetMs(),
				this.settings.floorMs());
		double[] crossings = SearchSummary.roundCrossings(entry, this.probes, this.rounds, slope, this.settings.targetMs(), this.settings.floorMs());
		Interval interval = Interval.ofGeometricMean(crossings);
		if (interval.n() > 0) {
			return interval.estimate();
		}
		return SearchSummary.bracketCrossing(entry, this.probes, this.brackets.get(entry).found(), this.settings.targetMs());
	}

	private List<RoundProbe> probesOf(String entry) {
		return this.probes.stream().filter(p -> p.entry().equals(entry)).toList();
	}

	public List<String> entries() {
		return this.entries;
	}

	public Settings settings() {
		return this.settings;
	}

	public List<RoundProbe> probes() {
		return List.copyOf(this.probes);
	}

	public List<Round> rounds() {
		return List.copyOf(this.rounds);
	}

	/** Each entry's bracket as found so far (null: still bracketing). */
	public Map<String, CapacitySearch.Found> brackets() {
		Map<String, CapacitySearch.Found> found = new LinkedHashMap<>();
		this.brackets.forEach((entry, search) -> found.put(entry, search.found()));
		return found;
	}

	/** Entries whose search ended early, and why. */
	public Map<String, String> ended() {
		return Map.copyOf(this.ended);
	}

	private static double median(List<Double> values) {
		double[] finite = values.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().toArray();
		if (finite.length == 0) {
			return Double.NaN;
		}
		return (finite.length % 2 == 1) ? finite[finite.length / 2] : (finite[finite.length / 2 - 1] + finite[finite.length / 2]) / 2;
	}

	private static Double finite(double value) {
		return Double.isFinite(value) ? value : null;
	}

	private static String ms(Double value) {
		return (value == null || !Double.isFinite(value)) ? "-" : String.format(Locale.ROOT, "%.1f", value);
	}

}
