package lab.analyse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.judge.Rule;
import lab.analyse.judge.Thresholds;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.analyse.read.CounterDelta;
import lab.analyse.read.TimeSeries;
import lab.layout.Level;
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

	/** The golden fixture's app-webflux level after {@code edit} rewrote one of its files, measured alone. */
	private Measurement edited(String level, String file, UnaryOperator<String> edit) throws Exception {
		return edited("app-webflux/" + level, file, edit, true);
	}

	private Measurement edited(String levelDir, String file, UnaryOperator<String> edit, boolean fresh) throws Exception {
		if (fresh) {
			GoldenFixtures.write(this.results);
		}
		Path dir = this.results.resolve(levelDir);
		Files.writeString(dir.resolve(file), edit.apply(Files.readString(dir.resolve(file))));
		return Measurement.of(dir, this.results);
	}

	private static LevelResult judged(Measurement measurement) {
		return new Analyser(Thresholds.DEFAULT).analyseOne(measurement);
	}

	@Test
	void anOkLevelMatchesTheHandArithmetic() throws Exception {
		LevelResult ok = analyse().stream().filter(r -> r.variant().equals("app-webflux") && r.level().equals(new Level.Closed(100))).findFirst().orElseThrow();
		assertThat(ok.rps()).isEqualTo(190.0);
		assertThat(ok.ceilingRps()).isEqualTo(200.0);
		assertThat(ok.efficiency()).isEqualTo(0.95);
		assertThat(ok.value(lab.analyse.judge.Figures.P50_OK_MS)).isCloseTo(510, within(0.5));
		assertThat(ok.value(lab.analyse.judge.Figures.P95_OK_MS)).isCloseTo(900, within(0.5));
		assertThat(ok.p99OkMs()).isCloseTo(900, within(0.5));
		assertThat(ok.value(lab.analyse.judge.Figures.MAX_OK_MS)).isCloseTo(900, within(0.5));
		assertThat(ok.p50AllMs()).isCloseTo(510, within(0.5));
		assertThat(ok.value(lab.analyse.judge.Figures.P95_ALL_MS)).isCloseTo(900, within(0.5));
		assertThat(ok.p99AllMs()).isCloseTo(900, within(0.5));
		assertThat(ok.value(lab.analyse.judge.Figures.MAX_ALL_MS)).isCloseTo(30_000, within(20.0));
		assertThat(ok.requests()).as("sent in the window, the late timeout included").isEqualTo(1923);
		assertThat(ok.value(lab.analyse.judge.Figures.ERRORS_5XX)).isEqualTo(20);
		assertThat(ok.value(lab.analyse.judge.Figures.TIMEOUTS)).as("attributed to its send second, written 30 s later").isEqualTo(1);
		assertThat(ok.value(lab.analyse.judge.Figures.UNANSWERED)).isEqualTo(2);
		assertThat(ok.errorPercent()).isCloseTo(100.0 * 23 / 1923, within(1e-9));
		assertThat(ok.value(lab.analyse.judge.Figures.LONGEST_STALL_SECONDS)).isZero();
		assertThat(ok.serviceCpuPercent()).isCloseTo(50.0, within(1e-9));
		assertThat(ok.cpuMsPerRequest()).isCloseTo(500 / 192.3, within(1e-9));
		assertThat(ok.metric(Metric.GC_PERCENT)).isCloseTo(5.0, within(1e-9));
		assertThat(ok.metric(Metric.PEAK_HEAP_MIB)).isEqualTo(100.0);
		assertThat(ok.metric(Metric.PEAK_RSS_MIB)).isEqualTo(200.0);
		assertThat(ok.metric(Metric.PEAK_NATIVE_THREADS)).isEqualTo(30.0);
		assertThat(ok.metric(Metric.PEAK_VIRTUAL_THREADS)).isEqualTo(150.0);
		assertThat(ok.metric(Metric.PINNED_EVENTS)).isEqualTo(3.0);
		assertThat(ok.metric(Metric.CONTEXT_SWITCHES_PER_SECOND)).isCloseTo(220.0, within(1e-9));
		assertThat(ok.injectorCpuPercent()).isCloseTo(20.0, within(1e-9));
		assertThat(ok.injectorCoresBusyPercent()).isCloseTo(50.0, within(1e-9));
		assertThat(ok.value(lab.analyse.judge.Figures.DOWNSTREAM_OWN_P99_OVERHEAD_MS)).isCloseTo(9.95, within(1e-6));
		assertThat(ok.downstreamP99LateMs()).isCloseTo(5.0, within(1e-9));
		assertThat(ok.verdict()).isEqualTo(Verdict.OK);
		assertThat(ok.reasons()).isEmpty();
	}

	@Test
	void aLateDownstreamThatCouldNotHaveMovedTheFiguresIsANoteWithItsBound() throws Exception {
		LevelResult late = analyse().stream().filter(r -> r.level().equals(new Level.Closed(200))).findFirst().orElseThrow();
		assertThat(late.value(lab.analyse.judge.Figures.DOWNSTREAM_OWN_P99_OVERHEAD_MS)).isCloseTo(89.6, within(1e-6));
		assertThat(late.downstreamP99LateMs()).isCloseTo(90.0, within(1e-9));
		// p99 90 ms late > 50 ms, but: 90 / the service's p99 900 ms = 10 % (not over 10 %); mean lateness
		// (98 × 5 + 2 × 90) / 100 = 6.7 ms of a closed loop's 500 + 6.7 ms = 1.3 % of the throughput at most.
		assertThat(late.verdict()).isEqualTo(Verdict.OK);
		assertThat(late.reasons()).containsExactly("downstream p99 90 ms late: at most 10% of the service's p99 (900 ms) and 1% of its throughput",
				"efficiency 48% < 50% of the ceiling");
	}

	@Test
	void aLateDownstreamThatCouldHaveMovedTheServicesP99MakesTheLevelInvalid() throws Exception {
		// The 2 late probes 200 ms late: p99 200 ms = 22 % of the service's 900 ms p99 > 10 %.
		LevelResult result = judged(edited("users-200", "probe.csv", text -> text.replace(",590.0,", ",700.0,")));
		assertThat(result.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(result.reasons()).containsExactly("downstream p99 200 ms late > 50 ms (probed end to end), 22% of the service's p99 > 10%");
	}

	@Test
	void aLateDownstreamCouldHaveMovedAClosedLoopsThroughputWhenTheServiceWasNotTheLimit() throws Exception {
		// Every probe 60 ms late: p99 60 ms = 7 % of the 900 ms p99, but a mean of 60 ms in a 500 ms loop takes up to
		// 60 / 560 = 11 % of the throughput (> 10 %), and the service's core was 50 % busy: not its own limit.
		LevelResult result = judged(edited("users-200", "probe.csv", text -> text.replaceAll(",(505|590)\\.0,", ",560.0,")));
		assertThat(result.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(result.reasons()).containsExactly(
				"downstream p99 60 ms late > 50 ms (probed end to end), mean 60 ms late could take 11% of the throughput > 10%");
	}

	@Test
	void aLevelWhileTheJitStillCompiledIsNotWarm() throws Exception {
		// The JIT's threads used 1.0 → 3.0 s of CPU in the 10 s window: 20 % > 10 %.
		LevelResult result = judged(edited("users-100", "metrics.csv", text -> text.replace("jit_cpu_seconds,1.2", "jit_cpu_seconds,3.0")));
		assertThat(result.metric(Metric.JIT_PERCENT)).isCloseTo(20.0, within(1e-9));
		assertThat(result.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(result.reasons()).containsExactly("not warm: the JIT was busy 2.0 s of the 10 s window (20% > 10%: 2.0 times the bound); give the warm-up longer: --warmup-max-seconds (or warmupMaxSeconds in the scenario or service file)");
	}

	@Test
	void withoutTheCompilerThreadsCpuTheJitsOwnCounterJudges() throws Exception {
		// A service the runner did not start: no /proc series, the compile counter's 10 s in 10 s = 100 %.
		LevelResult result = judged(edited("users-100", "metrics.csv", text -> text.replaceAll("(?m)^.*jit_cpu_seconds.*\\n", "")));
		assertThat(result.metric(Metric.JIT_PERCENT)).isCloseTo(100.0, within(1e-9));
		assertThat(result.reasons()).containsExactly("not warm: the JIT was busy 10.0 s of the 10 s window (100% > 10%: 10.0 times the bound); give the warm-up longer: --warmup-max-seconds (or warmupMaxSeconds in the scenario or service file)");
	}

	@Test
	void aDatabaseThatFilledTheInjectorsCoreIsItsOwnFigureAndTheLevelValidWithTheDatabaseNamed() throws Exception {
		// A recorded level's shape (the public REST sample): PostgreSQL beside the injector (placement harness) took 82% of
		// the harness core, which was 98% busy in all (+2,000 → +12,000: 100 → 109.8 s busy of 1,000 → 1,010 s); the injector
		// used 20% (5 → 7 s) and its threads waited 0.05 ms per wake-up (0.05 s over 1,000 time slices). Before, that read
		// "injector cores 98% busy > 90%": INVALID for the database's work.
		long a = GoldenFixtures.STEADY;
		String pg = String.join("\n", List.of(
				a + ",postgres,pg_active_backends,9", (a + 5000) + ",postgres,pg_active_backends,10", (a + 10000) + ",postgres,pg_active_backends,9",
				a + ",postgres,proc_cpu_seconds,40", (a + 10000) + ",postgres,proc_cpu_seconds,48.2",
				a + ",postgres,cores_busy_seconds,100", (a + 10000) + ",postgres,cores_busy_seconds,109.8",
				a + ",postgres,cores_total_seconds,1000", (a + 10000) + ",postgres,cores_total_seconds,1010",
				a + ",postgres,placed_service,0", (a + 10000) + ",postgres,placed_service,0",
				a + ",postgres,placed_harness,1", (a + 10000) + ",postgres,placed_harness,1",
				a + ",injector,run_queue_wait_seconds,1.0", (a + 10000) + ",injector,run_queue_wait_seconds,1.05",
				a + ",injector,sched_slices,5000", (a + 10000) + ",injector,sched_slices,6000")) + "\n";
		Measurement m = edited("users-100", "metrics.csv", text -> text.replace((a + 10000) + ",host,cpu_busy_seconds,105.0", (a + 10000) + ",host,cpu_busy_seconds,109.8")
			+ pg);
		assertThat(m.database().cpuPercent()).isCloseTo(82, within(1e-6));
		assertThat(m.database().onHarnessCores()).isTrue();
		// The harness core's 98%, less the database's 82% on its one core: 16% for the injector, the runner and the kernel.
		assertThat(m.injectorCoresBusyPercent()).isCloseTo(16, within(1e-6));
		assertThat(m.injectorWait().waitMsPerSlice()).isCloseTo(0.05, within(1e-9));
		LevelResult result = judged(m);
		assertThat(result.value(lab.analyse.judge.Figures.PG_CPU_PERCENT)).isCloseTo(82, within(1e-6));
		assertThat(result.value(lab.analyse.judge.Figures.PG_CORES_BUSY_PERCENT)).isCloseTo(98, within(1e-6));
		assertThat(result.verdict()).as(String.join("; ", result.reasons())).isEqualTo(Verdict.OK);
		assertThat(result.reasons()).noneMatch(reason -> reason.contains("injector"));
		// The database's CPU per request is its own column of the harness table; the harness's is what remains.
		assertThat(result.headroom().databaseMsPerRequest()).isCloseTo(0.82 * 1000 / 192.3, within(1e-9));
		assertThat(result.headroom().harnessMsPerRequest()).isCloseTo(0.16 * 1000 / 192.3, within(1e-9));
		assertThat(lab.analyse.judge.Limit.of(result)).isEqualTo("the database (its core 98% busy, PostgreSQL 82% of it, beside the injector)");
		// The injector's clock: two waits of 0.05 ms against a p50 of 510 ms, 0.02%; at a wait of 30 ms per wake-up, 11.8% > 10%: INVALID.
		Measurement slow = edited("users-100", "metrics.csv", text -> text + pg.replace((a + 10000) + ",injector,run_queue_wait_seconds,1.05",
				(a + 10000) + ",injector,run_queue_wait_seconds,31.0"));
		LevelResult late = judged(slow);
		assertThat(late.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(late.reasons()).anyMatch(reason -> reason.startsWith("the injector's own wait for the CPU could have added 11.8% to the p50 > 10%"));
	}

	@Test
	void warmthThatCannotBeComputedIsInvalidNeverOk() throws Exception {
		GoldenFixtures.write(this.results);
		Path level = this.results.resolve("app-webflux/users-100");
		// No JIT series (a run older than them) and a 4 s window: halves of 2 s, under the 3 s each needs.
		Files.writeString(level.resolve("metrics.csv"), Files.readString(level.resolve("metrics.csv")).replaceAll("(?m)^.*jit_.*\\n", ""));
		Files.writeString(level.resolve("load-window.csv"), "start_epoch_ms,steady_start_epoch_ms,end_epoch_ms\n" + GoldenFixtures.START + ","
				+ GoldenFixtures.STEADY + "," + (GoldenFixtures.STEADY + 4_000) + "\n");
		LevelResult result = judged(Measurement.of(level, this.results));
		assertThat(result.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(result.reasons()).contains(
				"whether the service was warm could not be computed (no JIT samples, and the window too short to compare its halves)");
	}

	@Test
	void aWindowWhoseFirstHalfWasDearerPerRequestIsNotSteadyOrNotWarmWithoutTheJitsSeries() throws Exception {
		// The service's CPU at +6,000 is 13.5 instead of 12: the first half 10 → 13.5 s over 4 s = 0.875, less GC 0.05 =
		// 0.825 s/s over 192.6 req/s = 4.283 ms; the second half as before 2.344 ms: +83 % > 25 %.
		String at = (GoldenFixtures.STEADY + 4000) + ",service,proc_cpu_seconds,";
		Measurement m = edited("users-100", "metrics.csv", text -> text.replace(at + "12.0", at + "13.5"));
		assertThat(m.halves().firstCpuMsPerRequest()).isCloseTo(825 / 192.6, within(1e-9));
		assertThat(m.halves().secondCpuMsPerRequest()).isCloseTo(450 / 192.0, within(1e-9));
		LevelResult result = judged(m);
		// The fixture's JIT compiled 0.2 s of the 10 s window (2% <= 10%): settled, so not the JIT; named, not judged.
		assertThat(result.verdict()).isEqualTo(Verdict.OK);
		assertThat(result.reasons()).containsExactly("not steady: the window's first half cost 4.283 ms mutator CPU per request, its second 2.344 "
				+ "(+83% > 25%); not the JIT (busy 2.0% of the window <= 10%): the window's CPU per request is the mean of its halves");
		// A run older than the JIT's series has only the halves to judge warmth by: INVALID.
		Measurement old = edited("users-100", "metrics.csv", text -> text.replace(at + "12.0", at + "13.5").replaceAll("(?m)^.*jit_.*\\n", ""));
		LevelResult oldResult = judged(old);
		assertThat(oldResult.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(oldResult.reasons()).containsExactly("not warm: the window's first half cost 4.283 ms mutator CPU per request, its second 2.344 (+83% > 25%); give the warm-up longer: --warmup-max-seconds (or warmupMaxSeconds in the scenario or service file)",
				"the JIT was not sampled (a run older than its series): warmth judged by the window's halves only");
	}

	@Test
	void aDearerFirstHalfUnderAFewPercentOfACoreIsANoteNotAVerdict() throws Exception {
		// A light load: the service's CPU 0.09 s/s in the first half and 0.08 in the second, less GC 0.05 each: 0.04
		// and 0.03 s/s over 192.6 and 192 req/s = 0.208 and 0.156 ms per request, +33 % > 25 %, but the difference
		// is (0.208 - 0.156) ms × 192.6 req/s = 1.0 % of one core: what fixed per-second costs move.
		Measurement m = edited("users-100", "metrics.csv", text -> text
			.replace((GoldenFixtures.STEADY + 2000) + ",service,proc_cpu_seconds,11.0", (GoldenFixtures.STEADY + 2000) + ",service,proc_cpu_seconds,10.18")
			.replace((GoldenFixtures.STEADY + 4000) + ",service,proc_cpu_seconds,12.0", (GoldenFixtures.STEADY + 4000) + ",service,proc_cpu_seconds,10.36")
			.replace((GoldenFixtures.STEADY + 8000) + ",service,proc_cpu_seconds,14.0", (GoldenFixtures.STEADY + 8000) + ",service,proc_cpu_seconds,11.0")
			.replace((GoldenFixtures.STEADY + 10000) + ",service,proc_cpu_seconds,15.0", (GoldenFixtures.STEADY + 10000) + ",service,proc_cpu_seconds,11.16"));
		assertThat(m.halves().firstHalfExtraCorePercent()).isCloseTo(100 * (40 / 192.6 - 30 / 192.0) * 192.6 / 1000, within(1e-9));
		LevelResult result = judged(m);
		assertThat(result.verdict()).isEqualTo(Verdict.OK);
		assertThat(result.reasons()).containsExactly("the window's first half cost 0.208 ms mutator CPU per request, its second 0.156 (+33% > 25%), "
				+ "but the difference was 1.0% of one core (<= 5%: what fixed per-second costs move)");
	}

	@Test
	void aServiceThatAnswersNothingForTwiceTheDelayStalled() throws Exception {
		LevelResult stalled = analyse().stream().filter(r -> r.variant().equals("app-tomcat-platform")).findFirst().orElseThrow();
		assertThat(stalled.value(lab.analyse.judge.Figures.LONGEST_STALL_SECONDS)).isEqualTo(3.0);
		assertThat(stalled.verdict()).isEqualTo(Verdict.FAILED);
		assertThat(stalled.reasons()).containsExactly("stalled 3 s at +4 s: no response while users waited");
	}

	@Test
	void aColdStartsSilenceBeforeItsFirstAnswerIsItsStartNotAStall() throws Exception {
		// app-webflux's window opens at +2,500: the rows stamped +3,000 to +5,000 answer nothing, then every second does.
		UnaryOperator<String> silentFirstSeconds = text -> text.lines().map(line -> line.matches(GoldenFixtures.START + 3000 + ",192,0|"
				+ (GoldenFixtures.START + 4000) + ",192,0|" + (GoldenFixtures.START + 5000) + ",192,0") ? line.replace(",192,", ",0,") : line)
			.collect(java.util.stream.Collectors.joining("\n", "", "\n"));
		LevelResult warm = judged(edited("app-webflux/users-100", "completions.csv", silentFirstSeconds, true));
		assertThat(warm.verdict()).isEqualTo(Verdict.FAILED);
		assertThat(warm.reasons()).contains("stalled 3 s at +2 s: no response while users waited");
		// The same seconds in a start scenario's level: the time to first answer, which the start table reports.
		edited("app-webflux/users-100", "completions.csv", silentFirstSeconds, true);
		LevelResult cold = judged(edited("app-webflux/users-100", "level.json", text -> text.replace("\"warmedUp\":true", "\"warmedUp\":false,\"coldStart\":true"), false));
		assertThat(cold.value(Figures.LONGEST_STALL_SECONDS)).isZero();
		assertThat(cold.verdict()).isNotEqualTo(Verdict.FAILED);
		assertThat(cold.reasons()).noneMatch(reason -> reason.contains("stalled"));
		// A cold start that stops answering after it began is judged like any level.
		LevelResult later = judged(edited("app-tomcat-platform/users-100", "level.json", text -> text.replace("\"warmedUp\":true", "\"warmedUp\":false,\"coldStart\":true"), true));
		assertThat(later.verdict()).isEqualTo(Verdict.FAILED);
		assertThat(later.reasons()).contains("stalled 3 s at +4 s: no response while users waited");
	}

	@Test
	void aServiceThatFailedWhileTheJitStillCompiledFailedWarmOrNot() throws Exception {
		// The stalled level with its JIT busy 2.0 s of the 10 s window: a compiling JIT slows a service, it does not
		// stop it answering for 3 s, so the stall is judged and the JIT named.
		LevelResult result = judged(edited("app-tomcat-platform/users-100", "metrics.csv",
				text -> text.replace("jit_cpu_seconds,1.2", "jit_cpu_seconds,3.0"), true));
		assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
		assertThat(result.reasons()).containsExactly("stalled 3 s at +4 s: no response while users waited",
				"not warm: the JIT was busy 2.0 s of the 10 s window (20% > 10%: 2.0 times the bound); give the warm-up longer: --warmup-max-seconds (or warmupMaxSeconds in the scenario or service file) (named, not judged: a JIT still compiling slows a service, it does not stop it answering)");
	}

	@Test
	void aCheckThatCannotBeComputedIsInvalidNeverOk() throws Exception {
		LevelResult blind = analyse().stream().filter(r -> r.variant().equals("app-webflux-loom")).findFirst().orElseThrow();
		assertThat(blind.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(blind.reasons()).containsExactly("the injector cores' load could not be computed (no CPU samples)",
				"the downstream's lateness could not be computed (no probe in the window)");
	}

	@Test
	void theHarnessIsJudgedBeforeTheService() throws Exception {
		GoldenFixtures.write(this.results);
		// The 1.2 % of errors stays under the threshold; make it 100 % of 5xx, then kill the downstream.
		Path level = this.results.resolve("app-webflux/users-100");
		Files.writeString(level.resolve("requests.csv"), Files.readString(level.resolve("requests.csv")).replace(",190,0,2,", ",0,0,192,"));
		downstreamDied(level);
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.verdict()).isEqualTo(Verdict.INVALID);
		assertThat(result.reasons()).containsExactly("the downstream died (exit code 137)",
				"the service's symptoms, not judged: errors 100.0% > 5% (1 timed out, 2 unanswered), no request succeeded in the window");
	}

	@Test
	void anOkLevelShowsWhatItFoundOnItsWayButNotItsLogs() throws Exception {
		// A level OK as measured, whose runner wrote pool.md and off-cpu.md beside the service's logs.
		Path level = GoldenFixtures.write(this.results).resolve("app-webflux/users-100");
		Files.writeString(level.resolve("level.json"), Files.readString(level.resolve("level.json")).replace("\"evidence\":[]",
				"\"evidence\":[\"app-webflux/service.log\",\"app-webflux/users-100/off-cpu.md\",\"app-webflux/users-100/pool.md\"]"));
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.verdict()).isEqualTo(Verdict.OK);
		assertThat(result.evidence()).containsExactly("app-webflux/users-100/off-cpu.md", "app-webflux/users-100/pool.md");
	}

	@Test
	void aLevelCappedByTheDescriptorLimitIsJudgedAtTheUsersItRan() throws Exception {
		Path level = GoldenFixtures.write(this.results).resolve("app-webflux/users-100");
		Files.writeString(level.resolve("level.json"), Files.readString(level.resolve("level.json")).replace("\"cappedFrom\":0", "\"cappedFrom\":150"));
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.verdict()).isEqualTo(Verdict.OK);
		assertThat(result.level()).isEqualTo(new Level.Closed(100));
		assertThat(result.reasons()).containsExactly("capped by the descriptor limit: ran 100 of the 150 users asked (ulimit -n)");
	}

	@Test
	void aLevelWhereMostRequestsFailedShowsNoCostPerRequest() throws Exception {
		GoldenFixtures.write(this.results);
		Path level = this.results.resolve("app-webflux/users-100");
		Files.writeString(level.resolve("requests.csv"), Files.readString(level.resolve("requests.csv")).replace(",190,0,2,", ",0,0,192,"));
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.errorPercent()).isGreaterThan(Thresholds.DEFAULT.get(Rule.COST_MAX_ERRORS));
		assertThat(result.serviceCpuPercent()).as("the service's CPU is still shown").isCloseTo(50.0, within(1e-9));
		assertThat(result.cpuMsPerRequest()).isNaN();
		assertThat(result.headroom().injectorMsPerRequest()).isNaN();
		assertThat(result.headroom().validUpToRps()).isNaN();
	}

	@Test
	void aServiceThatDiedFailedWhateverTheHarnessDid() throws Exception {
		Path level = GoldenFixtures.write(this.results).resolve("app-tomcat-loom/users-100");
		downstreamDied(level);
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
		// The cause first (it ran out of memory, then died of it), what followed under it; no figure that could not be
		// computed is shown as NaN.
		assertThat(result.reasons()).containsExactly("OutOfMemoryError in the service log", "the service died (exit code 137)",
				"the harness was off too: the downstream died (exit code 137)");
		assertThat(String.join(" ", result.reasons())).doesNotContain("NaN");
	}

	@Test
	void aServiceTheLabDidNotStartIsNotSaidToHaveDiedWhenItStopsAnswering() throws Exception {
		Path level = GoldenFixtures.write(this.results).resolve("app-tomcat-loom/users-100");
		// What RemoteService.at writes beside the levels of a --target or Compose service.
		Files.writeString(level.getParent().resolve("remote.txt"), "app-tomcat-loom already running at http://app-tomcat-loom:8080 (not started by the lab)\n");
		Files.writeString(level.resolve("level.json"), Files.readString(level.resolve("level.json")).replace("\"exitCode\":137", "\"exitCode\":null")
			.replace("\"outOfMemory\":true", "\"outOfMemory\":false"));
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
		assertThat(result.reasons()).first().isEqualTo("the service stopped answering its health check (not started by the lab, its log is on "
				+ "its own host; in Compose: docker compose logs app-tomcat-loom)");
	}

	private static void downstreamDied(Path level) throws Exception {
		Files.writeString(level.resolve("level.json"), Files.readString(level.resolve("level.json"))
			.replace("\"downstreamAlive\":true", "\"downstreamAlive\":false,\"downstreamExitCode\":137"));
	}

	@Test
	void rowsComeInVariantOrderThenLoad() throws Exception {
		assertThat(analyse()).extracting(r -> r.variant() + "/" + r.load())
			.containsExactly("app-tomcat-loom/100", "app-webflux/100", "app-webflux/200", "app-webflux-loom/100", "app-tomcat-platform/100");
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
		assertThat(twice.requests()).isEqualTo(2 * 1923);
		assertThat(twice.value(lab.analyse.judge.Figures.P50_OK_MS)).isCloseTo(510, within(0.5));
		assertThat(twice.repeats()).isEqualTo(2);
	}

	@Test
	void everyLevelSaysWhetherItMetTheLatencyTargetAndOnlyAnOkLevelCan() throws Exception {
		GoldenFixtures.write(this.results);
		// The golden OK level: p99 of every request 900 ms, errors 23 of 1,923 (1.2%).
		java.util.function.Function<lab.layout.LatencyTarget, List<LevelResult>> judged = target -> {
			try {
				return new Analyser(Thresholds.DEFAULT).withTarget(target).analyse(this.results, lab.plan.Variant.names());
			}
			catch (java.io.IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
		};
		List<LevelResult> lenient = judged.apply(lab.layout.LatencyTarget.parse("p99<=1000ms,errors<=5%"));
		LevelResult ok = lenient.stream().filter(r -> r.variant().equals("app-webflux") && r.load() == 100).findFirst().orElseThrow();
		assertThat(ok.meetsTarget()).isTrue();
		assertThat(lenient.stream().filter(r -> r.verdict() != Verdict.OK).map(LevelResult::meetsTarget)).as("FAILED and INVALID meet nothing")
			.isNotEmpty().containsOnly(false);
		// The default (errors <= 0.1%) and a tighter p99 are missed by the same level.
		assertThat(judged.apply(lab.layout.LatencyTarget.DEFAULT).stream().filter(r -> r.variant().equals("app-webflux") && r.load() == 100)
			.findFirst().orElseThrow().meetsTarget()).isFalse();
		assertThat(judged.apply(lab.layout.LatencyTarget.parse("p99<=899ms,errors<=5%")).stream()
			.filter(r -> r.variant().equals("app-webflux") && r.load() == 100).findFirst().orElseThrow().meetsTarget()).isFalse();
		assertThat(judged.apply(lab.layout.LatencyTarget.parse("p50<=520ms,errors<=5%")).stream()
			.filter(r -> r.variant().equals("app-webflux") && r.load() == 100).findFirst().orElseThrow().meetsTarget()).isTrue();
	}

}
