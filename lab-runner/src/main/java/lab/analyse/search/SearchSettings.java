package lab.analyse.search;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import lab.layout.LatencyTarget;
import lab.layout.LoadShape;
import lab.plan.Scenario;
import lab.plan.VariancePrior;

/**
 * How an interleaved search searched, as its record keeps it (a re-render reads the same settings).
 *
 * @param start the first bracket probe's load, for an entry the last run on this host left no crossing for
 * @param max the bracket's planned maximum
 * @param bracketPercent the bracket stops when its met and missed loads are this close
 * @param rounds refining rounds
 * @param spreadPercent a refining probe's distance below or above the estimate
 * @param referenceMovedPercent a round whose reference reads this much slower than the run's median so far, or changed this
 * much within the round, is marked and run again
 * @param maxReruns how many rounds may be run again in all (a host that keeps moving is said, not chased)
 * @param seed the shuffles' seed (recorded: the order can be replayed)
 * @param target the latency target the search places each entry's crossing at (null in records older than it, which
 * kept its bound alone, {@code targetMs}, beside the target their {@link SearchRecord} names)
 * @param floorMs the latency no load goes below (the downstream's delay): probes near it are off the knee
 * @param jvms how many JVMs each entry is searched with (the refining rounds are shared out among them; 0 in older
 * records: one)
 * @param stepFactor the bracket's step while it has not bracketed the knee (0 in older records: 2)
 * @param starts each entry's first bracket load from the last run's crossing on this host (absent: {@code start})
 * @param prior the JVM level's prior of its intervals ({@link VariancePrior}; null in records older than it, which were
 * summarised with {@link VariancePrior#UNIFORM} and are again)
 * @param earlier the host's earlier runs of the same search, their ratios as they stated them (empty: none, or a record
 * older than them), drawn beside this run's in its report
 */
