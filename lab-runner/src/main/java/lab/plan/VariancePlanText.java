package lab.plan;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What the dry run says of a variance study ({@code probesPerJvm} set) and what its procedure's arms add to the
 * estimate: its entries (every variant under every arm, and under the history and hold arms where the scenario has
 * them), its batches, its starts and its probes.
 */
final class VariancePlanText {

	private VariancePlanText() {
	}

	/** A study's entries per variant and arm: itself, its history arm's and its hold arm's, where the scenario has them. */
	static int entriesPerArm(Scenario scenario) {
		return 1 + ((scenario.preloadFactor() != null) ? 1 : 0) + ((scenario.holdArmSeconds() != null) ? 1 : 0);
	}

	/** The study's line of the dry run. */
	static String of(RunPlan plan) {
		Scenario s = plan.scenario();
		int perArm = entriesPerArm(s);
		int entries = s.variants().size() * plan.arms().size() * perArm;
		List<String> armNames = plan.arms().stream().flatMap(arm -> Stream.of(arm.name(),
				(s.preloadFactor() != null) ? arm.name() + " after " + s.preloadFactor() + " x its load" : null,
				(s.holdArmSeconds() != null) ? arm.name() + " held " + s.holdArmSeconds() + " s" : null)
			.filter(Objects::nonNull)).toList();
		return String.format(Locale.ROOT, "variance study: %d entries (%d variants x %d arms: %s), %d batches; in each, every entry "
				+ "on a fresh JVM, probed %d times at %s, in a fresh random order each round: %d starts and warm-ups, %d probes%s%n", entries,
				s.variants().size(), armNames.size(), String.join(", ", armNames), s.jvms(), s.probesPerJvm(),
				s.users().isEmpty() ? "its variant's last capacity crossing on this host (else the one the lab ships)" : "the users given, one per variant",
				entries * s.jvms(), entries * s.jvms() * s.probesPerJvm(), (s.preloadFactor() == null) ? ""
						: String.format(Locale.ROOT, " and %d history probes (each history arm's JVM once at %s x its load first)", entries / perArm * s.jvms(),
								s.preloadFactor()));
	}

	/**
	 * What the procedure's arms add to the study's time beyond its starts and counted probes: a history probe (of
	 * {@code probeSeconds}) on each of the history arm's JVMs, and the hold arm's probes each longer by the difference
	 * of the holds.
	 */
	static long armSeconds(RunPlan plan, long probeSeconds) {
		Scenario s = plan.scenario();
		long jvmsPerArm = (long) plan.serviceRuns() / entriesPerArm(s);
		long seconds = 0;
		if (s.preloadFactor() != null) {
			seconds += jvmsPerArm * probeSeconds;
		}
		if (s.holdArmSeconds() != null) {
			seconds += jvmsPerArm * s.probesPerJvm() * (s.holdArmSeconds() - s.holdSeconds());
		}
		return seconds;
	}

}
