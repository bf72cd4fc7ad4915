package lab.analyse.read;

import java.util.LinkedHashMap;
import java.util.Map;

import lab.load.LoadWindow;

/**
 * The PostgreSQL the lab started, over a level's window ({@code lab.sample.PostgresWatch}'s series of source
 * {@code postgres}): its active backends on average, what they waited on, and its own CPU. {@link #NONE} for a level
 * without it.
 *
 * @param activeBackends active backends of the service's database, on average over the window's seconds
 * @param onCpuBackends those active with no wait event (running or runnable), on average
 * @param waitingBackends those waiting, on average, by wait event type ({@code Lock}, {@code LWLock}, {@code IO},
 *        {@code Timeout}, {@code Client}, ...), largest first
 * @param cpuPercent PostgreSQL's CPU (postmaster and backends), % of one core
 * @param seconds how many seconds of the window were sampled
 */
public record Database(double activeBackends, double onCpuBackends, Map<String, Double> waitingBackends, double cpuPercent, int seconds) {

	public static final Database NONE = new Database(Double.NaN, Double.NaN, Map.of(), Double.NaN, 0);

	static final String SOURCE = "postgres";

	static final String WAITING = "pg_backends_waiting_";

	public static Database read(Samples samples, LoadWindow window) {
		TimeSeries active = samples.series(SOURCE, "pg_active_backends").clipTo(window);
		int seconds = active.samples().size();
		if (seconds == 0) {
			return NONE;
		}
		Map<String, Double> waiting = new LinkedHashMap<>();
		samples.seriesNames(SOURCE, WAITING).stream()
			// A type absent from a second had no backend waiting on it: the mean is over every sampled second.
			.map(name -> Map.entry(name.substring(WAITING.length()), sum(samples.series(SOURCE, name).clipTo(window)) / seconds))
			.sorted(Map.Entry.<String, Double>comparingByValue().reversed())
			.forEach(entry -> waiting.put(entry.getKey(), entry.getValue()));
		double cpu = CounterDelta.ratePerSecond(samples.series(SOURCE, "proc_cpu_seconds").clipTo(window));
		return new Database(sum(active) / seconds, sum(samples.series(SOURCE, "pg_backends_on_cpu").clipTo(window)) / seconds, waiting,
				100 * cpu, seconds);
	}

	/** Backends waiting on locks (heavyweight and lightweight) on average. */
	public double lockWaitingBackends() {
		return this.waitingBackends.getOrDefault("Lock", 0.0) + this.waitingBackends.getOrDefault("LWLock", 0.0);
	}

	private static double sum(TimeSeries series) {
		return series.samples().stream().mapToDouble(TimeSeries.Sample::value).sum();
	}

}
