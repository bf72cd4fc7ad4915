package lab.analyse.judge;

import java.util.List;

import lab.analyse.Analyser;

/**
 * What the harness spent per request sent in a level's window, and how far this host carries the load before the
 * harness, not the service, becomes the limit. In ms of CPU per request: the injector's, the downstream's, and
 * everything the harness cores did (from {@code /proc/stat}: injector, downstream, runner, the kernel's network
 * work). {@code validUpToRps} is the request rate at which the harness cores would reach the busy threshold at that
 * cost: a level asking more is judged INVALID. With {@code --profile unconstrained} the service shares the cores,
 * so the figures include it and "valid up to" is the whole box's capacity. NaN where not measured (an injector on
 * another host reports its own CPU, never a harness core's).
 */
public record Headroom(double injectorMsPerRequest, double downstreamMsPerRequest, double harnessMsPerRequest,
		int harnessCores, double validUpToRps) {

	public static final Headroom UNKNOWN = new Headroom(Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN);

	/**
	 * @param requestsPerSecond requests sent per second in the window
	 * @param injectorCores, downstreamCores CPU seconds per second of each (1.0 = one core)
	 * @param harnessBusyPercent how busy the harness cores were, NaN when not sampled here
	 */
	public static Headroom of(double requestsPerSecond, double injectorCores, double downstreamCores, double harnessBusyPercent, int harnessCores) {
		if (!(requestsPerSecond > 0)) {
			return UNKNOWN;
		}
		double msPerCoreSecond = 1000 / requestsPerSecond;
		return new Headroom(injectorCores * msPerCoreSecond, downstreamCores * msPerCoreSecond,
				harnessBusyPercent / 100 * harnessCores * msPerCoreSecond, harnessCores, Double.NaN);
	}

	/** With {@link #validUpToRps} at the rate where the harness cores reach {@code busyPercent}. */
	Headroom judgedAt(double busyPercent) {
		double valid = (this.harnessMsPerRequest > 0 && this.harnessCores > 0)
				? busyPercent / 100 * this.harnessCores * 1000 / this.harnessMsPerRequest : Double.NaN;
		return new Headroom(this.injectorMsPerRequest, this.downstreamMsPerRequest, this.harnessMsPerRequest, this.harnessCores, valid);
	}

	/** Each figure the median over repeats, judged at {@code busyPercent}. */
	public static Headroom median(List<Headroom> repeats, double busyPercent) {
		return new Headroom(Analyser.median(repeats, Headroom::injectorMsPerRequest), Analyser.median(repeats, Headroom::downstreamMsPerRequest),
				Analyser.median(repeats, Headroom::harnessMsPerRequest), repeats.get(0).harnessCores(), Double.NaN).judgedAt(busyPercent);
	}

}
