package lab.analyse.search;

/**
 * Kalibera and Jones' sizing of a ratio's interval: the JVMs per entry that would bring it to ±{@link BetweenRuns#AGREE_PERCENT}%
 * if each added JVM behaved like this run's (the part of its variance that JVMs and rounds make shrinks with √JVMs, t
 * towards 1.96), and at this run's costs the minutes that takes. The run level ({@link lab.plan.VariancePrior#runVariance})
 * does not shrink with JVMs: where it alone is wider than the goal, no number of JVMs in one run reaches it.
 *
 * @param moreJvms JVMs per entry to add, at least one; 0 when no number of JVMs in one run reaches the goal
 * @param minutes what they would cost at this run's start and probe times; NaN when the run measured none (or none reaches it)
 * @param runFloorPercent the half-width the run level alone gives the ratio, % (0 without one)
 */
public record Sizing(int moreJvms, double minutes, double runFloorPercent) {

	/** Whether more JVMs in one run can reach the goal at all. */
	public boolean reachable() {
		return this.moreJvms > 0;
	}

	/**
	 * The sizing of {@code interval}, a ratio of a search of {@code entries} entries whose starts and probes cost
	 * {@code costs} (null: not measured), {@code runVariance} of its log variance the run level's; null without a spread or
	 * a JVM to size from.
	 */
	public static Sizing of(Interval interval, SearchCosts costs, int entries, double runVariance) {
		if (!interval.hasSpread() || interval.jvms() == 0) {
			return null;
		}
		double goal = Math.log(1 + BetweenRuns.AGREE_PERCENT / 100);
		double run = Math.max(0, runVariance);
		double floor = 1.96 * Math.sqrt(run);
		double floorPercent = 100 * (Math.exp(floor) - 1);
		if (floor >= goal) {
			return new Sizing(0, Double.NaN, floorPercent);
		}
		double halfLog = Math.max(Math.log(interval.high() / interval.estimate()), Math.log(interval.estimate() / interval.low()));
		double se = halfLog / Interval.t95(interval.df());
		// The part that more JVMs shrink, as one JVM's: what is left of the variance beyond the run level, times the JVMs.
		double perJvm = Math.max(0, se * se - run) * interval.jvms();
		int needed = (int) Math.ceil(1.96 * 1.96 * perJvm / (goal * goal - floor * floor));
		int more = Math.max(1, needed - interval.jvms());
		if (costs == null || !(costs.startSeconds() > 0) || !(costs.probeSeconds() > 0)) {
			return new Sizing(more, Double.NaN, floorPercent);
		}
		double roundsPerJvm = Math.max(1, (double) interval.n() / Math.max(1, interval.jvms()));
		return new Sizing(more, more * entries * (costs.startSeconds() + roundsPerJvm * costs.probeSeconds()) / 60, floorPercent);
	}

}
