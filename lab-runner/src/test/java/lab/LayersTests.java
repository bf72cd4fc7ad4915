package lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner's packages in layers, lowest first: a class uses its own package and those below it, never one above
 * (which is how {@code plan → sample → load → plan} loops start). Read from the sources: imports and qualified names.
 */
class LayersTests {

	/**
	 * Lowest first: the commands ({@code lab}) over the run ({@code lab.run}, which drives the search's scheduler in
	 * {@code lab.run.search}) over the report and the analysis over the statistics every room of it calls
	 * ({@code lab.analyse.stat}: a median, a maximum), over sampling, load and launch, over the plan.
	 */
	static final List<String> LAYERS = List.of("lab.json", "lab.plan", "lab.launch", "lab.load", "lab.sample", "lab.verify", "lab.analyse.stat", "lab.analyse",
			"lab.report", "lab.generate", "lab.run.search", "lab.run", "lab");

	/**
	 * The analysis is one layer of rooms by job: its core (Analyser, Measurement, LevelResult, Repeats, RunAnalysis,
	 * Manifest, LevelJson) and the rooms that judge, gather evidence, profile and summarise searches use one another; the
	 * readers of raw files are below all of them and use none but the core's types.
	 */
	static final List<String> ANALYSE_ROOMS = List.of("lab.analyse.read", "lab.analyse.judge", "lab.analyse.evidence", "lab.analyse.profile",
			"lab.analyse.search");

	private static final Pattern USE = Pattern.compile("\\b(lab(?:\\.[a-z]+)*)\\.[A-Z]\\w*");

	@Test
	void noClassUsesAPackageAboveItsOwn() throws IOException {
		Path sources = Path.of("src/main/java");
		List<String> upward = new ArrayList<>();
		try (Stream<Path> files = Files.walk(sources)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
				String own = sources.relativize(file.getParent()).toString().replace('/', '.');
				assertThat(LAYERS).as("%s's package has a layer", file).contains(layer(own));
				upward(own, Files.readString(file)).forEach(use -> upward.add(sources.relativize(file) + " uses " + use));
			}
		}
		assertThat(upward).as("uses of a package above the user's own").isEmpty();
	}

	@Test
	void aWrongWayImportIsFound() {
		// Planted: the analysis reaching up into the run, and the run's search into the run that drives it.
		assertThat(upward("lab.analyse", "package lab.analyse;\nimport lab.run.Runner;\nclass X { lab.run.search.Bracket b; }"))
			.containsExactly("lab.run.Runner", "lab.run.search.Bracket");
		assertThat(upward("lab.run.search", "import lab.run.SearchRun;")).containsExactly("lab.run.SearchRun");
		// Downward uses are the rule: the run uses the analysis and the plan.
		assertThat(upward("lab.run", "import lab.analyse.search.SearchSummary;\nimport lab.plan.RunPlan;")).isEmpty();
		// Within the analysis: a reader of raw files reaching into the rules; the rules using a reader is the rule.
		assertThat(upward("lab.analyse.read", "import lab.analyse.judge.Figures;\nimport lab.analyse.LevelResult;")).containsExactly("lab.analyse.judge.Figures");
		assertThat(upward("lab.analyse.judge", "import lab.analyse.read.Samples;\nimport lab.analyse.evidence.PoolEvidence;")).isEmpty();
		// The statistics at the bottom of the analysis use none of it; every room of it may use them.
		assertThat(upward("lab.analyse.stat", "import lab.analyse.Analyser;")).containsExactly("lab.analyse.Analyser");
		assertThat(upward("lab.analyse.judge", "import lab.analyse.stat.Stats;")).isEmpty();
	}

	/** The uses in {@code text} (a source of package {@code own}) of a package above {@code own}. */
	static List<String> upward(String own, String text) {
		List<String> upward = new ArrayList<>();
		Matcher matcher = USE.matcher(text);
		while (matcher.find()) {
			String used = matcher.group(1);
			boolean above = LAYERS.contains(layer(used)) && LAYERS.indexOf(layer(used)) > LAYERS.indexOf(layer(own));
			// The readers of raw files use no other room of the analysis (its core's types they may name).
			boolean outOfTheReaders = own.equals("lab.analyse.read") && ANALYSE_ROOMS.contains(used) && !used.equals(own);
			if (above || outOfTheReaders) {
				upward.add(matcher.group());
			}
		}
		return upward;
	}

	/** The layer of a package: the analysis's rooms are one layer. */
	static String layer(String pkg) {
		return ANALYSE_ROOMS.contains(pkg) ? "lab.analyse" : pkg;
	}

}
