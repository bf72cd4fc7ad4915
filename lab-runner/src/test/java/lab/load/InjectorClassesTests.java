package lab.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class InjectorClassesTests {

	@TempDir
	Path root;

	Path java;

	void build(Instant jar, Instant classes) throws Exception {
		Path target = Files.createDirectories(this.root.resolve("gatling/target/classes/lab/gatling"));
		Files.writeString(this.root.resolve("gatling/target/classpath.txt"), this.root.resolve("lib-a.jar") + ":" + this.root.resolve("lib-b.jar") + "\n");
		Files.writeString(this.root.resolve("lib-a.jar"), "a");
		Files.writeString(this.root.resolve("lib-b.jar"), "b");
		Path jarFile = Files.writeString(this.root.resolve("gatling/target/gatling-0.1.0-SNAPSHOT.jar"), "jar");
		Files.writeString(this.root.resolve("gatling/target/gatling-0.1.0-SNAPSHOT-sources.jar"), "sources");
		Path simulation = Files.writeString(target.resolve("AddressSimulation.class"), "class");
		Files.setLastModifiedTime(jarFile, FileTime.from(jar));
		Files.setLastModifiedTime(simulation, FileTime.from(classes));
		this.java = Files.writeString(this.root.resolve("java"), "java");
	}

	@Test
	void aJarAsNewAsTheClassesRunsWithAnArchiveMadeOnceAndMovedIntoPlaceOnlyWhenItsRunEndedWell() throws Exception {
		Instant now = Instant.parse("2026-11-29T12:00:00Z");
		build(now, now.minusSeconds(60));
		Path cache = this.root.resolve("cache");
		InjectorClasses first = InjectorClasses.of(this.root, this.java, cache);
		assertThat(first.classpath()).startsWith(this.root.resolve("gatling/target/gatling-0.1.0-SNAPSHOT.jar") + ":").endsWith("lib-b.jar");
		assertThat(first.shown()).isEqualTo(this.root.resolve("gatling/target/gatling-0.1.0-SNAPSHOT.jar") + ":<gatling/target/classpath.txt>");
		assertThat(first.flags()).hasSize(2).contains("-Xlog:cds*=off");
		String making = first.flags().get(1).substring("-XX:ArchiveClassesAtExit=".length());
		assertThat(first.flags().get(1)).startsWith("-XX:ArchiveClassesAtExit=");

		// A run that failed leaves no archive: the next makes one again.
		Files.writeString(Path.of(making), "half");
		first.settle(false);
		assertThat(Path.of(making)).doesNotExist();
		assertThat(first.archive()).doesNotExist();
		InjectorClasses second = InjectorClasses.of(this.root, this.java, cache);
		String again = second.flags().get(1).substring("-XX:ArchiveClassesAtExit=".length());
		assertThat(again).isNotEqualTo(making);
		Files.writeString(Path.of(again), "whole");
		second.settle(true);
		assertThat(second.archive()).hasContent("whole");

		// The next run reads it.
		assertThat(InjectorClasses.of(this.root, this.java, cache).flags()).containsExactly("-Xlog:cds*=off", "-XX:SharedArchiveFile=" + second.archive());

		// A library rebuilt (another size) names another archive, which replaces the same JDK's older one when made;
		// another JDK's stays.
		Path otherJava = Files.writeString(this.root.resolve("java21"), "java 21");
		InjectorClasses other = InjectorClasses.of(this.root, otherJava, cache);
		Files.writeString(Path.of(other.flags().get(1).substring("-XX:ArchiveClassesAtExit=".length())), "21");
		other.settle(true);
		Files.writeString(this.root.resolve("lib-a.jar"), "a rebuilt");
		InjectorClasses rebuilt = InjectorClasses.of(this.root, this.java, cache);
		assertThat(rebuilt.archive()).isNotEqualTo(second.archive());
		Files.writeString(Path.of(rebuilt.flags().get(1).substring("-XX:ArchiveClassesAtExit=".length())), "rebuilt");
		rebuilt.settle(true);
		assertThat(second.archive()).doesNotExist();
		assertThat(rebuilt.archive()).hasContent("rebuilt");
		assertThat(other.archive()).hasContent("21");
	}

	@Test
	void classesNewerThanTheJarOrNoJarRunFromTheClassesDirectoryWithoutAnArchive() throws Exception {
		Instant now = Instant.parse("2026-11-29T12:00:00Z");
		build(now, now.plusSeconds(5));
		InjectorClasses stale = InjectorClasses.of(this.root, this.java, this.root.resolve("cache"));
		assertThat(stale.classpath()).startsWith(this.root.resolve("gatling/target/classes") + ":");
		assertThat(stale.flags()).isEmpty();
		stale.settle(true);

		Files.delete(this.root.resolve("gatling/target/gatling-0.1.0-SNAPSHOT.jar"));
		assertThat(InjectorClasses.of(this.root, this.java, this.root.resolve("cache")).flags()).isEmpty();
		assertThat(this.root.resolve("cache")).doesNotExist();
	}

}
