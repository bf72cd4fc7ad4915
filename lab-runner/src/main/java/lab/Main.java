package lab;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import lab.plan.PlanException;
import lab.plan.Scenario;
import lab.plan.Variant;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./lab run | report | compare | doctor | generate | injectors}. Bad input: one line naming the problem and the fix, exit code 2. */
@Command(name = "lab", mixinStandardHelpOptions = true, subcommands = { RunCommand.class, ReportCommand.class, CompareCommand.class, Doctor.class, GenerateCommand.class,
		InjectorsCommand.class },
		description = "Load-test lab for JVM concurrency models.")
public final class Main {

	static final int USAGE = 2;

	static Path root() {
		return Path.of(System.getProperty("lab.root", ".")).toAbsolutePath().normalize();
	}

	/** {@code results/<yyyyMMdd-HHmmss>-<what>} under the lab's root: where a run or a comparison goes by default. */
	static Path timestamped(String what) {
		return root().resolve("results").resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + what);
	}

	public static void main(String[] args) {
		System.setProperty("java.awt.headless", "true");
		System.exit(execute(args));
	}

	static int execute(String... args) {
		CommandLine commandLine = new CommandLine(new Main());
		commandLine.setParameterExceptionHandler((ex, arguments) -> {
			String command = ex.getCommandLine().getCommandName();
			ex.getCommandLine().getErr().println("lab " + command + ": " + ex.getMessage() + " (see ./lab " + command + " --help)");
			return USAGE;
		});
		commandLine.setExecutionExceptionHandler((ex, line, parsed) -> {
			if (ex instanceof PlanException) {
				line.getErr().println("lab " + line.getCommandName() + ": " + ex.getMessage());
				return USAGE;
			}
			throw ex;
		});
		return commandLine.execute(args);
	}

	/** The bundled scenarios, as the runner finds them, for {@code --scenario}'s help. */
	static final class BundledScenarios implements Iterable<String> {

		@Override
		public java.util.Iterator<String> iterator() {
			return lab.plan.Scenario.bundledNames().iterator();
		}

	}

	/** The variants, from their one list, for {@code --variants}' help. */
	static final class VariantNames implements Iterable<String> {

		@Override
		public java.util.Iterator<String> iterator() {
			return lab.plan.Variant.names().iterator();
		}

	}

}
