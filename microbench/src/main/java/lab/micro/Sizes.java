package lab.micro;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How big each experiment is: defaults sized so {@code ./lab micro all} finishes in minutes on 2 cores, and the
 * articles' sizes with {@code --full}. Platform-thread counts are always capped to half of what the host allows
 * ({@code ulimit -u}, {@code kernel.threads-max}, {@code vm.max_map_count} / 2), so no experiment can exhaust it.
 */
record Sizes(boolean full, int sleepTasks, int tasks, int platformCeiling, int virtualCeiling, int waitTasks, int events,
		long platformThreadLimit) {

	static Sizes of(boolean full) {
		long limit = hostThreadLimit();
		return new Sizes(full, full ? 100_000 : 10_000, full ? 100_000 : 10_000, full ? 10_000 : 2_000,
				full ? 1_000_000 : 100_000, 10_000, full ? 1_000_000 : 100_000, limit);
	}

	/** Tiny sizes for the tests. */
	static Sizes tiny() {
		return new Sizes(false, 500, 500, 100, 2_000, 1_000, 2_000, hostThreadLimit());
	}

	/** The most platform threads an experiment may hold at once: half of the host's tightest limit. */
	int capPlatform(int wanted) {
		return (int) Math.min(wanted, this.platformThreadLimit);
	}

	static long hostThreadLimit() {
		long userProcesses = limit("Max processes");
		long threadsMax = number("/proc/sys/kernel/threads-max");
		long maps = number("/proc/sys/vm/max_map_count");
		long tightest = Math.min(Math.min(userProcesses, threadsMax), (maps > 0) ? maps / 2 : Long.MAX_VALUE);
		return Math.max(100, tightest / 2);
	}

	private static long limit(String name) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
				if (line.startsWith(name)) {
					String soft = line.substring(name.length()).trim().split("\\s+")[0];
					return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// unknown: stay small
		}
		return 4_000;
	}

	private static long number(String file) {
		try {
			return Long.parseLong(String.join("", Files.readAllLines(Path.of(file))).trim());
		}
		catch (IOException | RuntimeException ex) {
			return Long.MAX_VALUE;
		}
	}

}
