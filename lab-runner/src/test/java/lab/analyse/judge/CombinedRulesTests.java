package lab.analyse.judge;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import lab.analyse.GoldenFixtures;
import lab.analyse.measure.Measurement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules that combine figures, each a class of its own, judged on the golden fixture's levels directly. */
class CombinedRulesTests {

	@TempDir
	Path results;

	private Measurement level(String dir) throws Exception {
		GoldenFixtures.write(this.results);
		return Measurement.of(this.results.resolve(dir), this.results);
	}

	@Test
	void aLateDownstreamIsANoteWhileItsEffectIsBoundedAndInvalidPastTheBound() throws Exception {
		// Probes 90 ms late (p99) > 50 ms; 90 ms is 10% of the service's p99 of 900 ms: not over 10%, a note.
		Measurement late = level("app-webflux/users-200");
		Set<String> notes = new LinkedHashSet<>();
		assertThat(new DownstreamLateness(Thresholds.DEFAULT).judge(late, notes)).isEmpty();
		assertThat(notes).containsExactly("downstream p99 90 ms late: at most 10% of the service's p99 (900 ms) and 1% of its throughput");
		// With a 5% bound on the harness's effect the same lateness could have moved the p99 too much: INVALID.
		Set<String> none = new LinkedHashSet<>();
		List<String> invalid = new DownstreamLateness(Thresholds.DEFAULT.with(Rule.HARNESS_EFFECT, 5)).judge(late, none);
		assertThat(invalid).containsExactly("downstream p99 90 ms late > 50 ms (probed end to end), 10% of the service's p99 > 5%");
		assertThat(none).isEmpty();
	}

	@Test
	void aDownstreamOnTimeSaysNothing() throws Exception {
		Set<String> notes = new LinkedHashSet<>();
		assertThat(new DownstreamLateness(Thresholds.DEFAULT).judge(level("app-webflux/users-100"), notes)).isEmpty();
		assertThat(notes).isEmpty();
	}

	@Test
	void warmthReadsTheJitsShareAgainstItsThreshold() throws Exception {
		// The golden OK level's JIT: 2% of the window.
		Measurement ok = level("app-webflux/users-100");
		Set<String> notes = new LinkedHashSet<>();
		assertThat(new Warmth(Thresholds.DEFAULT).judge(ok, notes)).isEmpty();
		List<String> cold = new Warmth(Thresholds.DEFAULT.with(Rule.NOT_WARM_JIT, 1)).judge(ok, new LinkedHashSet<>());
		assertThat(cold).singleElement().asString().startsWith("not warm: the JIT was busy 0.2 s of the 10 s window (2% > 1%: 2.0 times the bound)");
	}

}
