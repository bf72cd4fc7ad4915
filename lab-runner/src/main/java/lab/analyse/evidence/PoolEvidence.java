package lab.analyse.evidence;

import java.nio.file.Path;

import lab.analyse.read.ThreadDump;
import lab.layout.LevelDir;

/**
 * Whether a level's JDBC connection pool was the limit: every connection in use and threads waiting for one in the
 * window (HikariCP's meters of a service of the user's own), and the threads found waiting for a connection in the thread
 * dump taken at the window's end (any pool, with or without meters). The report's {@code PoolFile} writes
 * {@link LevelDir#POOL} from it.
 */
public final class PoolEvidence {

	/** A frame of a thread waiting for a pooled connection (HikariCP). */
	public static final String WAITING_FRAME = "com.zaxxer.hikari.pool.HikariPool.getConnection";

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

}
