package lab.layout;

/**
 * The top of a results directory ({@code results/<timestamp>-<scenario>/}): what the runner writes once per run
 * and the report it renders; one directory per service run below it ({@link ServiceDir}).
 */
public final class RunDir {

	/** Host, JDK, versions, commit, flags, scenario, tunings, thresholds, command line. */
	public static final String MANIFEST = "manifest.json";

	public static final String SUMMARY_JSON = "summary.json";

	/** Every process the runner started, "pid starttime" a line, for its watchdog (lab.launch.Watchdog). */
	public static final String CHILDREN = "children.pids";

	/** What the watchdog did, if the runner died without stopping its children. */
	public static final String WATCHDOG_LOG = "watchdog.log";

	public static final String SUMMARY_MD = "summary.md";

	/**
	 * An interleaved capacity search of one arm, rewritten after every probe: {@code capacity-search.json} for the
	 * default arm, {@code capacity-search-<arm>.json} for another.
	 */
	public static final String CAPACITY_SEARCH = "capacity-search.json";

	/** The capacity search file of an arm ({@link #CAPACITY_SEARCH}). */
	public static String capacitySearch(String arm) {
		return arm.equals("default") ? CAPACITY_SEARCH : CAPACITY_SEARCH.replace(".json", "-" + arm + ".json");
	}

	/** Whether a file name is a capacity search's. */
	public static boolean isCapacitySearch(String fileName) {
		return fileName.matches("capacity-search(-.+)?\\.json");
	}

	public static final String REPORT = "report.html";

	/** A service of the user's own: its requests as the simulation reads them ({@link RequestMix}), written at the run's start. */
	public static final String REQUEST_MIX = "requests.tsv";

	/** A variance study's record ({@code --scenario variance}), rewritten after every probe: every probe and each JVM's counters. */
	public static final String VARIANCE = "variance.json";

	/** A variance study's text, from its record. */
	public static final String VARIANCE_TEXT = "variance.md";

	/** A tune search's answer: the best arm within the target, the arms within noise of it, those it beats, the steps. */
	public static final String TUNE = "tune.json";

	/** The values request {@code index} of the mix takes in turn ({@link RequestMix#writeFeed}), beside {@link #REQUEST_MIX}. */
	public static String feed(int index) {
		return "feed-" + index + ".tsv";
	}

	/** The PostgreSQL the lab started for a service of the user's own: its directory, and its log in it. */
	public static final String POSTGRES = "postgres-server";

	public static final String POSTGRES_LOG = "postgres.log";

	/**
	 * At the top of the results root (not of a run): each host's last capacity crossings per arm and variant, with the
	 * commit that measured them; the next search on that host starts its bracket there.
	 */
	public static final String CAPACITY_HISTORY = "capacity-history.json";

	/** {@code ./lab compare}'s outputs, in the directory it writes. */
	public static final String COMPARE_HTML = "compare.html";

	public static final String COMPARE_MD = "compare.md";

	public static final String COMPARE_JSON = "compare.json";

	/** A comparison's forest plot of every run's ratios, beside compare.html (a picture to put in a document). */
	public static final String COMPARE_FOREST = "forest.png";

	private RunDir() {
	}

}
