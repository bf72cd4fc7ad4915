package lab.common;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Voluntary and involuntary context switches of a process, summed over its threads ({@code <proc>/task/*}/status:
 * {@code <proc>/status} counts only the main thread). A thread's last seen count is kept after it exits, so the
 * totals never go backwards. One walk of every thread per call: the runner's sampler walks the services it starts
 * from the outside, so the measured process does not pay for it. No dependency beyond the JDK, for that reason.
 */
public final class ContextSwitches {

	private final Path proc;

	private final Map<String, long[]> byThread = new HashMap<>();

	private long voluntaryOfExitedThreads;

	private long involuntaryOfExitedThreads;

	/** @param proc {@code /proc/self} or {@code /proc/<pid>} */
	public ContextSwitches(Path proc) {
		this.proc = proc;
	}

	/** {voluntary, involuntary} so far. */
	public synchronized long[] read() {
		Map<String, long[]> seen = new HashMap<>();
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(this.proc.resolve("task"))) {
			for (Path task : tasks) {
				Path status = task.resolve("status");
				long voluntary = statusField(status, "voluntary_ctxt_switches:");
				long involuntary = statusField(status, "nonvoluntary_ctxt_switches:");
				if (voluntary >= 0 && involuntary >= 0) {
					seen.put(task.getFileName().toString(), new long[] { voluntary, involuntary });
				}
			}
		}
		catch (IOException ex) {
			// keep the last known values: a failed read must neither drop the counter nor count live threads as exited
			return totals();
		}
		this.byThread.forEach((tid, last) -> {
			if (!seen.containsKey(tid)) {
				this.voluntaryOfExitedThreads += last[0];
				this.involuntaryOfExitedThreads += last[1];
			}
		});
		this.byThread.keySet().retainAll(seen.keySet());
		this.byThread.putAll(seen);
		return totals();
	}

	private long[] totals() {
		long voluntary = this.voluntaryOfExitedThreads;
		long involuntary = this.involuntaryOfExitedThreads;
		for (long[] counts : this.byThread.values()) {
			voluntary += counts[0];
			involuntary += counts[1];
		}
		return new long[] { voluntary, involuntary };
	}

	/** The first number after {@code key} in a /proc status file, or -1 when the thread is gone or the key absent. */
	static long statusField(Path status, String key) {
		try {
			for (String line : Files.readAllLines(status)) {
				if (line.startsWith(key)) {
					return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// a thread can exit between listing and reading
		}
		return -1;
	}

}
