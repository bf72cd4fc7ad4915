package lab.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** What the run probes for its manifest: the commit without git, the pinned threshold it states. */
class RunManifestTests {

	@TempDir
	Path dir;

	@Test
	void theCommitIsReadFromAGitDirectoryWithoutGit() throws Exception {
		Files.writeString(this.dir.resolve("HEAD"), "ref: refs/heads/main\n");
		// packed: no file under refs/heads/
		Files.writeString(this.dir.resolve("packed-refs"), "# pack-refs with: peeled fully-peeled sorted\n"
				+ "1111111111111111111111111111111111111111 refs/heads/other\n2222222222222222222222222222222222222222 refs/heads/main\n");
		assertThat(RunManifest.headOf(this.dir)).contains("2222222222222222222222222222222222222222");
		Files.createDirectories(this.dir.resolve("refs/heads"));
		Files.writeString(this.dir.resolve("refs/heads/main"), "3333333333333333333333333333333333333333\n");
		assertThat(RunManifest.headOf(this.dir)).contains("3333333333333333333333333333333333333333");
		// a detached HEAD names the commit itself
		Files.writeString(this.dir.resolve("HEAD"), "4444444444444444444444444444444444444444\n");
		assertThat(RunManifest.headOf(this.dir)).contains("4444444444444444444444444444444444444444");
	}

	@Test
	void pinnedThresholdIsTheServicesDefaultUnlessTheRunSetsIt() {
		assertThat(RunManifest.pinnedThreshold(List.of("-Xmx512m"), false)).isEqualTo("1ms (lab.pinned-threshold, the services' default)");
		assertThat(RunManifest.pinnedThreshold(List.of("-Dlab.pinned-threshold=0ms"), false))
			.isEqualTo("0ms (lab.pinned-threshold, set for this run)");
		assertThat(RunManifest.pinnedThreshold(List.of(), true)).startsWith("1ms").contains("lab_pinned_threshold_seconds");
	}

}
