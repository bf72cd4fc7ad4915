package lab.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Reads what the simulation wrote into a level's directory. */
public final class LoadFiles {

	public static final String WINDOW = "load-window.csv";

	public static final String LATENCY = "latency.hlog";

	public static final String REQUESTS = "requests.csv";

	public static final String COMPLETIONS = "completions.csv";

	private static final String INJECTOR = "injector";

	private LoadFiles() {
	}

	/** Where injector {@code number} (from 1) writes when several load a level: {@code injector-<n>/}. */
	public static Path injectorDir(Path level, int number) {
		return level.resolve(INJECTOR + "-" + number);
	}

	/** The injectors' directories of a level: {@code injector-<n>/} in order when several loaded it, else the level's own. */
	public static List<Path> injectorDirs(Path level) throws IOException {
		try (Stream<Path> children = Files.list(level)) {
			List<Path> parts = children.filter(Files::isDirectory)
				.filter(child -> child.getFileName().toString().matches(INJECTOR + "-\\d+"))
				.sorted(Comparator.comparingInt(child -> Integer.parseInt(child.getFileName().toString().substring(INJECTOR.length() + 1))))
				.toList();
			return parts.isEmpty() ? List.of(level) : parts;
		}
	}

	/**
	 * The source name a local injector's CPU is sampled under in {@code metrics.csv}: {@code injector} when it wrote
	 * into the level's own directory, else its directory's name. The runner and the analysis both use this.
	 */
	public static String injectorSource(Path level, Path part) {
		return part.equals(level) ? INJECTOR : level.relativize(part).toString();
	}

	public static LoadWindow window(Path dir) throws IOException {
		Path file = dir.resolve(WINDOW);
		if (!Files.isRegularFile(file)) {
			return null;
		}
		List<String> lines = Files.readAllLines(file);
		String[] fields = lines.get(1).split(",");
		return new LoadWindow(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
	}

}
