package lab.report;

import java.util.List;

import lab.analyse.judge.LevelResult;
import lab.analyse.search.RoundProbe;

/**
 * Where a model stands: its best trustworthy throughput and where it breaks.
 *
 * @param variant the variant
 * @param model what concurrency model it is
 * @param bestRps highest rps among its OK levels, NaN when none was OK
 * @param bestLoad the load (users or rate) of that level
 * @param breaksAt the first load at which it FAILED, 0 when it never did
 * @param breakReason why it failed there
 * @param invalidLevels how many of its levels were INVALID (not ranked)
 * @param withinTargetLoad the highest load that met the latency target below every load that missed it; 0 when none
 * @param withinTargetRps its rps
 * @param missesTargetAt the lowest load that missed it (FAILED, or OK outside it; INVALID levels bound nothing); 0 when none did
 */
public record VariantVerdict(String variant, String model, double bestRps, int bestLoad, int breaksAt, String breakReason,
		int invalidLevels, int withinTargetLoad, double withinTargetRps, int missesTargetAt) {

	static VariantVerdict of(String variant, String model, List<LevelResult> rows) {
		double bestRps = Double.NaN;
		int bestLoad = 0;
		int breaksAt = 0;
		String reason = "";
		int invalid = 0;
		for (LevelResult row : rows) {
			switch (row.verdict()) {
				case OK -> {
					if (Double.isNaN(bestRps) || row.rps() > bestRps) {
						bestRps = row.rps();
						bestLoad = row.load();
					}
				}
				case INVALID -> invalid++;
				case FAILED -> {
					if (breaksAt == 0) {
						breaksAt = row.load();
						// The cause only: what followed from it is in the level's own row.
						reason = row.reasons().isEmpty() ? "" : row.reasons().get(0);
					}
				}
			}
		}
		// Within the target: the capacity search's own rule (INVALID levels bound nothing), over the levels run.
		List<RoundProbe> probes = rows.stream().map(RoundProbe::of).toList();
		int missesAt = RoundProbe.lowestMissed(probes);
		int withinLoad = RoundProbe.highestMet(probes);
		double withinRps = Double.NaN;
		for (LevelResult row : rows) {
			if (withinLoad > 0 && row.load() == withinLoad && Boolean.TRUE.equals(row.meetsTarget())) {
				withinRps = row.rps();
			}
		}
		return new VariantVerdict(variant, model, bestRps, bestLoad, breaksAt, reason, invalid, withinLoad, withinRps, missesAt);
	}

	/** What it serves within the target, in words: "within p99 ≤ 1,000 ms and errors ≤ 0.1%: 1,000 users (1,900 rps), not 2,000". */
	public String targetSentence(String target, String loadUnit) {
		String within = (this.withinTargetLoad == 0) ? "within " + target + ": none of its levels"
				: "within " + target + ": " + Summaries.number(this.withinTargetLoad) + " " + loadUnit + " (" + Summaries.number(this.withinTargetRps)
						+ " rps)";
		return within + ((this.missesTargetAt > 0) ? ", not " + Summaries.number(this.missesTargetAt) : ", the highest level run");
	}

	/** One sentence for the report. */
	public String sentence(String loadUnit) {
		String best = Double.isNaN(this.bestRps) ? "no trustworthy (OK) level"
				: "best " + Summaries.number(this.bestRps) + " rps at " + Summaries.number(this.bestLoad) + " " + loadUnit;
		String breaks = (this.breaksAt == 0) ? "did not break" : "breaks at " + Summaries.number(this.breaksAt) + " " + loadUnit
				+ " (" + this.breakReason + ")";
		return best + "; " + breaks + ((this.invalidLevels > 0) ? "; " + this.invalidLevels + " level(s) INVALID, not ranked" : "");
	}

}
