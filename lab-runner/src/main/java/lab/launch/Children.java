package lab.launch;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the runner starts, so that a normal end, a failure or Ctrl-C stops them all, by PID (never by
 * name), children of theirs included.
 */
public final class Children {

	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(Children::stopAll, "lab-stop-children"));
	}

	private Children() {
	}

	public static Process register(Process process) {
		running.add(process);
		return process;
	}

	/** SIGTERM, up to 10 s to exit, then SIGKILL; the process's own children too. */
	public static void stop(Process process) {
		List<ProcessHandle> descendants = process.descendants().toList();
		process.destroy();
		try {
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
		running.remove(process);
	}

	public static void stopAll() {
		List.copyOf(running).forEach(Children::stop);
	}

	/** PIDs still alive among those started; empty after a clean end. */
	public static List<Long> alive() {
		return running.stream().filter(Process::isAlive).map(Process::pid).toList();
	}

}
