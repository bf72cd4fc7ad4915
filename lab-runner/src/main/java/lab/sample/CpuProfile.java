package lab.sample;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import lab.layout.LevelDir;

/**
 * {@code ./lab run --profile-cpu}: async-profiler's CPU profile of each level's steady window. Its agent (from the
 * {@code tools.profiler:async-profiler} jar on the runner's class path) is loaded into the service's JVM by
 * {@code jcmd JVMTI.agent_load} when the steady window starts and stopped when it ends, writing the samples as
 * collapsed stacks ({@value LevelDir#PROFILE_STACKS}), drawn as a flame graph ({@value LevelDir#PROFILE_FLAME}).
 * It samples with perf events ({@code event=cpu}) where the kernel lets it and falls back to a CPU-time timer
 * ({@code event=itimer}); the event used is named in the flame graph's title and jcmd's answers are kept in
 * {@value LevelDir#PROFILE_START_LOG} and {@value LevelDir#PROFILE_STOP_LOG}. Unlike JFR's sampler it also sees
 * native and JVM frames (GC, compiler, Netty's epoll), so it answers "where does the CPU go" for the whole process.
 */
public final class CpuProfile {

	/** The events tried in order: perf events' CPU cycles, then the CPU-time interval timer. */
	public static final List<String> EVENTS = List.of("cpu", "itimer");

	/** The sampling interval: 100 samples a second per busy CPU, as JFR's profile settings (10 ms). */
	static final String INTERVAL = "10ms";

	private CpuProfile() {
	}

	/**
	 * The agent's native library for this machine, copied out of the runner's class path into {@code dir}; empty on
	 * a platform async-profiler does not ship for (then the option says so and the run does not start).
	 */
	public static Optional<Path> library(Path dir) throws IOException {
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		String platform = !os.contains("linux") ? null
				: (arch.equals("amd64") || arch.equals("x86_64")) ? "linux-x64" : arch.equals("aarch64") ? "linux-arm64" : null;
		if (platform == null) {
			return Optional.empty();
		}
		try (InputStream in = CpuProfile.class.getResourceAsStream("/" + platform + "/libasyncProfiler.so")) {
			if (in == null) {
				return Optional.empty();
			}
			Files.createDirectories(dir);
			Path library = dir.resolve("libasyncProfiler.so");
			Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
			return Optional.of(library);
		}
	}

	/**
	 * {@code jcmd} arguments that start profiling with {@code event}. jcmd reads {@code name=value} as its own
	 * argument syntax, so the agent's option string is quoted.
	 */
	public static List<String> start(Path library, String event) {
		return List.of("JVMTI.agent_load", library.toAbsolutePath().toString(), "\"start,event=" + event + ",interval=" + INTERVAL + "\"");
	}

	/** {@code jcmd} arguments that stop profiling and write the collapsed stacks into the level's directory. */
	public static List<String> stop(Path library, Path dir) {
		return List.of("JVMTI.agent_load", library.toAbsolutePath().toString(),
				"\"stop,file=" + dir.resolve(LevelDir.PROFILE_STACKS).toAbsolutePath() + ",collapsed\"");
	}

	/** Whether a jcmd answer says the agent accepted the command ({@code return code: 0}). */
	public static boolean accepted(Path answer) throws IOException {
		return Files.isRegularFile(answer) && Files.readString(answer).contains("return code: 0");
	}

	/** Draws the flame graph beside the collapsed stacks; false when there are none. */
	public static boolean draw(Path dir, String event) throws IOException {
		Path stacks = dir.resolve(LevelDir.PROFILE_STACKS);
		if (!Files.isRegularFile(stacks) || Files.size(stacks) == 0) {
			return false;
		}
		Files.writeString(dir.resolve(LevelDir.PROFILE_FLAME), FlameGraph.svg(Files.readAllLines(stacks),
				"CPU samples of the steady window (async-profiler, event=" + event + ")"));
		return true;
	}

}
