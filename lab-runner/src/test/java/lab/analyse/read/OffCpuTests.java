package lab.analyse.read;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import lab.analyse.TestRows;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.OffCpuEvidence;
import lab.analyse.measure.Breakdown;
import lab.layout.LatencyTarget;
import lab.layout.Level;
import lab.layout.LevelDir;
import lab.load.LoadWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * What the CPU figures average away, from synthetic {@code /proc} reads: a core busy half the time in waves or half busy
 * throughout, the threads' run-queue wait by name, and the evidence file written only for a level that missed its target
 * with the core not saturated.
 */
class OffCpuTests {

	@TempDir
	Path dir;

	/** Steady from 1,000 to 11,000 ms: 100 slices of 100 ms. */
	static final LoadWindow WINDOW = new LoadWindow(0, 1_000, 11_000);

	private static final LatencyTarget TARGET = LatencyTarget.DEFAULT;

	/** cpu-slices.csv of a process using {@code busy[i % busy.length]} of one core in the slice i (ms from 0 to 12,000). */
	private void slices(double... busy) throws Exception {
		List<String> lines = new ArrayList<>(List.of("epoch_ms,cpu_seconds"));
		double seconds = 40;
		for (int i = 0; i <= 120; i++) {
			lines.add((i * 100) + "," + seconds);
			seconds += 0.1 * busy[i % busy.length];
		}
		Files.write(this.dir.resolve(LevelDir.CPU_SLICES), lines);
	}

	@Test
	void aCoreHalfBusyInWavesIsSaturatedAndIdleByTurnsAndOneHalfBusyThroughoutIsNeither() throws Exception {
		// Five slices saturated, five idle, by turns: 50% on average.
		slices(1, 1, 1, 1, 1, 0, 0, 0, 0, 0);
		OffCpu waves = OffCpu.read(this.dir, WINDOW, 1);
		assertThat(waves.cpuSamples()).isEqualTo(100);
		assertThat(waves.saturatedPercent()).isCloseTo(50, within(1.0));
		assertThat(waves.idlePercent()).isCloseTo(50, within(1.0));
		assertThat(OffCpuEvidence.waves(waves)).isTrue();

		slices(0.5);
		OffCpu steady = OffCpu.read(this.dir, WINDOW, 1);
		assertThat(steady.saturatedPercent()).isZero();
		assertThat(steady.idlePercent()).isZero();
		assertThat(OffCpuEvidence.waves(steady)).isFalse();

		// On two cores, one core's worth is half of them: neither saturated nor idle.
		slices(1);
		assertThat(OffCpu.read(this.dir, WINDOW, 2).saturatedPercent()).isZero();
	}

	@Test
	void threadsAreSummedByNameWithTheirNumbersTakenOutFromTheirStartToTheirEnd() {
		List<String[]> rows = new ArrayList<>();
		// Two carriers and a poller; carrier 2 born in the window (no start row), a thread gone before the end not counted.
		rows.add("start,1000,11,ForkJoinPool-1-,1000000000,200000000,100".split(","));
		rows.add("end,11000,11,ForkJoinPool-1-,4000000000,700000000,600".split(","));
		rows.add("end,11000,12,ForkJoinPool-1-,1000000000,300000000,400".split(","));
		rows.add("start,1000,13,http-nio-8080-P,0,0,0".split(","));
		rows.add("end,11000,13,http-nio-8080-P,500000000,100000000,1000".split(","));
		rows.add("start,1000,14,C2 CompilerThre,0,0,0".split(","));
		rows.add("start,1000,15,VM Thread,5000,5000,5".split(","));
		rows.add("end,11000,15,VM Thread,5000,5000,5".split(","));
		List<OffCpu.Threads> groups = OffCpu.threads(rows);
		assertThat(groups).extracting(OffCpu.Threads::name).containsExactly("ForkJoinPool-#-", "http-nio-#-P");
		OffCpu.Threads carriers = groups.get(0);
		assertThat(carriers.threads()).isEqualTo(2);
		assertThat(carriers.cpuMs()).isCloseTo(4_000, within(0.1));
		assertThat(carriers.runQueueMs()).isCloseTo(800, within(0.1));
		assertThat(carriers.schedulerSlices()).isEqualTo(900);
		assertThat(carriers.waitPerSliceMs()).isCloseTo(800.0 / 900, within(1e-9));
		OffCpu off = new OffCpu(100, 0, 0, 10, groups);
		assertThat(off.runQueueMsPerSecond()).as("(800 + 100) ms over 10 s").isCloseTo(90, within(1e-9));
	}

	private static LevelResult row(double p99, double cpuPercent) {
		return TestRows.row("app-tomcat-loom", new Level.Closed(300))
			.set(Figures.P99_ALL_MS, p99, Figures.REQUESTS, 6_000, Figures.ERROR_PERCENT, 0, Figures.RPS, 400, Figures.SERVICE_CPU_PERCENT,
					cpuPercent)
			.build()
			.withTarget(TARGET);
	}

	@Test
	void theEvidenceIsWrittenForALevelThatMissedWithTheCoreNotSaturatedAndNotForOneThatSaturatedIt() throws Exception {
		slices(1, 1, 1, 1, 1, 0, 0, 0, 0, 0);
		List<OffCpu.Threads> groups = List.of(new OffCpu.Threads("ForkJoinPool-#-", 1, 4_500, 300, 9_000));
		OffCpu off = new OffCpu(100, 50, 50, 10, groups);
		Breakdown parts = new Breakdown(1_020, 900, 560, 880, 1_200, 540, 700);

		Optional<Path> missedIdle = lab.report.OffCpuFile.write(this.dir, 1, parts, off, row(1_400, 52), TARGET);
		assertThat(missedIdle).contains(this.dir.resolve(LevelDir.OFF_CPU));
		String text = Files.readString(missedIdle.orElseThrow());
		assertThat(text).contains("missed its target (p99 1,400 > 1,000 ms) with the service's core 52% busy on average")
			.contains("| before the server's timer | 120 |")
			.contains("| in the service, outside the call | 340 |")
			.contains("| the downstream call | 560 |")
			.contains("saturated (≥ 90% of the cores) 50%, idle (≤ 10%) 50%")
			.contains("the load came in waves")
			.contains("| `ForkJoinPool-#-` | 1 | 450 | 30 | 900 | 0.03 |");
		Files.delete(missedIdle.orElseThrow());

		assertThat(lab.report.OffCpuFile.write(this.dir, 1, parts, off, row(1_400, 97), TARGET)).as("the core saturated: the CPU was the limit").isEmpty();
		assertThat(lab.report.OffCpuFile.write(this.dir, 1, parts, off, row(700, 52), TARGET)).as("the target met").isEmpty();
		// Two cores at 120% of one: 60% of them, not saturated.
		assertThat(lab.report.OffCpuFile.write(this.dir, 2, parts, off, row(1_400, 120), TARGET)).isPresent();
		assertThat(this.dir.resolve(LevelDir.OFF_CPU)).exists();
	}

}
