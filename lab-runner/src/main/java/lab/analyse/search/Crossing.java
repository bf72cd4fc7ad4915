package lab.analyse.search;

import lab.analyse.judge.LevelResult;

/**
 * Where the target's percentile crosses the target: around the knee of one variant, log latency against log load is
 * close to a straight line (closed users past saturation wait about in proportion to their number: an elasticity near
 * 1, steeper in the tail), so a probe near the knee places the crossing with the entry's {@link Elasticity}. Log load
 * rather than load: a host that is slower in one round moves the knee in proportion, which shifts the curve along log
 * load without changing its slope. A round's crossing rests on that round's probe alone, never on another round's.
 */
final class Crossing {

	/**
	 * A probe places a crossing only when its latency is within this factor of the target, and above the floor's
	 * {@link #ABOVE_FLOOR}: farther, the crossing would rest on the elasticity more than on the probe (a probe's p99 over
	 * 15 s moved 10-15% between probes at one load here), and near the floor latency hardly moves with load.
	 */
	static final double WITHIN_TARGET_FACTOR = 2;

	static final double ABOVE_FLOOR = 1.3;

	private Crossing() {
	}

	/**
	 * The load at which {@code probe}'s latency would meet the target with {@code slope}: its load times
	 * e^(ln(target / latency) / slope), kept within half and twice its load; NaN when the probe has no latency, its
	 * latency is not within {@link #WITHIN_TARGET_FACTOR} of the target or is near the floor, or there is no slope.
	 */
	static double at(RoundProbe probe, double slope, double targetMs, double floorMs) {
		if (!places(probe, targetMs, floorMs) || !(slope > 0)) {
			return Double.NaN;
		}
		double load = probe.load() * Math.exp(Math.log(targetMs / probe.latencyMs()) / slope);
		return Math.max(probe.load() / 2.0, Math.min(2.0 * probe.load(), load));
	}

	/** Whether the probe can place a crossing: measured, within {@link #WITHIN_TARGET_FACTOR} of the target, off the floor. */
	static boolean places(RoundProbe probe, double targetMs, double floorMs) {
		return probe.measured() && probe.latencyMs() >= Math.max(targetMs / WITHIN_TARGET_FACTOR, ABOVE_FLOOR * floorMs)
				&& probe.latencyMs() <= targetMs * WITHIN_TARGET_FACTOR;
	}

	/** Whether the probe shows the knee is below its load without placing it: it broke, or missed by more than twice. */
	static boolean wallAt(RoundProbe probe, double targetMs) {
		return probe.verdict() == LevelResult.Verdict.FAILED || (probe.measured() && probe.latencyMs() > targetMs * WITHIN_TARGET_FACTOR);
	}

	/**
	 * Between a load that met the target and one that missed it: interpolated in log latency against log load; the middle
	 * of the two when either has no latency (a break) or the latencies do not straddle the target. The search's next
	 * load reads it; no capacity rests on it.
	 */
	static double between(RoundProbe met, RoundProbe missed, double targetMs) {
		if (met.measured() && missed.measured() && met.latencyMs() < targetMs && missed.latencyMs() > targetMs) {
			double share = Math.log(targetMs / met.latencyMs()) / Math.log(missed.latencyMs() / met.latencyMs());
			return met.load() * Math.pow((double) missed.load() / met.load(), share);
		}
		return (met.load() + missed.load()) / 2.0;
	}

}
