package lab.deploy;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stand-in for an Ubuntu instance (resources/aws/instance): sshd, sudo for the ubuntu user, Temurin 25. Built on the
 * Compose stack's base images (stand-ins where Docker Hub is unreachable); podman reuses both once built.
 */
final class InstanceImage {

	static final String NAME = "localhost/lab-test/aws-instance:latest";

	/** How a test runs a command: with its environment, appended to its log. */
	@FunctionalInterface
	interface Runner {

		Commands.Result run(Duration timeout, String... command) throws Exception;

	}

	private InstanceImage() {
	}

	/**
	 * {@code dir/ssh_config} for the test's key {@code dir/id} (made with ssh-keygen) and a known-hosts file of its own,
	 * with {@code extra} lines (e.g. a ProxyCommand); passed as {@code LAB_SSH_OPTIONS="-F <it>"}.
	 */
	static Path sshConfig(Path dir, String... extra) throws java.io.IOException {
		StringBuilder config = new StringBuilder("Host *\n  IdentityFile " + dir.resolve("id") + "\n  IdentitiesOnly yes\n  UserKnownHostsFile "
				+ dir.resolve("known_hosts") + "\n");
		for (String line : extra) {
			config.append("  ").append(line).append('\n');
		}
		Path file = dir.resolve("ssh_config");
		java.nio.file.Files.writeString(file, config);
		return file;
	}

	/** The base images, then the instance image on them; its build context's directory (route.sh lives there). */
	static Path build(Runner runner, Path log) throws Exception {
		assertThat(runner.run(Duration.ofMinutes(15), Repo.root().resolve("docker/podman-compose.sh").toString(), "version").exit())
			.as("docker/podman-compose.sh version (base images); see " + log).isZero();
		Path context = Path.of(InstanceImage.class.getResource("/aws/instance/Containerfile").toURI()).getParent();
		assertThat(runner.run(Duration.ofMinutes(10), "podman", "build", "-q", "-t", NAME, context.toString()).exit()).isZero();
		return context;
	}

}
