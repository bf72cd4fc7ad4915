package lab.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import lab.layout.LevelDir;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CpuProfileTests {

	@TempDir
	Path dir;

	@Test
	void copiesTheAgentLibraryForThisMachineOutOfTheClassPath() throws Exception {
		Optional<Path> library = CpuProfile.library(this.dir.resolve("tools"));
		boolean shipped = System.getProperty("os.name").toLowerCase().contains("linux")
				&& List.of("amd64", "x86_64", "aarch64").contains(System.getProperty("os.arch"));
		assertThat(library.isPresent()).isEqualTo(shipped);
		if (shipped) {
			byte[] head = Files.readAllBytes(library.get());
			assertThat(head).startsWith(0x7f, 'E', 'L', 'F');
		}
	}

	@Test
	void quotesTheAgentOptionsSoJcmdDoesNotReadThemAsItsOwnNameValueArguments() {
		Path library = Path.of("/x/libasyncProfiler.so");
		assertThat(CpuProfile.start(library, "itimer")).containsExactly("JVMTI.agent_load", "/x/libasyncProfiler.so",
				"\"start,event=itimer,interval=10ms\"");
		assertThat(CpuProfile.stop(library, Path.of("/r/level"))).containsExactly("JVMTI.agent_load", "/x/libasyncProfiler.so",
				"\"stop,file=/r/level/cpu-profile.collapsed,collapsed\"");
	}

	@Test
	void readsJcmdsAnswerAndDrawsOnlyWhenThereAreSamples() throws Exception {
		Files.writeString(this.dir.resolve("start.log"), "123:\nreturn code: 100\n");
		assertThat(CpuProfile.accepted(this.dir.resolve("start.log"))).isFalse();
		Files.writeString(this.dir.resolve("start.log"), "123:\nreturn code: 0\n");
		assertThat(CpuProfile.accepted(this.dir.resolve("start.log"))).isTrue();
		assertThat(CpuProfile.accepted(this.dir.resolve("missing.log"))).isFalse();

		assertThat(CpuProfile.draw(this.dir, "cpu")).isFalse();
		// async-profiler's frames may hold spaces (native signatures): only the last field is the count.
		Files.write(this.dir.resolve(LevelDir.PROFILE_STACKS), List.of("java/lang/Thread.run;a/B.c 30", "clone3;void G1::work(unsigned int) 10"));
		assertThat(CpuProfile.draw(this.dir, "cpu")).isTrue();
		assertThat(Files.readString(this.dir.resolve(LevelDir.PROFILE_FLAME))).startsWith("<svg").contains("(40 samples)")
			.contains("async-profiler, event=cpu");
	}

}
