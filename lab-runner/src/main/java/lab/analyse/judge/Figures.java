package lab.analyse.judge;

import java.util.ArrayList;
import java.util.List;

import lab.analyse.judge.Figure.Compared;
import lab.analyse.judge.Figure.Format;
import lab.analyse.judge.Figure.Shown;
import lab.analyse.judge.Figure.Table;
import lab.analyse.measure.Breakdown;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.analyse.read.Latency;
import lab.analyse.read.OffCpu;
import lab.analyse.read.RequestCounts;
import lab.layout.Level;

/**
 * Every figure of a level, declared once, in {@code summary.json}'s order: the load's throughput and latency, the
 * requests by outcome, the service's CPU, the declared sampled {@link Metric}s (in their place), the harness. Repeats
 * combine as each declares: the median of rates, the maximum of peaks, merged histograms for percentiles, summed
 * counts. {@link #ALL} is what the analysis computes, {@code summary.json} writes, the report shows and
 * {@code ./lab compare} compares; docs/summary-schema.md's rows are {@link #schemaRows}. A new figure is one more
 * declaration here (or in a {@link Catalogue} built on {@link Catalogue#STANDARD}).
 */
public final class Figures {

	private Figures() {
	}

	public static final Figure RPS = Figure.of("rps", "1/s", "successful responses to requests sent in the steady window, per second; "
			+ "the median over repeats (each repeat a fresh service JVM)", r -> r.median(Measurement::rps))
		.shown(new Shown(Table.MAIN, "rps", Format.NUMBER, "Throughput", r -> Format.NUMBER.write(r.rps())
				+ ((r.repeats() > 1) ? " (" + Format.NUMBER.write(r.rpsMin()) + "–" + Format.NUMBER.write(r.rpsMax()) + ")" : "")))
		.compared(Compared.changed("rps", "rps", true));

	public static final Figure RPS_MIN = Figure.of("rpsMin", "1/s", "the lowest repeat's `rps`", r -> r.min(Measurement::rps));

	public static final Figure RPS_MAX = Figure.of("rpsMax", "1/s", "the highest repeat's `rps`", r -> r.max(Measurement::rps));

	public static final Figure CEILING_RPS = Figure.of("ceilingRps", "1/s", "Little's law: users / delay (open: the offered rate)",
			r -> r.facts().ceilingRps());

	public static final Figure EFFICIENCY = Figure.of("efficiency", "ratio", "`rps / ceilingRps`",
			r -> r.value(RPS) / r.value(CEILING_RPS)).shown(Table.MAIN, "eff.", Format.PERCENT);

	public static final Figure P50_ALL_MS = Figure.of("p50AllMs", "ms", "median of every request sent in the window: successes, failures at "
			+ "the time they took to fail, unanswered requests at the request timeout (the merged HdrHistogram of the windows)",
			r -> Latency.millis(r.all(), 50))
		.shown(new Shown(Table.MAIN, "p50 / p99 ms (all)", Format.NUMBER, "p50 latency, all requests", null));

	public static final Figure P95_ALL_MS = Figure.of("p95AllMs", "ms", "95th percentile of every request sent", r -> Latency.millis(r.all(), 95));

	public static final Figure P99_ALL_MS = Figure.of("p99AllMs", "ms", "99th percentile of every request sent",
			r -> Latency.millis(r.all(), 99))
		.shown(Shown.joined(Table.MAIN, Format.NUMBER).charted("p99 latency, all requests"))
		.compared(Compared.changed("p99 ms (all)", "p99", false));

	public static final Figure MAX_ALL_MS = Figure.of("maxAllMs", "ms", "the slowest request sent",
			r -> (r.all().getTotalCount() == 0) ? Double.NaN : r.all().getMaxValue() / 1000.0).shown(Table.DETAIL, "max ms", Format.NUMBER);

	public static final Figure P50_OK_MS = Figure.of("p50OkMs", "ms", "median of the successful responses only", r -> r.latency().okMillis(50));

	public static final Figure P95_OK_MS = Figure.of("p95OkMs", "ms", "95th percentile of the successful responses", r -> r.latency().okMillis(95));

	public static final Figure P99_OK_MS = Figure.of("p99OkMs", "ms", "99th percentile of the successful responses",
			r -> r.latency().okMillis(99)).shown(Table.MAIN, "p99 ms (ok)", Format.NUMBER);

