package lab.analyse.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;

/**
 * The lab's verdict rules, declared once: each one's name, threshold and unit (when it has one), the figure it reads,
 * what it makes a level, and its sentence. {@link Thresholds}, the manifest's {@code thresholds}, the report's "how
 * judged" text ({@link #howJudged}), the rules table of docs/summary-schema.md and {@code ./lab report --rejudge}
 * all follow from these declarations.
 * <p>
 * A rule that compares one figure with its threshold declares what it compares ({@link Compares}: the figure, above or
 * below, its reason) and is judged by {@link FigureRule}'s one evaluator. A rule that combines figures is a class of
 * its own with its tests: {@link SecondHalfSlower} and {@link PinnedCarriers} (its {@link Check}), {@link Warmth} (the
 * JIT and the halves), {@link DownstreamLateness} (a late downstream judged by its effect); the facts the runner
 * records (the service died, ran out of memory, the injector failed, the person interrupted) and the stall, the
 * throughput drop and the repeats' spread are judged in {@code Analyser}. Adding a rule: a constant below and its
 * test; the manifest, the report, the docs' table and {@code --rejudge} pick it up.
 * <p>
 * A sentence names thresholds as {@code {name}} (its own or another rule's), rendered with value and unit.
 */
public enum Rule {

	INTERRUPTED_BY_PERSON(null, Double.NaN, null, Effect.INTERRUPTED, "interruptedAtMs", "the person stopped the run", null),

	INJECTOR_EXIT(null, Double.NaN, null, Effect.INVALID, "injectorExitCode", "the injector exited non-zero or wrote no window", null),

	INJECTOR_BUSY("injectorBusyPercent", 90, "%", Effect.INVALID, "the harness cores (injector, downstream, runner; a database the lab "
			+ "started there counted apart, as the system's) were over {injectorBusyPercent} busy",
			new Compares(Figures.INJECTOR_CORES_BUSY_PERCENT, FigureRule.Op.ABOVE, 1, "%.0f",
					"injector cores {value}% busy > {bound} (the injector, the downstream and the runner; the database's CPU not counted)",
					"the injector cores' load could not be computed (no CPU samples)", FigureRule.Scope.EACH_REPEAT)),

	DOWNSTREAM_DIED(null, Double.NaN, null, Effect.INVALID, "downstreamAlive", "the downstream died or stopped answering", null),

	DOWNSTREAM_LATE("downstreamOverheadMs", 50, "ms", Effect.INVALID, "downstreamP99LateMs",
			"the downstream's p99 (probed end to end, 10 requests a second) exceeded its delay by more than {downstreamOverheadMs} or "
					+ "{downstreamOverheadPercent} and that lateness could have moved the service's p99, or (a closed load the "
					+ "service's cores did not limit: under {saturatedCpuPercent} busy) its throughput, by more than {harnessEffectPercent} "
					+ "(else a note with the bound)",
			null),

	DOWNSTREAM_LATE_SHARE("downstreamOverheadPercent", 10, "% of the delay", Effect.INVALID, "downstreamP99LateMs", null, null),

	HARNESS_EFFECT("harnessEffectPercent", 10, "%", Effect.INVALID, "downstreamP99LateMs", null, null),

	NO_WARMUP(null, Double.NaN, null, Effect.INVALID, "warmedUp",
			"warm-up was skipped (else it lasts until the JIT used at most {warmupSettlePercent} in its last 10 s)", null),

	NOT_WARM_JIT("notWarmJitPercent", 10, "%", Effect.INVALID, "jitPercent",
			"the service was not warm (the JIT's threads used more than {notWarmJitPercent} of the window's wall time in CPU; for a run "
					+ "older than the JIT's series, the window's first half cost over {notWarmHalvesPercent} more mutator CPU per request than "
					+ "its second, GC and the JIT taken out, by over {notWarmHalvesMinCorePercent}, which with "
					+ "the JIT measured and settled is named \"not steady\" instead)",
			null),

	NOT_WARM_HALVES("notWarmHalvesPercent", 25, "%", Effect.INVALID, "halves", null, null),

	NOT_COMPUTABLE(null, Double.NaN, null, Effect.INVALID, "", "any of these checks could not be computed", null),

	SERVICE_DIED(null, Double.NaN, null, Effect.FAILED, "serviceAlive", "the service died", null),

	OUT_OF_MEMORY(null, Double.NaN, null, Effect.FAILED, "outOfMemory", "it logged an OutOfMemoryError", null),

