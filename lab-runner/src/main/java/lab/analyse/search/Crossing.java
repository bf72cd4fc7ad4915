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

	/** The elasticity assumed when no two probes place one: closed users past saturation wait in proportion to their number. */
	static final double PRIOR = 1.0;

	private Crossing() {
	}

	/**
	 * d ln(latency) / d ln(load) over the measured probes near the target and off the floor, least squares; NaN without
	 * two different loads or when latency does not rise with load there.
	 */
	static double slope(List<RoundProbe> probes, double targetMs, double floorMs) {
		double floor = floorMs;
		List<RoundProbe> near = probes.stream()
			.filter(p -> p.measured() && p.latencyMs() >= Math.max(targetMs / NEAR, FLOOR * floor) && p.latencyMs() <= targetMs * NEAR)
			.toList();
		if (near.stream().mapToInt(RoundProbe::load).distinct().count() < 2) {
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
		return (slope > 0) ? slope : Double.NaN;
	}

	/**
	 * The load at which {@code probe}'s latency would meet the target with {@code slope}: its load times
	 * e^(ln(target / latency) / slope), kept within half and twice its load (no extrapolation beyond); NaN when the probe
	 * has no latency or there is no slope.
	 */
	static double at(RoundProbe probe, double slope, double targetMs) {
		if (!probe.measured() || !(slope > 0)) {
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