	public static final Figure MAX_OK_MS = Figure.of("maxOkMs", "ms", "the slowest successful response", r -> r.latency().okMaxMillis());

	public static final Figure REQUESTS = Figure.of("requests", "", "requests sent in the window (by send time), all repeats",
			r -> r.counts().total()).counted().shown(Table.DETAIL, "sent", Format.NUMBER);

	public static final Figure ERRORS_4XX = outcome("errors4xx", "answered 4xx", RequestCounts::ko4xx)
		.shown(Table.DETAIL, "errors 4xx/5xx/timeout/refused/check/unanswered", Format.NUMBER);

	public static final Figure ERRORS_5XX = outcome("errors5xx", "answered 5xx", RequestCounts::ko5xx).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure TIMEOUTS = outcome("timeouts", "timed out at the request timeout", RequestCounts::koTimeout)
		.shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure REFUSED = outcome("refused", "whose connection was refused or reset", RequestCounts::koConnection)
		.shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure CHECK_FAILURES = outcome("checkFailures", "answered, but the answer failed the simulation's check",
			RequestCounts::koCheck).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure UNANSWERED = outcome("unanswered", "never answered before the injector stopped (counted at the request timeout)",
			RequestCounts::unanswered).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure ERROR_PERCENT = Figure.of("errorPercent", "% of requests", "every kind of error, unanswered included, over `requests`",
			r -> (r.value(REQUESTS) > 0) ? 100.0 * r.counts().errors() / r.value(REQUESTS) : Double.NaN)
		.shown(new Shown(Table.MAIN, "err. %", Format.DECIMAL, "Errors", null))
		.compared(Compared.shown("err. %"));

	public static final Figure LONGEST_STALL_SECONDS = Figure.of("longestStallSeconds", "s",
			"the longest run of seconds in the window in which no response at all arrived (`completions.csv`)",
			r -> r.max(m -> (m.stall().rows() > 0) ? m.stall().seconds() : Double.NaN)).shown(Table.MAIN, "stall s", Format.NUMBER);

	public static final Figure SERVICE_CPU_PERCENT = Figure.of("serviceCpuPercent", "% of one core", "service process CPU (user + kernel, from "
			+ "`/proc`; for a `--target`, from its scraped `process_cpu_user/kernel_seconds_total`) per second",
			r -> r.median(Measurement::serviceCpuPercent)).shown(new Shown(Table.MAIN, "CPU %", Format.NUMBER, "Service CPU", null));

	/**
	 * CPU divided by requests is a cost per request only when most were answered: when more than half failed (a dead
	 * service, refused connections, timeouts) it measures the failure, and a few requests over a busy second gave
	 * figures 100 times the real cost. Such levels show none ({@link Rule#COST_MAX_ERRORS}).
	 */
	public static final Figure CPU_MS_PER_REQUEST = Figure.of("cpuMsPerRequest", "ms", "`serviceCpuPercent` per request sent (none when "
			+ "over `costMaxErrorPercent` of the requests failed)",
			r -> (r.value(ERROR_PERCENT) <= r.thresholds().get(Rule.COST_MAX_ERRORS)) ? r.median(Measurement::cpuMsPerRequest) : Double.NaN)
		.shown(Table.MAIN, "CPU ms/req", Format.DECIMAL).compared(Compared.changed("CPU ms/req", "cpu", false));

	public static final Figure WARMUP_CPU_MS_PER_REQUEST = Figure.of("warmupCpuMsPerRequest", "ms",
			"CPU per request in the last 10 s of the warm-up before this level (first level of a service JVM only)",
			r -> r.median(m -> m.warmup().cpuMsPerRequest()));

	public static final Figure WARMUP_SECONDS = Figure.of("warmupSeconds", "s",
			"the seconds of load the warm-up before this level held, its settle rounds included (first level of a service JVM only)",
			r -> r.median(m -> m.warmup().loadSeconds())).shown(Table.DETAIL, "warm-up s / JIT settled s", Format.NUMBER);

