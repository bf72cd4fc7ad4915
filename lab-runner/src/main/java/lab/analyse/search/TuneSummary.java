package lab.analyse.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import lab.analyse.judge.LevelResult;
import lab.analyse.measure.Metric;
import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.RunDir;
import lab.layout.TuneAnswer;
import lab.plan.Axes;
import lab.plan.OwnService;
import tools.jackson.databind.JsonNode;

/**
 * The answer of a tune run ({@code --scenario tune}), from its files alone: {@code tune.json} (the best arm, the
 * beaten with their intervals, the steps), each step's search record and the probes' levels. Per arm its values on
 * every axis, its capacity with its interval from the last step it ran in, what bound it at its knee, its RSS at the
 * highest load it met the target and the connections its pool holds; the front of arms no other beats on both
 * capacity and RSS (or connections); and each axis's effect, the other axes held at the best arm's values.
 *
 * @param target the latency target the capacities are within
 * @param best the best arm's label; "" when the study named none (no arm's capacity found, or interrupted)
 * @param arms every arm of the study, in the file's order
 * @param effects each axis's effect around the best arm
 * @param interrupted whether the study stopped at the step it was in
 * @param unplaced without a best: each arm of the last step and why it has no capacity
 * @param groupBests a study of arms in groups (each model's pool sizes): each group's best arm ("" where it named none);
 *        {@code best} is then "" and the effects none. Empty (and not in summary.json) for a study without groups
 * @param confirmations each best searched again on fresh JVMs after the study, by its label; empty (and not in
 *        summary.json) when none was
 */
