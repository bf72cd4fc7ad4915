package lab.launch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class WatchdogTests {

	@TempDir
	Path dir;

	/**
	 * A normal end closes the watchdog with everything it started: its pause (a sleep) must not outlive it, orphaned
	 * (where the init process reaps late, such an orphan is a child of the runner still "alive" after it exits).
	 */
	@Test
	void closingTheWatchdogLeavesNoProcessOfItsOwn() throws Exception {
		Watchdog watchdog = Watchdog.start(this.dir.resolve("children"), this.dir.resolve("watchdog.log"));
		ProcessHandle shell = ProcessHandle.of(watchdog.pid()).orElseThrow();
		List<ProcessHandle> pauses = List.of();
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (pauses.isEmpty() && System.nanoTime() < deadline) {
			pauses = shell.descendants().toList();
			Thread.sleep(20);
		}
		assertThat(pauses).as("the watchdog pauses in a sleep of its own").isNotEmpty();

		watchdog.close();

		assertThat(shell.isAlive()).isFalse();
		assertThat(pauses).as("the watchdog's pause ended with it").noneMatch(ProcessHandle::isAlive);
	}

}
