package lab.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import lab.plan.PostgresNeed;


/**
 * A PostgreSQL the lab starts for a service that needs one: the distribution's binaries ({@code /usr/lib/postgresql/<n>/bin},
 * Debian's {@code postgresql} package), a data directory of its own under the system's temporary directory, a free
 * port on 127.0.0.1, pinned to the harness's cores (off the service's), trust authentication for the user {@code lab}.
 * Its binaries refuse to run as root: as root, the cluster is created and run as {@code nobody} ({@code setpriv}, which
 * execs, so the PID the runner holds is the server's). Closing it stops the server and removes the directory; if the
 * runner is killed, its watchdog does both ({@link Children#removeOnExit}).
 */
public final class Postgres implements AutoCloseable {

	/** The role the service connects as (trust authentication, loopback only). */
	public static final String USER = "lab";

	/**
	 * Enough for every arm of a run holding its pool open at once (a capacity search keeps them all alive):
	 * db/pools-slow.yml's eight arms open 4 x (10 + 200) = 840 connections.
	 */
	static final int MAX_CONNECTIONS = 1000;

	private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

	private final Process process;

	private final Path data;

	private final int port;

	private final String database;

	/** The distribution's binaries it runs from ({@link #binaries}). */
	private final Path bin;

	private Postgres(Process process, Path data, int port, String database, Path bin) {
		this.process = process;
		this.data = data;
		this.port = port;
		this.database = database;
		this.bin = bin;
	}

