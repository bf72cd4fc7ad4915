package lab.sample;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A spinning process is found busy, a sleeping one idle at once; each test process ends by itself (an alarm, a sleep's end). */
class IdleCheckTests {

	@Test
	void aSpinningProcessIsBusyAndASleepingOneIdle() throws Exception {
		Process spin = new ProcessBuilder("perl", "-e", "alarm 20; 1 while 1").start();
		Process sleep = new ProcessBuilder("sleep", "20").start();
		try {
			assertThat(IdleCheck.busyAfter(spin.pid(), 3, 50)).matches("still [0-9]+% of a core busy 3 s after its load ended");
			long before = System.nanoTime();
			assertThat(IdleCheck.busyAfter(sleep.pid(), 3, 50)).isNull();
			assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - before)).as("idle after its first second").isLessThan(3);
			assertThat(IdleCheck.busyAfter(Long.MAX_VALUE, 3, 50)).as("a process that is gone is not busy").isNull();
		}
		finally {
			spin.destroyForcibly();
			sleep.destroyForcibly();
		}
	}

}
