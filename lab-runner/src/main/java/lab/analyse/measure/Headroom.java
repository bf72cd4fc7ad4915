package lab.analyse.measure;

import java.util.List;

import lab.analyse.stat.Stats;
import lab.plan.DatabasePlacement;

/**
 * What the harness spent per request sent in a level's window, and how far this host carries the load before the
 * harness, not the service, becomes the limit. In ms of CPU per request: the injector's, the downstream's, the
 * database's (a PostgreSQL the lab started for a service of the user's own: part of the system under test, never of the
 * harness, wherever it ran), and everything else the harness cores did (from {@code /proc/stat}: injector, downstream,
 * runner, the kernel's network work; the database's CPU taken out when it ran there). {@code validUpToRps} is the
 * request rate at which the harness cores would reach the busy threshold at that cost: a level asking more is judged
 * INVALID. With {@code --profile unconstrained} the service shares the cores, so the figures include it and "valid up
 * to" is the whole box's capacity. NaN where not measured (an injector on another host reports its own CPU, never a
 * harness core's).
 *
 * @param databasePlacement where the database ran ({@code service}, {@code harness}, {@code unpinned}; "" without one or unrecorded):
 *        on the harness's cores its CPU is taken out of theirs
 */
public record Headroom(double injectorMsPerRequest, double downstreamMsPerRequest, double databaseMsPerRequest, double harnessMsPerRequest,
		int harnessCores, double validUpToRps, String databasePlacement) {

	public static final Headroom UNKNOWN = new Headroom(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, "");

	/** Whether the database ran on the harness's cores. */
	public boolean databaseOnHarness() {
		return DatabasePlacement.HARNESS.equals(this.databasePlacement);
	}

	/** Whether the database shared the service's core. */
	public boolean databaseOnServiceCore() {
		return DatabasePlacement.SERVICE.equals(this.databasePlacement);
	}

	/**
	 * @param requestsPerSecond requests sent per second in the window
	 * @param injectorCores, downstreamCores, databaseCores CPU seconds per second of each (1.0 = one core; NaN: none)
	 * @param databasePlacement where the database ran ("" for none)
	 * @param harnessBusyPercent how busy the harness cores were, the database's share already taken out; NaN when not sampled here
	 */
	public static Headroom of(double requestsPerSecond, double injectorCores, double downstreamCores, double databaseCores, String databasePlacement,
			double harnessBusyPercent, int harnessCores) {
		if (!(requestsPerSecond > 0)) {
			return UNKNOWN;
		}
		double msPerCoreSecond = 1000 / requestsPerSecond;
		return new Headroom(injectorCores * msPerCoreSecond, downstreamCores * msPerCoreSecond, databaseCores * msPerCoreSecond,
				harnessBusyPercent / 100 * harnessCores * msPerCoreSecond, harnessCores, Double.NaN, databasePlacement);
	}

	/** Without a database: the lab's own variants. */
	public static Headroom of(double requestsPerSecond, double injectorCores, double downstreamCores, double harnessBusyPercent, int harnessCores) {
		return of(requestsPerSecond, injectorCores, downstreamCores, Double.NaN, "", harnessBusyPercent, harnessCores);
	}

	/** With {@link #validUpToRps} at the rate where the harness cores reach {@code busyPercent}. */
	Headroom judgedAt(double busyPercent) {
		double valid = (this.harnessMsPerRequest > 0 && this.harnessCores > 0)
				? busyPercent / 100 * this.harnessCores * 1000 / this.harnessMsPerRequest : Double.NaN;
		return new Headroom(this.injectorMsPerRequest, this.downstreamMsPerRequest, this.databaseMsPerRequest, this.harnessMsPerRequest,
				this.harnessCores, valid, this.databasePlacement);
	}

	/** Each figure the median over repeats, judged at {@code busyPercent}. */
	public static Headroom median(List<Headroom> repeats, double busyPercent) {
		return new Headroom(Stats.median(repeats, Headroom::injectorMsPerRequest), Stats.median(repeats, Headroom::downstreamMsPerRequest),
				Stats.median(repeats, Headroom::databaseMsPerRequest), Stats.median(repeats, Headroom::harnessMsPerRequest),
				repeats.get(0).harnessCores(), Double.NaN, repeats.get(0).databasePlacement()).judgedAt(busyPercent);
	}

}
