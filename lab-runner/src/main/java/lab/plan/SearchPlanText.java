package lab.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The dry run's words for a capacity search and a settings search (tune): how it brackets and refines, where its
 * budget's minutes go (starts and warm-ups, probes), and, for a tune, its steps, the probes each arm of step 1 gets and
 * the arms' memory. True to the plan it describes: every figure comes from the plan's scenario and costs.
 */
final class SearchPlanText {

	private SearchPlanText() {
	}

	/** The search's lines of the dry run (the plan is a search). */
	static String of(RunPlan plan) {
		StringBuilder text = new StringBuilder();
		text.append(String.format(java.util.Locale.ROOT, "capacity search within %s, every variant at once, round by round in a fresh random order "
				+ "(started and warmed once, kept alive): bracket rounds from %s (from each variant's last crossing on this host, else from the crossing "
				+ "the lab ships for it where it has one: the capacity scenario's), doubling while the target holds (steps of 1.5 from a "
				+ "crossing) up to %,d, halving the gap to %s%%; "
				+ "then %d refining rounds just below and above each estimate%s; ratios to %s within rounds%s (the estimates count %d probes per "
				+ "variant)%n", plan.scenario().target().describe(), plan.levels().get(0).id(), plan.scenario().searchMax(), plan.scenario().searchResolution(),
				plan.scenario().rounds(), (plan.scenario().searchMinutes() != null) ? String.format(java.util.Locale.ROOT,
						" (no refining round started that the search's budget of %.0f minutes has no room for)", plan.scenario().searchMinutes()) : "",
				plan.scenario().baselineVariant(), plan.scenario().aa() ? "; A/A: " + plan.scenario().baselineVariant()
						+ " entered twice" : "", plan.probesPerServiceRun()));
		if (plan.scenario().halvingSteps() == null && plan.scenario().searchMinutes() != null) {
			text.append(searchMinutes(plan));
		}
		if (plan.scenario().halvingSteps() != null) {
			text.append(tuneAccount(plan));
		}
		return text.toString();
	}

	/**
	 * The dry run's account of where a capacity search's minutes go: the planned starts and warm-ups (every entry's JVMs,
	 * each about its warm-up and {@value #START_BEYOND_WARMUP_SECONDS} s more), the rest of the budget for probes; a
	 * probe that breaks its JVM costs another start, which the report counts apart.
	 */
	static String searchMinutes(RunPlan plan) {
		List<String> labels = new ArrayList<>(plan.scenario().variants());
		String baseline = plan.scenario().baselineVariant();
		if (plan.scenario().aa()) {
			labels.add(Arm.twin(baseline));
		}
		int entries = labels.size();
		int jvms = Math.max(1, plan.scenario().jvms());
		// Where the fresh JVMs go (JvmPlan): the dry run asks the lab's shipped prior, a run the prior its host's runs updated.
		JvmPlan jvmPlan = JvmPlan.of(labels, baseline, jvms, plan.scenario().rounds(), VariancePrior.SHIPPED);
		List<String> quiet = (jvms > 1) ? labels.stream().filter(VariancePrior.SHIPPED::quiet).toList() : List.of();
		int starts = entries + jvmPlan.freshJvms();
		long start = plan.scenario().warmupSeconds() + START_BEYOND_WARMUP_SECONDS;
		double budget = plan.scenario().searchMinutes() * 60;
		long probe = plan.searchProbeSeconds();
		long probes = Math.max(0, (long) ((budget - starts * start) / probe));
		return String.format(java.util.Locale.ROOT, "capacity search budget, %.0f minutes: %d starts and warm-ups (%d entries, %d fresh JVMs for the refining "
				+ "rounds%s, about %d s each: %.1f min), the rest for probes of about %d s (about %d, %d per entry); a probe that breaks its JVM costs a start more "
				+ "(the report says where the minutes went)%ncapacity search: %s%n", plan.scenario().searchMinutes(), starts, entries, jvmPlan.freshJvms(),
				quiet.isEmpty() ? "" : String.format(java.util.Locale.ROOT, "; %d quiet one%s keep%s one: %s", quiet.size(), (quiet.size() == 1) ? "" : "s",
						(quiet.size() == 1) ? "s" : "", String.join(", ", quiet)),
				start, starts * start / 60.0, probe, probes, probes / Math.max(1, entries), jvmPlan.text());
	}

	/**
	 * A search's start beyond its warm-up: the JVM's start, the contract check, the JIT's settling rounds and the wait for
	 * the core to fall idle (74-100 s in all here at a 60 s warm-up once; 137 s the median of five first starts of a fresh
	 * run on 2026-11-29, whose JIT took 80-120 s to settle).
	 */
	static final int START_BEYOND_WARMUP_SECONDS = 60;

