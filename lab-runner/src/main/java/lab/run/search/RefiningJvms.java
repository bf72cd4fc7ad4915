package lab.run.search;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.search.SearchSettings;
import lab.plan.VariancePrior;

/**
 * The JVMs of a search's refining rounds: which JVM each round runs on, and which variants get a fresh one before it.
 * A quiet variant ({@link VariancePrior#quiet}) keeps its JVM: its JVMs spread less than its rounds do, and a start
 * would cost probes. Fresh JVMs that the budget has no room for, with a round after them, are not started: the rounds
 * stay on the JVMs there are (a fresh-host run once stopped refining there with 7.6 of its 28 minutes unspent).
 */
final class RefiningJvms {

	private final SearchSettings settings;

	/** Whether the search said which variants keep one JVM. */
	private boolean quietSaid;

	/** Whether the search said its refining rounds stay on the JVMs there are. */
	private boolean stayingSaid;

	RefiningJvms(SearchSettings settings) {
		this.settings = settings;
	}

	/**
	 * The JVM refining round {@code k} runs on: with one JVM per entry, the first; else the first JVM runs the bracket
	 * and the others share the refining rounds in order. A fresh JVM right after the bracket costs its start once, early,
	 * so a budget that cuts the last rounds still leaves every entry two JVMs, and its refining rounds (just below and
	 * just above the estimate by turns) fall on one JVM together.
	 */
	int ofRound(int k) {
		int jvms = Math.min(this.settings.jvmsPerEntry(), Math.max(1, this.settings.rounds()) + 1);
		if (jvms == 1) {
			return 1;
		}
		return 2 + (int) Math.floor((k - 1) * (double) (jvms - 1) / this.settings.rounds() + 1e-9);
	}

	/**
	 * The entries of {@code refining} that get a fresh JVM, their {@code jvm}th, before this round (each entry's JVM so
	 * far in {@code current}): none quiet, and none when the budget has no room for them and a round after them.
	 */
	List<String> fresh(InterleavedSearch.Prober prober, List<String> refining, int jvm, Map<String, Integer> current, SearchBudget budget) {
		VariancePrior prior = this.settings.variancePrior();
		List<String> quiet = refining.stream().filter(e -> current.get(e) < jvm && prior.quiet(e)).toList();
		if (!quiet.isEmpty() && !this.quietSaid) {
			this.quietSaid = true;
			boolean one = quiet.size() == 1;
			prober.say(String.format(Locale.ROOT, "lab: %s keep%s %s JVM for the refining rounds: %s JVMs spread less than %.0f%% (the lab's prior: %s), "
					+ "a fresh one would cost a start and narrow nothing its probes do not", String.join(", ", quiet), one ? "s" : "", one ? "its" : "their",
					one ? "its" : "their", 100 * VariancePrior.QUIET_SD,
					String.join(", ", quiet.stream().map(e -> String.format(Locale.ROOT, "%s %.1f%%", e, 100 * Math.sqrt(prior.variance(e)))).toList())));
		}
		List<String> fresh = refining.stream().filter(e -> current.get(e) < jvm && !quiet.contains(e)).toList();
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
		return List.of();
	}

}