public record TuneSummary(LatencyTarget target, String best, List<Arm> arms, List<Effect> effects, boolean interrupted, Map<String, String> unplaced,
		@JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> groupBests,
		@JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Confirmation> confirmations) {

	/**
	 * A best on fresh JVMs after the study.
	 *
	 * @param capacity its capacity and interval there
	 * @param confirmed whether that interval overlapped the study's and no arm of its group lay above it (their ratio paired within rounds)
	 */
	public record Confirmation(Interval capacity, boolean confirmed) {

		/** As tune.json holds it; null when the best was not searched again. */
		static Confirmation of(TuneAnswer.Confirmation confirmation) {
			return (confirmation == null) ? null : new Confirmation(Interval.of(confirmation.capacity()), confirmation.confirmed());
		}

	}

	public TuneSummary {
		groupBests = (groupBests != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(groupBests)) : Map.of();
		confirmations = (confirmations != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(confirmations)) : Map.of();
	}

	/** The answer of a study without groups. */
	public TuneSummary(LatencyTarget target, String best, List<Arm> arms, List<Effect> effects, boolean interrupted, Map<String, String> unplaced) {
		this(target, best, arms, effects, interrupted, unplaced, Map.of(), Map.of());
	}

	/** Whether the study named a best it measured: in a study of groups, one for every group. */
	public boolean named() {
		return this.groupBests.isEmpty() ? !this.best.isEmpty() : unnamedGroups().isEmpty();
	}

	/** The groups of a study of groups that named no best. */
	public List<String> unnamedGroups() {
		return this.groupBests.entrySet().stream().filter(e -> e.getValue().isEmpty()).map(Map.Entry::getKey).toList();
	}

	/** The Spring property whose value is the pool's size: HikariCP keeps that many connections open by default. */
	public static final String POOL_SIZE = "spring.datasource.hikari.maximum-pool-size";

	/**
	 * The properties that size a pool's connections, the first an arm or the file sets counted: HikariCP's, the database
	 * set's one setting ({@code lab.db.pool-size}, which sizes HikariCP or r2dbc-pool alike), r2dbc-pool's.
	 */
	public static final List<String> POOL_SIZES = List.of(POOL_SIZE, "lab.db.pool-size", "spring.r2dbc.pool.max-size");

	/**
	 * @param label the arm's row label ({@code <service>-<arm>})
	 * @param values its value on each axis
	 * @param capacity its capacity within the target and its interval, from the last step it ran in
	 * @param lastStep that step (from 1)
	 * @param standing where it stood in the study
	 * @param limit what bound it at its knee (the limit of its probe nearest its capacity), "" when unknown
	 * @param rssMiB its peak RSS at the highest load it met the target in (NaN: none)
	 * @param connections its pool's size ({@link #POOL_SIZES}, the arm's or the file's; NaN when neither sets it)
	 * @param frontRss whether no other arm serves at least as many users with less RSS (one of them strictly)
	 * @param frontConnections the same with connections for RSS
	 * @param group in a study of groups, the group it was judged in; null otherwise (and not in summary.json)
	 */
	public record Arm(String label, Map<String, String> values, Interval capacity, int lastStep, Standing standing, String limit, double rssMiB,
			double connections, boolean frontRss, boolean frontConnections, @JsonInclude(JsonInclude.Include.NON_NULL) String group) {

		/** An arm of a study without groups. */
		public Arm(String label, Map<String, String> values, Interval capacity, int lastStep, Standing standing, String limit, double rssMiB,
				double connections, boolean frontRss, boolean frontConnections) {
			this(label, values, capacity, lastStep, standing, limit, rssMiB, connections, frontRss, frontConnections, null);
		}

	}

	/** Where an arm stood at the study's end; written in words ("within noise of the best"). */
	public enum Standing {

		BEST("best"), WITHIN_NOISE("within noise of the best"), BEATEN("beaten"), NOT_RUN("not run"),

		/** A study that named no best: the arm's capacity was not found (or the study was interrupted), as {@code unplaced} says. */
		UNPLACED("no capacity found");

		private final String text;

		Standing(String text) {
			this.text = text;
		}

		@com.fasterxml.jackson.annotation.JsonValue
		@Override
		public String toString() {
			return this.text;
		}

	}

	/**
	 * One axis around the best arm: each of its values with the other axes at the best arm's.
	 *
	 * @param axis the axis
	 * @param points each value's arm (null where the study had no such arm), in the axis's order
	 */
	public record Effect(String axis, List<Point> points) {
	}

	/**
	 * @param value the axis's value
	 * @param label the arm with that value and the best's others (null: not in the study)
	 * @param capacity its capacity and interval
	 * @param ratio its capacity over the best's (estimates; 1 for the best)
	 * @param overlaps whether its interval overlaps the best's: then it cannot be told from the best on this run
	 */
	public record Point(String value, String label, Interval capacity, double ratio, boolean overlaps) {
	}

	/** The tune run's answer, or empty when {@code results} holds no {@code tune.json} (not a tune run, or one cut short). */
	public static Optional<TuneSummary> read(Path results, JsonNode manifest, List<SearchSummary> searches, List<LevelResult> levels) throws IOException {
		Path file = results.resolve(RunDir.TUNE);
		JsonNode own = manifest.path("ownService").path("file");
		if (!Files.isRegularFile(file) || own.isMissingNode() || own.isNull()) {
			return Optional.empty();
		}
		TuneAnswer tune = Json.MAPPER.readValue(file.toFile(), TuneAnswer.class);
		OwnService service = Json.MAPPER.treeToValue(own, OwnService.class);
		String best = tune.named() ? tune.best() : "";
		// Each best the study named (one, or one per group) with its capacity; per group, its best ("" for none).
		Map<String, Interval> bests = new LinkedHashMap<>();
		Map<String, String> groupBests = new LinkedHashMap<>();
		Map<String, Confirmation> confirmations = new LinkedHashMap<>();
		if (tune.named()) {
			bests.put(tune.best(), Interval.of(tune.capacity()));
			Optional.ofNullable(Confirmation.of(tune.confirmation())).ifPresent(again -> confirmations.put(tune.best(), again));
		}
		for (TuneAnswer.Group group : tune.groups()) {
			groupBests.put(group.name(), group.named() ? group.best() : "");
			if (group.named()) {
				bests.put(group.best(), Interval.of(group.capacity()));
				Optional.ofNullable(Confirmation.of(group.confirmation())).ifPresent(again -> confirmations.put(group.best(), again));
			}
		}
		Map<String, Interval> beaten = new LinkedHashMap<>();
		tune.beaten().forEach((arm, bounds) -> beaten.put(arm, Interval.of(bounds)));
		Map<String, Integer> lastStep = new LinkedHashMap<>();
		for (TuneAnswer.Step step : tune.steps()) {
			step.arms().forEach(arm -> lastStep.put(arm, step.step()));
		}
		List<String> axes = axes(service);
		List<Arm> arms = new ArrayList<>();
		for (OwnService.ServiceArm arm : service.arms()) {
			String label = service.name() + "-" + arm.name();
			int step = lastStep.getOrDefault(label, 0);
			SearchSummary.EntryResult entry = stepEntry(searches, step, label);
			Interval capacity = bests.containsKey(label) ? bests.get(label)
					: beaten.containsKey(label) ? beaten.get(label) : (entry != null) ? entry.capacity() : Interval.NONE;
			String itsBest = (arm.group() != null && groupBests.containsKey(arm.group())) ? groupBests.get(arm.group()) : best;
			Standing standing = bests.containsKey(label) ? Standing.BEST : beaten.containsKey(label) ? Standing.BEATEN : (step == 0) ? Standing.NOT_RUN
					: itsBest.isEmpty() ? Standing.UNPLACED : Standing.WITHIN_NOISE;
			arms.add(new Arm(label, values(service, arm, axes), capacity, step, standing, (entry != null) ? entry.limit() : "",
					rssAtKnee(levels, label), connections(service, arm), false, false, groupBests.isEmpty() ? null : arm.group()));
		}
		arms = front(arms);
		return Optional.of(new TuneSummary(tune.target(), best, List.copyOf(arms), effects(arms, axes, best), tune.interrupted(), tune.unplaced(),
				groupBests, confirmations));
	}

	/** The axes: the file's search axes, else every property or the JVM options the arms set differently. */
	static List<String> axes(OwnService service) {
		if (service.search() != null && !service.search().axes().isEmpty()) {
			return List.copyOf(service.search().axes().keySet());
		}
		List<String> axes = new ArrayList<>();
		service.arms().stream().flatMap(arm -> arm.properties().keySet().stream()).distinct().forEach(property -> {
			if (service.arms().stream().map(arm -> String.valueOf(arm.properties().get(property))).distinct().count() > 1) {
				axes.add(property);
			}
		});
		if (service.arms().stream().map(OwnService.ServiceArm::jvm).distinct().count() > 1) {
			axes.add(Axes.JVM);
		}
		return axes;
	}

	private static Map<String, String> values(OwnService service, OwnService.ServiceArm arm, List<String> axes) {
		Map<String, String> values = new LinkedHashMap<>();
		for (String axis : axes) {
			values.put(axis, axis.equals(Axes.JVM) ? String.join(" ", arm.jvm())
					: String.valueOf(arm.properties().getOrDefault(axis, service.properties().getOrDefault(axis, "-"))));
		}
		return values;
	}

	private static double connections(OwnService service, OwnService.ServiceArm arm) {
		String size = POOL_SIZES.stream().map(p -> arm.properties().getOrDefault(p, service.properties().get(p))).filter(java.util.Objects::nonNull)
			.findFirst().orElse(null);
		try {
			return (size == null) ? Double.NaN : Double.parseDouble(size);
		}
		catch (NumberFormatException ex) {
			return Double.NaN;
		}
	}

	/**
	 * Its entry in step {@code step}'s search record ({@code capacity-search-<group>-step<k>.json}, or of the step's turn
	 * it ran in, {@code -step<k>-turn<t>.json}), or null.
	 */
	private static SearchSummary.EntryResult stepEntry(List<SearchSummary> searches, int step, String label) {
		return searches.stream().filter(s -> s.record().group().matches(".*-step" + step + "(-turn\\d+)?")).map(s -> s.entry(label))
			.filter(java.util.Objects::nonNull).findFirst().orElse(null);
	}

	/** Peak RSS at the highest load the arm met its target at, over its probes (NaN when it met it at none). */
	static double rssAtKnee(List<LevelResult> levels, String label) {
		return levels.stream().filter(level -> level.variant().equals(label) && Boolean.TRUE.equals(level.meetsTarget()))
			.max(java.util.Comparator.comparingInt(LevelResult::load)).map(level -> level.metric(Metric.PEAK_RSS_MIB)).orElse(Double.NaN);
	}

	/**
	 * RSS within this share counts as the same on the front: each arm's is its peak at its own highest met load, which
	 * grows with the load, and repeated levels here differ by several percent (the proof service's arms: 233-269 MiB).
	 */
	static final double RSS_SAME = 0.10;

	/** The arms with their places on the two fronts marked. */
	static List<Arm> front(List<Arm> arms) {
		List<Arm> marked = new ArrayList<>();
		for (Arm arm : arms) {
			marked.add(new Arm(arm.label(), arm.values(), arm.capacity(), arm.lastStep(), arm.standing(), arm.limit(), arm.rssMiB(), arm.connections(),
					onFront(arm, arms, Arm::rssMiB, RSS_SAME), onFront(arm, arms, Arm::connections, 0), arm.group()));
		}
		return marked;
	}

	/**
	 * Whether no other arm has at least its capacity and at most its cost (costs within {@code same} of each other
	 * counting as equal), better in one of them.
	 */
	static boolean onFront(Arm arm, List<Arm> arms, java.util.function.ToDoubleFunction<Arm> cost, double same) {
		double capacity = arm.capacity().estimate();
		double own = cost.applyAsDouble(arm);
		if (!Double.isFinite(capacity) || !Double.isFinite(own)) {
			return false;
		}
		for (Arm other : arms) {
			double c = other.capacity().estimate();
			double o = cost.applyAsDouble(other);
			boolean noCostlier = o <= own * (1 + same);
			boolean better = c > capacity || o < own * (1 - same);
			if (other != arm && Double.isFinite(c) && Double.isFinite(o) && c >= capacity && noCostlier && better) {
				return false;
			}
		}
		return true;
	}

	/** Each axis with the best arm's other values held: its values' arms and capacities. */
	static List<Effect> effects(List<Arm> arms, List<String> axes, String best) {
		Arm top = arms.stream().filter(arm -> arm.label().equals(best)).findFirst().orElse(null);
		if (top == null) {
			return List.of();
		}
		List<Effect> effects = new ArrayList<>();
		for (String axis : axes) {
			List<String> values = arms.stream().map(arm -> arm.values().get(axis)).distinct().toList();
			List<Point> points = new ArrayList<>();
			for (String value : values) {
				Arm arm = arms.stream().filter(a -> a.values().get(axis).equals(value) && axes.stream().filter(other -> !other.equals(axis))
					.allMatch(other -> a.values().get(other).equals(top.values().get(other)))).findFirst().orElse(null);
				if (arm == null) {
					points.add(new Point(value, null, Interval.NONE, Double.NaN, false));
					continue;
				}
				boolean overlaps = arm == top || (!arm.capacity().whollyBelow(top.capacity()) && !top.capacity().whollyBelow(arm.capacity()));
				points.add(new Point(value, arm.label(), arm.capacity(), arm.capacity().estimate() / top.capacity().estimate(), overlaps));
			}
			effects.add(new Effect(axis, List.copyOf(points)));
		}
		return List.copyOf(effects);
	}

}
