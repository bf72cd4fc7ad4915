package lab.analyse;

import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.layout.LatencyTarget;
import lab.layout.Level;
import lab.report.Summaries;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A level's line says whether it met the latency target and by what it missed; Gatling's assertions only where they disagree. */
class TargetTextTests {

	private static final LatencyTarget TARGET = LatencyTarget.DEFAULT;

	private static LevelResult row(double p99, double errors, double requests, LevelResult.Verdict verdict, String... reasons) {
		return TestRows.row("app-webflux", new Level.Closed(2_000))
			.set(Figures.P99_ALL_MS, p99, Figures.ERRORS_5XX, errors, Figures.REQUESTS, requests, Figures.ERROR_PERCENT, 100 * errors / requests,
				Figures.RPS, 3_000)
			.verdict(verdict, reasons).build();
	}

	@Test
	void theLineSaysTheTargetWasMetOrByWhatItWasMissed() {
		LevelResult missed = row(1_034, 0, 60_000, LevelResult.Verdict.OK).withTarget(TARGET);
		assertThat(missed.targetText(TARGET)).isEqualTo("target missed: p99 1,034 > 1,000 ms");
		assertThat(Summaries.line(missed, TARGET)).endsWith("  OK, target missed: p99 1,034 > 1,000 ms");
		LevelResult errors = row(800, 120, 60_000, LevelResult.Verdict.OK).withTarget(TARGET);
		assertThat(errors.targetText(TARGET)).isEqualTo("target missed: errors 0.20% > 0.1%");
		LevelResult met = row(640, 0, 60_000, LevelResult.Verdict.OK).withTarget(TARGET);
		assertThat(Summaries.line(met, TARGET)).endsWith("  OK, target met");
		// A FAILED level meets nothing and says so by its verdict alone.
		LevelResult failed = row(640, 0, 60_000, LevelResult.Verdict.FAILED, "OutOfMemoryError").withTarget(TARGET);
		assertThat(Summaries.line(failed, TARGET)).endsWith("  FAILED: OutOfMemoryError");
	}

	@Test
	void gatlingsAssertionsAreANoteOnlyWhereTheyDisagreeWithTheWindow() {
		LevelResult agrees = row(1_034, 0, 60_000, LevelResult.Verdict.OK, LevelResult.GATLING_ASSERTIONS_NOTE).withTarget(TARGET);
		assertThat(agrees.reasons()).isEmpty();
		LevelResult disagrees = row(900, 0, 60_000, LevelResult.Verdict.OK, LevelResult.GATLING_ASSERTIONS_NOTE).withTarget(TARGET);
		assertThat(disagrees.reasons()).containsExactly(LevelResult.GATLING_ASSERTIONS_NOTE);
		assertThat(Summaries.line(disagrees, TARGET)).contains("OK, target met: Gatling's assertions");
	}

}
