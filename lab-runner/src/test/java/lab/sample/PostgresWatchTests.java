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

}
