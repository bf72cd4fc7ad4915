package lab.plan;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** What a user's jar is made of, read without running it. */
class JarLibrariesTests {

	@TempDir
	Path dir;

	@Test
	void theLibrariesOfABootJarAreReadWithTheDriverPoolServerBootAndSpringNamedApart() throws Exception {
		Path jar = this.dir.resolve("orders.jar");
		try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
			for (String entry : List.of("META-INF/MANIFEST.MF", "BOOT-INF/classes/example/Orders.class", "BOOT-INF/lib/spring-boot-4.1.0.jar",
					"BOOT-INF/lib/spring-boot-starter-jdbc-4.1.0.jar", "BOOT-INF/lib/spring-core-7.0.3.jar", "BOOT-INF/lib/HikariCP-7.0.2.jar",
					"BOOT-INF/lib/postgresql-42.7.8.jar", "BOOT-INF/lib/tomcat-embed-core-11.0.15.jar", "BOOT-INF/lib/netty-codec-http2-4.2.7.Final.jar",
					"BOOT-INF/lib/jspecify-1.0.0.jar", "BOOT-INF/lib/unversioned.jar")) {
				zip.putNextEntry(new ZipEntry(entry));
				zip.write(entry.getBytes());
				zip.closeEntry();
			}
		}
		JarLibraries.Facts facts = JarLibraries.read(jar);
		assertThat(facts.roles()).containsExactly(java.util.Map.entry("driver", "postgresql 42.7.8"), java.util.Map.entry("pool", "HikariCP 7.0.2"),
				java.util.Map.entry("server", "tomcat-embed-core 11.0.15"), java.util.Map.entry("springBoot", "spring-boot 4.1.0"),
				java.util.Map.entry("spring", "spring-core 7.0.3"));
		assertThat(facts.libraries()).hasSize(9).contains(new JarLibraries.Library("spring-boot-starter-jdbc", "4.1.0"),
				new JarLibraries.Library("netty-codec-http2", "4.2.7.Final"), new JarLibraries.Library("unversioned", ""));
		// The hash as an independent tool computes it, when the host has one.
		if (Files.isExecutable(Path.of("/usr/bin/sha256sum"))) {
			Process sha = new ProcessBuilder("/usr/bin/sha256sum", jar.toString()).start();
			assertThat(sha.waitFor(10, TimeUnit.SECONDS)).isTrue();
			assertThat(new String(sha.getInputStream().readAllBytes()).split(" ")[0]).isEqualTo(facts.sha256());
		}
		else {
			System.out.println("JarLibrariesTests: no /usr/bin/sha256sum: the hash is not cross-checked");
		}
		assertThat(facts.sha256()).hasSize(64);
	}

	@Test
	void theDriverIsTheOneTheDatasourceUrlUsesAndTheOthersAreListedAsPresent() throws Exception {
		// A sample application's jar holds H2 first and PostgreSQL second; its arms ran on PostgreSQL.
		Path jar = this.dir.resolve("petclinic.jar");
		try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
			for (String entry : List.of("BOOT-INF/lib/h2-2.4.240.jar", "BOOT-INF/lib/HikariCP-7.0.2.jar", "BOOT-INF/lib/postgresql-42.7.8.jar")) {
				zip.putNextEntry(new ZipEntry(entry));
				zip.closeEntry();
			}
		}
		assertThat(JarLibraries.read(jar, "jdbc:postgresql://127.0.0.1:5432/lab").roles()).containsEntry("driver", "postgresql 42.7.8");
		assertThat(JarLibraries.read(jar, "jdbc:h2:mem:test").roles()).containsEntry("driver", "h2 2.4.240");
		assertThat(JarLibraries.read(jar, null).roles()).as("no URL: the first in the jar").containsEntry("driver", "h2 2.4.240");
		assertThat(JarLibraries.read(jar, "jdbc:postgresql://x/y").driversPresent()).containsExactly("h2 2.4.240", "postgresql 42.7.8");
	}

	@Test
	void aPlainJarHasNoLibrariesToName() throws Exception {
		Path jar = this.dir.resolve("plain.jar");
		try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar)); OutputStream unused = OutputStream.nullOutputStream()) {
			zip.putNextEntry(new ZipEntry("Main.class"));
			zip.closeEntry();
		}
		assertThat(JarLibraries.read(jar).roles()).isEmpty();
		assertThat(JarLibraries.read(jar).libraries()).isEmpty();
	}

}
