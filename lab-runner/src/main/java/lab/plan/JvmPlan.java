package lab.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How many JVMs each entry of a capacity search runs on: the fresh JVMs go where they narrow the widest ratio most
 * (Kalibera and Jones: repeat at the level whose variance is largest). A ratio's variance, as the lab's prior predicts
 * it, is its two entries' each a JVM term (the entry's spread between JVMs over its JVMs) and a run term (which no JVM
 * shrinks); the rounds' own wobble is left out, alike for any sharing of the same rounds. The plan spends as many fresh
 * JVMs as the scenario's {@code jvms} would give every entry that is not quiet ({@link VariancePrior#quiet}), one at a
 * time: to the widest ratio's entry, or to the baseline (in every ratio) when that narrows the widest ratio more. An
 * entry gets at most {@link #maxJvms} JVMs; a quiet entry keeps one; an A/A twin keeps the even plan's (it checks
 * the harness like for like). With the shipped prior and two JVMs per variant this gives WebFlux + virtual threads
 * (23.1% between JVMs) three where the even plan gave it two, Tomcat + virtual threads (8.4%) one: the same starts, the
 * widest ratio's predicted SD 17.3% where the even plan's was 19.7%.
 *
 * @param jvms each entry's JVMs (the first runs the bracket, the others share the refining rounds)
 * @param baseline the entry the ratios are to, or null (a tune's arms: each capacity's own interval is the widest)
 * @param even the plan the scenario's {@code jvms} gives every entry that is not quiet
 * @param widestSd the widest ratio's (or capacity's) predicted SD of its log under this plan
 * @param evenWidestSd the same under the even plan
 */
public record JvmPlan(Map<String, Integer> jvms, String baseline, Map<String, Integer> even, double widestSd, double evenWidestSd) {

