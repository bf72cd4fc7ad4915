package lab.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the runner starts, so that a normal end, a failure or Ctrl-C stops them all, by PID (never by
 * name), children of theirs included.
 */
public final class Children {

	/** How long a child gets to act on SIGTERM before SIGKILL. */
	static final long GRACE_SECONDS = 10;

	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	/** Where each child's PID and start time are appended as it starts, for the {@link Watchdog}; null: nowhere. */
	private static volatile Path ledger;

	/** Set once the run is being stopped: a child started after that is stopped at once. */
	private static volatile boolean shutDown;

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(Children::stopAll, "lab-stop-children"));
	}

	private Children() {
	}

	public static Process register(Process process) {
		running.add(process);
		record(process.pid());
		if (shutDown) {
			// Started while the run was being stopped (Ctrl-C): it must not outlive the runner.
			stop(process);
		}
		return process;
	}

	/** Children are listed in {@code file} from now on (null: no longer). */
	static void ledger(Path file) {
		ledger = file;
	}

	/** Appends "pid starttime" to the ledger: the start time tells the watchdog a reused PID from the child. */
	private static synchronized void record(long pid) {
		Path file = ledger;
		if (file == null) {
			return;
		}
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
			// Field 22 (start time in clock ticks); the command name before it, in parentheses, may hold spaces.
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
			Files.writeString(file, pid + " " + fields[19] + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		}
		catch (IOException | RuntimeException ex) {
			// Exited already, or no /proc (not Linux): nothing the watchdog could stop.
		}
	}

	/** Directories removed once the children are stopped: here, and by the watchdog if the runner is killed. */
	private static final Set<Path> removals = ConcurrentHashMap.newKeySet();

	/** The prefix a directory must have for the watchdog to remove it: it removes nothing else. */
	public static final String REMOVABLE_PREFIX = "loom-lab-";

	/**
	 * {@code dir} (a temporary directory named {@value #REMOVABLE_PREFIX}..., a PostgreSQL's data) is removed when the
	 * run stops, however it stops: {@link #stopAll} removes it, and it is listed beside the ledger for the watchdog.
	 */
	public static synchronized void removeOnExit(Path dir) {
		if (!dir.getFileName().toString().startsWith(REMOVABLE_PREFIX)) {
			throw new IllegalArgumentException(dir + " is not a directory the lab made (" + REMOVABLE_PREFIX + "...)");
		}
		removals.add(dir.toAbsolutePath());
		Path file = ledger;
		if (file != null) {
			try {
				Files.writeString(file.resolveSibling(file.getFileName() + ".remove"), dir.toAbsolutePath() + "\n", StandardOpenOption.CREATE,
						StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				// The runner still removes it on any end it lives through.
			}
		}
	}

	/** Removes a directory {@link #removeOnExit} listed, with everything in it. */
	public static void remove(Path dir) {
		if (removals.remove(dir.toAbsolutePath())) {
			// What is left is in the system's temporary directory, named loom-lab-...
			deleteTree(dir);
		}
	}

	/** Deletes {@code dir} with everything in it, as far as it can (best effort: what it cannot delete stays). */
	public static void deleteTree(Path dir) {
		if (!Files.exists(dir)) {
			return;
		}
		try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
			walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
		}
		catch (IOException | java.io.UncheckedIOException ex) {
			// Left as it is.
		}
	}

	/** Stops every child, and every child started from now on. */
	public static void shutDown() {
		shutDown = true;
		stopAll();
	}

	/**
	 * SIGTERM (and SIGCONT, so a stopped process can act on it), up to {@value #GRACE_SECONDS} s to exit, then SIGKILL:
	 * a JVM in a GC death spiral or a stopped one ignores SIGTERM. The process's own children too.
	 */
	public static void stop(Process process) {
		stop(List.of(process));
	}

	/** Every child at once: one grace period for all, not one each. */
	public static void stopAll() {
		stop(List.copyOf(running));
		List.copyOf(removals).forEach(Children::remove);
	}

	private static void stop(List<Process> processes) {
		List<ProcessHandle> descendants = new ArrayList<>();
		for (Process process : processes) {
			descendants.addAll(process.descendants().toList());
			process.destroy();
			resume(process.pid());
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
		try {
			for (Process process : processes) {
				long left = deadline - System.nanoTime();
				if (!process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
					process.destroyForcibly().waitFor(GRACE_SECONDS, TimeUnit.SECONDS);
				}
			}
		}
		catch (InterruptedException ex) {
			processes.forEach(Process::destroyForcibly);
			Thread.currentThread().interrupt();
		}
		descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
		processes.forEach(running::remove);
	}

	private static void resume(long pid) {
		if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
			return;
		}
		try {
			new ProcessBuilder("kill", "-CONT", Long.toString(pid)).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start()
				.waitFor(2, TimeUnit.SECONDS);
		}
		catch (java.io.IOException ex) {
			// no kill command: SIGKILL after the grace period still ends it
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** PIDs still alive among those started; empty after a clean end. */
	public static List<Long> alive() {
		return running.stream().filter(Process::isAlive).map(Process::pid).toList();
	}

}
