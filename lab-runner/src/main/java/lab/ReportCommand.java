package lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import lab.analyse.Analyser;
import lab.analyse.Manifest;
import lab.analyse.judge.Thresholds;
import lab.layout.RunDir;
import lab.plan.PlanException;
import lab.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

@Command(name = "report", mixinStandardHelpOptions = true, description = "Re-render summary.json, summary.md and report.html from a results directory.")
final class ReportCommand implements Callable<Integer> {

	@Parameters(index = "0", description = "a results directory of ./lab run")
	Path results;

	@Option(names = "--rejudge", description = "judge with the lab's current thresholds instead of those the run recorded; the report says so")
	boolean rejudge;

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() throws Exception {
		if (!Files.isRegularFile(this.results.resolve(RunDir.MANIFEST))) {
			throw new PlanException(this.results + " is not a results directory (no manifest.json): pass a directory under results/");
		}
		var written = Manifest.readTree(this.results);
		Thresholds recorded = Manifest.parse(written).thresholds();
		Thresholds thresholds = this.rejudge ? Thresholds.DEFAULT : recorded;
		List<String> defaulted = Thresholds.defaultedIn(written);
		String rejudged = (this.rejudge && !recorded.equals(Thresholds.DEFAULT))
				? "Re-judged with the lab's current thresholds (--rejudge), not the ones this run recorded: " + recorded + "."
				: (!this.rejudge && !defaulted.isEmpty())
						? "This run recorded no " + String.join(", ", defaulted.stream().map(d -> d.substring(0, d.indexOf(' '))).toList())
								+ " (newer than the run): judged by today's defaults (" + String.join(", ", defaulted) + ")."
						: null;
		// A --service run's rows are its arms, named and ordered as its file (in the manifest) named them.
		var analysis = new Analyser(thresholds).withTarget(Manifest.parse(written).target()).run(this.results, written, rejudged);
		Path html = new ReportWriter().write(analysis);
		this.spec.commandLine().getOut().println("lab: " + analysis.levels().size() + " levels; report " + html);
		return 0;
	}

}
