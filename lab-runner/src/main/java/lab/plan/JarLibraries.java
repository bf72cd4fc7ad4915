package lab.plan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What a service of the user's own is made of, read from its jar without running it: its SHA-256 and the libraries a
 * Spring Boot jar carries in {@code BOOT-INF/lib} by name and version, with those that decide how virtual threads fare
 * named apart (the JDBC driver, the pool, the server, Spring Boot and Spring). The manifest keeps them: two runs of
 * "the same service" with another driver are not the same service.
 */
public final class JarLibraries {

	/** {@code name-version.jar}: the version from the first dash followed by a digit. */
	private static final Pattern LIBRARY = Pattern.compile("^(.+?)-(\\d[^/]*)\\.jar$");

	/** The libraries worth naming apart, by the role they play, each with the artifact names that play it. */
	private static final Map<String, List<String>> ROLES = new LinkedHashMap<>();

	static {
		ROLES.put("driver", List.of("postgresql", "mysql-connector-j", "mysql-connector-java", "mariadb-java-client", "ojdbc11", "ojdbc8",
				"mssql-jdbc", "h2", "r2dbc-postgresql"));
		ROLES.put("pool", List.of("HikariCP", "tomcat-jdbc", "commons-dbcp2", "r2dbc-pool"));
		ROLES.put("server", List.of("tomcat-embed-core", "jetty-server", "reactor-netty-http", "undertow-core"));
		ROLES.put("springBoot", List.of("spring-boot"));
		ROLES.put("spring", List.of("spring-core"));
	}

	/** A JDBC URL's subprotocol ({@code jdbc:postgresql:...}) and the driver artifacts that serve it. */
	private static final Map<String, List<String>> DRIVERS_BY_URL = Map.of("postgresql", List.of("postgresql"), "mysql",
			List.of("mysql-connector-j", "mysql-connector-java"), "mariadb", List.of("mariadb-java-client"), "oracle", List.of("ojdbc11", "ojdbc8"),
			"sqlserver", List.of("mssql-jdbc"), "h2", List.of("h2"));

	/** One library: its artifact name and version as the jar's file name gives them. */
	public record Library(String name, String version) {

		@Override
		public String toString() {
			return this.name + " " + this.version;
		}

	}

	/**
	 * @param sha256 the jar's hash
	 * @param roles the libraries that play a named role (driver, pool, server, springBoot, spring), "name version"
	 * @param libraries every library of {@code BOOT-INF/lib}, in the jar's order
	 * @param driversPresent every JDBC driver in the jar, the one in use or not ("postgresql 42.7.8", "h2 2.4.240")
	 */
	public record Facts(String sha256, Map<String, String> roles, List<Library> libraries, List<String> driversPresent) {
	}

	private JarLibraries() {
	}

	public static Facts read(Path jar) throws IOException {
		return read(jar, null);
	}

	/**
	 * The jar's libraries; its driver is the one the datasource URL the service runs with names ({@code jdbc:postgresql:}
	 * picks postgresql even where h2 comes first in the jar), else the first driver in the jar.
	 */
	public static Facts read(Path jar, String jdbcUrl) throws IOException {
		List<Library> libraries = new ArrayList<>();
		try (ZipFile zip = new ZipFile(jar.toFile())) {
			zip.stream().map(ZipEntry::getName).filter(name -> name.startsWith("BOOT-INF/lib/") && name.endsWith(".jar"))
				.map(name -> library(name.substring("BOOT-INF/lib/".length()))).forEach(libraries::add);
		}
		Map<String, String> roles = new LinkedHashMap<>();
		ROLES.forEach((role, names) -> libraries.stream().filter(library -> names.contains(library.name())).findFirst()
			.ifPresent(library -> roles.put(role, library.toString())));
		List<String> drivers = libraries.stream().filter(library -> ROLES.get("driver").contains(library.name())).map(Library::toString).toList();
		List<String> byUrl = driverArtifacts(jdbcUrl);
		libraries.stream().filter(library -> byUrl.contains(library.name())).findFirst().ifPresent(library -> roles.put("driver", library.toString()));
		return new Facts(sha256(jar), roles, libraries, drivers);
	}

	/** The driver artifacts a JDBC URL's subprotocol names; empty without a URL or for one not listed. */
	static List<String> driverArtifacts(String jdbcUrl) {
		if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:")) {
			return List.of();
		}
		String rest = jdbcUrl.substring("jdbc:".length());
		int colon = rest.indexOf(':');
		return DRIVERS_BY_URL.getOrDefault((colon < 0) ? rest : rest.substring(0, colon), List.of());
	}

	/** A library from its file name: {@code postgresql-42.7.8.jar} → postgresql 42.7.8; no version: the name alone. */
	static Library library(String file) {
		Matcher matcher = LIBRARY.matcher(file);
		return matcher.matches() ? new Library(matcher.group(1), matcher.group(2)) : new Library(file.replaceFirst("\\.jar$", ""), "");
	}

	static String sha256(Path file) throws IOException {
		try (InputStream in = Files.newInputStream(file)) {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			byte[] buffer = new byte[1 << 16];
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				digest.update(buffer, 0, read);
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
