package lab.analyse.measure;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import lab.analyse.read.CounterDelta;
import lab.analyse.read.Samples;
import lab.analyse.read.TimeSeries;
import lab.analyse.stat.Stats;
import lab.load.LoadWindow;

/**
 * A figure of the service read from its sampled meters, declared once: its field in {@code summary.json}, what it
 * measures and in which unit, how it is computed from the sampler's series ({@code metrics.csv}, source
 * {@code service}) over a level's window, how a level's repeats combine, and how the report shows it. Measurement,
 * Analyser, the report's tables and charts, summary.json and the schema check ({@code MetricTests} against
 * {@code docs/summary-schema.md}) follow from these declarations: a new one is a constant here plus, when its series
 * is new, one line in the sampler ({@code lab.sample.Prometheus}).
 */
public enum Metric {

	GC_PERCENT("gcPercent", "%", "GC pause time per second of wall time", Source.rate(100, "gc_pause_seconds"), Over.MEDIAN,
			new Shown(Table.MAIN, "GC %", Format.DECIMAL, "GC share of wall time")),

	JIT_PERCENT("jitPercent", "%", "the JIT's CPU per second of wall time: the CPU time of HotSpot's compiler threads (`C1/C2 "
			+ "CompilerThread*`, from `/proc`: by the runner for the services it starts, by the service itself as `process.jit.cpu` for a "
			+ "`--target` or Compose service), else (runs before that counter) micrometer's `jvm.compilation.time` (the compilations' "
			+ "elapsed time, which on a saturated or CPU-limited core runs on while the compiler waits for it): what \"not warm\" judges",
			Source.firstOf(Source.rate(100, "jit_cpu_seconds"), Source.rate(0.1, "jit_compile_ms")), Over.MAX,
			new Shown(Table.DETAIL, "JIT %", Format.DECIMAL, null)),

	PEAK_HEAP_MIB("peakHeapMiB", "MiB", "the most heap used in the window (live objects and garbage, micrometer's `jvm.memory.used` of the heap pools)", Source.peak(1.0 / Source.MIB, "heap_used_bytes"),
			Over.MAX, new Shown(Table.MAIN, "heap MiB", Format.NUMBER, "Peak heap used")),

	PEAK_LIVE_DATA_MIB("peakLiveDataMiB", "MiB",
			"micrometer's `jvm.gc.live.data.size`: the old generation's occupancy after the last collection that reclaimed it, its "
					+ "maximum in the window (the long-lived heap, without the young garbage `peakHeapMiB` counts)",
			Source.peak(1.0 / Source.MIB, "gc_live_bytes"), Over.MAX, new Shown(Table.MAIN, "live MiB", Format.NUMBER,
					"Live data after GC (old generation)")),

	JSTAT_HEAP_MIB("jstatHeapMiB", "MiB", "a service of your own (no Micrometer meters): jstat's S0U + S1U + EU + OU, its maximum in the "
			+ "window; on Serial GC jstat's eden reads 0 between collections, so this is about the heap after the last collection, "
			+ "below `peakHeapMiB` of a service with meters: not the same quantity", Source.peak(1.0 / Source.MIB, "jstat_heap_bytes"), Over.MAX,
			new Shown(Table.DETAIL, "jstat heap / old MiB", Format.NUMBER, null)),

	JSTAT_OLD_GEN_MIB("jstatOldGenMiB", "MiB", "a service of your own: jstat's OU, the old generation's occupancy, its maximum in the "
			+ "window: promoted garbage included until a full collection, so above `peakLiveDataMiB` of a service with meters",
			Source.peak(1.0 / Source.MIB, "jstat_old_bytes"), Over.MAX, new Shown(Table.DETAIL, null, Format.NUMBER, null)),

	PEAK_RSS_MIB("peakRssMiB", "MiB", "the service process's largest resident set in the window", Source.peak(1.0 / Source.MIB, "rss_bytes"),
			Over.MAX, new Shown(Table.MAIN, "RSS MiB", Format.NUMBER, "Peak RSS")),

	PEAK_NATIVE_THREADS("peakNativeThreads", "threads", "the most OS threads of the service in the window", Source.peak(1, "native_threads"),
			Over.MAX, new Shown(Table.DETAIL, "native thr.", Format.NUMBER, "Peak native threads")),

