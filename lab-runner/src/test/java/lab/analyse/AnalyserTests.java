package lab.analyse;

import java.nio.file.Path;
import java.util.List;

import lab.analyse.LevelResult.Verdict;
import lab.plan.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The analysis against {@link GoldenFixtures}: each expected number is the hand arithmetic written there. */
class AnalyserTests {

	@TempDir
	Path results;

	List<LevelResult> analyse() throws Exception {
		return new Analyser(Thresholds.DEFAULT).analyse(GoldenFixtures.write(this.results), Variant.names());
	}

	@Test
	void anOkLevelMatchesTheHandArithmetic() throws Exception {
		LevelResult ok = analyse().stream().filter(r -> r.variant().equals("app-webflux") && r.users() == 100).findFirst().orElseThrow();
		assertThat(ok.rps()).isEqualTo(190.0);
		assertThat(ok.ceilingRps()).isEqualTo(200.0);
		assertThat(ok.efficiency()).isEqualTo(0.95);
		assertThat(ok.p50Ms()).isCloseTo(510, within(0.5));
		assertThat(ok.p95Ms()).isCloseTo(900, within(0.5));
		assertThat(ok.p99Ms()).isCloseTo(900, within(0.5));
		assertThat(ok.maxMs()).isCloseTo(900, within(0.5));
		assertThat(ok.requests()).isEqualTo(1921);
		assertThat(ok.errors5xx()).isEqualTo(20);
		assertThat(ok.timeouts()).isEqualTo(1);
		assertThat(ok.errorPercent()).isCloseTo(100.0 * 21 / 1921, within(1e-9));
		assertThat(ok.serviceCpuPercent()).isCloseTo(50.0, within(1e-9));
		assertThat(ok.cpuMsPerRequest()).isCloseTo(500 / 192.1, within(1e-9));
		assertThat(ok.gcPercent()).isCloseTo(5.0, within(1e-9));
		assertThat(ok.peakHeapMiB()).isEqualTo(100.0);
		assertThat(ok.peakRssMiB()).isEqualTo(200.0);
		assertThat(ok.peakNativeThreads()).isEqualTo(30.0);
		assertThat(ok.peakVirtualThreads()).isEqualTo(150.0);
		assertThat(ok.pinnedEvents()).isEqualTo(3.0);
		assertThat(ok.contextSwitchesPerSecond()).isCloseTo(220.0, within(1e-9));
		assertThat(ok.injectorCpuPercent()).isCloseTo(20.0, within(1e-9));
		assertThat(ok.injectorCoresBusyPercent()).isCloseTo(50.0, within(1e-9));
		assertThat(ok.downstreamP99OverheadMs()).isCloseTo(9.95, within(1e-6));
		assertThat(ok.verdict()).isEqualTo(Verdict.OK);
		assertThat(ok.reasons()).isEmpty();
	}

	@Test
	void aSlowDownstreamMakesTheLevelInvalid() throws Exception {
		LevelResult invalid = analyse().stream().filter(r -> r.users() == 200).findFirst().orElseThrow();
		assertThat(invalid.downstreamP99OverheadMs()).isCloseTo(89.6, within(1e-6));
		assertThat(invalid.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(invalid.reasons()).containsExactly("downstream p99 90 ms over its delay > 50 ms");
	}

	@Test
	void aDeadServiceFailsTheLevelAndNamesTheEvidence() throws Exception {
		LevelResult failed = analyse().stream().filter(r -> r.variant().equals("app-tomcat-loom")).findFirst().orElseThrow();
		assertThat(failed.verdict()).isEqualTo(Verdict.FAILED);
		assertThat(failed.reasons()).containsExactly("the service died (exit code 137)", "OutOfMemoryError in the service log");
		assertThat(failed.evidence()).containsExactly("app-tomcat-loom/service.log");
	}

	@Test
	void rowsComeInVariantOrderThenLoad() throws Exception {
		assertThat(analyse()).extracting(r -> r.variant() + "/" + r.load())
			.containsExactly("app-tomcat-loom/100", "app-webflux/100", "app-webflux/200");
	}

	@Test
	void countersAreResetAwareAndRatesUseTheRealInterval() {
		TimeSeries series = new TimeSeries(List.of(new TimeSeries.Sample(0, 5), new TimeSeries.Sample(3000, 8),
				new TimeSeries.Sample(4000, 2), new TimeSeries.Sample(6000, 4)));
		// 5 → 8 (+3), reset to 2 (+2), → 4 (+2) = 7 over 6 s, not 3 intervals of an assumed second
		assertThat(CounterDelta.over(series)).isEqualTo(7.0);
		assertThat(CounterDelta.ratePerSecond(series)).isCloseTo(7.0 / 6, within(1e-12));
		assertThat(CounterDelta.over(new TimeSeries(List.of(new TimeSeries.Sample(0, 5))))).isNaN();
	}

	@Test
	void repeatsTakeTheMedianRateAndMergeHistograms() throws Exception {
		Analyser analyser = new Analyser(Thresholds.DEFAULT);
		GoldenFixtures.write(this.results);
		Measurement one = Measurement.of(this.results.resolve("app-webflux/users-100"), this.results);
		LevelResult twice = analyser.combine(List.of(one, one));
		assertThat(twice.rps()).isEqualTo(190.0);
		assertThat(twice.requests()).isEqualTo(2 * 1921);
		assertThat(twice.p50Ms()).isCloseTo(510, within(0.5));
		assertThat(twice.repeats()).isEqualTo(2);
	}

}
