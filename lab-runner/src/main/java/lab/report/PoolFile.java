package lab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import lab.analyse.evidence.PoolEvidence;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.layout.LevelDir;

/**
 * The evidence file of a level whose JDBC connection pool was the limit ({@link LevelDir#POOL}, when
 * {@link PoolEvidence#limited}). Written for any verdict: a pool that holds requests back is what a user tuning the pool
 * must see, met target or not.
 */
public final class PoolFile {

	private PoolFile() {
	}

	/** Writes {@code pool.md} into the level's directory when the pool was the limit; its path, else empty. */
	public static Optional<Path> write(Measurement measurement) throws IOException {
		double active = measurement.sampled().getOrDefault(Metric.PEAK_POOL_ACTIVE, Double.NaN);
		double max = measurement.sampled().getOrDefault(Metric.POOL_MAX, Double.NaN);
		double pending = measurement.sampled().getOrDefault(Metric.PEAK_POOL_PENDING, Double.NaN);
		if (!PoolEvidence.limited(active, max, pending)) {
			return Optional.empty();
		}
		Path dir = measurement.dir();
		double waiting = measurement.threadDump().hikariWaiting();
		double spanMs = measurement.threadDump().spanMs();
		StringBuilder text = new StringBuilder();
		text.append("# The connection pool was the limit\n\n");
		text.append(String.format(Locale.ROOT, "In the steady window every one of the pool's %.0f connections was in use at some point (peak %.0f), "
				+ "and up to %.0f threads waited for one (HikariCP's `hikaricp_connections_pending` or r2dbc-pool's `r2dbc_pool_pending_connections`, sampled once a second).%n%n", max, active, pending));
		if (Double.isFinite(waiting)) {
			text.append(String.format(Locale.ROOT, "At the window's end %.0f threads were waiting in `%s` (`%s`, every platform and virtual thread).%n%n",
					waiting, PoolEvidence.WAITING_FRAME, LevelDir.THREADS_AT_END));
			if (Double.isFinite(spanMs)) {
				text.append(String.format(Locale.ROOT, "The dump took %.0f ms, thread by thread (each thread's `time`): a request that ended meanwhile "
						+ "and its user's next one may both be in it, so the count can exceed the users.%n%n", spanMs));
			}
		}
		text.append("A request that waits for a connection holds its thread (or virtual thread) and its place in the latency; more threads "
				+ "do not help, a larger pool or a faster query does, as far as the database keeps up. Compare the arms with another "
				+ "pool size (`spring.datasource.hikari.maximum-pool-size`, `spring.r2dbc.pool.max-size`).\n");
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

}
