package lab.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which arms of a tune study share the machine at once. Each arm needs the heap its JVM may grow to (its options read as
 * the JVM reads them: the last {@code -Xmx} or {@code -XX:MaxHeapSize}, else {@code -XX:MaxRAMPercentage} (25 by
 * default) of {@code -XX:MaxRAM} or of the box) and {@value #NON_HEAP_MIB} MiB beyond it (metaspace, code cache,
 * stacks, buffers). Arms are taken in their order and put in the first turn with room (first fit); an arm that alone
 * exceeds the budget gets a turn of its own. Within a turn the arms are searched interleaved, round by round; across
 * turns they are compared by their intervals.
 */
public final class Turns {

	/** What a JVM takes beyond its heap, counted for every arm. */
	public static final long NON_HEAP_MIB = 256;

	private Turns() {
	}

	/** The arms in turns, each turn's needs summed within {@code budgetBytes}; one turn when all fit. */
	public static List<List<String>> of(List<String> arms, Map<String, Long> needBytes, long budgetBytes) {
		List<List<String>> turns = new ArrayList<>();
		List<Long> used = new ArrayList<>();
		for (String arm : arms) {
			long need = needBytes.getOrDefault(arm, 0L);
			int turn = 0;
			while (turn < turns.size() && used.get(turn) + need > budgetBytes) {
				turn++;
			}
			if (turn == turns.size()) {
				turns.add(new ArrayList<>());
				used.add(0L);
			}
			turns.get(turn).add(arm);
			used.set(turn, used.get(turn) + need);
		}
		return turns.stream().map(List::copyOf).toList();
	}

	/**
	 * A study's memory: each arm's need, the memory available when asked, what the run keeps for itself, the turns.
	 */
	public record Plan(Map<String, Long> needs, long available, long reserve, List<List<String>> turns) {

		public long budget() {
			return this.available - this.reserve;
		}

		public long total() {
			return this.needs.values().stream().mapToLong(Long::longValue).sum();
		}

	}

	/**
	 * The arms in turns by their JVM options (null: not started here, no need), against the memory available now; empty
	 * when the machine's memory cannot be read (the arms then run at once).
	 */
	public static java.util.Optional<Plan> plan(Map<String, List<String>> optionsByArm) {
		long ram = memInfoBytes("MemTotal:");
		long available = memInfoBytes("MemAvailable:");
		if (ram <= 0 || available <= 0) {
			return java.util.Optional.empty();
		}
		Map<String, Long> needs = new java.util.LinkedHashMap<>();
		optionsByArm.forEach((arm, options) -> needs.put(arm, (options == null) ? 0L : needBytes(options, ram)));
		long reserve = reserveBytes(ram);
		return java.util.Optional.of(new Plan(needs, available, reserve, of(List.copyOf(needs.keySet()), needs, available - reserve)));
	}

	/** What a JVM started with these options needs at most: its heap's ceiling and {@value #NON_HEAP_MIB} MiB, in bytes. */
	public static long needBytes(List<String> jvmOptions, long ramBytes) {
		return heapCeiling(jvmOptions, ramBytes) + NON_HEAP_MIB * 1024 * 1024;
	}

	/** The heap a JVM started with these options may grow to, as it computes it (the last of each option counts). */
	public static long heapCeiling(List<String> jvmOptions, long ramBytes) {
		long xmx = -1;
		long maxRam = ramBytes;
		double percent = 25;
		for (String option : jvmOptions) {
			if (option.startsWith("-Xmx")) {
				xmx = bytes(option.substring(4));
			}
			else if (option.startsWith("-XX:MaxHeapSize=")) {
				xmx = bytes(option.substring("-XX:MaxHeapSize=".length()));
			}
			else if (option.startsWith("-XX:MaxRAM=")) {
				long value = bytes(option.substring("-XX:MaxRAM=".length()));
				maxRam = (value > 0) ? Math.min(value, ramBytes) : maxRam;
			}
			else if (option.startsWith("-XX:MaxRAMPercentage=")) {
				try {
					percent = Double.parseDouble(option.substring("-XX:MaxRAMPercentage=".length()));
				}
				catch (NumberFormatException ex) {
					// Not a number: the JVM refuses to start with it, and the arm is recorded as not started.
				}
			}
		}
		return (xmx > 0) ? xmx : (long) (maxRam * percent / 100);
	}

	/**
	 * What the machine keeps for the rest of the run, not for the arms: the injector's heap ceiling (Gatling's JVM), the
	 * downstream's, and 1 GiB for the system.
	 */
	public static long reserveBytes(long ramBytes) {
		return heapCeiling(HarnessFlags.INJECTOR, ramBytes) + heapCeiling(HarnessFlags.DOWNSTREAM, ramBytes) + (1L << 30);
	}

	/** A /proc/meminfo figure ({@code MemTotal:}, {@code MemAvailable:}) in bytes; -1 when it cannot be read (not Linux). */
	public static long memInfoBytes(String key) {
		try {
			for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/meminfo"))) {
				if (line.startsWith(key)) {
					return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]) * 1024;
				}
			}
		}
		catch (java.io.IOException | RuntimeException ex) {
			// Not Linux: the caller runs every arm at once, as without this check.
		}
		return -1;
	}

	private static long bytes(String size) {
		return Axes.bytes(size);
	}

}
