package lab.analyse.search;

/**
 * Kalibera and Jones' sizing of a ratio's interval: the JVMs per entry that would bring it to ±{@link BetweenRuns#AGREE_PERCENT}%
 * if each added JVM behaved like this run's (its half-width shrinks with √JVMs, t towards 1.96), and at this run's
 * costs the minutes that takes.
 *
 * @param moreJvms JVMs per entry to add, at least one
 * @param minutes what they would cost at this run's start and probe times; NaN when the run measured none
 */
public record Sizing(int moreJvms, double minutes) {

	/**
	 * The sizing of {@code interval}, a ratio of a search of {@code entries} entries whose starts and probes cost
	 * {@code costs} (null: not measured); null without a spread or a JVM to size from.
	 */
	public static Sizing of(Interval interval, SearchCosts costs, int entries) {
		if (!interval.hasSpread() || interval.jvms() == 0) {
			return null;
		}
		double halfLog = Math.max(Math.log(interval.high() / interval.estimate()), Math.log(interval.estimate() / interval.low()));
		double perJvm = halfLog / Interval.t95(interval.df()) * Math.sqrt(interval.jvms());
		int needed = (int) Math.ceil(Math.pow(1.96 * perJvm / Math.log(1 + BetweenRuns.AGREE_PERCENT / 100), 2));
		int more = Math.max(1, needed - interval.jvms());
		if (costs == null || !(costs.startSeconds() > 0) || !(costs.probeSeconds() > 0)) {
			return new Sizing(more, Double.NaN);
		}
		double roundsPerJvm = Math.max(1, (double) interval.n() / Math.max(1, interval.jvms()));
		return new Sizing(more, more * entries * (costs.startSeconds() + roundsPerJvm * costs.probeSeconds()) / 60);
	}

}
