package lab.analyse.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntToDoubleFunction;

import lab.layout.ServiceDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** When the JIT settled in a warm-up: the runner's settle test applied to every second of its rounds. */
class WarmUpProfileTests {

	static final long T = 1_790_000_000_000L;

	/** The settle bound of the default thresholds: 50% of the 10% not-warm threshold. */
	static final double BOUND = 5.0;

	@TempDir
	Path dir;

	@Test
	void theJitSettlesAtTheFirstSecondFromWhichEveryTrailingTenSecondsStayedUnderTheBound() throws IOException {
		// 40 s of load: the compiler threads busy 30% of a core for 20 s, then 1%. Trailing 10 s ending at +28 s: 2 s at
		// 30% and 8 at 1% = 6.8% > 5%; ending at +29 s: 1 s at 30% and 9 at 1% = 3.9%: settled at 29 s.
		Path first = round(ServiceDir.WARMUP, 40, i -> 0.3 * Math.min(i, 20) + 0.01 * Math.max(0, i - 20));
		WarmUpProfile profile = WarmUpProfile.of(first);
		assertThat(profile.loadSeconds()).isEqualTo(40.0);
		assertThat(profile.trailingJitPercent()).hasSize(31);
		assertThat(profile.jitSettledSeconds(BOUND)).isEqualTo(29.0);
		// A stricter bound is met later (from +30 s every trailing 10 s is at 1%), a looser one sooner.
		assertThat(profile.jitSettledSeconds(1.5)).isEqualTo(30.0);
		assertThat(profile.jitSettledSeconds(20.0)).isEqualTo(24.0);
	}

	@Test
	void aSettleRoundCountsAfterTheFirstAndAJitBusyAtTheEndNeverSettled() throws IOException {
		// 20 s at 30% (never under the bound), then a round of 20 s: quiet, so the warm-up settled at the round's first
		// point, 20 + 10 s of load.
		Path first = round(ServiceDir.WARMUP, 20, i -> 0.3 * i);
		round(ServiceDir.warmupRound(2), 20, i -> 6.0 + 0.001 * i);
		WarmUpProfile settled = WarmUpProfile.of(first);
		assertThat(settled.loadSeconds()).isEqualTo(40.0);
		assertThat(settled.jitSettledSeconds(BOUND)).isEqualTo(30.0);
		// The same round still compiling at 8%: not settled when the warm-up ended.
		round(ServiceDir.warmupRound(2), 20, i -> 6.0 + 0.08 * i);
		assertThat(WarmUpProfile.of(first).jitSettledSeconds(BOUND)).isNaN();
	}

	@Test
	void noWarmUpOrNoWindowIsNotKnown() throws IOException {
		Path empty = Files.createDirectories(this.dir.resolve("svc").resolve(ServiceDir.WARMUP));
		WarmUpProfile profile = WarmUpProfile.of(empty);
		assertThat(profile.loadSeconds()).isNaN();
		assertThat(profile.jitSettledSeconds(BOUND)).isNaN();
		assertThat(WarmUpProfile.NONE.jitSettledSeconds(BOUND)).isNaN();
	}

	/** A warm-up round of {@code seconds} from T (each later round 5 s after the one before), its JIT counter sampled every second. */
	private Path round(String name, int seconds, IntToDoubleFunction jitCpuSeconds) throws IOException {
		Path round = Files.createDirectories(this.dir.resolve("svc").resolve(name));
		long start = T + (name.equals(ServiceDir.WARMUP) ? 0 : 45_000);
		Files.writeString(round.resolve("load-window.csv"),
				"start_epoch_ms,steady_start_epoch_ms,end_epoch_ms\n" + start + "," + start + "," + (start + seconds * 1000L) + "\n");
		StringBuilder csv = new StringBuilder("epoch_ms,source,series,value\n");
		for (int i = 0; i <= seconds; i++) {
			csv.append(start + i * 1000L).append(",service,jit_cpu_seconds,").append(jitCpuSeconds.applyAsDouble(i)).append('\n');
		}
		Files.writeString(round.resolve("metrics.csv"), csv.toString());
		return round;
	}

}
