package lab.analyse.measure;

import java.util.Map;
import java.util.TreeMap;

import lab.analyse.read.CounterDelta;
import lab.analyse.read.Latency;
import lab.analyse.read.Samples;
import lab.analyse.read.TimeSeries;
import lab.load.LoadWindow;

/**
 * Where a level's requests spent their time, from three clocks: the injector's (send to last byte of the answer), the
 * service's server timer (Spring's observation of the exchange: from its servlet filter on Tomcat and Jetty, from its web
 * filter on Reactor Netty, to the response) and its client timer (the call to the downstream, connection-pool wait
 * included). Their means are additive: the injector's time = the wait before the server's timer started + the time in
 * the service outside the call + the call. Percentiles are each clock's own (a percentile of a difference cannot be
 * read from two histograms): the server's and the client's from their Prometheus buckets' deltas over the window,
 * interpolated inside a bucket.
 *
 * What each part holds is said once, in {@code Figures.BEFORE_SERVER_HOLDS},
 * {@code Figures.OUTSIDE_CALL_HOLDS} and {@code Figures.CALL_HOLDS}. A service run
 * {@code lean} has no per-request timer: then only the injector's part is known.
 *
 * @param injectorMeanMs the mean of the successful responses sent in the window, as the injector timed them
 * @param serverMeanMs the server timer's mean over the exchanges it completed in the window (NaN: no timer)
 * @param clientMeanMs the client timer's mean over the calls completed in the window (NaN: no timer)
 * @param serverP50Ms the server timer's median
 * @param serverP99Ms its 99th percentile
 * @param clientP50Ms the client timer's median
 * @param clientP99Ms its 99th percentile
 */
public record Breakdown(double injectorMeanMs, double serverMeanMs, double clientMeanMs, double serverP50Ms, double serverP99Ms, double clientP50Ms,
		double clientP99Ms) {

	public static final Breakdown NONE = new Breakdown(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

	/** The breakdown of a window: the injector's mean from its histogram, the service's timers from its samples. */
	static Breakdown of(Samples samples, LoadWindow window, Latency latency) {
		double injector = (latency.ok().getTotalCount() > 0) ? latency.ok().getMean() / 1000.0 : Double.NaN;
		return new Breakdown(injector, meanMillis(samples, window, "server_seconds_sum", "server_requests"),
				meanMillis(samples, window, "client_seconds_sum", "client_requests"),
				percentileMillis(samples.buckets("service", "server"), window, 50), percentileMillis(samples.buckets("service", "server"), window, 99),
				percentileMillis(samples.buckets("service", "client"), window, 50), percentileMillis(samples.buckets("service", "client"), window, 99));
	}

	/** The injector's mean less the server timer's: the wait before the service's timer started (network, queue, a thread). */
	public double beforeServerMs() {
		return this.injectorMeanMs - this.serverMeanMs;
	}

	/** The server timer's mean less the client timer's: the time in the service outside the downstream call. */
	public double outsideCallMs() {
		return this.serverMeanMs - this.clientMeanMs;
	}

	/** A timer's mean over the window: its sum's delta over its count's delta, in ms; NaN without both. */
	static double meanMillis(Samples samples, LoadWindow window, String sum, String count) {
		double seconds = CounterDelta.over(samples.series("service", sum).clipTo(window));
		double calls = CounterDelta.over(samples.series("service", count).clipTo(window));
		return (calls > 0 && !Double.isNaN(seconds)) ? 1000 * seconds / calls : Double.NaN;
	}

	/**
	 * A percentile of a Prometheus histogram over the window, in ms: counts per bucket are {@code last - first}, the
	 * percentile interpolated linearly inside its bucket (the lower bound where it falls in the last, +Inf, bucket); NaN
	 * without buckets or counts.
	 */
	static double percentileMillis(Map<Double, TimeSeries> buckets, LoadWindow window, double percentile) {
		TreeMap<Double, Double> cumulative = new TreeMap<>();
		for (Map.Entry<Double, TimeSeries> bucket : buckets.entrySet()) {
			double count = CounterDelta.over(bucket.getValue().clipTo(window));
			if (!Double.isNaN(count)) {
				cumulative.put(bucket.getKey(), count);
			}
		}
		Double total = cumulative.get(Double.POSITIVE_INFINITY);
		if (total == null || total <= 0) {
			return Double.NaN;
		}
		double rank = percentile / 100 * total;
		double lowerBound = 0;
		double lowerCount = 0;
		for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
			if (bucket.getValue() >= rank) {
				if (bucket.getKey().isInfinite()) {
					return lowerBound * 1000;
				}
				double inBucket = bucket.getValue() - lowerCount;
				double fraction = (inBucket > 0) ? (rank - lowerCount) / inBucket : 1;
				return 1000 * (lowerBound + fraction * (bucket.getKey() - lowerBound));
			}
			lowerBound = bucket.getKey();
			lowerCount = bucket.getValue();
		}
		return Double.NaN;
	}

}