	/** The runner's settle test ({@code WarmUp}) applied to every second of the warm-up: when a shorter one would have passed. */
	public static final Figure WARMUP_JIT_SETTLED_SECONDS = Figure.of("warmupJitSettledSeconds", "s",
			"the second of the warm-up's load from which the JIT's CPU over every trailing 10 s stayed at or below `warmupSettlePercent` of "
					+ "`notWarmJitPercent` (the runner's settle test); none when it never did (first level of a service JVM only)",
			r -> r.median(m -> m.warmup().jitSettledSeconds(r.thresholds().get(Rule.NOT_WARM_JIT) * r.thresholds().get(Rule.WARMUP_SETTLE) / 100)))
		.shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure INJECTOR_CPU_PERCENT = Figure.of("injectorCpuPercent", "% of one core",
			"the Gatling processes, summed (local ones from `/proc`, others from their own `cpu.csv`)", r -> r.median(Measurement::injectorCpuPercent));

	public static final Figure INJECTOR_CORES_BUSY_PERCENT = Figure.of("injectorCoresBusyPercent", "%", "how busy the harness cores were "
			+ "(`/proc/stat` of the cores the injector, downstream and runner share: everything that ran there, less a PostgreSQL the lab "
			+ "started when it ran there, whose CPU is `pgCpuPercent`; with `--profile unconstrained`, every core, the service's included); "
			+ "with injectors on other hosts, the busiest of their hosts and this one",
			r -> r.median(Measurement::injectorCoresBusyPercent));

	public static final Figure INJECTOR_WAIT_MS_PER_SLICE = Figure.of("injectorWaitMsPerSlice", "ms", "the local injectors' threads' mean "
			+ "wait for a CPU per time slice on one (`/proc/<pid>/task/*/schedstat`: runnable, not running): how late a wake-up of Gatling's "
			+ "event loop, and so a time it stamps, could be on average", r -> r.median(m -> m.injectorWait().waitMsPerSlice()));

	/**
	 * What the injector's own wait for the CPU could have added to the latencies it reports: a request's time starts
	 * and ends on a wake-up of the injector, so two mean waits, in % of the level's p50 over successes.
	 */
	public static final Figure INJECTOR_CLOCK_PERCENT = Figure.of("injectorClockPercent", "% of the p50", "two of `injectorWaitMsPerSlice` "
			+ "(a request's start and end are each stamped on a wake-up of the injector) in % of `p50OkMs`: the share of the latencies the "
			+ "injector's own wait for the CPU could have added", r -> 100 * 2 * r.median(m -> m.injectorWait().waitMsPerSlice()) / r.value(P50_OK_MS));

	public static final Figure DOWNSTREAM_P99_LATE_MS = Figure.of("downstreamP99LateMs", "ms", "p99 of how late the downstream answered "
			+ "beyond its delay, seen end to end by the runner's probe (10 requests a second, `probe.csv`): the figure the threshold judges",
			r -> r.max(m -> m.probes().p99LateMs()));

	public static final Figure DOWNSTREAM_OWN_P99_OVERHEAD_MS = Figure.of("downstreamOwnP99OverheadMs", "ms",
			"the downstream's own histogram (handler entry to timer): shown, not judged", r -> r.median(Measurement::downstreamP99OverheadMs));

	/*
	 * Where the time went (Breakdown): the injector's, the server timer's and the client timer's means are additive;
	 * their percentiles are each clock's own. What each part holds is said once, here (Breakdown, the off-CPU evidence
	 * and the schema use these): the wait to run again once the downstream has answered falls inside the call until the
	 * thread that stops the client timer runs (a blocking client's own thread or carrier, a reactive client's event
	 * loop), outside it after that (WebFlux + virtual threads: the virtual thread waiting for the event loop's answer).
	 */

	/** What the mean wait before the server's timer started holds. */
	public static final String BEFORE_SERVER_HOLDS = "the network, the accept queue, the wait for a thread (a platform pool), a carrier "
			+ "(virtual threads) or the event loop (Netty), the request's parsing";

	/** What the mean time in the service outside the downstream call holds. */
	public static final String OUTSIDE_CALL_HOLDS = "its work, serialisation and write; with virtual threads behind a reactive client "
			+ "(WebFlux + virtual threads), the virtual thread's wait to run again once the event loop has the answer";

	/** What the client timer's time, the downstream call, holds. */
	public static final String CALL_HOLDS = "the downstream's delay, the network to it, the client pool's wait, and the wait until the thread "
			+ "that stops the client timer runs again once the answer is in (a blocking client's own thread or carrier, a reactive client's event loop)";

	public static final Figure INJECTOR_MEAN_MS = Figure.of("injectorMeanMs", "ms", "mean of the successful responses sent in the window, "
			+ "as the injector timed them (send to the answer's last byte)", r -> r.median(m -> m.breakdown().injectorMeanMs()));

