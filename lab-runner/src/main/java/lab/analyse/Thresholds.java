package lab.analyse;

import tools.jackson.databind.JsonNode;

/**
 * When a level is judged INVALID (the measurement, not the service, was the limit) or FAILED (the service broke),
 * and what is named in its reasons. Printed in every report and recorded in the manifest.
 *
 * @param injectorBusyPercent the injector's cores (shared with the downstream) busier than this → INVALID
 * @param downstreamOverheadMs the downstream's p99 lateness (probed end to end) above its delay by more than this → INVALID
 * @param downstreamOverheadPercent ... or by more than this share of the delay, whichever is larger
 * @param errorPercent errors (unanswered requests included) above this share of the requests sent → FAILED
 * @param stallDelays no response at all for this many times the delay (and at least {@code stallMinSeconds}) → FAILED
 * @param stallMinSeconds the shortest silence called a stall
 * @param notWarmRatio the warm-up's last seconds cost more CPU per request than this many times the first level's → INVALID
 * @param efficiencyFloorPercent efficiency below this share of the Little's-law ceiling is named in the reasons
 * @param rpsDropPercent throughput below the previous level's by more than this is named in the reasons
 * @param repeatSpreadPercent repeats whose rps range exceeds this share of their median are named in the reasons
 */
public record Thresholds(double injectorBusyPercent, double downstreamOverheadMs, double downstreamOverheadPercent,
		double errorPercent, double stallDelays, int stallMinSeconds, double notWarmRatio, double efficiencyFloorPercent,
		double rpsDropPercent, double repeatSpreadPercent) {

	public static final Thresholds DEFAULT = new Thresholds(90, 50, 10, 5, 2, 2, 1.5, 50, 20, 10);

	/**
	 * The thresholds a run recorded in its manifest ({@code thresholds}), so a report rendered again judges old data
	 * by the rules it was measured under; the current defaults for a manifest without them (runs older than the
	 * record) or with a field missing.
	 */
	public static Thresholds recordedIn(JsonNode manifest) {
		JsonNode t = manifest.path("thresholds");
		if (!t.isObject()) {
			return DEFAULT;
		}
		for (String field : new String[] { "injectorBusyPercent", "downstreamOverheadMs", "downstreamOverheadPercent", "errorPercent",
				"stallDelays", "stallMinSeconds", "notWarmRatio", "efficiencyFloorPercent", "rpsDropPercent", "repeatSpreadPercent" }) {
			if (!t.path(field).isNumber()) {
				return DEFAULT;
			}
		}
		return new Thresholds(t.path("injectorBusyPercent").asDouble(), t.path("downstreamOverheadMs").asDouble(),
				t.path("downstreamOverheadPercent").asDouble(), t.path("errorPercent").asDouble(), t.path("stallDelays").asDouble(),
				t.path("stallMinSeconds").asInt(), t.path("notWarmRatio").asDouble(), t.path("efficiencyFloorPercent").asDouble(),
				t.path("rpsDropPercent").asDouble(), t.path("repeatSpreadPercent").asDouble());
	}

	public double downstreamOverheadLimitMs(long delayMs) {
		return Math.max(this.downstreamOverheadMs, delayMs * this.downstreamOverheadPercent / 100.0);
	}

	/** The shortest run of silent seconds judged a stall at this delay. */
	public int stallSeconds(long delayMs) {
		return (int) Math.max(this.stallMinSeconds, Math.ceil(this.stallDelays * delayMs / 1000.0));
	}

}
