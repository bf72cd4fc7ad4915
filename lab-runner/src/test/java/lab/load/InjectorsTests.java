package lab.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class InjectorsTests {

	@Test
	void theLoadIsSplitEvenlyAndAddsUp() {
		assertThat(IntStream.range(0, 3).map(i -> Injectors.share(10, 3, i)).toArray()).containsExactly(4, 3, 3);
		assertThat(IntStream.range(0, 2).map(i -> Injectors.share(10_000, 2, i)).sum()).isEqualTo(10_000);
		// Never zero users on an injector: the simulation needs at least one.
		assertThat(Injectors.share(1, 2, 1)).isEqualTo(1);
	}

	@Test
	void injectorDirectoriesAndSampleNamesFollowOneRule(@TempDir Path level) throws Exception {
		assertThat(LoadFiles.injectorDirs(level)).containsExactly(level);
		assertThat(LoadFiles.injectorSource(level, level)).isEqualTo("injector");
		for (int number : List.of(10, 2, 1)) {
			Files.createDirectories(LoadFiles.injectorDir(level, number));
		}
		Files.createDirectories(level.resolve("gatling"));
		// In injector order (10 after 2), and even a single injector-1/ is sampled under its own name.
		assertThat(LoadFiles.injectorDirs(level)).containsExactly(level.resolve("injector-1"), level.resolve("injector-2"),
				level.resolve("injector-10"));
		assertThat(LoadFiles.injectorSource(level, level.resolve("injector-1"))).isEqualTo("injector-1");
	}

	@Test
	void theRemoteCommandIsBoundedAndQuotesEveryWord() {
		Ssh ssh = new Ssh("ubuntu@10.0.1.7", Ssh.DEFAULT_OPTIONS);
		String command = ssh.gatlingCommand(List.of("-Xmx4g"), List.of("baseUrl=http://10.0.1.5:8080", "users=5000"),
				"loom-lab/runs/x", 300);
		assertThat(command).startsWith("rm -rf 'loom-lab/runs/x' && mkdir -p 'loom-lab/runs/x' && ulimit -S -n \"$(ulimit -H -n)\"")
			.contains("exec timeout -k 10 300 'java' '-Xmx4g' '-DbaseUrl=http://10.0.1.5:8080' '-Dusers=5000'")
			.contains("'-cp' 'loom-lab/gatling/classes:loom-lab/gatling/lib/*' 'io.gatling.app.Gatling' '-s' 'lab.gatling.AddressSimulation'")
			.endsWith("'-rf' 'loom-lab/runs/x/gatling'");
		assertThat(Ssh.quote("it's")).isEqualTo("'it'\\''s'");
		assertThat(ssh.process("true").command()).containsSequence("-o", "BatchMode=yes").endsWith("ubuntu@10.0.1.7", "true");
	}

}
