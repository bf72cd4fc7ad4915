package lab.analyse;

/**
 * When a level is judged INVALID (the measurement, not the service, was the limit) or FAILED (the service broke).
 * Printed in every report.
 *
 * @param injectorBusyPercent the injector's cores (shared with the downstream) busier than this → INVALID
 * @param downstreamOverheadMs the downstream's p99 above its delay by more than this → INVALID
 * @param downstreamOverheadPercent ... or by more than this share of the delay, whichever is larger
 * @param errorPercent errors above this share of requests → FAILED
 */
public record Thresholds(double injectorBusyPercent, double downstreamOverheadMs, double downstreamOverheadPercent,
		double errorPercent) {

	public static final Thresholds DEFAULT = new Thresholds(90, 50, 10, 5);

	public double downstreamOverheadLimitMs(long delayMs) {
		return Math.max(this.downstreamOverheadMs, delayMs * this.downstreamOverheadPercent / 100.0);
	}

}
