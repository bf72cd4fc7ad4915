package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import lab.analyse.judge.Catalogue;
import lab.analyse.judge.DownstreamLateness;
import lab.analyse.judge.Figure;
import lab.analyse.judge.FigureRule;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.judge.Repeats;
import lab.analyse.judge.Rule;
import lab.analyse.judge.Thresholds;
import lab.analyse.judge.Warmth;
import lab.analyse.measure.Measurement;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.RequestCounts;
import lab.analyse.read.Stall;
import lab.layout.LevelDir;
import lab.layout.RunDir;
import lab.layout.ServiceDir;
import lab.load.LoadWindow;

/**
 * One repeat of a level judged: the measurement first, then the service ({@link #judge}), by the declared rules
 * ({@link Rule}, {@link FigureRule}) and the ones that combine figures ({@link Warmth}, {@link DownstreamLateness}).
 */
final class LevelJudge {

	private final Thresholds thresholds;

	private final Catalogue catalogue;

	LevelJudge(Thresholds thresholds, Catalogue catalogue) {
		this.thresholds = thresholds;
		this.catalogue = catalogue;
	}

	/** The findings of the rules comparing one of this repeat's figures with a threshold, in declaration order. */
	private List<FigureRule.Finding> figureFindings(Measurement m) {
		if (m.window() == null) {
			return List.of();
		}
		Map<Figure, Double> figures = Repeats.compute(List.of(m), this.thresholds, this.catalogue.figures());
		List<FigureRule.Finding> findings = new ArrayList<>();
		for (FigureRule rule : this.catalogue.rules(FigureRule.Scope.EACH_REPEAT)) {
			rule.judge(figures, this.thresholds).ifPresent(findings::add);
		}
		return findings;
	}

	private static List<String> reasons(List<FigureRule.Finding> findings, Rule.Effect effect) {
		return findings.stream().filter(f -> f.effect() == effect).map(FigureRule.Finding::reason).toList();
	}

	/** The verdict of a level that never ran: the service's fault FAILED, the harness's INVALID, the runner's end INTERRUPTED. */
	static Verdict verdict(LevelFacts.Blame blame) {
		return switch (blame) {
			case SERVICE -> Verdict.FAILED;
			case HARNESS -> Verdict.INVALID;
			case RUNNER_ENDED -> Verdict.INTERRUPTED;
		};
	}

	/**
	 * The measurement is judged first, then the service: INTERRUPTED when the person stopped the run; FAILED when the
	 * service died or ran out of memory (no harness fault does that); INVALID when the harness was the limit or broke,
	 * or a check could not be computed (whatever else the service did: its symptoms are listed, not judged); FAILED
	 * when the service broke otherwise, warm or not; INVALID when the JIT had not settled; OK.
	 */
	Verdict judge(Measurement m, Set<String> reasons, Set<String> evidence) {
		LevelFacts facts = m.facts();
		LoadWindow window = m.window();
		if (facts.interruptedAtMs() != null) {
			reasons.add("interrupted by the person running the lab" + LoadWindow.at(window, facts.interruptedAtMs()) + "; not the service's fault, not ranked");
			return Verdict.INTERRUPTED;
		}
		if (!facts.problems().isEmpty()) {
			// The level never ran (start-up or contract failure, an earlier level broke the service or the harness).
			reasons.addAll(facts.problems());
			evidence.addAll(facts.evidence());
			return verdict(LevelFacts.Blame.read(facts.notRun()));
		}
		Set<String> notes = new LinkedHashSet<>();
		List<FigureRule.Finding> findings = figureFindings(m);
		List<String> invalid = harnessProblems(m, notes, reasons(findings, Rule.Effect.INVALID));
		List<String> cold = (m.window() != null) ? new Warmth(this.thresholds).judge(m, notes) : new ArrayList<>();
		if (facts.startedCold()) {
			// A start measures the cold JVM on purpose: what would make a level "not warm" is what it reports.
			cold.forEach(reason -> notes.add("started cold on purpose: " + reason));
			cold = List.of();
		}
		List<String> failed = serviceProblems(m, reasons(findings, Rule.Effect.FAILED));
		notes.addAll(reasons(findings, Rule.Effect.NOTE));
		if (m.window() != null) {
			declaredChecks(m, invalid, failed, notes);
		}
		Verdict verdict;
		if (!facts.serviceAlive() || facts.outOfMemory()) {
			// No harness fault kills a process or fills its heap: a service that died is FAILED whatever else went
			// wrong (a dead service makes the injector spin on refused connections and saturate its cores).
			reasons.addAll(failed);
			if (!invalid.isEmpty()) {
				reasons.add("the harness was off too: " + String.join(", ", invalid));
			}
			verdict = Verdict.FAILED;
		}
		else if (!invalid.isEmpty()) {
			reasons.addAll(invalid);
			reasons.addAll(cold);
			if (!failed.isEmpty()) {
				reasons.add("the service's symptoms, not judged: " + String.join(", ", failed));
			}
			verdict = Verdict.INVALID;
		}
		else if (!failed.isEmpty()) {
			// A JIT still compiling makes a service slower, it does not leave users unanswered: errors, a stall or
			// refused connections are the service's whether it was warm or not (the failure itself opens code paths
			// the JIT then compiles, and makes the window's halves incomparable). Named, not judged.
			reasons.addAll(failed);
			cold.forEach(reason -> reasons.add(reason + " (named, not judged: a JIT still compiling slows a service, it does not stop it answering)"));
			verdict = Verdict.FAILED;
		}
		else if (!cold.isEmpty()) {
			reasons.addAll(cold);
			verdict = Verdict.INVALID;
		}
		else {
			verdict = Verdict.OK;
		}
		// Harness symptoms too small to have moved the figures, each with its bound: named, not judged.
		reasons.addAll(notes);
		if (verdict != Verdict.OK) {
			evidence.addAll(facts.evidence());
		}
		else {
			// What an OK level found on its way is shown with it: where the time went when it missed the target with its
			// core not saturated (OffCpuEvidence), a connection pool that was the limit (PoolEvidence).
			facts.evidence().stream().filter(file -> file.endsWith("/" + LevelDir.OFF_CPU) || file.endsWith("/" + LevelDir.POOL))
				.forEach(evidence::add);
		}
		return verdict;
	}