	REFUSED(null, 0, "", Effect.FAILED, "it refused or reset connections", new Compares(Figures.REFUSED, FigureRule.Op.ABOVE, 1, "%.0f",
			"{value} connections refused or reset", null, FigureRule.Scope.EACH_REPEAT)),

	STALL("stallDelays", 2, "× the delay", Effect.FAILED, "stallSeconds",
			"it answered nothing for {stallDelays} (at least {stallMinSeconds}) while users waited (stalled)", null),

	STALL_MIN("stallMinSeconds", 2, "s", Effect.FAILED, "stallSeconds", null, null),

	ERRORS("errorPercent", 5, "%", Effect.FAILED,
			"errors (timeouts and unanswered requests included) exceeded {errorPercent} of the requests sent in the window (over "
					+ "{costMaxErrorPercent}, a level shows no CPU per request: failures cost what answers do not)",
			new Compares(Figures.ERROR_PERCENT, FigureRule.Op.ABOVE, 1, "%.1f", "errors {value}% > {bound} ({timeouts} timed out, {unanswered} unanswered)",
					null, FigureRule.Scope.EACH_REPEAT)),

	EFFICIENCY_FLOOR("efficiencyFloorPercent", 50, "%", Effect.NOTE, "efficiency under {efficiencyFloorPercent}",
			new Compares(Figures.EFFICIENCY, FigureRule.Op.BELOW, 100, "%.0f", "efficiency {value}% < {bound} of the ceiling", null,
					FigureRule.Scope.LEVEL)),

	RPS_DROP("rpsDropPercent", 20, "%", Effect.NOTE, "rps", "throughput {rpsDropPercent} below the previous level's", null),

	REPEAT_SPREAD("repeatSpreadPercent", 10, "%", Effect.NOTE, "rpsMin, rpsMax", "repeats spread over {repeatSpreadPercent} of their median",
			null),

	/**
	 * A closed loop sends as fast as it is answered, so a second half that sent fewer requests per second than the
	 * first was answered more slowly: the level's throughput is the mean of two rates, not a steady one.
	 */
	SECOND_HALF_SLOWER("secondHalfSlowerPercent", 15, "%", Effect.NOTE, "halves",
			"the window's second half sent over {secondHalfSlowerPercent} fewer requests per second than its first (a closed loop "
					+ "sends as it is answered)",
			new SecondHalfSlower()),

	/**
	 * A pinned virtual thread holds its carrier: on one core, the only one. Pinned time over this share of the
	 * carriers' time in the window is time other users could not be served, named with the frame that pinned most.
	 */
	PINNED("pinnedCarrierPercent", 1, "% of the carriers' time", Effect.NOTE, "pinnedSites",
			"virtual threads held their carriers pinned for over {pinnedCarrierPercent} in the window (JFR's jdk.VirtualThreadPinned, "
					+ "grouped by the frame that pinned)",
			new PinnedCarriers()),

	CAPPED(null, Double.NaN, null, Effect.NOTE, "cappedFrom", "a level capped by the descriptor limit (judged at the users it ran)", null),

	// Judgment constants once written in the code, declared and recorded like every threshold since (a run older than
	// them is judged by these defaults, and its report says so).

	/**
	 * A first half dearer per request makes a level not warm only when the difference took more than this share of one
	 * core: below it, a light load's few ms of CPU per second are moved as much by the fixed per-second costs (the
	 * runner's scrape, the probe, the sampler) and the 10 ms ticks of /proc as by the JIT.
	 */
	NOT_WARM_HALVES_MIN_CORE("notWarmHalvesMinCorePercent", 5, "% of one core", Effect.INVALID, "halves", null, null),

	/**
	 * The warm-up goes on until the JIT used at most this share of {@link #NOT_WARM_JIT}'s threshold in its last
	 * seconds. Settling at the threshold itself left no room: a warm-up that ended at 7.2% (threshold 10%) was followed
	 * by smoke's 6 s window at 18%, INVALID "not warm": a new load level triggers compilations of its own and a short
	 * window magnifies a burst of them.
	 */
	WARMUP_SETTLE("warmupSettlePercent", 50, "% of the not-warm threshold", Effect.INVALID, "jitPercent", null, null),

	/**
	 * A service whose cores were this busy was the limit of its own throughput: a late downstream then took none of it
	 * (its users waited on the service).
	 */
	SATURATED("saturatedCpuPercent", 90, "% of the service's cores", Effect.INVALID, "serviceCpuPercent", null, null),

