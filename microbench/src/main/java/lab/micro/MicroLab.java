package lab.micro;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** {@code ./lab micro [experiment|all] [--full]} and {@code ./lab jmh [--full]}. */
@Command(name = "micro", mixinStandardHelpOptions = true, description = "The virtual-thread articles' experiments.")
public final class MicroLab implements Callable<Integer> {

	@Parameters(index = "0", defaultValue = "all", description = "all, jmh, or one of: sleep, tasks, ceiling, waiting, semaphore, dispatch, structured, pinning")
	String experiment;

	@Option(names = "--full", description = "the articles' sizes (platform threads still capped to half the host's limits)")
	boolean full;

	@Option(names = "--out", description = "results directory (default: results/micro-<timestamp>)")
	Path out;

	@Option(names = { "--jdk", "--java-home" }, paramLabel = "21|PATH", description = "another JDK for the synchronized-pinning probe: a "
			+ "path, or a feature version found on this host (/usr/lib/jvm, the lab's .tools/jdk-<n>, which ./lab run --jdk 21 --dry-run installs)")
	String javaHome;

	public static void main(String[] args) {
		CommandLine commandLine = new CommandLine(new MicroLab());
		commandLine.setParameterExceptionHandler((ex, arguments) -> {
			ex.getCommandLine().getErr().println("lab micro: " + ex.getMessage() + " (see ./lab micro --help)");
			return 2;
		});
		System.exit(commandLine.execute(args));
	}

	@Override
	public Integer call() throws Exception {
		if (this.experiment.equals("jmh")) {
			return jmh();
		}
		List<String> ids = this.experiment.equals("all") ? Experiments.ids() : List.of(this.experiment);
		if (!Experiments.ids().containsAll(ids)) {
			System.err.println("lab micro: unknown experiment '" + this.experiment + "': use all, jmh, or one of " + String.join(", ", Experiments.ids()));
			return 2;
		}
		Path dir = (this.out != null) ? this.out : Path.of(System.getProperty("lab.root", "."), "results",
				"micro-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
		Files.createDirectories(dir);
		Sizes sizes = Sizes.of(this.full);
		String host = "host: " + Runtime.getRuntime().availableProcessors() + " cores, JDK " + Runtime.version() + ", "
				+ (this.full ? "--full sizes" : "default sizes") + ", platform threads capped at " + sizes.platformThreadLimit();
		System.out.println(host + "\n");
		List<Table> tables = new ArrayList<>();
		StringBuilder markdown = new StringBuilder("# Micro lab\n\n").append(host).append("\n\n");
		for (String id : ids) {
			Table table = run(id, sizes, (this.javaHome != null) ? jdk(this.javaHome) : null);
			tables.add(table);
			System.out.println(table.markdown());
			// Written after every experiment: an interrupted run keeps what it measured.
			markdown.append(table.markdown()).append('\n');
			Files.writeString(dir.resolve("micro.md"), markdown);
			Map<String, Object> json = new LinkedHashMap<>();
			json.put("host", host);
			json.put("tables", tables);
			JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValue(dir.resolve("micro.json").toFile(), json);
		}
		System.out.println("lab micro: tables in " + dir);
		return 0;
	}

	static Table run(String id, Sizes sizes, Path javaHome) throws Exception {
		return switch (id) {
			case "sleep" -> Experiments.sleep(sizes);
			case "tasks" -> Experiments.tasks(sizes);
			case "ceiling" -> Experiments.ceiling(sizes);
			case "waiting" -> Experiments.waiting(sizes);
			case "semaphore" -> Experiments.semaphore(sizes);
			case "dispatch" -> Experiments.dispatch(sizes);
			case "structured" -> Experiments.structured(sizes);
			case "pinning" -> Experiments.pinning(sizes, (javaHome != null) ? probe(javaHome) : null);
			default -> throw new IllegalArgumentException(id);
		};
	}

	/** A JDK home: a path as given, or a feature version ({@code 21}) found on this host. */
	static Path jdk(String spec) throws IOException {
		if (!spec.matches("\\d{2}")) {
			return Path.of(spec);
		}
		return findJdk(Integer.parseInt(spec), Path.of(System.getProperty("lab.root", "."))).orElseThrow(() -> new CommandLine.ParameterException(new CommandLine(new MicroLab()),
				"--jdk " + spec + ": no JDK " + spec + " in /usr/lib/jvm or .tools/jdk-" + spec + "; ./lab run --jdk " + spec
						+ " --dry-run installs JDK 21 into .tools/jdk-21, or give a JDK's path"));
	}

	/** A JDK of this feature version on this host: /usr/lib/jvm/*, then the lab's own {@code <root>/.tools/jdk-<n>}. */
	static java.util.Optional<Path> findJdk(int feature, Path root) throws IOException {
		List<Path> candidates = new ArrayList<>();
		Path jvms = Path.of("/usr/lib/jvm");
		if (Files.isDirectory(jvms)) {
			try (var dirs = Files.list(jvms)) {
				dirs.sorted().forEach(candidates::add);
			}
		}
		candidates.add(root.resolve(".tools").resolve("jdk-" + feature));
		for (Path home : candidates) {
			Path release = home.resolve("release");
			if (Files.isExecutable(home.resolve("bin/java")) && Files.isRegularFile(release)
					&& Files.readString(release).contains("JAVA_VERSION=\"" + feature + ".")) {
				return java.util.Optional.of(home);
			}
		}
		return java.util.Optional.empty();
	}

	/** Runs the Java 21 synchronized-pinning probe under another JDK and returns its line. */
	static String probe(Path javaHome) throws IOException, InterruptedException {
		String jar = MicroLab.class.getProtectionDomain().getCodeSource().getLocation().getPath();
		Process process = new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-cp", jar, "lab.micro.pin21.SynchronizedPinning")
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes()).trim();
		if (!process.waitFor(60, TimeUnit.SECONDS)) {
			process.destroyForcibly();
		}
		return output.lines().filter(l -> l.startsWith("pinned=")).findFirst().orElse("probe failed: " + output);
	}

	/** JMH: a short default; --full is the documented configuration (5 forks × 5 × 10 s measurement). */
	int jmh() throws Exception {
		OptionsBuilder options = new OptionsBuilder();
		options.include(LoomBenchmark.class.getSimpleName());
		if (this.full) {
			options.forks(5).warmupIterations(5).warmupTime(TimeValue.seconds(10)).measurementIterations(5).measurementTime(TimeValue.seconds(10));
		}
		else {
			options.forks(1).warmupIterations(2).warmupTime(TimeValue.seconds(2)).measurementIterations(3).measurementTime(TimeValue.seconds(3));
		}
		new Runner(options.build()).run();
		return 0;
	}

}
