package lab.sample;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Picks the series the lab analyses out of a Prometheus text scrape, summing samples of the same metric across
 * label sets (GC causes, memory pools) into one named series.
 */
public final class Prometheus {

	private Prometheus() {
	}

	/** The series prefix of the connection pools' meters. */
	public static final String POOL_PREFIX = "pool_";

	/** Each selector: the series name in metrics.csv, the metric it sums and an optional label filter (a series may sum several metrics). */
	private static final List<String[]> SELECTED = new ArrayList<>();

	/** bucket series prefix in metrics.csv ({@code <name>_le_<seconds>}) → histogram bucket metric and an optional label filter. */
	private static final Map<String, String[]> HISTOGRAMS = new LinkedHashMap<>();

	static {
		select("cpu_user_seconds", "process_cpu_user_seconds_total", null);
		select("cpu_kernel_seconds", "process_cpu_kernel_seconds_total", null);
		select("gc_pause_seconds", "jvm_gc_pause_seconds_sum", null);
		select("gc_pause_count", "jvm_gc_pause_seconds_count", null);
		// The JIT's own counter (HotSpot's sun.ci.totalTime through the CompilationMXBean): what "not warm" judges when the
		// compiler threads' CPU cannot be read from /proc (a service the runner did not start).
		select("jit_compile_ms", "jvm_compilation_time_ms_total", null);
		// The compiler threads' CPU as the service counts it itself (ProcessMetrics, only in a service the runner did not
		// start): the same series the sampler writes from /proc for the services it starts, and what "not warm" reads first.
		select("jit_cpu_seconds", "process_jit_cpu_seconds_total", null);
		select("heap_used_bytes", "jvm_memory_used_bytes", "area=\"heap\"");
		select("heap_max_bytes", "jvm_memory_max_bytes", "area=\"heap\"");
		select("gc_live_bytes", "jvm_gc_live_data_size_bytes", null);
		select("rss_bytes", "process_memory_rss_bytes", null);
		select("native_threads", "process_threads_native", null);
		select("virtual_threads", "jvm_threads_virtual_live_threads", null);
		select("pinned_count", "jvm_threads_virtual_pinned_seconds_count", null);
		select("ctx_voluntary", "process_context_switches_voluntary_total", null);
		select("ctx_involuntary", "process_context_switches_involuntary_total", null);
		select("server_requests", "http_server_requests_seconds_count", "uri=\"/address/{delayMs}\"");
		select("failures", "lab_failures_total", null);
		// Every server's open connections under one name (service-common's gauge); runs before it kept Tomcat's own
		// gauge as tomcat_connections and the Netty variants' as netty_connections (read by Metric and the timeline).
		select("server_connections", "lab_server_connections_open", null);
		select("downstream_inflight", "downstream_inflight", null);
		// The service's own timers of each request (observe full): the server's from its filter or web filter to the
		// response, the client's around the downstream call; with the injector's time, where a request's time went.
		select("server_seconds_sum", "http_server_requests_seconds_sum", "uri=\"/address/{delayMs}\"");
		select("client_requests", "http_client_requests_seconds_count", "uri=\"/address/{delayMs}\"");
		select("client_seconds_sum", "http_client_requests_seconds_sum", "uri=\"/address/{delayMs}\"");
		// A service's connection pools (HikariCP's meters through Micrometer, and r2dbc-pool's as Spring Boot registers
		// them; every pool summed): a service of the user's own is read for these alone ({@link #selectPools}).
		select(POOL_PREFIX + "active", "hikaricp_connections_active", null);
		select(POOL_PREFIX + "pending", "hikaricp_connections_pending", null);
		select(POOL_PREFIX + "max", "hikaricp_connections_max", null);
		select(POOL_PREFIX + "timeouts", "hikaricp_connections_timeout_total", null);
		select(POOL_PREFIX + "active", "r2dbc_pool_acquired_connections", null);
		select(POOL_PREFIX + "pending", "r2dbc_pool_pending_connections", null);
		select(POOL_PREFIX + "max", "r2dbc_pool_max_allocated_connections", null);
		histogram("overhead", "downstream_overhead_seconds_bucket", null);
		histogram("server", "http_server_requests_seconds_bucket", "uri=\"/address/{delayMs}\"");
		histogram("client", "http_client_requests_seconds_bucket", "uri=\"/address/{delayMs}\"");
	}

	/** Only the connection pools' series of a scrape: what the lab reads from a service of the user's own. */
	public static Map<String, Double> selectPools(String scrape) {
		Map<String, Double> pools = new LinkedHashMap<>();
		select(scrape).forEach((series, value) -> {
			if (series.startsWith(POOL_PREFIX)) {
				pools.put(series, value);
			}
		});
		return pools;
	}

	private static void histogram(String name, String metric, String label) {
		HISTOGRAMS.put(name, new String[] { metric, label });
	}

	private static void select(String series, String metric, String label) {
		SELECTED.add(new String[] { series, metric, label });
	}

	/**
	 * The selected series of one scrape, plus the buckets of the selected histograms as {@code <name>_le_<seconds>}
	 * (summed over label sets): the downstream's overhead (time beyond the requested delay), the service's server and
	 * client timers.
	 */
	public static Map<String, Double> select(String scrape) {
		Map<String, Double> values = new LinkedHashMap<>();
		for (String line : scrape.split("\n")) {
			if (line.isEmpty() || line.charAt(0) == '#') {
				continue;
			}
			int space = line.lastIndexOf(' ');
			int brace = line.indexOf('{');
			String metric = line.substring(0, (brace > 0 && brace < space) ? brace : space);
			double value;
			try {
				value = Double.parseDouble(line.substring(space + 1));
			}
			catch (NumberFormatException ex) {
				continue;
			}
			for (String[] selector : SELECTED) {
				if (selector[1].equals(metric) && (selector[2] == null || line.contains(selector[2]))) {
					values.merge(selector[0], value, Double::sum);
				}
			}
			int le = metric.endsWith("_bucket") ? line.indexOf("le=\"") : -1;
			if (le > 0) {
				String bound = line.substring(le + 4, line.indexOf('"', le + 4));
				for (Map.Entry<String, String[]> histogram : HISTOGRAMS.entrySet()) {
					String[] selector = histogram.getValue();
					if (selector[0].equals(metric) && (selector[1] == null || line.contains(selector[1]))) {
						values.merge(histogram.getKey() + "_le_" + bound, value, Double::sum);
					}
				}
			}
		}
		return values;
	}

}