	/**
	 * Above this share of failed requests a level shows no CPU per request (service, injector or harness), and its
	 * harness headroom is not computed: failures cost what answers do not.
	 */
	COST_MAX_ERRORS("costMaxErrorPercent", 50, "%", Effect.FAILED, "errorPercent", null, null),

	/**
	 * Another process on the service's pinned core takes its CPU: the level measures the two of them (another lab
	 * run's service pinned to the same core halves each one's throughput). Judged by the one evaluator.
	 */
	SERVICE_CORE_SHARED("serviceCoreStrangerPercent", 10, "% of the service's core", Effect.INVALID,
			"other processes used over {serviceCoreStrangerPercent} on the service's pinned core",
			new Compares(Figures.of(Metric.SERVICE_CORE_STRANGER_PERCENT), FigureRule.Op.ABOVE, 1, "%.0f",
					"the service's core was shared: other processes used {value}% of it > {bound} (core-strangers.csv names them)", null,
					FigureRule.Scope.EACH_REPEAT)),

	/**
	 * The injector's clock: a request's time is stamped on wake-ups of Gatling's threads, so their wait for a CPU (the
	 * kernel's schedstat) is what a busy harness core could have added to the latencies reported. Judged by that effect,
	 * not by how busy the core was: a database beside the injector may fill the core while the injector's wake-ups
	 * still run at once.
	 */
	INJECTOR_CLOCK("injectorClockPercent", 10, "% of the p50", Effect.INVALID, "the injector's threads waited for a CPU long enough to move "
			+ "the latencies it reports by over {injectorClockPercent} (two mean waits per time slice against the p50)",
			new Compares(Figures.INJECTOR_CLOCK_PERCENT, FigureRule.Op.ABOVE, 1, "%.1f",
					"the injector's own wait for the CPU could have added {value}% to the p50 > {bound}", null, FigureRule.Scope.EACH_REPEAT));

	/** What a rule makes a level when it holds. */
	public enum Effect {
		/** The measurement, not the service, was the limit or broke. */
		INVALID,
		/** The service broke. */
		FAILED,
		/** The person stopped the run. */
		INTERRUPTED,
		/** Named in the reasons without changing the verdict. */
		NOTE
	}

	/**
	 * A rule judged by its declaration: the reason to name for one measurement, if the rule holds at its threshold
	 * ({@code bound}; {@code boundText} with its unit, as reasons print it; NaN and "" for a rule without one).
	 */
	@FunctionalInterface
	public interface Check {

		Optional<String> reason(Measurement measurement, double bound, String boundText);

	}

	private final String key;

	private final double defaultValue;

	private final String unit;

	private final Effect effect;

	private final String figure;

	private final String sentence;

	private final Check check;

	private final Compares compares;

	Rule(String key, double defaultValue, String unit, Effect effect, String figure, String sentence, Check check) {
		this.key = key;
		this.defaultValue = defaultValue;
		this.unit = unit;
		this.effect = effect;
		this.figure = figure;
		this.sentence = sentence;
		this.check = check;
		this.compares = null;
	}

	/** A rule that compares one figure with its threshold: judged by {@link FigureRule#judge}, its reason declared here. */
	Rule(String key, double defaultValue, String unit, Effect effect, String sentence, Compares compares) {
		this.key = key;
		this.defaultValue = defaultValue;
		this.unit = unit;
		this.effect = effect;
		this.figure = compares.figure().field();
		this.sentence = sentence;
		this.check = null;
		this.compares = compares;
	}

	/**
	 * What a rule comparing one figure with its threshold compares: the figure (times {@code factor}), how, its reason
	 * ({@link FigureRule}'s placeholders), what a figure that could not be computed says (or null: nothing), and on what.
	 */
	record Compares(Figure figure, FigureRule.Op op, double factor, String valueFormat, String reason, String unknown, FigureRule.Scope scope) {
	}

	/** This rule as a {@link FigureRule}, when it compares one figure with its threshold. */
	public Optional<FigureRule> figureRule() {
		if (this.compares == null) {
			return Optional.empty();
		}
		Compares c = this.compares;
		return Optional.of(new FigureRule(name().toLowerCase(Locale.ROOT), this.key, this.defaultValue, this.unit, this.effect, c.figure(), c.op(),
				c.factor(), c.valueFormat(), c.reason(), c.unknown(), c.scope()));
	}

