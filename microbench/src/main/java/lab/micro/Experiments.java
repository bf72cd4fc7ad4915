package lab.micro;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jdk.jfr.consumer.RecordingStream;

/** The articles' experiments. Each returns a {@link Table}: the article's figure, this machine's, the ideal. */
final class Experiments {

	static final String LAPTOP = "\"Can Project Loom Save a 2008 Laptop?\"";

	static final String HECK = "\"What the Heck Is Project Loom for Java?\"";

	static final String TWO_HUNDRED = "\"I Replaced 200 Threads With 10,000\"";

	static final String BASIC = "\"Basic test of the Project Loom virtual threads\"";

	private Experiments() {
	}

	record Run(double millis, long peakThreads, long peakRssBytes, ProcessStats.Usage usage) {
	}

	/** Runs {@code work}, measuring wall time, whole-process CPU and switches, and the peaks of threads and RSS. */
	static Run measure(ThrowingRunnable work) throws Exception {
		awaitThreadsGone();
		System.gc();
		ProcessStats.Usage before = ProcessStats.usage();
		long start = System.nanoTime();
		try (ProcessStats.Peaks peaks = new ProcessStats.Peaks()) {
			work.run();
			double millis = (System.nanoTime() - start) / 1e6;
			ProcessStats.Usage used = ProcessStats.usage().minus(before);
			peaks.close();
			return new Run(millis, peaks.threads.get(), peaks.rss.get(), used);
		}
	}

	/**
	 * Waits (at most 15 s) until the threads of the previous measurement have exited: a closed pool's workers die
	 * asynchronously, and would otherwise count as the next experiment's native threads.
	 */
	static void awaitThreadsGone() throws InterruptedException {
		long deadline = System.nanoTime() + 15_000_000_000L;
		long previous = -1;
		int steady = 0;
		while (System.nanoTime() < deadline && steady < 10) {
			long now = ProcessStats.nativeThreads();
			steady = (now == previous) ? steady + 1 : 0;
			previous = now;
			Thread.sleep(50);
		}
	}

	interface ThrowingRunnable {

		void run() throws Exception;

	}

	/** Submits {@code count} tasks that each sleep, and waits for all of them. */
	static void sleepers(ExecutorService executor, int count, Duration sleep) throws Exception {
		try (executor) {
			for (int i = 0; i < count; i++) {
				executor.submit(() -> {
					Thread.sleep(sleep);
					return null;
				});
			}
		}
	}

	// 100,000 × 1 s sleep: cached pool vs virtual threads.
	static Table sleep(Sizes sizes) throws Exception {
		int tasks = sizes.capPlatform(sizes.sleepTasks());
		Run cached = measure(() -> sleepers(Executors.newCachedThreadPool(), tasks, Duration.ofSeconds(1)));
		Run virtual = measure(() -> sleepers(Executors.newVirtualThreadPerTaskExecutor(), tasks, Duration.ofSeconds(1)));
		var table = Table.of("sleep", Table.count(tasks) + " tasks × 1 s sleep: cached pool vs virtual threads", LAPTOP)
			.row("wall time, cached pool", "14,257 ms", Table.ms(cached.millis()), "1,000 ms")
			.row("wall time, virtual", "5,066 ms", Table.ms(virtual.millis()), "1,000 ms")
			.row("peak native threads, cached pool", "3,252", Table.count(cached.peakThreads()), "-")
			.row("peak native threads, virtual", "22", Table.count(virtual.peakThreads()), "carriers + JVM threads")
			.row("context switches / s, cached pool", "45k", Table.count(cached.usage().switches() / (cached.millis() / 1000)), "-")
			.row("context switches / s, virtual", "6.5k", Table.count(virtual.usage().switches() / (virtual.millis() / 1000)), "-")
			.row("kernel share of CPU, cached pool", "~55%", percent(cached.usage().kernelShare()), "-")
			.row("kernel share of CPU, virtual", "~19%", percent(virtual.usage().kernelShare()), "-")
			.note("Context switches and CPU from getrusage(RUSAGE_SELF) through the FFM API: every thread, exited ones too.")
			.note("The article ran 100,000 tasks on a 2008 laptop; tasks here: " + tasks + (tasks < sizes.sleepTasks()
					? " (capped at half the host's thread limit, " + sizes.platformThreadLimit() + ")" : "") + ".");
		return table.build();
	}

