package lab.micro;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The micro lab's {@code synchronized} probe ({@code ./lab micro pinning --jdk 21}) pins on JDK 21 and not from 24
 * on (JEP 491): four virtual threads each block once for 50 ms inside {@code synchronized}. The probe is Java 21
 * bytecode in this module's classes; JDK 21 is found where the lab keeps it ({@code .tools/jdk-21}, installed by
 * {@code ./lab run --jdk 21} and by lab-runner's JDK 21 test earlier in the build) or in {@code /usr/lib/jvm}.
 */
@Tag("slow") // starts two JVMs
class SynchronizedPinningTests {

	@Test
	void pinsOnJdk21AndNotOnThisJdk() throws Exception {
		Path root = Path.of("").toAbsolutePath().getParent();
		Optional<Path> jdk21 = MicroLab.findJdk(21, root);
		Assumptions.assumeTrue(jdk21.isPresent(),
				"skipped: no JDK 21 in /usr/lib/jvm or " + root.resolve(".tools/jdk-21") + " (./lab run --jdk 21 --dry-run installs one)");
		Path classes = Path.of("target/classes");
		assertThat(classes.resolve("lab/micro/pin21/SynchronizedPinning.class")).isRegularFile();
		assertThat(probe(jdk21.get(), classes)).startsWith("pinned=4 threads=4 jdk=21.");
		if (Runtime.version().feature() >= 24) {
			assertThat(probe(Path.of(System.getProperty("java.home")), classes)).startsWith("pinned=0 threads=4 jdk=" + Runtime.version().feature() + ".");
		}
	}

	private static String probe(Path javaHome, Path classes) throws Exception {
		Process process = new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-cp", classes.toString(), "lab.micro.pin21.SynchronizedPinning")
			.redirectErrorStream(true)
			.start();
		try {
			String output = new String(process.getInputStream().readAllBytes()).trim();
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
			return output;
		}
		finally {
			process.destroyForcibly();
		}
	}

}
