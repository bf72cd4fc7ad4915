package lab.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import lab.analyse.RunAnalysis;
import lab.analyse.search.TuneSummary;
import lab.layout.LatencyTarget;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The run's exit code: a settings search that named no best is not an answer a script may take for one. */
class GateTests {

	private static RunAnalysis tuned(TuneSummary tune) {
		return new RunAnalysis(null, null, null, null, List.of(), List.of(), List.of(), Map.of(), List.of(), null, tune);
	}

	@Test
	void aSettingsSearchWithNoBestExitsFiveAndSaysSo() {
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		TuneSummary none = new TuneSummary(LatencyTarget.parse("p99<=300ms,errors<=0.1%"), "", List.of(), List.of(), false, Map.of("a", "INVALID twice at 25, never a bound"));
		int exit = Gate.of(null, tuned(none), new PrintStream(console, true, StandardCharsets.UTF_8));
		assertThat(exit).isEqualTo(Gate.NO_ANSWER_EXIT_CODE).isEqualTo(5);
		assertThat(console.toString(StandardCharsets.UTF_8)).contains("the settings search named no best (exit code 5)");
		assertThat(Gate.of(null, null, new PrintStream(new ByteArrayOutputStream()))).as("no analysis: nothing to gate").isZero();
	}

	@Test
	void aStudyOfGroupsWithAGroupWithoutABestExitsFiveNamingTheGroup() {
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		Map<String, String> bests = new java.util.LinkedHashMap<>();
		bests.put("tomcat-loom", "set-tomcat-loom-20");
		bests.put("webflux-r2dbc", "");
		TuneSummary partial = new TuneSummary(LatencyTarget.parse("p99<=100ms,errors<=0.1%"), "", List.of(), List.of(), false, Map.of(), bests, Map.of());
		assertThat(Gate.of(null, tuned(partial), new PrintStream(console, true, StandardCharsets.UTF_8))).isEqualTo(Gate.NO_ANSWER_EXIT_CODE);
		assertThat(console.toString(StandardCharsets.UTF_8)).contains("the settings search named no best for webflux-r2dbc (exit code 5)");
		bests.put("webflux-r2dbc", "set-webflux-r2dbc-20");
		TuneSummary every = new TuneSummary(LatencyTarget.parse("p99<=100ms,errors<=0.1%"), "", List.of(), List.of(), false, Map.of(), bests, Map.of());
		assertThat(every.named()).isTrue();
	}

}
