package lab.analyse.read;

import java.util.List;

import lab.load.LoadWindow;

/**
 * The window's two halves side by side, to see whether it was stationary: requests sent per second and the service's
 * mutator CPU per request (process CPU less GC pause time and the JIT's own threads, over the requests sent) in each.
 * GC is taken out because on one core a full collection landing in one half moves that half's CPU per request
 * whatever the JIT does; the compiler threads because their CPU is judged on its own: what is left is the code's own
 * cost, which falls from the first half to the second while the JIT is still replacing slow code with fast.
 *
 * @param firstRps requests sent per second in the first half
 * @param secondRps ... in the second half
 * @param firstCpuMsPerRequest mutator CPU ms per request in the first half
 * @param secondCpuMsPerRequest ... in the second half
 */
public record Halves(double firstRps, double secondRps, double firstCpuMsPerRequest, double secondCpuMsPerRequest) {

	/** Each half needs this many seconds (and so this many one-second samples) to be compared at all. */
	static final int MIN_HALF_SECONDS = 3;

	public static final Halves UNKNOWN = new Halves(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

	/** Both halves of {@code window} over every injector's requests; UNKNOWN when a half is too short to compare. */
	public static Halves of(Samples samples, List<RequestCounts.Rows> requests, LoadWindow window) {
		long middle = (window.steadyStart() + window.end()) / 2;
		LoadWindow first = new LoadWindow(window.start(), window.steadyStart(), middle);
		LoadWindow second = new LoadWindow(window.start(), middle, window.end());
		if (first.steadySeconds() < MIN_HALF_SECONDS) {
			return UNKNOWN;
		}
		double[] firstHalf = half(samples, requests, first);
		double[] secondHalf = half(samples, requests, second);
		return new Halves(firstHalf[0], secondHalf[0], firstHalf[1], secondHalf[1]);
	}

	/** Requests sent per second and mutator CPU ms per request in one half. */
	private static double[] half(Samples samples, List<RequestCounts.Rows> requests, LoadWindow half) {
		long sent = 0;
		for (RequestCounts.Rows rows : requests) {
			sent += rows.in(half).total();
		}
		double rps = sent / half.steadySeconds();
		double cpu = CounterDelta.ratePerSecond(samples.series("service", "proc_cpu_seconds").clipTo(half));
		if (Double.isNaN(cpu)) {
			cpu = CounterDelta.ratePerSecond(samples.series("service", "cpu_user_seconds").plus(samples.series("service", "cpu_kernel_seconds")).clipTo(half));
		}
		double gc = CounterDelta.ratePerSecond(samples.series("service", "gc_pause_seconds").clipTo(half));
		double jit = CounterDelta.ratePerSecond(samples.series("service", "jit_cpu_seconds").clipTo(half));
		double mutator = cpu - (Double.isNaN(gc) ? 0 : gc) - (Double.isNaN(jit) ? 0 : jit);
		return new double[] { rps, (rps > 0) ? 1000 * mutator / rps : Double.NaN };
	}

	/** How much dearer the first half's requests were than the second's, in % of the second's (NaN if unknown). */
	public double firstHalfDearerPercent() {
		return (this.secondCpuMsPerRequest > 0) ? 100 * (this.firstCpuMsPerRequest / this.secondCpuMsPerRequest - 1) : Double.NaN;
	}

	/**
	 * How much more of one core the first half's requests took than the same requests at the second half's cost, in
	 * % of one core (NaN if unknown): the difference's weight, which fixed per-second costs (scrapes, probes, the
	 * sampler) and the clock's ticks move by a few % whatever the JIT does.
	 */
	public double firstHalfExtraCorePercent() {
		return 100 * (this.firstCpuMsPerRequest - this.secondCpuMsPerRequest) * this.firstRps / 1000;
	}

	/** How far the second half's request rate fell below the first's, in % of the first's (negative: it rose). */
	public double secondHalfSlowerPercent() {
		return (this.firstRps > 0) ? 100 * (1 - this.secondRps / this.firstRps) : Double.NaN;
	}

}
