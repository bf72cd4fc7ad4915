package lab.analyse.read;

import java.util.LinkedHashMap;
import java.util.Map;

import lab.load.LoadWindow;
import lab.plan.DatabasePlacement;

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
 * @param coresBusyPercent how busy the cores it ran on were ({@code /proc/stat}: everything there, itself included), NaN
 *        when not sampled (runs before the placement was recorded)
 * @param placement where it ran: {@code service} (the service's core), {@code harness} (beside the injector),
 *        {@code unpinned}, or "" when not recorded
 */
public record Database(double activeBackends, double onCpuBackends, Map<String, Double> waitingBackends, double cpuPercent, int seconds,
		double coresBusyPercent, String placement) {

	public static final Database NONE = new Database(Double.NaN, Double.NaN, Map.of(), Double.NaN, 0, Double.NaN, "");

	/** Whether it ran on the harness's cores: its CPU is then taken out of theirs before the injector is judged. */
	public boolean onHarnessCores() {
		return this.placement.equals(DatabasePlacement.HARNESS);
	}

	/** Whether it shared the service's core. */
	public boolean onServiceCore() {
		return this.placement.equals(DatabasePlacement.SERVICE);
	}

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
		// A drop of its counter is a backend that ended, not a reset: the sampler since a37bb7d sums each process's growth
		// (never drops while the server runs); records from before it summed the live processes' CPU, which fell by a whole
		// backend's life when a pool retired a connection.
		double cpu = CounterDelta.risesPerSecond(samples.series(SOURCE, "proc_cpu_seconds").clipTo(window));
		double busy = CounterDelta.over(samples.series(SOURCE, "cores_busy_seconds").clipTo(window));
		double total = CounterDelta.over(samples.series(SOURCE, "cores_total_seconds").clipTo(window));
		String placement = last(samples.series(SOURCE, "placed_service").clipTo(window)) > 0 ? DatabasePlacement.SERVICE
				: last(samples.series(SOURCE, "placed_harness").clipTo(window)) > 0 ? DatabasePlacement.HARNESS
				: samples.series(SOURCE, "placed_service").samples().isEmpty() ? "" : "unpinned";
		return new Database(sum(active) / seconds, sum(samples.series(SOURCE, "pg_backends_on_cpu").clipTo(window)) / seconds, waiting,
				100 * cpu, seconds, (total > 0) ? 100 * busy / total : Double.NaN, placement);
	}

	/** Backends waiting on locks (heavyweight and lightweight) on average. */
	public double lockWaitingBackends() {
		return this.waitingBackends.getOrDefault("Lock", 0.0) + this.waitingBackends.getOrDefault("LWLock", 0.0);
	}

	private static double last(TimeSeries series) {
		return series.samples().isEmpty() ? Double.NaN : series.samples().get(series.samples().size() - 1).value();
	}

	private static double sum(TimeSeries series) {
		return series.samples().stream().mapToDouble(TimeSeries.Sample::value).sum();
	}

}
