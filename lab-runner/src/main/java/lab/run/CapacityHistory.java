package lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.search.EarlierRun;
import lab.analyse.search.Interval;
import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.RunDir;
import lab.layout.TuneAnswer;
import lab.plan.VariancePrior;

/**
 * Each host's capacity crossings ({@link RunDir#CAPACITY_HISTORY} at the results root), the last {@value #KEPT_RUNS} runs'
 * of each: a search starts its bracket from the crossing the last run on this host found for the same scenario, arm,
 * target and variant, so it brackets in two rounds instead of four and has more of its budget for JVMs and refining
 * rounds; and its intervals' prior takes in how far this host's runs of a variant spread ({@link #prior}). Which commit
 * measured a crossing is kept and said; a crossing that is wrong costs a bracket step, never a wrong result (the bracket
 * checks it).
 */
final class CapacityHistory {

	/**
	 * One crossing as recorded; the shipped ones also say the CPU reference of the runs that measured them and what bound
	 * each at its knee (null in a host's own); a host's own since the history kept them, the run's baseline and this
	 * entry's ratio to it with its interval (null: the baseline itself, no ratio, or recorded before).
	 */
	record Crossing(String host, String scenario, String arm, LatencyTarget target, String entry, double users, String commit, String at, Double referenceMs,
			String limit, String baseline, TuneAnswer.Bounds ratio) {

		/** A crossing without a ratio (the shipped ones, and a host's before the history kept ratios). */
		Crossing(String host, String scenario, String arm, LatencyTarget target, String entry, double users, String commit, String at, Double referenceMs,
				String limit) {
			this(host, scenario, arm, target, entry, users, commit, at, referenceMs, limit, null, null);
		}

		/** Whether it was found by a search of this scenario, arm and target. */
		boolean of(String scenario, String arm, LatencyTarget target) {
			return this.scenario.equals(scenario) && this.arm.equals(arm) && this.target.equals(target);
		}

		/**
		 * Where this crossing puts the knee on a host whose CPU reference is {@code hostReferenceMs}: scaled by the
		 * references' ratio when the core or the heap bound it (a faster core serves more), as measured when a thread
		 * pool bound it or either reference is unknown.
		 */
		double usersAt(double hostReferenceMs) {
			boolean scales = this.referenceMs != null && this.referenceMs > 0 && hostReferenceMs > 0 && Double.isFinite(hostReferenceMs)
					&& this.limit != null && !this.limit.contains("pool");
			return scales ? this.users * this.referenceMs / hostReferenceMs : this.users;
		}

	}

	/** The file's contents ({@code about}: what the shipped file says of itself; null in a host's file). */
	@com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
	record File(String about, List<Crossing> crossings) {
	}

	/**
	 * The crossings this project measured and ships with the lab ({@value #SHIPPED}): where a host with none of its own
	 * starts its brackets, so a first run brackets near the knees as a second run does, instead of doubling from 1,000
	 * users (which ran the heap-bound variants out of memory and cost fresh JVMs).
	 */
	static final String SHIPPED = "/capacity-shipped.json";

	/** The host of a shipped crossing. */
	static final String SHIPPED_HOST = "shipped";

	/** Whether a crossing is the lab's shipped one rather than this host's. */
	static boolean shipped(Crossing crossing) {
		return SHIPPED_HOST.equals(crossing.host());
	}

	private final Path file;

	private final String host;

	CapacityHistory(Path resultsRoot) {
		this.file = resultsRoot.resolve(RunDir.CAPACITY_HISTORY);
		this.host = RunManifest.hostname();
	}

	/**
	 * The last crossing of each entry on this host, for this scenario, arm and target; for an entry this host has none
	 * of, the lab's shipped one ({@link #shipped}); an unreadable file is no history.
	 */
	Map<String, Crossing> last(String scenario, String arm, LatencyTarget target) {
		Map<String, Crossing> last = new LinkedHashMap<>();
		for (Crossing c : shippedCrossings()) {
			if (c.of(scenario, arm, target)) {
				last.put(c.entry(), c);
			}
		}
		for (Crossing c : read()) {
			if (ours(c, scenario, arm, target)) {
				last.put(c.entry(), c);
			}
		}
		return last;
	}

	/** Whether {@code c} is this host's, of a search of this scenario, arm and target. */
	private boolean ours(Crossing c, String scenario, String arm, LatencyTarget target) {
		return c.host().equals(this.host) && c.of(scenario, arm, target);
	}

