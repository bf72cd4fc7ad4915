package lab.plan;

import java.nio.file.Path;

/**
 * A PostgreSQL for a service of the user's own ({@code needs.postgres} of its file). Started by the lab from the
 * distribution's binaries into a directory of its own, on a free port, pinned where its placement puts it
 * ({@link DatabasePlacement}), and removed after the run; or, with {@code url}, one already running. The service gets
 * {@code spring.datasource.url}, {@code .username} and {@code .password} for it.
 *
 * @param database the database created for the service ({@code lab} by default)
 * @param init an SQL file run once into it after it is created, relative to the service file
 * @param url a JDBC URL of an existing database instead (then nothing is started)
 * @param username for {@code url} (the lab's own database: {@code lab})
 * @param password for {@code url}
 * @param placement where a PostgreSQL started here runs under a pinning profile: {@code service} (the default: on the
 *        service's core, the two sharing one t2.micro-sized budget, the harness's core left to the injector) or
 *        {@code harness} (on the harness's cores beside the injector); {@code --db-placement} overrides it
 */
public record PostgresNeed(String database, Path init, String url, String username, String password, String placement) {

	public PostgresNeed {
		database = (database != null) ? database : "lab";
	}

	/** The placement, its default filled in. */
	public String placed() {
		return (this.placement != null) ? this.placement : DatabasePlacement.SERVICE;
	}

	/** The same need placed at {@code where} ({@code --db-placement}). */
	public PostgresNeed placedAt(String where) {
		return new PostgresNeed(this.database, this.init, this.url, this.username, this.password, where);
	}

	public boolean startedHere() {
		return this.url == null;
	}

}
