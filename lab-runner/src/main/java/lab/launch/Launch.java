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