	public static final Figure BEFORE_SERVER_MS = Figure.of("beforeServerMs", "ms", "`injectorMeanMs - serverMeanMs`: the mean wait before "
			+ "the service's server timer started (" + BEFORE_SERVER_HOLDS + ")",
			r -> r.median(m -> m.breakdown().beforeServerMs()))
		.shown(new Shown(Table.DETAIL, "mean ms: before server / in service / call", Format.NUMBER, "Mean ms before the server's timer started",
				null));

	public static final Figure OUTSIDE_CALL_MS = Figure.of("outsideCallMs", "ms", "`serverMeanMs - clientMeanMs`: the mean time in the "
			+ "service outside the downstream call (" + OUTSIDE_CALL_HOLDS + ")",
			r -> r.median(m -> m.breakdown().outsideCallMs())).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure CLIENT_MEAN_MS = Figure.of("clientMeanMs", "ms", "the service's client timer's mean: the downstream call ("
			+ CALL_HOLDS + "; NaN: the service has no per-request timer, `observe lean`)",
			r -> r.median(m -> m.breakdown().clientMeanMs())).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure SERVER_MEAN_MS = Figure.of("serverMeanMs", "ms", "the service's server timer's mean over the exchanges it "
			+ "completed in the window (Spring's observation: servlet filter or web filter to the response)",
			r -> r.median(m -> m.breakdown().serverMeanMs()));

	public static final Figure SERVER_P50_MS = Figure.of("serverP50Ms", "ms", "the server timer's median (its Prometheus buckets' deltas over "
			+ "the window, interpolated in a bucket)", r -> r.median(m -> m.breakdown().serverP50Ms()))
		.shown(new Shown(Table.DETAIL, "server p50 / p99 ms", Format.NUMBER, null, null));

	public static final Figure SERVER_P99_MS = Figure.of("serverP99Ms", "ms", "the server timer's 99th percentile",
			r -> r.median(m -> m.breakdown().serverP99Ms())).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure CLIENT_P50_MS = Figure.of("clientP50Ms", "ms", "the client timer's median", r -> r.median(m -> m.breakdown().clientP50Ms()))
		.shown(new Shown(Table.DETAIL, "call p50 / p99 ms", Format.NUMBER, null, null));

	public static final Figure CLIENT_P99_MS = Figure.of("clientP99Ms", "ms", "the client timer's 99th percentile",
			r -> r.median(m -> m.breakdown().clientP99Ms())).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	/* What the CPU figures average away (OffCpu): the core's 100 ms slices, its threads' run-queue wait. */

	public static final Figure SATURATED_SLICES_PERCENT = Figure.of("saturatedSlicesPercent", "%", "share of the window's 100 ms slices in "
			+ "which the service used 90% of its cores or more (`cpu-slices.csv`, the runner's reads of `/proc/<pid>/stat`)",
			r -> r.median(m -> m.offCpu().saturatedPercent()))
		.shown(new Shown(Table.DETAIL, "100 ms full / idle %", Format.NUMBER, null, null));

	public static final Figure IDLE_SLICES_PERCENT = Figure.of("idleSlicesPercent", "%", "share of the window's 100 ms slices in which the "
			+ "service used 10% of its cores or less: with `saturatedSlicesPercent`, a core busy half the time on average and saturated "
			+ "and idle by turns had its load in waves", r -> r.median(m -> m.offCpu().idlePercent())).shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure RUN_QUEUE_MS_PER_SECOND = Figure.of("runQueueMsPerSecond", "ms/s", "the service's threads' time runnable but "
			+ "waiting for a CPU, per second of window, summed over its threads (`thread-schedstat.csv`: `/proc/<pid>/task/<tid>/schedstat` "
			+ "at the window's start and end)", r -> r.median(m -> m.offCpu().runQueueMsPerSecond()));

	public static final Figure POOL_WAITING_IN_DUMP = Figure.of("poolWaitingInDump", "threads", "threads found waiting for a pooled JDBC "
			+ "connection (HikariCP, Tomcat JDBC, DBCP2 or c3p0 frames) in the thread dump taken at the window's end, as the dump counted them: "
			+ "it is taken thread by thread, so a request that ended during it and its user's next one can both be in it",
			r -> r.median(m -> m.threadDump().poolWaiting()));

