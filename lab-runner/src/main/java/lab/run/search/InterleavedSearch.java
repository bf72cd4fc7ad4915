package lab.run.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;

import lab.analyse.search.BracketFound;
import lab.analyse.search.Round;
import lab.analyse.search.Round.Kind;
import lab.analyse.search.RoundProbe;
import lab.analyse.search.SearchCosts;
import lab.analyse.search.SearchRecord;
import lab.analyse.search.SearchSettings;
import lab.analyse.search.SearchSummary;
import lab.analyse.stat.Stats;
import lab.plan.JvmPlan;

/**
 * Capacity searches of several entries (variants in their arms) at once, round by round (Randomized Multiple
 * Interleaved Trials): every entry is started and warmed and kept alive; each round probes every entry still searching
 * once, in a freshly shuffled order, so a drift of the host falls on every entry of a round alike. First bracket rounds
 * ({@link Bracket} to a coarse resolution, from the last run's crossing on this host when there is one) locate each knee;
 * then {@code rounds} refining rounds probe each entry just below or just above its estimate (alternately). The
 * refining rounds are shared out among each entry's JVMs ({@link JvmPlan}: as many fresh JVMs as {@code jvms} each would
 * start, where they narrow the widest ratio most): before the first round of each share the entry gets a fresh JVM, so
 * the run sees the JVM-to-JVM spread its intervals must hold. A round whose CPU reference moved
 * beyond the threshold is marked and run again. A probe that broke an entry's JVM gets it a fresh one before its next
 * probe; the others' searches go on untouched. No refining round, and no set of fresh JVMs, starts that the time budget
 * has no room for, at the costs measured so far in this run.
 */
public final class InterleavedSearch {

	/** What the search asks of the run: probes, fresh JVMs, the reference, and a place to keep what it found. */
	public interface Prober {

		/**
		 * Runs one probe of the entry's current JVM, the {@code position}th of {@code of} in its round; null when the run
		 * cannot go on (interrupted, the downstream died): the search ends there.
		 */
		Outcome probe(String entry, int load, int round, int position, int of) throws IOException, InterruptedException;

		/**
		 * Replaces the entry's JVM with a fresh one, its {@code jvm}th ({@code planned}: for the next share of rounds, else
		 * because its last probe broke the one before); false when none could be had (that entry's search ends).
		 */
		boolean restart(String entry, int jvm, boolean planned) throws IOException, InterruptedException;

		/** The CPU reference timed on the service's core, with the host's steal counters read at that moment. */
		Reference reference() throws IOException, InterruptedException;

		/** After every probe and round: the search so far, to be written as it is produced. */
		void progress(InterleavedSearch search) throws IOException;

		void say(String line);

		/** Seconds left of the run's time budget for its search (infinite: none). */
		default double secondsLeft() {
			return Double.POSITIVE_INFINITY;
		}

		/**
		 * A clock in seconds, which the search's costs are timed by (where its minutes went): by default the budget's
		 * seconds spent, which a run without a budget must override (its seconds left are all infinite).
		 */
		default double seconds() {
			return -secondsLeft();
		}

		/** What starting and warming the first JVMs took, seconds each (measured before the search began); empty when unknown. */
		default List<Double> startSeconds() {
			return List.of();
		}

	}

	/** A probe as judged (its JVM is filled in by the search), and whether it left its JVM broken (FAILED, or dead). */
	public record Outcome(RoundProbe probe, boolean broken) {
	}

	/** The reference's time in ms (NaN: could not be timed) and the host's steal and total CPU ticks at that moment. */
	public record Reference(double ms, long stealTicks, long totalTicks) {
	}

	private final List<String> entries;

	private final SearchSettings settings;

	private final Random random;

	private final Map<String, Bracket> brackets = new LinkedHashMap<>();

	private final Map<String, Integer> jvms = new HashMap<>();

	private final List<RoundProbe> probes = new ArrayList<>();

	private final List<Round> rounds = new ArrayList<>();

