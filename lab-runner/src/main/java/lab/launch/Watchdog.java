package lab.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * A small shell process that outlives the runner: when the runner dies without stopping its children (SIGKILL, the
 * OOM killer, a CI time-out), it ends every process of the {@link Children#ledger ledger} and their descendants
 * within seconds (SIGTERM, then SIGKILL), by PID and start time, never by name. The runner's own shutdown hook
 * covers Ctrl-C and SIGTERM; this covers what no hook sees. A normal end closes it.
 */
public final class Watchdog implements AutoCloseable {

	/** Seconds the children get to act on SIGTERM once the runner is gone. */
	static final int GRACE_SECONDS = 5;

	private final Process process;

	private Watchdog(Process process) {
		this.process = process;
	}

	/**
	 * Starts the watchdog of this JVM over {@code ledger}, which {@link Children} fills from now on. Not registered
	 * as a child itself: it must survive the runner.
	 */
	public static Watchdog start(Path ledger, Path log) throws IOException {
		String script;
		try (InputStream in = Watchdog.class.getResourceAsStream("/launch/watchdog.sh")) {
			script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		Children.ledger(ledger);
		Process process = new ProcessBuilder(List.of("bash", "-c", script, "lab-watchdog", Long.toString(ProcessHandle.current().pid()),
				ledger.toString(), Integer.toString(GRACE_SECONDS)))
			.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		return new Watchdog(process);
	}

	public long pid() {
		return this.process.pid();
	}

	/** The runner ends normally: its children are stopped already, the watchdog is not needed. */
	@Override
	public void close() {
		Children.ledger(null);
		this.process.destroy();
		try {
			this.process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
