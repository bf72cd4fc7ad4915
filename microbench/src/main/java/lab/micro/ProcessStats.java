package lab.micro;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the process costs, for the whole process: {@code getrusage(RUSAGE_SELF)} through the FFM API counts every
 * thread, exited ones included (unlike {@code /proc/self/status}, which counts only the main thread), plus
 * native threads and RSS from /proc, and a sampler of their peaks while an experiment runs.
 */
final class ProcessStats {

	/** struct rusage on Linux x86_64/aarch64: two timevals (16 bytes each), then 14 longs. */
	private static final long RUSAGE_SIZE = 144;

	private static final MethodHandle GETRUSAGE = Linker.nativeLinker()
		.downcallHandle(Linker.nativeLinker().defaultLookup().find("getrusage").orElseThrow(),
				FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));

	/** CPU and context switches of the whole process at one instant. */
	record Usage(long userMicros, long kernelMicros, long voluntarySwitches, long involuntarySwitches) {

		Usage minus(Usage before) {
			return new Usage(this.userMicros - before.userMicros, this.kernelMicros - before.kernelMicros,
					this.voluntarySwitches - before.voluntarySwitches, this.involuntarySwitches - before.involuntarySwitches);
		}

		long switches() {
			return this.voluntarySwitches + this.involuntarySwitches;
		}

		double kernelShare() {
			long total = this.userMicros + this.kernelMicros;
			return (total == 0) ? 0 : (double) this.kernelMicros / total;
		}

	}

	private ProcessStats() {
	}

	static Usage usage() {
		try (Arena arena = Arena.ofConfined()) {
			MemorySegment rusage = arena.allocate(RUSAGE_SIZE, 8);
			int rc = (int) GETRUSAGE.invokeExact(0, rusage);
			if (rc != 0) {
				throw new IllegalStateException("getrusage failed: " + rc);
			}
			return new Usage(rusage.get(ValueLayout.JAVA_LONG, 0) * 1_000_000 + rusage.get(ValueLayout.JAVA_LONG, 8),
					rusage.get(ValueLayout.JAVA_LONG, 16) * 1_000_000 + rusage.get(ValueLayout.JAVA_LONG, 24),
					rusage.get(ValueLayout.JAVA_LONG, 128), rusage.get(ValueLayout.JAVA_LONG, 136));
		}
		catch (Throwable ex) {
			throw new IllegalStateException("getrusage through FFM", ex);
		}
	}

	static long nativeThreads() {
		return status("Threads:");
	}

	static long rssBytes() {
		return status("VmRSS:") * 1024;
	}

	/** A field of /proc/self/status (readAllLines: /proc files report size 0). */
	private static long status(String key) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith(key)) {
					return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux
		}
		return -1;
	}

	/** Samples native threads and RSS every 5 ms on a platform daemon thread and keeps the peaks. */
	static final class Peaks implements AutoCloseable {

		final AtomicLong threads = new AtomicLong();

		final AtomicLong rss = new AtomicLong();

		private final Thread sampler;

		private volatile boolean running = true;

		Peaks() {
			this.sampler = Thread.ofPlatform().daemon().name("peak-sampler").start(() -> {
				while (this.running) {
					this.threads.accumulateAndGet(nativeThreads(), Math::max);
					this.rss.accumulateAndGet(rssBytes(), Math::max);
					try {
						Thread.sleep(5);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			});
		}

		@Override
		public void close() throws InterruptedException {
			this.running = false;
			this.sampler.join();
		}

	}

}
