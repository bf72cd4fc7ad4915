package lab.analyse.read;

import java.util.List;

import lab.load.LoadWindow;

/**
 * The longest time in the window during which the service answered nothing, from the injector's
 * {@code completions.csv} (per wall-clock second: responses with any status, and requests that ended without one).
 * Rows are stamped at the end of their second and count when its middle lies in the window. A gap between rows
 * (the injector itself did not write) ends a run: what the injector did not see is not blamed on the service. A cold
 * start's level is read from its first answer on: the silence before it is the start's time to first answer, which
 * the start table reports (the start profile's), not a stall of a service that had been answering.
 *
 * @param fromEpochMs start of the longest run of silent seconds, 0 when there was none
 * @param seconds its length in whole seconds
 * @param rows how many rows of the window could be read (0: the check could not be computed)
 */
public record Stall(long fromEpochMs, int seconds, int rows) {

	/**
	 * The longest silence in {@code window} of one injector's completions rows (stamp ms, answers); with
	 * {@code fromFirstAnswer}, the seconds before the first answer are not one.
	 */
	public static Stall longest(List<long[]> completions, LoadWindow window, boolean fromFirstAnswer) {
		if (window == null) {
			return new Stall(0, 0, 0);
		}
		long bestFrom = 0;
		int best = 0;
		long runFrom = 0;
		int run = 0;
		long previous = Long.MIN_VALUE;
		int rows = 0;
		boolean answering = !fromFirstAnswer;
		for (long[] row : completions) {
			long stamp = row[0];
			long answered = row[1];
			if (!window.contains(stamp - 500)) {
				continue;
			}
			rows++;
			answering |= row[1] > 0;
			if (!answering) {
				continue;
			}
			if (stamp - previous > 1_500) {
				run = 0;
			}
			previous = stamp;
			if (answered > 0) {
				run = 0;
				continue;
			}
			if (run == 0) {
				runFrom = stamp - 1_000;
			}
			run++;
			if (run > best) {
				best = run;
				bestFrom = runFrom;
			}
		}
		return new Stall(bestFrom, best, rows);
	}

}
