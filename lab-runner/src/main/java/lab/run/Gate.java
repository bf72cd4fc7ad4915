package lab.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import lab.analyse.RunAnalysis;
import lab.analyse.judge.LevelResult;
import lab.plan.RunPlan;

/** The run's exit code from its latency target: the gate a user's CI runs. */
public final class Gate {

	/** The exit code of a run whose declared latency target a variant missed at a level (documented in docs/latency-target.md). */
	public static final int TARGET_MISSED_EXIT_CODE = 3;

	/**
	 * The exit code of a settings search ({@code --scenario tune}) that named no best: no arm's capacity within the target was
	 * measured (every probe INVALID, say). A wrong answer is worse than none, and a script must not read it as one.
	 */
	public static final int NO_ANSWER_EXIT_CODE = 5;

	private Gate() {
	}

	/**
	 * A run that declared its latency target fails (exit 3) when a variant missed it at any level it ran: the gate a
	 * user's CI runs. Without a declared target, or with every variant within it, 0.
	 */
	static int of(RunPlan plan, RunAnalysis analysis, PrintStream out) {
		if (analysis == null) {
			return 0;
		}
		if (analysis.tune() != null && !analysis.tune().named()) {
			List<String> groups = analysis.tune().unnamedGroups();
			out.println("lab: the settings search named no best" + (groups.isEmpty() ? "" : " for " + String.join(", ", groups)) + " (exit code "
					+ NO_ANSWER_EXIT_CODE + ")");
			return NO_ANSWER_EXIT_CODE;
		}
		if (!plan.scenario().targetDeclared()) {
			return 0;
		}
		if (plan.scenario().searching()) {
			// A search misses the target by design (it looks for where): its answer is the capacity it printed.
			out.println("lab: a capacity search is not a gate: its probes above the capacity miss the target by design");
			return 0;
		}
		String target = plan.scenario().target().describe();
		List<String> missed = new ArrayList<>();
		for (LevelResult level : analysis.levels()) {
			if (Boolean.FALSE.equals(level.meetsTarget())) {
				missed.add(level.variant() + " at " + level.load() + " (" + level.verdict()
						+ (level.verdict() == LevelResult.Verdict.OK ? ", " + level.targetText(plan.scenario().target())
								: level.reasons().isEmpty() ? "" : ": " + level.reasons().get(0)) + ")");
			}
		}
		if (missed.isEmpty()) {
			out.println("lab: every level met the latency target " + target);
			return 0;
		}
		out.println("lab: the latency target " + target + " was missed: " + String.join("; ", missed) + " (exit code " + TARGET_MISSED_EXIT_CODE + ")");
		return TARGET_MISSED_EXIT_CODE;
	}

}
