package lab.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import lab.layout.LevelDir;

/** Reads what the simulation wrote into a level's directory. */
public final class LoadFiles {

	private static final String INJECTOR = "injector";

	private LoadFiles() {
	}

	/** Where injector {@code number} (from 1) writes when several load a level: {@code injector-<n>/}. */
	public static Path injectorDir(Path level, int number) {
		return level.resolve(LevelDir.injector(number));
	}

	/** The injectors' directories of a level: {@code injector-<n>/} in order when several loaded it, else the level's own. */
	public static List<Path> injectorDirs(Path level) throws IOException {
		try (Stream<Path> children = Files.list(level)) {
			List<Path> parts = children.filter(Files::isDirectory)
				.filter(child -> LevelDir.injectorNumber(child.getFileName().toString()) > 0)
				.sorted(Comparator.comparingInt(child -> LevelDir.injectorNumber(child.getFileName().toString())))
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
		return read(dir.resolve(LevelDir.LOAD_WINDOW));
	}

	/**
	 * A level's or a warm-up's window over all its injectors ({@link #injectorDirs}): its own with one injector, else the
	 * merge of theirs ({@link #merged}); null when one of them wrote none.
	 */
	public static LoadWindow levelWindow(Path level) throws IOException {
		if (!Files.isDirectory(level)) {
			return null;
		}
		List<LoadWindow> windows = new ArrayList<>();
		for (Path part : injectorDirs(level)) {
			windows.add(window(part));
		}
		return merged(windows);
	}

	/**
	 * The window every injector was loading in: from the first start, steady from the last steady start, to the first
	 * end; null when one of them wrote none or they never overlapped.
	 */
	public static LoadWindow merged(List<LoadWindow> windows) {
		LoadWindow merged = null;
		for (LoadWindow window : windows) {
			if (window == null) {
				return null;
			}
			merged = (merged == null) ? window : new LoadWindow(Math.min(merged.start(), window.start()),
					Math.max(merged.steadyStart(), window.steadyStart()), Math.min(merged.end(), window.end()));
		}
		return (merged != null && merged.end() > merged.steadyStart()) ? merged : null;
	}

	/** The planned window of a level's first injector that has written one yet, else null. */
	public static LoadWindow plan(Path level) throws IOException {
		if (!Files.isDirectory(level)) {
			return null;
		}
		for (Path part : injectorDirs(level)) {
			LoadWindow plan = read(part.resolve(LevelDir.LOAD_PLAN));
			if (plan != null) {
				return plan;
			}
		}
		return null;
	}

	/**
	 * Answers per wall-clock second ({@code completions.csv}: responses with any status), summed over the level's
	 * injectors, keyed by the second the row was stamped in (ms, rounded down); a second no injector wrote is absent.
	 */
	public static TreeMap<Long, Long> answeredPerSecond(Path level) throws IOException {
		List<List<long[]>> parts = new ArrayList<>();
		if (Files.isDirectory(level)) {
			for (Path part : injectorDirs(level)) {
				parts.add(completions(part.resolve(LevelDir.COMPLETIONS)));
			}
		}
		return answeredPerSecond(parts);
	}

	/** The same from the injectors' {@code completions.csv} rows, already read ({@link #completions}). */
	public static TreeMap<Long, Long> answeredPerSecond(List<List<long[]>> parts) {
		TreeMap<Long, Long> answered = new TreeMap<>();
		for (List<long[]> rows : parts) {
			for (long[] row : rows) {
				answered.merge(row[0] / 1000 * 1000, row[1], Long::sum);
			}
		}
		return answered;
	}

	/**
	 * One injector's {@code completions.csv}: per wall-clock second its stamp (ms) and answers, no rows when it is
	 * missing; a line cut short by an interrupted run is skipped.
	 */
	public static List<long[]> completions(Path csv) throws IOException {
		List<long[]> rows = new ArrayList<>();
		if (!Files.isRegularFile(csv)) {
			return rows;
		}
		List<String> lines = Files.readAllLines(csv);
		for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
			String[] f = line.split(",");
			try {
				rows.add(new long[] { Long.parseLong(f[0]), Long.parseLong(f[1]) });
			}
			catch (RuntimeException ex) {
				// a line cut short by an interrupted run: skipped
			}
		}
		return rows;
	}

	private static LoadWindow read(Path file) throws IOException {
		if (!Files.isRegularFile(file)) {
			return null;
		}
		List<String> lines = Files.readAllLines(file);
		if (lines.size() < 2) {
			return null; // being written
		}
		String[] fields = lines.get(1).split(",");
		if (fields.length < 3) {
			return null;
		}
		return new LoadWindow(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
	}

}
