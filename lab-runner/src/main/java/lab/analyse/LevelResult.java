package lab.analyse;

import java.util.List;

/**
 * One row of the report: a variant at a load level, every figure taken inside the steady load window.
 * Latencies in ms, CPU in % of one core, memory in MiB; NaN where the data to compute it was missing.
 * {@code injectors} lists each injector's part when several shared the load (its requests add up to
 * {@code requests}; the percentiles above come from their merged histograms), else is empty.
 */
public record LevelResult(String variant, int users, int ratePerSecond, int load, int repeats, double rps,
		double rpsMin, double rpsMax, double ceilingRps, double efficiency, double p50Ms, double p95Ms, double p99Ms,
		double maxMs, long requests, long errors4xx, long errors5xx, long timeouts, long refused, long checkFailures,
		double errorPercent, double serviceCpuPercent, double cpuMsPerRequest, double gcPercent, double peakHeapMiB,
		double peakRssMiB, double peakNativeThreads, double peakVirtualThreads, double pinnedEvents,
		double contextSwitchesPerSecond, double injectorCpuPercent, double injectorCoresBusyPercent,
		double downstreamP99OverheadMs, Verdict verdict, List<String> reasons, List<String> evidence,
		List<Measurement.InjectorShare> injectors, List<String> gatlingReports) {

	public enum Verdict {

		/** The service was the limit and the measurement is trustworthy. */
		OK,
		/** The measurement was the limit (injector, downstream, warm-up, descriptor cap): shown, never ranked. */
		INVALID,
		/** The service broke: died, ran out of memory, refused connections, or too many errors. */
		FAILED

	}

	public long errors() {
		return this.errors4xx + this.errors5xx + this.timeouts + this.refused + this.checkFailures;
	}

}