	private final List<Double> references = new ArrayList<>();

	private final Set<String> broken = new HashSet<>();

	private final Map<String, String> ended = new LinkedHashMap<>();

	private boolean stopped;

	/** Which JVM each refining round runs on, and which variants get a fresh one for it. */
	private final RefiningJvms refiningJvms;

	/** What starts, probes and rounds cost in this run so far. */
	private final SearchBudget budget = new SearchBudget();

	/** A search whose ratios are to its first entry. */
	public InterleavedSearch(List<String> entries, SearchSettings settings) {
		this(entries, settings, entries.isEmpty() ? null : entries.get(0));
	}

	/**
	 * A search whose ratios are to {@code baseline} (null: none, as a tune's arms): its fresh JVMs go where they narrow
	 * the widest ratio most ({@link JvmPlan}).
	 */
	public InterleavedSearch(List<String> entries, SearchSettings settings, String baseline) {
		if (entries.isEmpty() || entries.stream().distinct().count() != entries.size()) {
			throw new IllegalArgumentException("an interleaved search needs distinct entries, got " + entries);
		}
		this.entries = List.copyOf(entries);
		this.settings = settings;
		this.refiningJvms = new RefiningJvms(settings, JvmPlan.of(this.entries, baseline, settings.jvmsPerEntry(), settings.rounds(), settings.variancePrior()));
		this.random = new Random(settings.seed());
		for (String entry : entries) {
			this.brackets.put(entry, new Bracket(Math.min(settings.startOf(entry), settings.max()), settings.max(), settings.bracketPercent(),
					settings.step()));
			this.jvms.put(entry, 1);
		}
	}

	/** An entry that could not be started or admitted: it takes no probe. */
	public void exclude(String entry, String why) {
		this.ended.put(entry, why);
	}