	public JvmPlan {
		jvms = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(jvms));
		even = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(even));
	}

	/**
	 * The plan for {@code entries} (in the run's order) with {@code jvmsPerEntry} JVMs each in the scenario and
	 * {@code rounds} refining rounds; {@code baseline} may be null.
	 */
	public static JvmPlan of(List<String> entries, String baseline, int jvmsPerEntry, int rounds, VariancePrior prior) {
		int evenJvms = Math.max(1, Math.min(jvmsPerEntry, Math.max(1, rounds) + 1));
		Map<String, Integer> even = new LinkedHashMap<>();
		for (String entry : entries) {
			even.put(entry, (evenJvms > 1 && prior.quiet(entry)) ? 1 : evenJvms);
		}
		String base = (baseline != null && entries.contains(baseline)) ? baseline : null;
		double evenWidest = widest(even, base, prior);
		if (!prior.jvmTerm() || evenJvms == 1) {
			// Without a JVM level the prior cannot say where a JVM pays: the even plan, as the scenario asks.
			return new JvmPlan(even, base, even, evenWidest, evenWidest);
		}
		int most = maxJvms(evenJvms, rounds);
		int fresh = even.values().stream().mapToInt(j -> j - 1).sum();
		Map<String, Integer> plan = new LinkedHashMap<>();
		entries.forEach(entry -> plan.put(entry, 1));
		List<String> full = new ArrayList<>();
		// An A/A twin keeps the even plan's JVMs: it checks the harness, like for like, not the widest ratio.
		String twin = (base != null && entries.contains(Arm.twin(base))) ? Arm.twin(base) : null;
		if (twin != null) {
			plan.put(twin, even.get(twin));
			fresh -= even.get(twin) - 1;
			full.add(twin);
		}
		while (fresh > 0) {
			// The widest ratio (or capacity) that a fresh JVM can still narrow.
			String widest = entries.stream().filter(e -> !e.equals(base) && !full.contains(e))
				.max(Comparator.comparingDouble(e -> variance(plan, e, base, prior))).orElse(null);
			if (widest == null) {
				break;
			}
			String to = null;
			double gain = 0;
			for (String candidate : (base == null) ? List.of(widest) : List.of(base, widest)) {
				if (plan.get(candidate) >= most || prior.quiet(candidate)) {
					continue;
				}
				int j = plan.get(candidate);
				double narrows = prior.variance(candidate) * (1.0 / j - 1.0 / (j + 1));
				if (narrows > gain) {
					gain = narrows;
					to = candidate;
				}
			}
			if (to == null) {
				full.add(widest);
				continue;
			}
			plan.merge(to, 1, Integer::sum);
			fresh--;
		}
		return new JvmPlan(plan, base, even, widest(plan, base, prior), evenWidest);
	}

	/**
	 * The most JVMs one entry gets: the scenario's own number, or more, up to one for the bracket and one for each two
	 * refining rounds: a start and warm-up costs about two probes here (74-137 s against 33-42 s).
	 */
	static int maxJvms(int evenJvms, int rounds) {
		return Math.max(evenJvms, 1 + Math.max(1, rounds) / 2);
	}

	/** {@code entry}'s JVMs in this plan (1 for an entry it does not know). */
	public int of(String entry) {
		return this.jvms.getOrDefault(entry, 1);
	}

	/** The fresh JVMs the plan starts for the refining rounds. */
	public int freshJvms() {
		return this.jvms.values().stream().mapToInt(j -> j - 1).sum();
	}

	/** Whether the plan differs from the even one. */
	public boolean uneven() {
		return !this.jvms.equals(this.even);
	}

	/** One line saying the plan: each entry's JVMs, and the widest ratio's predicted SD against the even plan's. */
	public String text() {
		List<String> each = new ArrayList<>();
		this.jvms.forEach((entry, j) -> each.add(entry + " " + j + ((entry.equals(this.baseline)) ? " (the baseline)" : "")));
		if (!uneven()) {
			return String.format(Locale.ROOT, "JVMs per entry: %s", String.join(", ", each));
		}
		int evenJvms = this.even.values().stream().mapToInt(Integer::intValue).max().orElse(1);
		return String.format(Locale.ROOT, "JVMs per entry, where the lab's prior says a fresh one narrows the widest %s most: %s (the same %d fresh JVMs as %d "
				+ "each would start; the widest's predicted SD ±%.1f%%, ±%.1f%% with %d each)", (this.baseline != null) ? "ratio" : "interval",
				String.join(", ", each), freshJvms(), evenJvms, 100 * this.widestSd, 100 * this.evenWidestSd, evenJvms);
	}

	/** The predicted variance of {@code entry}'s log capacity that its {@code jvms} JVMs shrink. */
	private static double jvmVariance(Map<String, Integer> jvms, String entry, VariancePrior prior) {
		return prior.variance(entry) / jvms.get(entry);
	}

	/** The predicted variance of {@code entry}'s log capacity with {@code jvms} JVMs: its JVM term over them, its run term whole. */
	private static double capacityVariance(Map<String, Integer> jvms, String entry, VariancePrior prior) {
		return jvmVariance(jvms, entry, prior) + prior.runVariance(entry);
	}

	/**
	 * The predicted variance of {@code entry}'s ratio to the baseline (its capacity's, with no baseline); the A/A twin's
	 * ratio to its own variant has no run term ({@link VariancePrior#ratioRunVariance}).
	 */
	private static double variance(Map<String, Integer> jvms, String entry, String baseline, VariancePrior prior) {
		if (baseline == null) {
			return capacityVariance(jvms, entry, prior);
		}
		return jvmVariance(jvms, entry, prior) + jvmVariance(jvms, baseline, prior) + prior.ratioRunVariance(entry, baseline, Arm.twin(baseline));
	}

	/** The widest ratio's (or capacity's) predicted SD. */
	private static double widest(Map<String, Integer> jvms, String baseline, VariancePrior prior) {
		return Math.sqrt(jvms.keySet().stream().filter(e -> baseline == null || !e.equals(baseline) || jvms.size() == 1)
			.mapToDouble(e -> (e.equals(baseline)) ? capacityVariance(jvms, e, prior) : variance(jvms, e, baseline, prior)).max().orElse(0));
	}

}
