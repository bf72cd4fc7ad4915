package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import lab.common.Contract;
import lab.common.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Dockerfile's extract-and-launch steps, run outside Docker against the built jar: the same extract command,
 * the same layer directories copied into one, the same launcher class, and the service must answer.
 */
class DockerfileTests {

	@TempDir
	Path work;

	@Test
	void theDockerfileStepsExtractAndLaunchTheBuiltJar() throws Exception {
		String dockerfile = Files.readString(Repo.root().resolve("docker/Dockerfile"));
		assertThat(dockerfile).contains("ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-25").contains("FROM ${BUILD_IMAGE} AS build")
			.contains("ARG RUN_IMAGE=eclipse-temurin:25-jre").contains("FROM ${RUN_IMAGE}")
			.contains("USER lab").contains("HEALTHCHECK").contains("/actuator/health");
		Matcher extract = Pattern.compile("java -Djarmode=tools -jar \\S+ (extract [^\\n]*) --destination /extracted").matcher(dockerfile);
		assertThat(extract.find()).as("the extract step").isTrue();
		List<String> layers = Pattern.compile("COPY --from=build /extracted/([a-z-]+)/ \\./").matcher(dockerfile).results()
			.map(m -> m.group(1)).toList();
		assertThat(layers).containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");

		// The downstream too: it is no Spring application, and the extract step is Spring Boot code.
		Path downstreamLayers = extract(Repo.root().resolve("downstream-delay-service/target/downstream-delay-service.jar"), extract.group(1), "downstream");
		for (String layer : layers) {
			assertThat(downstreamLayers.resolve(layer)).as("downstream layer " + layer).isDirectory();
		}
		Path extracted = extract(Repo.root().resolve("app-webflux/target/app-webflux.jar"), extract.group(1), "extracted");

		Path app = this.work.resolve("app");
		for (String layer : layers) {
			assertThat(extracted.resolve(layer)).as("layer " + layer).isDirectory();
			copyTree(extracted.resolve(layer), app);
		}
		String launcher = Pattern.compile("exec java \\$JAVA_OPTS (\\S+)\"").matcher(dockerfile).results().findFirst().orElseThrow().group(1);
		try (ServiceProcess downstream = ServiceProcess.start("downstream-delay-service");
				ServiceProcess service = ServiceProcess.startWith("app-webflux", List.of("-cp", app.toString(), launcher),
						"--lab.downstream.base-url=" + downstream.url())) {
			Contract.assertAddress(Contract.get(service.url() + "/address/20"), 20);
		}
	}

	/** The Dockerfile's extract command run on {@code jar} into {@code name} under the work folder, which it returns. */
	private Path extract(Path jar, String extractArguments, String name) throws Exception {
		Path extracted = this.work.resolve(name);
		String java = ProcessHandle.current().info().command().orElse("java");
		List<String> command = new java.util.ArrayList<>(List.of(java, "-Djarmode=tools", "-jar", jar.toString()));
		command.addAll(List.of(extractArguments.split(" ")));
		command.addAll(List.of("--destination", extracted.toString()));
		Path log = this.work.resolve(name + ".log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(jar.getFileName() + ": " + Files.readString(log)).isZero();
		return extracted;
	}

	private static void copyTree(Path from, Path to) throws Exception {
		try (Stream<Path> files = Files.walk(from)) {
			for (Path file : files.toList()) {
				Path target = to.resolve(from.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
	}

}