	/** Runs the bracket rounds, then the refining rounds with fresh JVMs between their shares, until done or the prober says the run cannot go on. */
	public void run(Prober prober) throws IOException, InterruptedException {
		prober.startSeconds().forEach(this.budget::started);
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
			runRound(prober, Kind.BRACKET, loads, null);
		}
		int reruns = 0;
		for (int k = 1; k <= this.settings.rounds() && !this.stopped; k++) {
			List<String> refining = searching().stream().filter(this::bracketed).toList();
			if (refining.isEmpty()) {
				break;
			}
			Map<String, Integer> fresh = this.refiningJvms.fresh(prober, refining, k, this.jvms, this.budget);
			if (fresh.isEmpty() && outOfTime(prober, this.budget.round(refining.size(), 0),
					String.format(Locale.ROOT, "a refining round (%d probes of %.0f s)", refining.size(), this.budget.probe()), "before refining round " + k,
					refining)) {
				break;
			}
			for (Map.Entry<String, Integer> entry : fresh.entrySet()) {
				restart(prober, entry.getKey(), entry.getValue(), true);
			}
			Map<String, Integer> loads = new LinkedHashMap<>();
			for (String entry : searching().stream().filter(this::bracketed).toList()) {
				loads.put(entry, refineLoad(entry, k));
			}
			if (loads.isEmpty()) {
				break;
			}
			Round round = runRound(prober, Kind.REFINE, loads, null);
			while (round != null && round.moved() && reruns < this.settings.maxReruns() && !this.stopped) {
				if (outOfTime(prober, this.budget.round(loads.size(), 0), "running a marked round again",
						"before running round " + round.index() + " again", loads.keySet())) {
					break;
				}
				reruns++;
				prober.say(String.format(Locale.ROOT, "lab: round %d's CPU reference moved (%s ms before, %s after, run median %s): marked, running it again",
						round.index(), ms(round.referenceBeforeMs()), ms(round.referenceAfterMs()), ms(Stats.median(this.references))));
				round = runRound(prober, Kind.REFINE, loads, round.index());
			}
			if (round != null && round.moved() && !this.stopped) {
				prober.say("lab: round " + round.index() + "'s CPU reference moved again; no re-runs left (" + this.settings.maxReruns()
						+ "): it stays marked and unused");
			}
		}
	}

	private boolean bracketed(String entry) {
		BracketFound found = this.brackets.get(entry).found();
		return found != null && found.capacity() > 0 && found.firstMissed() > 0;
	}

	/**
	 * Whether the run's time budget has no room for {@code seconds} more: then the search ends here, said, and every entry
	 * still searching records why.
	 */
	private boolean outOfTime(Prober prober, double seconds, String what, String where, Collection<String> searching) {
		double left = prober.secondsLeft();
		if (Double.isInfinite(left) || Double.isNaN(seconds) || left >= seconds) {
			return false;
		}
		String why = String.format(Locale.ROOT, "the run's time budget left %.0f s, less than %s (about %.0f s at this run's costs); refining stopped %s",
				Math.max(0, left), what, seconds, where);
		prober.say("lab: " + why);
		searching.forEach(entry -> this.ended.putIfAbsent(entry, why));
		this.stopped = true;
		return true;
	}

	/** How many JVMs each entry runs on. */
	public JvmPlan jvmPlan() {
		return this.refiningJvms.plan();
	}

	/** What a start and a probe cost in this run so far. */
	public SearchCosts costs() {
		return this.budget.costs();
	}

	/** The entries still searching, in the run's order. */
	private List<String> searching() {
		return this.entries.stream().filter(entry -> !this.ended.containsKey(entry)).toList();
	}

	/** A fresh JVM for the entry, its {@code jvm}th, timed by the budget's clock; false (and the entry's search ended) when none could be had. */
	private boolean restart(Prober prober, String entry, int jvm, boolean planned) throws IOException, InterruptedException {
		double began = prober.seconds();
		boolean started = prober.restart(entry, jvm, planned);
		if (planned) {
			this.budget.started(prober.seconds() - began);
		}
		else {
			this.budget.broke(prober.seconds() - began);
		}
		if (!started) {
			this.ended.put(entry, planned ? "no fresh JVM could be had for its next share of rounds" : "no fresh JVM could be had after its probe broke the last one");
			return false;
		}
		this.jvms.put(entry, jvm);
		this.broken.remove(entry);
		return true;
	}

	/** One round: the reference, each entry's probe in a fresh random order (a broken JVM replaced first), the reference. */
	private Round runRound(Prober prober, Kind kind, Map<String, Integer> loads, Integer rerunOf) throws IOException, InterruptedException {
		int index = this.rounds.size() + 1;
		List<String> order = new ArrayList<>(loads.keySet());
		Collections.shuffle(order, this.random);
		double clock = prober.seconds();
		Reference before = prober.reference();
		double overhead = prober.seconds() - clock;
		List<String> ran = new ArrayList<>();
		for (int i = 0; i < order.size() && !this.stopped; i++) {
			String entry = order.get(i);
			if (this.broken.contains(entry)) {
				double room = prober.secondsLeft() - (order.size() - i) * this.budget.probe();
				if (kind == Kind.REFINE && room < this.budget.start()) {
					// A fresh JVM's start and warm-up would carry the round past the budget: this entry sits the round out.
					prober.say(String.format(Locale.ROOT, "lab: %s needs a fresh JVM, but the run's time budget leaves %.0f s beyond this round's probes (a start "
							+ "takes about %.0f s here): it sits round %d out", entry, Math.max(0, room), this.budget.start(), index));
					continue;
				}
				if (!restart(prober, entry, this.jvms.get(entry) + 1, false)) {
					continue;
				}
			}
			double began = prober.seconds();
			Outcome outcome = prober.probe(entry, loads.get(entry), index, i + 1, order.size());
			this.budget.probed(prober.seconds() - began);
			if (outcome == null) {
				this.stopped = true;
				break;
			}
			RoundProbe probe = outcome.probe().ofJvm(this.jvms.get(entry));
			ran.add(entry);
			this.probes.add(probe);
			if (kind == Kind.BRACKET) {
				this.brackets.get(entry).record(probe);
			}
			if (outcome.broken()) {
				this.broken.add(entry);
			}
			prober.progress(this);
		}
		if (this.stopped && ran.isEmpty()) {
			return null;
		}
		clock = prober.seconds();
		Reference after = prober.reference();
		overhead += prober.seconds() - clock;
		this.budget.roundOverhead(overhead);
		// Judged against the median of every reference so far, this round's two included: a first round's disturbed
		// reference (169 ms against 80, a freshly warmed JVM still busy on the core) then marks that round, not the next
		// one too, as the median of its two alone (their mean, 125 ms) did in a fresh run here. A neighbour on the core
		// only slows the reference: a round slower than the median is marked, and one whose host changed between its two
		// references; one steadily faster is not (the median is the slower for disturbed rounds before it): its probes
		// shared one host, which is what a ratio paired within the round needs. A fresh run here lost 10 of its 25
		// probes to two such rounds (75.3 and 72.5 ms against a median of 81.1).
		this.references.add(before.ms());
		this.references.add(after.ms());
		double median = Stats.median(this.references);
		boolean moved = slower(before.ms(), median) || slower(after.ms(), median) || slower(after.ms(), before.ms()) || slower(before.ms(), after.ms());
		long total = after.totalTicks() - before.totalTicks();
		Double steal = (total > 0) ? 100.0 * (after.stealTicks() - before.stealTicks()) / total : null;
		Round round = new Round(index, kind, ran, finite(before.ms()), finite(after.ms()), steal, moved, rerunOf);
		this.rounds.add(round);
		prober.progress(this);
		return this.stopped ? null : round;
	}

	/** Whether a reference of {@code ms} is slower than {@code than} by more than the settings' bound. */
	private boolean slower(double ms, double than) {
		return Double.isFinite(ms) && Double.isFinite(than) && than > 0 && 100 * (ms / than - 1) > this.settings.referenceMovedPercent();
	}

	/** Refining round k's load: alternately just below and just above the estimate, on three significant digits. */
	private int refineLoad(String entry, int k) {
		double estimate = SearchSummary.estimate(record(), entry);
		double factor = (k % 2 == 1) ? 1 - this.settings.spreadPercent() / 100 : 1 + this.settings.spreadPercent() / 100;
		double load = Math.max(1, estimate * factor);
		double step = Math.pow(10, Math.max(0, Math.floor(Math.log10(load)) - 2));
		return (int) Math.max(1, Math.round(load / step) * step);
	}

	/** The search so far as a record (its group and baseline left for the caller to name). */
	private SearchRecord record() {
		return record("", this.entries.get(0), null);
	}

	/** The search so far as its record. */
	public SearchRecord record(String group, String baseline, String twin) {
		return new SearchRecord(group, this.settings.target(), baseline, twin, this.entries, this.settings, List.copyOf(this.rounds), List.copyOf(this.probes),
				brackets(), Map.copyOf(this.ended), costs());
	}

	public List<String> entries() {
		return this.entries;
	}

	public SearchSettings settings() {
		return this.settings;
	}

	public List<RoundProbe> probes() {
		return List.copyOf(this.probes);
	}

	public List<Round> rounds() {
		return List.copyOf(this.rounds);
	}

	/** Each entry's bracket as found so far (null: still bracketing). */
	public Map<String, BracketFound> brackets() {
		Map<String, BracketFound> found = new LinkedHashMap<>();
		this.brackets.forEach((entry, search) -> found.put(entry, search.found()));
		return found;
	}

	/** Entries whose search ended early, and why. */
	public Map<String, String> ended() {
		return Map.copyOf(this.ended);
	}

	private static Double finite(double value) {
		return Double.isFinite(value) ? value : null;
	}

	private static String ms(Double value) {
		return (value == null || !Double.isFinite(value)) ? "-" : String.format(Locale.ROOT, "%.1f", value);
	}

}
