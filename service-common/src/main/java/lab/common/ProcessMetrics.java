package lab.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Process facts the JVM's own meters lack, read from {@code /proc}: RSS, native threads, context switches and
 * CPU split into user and kernel time. Context switches are summed over every thread ({@link ContextSwitches}) and
 * the JIT's compiler threads' CPU counted ({@link JitThreads}), unless {@code threadWalk} is off: the lab's runner then
 * walks the threads from outside the measured process.
 */
public class ProcessMetrics implements MeterBinder {

	/** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every mainstream architecture. */
	private static final double TICKS_PER_SECOND = 100.0;

	private final Path proc;

	private final ContextSwitches switches;

	private final JitThreads compilers;

	/** Whether the context-switch counters walk every thread at each scrape (off when the runner walks them). */
	private final boolean threadWalk;

	public ProcessMetrics() {
		this(Path.of("/proc/self"), true);
	}

	public ProcessMetrics(boolean threadWalk) {
		this(Path.of("/proc/self"), threadWalk);
	}

	ProcessMetrics(Path proc) {
		this(proc, true);
	}

	ProcessMetrics(Path proc, boolean threadWalk) {
		this.proc = proc;
		this.switches = new ContextSwitches(proc);
		this.compilers = new JitThreads(proc.resolve("task"));
		this.threadWalk = threadWalk;
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
		if (this.threadWalk) {
			FunctionCounter.builder("process.context.switches.voluntary", this, m -> m.contextSwitches()[0])
				.description("Voluntary context switches summed over all threads")
				.register(registry);
			FunctionCounter.builder("process.context.switches.involuntary", this, m -> m.contextSwitches()[1])
				.description("Involuntary context switches summed over all threads")
				.register(registry);
			// What "not warm" judges: the JVM's jvm.compilation.time adds up compilations' elapsed time, which in a CPU-limited
			// container runs on while the compiler thread waits for its quota.
			FunctionCounter.builder("process.jit.cpu", this.compilers, JitThreads::cpuSeconds)
				.baseUnit("seconds")
				.description("CPU time of the JIT's compiler threads (C1/C2 CompilerThread*), user and kernel")
				.register(registry);
		}
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
		return ContextSwitches.statusField(this.proc.resolve("status"), "VmRSS:") * 1024.0;
	}

	double nativeThreads() {
		return ContextSwitches.statusField(this.proc.resolve("status"), "Threads:");
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

	long[] contextSwitches() {
		return this.switches.read();
	}

}
