package lab.run.search;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.search.SearchSettings;
import lab.plan.JvmPlan;

/**
 * The JVMs of a search's refining rounds: which JVM each entry's round runs on, and which entries get a fresh one
 * before it. How many JVMs each entry has is the search's {@link JvmPlan}: where the lab's prior says a fresh one
 * narrows the widest ratio most, a quiet variant keeping its one. Fresh JVMs that the budget has no room for, with a
 * round after them, are not started: the rounds stay on the JVMs there are (a fresh-host run once stopped refining there
 * with 7.6 of its 28 minutes unspent).
 */
final class RefiningJvms {

	private final SearchSettings settings;

	private final JvmPlan plan;

	/** Whether the search said its plan. */
	private boolean planSaid;

	/** Whether the search said its refining rounds stay on the JVMs there are. */
	private boolean stayingSaid;

	RefiningJvms(SearchSettings settings, JvmPlan plan) {
		this.settings = settings;
		this.plan = plan;
	}

	JvmPlan plan() {
		return this.plan;
	}

	/**
	 * The JVM an entry with {@code jvms} JVMs runs refining round {@code k} on: with one JVM, the first; else the first
	 * JVM runs the bracket, and each refining round a fresh one until the entry has them all, the last taking the rounds
	 * left: round 1 on the second JVM, round 2 on the third, and so on. Each round's probe places a crossing of its own,
	 * so one round makes a JVM count; and early, because the budget cuts the last rounds: runs here and the synthetic lab
	 * got through 2-3 of their 4 refining rounds in 28 minutes, so a third JVM put off to round 3 was seldom started.
	 */
	int ofRound(int k, int jvms) {
		int j = Math.min(jvms, Math.max(1, this.settings.rounds()) + 1);
		return (j == 1) ? 1 : Math.min(j, k + 1);
	}

	/** The JVM {@code entry} runs refining round {@code k} on, by the plan. */
	int ofRound(int k, String entry) {
		return ofRound(k, this.plan.of(entry));
	}

	/**
	 * The entries of {@code refining} that get a fresh JVM before refining round {@code k}, each with its number (each
	 * entry's JVM so far in {@code current}); none when the budget has no room for them and a round after them.
	 */
	Map<String, Integer> fresh(InterleavedSearch.Prober prober, List<String> refining, int k, Map<String, Integer> current, SearchBudget budget) {
		if (!this.planSaid) {
			this.planSaid = true;
			prober.say("lab: " + this.plan.text());
		}
		Map<String, Integer> fresh = new LinkedHashMap<>();
		for (String entry : refining) {
			int jvm = ofRound(k, entry);
			if (current.get(entry) < jvm) {
				fresh.put(entry, jvm);
			}
		}
		double withFresh = budget.round(refining.size(), fresh.size());
		if (fresh.isEmpty() || prober.secondsLeft() >= withFresh) {
			return fresh;
		}
		if (!this.stayingSaid) {
			this.stayingSaid = true;
			prober.say(String.format(Locale.ROOT, "lab: the run's time budget left %.0f s, less than fresh JVMs for %d variants and a refining round "
					+ "(about %.0f s at this run's costs): the refining rounds stay on the JVMs there are", Math.max(0, prober.secondsLeft()), fresh.size(),
					withFresh));
		}
		return Map.of();
	}

}