	// Thread-per-task vs cached pool vs virtual: wall time and peak RSS.
	static Table tasks(Sizes sizes) throws Exception {
		int tasks = sizes.capPlatform(sizes.tasks());
		Run perTask = measure(() -> sleepers(Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory()), tasks, Duration.ofSeconds(1)));
		Run cached = measure(() -> sleepers(Executors.newCachedThreadPool(), tasks, Duration.ofSeconds(1)));
		Run virtual = measure(() -> sleepers(Executors.newVirtualThreadPerTaskExecutor(), tasks, Duration.ofSeconds(1)));
		return Table.of("tasks", Table.count(tasks) + " tasks × 1 s sleep: thread per task, cached pool, virtual", HECK)
			.row("wall time, platform thread per task", "-", Table.ms(perTask.millis()), "1,000 ms")
			.row("wall time, cached pool", "-", Table.ms(cached.millis()), "1,000 ms")
			.row("wall time, virtual", "-", Table.ms(virtual.millis()), "1,000 ms")
			.row("peak RSS, platform thread per task", "-", mib(perTask.peakRssBytes()), "-")
			.row("peak RSS, cached pool", "-", mib(cached.peakRssBytes()), "-")
			.row("peak RSS, virtual", "-", mib(virtual.peakRssBytes()), "-")
			.note("The article shows the JEP 444 example (10,000 / 100,000 sleeping tasks) without a table of figures.")
			.note("JMH: ./lab jmh runs LoomBenchmark (platformThreadPerTask, platformThreadPool, virtualThreadPerTask).")
			.build();
	}

	// How much memory a parked thread costs: platform vs virtual.
	static Table ceiling(Sizes sizes) throws Exception {
		int platform = sizes.capPlatform(sizes.platformCeiling());
		int virtual = sizes.virtualCeiling();
		double platformBytes = perParkedThread(platform, Thread.ofPlatform().factory());
		double virtualBytes = perParkedThread(virtual, Thread.ofVirtual().factory());
		return Table.of("ceiling", "Memory per parked thread, bounded", HECK)
			.row("RSS per parked platform thread", "-", kib(platformBytes), "stack touched only, not the 1 MiB reserved")
			.row("RSS per parked virtual thread", "-", kib(virtualBytes), "a few hundred bytes of heap")
			.row("threads created, platform / virtual", "-", Table.count(platform) + " / " + Table.count(virtual), "-")
			.note("Bounded: platform threads stay under half of ulimit -u, kernel.threads-max and vm.max_map_count / 2 ("
					+ sizes.platformThreadLimit() + " here), so the host is never exhausted.")
			.build();
	}

	static double perParkedThread(int count, java.util.concurrent.ThreadFactory factory) throws InterruptedException {
		System.gc();
		long before = ProcessStats.rssBytes();
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch parked = new CountDownLatch(count);
		List<Thread> threads = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			Thread thread = factory.newThread(() -> {
				parked.countDown();
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			thread.start();
			threads.add(thread);
		}
		parked.await();
		long after = ProcessStats.rssBytes();
		release.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		return Math.max(0, after - before) / (double) count;
	}

	// 10,000 × 100 ms: a fixed pool of 200 vs virtual threads; 48 CPU-bound prime counts on both.
	static Table waiting(Sizes sizes) throws Exception {
		int tasks = sizes.waitTasks();
		Run pool = measure(() -> sleepers(Executors.newFixedThreadPool(200), tasks, Duration.ofMillis(100)));
		Run virtual = measure(() -> sleepers(Executors.newVirtualThreadPerTaskExecutor(), tasks, Duration.ofMillis(100)));
		int cores = Runtime.getRuntime().availableProcessors();
		double one = measure(() -> countPrimes(1_000_000)).millis();
		Run poolCpu = measure(() -> primes(Executors.newFixedThreadPool(200), 48));
		Run virtualCpu = measure(() -> primes(Executors.newVirtualThreadPerTaskExecutor(), 48));
		return Table.of("waiting", "Waiting is cheap, work is not: 10,000 × 100 ms, and 48 prime counts to 1,000,000", TWO_HUNDRED)
			.row("10,000 × 100 ms sleep, fixed pool of 200", "5,116 ms", Table.ms(pool.millis()), Table.ms(100.0 * tasks / 200))
			.row("10,000 × 100 ms sleep, virtual", "378 ms", Table.ms(virtual.millis()), "100 ms")
			.row("48 prime counts, fixed pool of 200", "2,387 ms", Table.ms(poolCpu.millis()), Table.ms(one * 48 / cores))
			.row("48 prime counts, virtual", "2,300 ms", Table.ms(virtualCpu.millis()), Table.ms(one * 48 / cores))
			.note("Ideal for the prime counts: one count (" + Table.ms(one) + " here) × 48 / " + cores + " cores: virtual threads add no CPU.")
			.build();
	}

	static void primes(ExecutorService executor, int count) throws Exception {
		try (executor) {
			List<Future<Integer>> results = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				results.add(executor.submit(() -> countPrimes(1_000_000)));
			}
			for (Future<Integer> result : results) {
				if (result.get() != 78_498) {
					throw new IllegalStateException("wrong prime count " + result.get());
				}
			}
		}
	}

	static int countPrimes(int limit) {
		int count = 0;
		for (int n = 2; n <= limit; n++) {
			boolean prime = true;
			for (int d = 2; (long) d * d <= n; d++) {
				if (n % d == 0) {
					prime = false;
					break;
				}
			}
			if (prime) {
				count++;
			}
		}
		return count;
	}

	// A Semaphore keeps a dependency's concurrency bounded; a ThreadLocal is no pool under virtual threads.
	static Table semaphore(Sizes sizes) throws Exception {
		Semaphore permits = new Semaphore(20);
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger peak = new AtomicInteger();
		int callers = 1_000;
		Run run = measure(() -> {
			try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
				for (int i = 0; i < callers; i++) {
					executor.submit(() -> {
						permits.acquire();
						try {
							peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
							Thread.sleep(10);
						}
						finally {
							inFlight.decrementAndGet();
							permits.release();
						}
						return null;
					});
				}
			}
		});
		int poolInits = threadLocalInits(Executors.newFixedThreadPool(10), callers);
		int virtualInits = threadLocalInits(Executors.newVirtualThreadPerTaskExecutor(), callers);
		return Table.of("semaphore", "Concurrency is not capacity: Semaphore(20) and the ThreadLocal-as-pool trap", TWO_HUNDRED)
			.row("peak calls in flight to the bounded dependency", "20", Table.count(peak.get()), "20")
			.row("1,000 calls × 10 ms through 20 permits", "-", Table.ms(run.millis()), Table.ms(1_000 * 10.0 / 20))
			.row("ThreadLocal initialisations, fixed pool of 10", "10", Table.count(poolInits), "10")
			.row("ThreadLocal initialisations, virtual", "1,000", Table.count(virtualInits), "1 per task: no reuse")
			.note("A ThreadLocal caching an expensive object is reused by a pool's 10 threads but made anew by each of 1,000 virtual threads.")
			.build();
	}

	static int threadLocalInits(ExecutorService executor, int tasks) {
		AtomicInteger inits = new AtomicInteger();
		ThreadLocal<StringBuilder> expensive = ThreadLocal.withInitial(() -> {
			inits.incrementAndGet();
			return new StringBuilder(4096);
		});
		try (executor) {
			for (int i = 0; i < tasks; i++) {
				executor.submit(() -> expensive.get().setLength(0));
			}
		}
		return inits.get();
	}

	// 1,000,000 events through a queue-fed dispatcher: fixed pool of 7,500 vs virtual, tasks sleep 50-299 ms.
	static Table dispatch(Sizes sizes) throws Exception {
		int events = sizes.events();
		int poolSize = sizes.capPlatform(7_500);
		Run pool = measure(() -> dispatch(Executors.newFixedThreadPool(poolSize), events));
		Run virtual = measure(() -> dispatch(Executors.newVirtualThreadPerTaskExecutor(), events));
		return Table.of("dispatch", Table.count(events) + " queued events, each task sleeping 50-299 ms", BASIC)
			.row("fixed pool of " + Table.count(poolSize), "148 s (1,000,000 events)", Table.ms(pool.millis()),
					Table.ms(events * 174.5 / poolSize))
			.row("virtual thread per event", "5 s (1,000,000 events)", Table.ms(virtual.millis()), "~300 ms + dispatch")
			.row("peak native threads, fixed pool / virtual", "-", Table.count(pool.peakThreads()) + " / " + Table.count(virtual.peakThreads()), "-")
			.note("Sleeps come from a seeded Random (50-299 ms, mean 174.5 ms): both runs sleep the same amounts.")
			.build();
	}

	static void dispatch(ExecutorService executor, int events) throws Exception {
		BlockingQueue<Integer> queue = new LinkedBlockingQueue<>();
		Random random = new Random(42);
		for (int i = 0; i < events; i++) {
			queue.add(50 + random.nextInt(250));
		}
		try (executor) {
			for (Integer sleep = queue.poll(); sleep != null; sleep = queue.poll()) {
				int millis = sleep;
				executor.submit(() -> {
					Thread.sleep(millis);
					return null;
				});
			}
		}
	}

	// Structured concurrency: one subtask fails, its sibling is cancelled, the scope returns at once.
	static Table structured(Sizes sizes) throws Exception {
		AtomicBoolean siblingInterrupted = new AtomicBoolean();
		long start = System.nanoTime();
		String outcome;
		try (var scope = StructuredTaskScope.open()) {
			scope.fork(() -> {
				Thread.sleep(100);
				throw new IllegalStateException("user service down");
			});
			scope.fork(() -> {
				try {
					Thread.sleep(1_000);
					return "order";
				}
				catch (InterruptedException ex) {
					siblingInterrupted.set(true);
					throw ex;
				}
			});
			scope.join();
			outcome = "both succeeded";
		}
		catch (StructuredTaskScope.FailedException ex) {
			outcome = "failed: " + ex.getCause().getMessage();
		}
		double millis = (System.nanoTime() - start) / 1e6;
		return Table.of("structured", "StructuredTaskScope.open(): a failing subtask cancels its sibling", HECK + ", JDK 25 preview API")
			.row("time until the scope returns", "~ the failing subtask's time", Table.ms(millis), "100 ms (not 1,000)")
			.row("outcome", "-", outcome, "failed: user service down")
			.row("sibling cancelled (interrupted)", "yes", siblingInterrupted.get() ? "yes" : "no", "yes")
			.build();
	}

	// Pinning: blocking inside synchronized (pins on JDK 21, not on 24+) and inside a native frame (pins always).
	static Table pinning(Sizes sizes, String otherJdkLine) throws Exception {
		int synchronizedEvents = countPinned(() -> {
			Object monitor = new Object();
			synchronized (monitor) {
				Thread.sleep(50);
			}
		});
		int nativeEvents = countPinned(Experiments::sleepInsideNativeFrame);
		var table = Table.of("pinning", "Pinned virtual threads, counted by JFR jdk.VirtualThreadPinned", "Filichkin; " + HECK)
			.row("blocking in synchronized, JDK " + Runtime.version().feature(), "pins on JDK 21",
					Table.count(synchronizedEvents) + " events", (Runtime.version().feature() >= 24) ? "0 (JEP 491)" : "1 per block")
			.row("blocking inside a native frame (FFM upcall from qsort)", "pins", Table.count(nativeEvents) + " events", "1 per block");
		if (otherJdkLine != null) {
			table.row("blocking in synchronized, --java-home", "pins on JDK 21", otherJdkLine, "1 per block on JDK 21");
		}
		return table.note("Each case blocks 4 virtual threads once for 50 ms; -Djdk.tracePinnedThreads is gone since JDK 24, JFR is the way.")
			.build();
	}

	static int countPinned(ThrowingRunnable block) throws Exception {
		AtomicInteger pinned = new AtomicInteger();
		try (RecordingStream events = new RecordingStream()) {
			events.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO);
			events.onEvent("jdk.VirtualThreadPinned", event -> pinned.incrementAndGet());
			events.startAsync();
			List<Thread> threads = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				threads.add(Thread.ofVirtual().start(() -> {
					try {
						block.run();
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}));
			}
			for (Thread thread : threads) {
				thread.join();
			}
			events.stop();
		}
		return pinned.get();
	}

	/** qsort with a Java comparator that sleeps: the virtual thread blocks with a native frame on its stack. */
	static void sleepInsideNativeFrame() throws Exception {
		try {
			qsortWithSlowComparator();
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void qsortWithSlowComparator() throws Throwable {
		Linker linker = Linker.nativeLinker();
		MethodHandle qsort = linker.downcallHandle(linker.defaultLookup().find("qsort").orElseThrow(),
				FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
		MethodHandle compare = MethodHandles.lookup().findStatic(Experiments.class, "compareSlowly",
				MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
		FunctionDescriptor comparator = FunctionDescriptor.of(ValueLayout.JAVA_INT,
				ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT), ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT));
		try (Arena arena = Arena.ofConfined()) {
			MemorySegment numbers = arena.allocateFrom(ValueLayout.JAVA_INT, 2, 1);
			qsort.invokeExact(numbers, 2L, 4L, linker.upcallStub(compare, comparator, arena));
		}
	}

	static int compareSlowly(MemorySegment a, MemorySegment b) {
		try {
			Thread.sleep(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return Integer.compare(a.get(ValueLayout.JAVA_INT, 0), b.get(ValueLayout.JAVA_INT, 0));
	}

	static String percent(double ratio) {
		return String.format(java.util.Locale.ROOT, "%.0f%%", 100 * ratio);
	}

	static String mib(long bytes) {
		return String.format(java.util.Locale.ROOT, "%,.0f MiB", bytes / 1048576.0);
	}

	static String kib(double bytes) {
		return String.format(java.util.Locale.ROOT, "%,.1f KiB", bytes / 1024.0);
	}

	/** Every experiment by id, in the order {@code all} runs them. */
	static List<String> ids() {
		return List.of("sleep", "tasks", "ceiling", "waiting", "semaphore", "dispatch", "structured", "pinning");
	}

}
