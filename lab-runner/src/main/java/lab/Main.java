package lab;

import lab.plan.PlanException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./lab run | report | compare | doctor | generate | injectors}. Bad input: one line naming the problem and the fix, exit code 2. */
@Command(name = "lab", mixinStandardHelpOptions = true, subcommands = { RunCommand.class, ReportCommand.class, CompareCommand.class, Doctor.class, GenerateCommand.class,
		InjectorsCommand.class },
		description = "Load-test lab for JVM concurrency models.")
public final class Main {

	public static void main(String[] args) {
		System.setProperty("java.awt.headless", "true");
		System.exit(execute(args));
	}

	static int execute(String... args) {
		CommandLine commandLine = new CommandLine(new Main());
		commandLine.setParameterExceptionHandler((ex, arguments) -> {
			String command = ex.getCommandLine().getCommandName();
			ex.getCommandLine().getErr().println("lab " + command + ": " + ex.getMessage() + " (see ./lab " + command + " --help)");
			return Commands.USAGE;
		});
		commandLine.setExecutionExceptionHandler((ex, line, parsed) -> {
			if (ex instanceof PlanException) {
				line.getErr().println("lab " + line.getCommandName() + ": " + ex.getMessage());
				return Commands.USAGE;
			}
			throw ex;
		});
		return commandLine.execute(args);
	}

}
