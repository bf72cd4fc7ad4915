package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One measuring run per host: {@code ./lab run} refuses to start while another holds the host's run lock, names it,
 * and exits 2; {@code --allow-concurrent} runs anyway; a lock left by a run that died is taken over. The lock here is
 * held by an {@code flock} process the test starts (as a running ./lab run holds it) on a lock file of its own
 * ({@code LAB_LOCK_FILE}), so no real run on this machine is disturbed.
 */
class HostLockTests {

	@TempDir
	Path dir;

	@Test
	void aSecondRunIsRefusedNamingTheFirstAndALockLeftByADeadRunIsTakenOver() throws Exception {
		Assumptions.assumeTrue(Commands.onPath("flock"), "flock (util-linux) is not installed");
		Path lock = this.dir.resolve("run.lock");
		Path log = this.dir.resolve("commands.log");
		Map<String, String> env = Map.of("LAB_LOCK_FILE", lock.toString());
		// The first run: a process holding the lock (bounded: it ends by itself after 120 s), with the note ./lab writes.
		Process holder = new ProcessBuilder("flock", lock.toString(), "sleep", "120").redirectErrorStream(true).start();
		try {
			Files.writeString(lock.resolveSibling("run.lock.owner"),
					"pid " + holder.pid() + ": ./lab run --scenario smoke, started 2026-11-26T05:00:00Z, results /data/results/first");
			awaitHeld(lock);
			Commands.Result refused = Commands.run(List.of(Repo.root().resolve("lab").toString(), "run", "--scenario", "smoke", "--variants", "app-webflux"),
					env, this.dir, log, Duration.ofSeconds(60));
			assertThat(refused.exit()).isEqualTo(2);
			assertThat(refused.output().strip()).doesNotContain("\n")
				.contains("lab: another lab run is measuring on this host (pid " + holder.pid() + ": ./lab run --scenario smoke")
				.contains("results /data/results/first").contains("--allow-concurrent");
			// Allowed, it goes on (here to the scenario's own check, which stops it with its own line).
			Commands.Result beside = Commands.run(List.of(Repo.root().resolve("lab").toString(), "run", "--allow-concurrent", "--scenario", "no-such-scenario"),
					env, this.dir, log, Duration.ofSeconds(120));
			assertThat(beside.output()).contains("running beside it (--allow-concurrent): the report says so").contains("unknown scenario 'no-such-scenario'");
			assertThat(beside.exit()).isEqualTo(2);
		}
		finally {
			// flock and the sleep it runs (which holds the lock too), by their PIDs.
			holder.descendants().forEach(ProcessHandle::destroy);
			holder.destroy();
			holder.waitFor(10, TimeUnit.SECONDS);
		}
		// The first run died (its note stays): the next run takes the lock over and says so.
		Commands.Result next = Commands.run(List.of(Repo.root().resolve("lab").toString(), "run", "--scenario", "no-such-scenario"), env, this.dir, log,
				Duration.ofSeconds(120));
		assertThat(next.output()).contains("the run lock was left by pid " + holder.pid() + ", no longer running").contains("taken over")
			.contains("unknown scenario 'no-such-scenario'");
		// A run that ended normally removes its note (the scenario check ends the JVM normally).
		assertThat(lock.resolveSibling("run.lock.owner")).doesNotExist();
	}

	/** Waits until the lock is held (flock -n fails on it), at most 10 s. */
	private static void awaitHeld(Path lock) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			Process probe = new ProcessBuilder("flock", "-n", lock.toString(), "true").start();
			if (probe.waitFor() != 0) {
				return;
			}
			Thread.sleep(50);
		}
		throw new AssertionError("the holder never took the lock " + lock);
	}

}
