package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import lab.layout.LevelDir;
import tools.jackson.databind.JsonNode;

/**
 * Where a level's JDBC connection pool was the limit ({@link LevelDir#POOL}): every connection in use and threads
 * waiting for one in the window (HikariCP's meters of a service of the user's own), with the threads found waiting in
 * {@code HikariPool.getConnection} in the thread dump taken at the window's end. Written for any verdict: a pool that
 * holds requests back is what a user tuning the pool must see, met target or not.
 */
public final class PoolEvidence {

	/** A frame of a thread waiting for a pooled connection (HikariCP). */
	static final String WAITING_FRAME = "com.zaxxer.hikari.pool.HikariPool.getConnection";

	/**
	 * The frames in which a thread waits for a pooled JDBC connection, by pool: read from the thread dump alone, so a
	 * service without meters still shows its pool as the limit.
	 */
	static final java.util.Map<String, String> WAITING_FRAMES = java.util.Map.of(
			"HikariCP", WAITING_FRAME,
			"Tomcat JDBC", "org.apache.tomcat.jdbc.pool.ConnectionPool.borrowConnection",
			"DBCP2", "org.apache.commons.dbcp2.PoolingDataSource.getConnection",
			"c3p0", "com.mchange.v2.resourcepool.BasicResourcePool.awaitAvailable");

	private PoolEvidence() {
	}

	/** Whether the pool was the limit in the window: every connection busy at some point, and threads waiting. */
	public static boolean limited(double active, double max, double pending) {
		return max > 0 && active >= max && pending > 0;
	}

	/** Writes {@code pool.md} into the level's directory when the pool was the limit; its path, else empty. */
	public static Optional<Path> write(Measurement measurement) throws IOException {
		double active = measurement.sampled().getOrDefault(Metric.PEAK_POOL_ACTIVE, Double.NaN);
		double max = measurement.sampled().getOrDefault(Metric.POOL_MAX, Double.NaN);
		double pending = measurement.sampled().getOrDefault(Metric.PEAK_POOL_PENDING, Double.NaN);
		if (!limited(active, max, pending)) {
			return Optional.empty();
		}
		Path dir = measurement.dir();
		int waiting = waitingThreads(dir.resolve(LevelDir.THREADS_AT_END));
		StringBuilder text = new StringBuilder();
		text.append("# The connection pool was the limit\n\n");
		text.append(String.format(Locale.ROOT, "In the steady window every one of the pool's %.0f connections was in use at some point (peak %.0f), "
				+ "and up to %.0f threads waited for one (HikariCP's `hikaricp_connections_pending`, sampled once a second).%n%n", max, active, pending));
		if (waiting >= 0) {
			text.append(String.format(Locale.ROOT, "At the window's end %d threads were waiting in `%s` (`%s`, every platform and virtual thread).%n%n",
					waiting, WAITING_FRAME, LevelDir.THREADS_AT_END));
		}
		text.append("A request that waits for a connection holds its thread (or virtual thread) and its place in the latency; more threads "
				+ "do not help, a larger pool or a faster query does, as far as the database keeps up. Compare the arms with another "
				+ "`spring.datasource.hikari.maximum-pool-size`.\n");
		Path file = dir.resolve(LevelDir.POOL);
		Files.writeString(file, text.toString());
		return Optional.of(file);
	}

	/** One line for the console: "the connection pool was the limit (10 of 10 busy, up to 180 waiting)". */
	public static String line(Measurement measurement) {
		return String.format(Locale.ROOT, "the connection pool was the limit (%.0f of %.0f busy, up to %.0f waiting)",
				measurement.sampled().get(Metric.PEAK_POOL_ACTIVE), measurement.sampled().get(Metric.POOL_MAX),
				measurement.sampled().get(Metric.PEAK_POOL_PENDING));
	}

	/**
	 * Threads waiting for a pooled connection (any pool of {@link #WAITING_FRAMES}) in the level's thread dump at the
	 * window's end; NaN without a dump.
	 */
	public static double waitingAtEnd(Path levelDir) {
		Path dump = levelDir.resolve(LevelDir.THREADS_AT_END);
		if (!Files.isRegularFile(dump)) {
			return Double.NaN;
		}
		int count = 0;
		for (String frame : WAITING_FRAMES.values()) {
			count += Math.max(0, waitingThreads(dump, frame));
		}
		return count;
	}

	/** Threads whose stack holds {@link #WAITING_FRAME} in a {@code Thread.dump_to_file -format=json} dump; -1 when there is none. */
	static int waitingThreads(Path dump) {
		return waitingThreads(dump, WAITING_FRAME);
	}

	/** Threads whose stack holds {@code waitingFrame}; -1 without a dump. */
	static int waitingThreads(Path dump, String waitingFrame) {
		if (!Files.isRegularFile(dump)) {
			return -1;
		}
		try {
			JsonNode root = LevelJson.json.readTree(dump.toFile());
			int count = 0;
			for (JsonNode container : root.path("threadDump").path("threadContainers")) {
				for (JsonNode thread : container.path("threads")) {
					for (JsonNode frame : thread.path("stack")) {
						if (frame.asString().contains(waitingFrame)) {
							count++;
							break;
						}
					}
				}
			}
			return count;
		}
		catch (RuntimeException ex) {
			return -1;
		}
	}

}
