package lab.analyse.evidence;

import java.nio.file.Files;
import java.nio.file.Path;

import lab.layout.LevelDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool named as the limit only when every connection was busy and threads waited. */
class PoolEvidenceTests {

	@TempDir
	Path dir;

	@Test
	void thePoolIsTheLimitOnlyWhenFullAndWaitedFor() {
		assertThat(PoolEvidence.limited(10, 10, 37)).isTrue();
		assertThat(PoolEvidence.limited(10, 10, 0)).as("full, nobody waiting").isFalse();
		assertThat(PoolEvidence.limited(7, 10, 3)).as("a connection was always free at the samples").isFalse();
		assertThat(PoolEvidence.limited(Double.NaN, Double.NaN, Double.NaN)).as("no pool meters").isFalse();
	}

	@Test
	void theThreadsWaitingForAConnectionAreCountedInAJsonDump() throws Exception {
		// The shape of jcmd Thread.dump_to_file -format=json (JDK 21+): containers of threads, each with its stack as text.
		Files.writeString(this.dir.resolve(LevelDir.THREADS_AT_END), """
				{"threadDump": {"processId": 1, "threadContainers": [
				  {"container": "<root>", "threads": [
				    {"tid": "1", "name": "main", "stack": ["java.base/java.lang.Thread.sleep(Thread.java:509)"]},
				    {"tid": "2", "name": "http-nio-exec-1", "stack": ["java.base/jdk.internal.misc.Unsafe.park(Native Method)",
				      "com.zaxxer.hikari.util.ConcurrentBag.borrow(ConcurrentBag.java:160)",
				      "com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:167)"]}]},
				  {"container": "java.util.concurrent.ThreadPerTaskExecutor@1", "threads": [
				    {"tid": "40", "name": "", "stack": ["com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:167)",
				      "com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:130)"]},
				    {"tid": "41", "name": "", "stack": ["org.postgresql.core.v3.QueryExecutorImpl.execute(QueryExecutorImpl.java:371)"]}]}]}}
				""");
		DumpCounts counts = DumpCounts.atEnd(this.dir);
		assertThat(counts.hikariWaiting()).as("one platform, one virtual; each once").isEqualTo(2);
		// From the dump alone, any known pool's frames: the figure a service without meters gets.
		assertThat(counts.poolWaiting()).isEqualTo(2);
		assertThat(DumpCounts.atEnd(this.dir.resolve("elsewhere"))).isEqualTo(DumpCounts.NONE);
	}

	@Test
	void otherPoolsAreRecognisedByTheirOwnFrames() throws Exception {
		Files.writeString(this.dir.resolve(LevelDir.THREADS_AT_END), """
				{"threadDump": {"threadContainers": [{"container": "<root>", "threads": [
				  {"tid": "2", "stack": ["org.apache.tomcat.jdbc.pool.ConnectionPool.borrowConnection(ConnectionPool.java:800)"]},
				  {"tid": "3", "stack": ["org.apache.commons.dbcp2.PoolingDataSource.getConnection(PoolingDataSource.java:142)"]},
				  {"tid": "4", "stack": ["com.mchange.v2.resourcepool.BasicResourcePool.awaitAvailable(BasicResourcePool.java:1503)"]},
				  {"tid": "5", "stack": ["org.postgresql.core.v3.QueryExecutorImpl.execute(QueryExecutorImpl.java:371)"]}]}]}}
				""");
		assertThat(DumpCounts.atEnd(this.dir).poolWaiting()).isEqualTo(3);
		assertThat(DumpCounts.atEnd(this.dir).hikariWaiting()).isZero();
	}

}
