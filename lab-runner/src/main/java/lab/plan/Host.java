package lab.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts of this machine the plan depends on, read from /proc. */
public record Host(int cores, long nofileSoft, long nofileHard, String portRange, int somaxconn) {

	/** Descriptors a proxy holds besides its connections: jars, logs, epoll, pipes. */
	public static final int BASE_DESCRIPTORS = 200;

	public static Host read() {
		long soft = -1;
		long hard = -1;
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
				if (line.startsWith("Max open files")) {
					String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
					soft = parseLimit(fields[0]);
					hard = parseLimit(fields[1]);
				}
			}
		}
		catch (IOException ex) {
			// not Linux: the checks that need these report them unknown
		}
		return new Host(Runtime.getRuntime().availableProcessors(), soft, hard,
				read("/proc/sys/net/ipv4/ip_local_port_range").replace('\t', ' '),
				(int) parseLimit(read("/proc/sys/net/core/somaxconn")));
	}

	/** The most concurrent users a proxy can hold: about two descriptors each (inbound and outbound connection). */
	public int maxUsers() {
		return (this.nofileHard < 0) ? Integer.MAX_VALUE : (int) Math.max(1, (this.nofileHard - BASE_DESCRIPTORS) / 2);
	}

	private static long parseLimit(String value) {
		try {
			return "unlimited".equals(value) ? Long.MAX_VALUE : Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private static String read(String file) {
		try {
			// readAllLines, not readString: /proc/sys files report size 0 and readString returns only their first byte.
			return String.join(" ", Files.readAllLines(Path.of(file))).trim();
		}
		catch (IOException ex) {
			return "";
		}
	}

}