@JsonIgnoreProperties("targetMs")
public record SearchSettings(int start, int max, double bracketPercent, int rounds, double spreadPercent, double referenceMovedPercent, int maxReruns,
		long seed, LatencyTarget target, double floorMs, int jvms, double stepFactor, Map<String, Integer> starts, VariancePrior prior,
		List<EarlierRun> earlier) {

	/** The bracket's step when it starts from crossings found before (an earlier run's, or a tune's earlier step): the knee is near, and a doubling would overshoot it. */
	public static final double STEP_NEAR_KNEE = 1.5;

	public SearchSettings {
		starts = (starts == null) ? Map.of() : Map.copyOf(starts);
		earlier = (earlier == null) ? List.of() : List.copyOf(earlier);
	}

	/** Without earlier runs. */
	public SearchSettings(int start, int max, double bracketPercent, int rounds, double spreadPercent, double referenceMovedPercent, int maxReruns,
			long seed, LatencyTarget target, double floorMs, int jvms, double stepFactor, Map<String, Integer> starts, VariancePrior prior) {
		this(start, max, bracketPercent, rounds, spreadPercent, referenceMovedPercent, maxReruns, seed, target, floorMs, jvms, stepFactor, starts, prior,
				List.of());
	}

	/**
	 * A scenario's search, the one place its settings are read from it: the first load (the scenario's first users or
	 * rate), the maximum, resolution, rounds, reference bound, JVMs per entry and the latency target; the floor is the
	 * downstream's delay; doubling steps until {@link #from} earlier crossings.
	 */
	public static SearchSettings of(Scenario scenario, double spreadPercent, int maxReruns, long seed) {
		List<Integer> firsts = (scenario.model() == LoadShape.OPEN) ? scenario.ratesPerSecond() : scenario.users();
		return new SearchSettings(firsts.get(0), scenario.searchMax(), scenario.searchResolution(), scenario.rounds(), spreadPercent,
				scenario.referenceMovedPercent(), maxReruns, seed, scenario.target(), scenario.delayMs(), scenario.jvms(), 2, Map.of(),
				VariancePrior.SHIPPED);
	}

	/** Without a prior of its own: summarised with {@link VariancePrior#UNIFORM}, as a record older than priors is. */
	public SearchSettings(int start, int max, double bracketPercent, int rounds, double spreadPercent, double referenceMovedPercent, int maxReruns,
			long seed, LatencyTarget target, double floorMs, int jvms, double stepFactor, Map<String, Integer> starts) {
		this(start, max, bracketPercent, rounds, spreadPercent, referenceMovedPercent, maxReruns, seed, target, floorMs, jvms, stepFactor, starts, null);
	}

	/** One JVM per entry, doubling steps, no earlier crossings: the search as it was before JVMs were replicated. */
	public SearchSettings(int start, int max, double bracketPercent, int rounds, double spreadPercent, double referenceMovedPercent, int maxReruns,
			long seed, LatencyTarget target, double floorMs) {
		this(start, max, bracketPercent, rounds, spreadPercent, referenceMovedPercent, maxReruns, seed, target, floorMs, 1, 2, Map.of(), null);
	}

	/**
	 * The same search from crossings found before (an earlier run's, or a tune's earlier step): each entry's bracket
	 * starts at its crossing and steps by {@link #STEP_NEAR_KNEE}; with none, unchanged.
	 */
	public SearchSettings from(Map<String, Integer> crossings) {
		if (crossings.isEmpty()) {
			return this;
		}
		return new SearchSettings(this.start, this.max, this.bracketPercent, this.rounds, this.spreadPercent, this.referenceMovedPercent, this.maxReruns,
				this.seed, this.target, this.floorMs, this.jvms, STEP_NEAR_KNEE, crossings, this.prior, this.earlier);
	}

	/** The same search, its intervals stated with {@code prior}. */
	public SearchSettings withPrior(VariancePrior prior) {
		return new SearchSettings(this.start, this.max, this.bracketPercent, this.rounds, this.spreadPercent, this.referenceMovedPercent, this.maxReruns,
				this.seed, this.target, this.floorMs, this.jvms, this.stepFactor, this.starts, prior, this.earlier);
	}

	/** The same search, with the host's earlier runs of it to draw beside its own. */
	public SearchSettings withEarlier(List<EarlierRun> runs) {
		return new SearchSettings(this.start, this.max, this.bracketPercent, this.rounds, this.spreadPercent, this.referenceMovedPercent, this.maxReruns,
				this.seed, this.target, this.floorMs, this.jvms, this.stepFactor, this.starts, this.prior, runs);
	}

	/** The same search, placing its crossings at {@code target} (a record older than targets in its settings: its own). */
	public SearchSettings withTarget(LatencyTarget target) {
		return new SearchSettings(this.start, this.max, this.bracketPercent, this.rounds, this.spreadPercent, this.referenceMovedPercent, this.maxReruns,
				this.seed, target, this.floorMs, this.jvms, this.stepFactor, this.starts, this.prior, this.earlier);
	}

	/** The bound of its target, ms: where the crossings are placed. */
	public double targetMs() {
		return this.target.maxMs();
	}

	/** The prior its intervals are stated with: its own, else (a record older than priors) {@link VariancePrior#UNIFORM}. */
	public VariancePrior variancePrior() {
		return (this.prior != null) ? this.prior : VariancePrior.UNIFORM;
	}

	/** A tune study's step {@code step} (from 0) of {@code steps}: more refining rounds each step, one JVM in the first, its own seed. */
	public SearchSettings forStep(int step, int steps) {
		return new SearchSettings(this.start, this.max, this.bracketPercent, Math.max(2, (step + 1) * this.rounds / steps), this.spreadPercent,
				this.referenceMovedPercent, this.maxReruns, this.seed + step, this.target, this.floorMs, (step == 0) ? 1 : this.jvms, this.stepFactor,
				this.starts, this.prior, this.earlier);
	}

	/** The entry's first bracket load. */
	public int startOf(String entry) {
		return this.starts.getOrDefault(entry, this.start);
	}

	/** JVMs per entry, at least one. */
	public int jvmsPerEntry() {
		return Math.max(1, this.jvms);
	}

	/** The bracket's step, 2 unless set. */
	public double step() {
		return (this.stepFactor > 1) ? this.stepFactor : 2;
	}

}
