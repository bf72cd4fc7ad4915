package lab.layout;

/**
 * One level's directory ({@link Level#name()}: {@code users-<n>} or {@code rate-<n>}, with {@code -r<k>} under repeats): what the load
 * generator wrote (latencies, requests, the load window, its own CPU), what the runner sampled (metrics, probe,
 * heap snapshots), its facts and, when asked for, profiles and failure evidence.
 */
public final class LevelDir {

	/** The runner's facts of the level: who ran, what exited, what broke. */
	public static final String FACTS = "level.json";

	/** The sampler's series: service, downstream and injector meters every second. */
	public static final String METRICS = "metrics.csv";

	/** What other processes ran on the service's cores, second by second: the evidence of a shared core. */
	public static final String CORE_STRANGERS = "core-strangers.csv";

	/**
	 * The service's CPU seconds every 100 ms ({@code /proc/<pid>/stat}), read by the runner: whether a core busy half the
	 * time on average was busy all the time half the time (the load came in waves) or half busy throughout.
	 */
	public static final String CPU_SLICES = "cpu-slices.csv";

	/**
	 * Every thread of the service at the steady window's start and at its end ({@code /proc/<pid>/task/<tid>/schedstat}):
	 * its time on a CPU, its time runnable but waiting for one (the run queue), its time slices, by thread name.
	 */
	public static final String THREAD_SCHEDSTAT = "thread-schedstat.csv";

	/**
	 * {@code jstat -gc <pid> 1000} of a service of the user's own, as it printed it (its heap and GC read from outside,
	 * from the JVM's perf-data memory: no attach, no safepoint); the sampler turns each line into series.
	 */
	public static final String JSTAT = "jstat-gc.txt";

	/** A service of the user's own: its threads at the steady window's end ({@code jcmd Thread.dump_to_file -format=json}). */
	public static final String THREADS_AT_END = "threads-at-end.json";

	/** Where a level's connection pool was the limit: the pool's meters and the threads waiting for a connection. */
	public static final String POOL = "pool.md";

	/**
	 * Written for a level that missed its latency target with the service's cores not saturated: where the time went
	 * (the breakdown), whether the core was idle throughout or in waves, and what the service's threads waited for.
	 */
	public static final String OFF_CPU = "off-cpu.md";

	/** The downstream's own answer time, probed once a second beside the load. */
	public static final String PROBE = "probe.csv";

	/** Written by the load generator: every response time as HdrHistogram intervals. */
	public static final String LATENCY = "latency.hlog";

	/**
	 * Written by the load generator for a service of the user's own: the same intervals per named request, tagged
	 * {@code ok-<i>} and {@code ko-<i>} by the request's place in the run's {@link RunDir#REQUEST_MIX}.
	 */
	public static final String LATENCY_BY_REQUEST = "latency-by-request.hlog";

	/** The tag of request {@code index}'s successes ({@code ok}) or failures ({@code ko}) in {@link #LATENCY_BY_REQUEST}. */
	public static String requestTag(String outcome, int index) {
		return outcome + "-" + index;
	}

	/** Written by the load generator: requests sent per second, by outcome. */
	public static final String REQUESTS = "requests.csv";

	/** Written by the load generator: requests completed per second, by outcome. */
	public static final String COMPLETIONS = "completions.csv";

	/** Written by the load generator: its own CPU per second. */
	public static final String INJECTOR_CPU = "cpu.csv";

	/** Written by the load generator: the load window as it happened (start, steady start, end). */
	public static final String LOAD_WINDOW = "load-window.csv";

	/** Written by the load generator before the load starts: the window it plans. */
	public static final String LOAD_PLAN = "load-plan.csv";

	/** The load generator's console, and the command that started it, and its pid. */
	public static final String GATLING_LOG = "gatling.log";

	public static final String GATLING_COMMAND = "gatling-command.txt";

	public static final String INJECTOR_PID = "injector.pid";

	/** A remote injector's copy back of its files. */
	public static final String FETCH_LOG = "fetch.log";

	/** Gatling's results folder of a level (its run directories, each with its records and HTML report). */
	public static final String GATLING = "gatling";

	/** Gatling's own records of a run (binary since 3.12), in its run directory below {@link #GATLING}. */
	public static final String SIMULATION_LOG = "simulation.log";

	/** Gatling's own HTML report, in its run directory below the level's. */
	public static final String GATLING_REPORT = "index.html";

	/** Gatling's one report over every injector's records of a level several drove, below the level's {@code gatling/}. */
	public static final String GATLING_MERGED = "all-injectors";

	/** The console of the merge of the injectors' Gatling logs and of Gatling's reports-only run on it. */
	public static final String GATLING_MERGE_LOG = "gatling-merge.log";

	/** The level second by second, drawn by the report. */
	public static final String TIMELINE = "timeline.html";

	/** The heap histogram taken when a level failed while the service still lived. */
	public static final String HEAP_HISTOGRAM = "heap-histogram.txt";

	/**
	 * Heap snapshots (a {@code .json} summary and the {@code .txt} class histogram), by moment. At rest before the
	 * warm-up, in the warm-up's directory: the base every per-request figure is a difference against.
	 */
	public static final String HEAP_IDLE = "heap-idle";

	/** At the end of the warm-up, under its load: with {@link #HEAP_IDLE}, the slope the prediction uses. */
	public static final String HEAP_LOADED = "heap-loaded";

	/** At the end of a level's window, the load still on (the level's unmeasured tail). */
	public static final String HEAP_STEADY = "heap-steady";

	/**
	 * Every level of a service the runner starts: a JFR recording of {@code jdk.VirtualThreadPinned} alone, with stack
	 * traces, over the whole level (the steady window's events are grouped by the frame that pinned), and jcmd's answers.
	 */
	public static final String PINNED_RECORDING = "pinned.jfr";

	public static final String PINNED_START_LOG = "pinned-start.log";

	public static final String PINNED_STOP_LOG = "pinned-stop.log";

	/** {@code --jfr}: the recording of the steady window, its summary, its CPU stacks and flame graph, jcmd's answers. */
	public static final String JFR_RECORDING = "steady.jfr";

	public static final String JFR_SUMMARY = "jfr-summary.txt";

	public static final String JFR_STACKS = "cpu-stacks.collapsed";

	public static final String JFR_FLAME = "cpu-flame.svg";

	public static final String JFR_START_LOG = "jfr-start.log";

	public static final String JFR_STOP_LOG = "jfr-stop.log";

	/** {@code --profile-cpu}: async-profiler's stacks of the steady window, their flame graph, jcmd's answers. */
	public static final String PROFILE_STACKS = "cpu-profile.collapsed";

	public static final String PROFILE_FLAME = "cpu-profile.svg";

	public static final String PROFILE_START_LOG = "cpu-profile-start.log";

	public static final String PROFILE_STOP_LOG = "cpu-profile-stop.log";

	private LevelDir() {
	}

	/** The directory of injector {@code n} (1-based) when the load is split between several. */
	public static String injector(int n) {
		return "injector-" + n;
	}

	/** The injector number of a directory named by {@link #injector(int)}, or -1 for any other name. */
	public static int injectorNumber(String directoryName) {
		return directoryName.matches("injector-\\d+") ? Integer.parseInt(directoryName.substring("injector-".length())) : -1;
	}

	/** A heap snapshot's summary file. */
	public static String heapJson(String moment) {
		return moment + ".json";
	}

	/** A heap snapshot's class histogram. */
	public static String heapHistogram(String moment) {
		return moment + ".txt";
	}

}
