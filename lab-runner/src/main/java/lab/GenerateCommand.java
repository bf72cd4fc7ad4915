package lab;

import java.util.List;
import java.util.concurrent.Callable;

import lab.generate.VariantFiles;
import lab.plan.Variant;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "generate", mixinStandardHelpOptions = true,
		description = "Rewrite what other files list of the variants (Compose, Prometheus, Terraform, the README's table) from variants.yml.")
final class GenerateCommand implements Callable<Integer> {

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() {
		List<String> changed = VariantFiles.write(Commands.root(), Variant.ALL);
		this.spec.commandLine().getOut().println(changed.isEmpty() ? "lab: every generated part is up to date"
				: "lab: rewrote the variants' parts of " + String.join(", ", changed));
		return 0;
	}

}
