package lab.analyse.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.layout.LevelDir;
import lab.load.LoadWindow;

/**
 * What a level's CPU figures average away, read from outside the service (nothing of its own meters):
 * <ul>
 * <li>its CPU in 100 ms slices ({@link LevelDir#CPU_SLICES}): a core busy 50% on average can be half busy throughout,
 * or saturated half the time and idle the other half, which is what closed users phase-locked on a fixed downstream
 * delay make (a wave of requests arrives, queues for the core, goes to the downstream together, and comes back
 * together). A slice counts as saturated at 90% of the service's cores or more, idle at 10% or less; {@code /proc}
 * counts CPU in 10 ms ticks, so a 100 ms slice is read to ±10%.</li>
 * <li>its threads' time runnable but not running ({@link LevelDir#THREAD_SCHEDSTAT}: {@code /proc/<pid>/task/<tid>/schedstat}
 * at the steady window's start and end, grouped by name with the numbers taken out): the OS run queue of its pinned
 * core. A carrier or an event loop that waits there was ready while something else of the process (or another process)
 * had the core; a request queued on a carrier that is itself running other virtual threads is not in it.</li>
 * </ul>
 *
 * @param cpuSamples the service's CPU read every 100 ms in the window: how many reads (0: not sampled); not the
 * scheduler's time slices of {@link Threads#schedulerSlices}
 * @param saturatedPercent share of those slices with the service at 90% of its cores or more
 * @param idlePercent share with it at 10% or less
 * @param windowSeconds the steady window's length
 * @param groups the threads by name, busiest first (empty: not sampled)
 */
public record OffCpu(int cpuSamples, double saturatedPercent, double idlePercent, double windowSeconds, List<Threads> groups) {

	public static final OffCpu NONE = new OffCpu(0, Double.NaN, Double.NaN, Double.NaN, List.of());

	/** A slice's share of the service's cores at or above which it counts as saturated. */
	public static final double SATURATED = 0.9;

	/** At or below which it counts as idle. */
	public static final double IDLE = 0.1;

	/**
	 * Threads of one name over the window.
	 *
	 * @param name the thread name with its numbers as {@code #} ({@code ForkJoinPool-#-}: the kernel keeps 15 characters)
	 * @param threads how many threads of that name ran in the window
	 * @param cpuMs their time on a CPU
	 * @param runQueueMs their time runnable, waiting for a CPU
	 * @param schedulerSlices their time slices on a CPU as the scheduler counts them (each a wake-up or a preemption)
	 */
	public record Threads(String name, int threads, double cpuMs, double runQueueMs, long schedulerSlices) {

		/** The mean wait for a CPU per time slice, ms. */
		public double waitPerSliceMs() {
			return (this.schedulerSlices > 0) ? this.runQueueMs / this.schedulerSlices : Double.NaN;
		}

	}

	/** The service's threads' run-queue wait per second of window, ms (NaN: not sampled). */
	public double runQueueMsPerSecond() {
		if (this.groups.isEmpty() || !(this.windowSeconds > 0)) {
			return Double.NaN;
		}
		return this.groups.stream().mapToDouble(Threads::runQueueMs).sum() / this.windowSeconds;
	}

	/** Reads both files of a level for its window; {@code cores} is how many CPUs the service had. */
	public static OffCpu read(Path dir, LoadWindow window, int cores) throws IOException {
		if (window == null) {
			return NONE;
		}
		double[] shares = sliceShares(rows(dir.resolve(LevelDir.CPU_SLICES)), window, Math.max(1, cores));
		List<Threads> groups = threads(dir.resolve(LevelDir.THREAD_SCHEDSTAT));
		int n = shares.length;
		int saturated = 0;
		int idle = 0;
		for (double share : shares) {
			saturated += (share >= SATURATED) ? 1 : 0;
			idle += (share <= IDLE) ? 1 : 0;
		}
		return new OffCpu(n, (n > 0) ? 100.0 * saturated / n : Double.NaN, (n > 0) ? 100.0 * idle / n : Double.NaN, window.steadySeconds(),
				groups);
	}

	/** Each slice's CPU as a share of the service's cores: slices whose both ends lie in the window. */
	static double[] sliceShares(List<String[]> rows, LoadWindow window, int cores) {
		List<Double> shares = new ArrayList<>();
		long lastMs = -1;
		double lastSeconds = 0;
		for (String[] row : rows) {
			long ms;
			double seconds;
			try {
				ms = Long.parseLong(row[0]);
				seconds = Double.parseDouble(row[1]);
			}
			catch (NumberFormatException | ArrayIndexOutOfBoundsException ex) {
				continue;
			}
			if (lastMs >= 0 && window.contains(lastMs) && window.contains(ms) && ms > lastMs && seconds >= lastSeconds) {
				shares.add((seconds - lastSeconds) * 1000 / (ms - lastMs) / cores);
			}
			lastMs = ms;
			lastSeconds = seconds;
		}
		return shares.stream().mapToDouble(Double::doubleValue).toArray();
	}

	/**
	 * The rows of {@code thread-schedstat.csv} ({@code moment,epoch_ms,tid,name,run_ns,wait_ns,slices}, moment
	 * {@code start} or {@code end}) as groups: each thread's end less its start (a thread born in the window counts from
	 * zero; one gone before its end is not counted), summed by name.
	 */
	static List<Threads> threads(List<String[]> rows) {
		Map<String, long[]> start = new HashMap<>();
		Map<String, String> names = new HashMap<>();
		Map<String, long[]> end = new LinkedHashMap<>();
		for (String[] row : rows) {
			if (row.length != 7) {
				continue;
			}
			long[] values;
			try {
				values = new long[] { Long.parseLong(row[4]), Long.parseLong(row[5]), Long.parseLong(row[6]) };
			}
			catch (NumberFormatException ex) {
				continue;
			}
			if (row[0].equals("start")) {
				start.put(row[2], values);
			}
			else if (row[0].equals("end")) {
				end.put(row[2], values);
				names.put(row[2], row[3]);
			}
		}
		Map<String, double[]> byName = new LinkedHashMap<>();
		for (Map.Entry<String, long[]> thread : end.entrySet()) {
			long[] from = start.getOrDefault(thread.getKey(), new long[3]);
			long[] to = thread.getValue();
			if (to[0] - from[0] <= 0 && to[2] - from[2] <= 0) {
				continue;
			}
			double[] sum = byName.computeIfAbsent(names.get(thread.getKey()).replaceAll("\\d+", "#"), name -> new double[4]);
			sum[0]++;
			sum[1] += (to[0] - from[0]) / 1e6;
			sum[2] += (to[1] - from[1]) / 1e6;
			sum[3] += to[2] - from[2];
		}
		List<Threads> groups = new ArrayList<>();
		byName.forEach((name, sum) -> groups.add(new Threads(name, (int) sum[0], sum[1], sum[2], (long) sum[3])));
		groups.sort(Comparator.comparingDouble(Threads::cpuMs).reversed());
		return List.copyOf(groups);
	}

	static List<Threads> threads(Path csv) throws IOException {
		return threads(rows(csv));
	}

	private static List<String[]> rows(Path csv) throws IOException {
		if (!Files.isRegularFile(csv)) {
			return List.of();
		}
		List<String> lines = Files.readAllLines(csv);
		return lines.subList(Math.min(1, lines.size()), lines.size()).stream().map(line -> line.split(",", -1)).toList();
	}

}
