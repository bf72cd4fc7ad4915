package lab.analyse.evidence;

import java.nio.file.Path;

import lab.analyse.read.ThreadDump;

/**
 * What the level's thread dump at the window's end ({@code threads-at-end.json}) counts, read once per level.
 *
 * @param poolWaiting threads waiting for a pooled JDBC connection in any pool's frames ({@link PoolEvidence#WAITING_FRAMES})
 * @param hikariWaiting of them, in HikariCP's ({@link PoolEvidence#WAITING_FRAME})
 * @param virtualThreads virtual threads in the dump
 * @param spanMs from the first thread dumped to the last
 * All NaN without a dump.
 */
public record DumpCounts(double poolWaiting, double hikariWaiting, double virtualThreads, double spanMs) {

	public static final DumpCounts NONE = new DumpCounts(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

	public static DumpCounts atEnd(Path levelDir) {
		return ThreadDump.atEnd(levelDir).map(DumpCounts::of).orElse(NONE);
	}

	static DumpCounts of(ThreadDump dump) {
		return new DumpCounts(PoolEvidence.WAITING_FRAMES.values().stream().mapToInt(dump::in).sum(), dump.in(PoolEvidence.WAITING_FRAME),
				dump.virtualThreads(), dump.spanMs());
	}

}