	PEAK_VIRTUAL_THREADS("peakVirtualThreadsMountedOrQueued", "threads",
			"micrometer-java21's `jvm.threads.virtual.live`: mounted plus queued virtual threads, not parked ones; its maximum in the window",
			Source.peak(1, "virtual_threads"), Over.MAX,
			new Shown(Table.DETAIL, "virtual thr. peak / at end", Format.NUMBER, "Peak virtual threads mounted or queued")),

	PEAK_SERVER_CONNECTIONS("peakServerConnections", "connections", "the server's own open connections, their maximum in the window "
					+ "(`lab.server.connections.open`, one gauge for every server, counted by Tomcat's endpoint and as each Jetty or Reactor "
					+ "Netty connection opens and closes; runs before 2026-11-24 read Tomcat's `tomcat.connections.current`, and runs before "
					+ "2026-11-22 Reactor Netty's active connections, which undercount when the event loop is saturated): the requests in "
					+ "flight of a closed model",
			Source.peak(1, "server_connections", "tomcat_connections", "netty_connections"), Over.MAX,
			new Shown(Table.DETAIL, "conns", Format.NUMBER, "Peak server connections (requests in flight)")),

	PINNED_EVENTS("pinnedEvents", "events", "`jdk.VirtualThreadPinned` events in the window (JFR threshold: `lab.pinned-threshold`, 1 ms by default, "
					+ "recorded in `manifest.json` as `pinnedThreshold`; runs before it existed used micrometer-java21's fixed 20 ms)",
			Source.delta("pinned_count"), Over.MEDIAN, new Shown(Table.DETAIL, "pinned", Format.NUMBER, null)),

	CONTEXT_SWITCHES_PER_SECOND("contextSwitchesPerSecond", "1/s", "voluntary + involuntary, all threads of the service",
			Source.rate(1, "ctx_voluntary", "ctx_involuntary"), Over.MEDIAN, new Shown(Table.NONE, "ctx sw./s", Format.NUMBER, null)),

	PEAK_POOL_ACTIVE("peakPoolActive", "connections", "a service of your own's database connections in use, their maximum in the window "
			+ "(HikariCP's `hikaricp.connections.active` or r2dbc-pool's `r2dbc.pool.acquired.connections` from its Prometheus endpoint, "
			+ "every pool summed; none when it exposes none)",
			Source.peak(1, "pool_active"), Over.MAX, new Shown(Table.NONE, "pool busy", Format.NUMBER, null)),

	POOL_MAX("poolMax", "connections", "the most connections its pools may open (`hikaricp.connections.max`, "
			+ "`r2dbc.pool.max.allocated.connections`, summed)",
			Source.peak(1, "pool_max"), Over.MAX, new Shown(Table.NONE, "pool max", Format.NUMBER, null)),

	PEAK_POOL_PENDING("peakPoolPending", "threads", "the most threads (or R2DBC subscribers) waiting for a connection in the window "
			+ "(`hikaricp.connections.pending`, `r2dbc.pool.pending.connections`): above 0 with every connection busy, the pool was the limit",
			Source.peak(1, "pool_pending"), Over.MAX, new Shown(Table.NONE, "pool waiting", Format.NUMBER, null)),

	SERVICE_CORE_STRANGER_PERCENT("serviceCoreStrangerPercent", "% of one core", "CPU that other processes used on the service's pinned "
			+ "core, per second of wall time (every process's CPU whose last CPU was the service's, once a second from `/proc`; the "
			+ "runner and kernel threads left out; named in `core-strangers.csv`): none when the service is not pinned",
			Source.rate(100, "strangers_cpu_seconds"), Over.MAX, new Shown(Table.DETAIL, "others on its core %", Format.DECIMAL, null));

	/** The field in {@code summary.json}'s rows, and the name in the code. */
	private final String field;

	private final String unit;

	private final String meaning;

	private final Source source;

	private final Over over;

	private final Shown shown;

	Metric(String field, String unit, String meaning, Source source, Over over, Shown shown) {
		this.field = field;
		this.unit = unit;
		this.meaning = meaning;
		this.source = source;
		this.over = over;
		this.shown = shown;
	}

