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
	 * {@code lab.run.search}) over the report, over the analysis, over sampling, load and launch, over the plan. The
	 * analysis in its own layers: the core that assembles a run's results ({@code Analyser}, {@code LevelJudge},
	 * {@code LevelJson}, {@code RunAnalysis}, {@code Manifest}) over the searches summarised, over the profiles
	 * (memory, start), over the figures and the rules that judge them ({@code LevelResult}, {@code Repeats}), over a
	 * level's measurement, over the evidence (thread dumps, JFR, class histograms), over the readers of raw files, over
	 * the statistics every room calls ({@code lab.analyse.stat}: a median, a maximum).
	 */
	static final List<String> LAYERS = List.of("lab.json", "lab.plan", "lab.launch", "lab.load", "lab.sample", "lab.verify", "lab.analyse.stat",
			"lab.analyse.read", "lab.analyse.evidence", "lab.analyse.measure", "lab.analyse.judge", "lab.analyse.profile", "lab.analyse.search",
			"lab.analyse", "lab.report", "lab.generate", "lab.run.search", "lab.run", "lab");

	private static final Pattern USE = Pattern.compile("\\b(lab(?:\\.[a-z]+)*)\\.[A-Z]\\w*");

	@Test
	void noClassUsesAPackageAboveItsOwn() throws IOException {
		Path sources = Path.of("src/main/java");
		List<String> upward = new ArrayList<>();
		try (Stream<Path> files = Files.walk(sources)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
				String own = sources.relativize(file.getParent()).toString().replace('/', '.');
				assertThat(LAYERS).as("%s's package has a layer", file).contains(own);
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
		// Within the analysis, a wrong-way use planted in each layer of it; each layer's downward uses are the rule.
		assertThat(upward("lab.analyse.stat", "import lab.analyse.read.Samples;")).containsExactly("lab.analyse.read.Samples");
		assertThat(upward("lab.analyse.read", "import lab.analyse.evidence.PoolEvidence;\nimport lab.analyse.stat.Stats;"))
			.containsExactly("lab.analyse.evidence.PoolEvidence");
		assertThat(upward("lab.analyse.evidence", "import lab.analyse.measure.Measurement;\nimport lab.analyse.read.ThreadDump;"))
			.containsExactly("lab.analyse.measure.Measurement");
		assertThat(upward("lab.analyse.measure", "import lab.analyse.judge.Figures;\nimport lab.analyse.evidence.PinnedSite;"))
			.containsExactly("lab.analyse.judge.Figures");
		assertThat(upward("lab.analyse.judge", "import lab.analyse.profile.MemoryProfile;\nimport lab.analyse.measure.Metric;"))
			.containsExactly("lab.analyse.profile.MemoryProfile");
		assertThat(upward("lab.analyse.profile", "import lab.analyse.search.SearchSummary;\nimport lab.analyse.judge.LevelResult;"))
			.containsExactly("lab.analyse.search.SearchSummary");
		assertThat(upward("lab.analyse.search", "/** {@link lab.analyse.Analyser} */\nimport lab.analyse.judge.LevelResult;"))
			.containsExactly("lab.analyse.Analyser");
		assertThat(upward("lab.analyse", "import lab.report.ReportWriter;\nimport lab.analyse.search.SearchSummary;")).containsExactly("lab.report.ReportWriter");
	}

	/** The uses in {@code text} (a source of package {@code own}) of a package above {@code own}. */
	static List<String> upward(String own, String text) {
		List<String> upward = new ArrayList<>();
		Matcher matcher = USE.matcher(text);
		while (matcher.find()) {
			String used = matcher.group(1);
			if (LAYERS.contains(used) && LAYERS.indexOf(used) > LAYERS.indexOf(own)) {
				upward.add(matcher.group());
			}
		}
		return upward;
	}

}
