package lab.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU time of a JVM's JIT compiler threads, from {@code /proc/<pid>/task}: HotSpot names them
 * {@code C1 CompilerThreadN} and {@code C2 CompilerThreadN} (the kernel keeps 15 characters). This is what the JIT
 * cost the service's core; the JVM's own compile counter ({@code jvm.compilation.time}) adds up each compilation's
 * elapsed time, which on a saturated core runs on while the compiler thread waits for the CPU (measured here: 100 %
 * "compiling" on a core whose compiler threads used a fraction of it). Compiler threads come and go
 * (-XX:+UseDynamicNumberOfCompilerThreads): one that exited keeps its last count, so the sum only grows. Read by the
 * runner's sampler from outside the services it starts, and by a service itself ({@link ProcessMetrics}) when the
 * runner did not start it (a {@code --target}, the Compose stack), so that "not warm" judges the same figure there.
 */
public final class JitThreads {

	/** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every mainstream architecture. */
	private static final double TICKS_PER_SECOND = 100.0;

	private final Path tasks;

	/** Thread id → its last CPU seconds, exited threads included. */
	private final Map<String, Double> seen = new HashMap<>();

	/** @param tasks {@code /proc/self/task} or {@code /proc/<pid>/task} */
	public JitThreads(Path tasks) {
		this.tasks = tasks;
	}

	/** User + kernel seconds of every compiler thread seen so far. */
	public synchronized double cpuSeconds() {
		try (Stream<Path> threads = Files.list(this.tasks)) {
			threads.forEach(thread -> {
				try {
					String name = Files.readAllLines(thread.resolve("comm")).get(0);
					if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
						double seconds = statCpuSeconds(thread.resolve("stat"));
						if (seconds >= 0) {
							this.seen.merge(thread.getFileName().toString(), seconds, Math::max);
						}
					}
				}
				catch (IOException | RuntimeException ex) {
					// the thread exited between the listing and the read
				}
			});
		}
		catch (IOException ex) {
			// the process is gone: the last counts stand
		}
		return this.seen.values().stream().mapToDouble(Double::doubleValue).sum();
	}

	/** User + kernel seconds from a process's or a thread's {@code stat}; -1 when unreadable. */
	public static double statCpuSeconds(Path statFile) {
		try {
			// readAllLines, not readString: /proc files report size 0, and readString can return a truncated read.
			String stat = Files.readAllLines(statFile).get(0);
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

}
