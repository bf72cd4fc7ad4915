package lab.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Every thread of a process from outside ({@code /proc/<pid>/task}): this test's own JVM, before and after some work. */
class ThreadSchedstatTests {

	@Test
	void aSnapshotHasEveryThreadWithItsNameAndTheWorkBetweenTwoShowsOnTheThreadThatDidIt(@TempDir Path dir) throws Exception {
		Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc: not Linux");
		long pid = ProcessHandle.current().pid();
		Path file = dir.resolve("thread-schedstat.csv");
		String name = "schedstat-probe";
		java.util.concurrent.CountDownLatch hashed = new java.util.concurrent.CountDownLatch(1);
		Thread worker = new Thread(() -> {
			try {
				MessageDigest sha = MessageDigest.getInstance("SHA-256");
				byte[] block = new byte[64 * 1024];
				// 300 ms of its own CPU (however the cores are shared), at most 10 s of wall time.
				var cpu = java.lang.management.ManagementFactory.getThreadMXBean();
				long giveUp = System.nanoTime() + 10_000_000_000L;
				while (cpu.getCurrentThreadCpuTime() < 300_000_000L && System.nanoTime() < giveUp) {
					block[0] = sha.digest(block)[0];
				}
				hashed.countDown();
				Thread.sleep(1_000);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, name);
		ThreadSchedstat.snapshot(pid, "start", file);
		worker.start();
		hashed.await();
		ThreadSchedstat.snapshot(pid, "end", file);
		worker.join();

		List<String> lines = Files.readAllLines(file);
		assertThat(lines.get(0)).isEqualTo(ThreadSchedstat.HEADER);
		List<String[]> rows = lines.subList(1, lines.size()).stream().map(line -> line.split(",")).toList();
		assertThat(rows).allSatisfy(row -> assertThat(row).hasSize(7));
		Map<String, Long> starts = rows.stream().filter(row -> row[0].equals("start")).collect(Collectors.toMap(row -> row[2], row -> 1L));
		assertThat(starts).as("threads at the start").hasSizeGreaterThan(5);
		// The worker was born between the two: only in the end rows, its name as the kernel keeps it (15 characters).
		String[] probe = rows.stream().filter(row -> row[0].equals("end") && row[3].equals(name)).findFirst().orElseThrow();
		assertThat(starts).doesNotContainKey(probe[2]);
		assertThat(Long.parseLong(probe[4])).as("its 300 ms of hashing, ns on a CPU").isGreaterThan(100_000_000L);
	}

}