	/** The threshold's name in the manifest's {@code thresholds}; null for a rule without one. */
	public String key() {
		return this.key;
	}

	public boolean hasThreshold() {
		return this.key != null;
	}

	public double defaultValue() {
		return this.defaultValue;
	}

	public String unit() {
		return this.unit;
	}

	public Effect effect() {
		return this.effect;
	}

	/** The figure it reads: a field of summary.json's level, or the file it reads. */
	public String figure() {
		return this.figure;
	}

	/** Its sentence, thresholds as {@code {name}}; null for a threshold that only qualifies another rule's sentence. */
	public String sentence() {
		return this.sentence;
	}

	public Optional<Check> check() {
		return Optional.ofNullable(this.check);
	}

	/** Every rule with a threshold, in declaration order (the manifest's order). */
	public static List<Rule> withThresholds() {
		return java.util.Arrays.stream(values()).filter(Rule::hasThreshold).toList();
	}

	/** The rule whose threshold is named {@code key}, if any. */
	public static Optional<Rule> byKey(String key) {
		return withThresholds().stream().filter(r -> r.key.equals(key)).findFirst();
	}

	/** A value of this rule's threshold with its unit: "90%", "50 ms", "2× the delay". */
	public String format(double value) {
		return format(value, this.unit);
	}

	/** A threshold's value with its unit. */
	static String format(double value, String unit) {
		String number = (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
		return number + (unit.isEmpty() || unit.startsWith("%") || unit.startsWith("×") ? "" : " ") + unit;
	}

	private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\w+)}");

	/** This rule's sentence with every {@code {name}} replaced by that threshold's value in {@code thresholds}. */
	String render(Thresholds thresholds) {
		Matcher matcher = PLACEHOLDER.matcher(this.sentence);
		StringBuilder out = new StringBuilder();
		while (matcher.find()) {
			Rule named = byKey(matcher.group(1))
				.orElseThrow(() -> new IllegalStateException(name() + "'s sentence names an unknown threshold {" + matcher.group(1) + "}"));
			matcher.appendReplacement(out, Matcher.quoteReplacement(named.format(thresholds.get(named))));
		}
		matcher.appendTail(out);
		return out.toString();
	}

	/** docs/summary-schema.md's rules table, one row per rule as declared, thresholds at their defaults. */
	public static List<String> schemaRows() {
		List<String> rows = new ArrayList<>(List.of("| rule | threshold (default) | makes a level | reads | when |", "|---|---|---|---|---|"));
		for (Rule rule : values()) {
			String qualifies = (rule.sentence != null) ? rule.render(Thresholds.DEFAULT)
					: "part of `" + java.util.Arrays.stream(values())
						.filter(r -> r.sentence != null && r.sentence.contains("{" + rule.key + "}"))
						.map(r -> r.name().toLowerCase(Locale.ROOT)).findFirst().orElseThrow() + "`";
			rows.add("| `" + rule.name().toLowerCase(Locale.ROOT) + "` | " + (rule.hasThreshold() ? "`" + rule.key + "` " + rule.format(rule.defaultValue) : "")
					+ " | " + rule.effect.name().toLowerCase(Locale.ROOT) + " | " + (rule.figure.isEmpty() ? "" : "`" + rule.figure + "`") + " | "
					+ qualifies + " |");
		}
		return rows;
	}

	/** The report's "how judged" paragraph: every rule's sentence, grouped by what it makes a level. */
	public static String howJudged(Thresholds thresholds) {
		return "The measurement is judged first, then the service. INVALID when " + sentences(Effect.INVALID, thresholds) + ". FAILED, warm or not, when "
				+ sentences(Effect.FAILED, thresholds) + ". INTERRUPTED when " + sentences(Effect.INTERRUPTED, thresholds)
				+ ". Named without changing the verdict: " + sentences(Effect.NOTE, thresholds) + ".";
	}

	private static String sentences(Effect effect, Thresholds thresholds) {
		List<String> parts = new ArrayList<>();
		for (Rule rule : values()) {
			if (rule.effect == effect && rule.sentence != null) {
				parts.add(rule.render(thresholds));
			}
		}
		if (parts.size() < 2) {
			return String.join("", parts);
		}
		String joiner = (effect == Effect.NOTE) ? ", " : ", when ";
		return String.join(joiner, parts.subList(0, parts.size() - 1)) + ((effect == Effect.NOTE) ? ", " : ", or when ") + parts.get(parts.size() - 1);
	}

}
