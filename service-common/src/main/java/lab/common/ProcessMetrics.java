package lab.common;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Process facts the JVM's own meters lack, read from {@code /proc}: RSS, native threads, context switches and
 * CPU split into user and kernel time. Context switches are summed over {@code /proc/self/task/*}
 * ({@code /proc/self/status} counts only the main thread); a thread's last seen count is kept after it exits so
 * the counter never goes backwards.
 */
public class ProcessMetrics implements MeterBinder {

	/** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every mainstream architecture. */
	private static final double TICKS_PER_SECOND = 100.0;

	private final Path proc;

	private final Map<String, long[]> switchesByThread = new HashMap<>();

	private long voluntaryOfExitedThreads;

	private long involuntaryOfExitedThreads;

	public ProcessMetrics() {
		this(Path.of("/proc/self"));
	}

	ProcessMetrics(Path proc) {
		this.proc = proc;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		if (!Files.isReadable(this.proc.resolve("status"))) {
			return;
		}
		Gauge.builder("process.memory.rss", this, ProcessMetrics::rssBytes)
			.baseUnit("bytes")
			.description("Resident set size (VmRSS)")
			.register(registry);
		Gauge.builder("process.threads.native", this, ProcessMetrics::nativeThreads)
			.description("Kernel threads of this process (/proc/self/task)")
			.register(registry);
		FunctionCounter.builder("process.context.switches.voluntary", this, m -> m.contextSwitches()[0])
			.description("Voluntary context switches summed over all threads")
			.register(registry);
		FunctionCounter.builder("process.context.switches.involuntary", this, m -> m.contextSwitches()[1])
			.description("Involuntary context switches summed over all threads")
			.register(registry);
		FunctionCounter.builder("process.cpu.user", this, m -> m.cpuTicks(13) / TICKS_PER_SECOND)
			.baseUnit("seconds")
			.description("CPU time in user mode, all threads")
			.register(registry);
		FunctionCounter.builder("process.cpu.kernel", this, m -> m.cpuTicks(14) / TICKS_PER_SECOND)
			.baseUnit("seconds")
			.description("CPU time in kernel mode, all threads")
			.register(registry);
	}

	double rssBytes() {
		return statusField(this.proc.resolve("status"), "VmRSS:") * 1024.0;
	}

	double nativeThreads() {
		return statusField(this.proc.resolve("status"), "Threads:");
	}

	/** utime is field 14 and stime field 15 of /proc/self/stat (index 13 and 14 after the command name). */
	double cpuTicks(int index) {
		try {
			// readAllLines, not readString: /proc files report size 0, and readString can return a truncated read.
			String stat = Files.readAllLines(this.proc.resolve("stat")).get(0);
			// The command name may contain spaces: fields are counted from after its closing parenthesis.
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return Double.parseDouble(fields[index - 2]);
		}
		catch (IOException | RuntimeException ex) {
			return Double.NaN;
		}
	}

	synchronized long[] contextSwitches() {
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
		this.switchesByThread.forEach((tid, last) -> {
			if (!seen.containsKey(tid)) {
				this.voluntaryOfExitedThreads += last[0];
				this.involuntaryOfExitedThreads += last[1];
			}
		});
		this.switchesByThread.keySet().retainAll(seen.keySet());
		this.switchesByThread.putAll(seen);
		return totals();
	}

	private long[] totals() {
		long voluntary = this.voluntaryOfExitedThreads;
		long involuntary = this.involuntaryOfExitedThreads;
		for (long[] counts : this.switchesByThread.values()) {
			voluntary += counts[0];
			involuntary += counts[1];
		}
		return new long[] { voluntary, involuntary };
	}

	/** The first number after {@code key} in a /proc status file, or -1 when the thread is gone or the key absent. */
	private static long statusField(Path status, String key) {
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
