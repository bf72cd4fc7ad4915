package lab.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The one loop that waits for a process the lab started to be ready (a service of the lab's, a service of the user's
 * own, PostgreSQL): it asks {@code check} every 200 ms, and fails with the process's exit code when it died, or with
 * {@code what} when the time ran out, each naming the log to read.
 */
public final class Readiness {

	/** What says a process is ready: a value when it is, null while it is not. */
	@FunctionalInterface
	public interface Check<T> {

		T ready() throws IOException, InterruptedException;

	}

	private Readiness() {
	}

	/**
	 * The check's first value; a {@link ServiceFailure} when {@code process} exits first or {@code timeout} passes ({@code
	 * notReady}: "was not healthy", "did not accept connections"). The caller stops the process on failure.
	 */
	public static <T> T await(String name, Process process, Duration timeout, Path log, String notReady, Check<T> check)
			throws IOException, InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			if (!process.isAlive()) {
				throw new ServiceFailure(name + " exited with code " + process.exitValue() + " while starting; see " + log);
			}
			T value = check.ready();
			if (value != null) {
				return value;
			}
			if (System.nanoTime() > deadline) {
				throw new ServiceFailure(name + " " + notReady + " within " + timeout.toSeconds() + " s; see " + log);
			}
			Thread.sleep(200);
		}
	}

}
