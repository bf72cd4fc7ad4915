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

	/** A port free on the loopback now, for a child that takes its port as a setting (a race with others is possible, rare). */
	public static int freePort() throws IOException {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
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
