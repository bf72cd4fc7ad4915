package lab.analyse.search;

import java.util.Locale;

/**
 * What a search's steps cost on this host, as measured in the run: the budget and the sizing sentence read the medians,
 * the report the totals (where the search's minutes went).
 *
 * @param startSeconds the median time to start, admit and warm a JVM
 * @param probeSeconds the median probe, its idle check included
 * @param starts JVMs started and warmed (the first ones, the planned fresh ones and the forced ones)
 * @param startsTotalSeconds their time in all
 * @param breaks of those, the fresh JVMs forced because a probe broke the one before (ran it out of memory, stalled it)
 * @param breaksTotalSeconds their time
 * @param probes probes run
 * @param probesTotalSeconds their time in all
 * @param roundsTotalSeconds the rounds' own time beyond their probes (the CPU references on the service's core)
 *        (the totals 0 in records older than them)
 */
public record SearchCosts(double startSeconds, double probeSeconds, Integer starts, Double startsTotalSeconds, Integer breaks, Double breaksTotalSeconds,
		Integer probes, Double probesTotalSeconds, Double roundsTotalSeconds) {

	/** A record older than the totals reads them as none. */
	public SearchCosts {
		starts = (starts == null) ? 0 : starts;
		startsTotalSeconds = (startsTotalSeconds == null) ? 0.0 : startsTotalSeconds;
		breaks = (breaks == null) ? 0 : breaks;
		breaksTotalSeconds = (breaksTotalSeconds == null) ? 0.0 : breaksTotalSeconds;
		probes = (probes == null) ? 0 : probes;
		probesTotalSeconds = (probesTotalSeconds == null) ? 0.0 : probesTotalSeconds;
		roundsTotalSeconds = (roundsTotalSeconds == null) ? 0.0 : roundsTotalSeconds;
	}

	/** Medians only (a record before the totals). */
	public SearchCosts(double startSeconds, double probeSeconds) {
		this(startSeconds, probeSeconds, 0, 0.0, 0, 0.0, 0, 0.0, 0.0);
	}

	/**
	 * "where its 27.1 minutes went: 10 starts and warm-ups 12.4 min (2 of them forced by a probe that broke its JVM, 2.5
	 * min), 21 probes 11.4 min, the rounds' CPU references 0.9 min"; null without totals.
	 */
	public String describe() {
		if (this.starts == 0 && this.probes == 0) {
			return null;
		}
		double total = this.startsTotalSeconds + this.probesTotalSeconds + this.roundsTotalSeconds;
		return String.format(Locale.ROOT, "where its %.1f minutes went: %d starts and warm-ups %.1f min%s, %d probes %.1f min, the rounds' CPU references %.1f min",
				total / 60, this.starts, this.startsTotalSeconds / 60, (this.breaks == 0) ? " (none forced by a probe that broke its JVM)"
						: String.format(Locale.ROOT, " (%d of them forced by a probe that broke its JVM, %.1f min)", this.breaks, this.breaksTotalSeconds / 60),
				this.probes, this.probesTotalSeconds / 60, this.roundsTotalSeconds / 60);
	}

}
