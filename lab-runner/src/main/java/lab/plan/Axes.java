package lab.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * A search over a service's settings: each axis a Spring property with its values, or {@code jvm} with lists of JVM
 * options; the product of the axes, less the combinations {@code exclude} names, becomes the arms, a seeded sample of
 * them when {@code sample} asks for fewer. Each arm is named by its values ({@code true-10-xmx256m}) and described by
 * them ({@code spring.threads.virtual.enabled=true spring.datasource.hikari.maximum-pool-size=10 -Xmx256m}).
 *
 * @param axes each axis and its values, in the file's order
 * @param exclude combinations to leave out: one drops every arm whose values match all of its pairs
 * @param sample at most this many arms (a seeded sample of the product when it is larger); none: all of them
 * @param seed the sample's seed (recorded with the file, so the arms can be drawn again); none: 1
 * @param maxHeap a constraint: arms whose {@code -Xmx} exceeds it are left out ({@code 768m}, {@code 1g}; the box's memory
 * less what the JVM needs beside its heap); none: no bound
 * @param defaults the library's own values of some property axes (HikariCP's pool of 10: {@code {lab.db.pool-size:
 * 10}}): a tune runs each group's arm at them on fresh JVMs beside its best, so the answer shows what the best gains
 * over leaving them alone; none: no such arm
 */
