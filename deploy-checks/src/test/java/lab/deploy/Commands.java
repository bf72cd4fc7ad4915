package lab.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** What the deployment tests do with commands, ports and scratch directories. */
final class Commands {

	private Commands() {
	}

	/** A command's exit code (-1: stopped at its timeout) and output. */
	record Result(int exit, String output) {

		@Override
		public String toString() {
			return "exit " + this.exit + ":\n" + this.output;
		}

	}

	/**
	 * Runs {@code command} with {@code env} added, in a scratch file under {@code dir}, stopped at {@code timeout};
	 * the command and everything it printed are appended to {@code log}.
	 */
	static Result run(List<String> command, Map<String, String> env, Path dir, Path log, Duration timeout) throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().putAll(env);
		Path output = Files.createTempFile(dir, "command", ".out");
		Process process = builder.redirectOutput(output.toFile()).start();
		boolean ended = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
		if (!ended) {
			process.destroy();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
		}
		String text = Files.readString(output);
		Files.delete(output);
		Files.writeString(log, "$ " + String.join(" ", command) + "\n" + text + "\n(exit " + (ended ? process.exitValue() : "timeout") + ")\n\n",
				StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		return new Result(ended ? process.exitValue() : -1, text);
	}

	static boolean onPath(String command) {
		return Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
	}

	/** A port below the kernel's ephemeral range: see {@link lab.launch.Launch#freePort()}. */
	static int freePort() throws IOException {
		return lab.launch.Launch.freePort();
	}

	/** Copies the files under {@code from} that {@code copied} accepts (by their path under it) to the same places under {@code to}. */
	static void copyTree(Path from, Path to, Predicate<Path> copied) throws IOException {
		try (Stream<Path> files = Files.walk(from)) {
			for (Path file : files.filter(Files::isRegularFile).toList()) {
				Path relative = from.relativize(file);
				if (copied.test(relative)) {
					Files.createDirectories(to.resolve(relative).getParent());
					Files.copy(file, to.resolve(relative), StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
	}

	static void deleteTree(Path dir) throws IOException {
		if (Files.exists(dir)) {
			try (Stream<Path> paths = Files.walk(dir)) {
				for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
					Files.delete(path);
				}
			}
		}
	}

	/** The last line that is not blank: what the lab's scripts print for a caller to read. */
	static String lastLine(String text) {
		List<String> lines = text.lines().filter(line -> !line.isBlank()).toList();
		return lines.get(lines.size() - 1).trim();
	}

}
