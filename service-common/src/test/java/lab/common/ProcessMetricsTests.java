package lab.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads a fake /proc/self, so every number below is hand-written and checked by hand. */
class ProcessMetricsTests {

	@TempDir
	Path proc;

	@Test
	void readsRssThreadsAndCpuFromProc() throws IOException {
		Files.writeString(this.proc.resolve("status"), "Name:\tjava\nVmRSS:\t  204800 kB\nThreads:\t37\n");
		// utime (field 14) = 250 ticks = 2.5 s, stime (field 15) = 40 ticks = 0.4 s; the name holds a space and a ')'.
		Files.writeString(this.proc.resolve("stat"), "42 (my java) S 1 42 42 0 -1 4194560 100 0 0 0 250 40 0 0 20 0 37 0\n");
		Files.createDirectories(this.proc.resolve("task"));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new ProcessMetrics(this.proc).bindTo(registry);
		assertThat(registry.get("process.memory.rss").gauge().value()).isEqualTo(204800 * 1024.0);
		assertThat(registry.get("process.threads.native").gauge().value()).isEqualTo(37);
		assertThat(registry.get("process.cpu.user").functionCounter().count()).isEqualTo(2.5);
		assertThat(registry.get("process.cpu.kernel").functionCounter().count()).isEqualTo(0.4);
	}

	@Test
	void contextSwitchesSumEveryThreadAndSurviveThreadExit() throws IOException {
		Files.writeString(this.proc.resolve("status"), "VmRSS:\t1 kB\nThreads:\t2\n");
		task("100", 10, 1);
		task("101", 5, 2);
		ProcessMetrics metrics = new ProcessMetrics(this.proc);
		// 10 + 5 voluntary, 1 + 2 involuntary
		assertThat(metrics.contextSwitches()).containsExactly(15, 3);
		// thread 101 exits after reaching 7 / 2 (last seen: 5 / 2); thread 100 goes on to 12 / 4
		Files.delete(this.proc.resolve("task/101/status"));
		Files.delete(this.proc.resolve("task/101"));
		task("100", 12, 4);
		// 12 + 5 (101's last seen count is kept), 4 + 2: the counter never goes backwards
		assertThat(metrics.contextSwitches()).containsExactly(17, 6);
		task("102", 1, 0);
		assertThat(metrics.contextSwitches()).containsExactly(18, 6);
	}

	@Test
	void theJitsCpuIsItsCompilerThreadsAndOnlyWhenTheServiceWalksItsOwnThreads() throws IOException {
		Files.writeString(this.proc.resolve("status"), "VmRSS:\t1 kB\nThreads:\t3\n");
		// The kernel keeps 15 characters of a thread's name: "C2 CompilerThread0" reads "C2 CompilerThre".
		thread("200", "C2 CompilerThre", 300, 20);
		thread("201", "C1 CompilerThre", 50, 10);
		thread("202", "http-nio-8080-e", 9000, 900);
		SimpleMeterRegistry walked = new SimpleMeterRegistry();
		new ProcessMetrics(this.proc, true).bindTo(walked);
		// (300 + 20 + 50 + 10) ticks of 1/100 s = 3.8 s; the request thread's 99 s are not the JIT's
		assertThat(walked.get("process.jit.cpu").functionCounter().count()).isCloseTo(3.8, org.assertj.core.data.Offset.offset(1e-9));
		// C1 exits (-XX:+UseDynamicNumberOfCompilerThreads) after 0.6 s: its count stays, the sum never goes back
		Files.delete(this.proc.resolve("task/201/comm"));
		Files.delete(this.proc.resolve("task/201/stat"));
		Files.delete(this.proc.resolve("task/201"));
		thread("200", "C2 CompilerThre", 400, 20);
		// 4.2 + 0.6
		assertThat(walked.get("process.jit.cpu").functionCounter().count()).isCloseTo(4.8, org.assertj.core.data.Offset.offset(1e-9));
		// Started by the runner (threadWalk off), the service leaves the walk to the runner's sampler.
		SimpleMeterRegistry notWalked = new SimpleMeterRegistry();
		new ProcessMetrics(this.proc, false).bindTo(notWalked);
		assertThat(notWalked.find("process.jit.cpu").functionCounter()).isNull();
	}

	private void thread(String tid, String name, long utime, long stime) throws IOException {
		Path dir = Files.createDirectories(this.proc.resolve("task").resolve(tid));
		Files.writeString(dir.resolve("comm"), name + "\n");
		Files.writeString(dir.resolve("stat"), tid + " (" + name + ") S 1 42 42 0 -1 4194560 100 0 0 0 " + utime + " " + stime + " 0 0 20 0 1 0\n");
	}

	private void task(String tid, long voluntary, long involuntary) throws IOException {
		Path dir = Files.createDirectories(this.proc.resolve("task").resolve(tid));
		Files.writeString(dir.resolve("status"),
				"Name:\tjava\nvoluntary_ctxt_switches:\t" + voluntary + "\nnonvoluntary_ctxt_switches:\t" + involuntary + "\n");
	}

}