	public static final Figure POOL_WAITING_AT_END = Figure.of("poolWaitingAtEnd", "requests", "requests waiting for a pooled JDBC "
			+ "connection at the window's end: `poolWaitingInDump`, at most the closed users (one request in flight each); a pool named as the "
			+ "limit from it only without the pool's own meters", r -> bounded(r.median(m -> m.threadDump().poolWaiting()), r.facts().level()));

	/** A count of requests in flight bounded by what a closed load can have: one per user. */
	static double bounded(double count, Level level) {
		return (level instanceof Level.Closed closed && count > closed.users()) ? closed.users() : count;
	}

	public static final Figure VIRTUAL_THREADS_AT_END = Figure.of("virtualThreadsAtEnd", "threads", "virtual threads alive (mounted, "
			+ "queued and parked) in the thread dump taken at the window's end (`threads-at-end.json`): for any service, with or without "
			+ "meters; the dump takes 100-250 ms thread by thread, so a request that ended meanwhile and its user's next one may both be in it",
			r -> r.median(m -> m.threadDump().virtualThreads()))
		.shown(Shown.joined(Table.DETAIL, Format.NUMBER));

	public static final Figure THREAD_DUMP_SPAN_MS = Figure.of("threadDumpSpanMs", "ms", "how long the thread dump at the window's end "
			+ "took, from the first thread dumped to the last (each thread's `time`): requests that ended and began meanwhile are both in it, "
			+ "so its counts (`poolWaitingAtEnd`, `virtualThreadsAtEnd`) can exceed the users", r -> r.median(m -> m.threadDump().spanMs()));

	public static final Figure MONITOR_BLOCKED_THREADS = Figure.of("monitorBlockedThreads", "threads", "with --jfr: threads blocked entering "
			+ "a monitor (`synchronized`) on average over the window, from the steady recording's `jdk.JavaMonitorEnter` events (JFR's "
			+ "profile settings: blocks of 10 ms or more); none without a recording", r -> r.median(m -> m.contention().blockedThreads()));

	/* The PostgreSQL the lab started for a service of the user's own (lab.sample.PostgresWatch): what names the database as a limit. */

	public static final Figure PG_ACTIVE_BACKENDS = Figure.of("pgActiveBackends", "backends", "the PostgreSQL the lab started: active backends "
			+ "of the service's database (`pg_stat_activity`, sampled once a second), on average over the window",
			r -> r.median(m -> m.database().activeBackends()));

	public static final Figure PG_LOCK_WAITING_BACKENDS = Figure.of("pgLockWaitingBackends", "backends", "of those, the ones waiting on a "
			+ "lock (wait event type `Lock` or `LWLock`), on average", r -> r.median(m -> m.database().lockWaitingBackends()));

	public static final Figure PG_IO_WAITING_BACKENDS = Figure.of("pgIoWaitingBackends", "backends", "of those, the ones waiting on I/O "
			+ "(wait event type `IO`), on average", r -> r.median(m -> m.database().waitingBackends().getOrDefault("IO", Double.isNaN(m.database().activeBackends()) ? Double.NaN : 0.0)));

	public static final Figure PG_CPU_PERCENT = Figure.of("pgCpuPercent", "% of one core", "the PostgreSQL the lab started: its CPU, "
			+ "postmaster and backends (`/proc/<pid>/stat`), wherever it was placed (`needs.postgres.placement`): part of the system under "
			+ "test, never charged to the harness", r -> r.median(m -> m.database().cpuPercent()))
		.shown(Table.DETAIL, "PostgreSQL CPU %", Format.NUMBER);

	public static final Figure PG_CORES_BUSY_PERCENT = Figure.of("pgCoresBusyPercent", "%", "how busy the cores the PostgreSQL the lab "
			+ "started ran on were (`/proc/stat`: everything there, itself included): the service's core with placement `service`, the "
			+ "harness's with `harness`", r -> r.median(m -> m.database().coresBusyPercent()));

	private static final java.util.Map<Metric, Figure> SAMPLED = new java.util.EnumMap<>(Metric.class);

	/** Every figure of a level, in summary.json's order: the declared metrics stand after the warm-up's CPU per request. */
	public static final List<Figure> ALL = all();

