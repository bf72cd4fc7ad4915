package lab.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import lab.analyse.read.Database;
import lab.analyse.read.Samples;
import lab.load.LoadWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** pg_stat_activity's answer as series, and the series as a level's database figures. */
class PostgresWatchTests {

	@TempDir
	Path dir;

	@Test
	void aSecondsAnswerBecomesActiveOnCpuAndWaitingBackends() {
		assertThat(PostgresWatch.parse("Lock|6")).isEqualTo(Map.of("Lock", 6.0));
		assertThat(PostgresWatch.parse("")).as("no active backend: no row").isEmpty();
		assertThat(PostgresWatch.parse("ERROR:  relation does not exist")).isEmpty();
		assertThat(PostgresWatch.activity(Map.of("CPU", 2.0, "Lock", 6.0, "Timeout", 1.0))).containsEntry("pg_active_backends", 9.0)
			.containsEntry("pg_backends_on_cpu", 2.0).containsEntry("pg_backends_waiting_Lock", 6.0).containsEntry("pg_backends_waiting_Timeout", 1.0);
		assertThat(PostgresWatch.activity(Map.of())).containsEntry("pg_active_backends", 0.0).containsEntry("pg_backends_on_cpu", 0.0).hasSize(2);
	}

	@Test
	void theWindowsSecondsAverageWithATypeAbsentFromASecondCountedAsNone() throws Exception {
		StringBuilder csv = new StringBuilder("epoch_ms,source,series,value\n");
		for (int s = 0; s < 10; s++) {
			long t = 10_000 + s * 1000L;
			csv.append(t).append(",postgres,pg_active_backends,10\n");
			csv.append(t).append(",postgres,pg_backends_on_cpu,2\n");
			// Lock waits in every second, I/O in half of them.
			csv.append(t).append(",postgres,pg_backends_waiting_Lock,8\n");
			if (s % 2 == 0) {
				csv.append(t).append(",postgres,pg_backends_waiting_IO,2\n");
			}
			csv.append(t).append(",postgres,proc_cpu_seconds,").append(0.5 * s).append('\n');
		}
		// Outside the window: not counted.
		csv.append("30000,postgres,pg_active_backends,99\n");
		Files.writeString(this.dir.resolve("metrics.csv"), csv);
		Database db = Database.read(Samples.read(this.dir.resolve("metrics.csv")), new LoadWindow(9_000, 9_500, 19_500));
		assertThat(db.seconds()).isEqualTo(10);
		assertThat(db.activeBackends()).isEqualTo(10.0);
		assertThat(db.lockWaitingBackends()).isEqualTo(8.0);
		assertThat(db.waitingBackends()).containsEntry("IO", 1.0);
		assertThat(db.waitingBackends().keySet()).as("largest first").containsExactly("Lock", "IO");
		assertThat(db.cpuPercent()).as("half a core").isCloseTo(50.0, within(0.01));
		assertThat(Database.read(Samples.read(this.dir.resolve("none.csv")), new LoadWindow(0, 0, 1))).isEqualTo(Database.NONE);
	}

	@Test
	void aBackendThatEndsIsNotAResetOfTheServersCpu() throws Exception {
		// Three backends; at the third second one that had used 30 s ends (a pool retires a connection at its maximum
		// lifetime) and a new one starts: the counter keeps only the growth, 0.3 s a second, never the lost 30 s.
		PostgresWatch.Cpu cpu = new PostgresWatch.Cpu();
		assertThat(cpu.add(Map.of(1L, 5.0, 2L, 30.0, 3L, 10.0))).isEqualTo(45.0);
		assertThat(cpu.add(Map.of(1L, 5.1, 2L, 30.1, 3L, 10.1))).isCloseTo(45.3, within(1e-9));
		assertThat(cpu.add(Map.of(1L, 5.2, 3L, 10.2, 4L, 0.1))).as("2 ended, 4 new: its whole CPU since it began").isCloseTo(45.6, within(1e-9));
		assertThat(cpu.add(Map.of(1L, 5.3, 3L, 10.3, 4L, 0.2))).isCloseTo(45.9, within(1e-9));
		// Records from before the change summed the live processes: 45.3 -> 15.5 when backend 2 ended. Read so, the drop
		// counts nothing; a counter reset's rule would count 15.5 seconds in one second, 1,550% of the one core.
		StringBuilder csv = new StringBuilder("epoch_ms,source,series,value\n");
		double[] summed = { 45.0, 45.3, 15.5, 15.8, 16.1, 16.4 };
		for (int s = 0; s < summed.length; s++) {
			csv.append(10_000 + s * 1000L).append(",postgres,pg_active_backends,3\n");
			csv.append(10_000 + s * 1000L).append(",postgres,proc_cpu_seconds,").append(summed[s]).append('\n');
		}
		Files.writeString(this.dir.resolve("metrics.csv"), csv);
		Database db = Database.read(Samples.read(this.dir.resolve("metrics.csv")), new LoadWindow(9_000, 9_500, 15_500));
		assertThat(db.cpuPercent()).as("four of five seconds' growth, 0.3 s each, over 5 s").isCloseTo(24.0, within(0.01));
	}

}
