package lab.deploy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A results disk too small for the plan is refused before anything starts (exit 2); one that fills during the run
 * stops it at once (exit 4) with one line naming the disk, every process it started ended, and what it wrote still
 * rendered by {@code ./lab report}. The disks are tmpfs mounts the test makes itself (root only; skipped elsewhere).
 */
@Tag("slow")
class FullDiskTests {

	@TempDir
	Path dir;

	private final List<Path> mounts = new ArrayList<>();

	@Test
	void aDiskTooSmallIsRefusedAndOneThatFillsStopsTheRunKeepingWhatWasWritten() throws Exception {
		Path log = this.dir.resolve("commands.log");
		Map<String, String> env = Map.of("LAB_LOCK_FILE", this.dir.resolve("run.lock").toString());
		Path lab = Repo.root().resolve("lab");
		try {
			Path small = mount("small", 4);
			Commands.Result refused = Commands.run(List.of(lab.toString(), "run", "--scenario", "smoke", "--variants", "app-webflux", "--out",
					small.resolve("r").toString()), env, this.dir, log, Duration.ofSeconds(120));
			assertThat(refused.exit()).isEqualTo(2);
			assertThat(refused.output().strip()).doesNotContain("\n").contains("is on a disk with").contains("this run needs about")
				.contains("--out");

			Path disk = mount("fills", 40);
			Path results = disk.resolve("r");
			Path output = this.dir.resolve("run.out");
			ProcessBuilder builder = new ProcessBuilder(lab.toString(), "run", "--scenario", "smoke", "--variants", "app-webflux", "--out",
					results.toString()).redirectErrorStream(true).redirectOutput(output.toFile());
			builder.environment().putAll(env);
			Process run = builder.start();
			try {
				// Once the service is up and warming, the disk fills (a ballast file leaves 1 MiB).
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
				while (!Files.readString(output).contains("warming up") && run.isAlive() && System.nanoTime() < deadline) {
					Thread.sleep(200);
				}
				assertThat(Files.readString(output)).as("the run reached its warm-up").contains("warming up");
				fill(disk, 1L << 20);
				assertThat(run.waitFor(90, TimeUnit.SECONDS)).as("the run stopped at once").isTrue();
			}
			finally {
				if (run.isAlive()) {
					run.descendants().forEach(ProcessHandle::destroy);
					run.destroy();
				}
			}
			String text = Files.readString(output);
			assertThat(run.exitValue()).as(text).isEqualTo(4);
			assertThat(text).contains("lab: the results disk is full, the run stops (" + results).contains("no space left on device")
				.contains("./lab report renders it (exit code 4)");
			// Nothing it started is left: every service and injector wrote under the results directory.
			assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(results.toString())).toList())
				.as("processes left").isEmpty();
			// With room again, the report renders from what was written.
			Files.delete(disk.resolve("ballast"));
			Commands.Result report = Commands.run(List.of(lab.toString(), "report", results.toString()), env, this.dir, log, Duration.ofSeconds(120));
			assertThat(report.exit()).as(report.output()).isZero();
			assertThat(results.resolve("report.html")).exists();
		}
		finally {
			for (Path mount : this.mounts) {
				new ProcessBuilder("umount", "-l", mount.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
			}
		}
	}

	/** A tmpfs of {@code mib} MiB of the test's own; the test is skipped where it may not mount one. */
	private Path mount(String name, int mib) throws IOException, InterruptedException {
		Path point = Files.createDirectories(this.dir.resolve(name));
		Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + mib + "m", "tmpfs", point.toString()).redirectErrorStream(true)
			.start();
		boolean ok = mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0;
		String why = ok ? null : "cannot mount a tmpfs here (root and CAP_SYS_ADMIN needed): " + new String(mount.getInputStream().readAllBytes()).strip();
		if (why != null) {
			System.out.println("FullDiskTests skipped: " + why);
		}
		Assumptions.assumeTrue(ok, why);
		this.mounts.add(point);
		return point;
	}

	/** Writes a ballast file until {@code leave} bytes are free on {@code disk}. */
	private static void fill(Path disk, long leave) throws IOException {
		long free = Files.getFileStore(disk).getUsableSpace();
		try (RandomAccessFile ballast = new RandomAccessFile(disk.resolve("ballast").toFile(), "rw")) {
			byte[] block = new byte[1 << 20];
			long toWrite = Math.max(0, free - leave);
			for (long written = 0; written < toWrite; written += block.length) {
				ballast.write(block, 0, (int) Math.min(block.length, toWrite - written));
			}
		}
	}

}