	public String field() {
		return this.field;
	}

	public String unit() {
		return this.unit;
	}

	public String meaning() {
		return this.meaning;
	}

	public Shown shown() {
		return this.shown;
	}

	/** The figure of one level's window from the service's samples; NaN when its series has no samples there. */
	public double measure(Samples samples, LoadWindow window) {
		return this.source.measure(samples, window);
	}

	/** The figure of a level run several times, from each repeat's. */
	public <T> double combine(List<T> repeats, ToDoubleFunction<T> value) {
		return (this.over == Over.MAX) ? Stats.max(repeats, value) : Stats.median(repeats, value);
	}

	/** The rows of {@code docs/summary-schema.md} that document the declared metrics, in declaration order. */
	public static List<String> schemaRows() {
		return Arrays.stream(values()).map(m -> "| `" + m.field + "` | " + m.unit + " | " + m.meaning + " |").toList();
	}

	/** Every declared metric at NaN: a level with no window to measure them in. */
	public static Map<Metric, Double> unmeasured() {
		Map<Metric, Double> none = new EnumMap<>(Metric.class);
		for (Metric metric : values()) {
			none.put(metric, Double.NaN);
		}
		return none;
	}

	/** The metrics a table shows, in declaration order. */
	public static List<Metric> in(Table table) {
		return Arrays.stream(values()).filter(m -> m.shown.table() == table).toList();
	}

	/** Which of the report's per-level tables shows a metric: the main one, the details one, or none (summary.json only). */
	public enum Table {
		MAIN, DETAIL, NONE
	}

	/** Whole numbers, or two decimals (the report's Summaries.number and decimal). */
	public enum Format {
		NUMBER, DECIMAL
	}

	/**
	 * How the report shows a metric.
	 *
	 * @param table which per-level table has a column for it
	 * @param column the column's header
	 * @param format how its cells are written
	 * @param chart the title of its chart over the load levels, or null for none
	 */
	public record Shown(Table table, String column, Format format, String chart) {
	}

	/** How repeats of a level combine: the median of a rate or a share, the maximum of a peak. */
	enum Over {
		MEDIAN, MAX
	}

	/**
	 * Where a metric comes from: the service's sampled series (summed when several), as its peak in the window, its
	 * growth over the window, or its growth per second; times {@code scale}.
	 */
	record Source(Kind kind, double scale, List<String> series, List<Source> alternatives) {

		static final double MIB = 1024.0 * 1024.0;

		enum Kind {
			PEAK, DELTA, RATE, FIRST
		}

		static Source peak(double scale, String... series) {
			return new Source(Kind.PEAK, scale, List.of(series), List.of());
		}

		static Source delta(String... series) {
			return new Source(Kind.DELTA, 1, List.of(series), List.of());
		}

		static Source rate(double scale, String... series) {
			return new Source(Kind.RATE, scale, List.of(series), List.of());
		}

		/** The first of these sources that has a figure in the window (the better measure first). */
		static Source firstOf(Source... alternatives) {
			return new Source(Kind.FIRST, 1, List.of(), List.of(alternatives));
		}

		double measure(Samples samples, LoadWindow window) {
			if (this.kind == Kind.FIRST) {
				for (Source alternative : this.alternatives) {
					double value = alternative.measure(samples, window);
					if (!Double.isNaN(value)) {
						return value;
					}
				}
				return Double.NaN;
			}
			if (this.kind == Kind.PEAK) {
				// The largest of the series' peaks: each names the same gauge in another server (Tomcat's, Netty's).
				double peak = Double.NaN;
				for (String name : this.series) {
					peak = Stats.max(peak, samples.series("service", name).clipTo(window).max().orElse(Double.NaN));
				}
				return this.scale * peak;
			}
			TimeSeries sum = samples.series("service", this.series.get(0));
			for (String name : this.series.subList(1, this.series.size())) {
				sum = sum.plus(samples.series("service", name));
			}
			TimeSeries clipped = sum.clipTo(window);
			return this.scale * ((this.kind == Kind.DELTA) ? CounterDelta.over(clipped) : CounterDelta.ratePerSecond(clipped));
		}

	}

}
