package lab.analyse.read;

import java.nio.file.Files;
import java.nio.file.Path;

import lab.analyse.judge.Figures;
import lab.layout.LevelDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The thread dump at the window's end: its virtual threads, and how long the JDK took to dump it thread by thread. */
class ThreadDumpTests {

	@TempDir
	Path dir;

	@Test
	void virtualThreadsAreCountedParkedOrNotAndTheDumpsSpanIsItsThreadsTimes() throws Exception {
		// The shape of jcmd Thread.dump_to_file -format=json on JDK 25: each thread with the time it was dumped.
		Files.writeString(this.dir.resolve(LevelDir.THREADS_AT_END), """
				{"threadDump": {"processId": "1", "time": "2026-11-27T22:13:37.737Z", "threadContainers": [
				  {"container": "<root>", "threads": [
				    {"tid": "6", "time": "2026-11-27T22:13:37.738500Z", "name": "Reference Handler", "stack": []},
				    {"tid": "39250", "time": "2026-11-27T22:13:37.743900Z", "virtual": true, "name": "tomcat-handler-1", "state": "RUNNABLE",
				      "carrier": "25", "stack": ["com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:167)"]},
				    {"tid": "39251", "time": "2026-11-27T22:13:37.949900Z", "virtual": true, "name": "tomcat-handler-2", "state": "WAITING",
				      "stack": ["java.base/jdk.internal.misc.Unsafe.park(Native Method)"]}]},
				  {"container": "java.util.concurrent.ThreadPoolExecutor@1", "threads": []}]}}
				""");
		ThreadDump dump = ThreadDump.atEnd(this.dir).orElseThrow();
		assertThat(dump.virtualThreads()).as("mounted and parked alike").isEqualTo(2);
		assertThat(dump.in("HikariPool.getConnection")).isEqualTo(1);
		assertThat(dump.spanMs()).as("first thread dumped to last").isCloseTo(211.4, within(0.01));
		assertThat(ThreadDump.atEnd(this.dir.resolve("elsewhere"))).isEmpty();
		Files.writeString(this.dir.resolve("broken.json"), "{not json");
		assertThat(ThreadDump.read(this.dir.resolve("broken.json"))).as("not a dump: nothing, not a failure").isEmpty();
		assertThat(Figures.VIRTUAL_THREADS_AT_END.field()).isEqualTo("virtualThreadsAtEnd");
	}

}
