package lab.layout;

/**
 * One service run's directory ({@code <variant>[.<tuning>]/}, or {@code repeat-<k>/} below it when a scenario
 * repeats): the service's own files, its warm-up, and one {@link LevelDir} per level.
 */
public final class ServiceDir {

	public static final String LOG = "service.log";

	public static final String GC_LOG = "gc.log";

	/** The service's command line. */
	public static final String COMMAND = "command.txt";

	public static final String PID = "pid";

	/** The port the lab's service bound to ({@code --lab.port-file}), and its management port (Spring Boot writes it beside, with this suffix). */
	public static final String PORT = "port";

	public static final String PORT_MANAGEMENT = PORT + "-management";

	/** When the runner launched the service's process (epoch ms, one line): a start's clock begins here. */
	public static final String STARTED_AT = "started-at";

	/** When the service first answered its health check (epoch ms, one line). */
	public static final String READY_AT = "ready-at";

	/** A service the lab did not start (a remote target): where it was reached. */
	public static final String REMOTE = "remote.txt";

	/** A tuning's properties as the service read them back. */
	public static final String TUNING_APPLIED = "tuning-applied.json";

	/** The downstream client's settings as the service read them back from the client it built. */
	public static final String DOWNSTREAM_CLIENT = "downstream-client.json";

	/** Thread dumps taken when the service failed its contract check ({@code Thread.print}, and JSON). */
	public static final String THREAD_DUMP = "thread-dump.txt";

	public static final String THREAD_DUMP_JSON = "thread-dump.json";

	/** The warm-up's directory: the same load files as a level's, not measured. */
	public static final String WARMUP = "warmup";

	/** How the warm-up ended: its length, rounds, and the JIT's share of its last seconds ({@code warmup-settled.json}). */
	public static final String WARMUP_SETTLED = "warmup-settled.json";

	/** A capacity search's fresh JVM of a variant ({@code restart-<n>/}, n from 2: the first JVM is the service run's own directory). */
	public static final String RESTART_PREFIX = "restart-";

	/** A variant's capacity in a search: its bracket, its crossing with interval, its probes. */
	public static final String CAPACITY = "capacity.json";

	/** A variance study's JVM after its last probe: {@code jcmd PerfCounter.print} (heap sizes, GCs, compilations). */
	public static final String PERF_COUNTERS = "perf-counters.txt";

	/** A service run started with a JDK 25 AOT cache: which cache it applied and how it was trained (the start profile reads it). */
	public static final String AOT_CACHE = "aot-cache.json";

	private ServiceDir() {
	}

	/** The directory of an entry's {@code n}th JVM in a capacity search (n >= 2). */
	public static String restart(int n) {
		return RESTART_PREFIX + n;
	}

	/** A capacity search probe's level directory: the level's id and its round ({@code users-1000-round3}). */
	public static String roundLevel(String levelId, int round) {
		return levelId + ROUND_INFIX + round;
	}

	private static final String ROUND_INFIX = "-round";

	/** A level run once more after an INVALID ({@code users-2000-again}). */
	public static final String AGAIN_SUFFIX = "-again";

	/**
	 * What sets a level's directory apart from another of the same load, as a row of its own: "again" for a level run
	 * once more, "round<k>" for a capacity search's probe, "" for a plain level (whose repeats combine).
	 */
	public static String rowSuffix(String levelDirName) {
		if (levelDirName.endsWith(AGAIN_SUFFIX)) {
			return "again";
		}
		int at = levelDirName.lastIndexOf(ROUND_INFIX);
		if (at >= 0 && at + ROUND_INFIX.length() < levelDirName.length()
				&& levelDirName.substring(at + ROUND_INFIX.length()).chars().allMatch(Character::isDigit)) {
			return levelDirName.substring(at + 1);
		}
		return "";
	}

	/** The directory of warm-up round {@code k} (2-based: the first round is {@link #WARMUP}), run while the JIT compiled. */
	public static String warmupRound(int k) {
		return "warmup-round-" + k;
	}

	/** The directory of repeat {@code k} (1-based) of a repeated scenario. */
	public static String repeat(int k) {
		return "repeat-" + k;
	}

}
