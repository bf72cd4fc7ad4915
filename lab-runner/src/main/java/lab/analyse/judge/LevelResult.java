package lab.analyse.judge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.evidence.PinnedSite;
import lab.analyse.measure.Headroom;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.analyse.measure.RequestFigures;
import lab.layout.LatencyTarget;
import lab.layout.Level;

/**
 * One row of the report: a variant at a load level, its repeats, every declared {@link Figure} (taken inside the
 * steady load window, in declaration order: {@link Figures}), what the harness spent per request and how far this
 * host carries ({@code headroom}), the verdict and why. Requests are accounted for by the time they were sent. NaN
 * where the data to compute a figure was missing. In summary.json the level is two fields and the load, each figure
 * a field of its own ({@code LevelJson.row}). {@code meetsTarget}: whether the level met the run's latency target
 * ({@link LatencyTarget}), beside its verdict: only an OK level can; null for an interrupted one. {@code injectors} lists each injector's part when several shared the
 * load, else is empty. {@code byRequest}: a service of the user's own's named requests, each with its figures and own target.
 */
public record LevelResult(String variant, Level level, int repeats, Map<Figure, Double> figures, Headroom headroom, Verdict verdict,
		Boolean meetsTarget, List<String> reasons, List<String> evidence, List<Measurement.InjectorShare> injectors, List<String> gatlingReports,
		List<PinnedSite> pinnedSites, List<RequestFigures> byRequest) {

	/**
	 * Gatling's assertions failed (its exit 2) over all its requests, ramp included; kept only where the lab's window met
	 * the target ({@link #withTarget}), where the two disagree.
	 */
	public static final String GATLING_ASSERTIONS_NOTE = "Gatling's assertions of the latency target failed over all its requests, ramp included, "
			+ "where the lab's steady window met it (its report shows which)";

	public LevelResult {
		figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
		headroom = (headroom != null) ? headroom : Headroom.UNKNOWN;
		pinnedSites = (pinnedSites != null) ? List.copyOf(pinnedSites) : List.of();
		byRequest = (byRequest != null) ? List.copyOf(byRequest) : List.of();
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

	/** A declared figure of this level; NaN when it could not be computed or is not declared. */
	public double value(Figure figure) {
		return this.figures.getOrDefault(figure, Double.NaN);
	}

	/** A declared metric's figure (NaN when it could not be computed). */
	public double metric(Metric metric) {
		return value(Figures.of(metric));
	}

	/** The users of a closed level, the rate of an open one. */
	public int load() {
		return this.level.amount();
	}

	public double rps() {
		return value(Figures.RPS);
	}

	public double rpsMin() {
		return value(Figures.RPS_MIN);
	}

	public double rpsMax() {
		return value(Figures.RPS_MAX);
	}

	public double ceilingRps() {
		return value(Figures.CEILING_RPS);
	}

	public double efficiency() {
		return value(Figures.EFFICIENCY);
	}

	public double p50AllMs() {
		return value(Figures.P50_ALL_MS);
	}

	public double p99AllMs() {
		return value(Figures.P99_ALL_MS);
	}

	public double p99OkMs() {
		return value(Figures.P99_OK_MS);
	}

	public long requests() {
		return (long) value(Figures.REQUESTS);
	}

	public double errorPercent() {
		return value(Figures.ERROR_PERCENT);
	}

	public double serviceCpuPercent() {
		return value(Figures.SERVICE_CPU_PERCENT);
	}

	public double cpuMsPerRequest() {
		return value(Figures.CPU_MS_PER_REQUEST);
	}

	public double injectorCpuPercent() {
		return value(Figures.INJECTOR_CPU_PERCENT);
	}

	public double injectorCoresBusyPercent() {
		return value(Figures.INJECTOR_CORES_BUSY_PERCENT);
	}

	public double downstreamP99LateMs() {
		return value(Figures.DOWNSTREAM_P99_LATE_MS);
	}

	/** Every request that did not succeed, of every kind. */
	public long errors() {
		return (long) (value(Figures.ERRORS_4XX) + value(Figures.ERRORS_5XX) + value(Figures.TIMEOUTS) + value(Figures.REFUSED)
				+ value(Figures.CHECK_FAILURES) + value(Figures.UNANSWERED));
	}

	/** The same row with one more reason (a note that does not change the verdict). */
	public LevelResult withReason(String reason) {
		List<String> more = new ArrayList<>(this.reasons);
		more.add(reason);
		return new LevelResult(this.variant, this.level, this.repeats, this.figures, this.headroom, this.verdict, this.meetsTarget, List.copyOf(more),
				this.evidence, this.injectors, this.gatlingReports, this.pinnedSites, this.byRequest);
	}

	/**
	 * The same row judged against a latency target. Gatling's own assertions of it (over all its requests, ramp
	 * included) stay a note only where they disagree with the lab's judgment of the window: failed where the window met it.
	 */
	public LevelResult withTarget(LatencyTarget target) {
		Boolean meets = meets(target);
		List<String> reasons = Boolean.TRUE.equals(meets) ? this.reasons
				: this.reasons.stream().filter(reason -> !reason.equals(GATLING_ASSERTIONS_NOTE)).toList();
		return new LevelResult(this.variant, this.level, this.repeats, this.figures, this.headroom, this.verdict, meets, reasons,
				this.evidence, this.injectors, this.gatlingReports, this.pinnedSites, this.byRequest);
	}

	/**
	 * The target's judgment in words: "target met", "target missed: p99 1,034 > 1,000 ms" (or the error share that
	 * missed it), "" where it was not judged (an interrupted level) or nothing could meet it (not OK).
	 */
	public String targetText(LatencyTarget target) {
		if (this.meetsTarget == null || this.verdict != Verdict.OK) {
			return "";
		}
		if (this.meetsTarget) {
			return "target met";
		}
		List<String> missed = new ArrayList<>();
		if (!(latency(target) <= target.maxMs())) {
			missed.add(String.format(java.util.Locale.ROOT, "%s %,.0f > %,.0f ms", target.percentileName(), latency(target), target.maxMs()));
		}
		if (!(errorPercent() <= target.maxErrorPercent())) {
			missed.add(String.format(java.util.Locale.ROOT, "errors %.2f%% > %s%%", errorPercent(), Double.toString(target.maxErrorPercent())
				.replaceFirst("\\.0$", "")));
		}
		return "target missed: " + String.join(", ", missed);
	}

	/** What bound this level, in words ({@link Limit}): the report's limit column, summary.json's {@code limit}, a probe's. */
	public String limit() {
		return Limit.of(this);
	}

	/**
	 * Whether this level met {@code target}: an OK level whose percentile of every request sent (or maximum) and error
	 * share are within it; a FAILED or INVALID level meets nothing; an interrupted one is not judged (null).
	 */
	public Boolean meets(LatencyTarget target) {
		if (this.verdict == Verdict.INTERRUPTED) {
			return null;
		}
		if (this.verdict != Verdict.OK) {
			return false;
		}
		return latency(target) <= target.maxMs() && errorPercent() <= target.maxErrorPercent();
	}

	/** The figure a target's percentile reads: p50, p95, p99 or the maximum of every request sent. */
	public double latency(LatencyTarget target) {
		Figure figure = (target.percentile() >= 100) ? Figures.MAX_ALL_MS : (target.percentile() >= 99) ? Figures.P99_ALL_MS
				: (target.percentile() >= 95) ? Figures.P95_ALL_MS : Figures.P50_ALL_MS;
		return value(figure);
	}

}
