package lab.analyse.search;

import java.util.List;

/**
 * Where the target's percentile crosses the target: around the knee of one variant, log latency against log load is
 * close to a straight line (closed users past saturation wait about in proportion to their number: an elasticity near
 * 1, steeper in the tail), so a probe near the knee places the crossing with the elasticity its neighbours give, and a
 * met and a missed probe place it between them. Log load rather than load: a host that is slower in one round moves the
 * knee in proportion, which shifts the curve along log load without changing its slope.
 */
final class Crossing {

	/** Probes whose latency is within this factor of the target place the slope; farther ones are off the knee. */
	static final double NEAR = 2.5;

	/** A probe within this factor of the floor (the downstream's delay: no load answers sooner) sits on the flat part, not the knee. */
	static final double FLOOR = 1.15;

	/** The elasticity assumed when too few probes place one: closed users past saturation wait in proportion to their number. */
	static final double PRIOR = 1.0;

	/** A fitted elasticity is kept within these bounds: outside them it is the probes' noise, not the knee's shape. */
	static final double MIN_SLOPE = 0.5;

	static final double MAX_SLOPE = 4;

	/**
	 * A probe places a crossing only when its latency is within this factor of the target, and above the floor's
	 * {@link #OFF_FLOOR}: farther, the crossing would rest on the slope more than on the probe (a probe's p99 over 15 s
	 * moved 10-15% between probes at one load here), and near the floor latency hardly moves with load.
	 */
	static final double PLACES = 2;

	static final double OFF_FLOOR = 1.3;

	private Crossing() {
	}

	/**
	 * d ln(latency) / d ln(load) over the measured probes near the target and off the floor, least squares, within
	 * {@link #MIN_SLOPE} and {@link #MAX_SLOPE}; NaN without three different loads or when latency does not rise with load.
	 */
	static double slope(List<RoundProbe> probes, double targetMs, double floorMs) {
		double floor = floorMs;
		List<RoundProbe> near = probes.stream()
			.filter(p -> p.measured() && p.latencyMs() >= Math.max(targetMs / NEAR, FLOOR * floor) && p.latencyMs() <= targetMs * NEAR)
			.toList();
		if (near.stream().mapToInt(RoundProbe::load).distinct().count() < 3) {
			return Double.NaN;
		}
		double meanX = near.stream().mapToDouble(p -> Math.log(p.load())).average().orElseThrow();
		double meanY = near.stream().mapToDouble(p -> Math.log(p.latencyMs())).average().orElseThrow();
		double sxy = 0;
		double sxx = 0;
		for (RoundProbe p : near) {
			double x = Math.log(p.load()) - meanX;
			sxy += x * (Math.log(p.latencyMs()) - meanY);
			sxx += x * x;
		}
		double slope = sxy / sxx;
		return (slope > 0) ? Math.max(MIN_SLOPE, Math.min(MAX_SLOPE, slope)) : Double.NaN;
	}

	/**
	 * The load at which {@code probe}'s latency would meet the target with {@code slope}: its load times
	 * e^(ln(target / latency) / slope), kept within half and twice its load; NaN when the probe has no latency, its
	 * latency is not within {@link #PLACES} of the target or is near the floor, or there is no slope.
	 */
	static double at(RoundProbe probe, double slope, double targetMs, double floorMs) {
		if (!probe.measured() || !(slope > 0) || probe.latencyMs() < Math.max(targetMs / PLACES, OFF_FLOOR * floorMs)
				|| probe.latencyMs() > targetMs * PLACES) {
			return Double.NaN;
		}
		double load = probe.load() * Math.exp(Math.log(targetMs / probe.latencyMs()) / slope);
		return Math.max(probe.load() / 2.0, Math.min(2.0 * probe.load(), load));
	}

	/**
	 * Between the highest load that met the target and the lowest that missed it: interpolated in log latency against log
	 * load; the middle
	 * of the two when either has no latency (a break) or the latencies do not straddle the target.
	 */
	static double between(RoundProbe met, RoundProbe missed, double targetMs) {
		if (met.measured() && missed.measured() && met.latencyMs() < targetMs && missed.latencyMs() > targetMs) {
			double share = Math.log(targetMs / met.latencyMs()) / Math.log(missed.latencyMs() / met.latencyMs());
			return met.load() * Math.pow((double) missed.load() / met.load(), share);
		}
		return (met.load() + missed.load()) / 2.0;
	}

}