	/** The rules judged by their own declaration ({@link Rule#check}), each reason added where its effect puts it. */
	private void declaredChecks(Measurement m, List<String> invalid, List<String> failed, Set<String> notes) {
		for (Rule rule : Rule.values()) {
			double bound = rule.hasThreshold() ? this.thresholds.get(rule) : Double.NaN;
			String boundText = rule.hasThreshold() ? rule.format(bound) : "";
			rule.check().flatMap(check -> check.reason(m, bound, boundText)).ifPresent(reason -> {
				switch (rule.effect()) {
					case INVALID -> invalid.add(reason);
					case FAILED -> failed.add(reason);
					case NOTE -> notes.add(reason);
					case INTERRUPTED -> throw new IllegalStateException(rule + ": only the person interrupts a run");
				}
			});
		}
	}

	/**
	 * What made the measurement untrustworthy: the injector, the downstream, no warm-up, missing data (the JIT's state
	 * is judged apart: {@link Warmth}). A harness
	 * symptom whose effect on the figures can be bounded below {@link Thresholds#harnessEffectPercent} goes to
	 * {@code notes} with its bound instead.
	 */
	private List<String> harnessProblems(Measurement m, Set<String> notes, List<String> figureReasons) {
		LevelFacts facts = m.facts();
		LoadWindow window = m.window();
		List<String> invalid = new ArrayList<>();
		if (facts.injectorExitCode() == -1) {
			invalid.add("the injector did not finish in time and was stopped");
		}
		else if (facts.injectorExitCode() == GATLING_ASSERTIONS_FAILED && window != null) {
			// Gatling's own judgment of the latency target over all its requests, ramp included: the harness worked.
			notes.add(LevelResult.GATLING_ASSERTIONS_NOTE);
		}
		else if (facts.injectorExitCode() != 0) {
			invalid.add("the injector exited with code " + facts.injectorExitCode());
		}
		if (window == null) {
			invalid.add("no load window: the injector did not finish this level");
		}
		else {
			// The declared rules comparing one figure with a threshold (the injector cores' load among them).
			invalid.addAll(figureReasons);
			invalid.addAll(new DownstreamLateness(this.thresholds).judge(m, notes));
			if (m.stall().rows() == 0) {
				invalid.add("the stall check could not be computed (the injector wrote no completions in the window)");
			}
		}
		if (!facts.warmedUp() && !facts.startedCold()) {
			invalid.add("no warm-up: a cold JVM runs at a fraction of its speed");
		}
		return invalid;
	}

	/** The name of a service the runner did not start, from its {@code remote.txt} beside the level (or a repeat's). */
	private static java.util.Optional<String> remoteName(Path level) {
		for (Path dir = level.getParent(); dir != null && dir != level.getRoot(); dir = dir.getParent()) {
			Path note = dir.resolve(ServiceDir.REMOTE);
			if (Files.isRegularFile(note)) {
				try {
					return java.util.Optional.of(Files.readAllLines(note).get(0).split(" ")[0]);
				}
				catch (IOException | RuntimeException ex) {
					return java.util.Optional.of(dir.getFileName().toString());
				}
			}
			if (Files.exists(dir.resolve(RunDir.MANIFEST))) {
				break;
			}
		}
		return java.util.Optional.empty();
	}

	/** What broke in the service: it died, ran out of memory, stalled, refused, or failed too many requests. */
	private List<String> serviceProblems(Measurement m, List<String> figureReasons) {
		LevelFacts facts = m.facts();
		List<String> failed = new ArrayList<>();
		// The cause first: a service that ran out of memory and then died died of it.
		if (facts.outOfMemory()) {
			failed.add("OutOfMemoryError in the service log");
		}
		if (!facts.serviceAlive()) {
			// A service the runner did not start is known only by its health check; its log is on its own host.
			java.util.Optional<String> remote = remoteName(m.dir());
			failed.add(remote.isPresent() ? "the service stopped answering its health check (not started by the lab, its log is on its own host; "
					+ "in Compose: docker compose logs " + remote.get() + ")"
					: "the service died" + ((facts.exitCode() != null) ? " (exit code " + facts.exitCode() + ")" : ""));
		}
		if (m.window() == null) {
			return failed;
		}
		RequestCounts counts = m.counts();
		// The declared rules comparing one figure with a threshold (refused connections, errors, ...), after the cause.
		failed.addAll(figureReasons);
		Stall stall = m.stall();
		if (stall.seconds() >= this.thresholds.stallSeconds(facts.delayMs())) {
			failed.add("stalled " + stall.seconds() + " s" + LoadWindow.at(m.window(), stall.fromEpochMs()) + ": no response while users waited");
		}
		if (counts.total() > 0 && counts.ok() == 0) {
			failed.add("no request succeeded in the window");
		}
		else if (counts.total() == 0) {
			failed.add("no request was sent in the window");
		}
		return failed;
	}

	/** Gatling's exit code when an assertion failed (its {@code StatusCode.AssertionsFailed}). */
	static final int GATLING_ASSERTIONS_FAILED = 2;

}