	/** The probes a step-1 arm needs at least: a bracket of three or four probes and two refining rounds. */
	static final int TUNE_MIN_PROBES = 6;

	/**
	 * The dry run's account of a tune search: the arms, the steps and their shares of the budget, and how many probes
	 * each arm of step 1 gets (a probe is a level: ramp, hold and drain); a line saying so when step 1 cannot give each
	 * arm {@value #TUNE_MIN_PROBES}.
	 */
	static String tuneAccount(RunPlan plan) {
		int arms = plan.scenario().variants().size();
		int steps = plan.scenario().halvingSteps();
		double minutes = (plan.scenario().searchMinutes() != null) ? plan.scenario().searchMinutes() : 60;
		long probe = plan.searchProbeSeconds();
		long perArm = (long) (minutes * 60 / 2 / probe / Math.max(1, arms));
		String fresh = "the best on fresh JVMs (one each; with the arms within noise of it, or the best of each group)";
		String later = (steps == 1) ? "then " + fresh + " with the rest"
				: String.format(java.util.Locale.ROOT, "each later step the arms not beaten, on %d JVMs with more rounds, and last %s, each an equal share "
						+ "of the rest", plan.scenario().jvms(), fresh);
		StringBuilder text = new StringBuilder(String.format(java.util.Locale.ROOT, "tune: successive halving over %d arms in at most %d step%s within "
				+ "%.0f minutes: step 1 every arm on one JVM with %d refining rounds, half the budget (%.0f minutes: about %d probes of %d s per arm); "
				+ "%s%n", arms, steps, (steps == 1) ? "" : "s", minutes, Math.max(2, plan.scenario().rounds() / steps), minutes / 2, perArm, probe, later));
		if (plan.own() != null && plan.own().search() != null && !plan.own().search().defaults().isEmpty()) {
			java.util.Map<String, Object> defaults = plan.own().search().defaults();
			List<String> atDefaults = plan.own().arms().stream().filter(plan.own().search()::atDefaults).map(plan.own()::label).toList();
			text.append(String.format(java.util.Locale.ROOT, "tune: on the fresh JVMs, each group's arm at the library's defaults (%s) beside its best "
					+ "when another: %s%n", String.join(" ", defaults.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()),
					String.join(", ", atDefaults)));
		}
		if (perArm < TUNE_MIN_PROBES) {
			long fit = (long) (minutes * 60 / 2 / probe / TUNE_MIN_PROBES);
			text.append(String.format(java.util.Locale.ROOT, "tune: %d arms are more than step 1 can place in %.0f minutes (%d probes each, %d needed): "
					+ "about %d fit; give fewer arms (search.sample, exclude) or more time (searchMinutes)%n", arms, minutes / 2, perArm, TUNE_MIN_PROBES, fit));
		}
		java.util.Map<String, Long> groups = (plan.own() == null) ? java.util.Map.of() : plan.own().arms().stream().filter(arm -> arm.group() != null)
			.collect(java.util.stream.Collectors.groupingBy(OwnService.ServiceArm::group, java.util.LinkedHashMap::new, java.util.stream.Collectors.counting()));
		if (!groups.isEmpty()) {
			text.append(String.format(java.util.Locale.ROOT, "tune: in %d groups (the file's arms, each crossed with the search axes: %s): an arm is "
					+ "dropped only by its own group's leader, a group with one arm left leaves the study, and each group's best is named%n", groups.size(),
					String.join(", ", groups.entrySet().stream().map(e -> e.getKey() + " " + e.getValue() + " arms").toList())));
		}
		if (plan.own() != null) {
			// Each arm's heap ceiling as its options set it, against the memory the box has for them.
			java.util.Map<String, List<String>> options = new java.util.LinkedHashMap<>();
			for (OwnService.ServiceArm arm : plan.own().arms()) {
				List<String> flags = new ArrayList<>(plan.jvmFlags());
				flags.addAll(plan.own().jvmOptions(arm));
				options.put(plan.own().label(arm), flags);
			}
			Turns.plan(options).ifPresent(memory -> text.append(String.format(java.util.Locale.ROOT, "tune: memory: the arms' heap ceilings and %d MiB each "
					+ "come to %,d MiB; %,d MiB are free for them (available now less the injector's and the downstream's heaps and 1 GiB): %s%n",
					Turns.NON_HEAP_MIB, memory.total() >> 20, memory.budget() >> 20, (memory.turns().size() == 1) ? "all at once"
							: "in " + memory.turns().size() + " turns of each step, each interleaved within itself, the step's time shared among them")));
		}
		return text.toString();
	}

}
