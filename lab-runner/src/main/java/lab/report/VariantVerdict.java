package lab.report;

import java.util.List;

import lab.analyse.LevelResult;
import lab.plan.Variant;

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
 */
public record VariantVerdict(String variant, String model, double bestRps, int bestLoad, int breaksAt, String breakReason,
		int invalidLevels) {

	static VariantVerdict of(String variant, List<LevelResult> rows) {
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
		return new VariantVerdict(variant, Variant.modelOf(variant), bestRps, bestLoad, breaksAt, reason, invalid);
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
