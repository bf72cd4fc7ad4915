package lab;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import lab.layout.LevelDir;
import lab.layout.ProgressLine;
import lab.layout.RunDir;
import lab.layout.ServiceDir;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The results directory has one owner, the {@code lab-layout} module: no other module's code spells one of its
 * file or directory names, or the progress line, as a string literal (comments may name them).
 */
class ResultsLayoutTests {

	private static Path root() {
		return Path.of(System.getProperty("lab.root", "..")).toAbsolutePath().normalize();
	}

	@Test
	void noStageSpellsAnotherStagesFileNames() throws Exception {
		Set<String> names = new LinkedHashSet<>();
		for (Class<?> owner : List.of(RunDir.class, ServiceDir.class, LevelDir.class)) {
			for (Field field : owner.getFields()) {
				if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
					names.add((String) field.get(null));
				}
			}
		}
		names.add(new ProgressLine(0, 0).format().split(" ")[0]);
		assertThat(names).contains("level.json", "latency.hlog", "manifest.json", "LAB-PROGRESS").hasSizeGreaterThan(40);
		List<String> found = new ArrayList<>();
		forEachCodeLine((where, line) -> {
			for (String name : names) {
				if (line.contains("\"" + name + "\"") || line.matches(".*\"(users|rate|repeat|injector)-\".*")) {
					found.add(where + ": " + line);
				}
			}
		});
		assertThat(found).as("file names of the results directory spelled outside lab-layout").isEmpty();
	}

	/**
	 * Names of files that are not the results directory's: the build's, the repository's, the tools' own scratch files.
	 * A literal of this shape elsewhere must be added to lab-layout, or here with its reason.
	 */
	static final Set<String> NOT_RESULTS = Set.of(
			"gatling/target/classpath.txt", // the build's: Gatling's classpath, written by Maven
			"prometheus/prometheus.yml", "docker-compose.yml", "README.md", "/variants.yml", // the repository's files
			"/capacity-shipped.json", "/capacity-variance.json", // resources of the runner's jar
			"pip.log", "extract.log", // the JDK installer's and the AOT cache's scratch logs, outside any results directory
			".json", ".yml", ".yaml"); // suffixes, not names

	@Test
	void noFileNameShapedLiteralLivesOutsideLabLayoutUnlessItIsNotAResultsFile() throws Exception {
		// A scan of the sources for any string literal shaped like a file name, not only for names lab-layout already holds:
		// a new results file spelled in place is found here before anyone reads it back by another spelling.
		java.util.regex.Pattern literal = java.util.regex.Pattern.compile(
				"\"([A-Za-z0-9_./<>{}-]*\\.(json|csv|hlog|log|txt|md|html|jfr|svg|tsv|collapsed|hprof|png|yml|yaml))\"");
		List<String> found = new ArrayList<>();
		forEachCodeLine((where, line) -> {
			java.util.regex.Matcher m = literal.matcher(line);
			while (m.find()) {
				if (!NOT_RESULTS.contains(m.group(1))) {
					found.add(where + ": " + m.group(1));
				}
			}
		});
		assertThat(found).as("file-name literals outside lab-layout: move each into RunDir, ServiceDir or LevelDir, or name why it is not a "
				+ "results file in NOT_RESULTS").isEmpty();
		// The scan itself finds one when it is there.
		assertThat(literal.matcher("Path p = dir.resolve(\"steady-heap.json\");").find()).isTrue();
	}

	/** Every line of code (comments left out) of the modules that read or write results, with its file and line number. */
	private static void forEachCodeLine(java.util.function.BiConsumer<String, String> check) throws IOException {
		for (String module : List.of("gatling", "lab-runner", "service-common", "downstream-delay-service")) {
			for (Path file : javaFiles(root().resolve(module).resolve("src/main/java"))) {
				List<String> lines = Files.readAllLines(file);
				for (int i = 0; i < lines.size(); i++) {
					String line = lines.get(i).strip();
					if (!(line.startsWith("//") || line.startsWith("*") || line.startsWith("/*"))) {
						check.accept(root().relativize(file) + ":" + (i + 1), line);
					}
				}
			}
		}
	}

	private static List<Path> javaFiles(Path dir) throws IOException {
		try (Stream<Path> files = Files.walk(dir)) {
			return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
		}
	}

}