	/**
	 * The figures of these levels, in declaration order (the lab's where none are given); the database's only in a run
	 * that had one (a service of the user's own with a PostgreSQL the lab started).
	 */
	public static List<Figure> of(List<LevelResult> levels) {
		List<Figure> all = levels.isEmpty() ? ALL : List.copyOf(levels.get(0).figures().keySet());
		boolean database = levels.stream().anyMatch(r -> Double.isFinite(r.value(PG_CPU_PERCENT)));
		return database ? all : all.stream().filter(f -> f != PG_CPU_PERCENT).toList();
	}

	private static List<Figure> all() {
		List<Figure> all = new ArrayList<>(List.of(RPS, RPS_MIN, RPS_MAX, CEILING_RPS, EFFICIENCY, P50_ALL_MS, P95_ALL_MS, P99_ALL_MS, MAX_ALL_MS,
				P50_OK_MS, P95_OK_MS, P99_OK_MS, MAX_OK_MS, INJECTOR_MEAN_MS, BEFORE_SERVER_MS, OUTSIDE_CALL_MS, CLIENT_MEAN_MS, SERVER_MEAN_MS,
				SERVER_P50_MS, SERVER_P99_MS, CLIENT_P50_MS, CLIENT_P99_MS, REQUESTS, ERRORS_4XX, ERRORS_5XX, TIMEOUTS, REFUSED, CHECK_FAILURES, UNANSWERED,
				ERROR_PERCENT, LONGEST_STALL_SECONDS, SERVICE_CPU_PERCENT, CPU_MS_PER_REQUEST, WARMUP_CPU_MS_PER_REQUEST,
				WARMUP_SECONDS, WARMUP_JIT_SETTLED_SECONDS));
		for (Metric metric : Metric.values()) {
			all.add(of(metric));
			if (metric == Metric.PEAK_VIRTUAL_THREADS) {
				all.add(VIRTUAL_THREADS_AT_END);
			}
		}
		all.addAll(List.of(SATURATED_SLICES_PERCENT, IDLE_SLICES_PERCENT, RUN_QUEUE_MS_PER_SECOND, POOL_WAITING_IN_DUMP, POOL_WAITING_AT_END,
				THREAD_DUMP_SPAN_MS));
		all.addAll(List.of(PG_ACTIVE_BACKENDS, PG_LOCK_WAITING_BACKENDS, PG_IO_WAITING_BACKENDS, PG_CPU_PERCENT, PG_CORES_BUSY_PERCENT,
				MONITOR_BLOCKED_THREADS));
		all.addAll(List.of(INJECTOR_CPU_PERCENT, INJECTOR_CORES_BUSY_PERCENT, INJECTOR_WAIT_MS_PER_SLICE, INJECTOR_CLOCK_PERCENT, DOWNSTREAM_P99_LATE_MS,
				DOWNSTREAM_OWN_P99_OVERHEAD_MS));
		return List.copyOf(all);
	}

	/** The figure of a declared sampled metric: its repeats combined as it declares, shown as it declares. */
	public static synchronized Figure of(Metric metric) {
		return SAMPLED.computeIfAbsent(metric, m -> {
			Metric.Shown shown = m.shown();
			Table table = switch (shown.table()) {
				case MAIN -> Table.MAIN;
				case DETAIL -> Table.DETAIL;
				case NONE -> Table.NONE;
			};
			Format format = (shown.format() == Metric.Format.DECIMAL) ? Format.DECIMAL : Format.NUMBER;
			Figure figure = Figure.of(m.field(), m.unit(), m.meaning(), r -> m.combine(r.each(), one -> one.sampled().getOrDefault(m, Double.NaN)))
				.shown(new Shown(table, shown.column(), format, shown.chart(), null));
			return (m == Metric.PEAK_HEAP_MIB) ? figure.compared(Compared.shown("peak heap MiB")) : figure;
		});
	}

	/** One kind of outcome of the requests sent in the window, filed under its send time however late it came. */
	private static Figure outcome(String field, String meaning, java.util.function.ToLongFunction<RequestCounts> count) {
		return Figure.of(field, "", "requests " + meaning + ", filed under their send time", r -> count.applyAsLong(r.counts())).counted();
	}

	/** docs/summary-schema.md's rows of the declared figures, in declaration order. */
	public static List<String> schemaRows(List<Figure> figures) {
		return figures.stream().map(f -> "| `" + f.field() + "` | " + f.unit() + " | " + f.meaning() + " |").toList();
	}

}
