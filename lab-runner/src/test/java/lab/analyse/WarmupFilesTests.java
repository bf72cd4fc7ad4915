package lab.analyse;

import java.nio.file.Files;
import java.nio.file.Path;

import lab.analyse.measure.Measurement;
import lab.load.LoadFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A warm-up loaded by several injectors (--injectors, or --injectors local alone) keeps its window in each
 * injector's directory, not its own: the runner's "settled?" test must read it there.
 */
class WarmupFilesTests {

	@TempDir
	Path warmup;

	@Test
	void theJitShareOfAWarmUpIsReadFromItsInjectorsWindows() throws Exception {
		long start = 1_000_000;
		// Two injectors: loading from +0 s and +1 s, steady from +2 s and +3 s, ending at +30 s and +31 s: all loaded
		// from +3 s to +30 s.
		window(this.warmup.resolve("injector-1"), start, start + 2_000, start + 30_000);
		window(this.warmup.resolve("injector-2"), start + 1_000, start + 3_000, start + 31_000);
		// The JIT's threads: 1.0 s of CPU at +20 s, 1.5 s at +30 s: 0.5 s in the last 10 s, 5% of them.
		Files.writeString(this.warmup.resolve("metrics.csv"), "epoch_ms,source,series,value\n"
				+ (start + 20_000) + ",service,jit_cpu_seconds,1.0\n" + (start + 30_000) + ",service,jit_cpu_seconds,1.5\n");
		assertThat(LoadFiles.window(this.warmup)).isNull();
		assertThat(LoadFiles.levelWindow(this.warmup)).isEqualTo(new lab.load.LoadWindow(start, start + 3_000, start + 30_000));
		assertThat(Measurement.warmupJitPercent(this.warmup, 10)).isCloseTo(5.0, org.assertj.core.data.Offset.offset(0.01));
	}

	private static void window(Path dir, long start, long steady, long end) throws Exception {
		Files.createDirectories(dir);
		Files.writeString(dir.resolve("load-window.csv"), "start_epoch_ms,steady_start_epoch_ms,end_epoch_ms\n" + start + "," + steady + "," + end + "\n");
	}

}
