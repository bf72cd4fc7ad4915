package lab.analyse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import tools.jackson.databind.JsonNode;

/**
 * When a level is judged INVALID (the measurement, not the service, was the limit) or FAILED (the service broke),
 * and what is named in its reasons. Printed in every report and recorded in the manifest.
 *
 * @param injectorBusyPercent the injector's cores (shared with the downstream) busier than this → INVALID
 * @param downstreamOverheadMs the downstream's p99 lateness (probed end to end) above its delay by more than this is a
 *        harness symptom, judged by its effect ({@code harnessEffectPercent})
 * @param downstreamOverheadPercent ... or by more than this share of the delay, whichever is larger
 * @param errorPercent errors (unanswered requests included) above this share of the requests sent → FAILED
 * @param stallDelays no response at all for this many times the delay (and at least {@code stallMinSeconds}) → FAILED
 * @param stallMinSeconds the shortest silence called a stall
 * @param notWarmJitPercent the JIT compiled for more than this share of the window's wall time → INVALID (not warm);
 *        also the share of the warm-up's last seconds under which the warm-up counts as settled
 * @param notWarmHalvesPercent the window's first half cost more mutator CPU per request than its second by more than
 *        this share → INVALID (not warm: still getting cheaper)
 * @param harnessEffectPercent a late downstream is INVALID only when its lateness could have moved the service's p99,
 *        or (the service not being the limit) its throughput, by more than this share; else a note with the bound
 * @param efficiencyFloorPercent efficiency below this share of the Little's-law ceiling is named in the reasons
 * @param rpsDropPercent throughput below the previous level's by more than this is named in the reasons
 * @param repeatSpreadPercent repeats whose rps range exceeds this share of their median are named in the reasons
 */
public record Thresholds(double injectorBusyPercent, double downstreamOverheadMs, double downstreamOverheadPercent,
		double errorPercent, double stallDelays, int stallMinSeconds, double notWarmJitPercent, double notWarmHalvesPercent,
		double harnessEffectPercent, double efficiencyFloorPercent, double rpsDropPercent, double repeatSpreadPercent) {

	public static final Thresholds DEFAULT = new Thresholds(90, 50, 10, 5, 2, 2, 10, 25, 10, 50, 20, 10);

	/** The manifest's field names, in the record's order. */
	static final List<String> FIELDS = List.of("injectorBusyPercent", "downstreamOverheadMs", "downstreamOverheadPercent", "errorPercent",
			"stallDelays", "stallMinSeconds", "notWarmJitPercent", "notWarmHalvesPercent", "harnessEffectPercent", "efficiencyFloorPercent",
			"rpsDropPercent", "repeatSpreadPercent");

	/**
	 * The thresholds a run recorded in its manifest ({@code thresholds}), so a report rendered again judges old data
	 * by the rules it was measured under; a threshold the run did not record (one newer than the run) takes today's
	 * default, and {@link #defaultedIn} names it.
	 */
	public static Thresholds recordedIn(JsonNode manifest) {
		JsonNode t = manifest.path("thresholds");
		double[] v = DEFAULT.values();
		for (int i = 0; i < FIELDS.size(); i++) {
			if (t.path(FIELDS.get(i)).isNumber()) {
				v[i] = t.path(FIELDS.get(i)).asDouble();
			}
		}
		return new Thresholds(v[0], v[1], v[2], v[3], v[4], (int) v[5], v[6], v[7], v[8], v[9], v[10], v[11]);
	}

	/** The thresholds a run did not record, each with the default it is judged by now ("notWarmJitPercent 5"). */
	public static List<String> defaultedIn(JsonNode manifest) {
		JsonNode t = manifest.path("thresholds");
		double[] v = DEFAULT.values();
		List<String> missing = new ArrayList<>();
		for (int i = 0; i < FIELDS.size(); i++) {
			if (!t.path(FIELDS.get(i)).isNumber()) {
				missing.add(String.format(Locale.ROOT, "%s %s", FIELDS.get(i), (v[i] == Math.rint(v[i])) ? Long.toString((long) v[i]) : Double.toString(v[i])));
			}
		}
		return missing;
	}

	private double[] values() {
		return new double[] { this.injectorBusyPercent, this.downstreamOverheadMs, this.downstreamOverheadPercent, this.errorPercent,
				this.stallDelays, this.stallMinSeconds, this.notWarmJitPercent, this.notWarmHalvesPercent, this.harnessEffectPercent,
				this.efficiencyFloorPercent, this.rpsDropPercent, this.repeatSpreadPercent };
	}

	public double downstreamOverheadLimitMs(long delayMs) {
		return Math.max(this.downstreamOverheadMs, delayMs * this.downstreamOverheadPercent / 100.0);
	}

	/** The shortest run of silent seconds judged a stall at this delay. */
	public int stallSeconds(long delayMs) {
		return (int) Math.max(this.stallMinSeconds, Math.ceil(this.stallDelays * delayMs / 1000.0));
	}

}
