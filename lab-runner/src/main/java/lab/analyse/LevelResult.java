package lab.analyse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import lab.layout.Level;

/**
 * One row of the report: a variant at a load level, every figure taken inside the steady load window. Requests are
 * accounted for by the time they were sent: {@code requests} were sent in the window, each answered, failed or
 * {@code unanswered}. Latencies in ms ({@code *AllMs} over every request, failures at the time they took to fail and
 * unanswered ones at the request timeout; {@code *OkMs} over successes), CPU in % of one core, memory in MiB; NaN
 * where the data to compute it was missing. {@code sampled}: every declared {@link Metric} (in summary.json, one
 * field each, in their place). {@code headroom}: what the harness spent per request and
 * how far this host carries. In summary.json the level is two fields and the load ({@link LevelJson#row}). {@code injectors} lists each injector's part when several shared the
 * load, else is empty.
 */
public record LevelResult(String variant, Level level, int repeats, double rps,
		double rpsMin, double rpsMax, double ceilingRps, double efficiency, double p50AllMs, double p95AllMs,
		double p99AllMs, double maxAllMs, double p50OkMs, double p95OkMs, double p99OkMs, double maxOkMs, long requests,
		long errors4xx, long errors5xx, long timeouts, long refused, long checkFailures, long unanswered,
		double errorPercent, double longestStallSeconds, double serviceCpuPercent, double cpuMsPerRequest,
		double warmupCpuMsPerRequest, Map<Metric, Double> sampled, double injectorCpuPercent, double injectorCoresBusyPercent,
		double downstreamP99LateMs, double downstreamOwnP99OverheadMs, Headroom headroom, Verdict verdict, List<String> reasons,
		List<String> evidence, List<Measurement.InjectorShare> injectors, List<String> gatlingReports, List<PinnedSite> pinnedSites) {

	public LevelResult {
		// A summary.json written before pinned sites were recorded reads back with none.
		pinnedSites = (pinnedSites != null) ? List.copyOf(pinnedSites) : List.of();
	}

	public enum Verdict {

		/** The service was the limit and every check could be computed. */
		OK,
		/** The person stopped the run during this level: not the service's fault, not ranked. */
		INTERRUPTED,
		/** The measurement was the limit or broke (injector, downstream, warm-up, missing data): shown, never ranked. */
		INVALID,
		/** The service broke: died, ran out of memory, stalled, refused connections, or too many errors. */
		FAILED

	}

	/** A declared metric's figure (NaN when it could not be computed). */
	public double metric(Metric metric) {
		return this.sampled.getOrDefault(metric, Double.NaN);
	}

	/** The users of a closed level, the rate of an open one. */
	public int load() {
		return this.level.amount();
	}

	public long errors() {
		return this.errors4xx + this.errors5xx + this.timeouts + this.refused + this.checkFailures + this.unanswered;
	}

	/** The same row with one more reason (a note that does not change the verdict). */
	LevelResult withReason(String reason) {
		List<String> more = new ArrayList<>(this.reasons);
		more.add(reason);
		return new LevelResult(this.variant, this.level, this.repeats, this.rps, this.rpsMin,
				this.rpsMax, this.ceilingRps, this.efficiency, this.p50AllMs, this.p95AllMs, this.p99AllMs, this.maxAllMs,
				this.p50OkMs, this.p95OkMs, this.p99OkMs, this.maxOkMs, this.requests, this.errors4xx, this.errors5xx,
				this.timeouts, this.refused, this.checkFailures, this.unanswered, this.errorPercent,
				this.longestStallSeconds, this.serviceCpuPercent, this.cpuMsPerRequest, this.warmupCpuMsPerRequest,
				this.sampled, this.injectorCpuPercent, this.injectorCoresBusyPercent,
				this.downstreamP99LateMs, this.downstreamOwnP99OverheadMs, this.headroom, this.verdict, List.copyOf(more), this.evidence,
				this.injectors, this.gatlingReports, this.pinnedSites);
	}

}