	/** The newest {@code bin} of the distribution's PostgreSQL, or a line saying how to install it. */
	public static Path binaries() {
		Path root = Path.of("/usr/lib/postgresql");
		if (Files.isDirectory(root)) {
			try (Stream<Path> versions = Files.list(root)) {
				Path newest = versions.filter(v -> Files.isExecutable(v.resolve("bin/postgres")) && v.getFileName().toString().matches("\\d+"))
					.max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString()))).orElse(null);
				if (newest != null) {
					return newest.resolve("bin");
				}
			}
			catch (IOException ex) {
				// as if absent
			}
		}
		throw new ServiceFailure("PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/postgres): "
				+ "apt-get install postgresql (Debian, Ubuntu), or give needs.postgres.url of one already running");
	}

	/**
	 * Creates a cluster and the database {@code spec} names, runs its init SQL, and returns the running server; its log
	 * goes to {@code log}.
	 */
	public static Postgres start(PostgresNeed spec, String cpus, Path log) throws IOException, InterruptedException {
		Path bin = binaries();
		boolean root = "root".equals(System.getProperty("user.name"));
		Path data = Files.createTempDirectory("loom-lab-postgres-");
		Children.removeOnExit(data);
		Files.createDirectories(log.getParent());
		// Debian's unprivileged group is nogroup, other distributions' nobody.
		String group = root ? unprivilegedGroup(data) : null;
		List<String> as = root ? List.of("setpriv", "--reuid=nobody", "--regid=" + group, "--clear-groups", "--") : List.of();
		if (root) {
			owned(data, "nobody", group);
		}
		Path cluster = data.resolve("cluster");
		List<String> initdb = new ArrayList<>(as);
		initdb.addAll(List.of(bin.resolve("initdb").toString(), "-D", cluster.toString(), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"));
		run(initdb, log, "initdb");
		int port = Launch.freePort();
		List<String> server = new ArrayList<>(as);
		server.addAll(List.of(bin.resolve("postgres").toString(), "-D", cluster.toString(), "-p", Integer.toString(port), "-k", data.toString(),
				"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=" + MAX_CONNECTIONS));
		Files.writeString(log, "$ " + String.join(" ", server) + "\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
		Process process = Launch.start(server, cpus, log);
		Postgres postgres = new Postgres(process, data, port, spec.database(), bin);
		boolean ready = false;
		try {
			Readiness.await("PostgreSQL", process, READY_TIMEOUT, log, "did not accept connections", () -> postgres.accepting() ? Boolean.TRUE : null);
			postgres.psql("postgres", List.of("-c", "CREATE DATABASE " + spec.database()), log);
			if (spec.init() != null) {
				postgres.psql(spec.database(), List.of("-v", "ON_ERROR_STOP=1", "-f", spec.init().toString()), log);
			}
			ready = true;
			return postgres;
		}
		finally {
			if (!ready) {
				postgres.close();
			}
		}
	}

	private boolean accepting() throws IOException, InterruptedException {
		Process check = new ProcessBuilder(this.bin.resolve("pg_isready").toString(), "-h", "127.0.0.1", "-p", Integer.toString(this.port), "-q")
			.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
		return check.waitFor(10, TimeUnit.SECONDS) && check.exitValue() == 0;
	}

	/** {@code psql} as {@link #USER} over TCP into {@code database}; fails with the log's path when it does. */
	void psql(String database, List<String> arguments, Path log) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(this.bin.resolve("psql").toString(), "-X", "-q", "-h", "127.0.0.1", "-p",
				Integer.toString(this.port), "-U", USER, "-d", database));
		command.addAll(arguments);
		run(command, log, "psql " + String.join(" ", arguments));
	}

	private static void run(List<String> command, Path log, String what) throws IOException, InterruptedException {
		Files.writeString(log, "$ " + String.join(" ", command) + "\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
		Process process = Children.register(new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			Children.stop(process);
			throw new ServiceFailure(what + " did not finish within 120 s; see " + log);
		}
		if (process.exitValue() != 0) {
			throw new ServiceFailure(what + " failed with exit code " + process.exitValue() + "; see " + log);
		}
	}

	private static String unprivilegedGroup(Path dir) {
		try {
			dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("nogroup");
			return "nogroup";
		}
		catch (IOException ex) {
			return "nobody";
		}
	}

	private static void owned(Path dir, String user, String group) throws IOException {
		UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
		UserPrincipal owner = lookup.lookupPrincipalByName(user);
		GroupPrincipal ownerGroup = lookup.lookupPrincipalByGroupName(group);
		PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
		view.setOwner(owner);
		view.setGroup(ownerGroup);
	}

	public int port() {
		return this.port;
	}

	public long pid() {
		return this.process.pid();
	}

	/** {@code psql} as {@link #USER} over TCP into the service's database, quiet and without a startup file: what a watcher opens. */
	public List<String> psqlCommand() {
		return List.of(this.bin.resolve("psql").toString(), "-X", "-q", "-h", "127.0.0.1", "-p", Integer.toString(this.port), "-U", USER, "-d",
				this.database);
	}

	public Path data() {
		return this.data;
	}

	public String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/" + this.database;
	}

	/**
	 * What a Spring Boot service needs to reach it: {@code spring.datasource.url}, {@code .username}, {@code .password}
	 * for JDBC, and the same of {@code spring.r2dbc} for R2DBC (a service with one of them ignores the other's).
	 */
	public Map<String, String> properties() {
		Map<String, String> properties = properties(jdbcUrl(), USER, "");
		properties.put("spring.r2dbc.url", "r2dbc:postgresql://127.0.0.1:" + this.port + "/" + this.database);
		properties.put("spring.r2dbc.username", USER);
		properties.put("spring.r2dbc.password", "");
		return properties;
	}

	public static Map<String, String> properties(String url, String username, String password) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.datasource.url", url);
		properties.put("spring.datasource.username", (username != null) ? username : "");
		properties.put("spring.datasource.password", (password != null) ? password : "");
		return properties;
	}

	public boolean alive() {
		return this.process.isAlive();
	}

	/** Stops the server (SIGTERM: a smart shutdown, the services are gone by then) and removes its directory. */
	@Override
	public void close() {
		Children.stop(this.process);
		try {
			this.process.waitFor(Children.GRACE_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		Children.remove(this.data);
	}

}
