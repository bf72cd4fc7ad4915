package lab.db;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL for the database set's tests: Debian's binaries ({@code /usr/lib/postgresql/<n>/bin}), a cluster in a
 * temporary directory, a free port on 127.0.0.1, trust authentication for the user {@code lab}, the database
 * {@code lab} with account.sql loaded. Its binaries refuse root: as root it runs as {@code nobody} ({@code setpriv}).
 * Without the binaries the test is skipped and says why. {@link #close} stops it and removes the directory; a shutdown
 * hook does both if the test JVM ends first.
 */
public final class TestPostgres implements AutoCloseable {

	public static final String USER = "lab";

	public static final String DATABASE = "lab";

	private final Path bin;

	private final Path data;

	private final List<String> as;

	private final Process server;

	private final int port;

	private final Thread hook;

	private TestPostgres(Path bin, Path data, List<String> as, Process server, int port) {
		this.bin = bin;
		this.data = data;
		this.as = as;
		this.server = server;
		this.port = port;
		this.hook = new Thread(this::stop);
		Runtime.getRuntime().addShutdownHook(this.hook);
	}

	/** Starts one, loaded; skips the calling test (with the reason printed) where PostgreSQL is not installed. */
	public static TestPostgres start() throws IOException, InterruptedException {
		Path bin = binaries();
		if (bin == null) {
			String reason = "SKIPPED the database set's contract tests: PostgreSQL is not installed (no /usr/lib/postgresql/<n>/bin/postgres; apt-get install postgresql)";
			System.out.println(reason);
			Assumptions.abort(reason);
		}
		boolean root = "root".equals(System.getProperty("user.name"));
		Path data = Files.createTempDirectory("lab-db-test-");
		List<String> as = List.of();
		if (root) {
			String group = Files.exists(Path.of("/etc/group")) && Files.readString(Path.of("/etc/group")).contains("\nnogroup:") ? "nogroup" : "nobody";
			as = List.of("setpriv", "--reuid=nobody", "--regid=" + group, "--clear-groups", "--");
			run(List.of("chown", "-R", "nobody:" + group, data.toString()), data);
		}
		Path cluster = data.resolve("cluster");
		List<String> initdb = new ArrayList<>(as);
		initdb.addAll(List.of(bin.resolve("initdb").toString(), "-D", cluster.toString(), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"));
		run(initdb, data);
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		List<String> postgres = new ArrayList<>(as);
		postgres.addAll(List.of(bin.resolve("postgres").toString(), "-D", cluster.toString(), "-p", Integer.toString(port), "-k", data.toString(),
				"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=100", "-c", "fsync=off"));
		Process server = new ProcessBuilder(postgres).redirectErrorStream(true).redirectOutput(data.resolve("postgres.log").toFile()).start();
		TestPostgres started = new TestPostgres(bin, data, as, server, port);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!started.accepting()) {
			if (!server.isAlive() || System.nanoTime() > deadline) {
				started.close();
				throw new IllegalStateException("PostgreSQL did not start; its log: " + Files.readString(data.resolve("postgres.log")));
			}
			Thread.sleep(200);
		}
		started.psql("postgres", "-c", "CREATE DATABASE " + DATABASE);
		Path schema = data.resolve("account.sql");
		try (InputStream sql = TestPostgres.class.getResourceAsStream("/lab-db/account.sql")) {
			Files.copy(sql, schema);
		}
		started.psql(DATABASE, "-v", "ON_ERROR_STOP=1", "-f", schema.toString());
		return started;
	}

	public int port() {
		return this.port;
	}

	/** A connection of the test's own, to look at pg_stat_activity beside the service's pool. */
	public Connection connect() throws SQLException {
		return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + this.port + "/" + DATABASE + "?ApplicationName=lab-test", USER, "");
	}

	private boolean accepting() throws IOException, InterruptedException {
		Process check = new ProcessBuilder(this.bin.resolve("pg_isready").toString(), "-h", "127.0.0.1", "-p", Integer.toString(this.port), "-q")
			.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
		return check.waitFor(10, TimeUnit.SECONDS) && check.exitValue() == 0;
	}

	private void psql(String database, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(this.bin.resolve("psql").toString(), "-X", "-q", "-h", "127.0.0.1", "-p",
				Integer.toString(this.port), "-U", USER, "-d", database));
		command.addAll(List.of(arguments));
		run(command, this.data);
	}

	private static void run(List<String> command, Path data) throws IOException, InterruptedException {
		Path log = Files.createTempFile(data.getParent(), "lab-db-test-", ".log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		boolean done = process.waitFor(120, TimeUnit.SECONDS);
		String output = Files.readString(log);
		Files.delete(log);
		if (!done || process.exitValue() != 0) {
			process.destroyForcibly();
			throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
		}
	}

	private static Path binaries() throws IOException {
		Path root = Path.of("/usr/lib/postgresql");
		if (!Files.isDirectory(root)) {
			return null;
		}
		try (Stream<Path> versions = Files.list(root)) {
			return versions.filter(v -> Files.isExecutable(v.resolve("bin/postgres")) && v.getFileName().toString().matches("\\d+"))
				.max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString()))).map(v -> v.resolve("bin")).orElse(null);
		}
	}

	/** Stops the server (fast shutdown: its backends end) and removes its directory. */
	private void stop() {
		try {
			List<String> stop = new ArrayList<>(this.as);
			stop.addAll(List.of(this.bin.resolve("pg_ctl").toString(), "-D", this.data.resolve("cluster").toString(), "-m", "fast", "-w", "stop"));
			Process process = new ProcessBuilder(stop).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
			process.waitFor(30, TimeUnit.SECONDS);
			if (!this.server.waitFor(30, TimeUnit.SECONDS)) {
				this.server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
			try (Stream<Path> files = Files.walk(this.data)) {
				files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
			}
		}
		catch (IOException | InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.hook);
		}
		catch (IllegalStateException ex) {
			// shutting down already: the hook runs
		}
	}

}