	/** The crossings shipped with the lab; none when the resource is missing or unreadable. */
	static List<Crossing> shippedCrossings() {
		try (var in = CapacityHistory.class.getResourceAsStream(SHIPPED)) {
			if (in == null) {
				return List.of();
			}
			File shipped = Json.MAPPER.readValue(in, File.class);
			return (shipped.crossings() == null) ? List.of() : shipped.crossings();
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
	}

	/**
	 * This host's prior for a search of this scenario, arm and target: the lab's {@code shipped} one, each variant's
	 * spread updated by this host's runs of it where it has {@value #HOST_RUNS_FROM} or more ({@link VariancePrior#withRuns});
	 * the shipped one alone where it has fewer.
	 */
	VariancePrior prior(String scenario, String arm, LatencyTarget target, VariancePrior shipped) {
		Map<String, List<Double>> runs = new LinkedHashMap<>();
		for (Crossing c : read()) {
			if (ours(c, scenario, arm, target) && c.users() > 0) {
				runs.computeIfAbsent(c.entry(), k -> new ArrayList<>()).add(c.users());
			}
		}
		runs.values().removeIf(crossings -> crossings.size() < HOST_RUNS_FROM);
		return runs.isEmpty() ? shipped : shipped.withRuns(runs);
	}

	/** A variant's spread on this host counts from this many runs of it. */
	static final int HOST_RUNS_FROM = 3;

	/** The runs of each key this host's history keeps, the latest. */
	static final int KEPT_RUNS = 10;

	/**
	 * This host's earlier runs of this scenario, arm and target, the latest {@code max}, oldest first: each run's ratios to
	 * {@code baseline} with the intervals it stated; a run recorded before the history kept them, its crossings' ratios
	 * alone (no interval); a run without the baseline, none.
	 */
	List<EarlierRun> earlier(String scenario, String arm, LatencyTarget target, String baseline, int max) {
		Map<String, List<Crossing>> runs = new LinkedHashMap<>();
		for (Crossing c : read()) {
			if (ours(c, scenario, arm, target) && c.at() != null) {
				runs.computeIfAbsent(c.at(), k -> new ArrayList<>()).add(c);
			}
		}
		List<EarlierRun> earlier = new ArrayList<>();
		for (List<Crossing> run : runs.values()) {
			Crossing base = run.stream().filter(c -> c.entry().equals(baseline)).findFirst().orElse(null);
			if (base == null || !(base.users() > 0)) {
				continue;
			}
			Map<String, TuneAnswer.Bounds> ratios = new LinkedHashMap<>();
			for (Crossing c : run) {
				if (c == base || !(c.users() > 0)) {
					continue;
				}
				if (c.ratio() != null && baseline.equals(c.baseline())) {
					ratios.put(c.entry(), c.ratio());
				}
				else {
					double point = c.users() / base.users();
					ratios.put(c.entry(), new TuneAnswer.Bounds(point, point, point, 1, 1, 0, "PRIOR"));
				}
			}
			if (!ratios.isEmpty()) {
				earlier.add(new EarlierRun(run.get(0).at(), run.get(0).commit(), baseline, ratios));
			}
		}
		return List.copyOf(earlier.subList(Math.max(0, earlier.size() - max), earlier.size()));
	}

	/** Records this run's crossings beside this host's earlier ones for the same keys (the latest {@value #KEPT_RUNS} of each kept). */
	void record(String scenario, String arm, LatencyTarget target, Map<String, Double> crossings, String commit) throws IOException {
		record(scenario, arm, target, crossings, commit, null, Map.of());
	}

	/**
	 * As {@link #record(String, String, LatencyTarget, Map, String)}, each entry's ratio to {@code baseline} with its
	 * interval kept beside its crossing (where {@code ratios} has one), for the next run's report to draw.
	 */
	void record(String scenario, String arm, LatencyTarget target, Map<String, Double> crossings, String commit, String baseline,
			Map<String, Interval> ratios) throws IOException {
		List<Crossing> all = new ArrayList<>(read());
		for (String entry : crossings.keySet()) {
			List<Crossing> same = all.stream().filter(c -> ours(c, scenario, arm, target) && c.entry().equals(entry)).toList();
			if (same.size() >= KEPT_RUNS) {
				all.removeAll(same.subList(0, same.size() - KEPT_RUNS + 1));
			}
		}
		String at = Instant.now().toString();
		crossings.forEach((entry, users) -> {
			Interval ratio = ratios.get(entry);
			all.add(new Crossing(this.host, scenario, arm, target, entry, users, commit, at, null, null, (ratio != null) ? baseline : null,
					(ratio != null && ratio.n() > 0) ? ratio.bounds() : null));
		});
		Files.createDirectories(this.file.getParent());
		Path partial = this.file.resolveSibling(this.file.getFileName() + ".partial");
		Json.MAPPER.writeValue(partial.toFile(), new File(null, all));
		Files.move(partial, this.file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	private List<Crossing> read() {
		if (!Files.isRegularFile(this.file)) {
			return List.of();
		}
		try {
			File read = Json.MAPPER.readValue(this.file.toFile(), File.class);
			return (read.crossings() == null) ? List.of() : read.crossings();
		}
		catch (RuntimeException ex) {
			return List.of();
		}
	}

}
