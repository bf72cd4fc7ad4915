package lab.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the command line of a child process: soft descriptor limit raised to the hard one (a proxy holds two per
 * user), optionally pinned to CPUs with taskset. {@code exec} keeps the PID the JVM's own.
 */
public final class Launch {

	private Launch() {
	}

	/** Ports handed out by this JVM: a port freed again before its child binds it is not handed out twice. */
	private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

	/** Where ports are drawn when the kernel's ephemeral range is unknown: Linux's default is 32768-60999. */
	private static final int LOWEST = 10_000;

	/**
	 * A port free now for a child that takes its port as a setting. Drawn below the kernel's ephemeral range, where no
	 * outgoing connection takes it in the minutes before the child binds it (a port from {@code new ServerSocket(0)} is
	 * an ephemeral one: a Compose test's port, chosen at its start, was taken by a client connection before the last
	 * container bound it). Free means bindable on the loopback and on every address; never the same port twice.
	 */
	public static int freePort() throws IOException {
		int highest = ephemeralLow() - 1;
		java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
		for (int attempt = 0; attempt < 200 && highest - LOWEST >= 1_000; attempt++) {
			int port = random.nextInt(LOWEST, highest + 1);
			if (bindable(port) && HANDED_OUT.add(port)) {
				return port;
			}
		}
		// No room below the ephemeral range: the kernel's choice, with the race the comment above names.
		for (int attempt = 0; attempt < 20; attempt++) {
			try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
				if (HANDED_OUT.add(socket.getLocalPort())) {
					return socket.getLocalPort();
				}
			}
		}
		throw new IOException("no free port found on this host");
	}

	/** The lowest port of the kernel's ephemeral range ({@code ip_local_port_range}), 32768 where it cannot be read. */
	static int ephemeralLow() {
		try {
			// Read as lines: Files.readString returns this sysctl file's first byte only (JDK 25).
			String range = java.nio.file.Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
			return Integer.parseInt(range.split("\\s+")[0]);
		}
		catch (IOException | RuntimeException unreadable) {
			return 32_768;
		}
	}

	private static boolean bindable(int port) {
		for (java.net.InetAddress address : new java.net.InetAddress[] { java.net.InetAddress.getLoopbackAddress(), null }) {
			try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
				socket.setReuseAddress(false);
				socket.bind(new java.net.InetSocketAddress(address, port), 1);
			}
			catch (IOException taken) {
				return false;
			}
		}
		return true;
	}

	public static Process start(List<String> command, String cpus, Path log) throws IOException {
		List<String> full = new ArrayList<>(List.of("bash", "-c", "ulimit -S -n \"$(ulimit -H -n)\" && exec \"$@\"", "lab-launch"));
		if (cpus != null) {
			full.addAll(List.of("taskset", "-c", cpus));
		}
		full.addAll(command);
		ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true);
		builder.redirectOutput((log != null) ? ProcessBuilder.Redirect.appendTo(log.toFile()) : ProcessBuilder.Redirect.PIPE);
		return Children.register(builder.start());
	}

}