public record Axes(Map<String, List<Object>> axes, List<Map<String, Object>> exclude, Integer sample, Long seed, String maxHeap,
		Map<String, Object> defaults) {

	/** The axis whose values are lists of JVM options. */
	public static final String JVM = "jvm";

	/** The most arms a product may make before a sample must pick among them. */
	static final int MAX_ARMS = 64;

	public Axes(Map<String, List<Object>> axes, List<Map<String, Object>> exclude, Integer sample, Long seed) {
		this(axes, exclude, sample, seed, null);
	}

	public Axes(Map<String, List<Object>> axes, List<Map<String, Object>> exclude, Integer sample, Long seed, String maxHeap) {
		this(axes, exclude, sample, seed, maxHeap, null);
	}

	public Axes {
		axes = (axes != null) ? new LinkedHashMap<>(axes) : new LinkedHashMap<>();
		exclude = (exclude != null) ? List.copyOf(exclude) : List.of();
		seed = (seed != null) ? seed : 1L;
		defaults = (defaults != null) ? new LinkedHashMap<>(defaults) : new LinkedHashMap<>();
	}

	/** Whether {@code arm} holds every one of {@link #defaults} (false when there are none). */
	public boolean atDefaults(OwnService.ServiceArm arm) {
		return !this.defaults.isEmpty()
				&& this.defaults.entrySet().stream().allMatch(d -> String.valueOf(d.getValue()).equals(arm.properties().get(d.getKey())));
	}

	/** Every problem of the search block, each naming its field and the fix. */
	List<String> problems() {
		List<String> problems = new ArrayList<>();
		if (this.axes.isEmpty()) {
			problems.add("search.axes must name at least one axis, e.g. {spring.threads.virtual.enabled: [true, false]}");
		}
		this.axes.forEach((axis, values) -> {
			if (values == null || values.size() < 2) {
				problems.add("search.axes." + axis + " must list two values or more, got " + values);
			}
			else if (axis.equals(JVM) && values.stream().anyMatch(v -> !(v instanceof List<?> options) || options.stream().anyMatch(o -> !String.valueOf(o).startsWith("-")))) {
				problems.add("search.axes.jvm must list lists of JVM options, e.g. [[-Xmx256m], [-Xmx512m]], got " + values);
			}
			else if (!axis.equals(JVM) && !axis.matches("[a-zA-Z0-9_.\\-\\[\\]]+")) {
				problems.add("search.axes: '" + axis + "' must be a Spring property name or jvm");
			}
		});
		for (Map<String, Object> combination : this.exclude) {
			for (String axis : combination.keySet()) {
				if (!this.axes.containsKey(axis)) {
					problems.add("search.exclude names '" + axis + "', which is not an axis: use one of " + this.axes.keySet());
				}
			}
		}
		this.defaults.forEach((axis, value) -> {
			if (axis.equals(JVM) || !this.axes.containsKey(axis)) {
				problems.add("search.defaults names '" + axis + "', which is not a property axis: use one of "
						+ this.axes.keySet().stream().filter(a -> !a.equals(JVM)).toList());
			}
			else if (this.axes.get(axis) != null && this.axes.get(axis).stream().noneMatch(v -> String.valueOf(v).equals(String.valueOf(value)))) {
				problems.add("search.defaults." + axis + " must be one of its values " + this.axes.get(axis) + ", got " + value);
			}
		});
		if (this.maxHeap != null && bytes(this.maxHeap) < 0) {
			problems.add("search.maxHeap must be a size like -Xmx takes, e.g. 768m or 1g, got '" + this.maxHeap + "'");
		}
		if (this.sample != null && this.sample < 2) {
			problems.add("search.sample must be 2 or more (arms drawn from the product), got " + this.sample);
		}
		if (problems.isEmpty()) {
			int product = product().size();
			if (product > MAX_ARMS && (this.sample == null || this.sample > MAX_ARMS)) {
				problems.add("search.axes make " + product + " arms, more than " + MAX_ARMS + ": add search.sample (at most " + MAX_ARMS
						+ ") or fewer values");
			}
		}
		return problems;
	}

	/** The arms: the product less the excluded, sampled when asked, in the product's order. */
	public List<OwnService.ServiceArm> arms() {
		List<Map<String, Object>> combinations = product();
		combinations.removeIf(this::excluded);
		combinations.removeIf(this::overHeap);
		if (this.sample != null && combinations.size() > this.sample) {
			List<Integer> indices = new ArrayList<>();
			for (int i = 0; i < combinations.size(); i++) {
				indices.add(i);
			}
			Collections.shuffle(indices, new Random(this.seed));
			List<Integer> kept = new ArrayList<>(indices.subList(0, this.sample));
			Collections.sort(kept);
			List<Map<String, Object>> sampled = new ArrayList<>();
			kept.forEach(i -> sampled.add(combinations.get(i)));
			combinations.clear();
			combinations.addAll(sampled);
		}
		return combinations.stream().map(Axes::arm).toList();
	}

	private List<Map<String, Object>> product() {
		List<Map<String, Object>> combinations = new ArrayList<>();
		combinations.add(new LinkedHashMap<>());
		this.axes.forEach((axis, values) -> {
			List<Map<String, Object>> next = new ArrayList<>();
			for (Map<String, Object> combination : combinations) {
				for (Object value : values) {
					Map<String, Object> more = new LinkedHashMap<>(combination);
					more.put(axis, value);
					next.add(more);
				}
			}
			combinations.clear();
			combinations.addAll(next);
		});
		return combinations;
	}

	private boolean excluded(Map<String, Object> combination) {
		return this.exclude.stream().anyMatch(pairs -> !pairs.isEmpty()
				&& pairs.entrySet().stream().allMatch(pair -> String.valueOf(combination.get(pair.getKey())).equals(String.valueOf(pair.getValue()))));
	}

	/** Whether the combination's -Xmx (its last, as the JVM takes it) exceeds {@link #maxHeap}. */
	private boolean overHeap(Map<String, Object> combination) {
		if (this.maxHeap == null || !(combination.get(JVM) instanceof List<?> options)) {
			return false;
		}
		long heap = -1;
		for (Object option : options) {
			if (String.valueOf(option).startsWith("-Xmx")) {
				heap = bytes(String.valueOf(option).substring(4));
			}
		}
		return heap > bytes(this.maxHeap);
	}

	/** A size as -Xmx takes it (bytes, or k, m, g, t), in bytes; -1 when it is not one. */
	public static long bytes(String size) {
		java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([kKmMgGtT]?)").matcher(size.trim());
		if (!m.matches()) {
			return -1;
		}
		long value = Long.parseLong(m.group(1));
		return switch (m.group(2).toLowerCase(Locale.ROOT)) {
			case "k" -> value << 10;
			case "m" -> value << 20;
			case "g" -> value << 30;
			case "t" -> value << 40;
			default -> value;
		};
	}

	/**
	 * Each of {@code bases} crossed with the arms of the axes ({@link #arms}), in the bases' order: named {@code
	 * <base>-<values>}, with the base's settings and the combination's on top, in the base's group.
	 */
	List<OwnService.ServiceArm> crossed(List<OwnService.ServiceArm> bases) {
		List<OwnService.ServiceArm> crossed = new ArrayList<>();
		for (OwnService.ServiceArm base : bases) {
			for (OwnService.ServiceArm values : arms()) {
				Map<String, String> properties = new LinkedHashMap<>(base.properties());
				properties.putAll(values.properties());
				List<String> jvm = new ArrayList<>(base.jvm());
				jvm.addAll(values.jvm());
				String description = ((base.description() != null) ? base.description() + "; " : "") + values.description();
				crossed.add(new OwnService.ServiceArm(base.name() + "-" + values.name(), description, properties, jvm, base.jdk(), base.jar(), base.name()));
			}
		}
		return crossed;
	}

	/** The arm of one combination, named and described by its values. */
	static OwnService.ServiceArm arm(Map<String, Object> combination) {
		Map<String, String> properties = new LinkedHashMap<>();
		List<String> jvm = new ArrayList<>();
		List<String> words = new ArrayList<>();
		combination.forEach((axis, value) -> {
			if (axis.equals(JVM)) {
				((List<?>) value).forEach(option -> jvm.add(String.valueOf(option)));
				words.add(String.join("", jvm));
			}
			else {
				properties.put(axis, String.valueOf(value));
				words.add(String.valueOf(value));
			}
		});
		String name = String.join("-", words.stream().map(w -> w.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "")).toList()).replaceAll("^-+", "");
		List<String> description = new ArrayList<>();
		properties.forEach((key, value) -> description.add(key + "=" + value));
		description.addAll(jvm);
		return new OwnService.ServiceArm(name.isEmpty() ? "arm" : name, String.join(" ", description), properties, jvm, null);
	}

}
