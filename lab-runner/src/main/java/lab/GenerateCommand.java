package lab;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import lab.analyse.Manifest;
import lab.analyse.Analyser;
import lab.analyse.Thresholds;
import lab.launch.Children;
import lab.launch.Interruption;
import lab.plan.Host;
import lab.plan.Overrides;
import lab.plan.PlanException;
import lab.plan.Remote;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import lab.plan.Variant;
import lab.report.ReportWriter;
import lab.run.Runner;
import lab.layout.RunDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "generate", mixinStandardHelpOptions = true,
		description = "Rewrite what other files list of the variants (Compose, Prometheus, Terraform, the README's table) from variants.yml.")
final class GenerateCommand implements Callable<Integer> {

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() {
		List<String> changed = lab.generate.VariantFiles.write(Main.root(), Variant.ALL);
		this.spec.commandLine().getOut().println(changed.isEmpty() ? "lab: every generated part is up to date"
				: "lab: rewrote the variants' parts of " + String.join(", ", changed));
		return 0;
	}

}
