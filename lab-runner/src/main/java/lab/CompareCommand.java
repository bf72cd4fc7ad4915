package lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import lab.analyse.Analyser;
import lab.analyse.Comparison;
import lab.analyse.Manifest;
import lab.analyse.search.TuneSummary;
import lab.layout.RunDir;
import lab.plan.PlanException;
import lab.plan.Variants;
import lab.report.CompareWriter;

import lab.run.Gate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true,
		description = "Put several results directories side by side in one report (compare.html, compare.md, compare.json).")
final class CompareCommand implements Callable<Integer> {

	@Parameters(arity = "2..*", description = "two or more results directories of ./lab run")
	List<Path> runs;

	@Option(names = "--baseline", description = "the run the others are measured against (one of the directories, or another)")
	Path baseline;

	@Option(names = "--noise", defaultValue = "10", description = "the smallest change in %% called beyond noise, where the runs' repeats show no larger spread (default: ${DEFAULT-VALUE})")
	double noisePercent;

	@Option(names = "--out", description = "where to write the comparison (default: results/<timestamp>-compare)")
	Path out;

	@Option(names = "--fail-on-worse", description = "exit 3 when a compared figure of a run got worse than the baseline's beyond the "
			+ "noise bound, or a level OK in the baseline is not OK (the baseline: --baseline, else the first run)")
	boolean failOnWorse;

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		List<Path> dirs = new ArrayList<>();
		if (this.baseline != null) {
			dirs.add(this.baseline.toAbsolutePath().normalize());
		}
		for (Path run : this.runs) {
			Path dir = run.toAbsolutePath().normalize();
			if (!dirs.contains(dir)) {
				dirs.add(dir);
			}
		}
		if (!(this.noisePercent >= 0)) {
			throw new PlanException("--noise must be 0 or more (a percentage), got " + this.noisePercent);
		}
		List<Comparison.Run> runs = new ArrayList<>();
		for (Path dir : dirs) {
			if (!Files.isRegularFile(dir.resolve(RunDir.MANIFEST))) {
				throw new PlanException(dir + " is not a results directory (no manifest.json): pass directories under results/");
			}
			var manifest = Manifest.read(dir);
			var levels = new Analyser(manifest.thresholds()).withTarget(manifest.target()).analyse(dir, Variants.ofManifest(Manifest.readTree(dir)).names());
			var searches = Analyser.searches(dir);
			var tune = TuneSummary.read(dir, Manifest.readTree(dir), searches, levels).orElse(null);
			runs.add(new Comparison.Run(name(dir, dirs), dir, manifest, levels, searches, tune, Analyser.clients(dir)));
		}
		Path target = (this.out != null) ? this.out.toAbsolutePath() : Commands.timestamped("compare");
		var comparison = Comparison.of(runs, (this.baseline != null || this.failOnWorse) ? 0 : -1, this.noisePercent);
		Path html = new CompareWriter().write(comparison, target);
		this.spec.commandLine().getOut().println("lab: " + runs.size() + " runs, " + comparison.rows().size() + " variant × load rows; comparison " + html);
		if (this.failOnWorse) {
			List<String> worse = comparison.worse();
			if (!worse.isEmpty()) {
				this.spec.commandLine().getOut().println("lab: worse than " + comparison.baselineRun().name() + ": " + String.join("; ", worse)
						+ " (exit code " + Gate.TARGET_MISSED_EXIT_CODE + ")");
				return Gate.TARGET_MISSED_EXIT_CODE;
			}
			this.spec.commandLine().getOut().println("lab: nothing worse than " + comparison.baselineRun().name() + " beyond the noise");
		}
		return 0;
	}

	/** A run's short name: its directory's name, with its parent's when two runs share a name. */
	private static String name(Path dir, List<Path> all) {
		String name = dir.getFileName().toString();
		long same = all.stream().filter(other -> other.getFileName().toString().equals(name)).count();
		return (same > 1 && dir.getParent() != null) ? dir.getParent().getFileName() + "/" + name : name;
	}

}
