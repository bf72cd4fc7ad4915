package lab.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import lab.launch.LabCache;

/**
 * The classes a local Gatling JVM runs, and a class-data-sharing archive of them (the JDK's dynamic AppCDS): Gatling's
 * JVM reached its first request in 2.4 s with the archive against 3.1-3.4 s without it on the injector's idle core
 * here (3 pairs), 4.0-4.8 s against 6.0-6.5 s beside a compile, on every warm-up and level. The injector is the
 * harness, not what is measured: its steady cost per request is the same either way, only its start is shorter.
 * <p>
 * CDS takes jars only, so the archive is used when the gatling module's jar is at least as new as every class the
 * build compiled; otherwise (a build that only compiled, or the copy {@code ./lab aws} ships) the classes directory
 * runs, without an archive. The archive is made by the first run that finds none ({@code -XX:ArchiveClassesAtExit},
 * written at its exit, some seconds longer once), into a file of its own moved into place only when that run ended
 * well: a half-written archive is never read, and two injectors making one at once each move a whole one. Its name
 * says what it was made from (the java binary, and each classpath entry's path, size and time), so a rebuilt jar or
 * another JDK makes a new one; a new one replaces the same JDK's older ones, and parts an interrupted run left. A JDK
 * without a base archive (a stripped runtime) makes none and runs as before. The JVM's own CDS messages are off: on
 * JDK 25 the base archive's module options differ from the injector's, which it reports at error level while it maps
 * the archive all the same.
 */
final class InjectorClasses {

	private final String classpath;

	private final List<String> flags;

	/** The archive this run writes at its exit, to move into place; null when it reads one or runs without. */
	private final Path making;

	private final Path archive;

	private InjectorClasses(String classpath, List<String> flags, Path making, Path archive) {
		this.classpath = classpath;
		this.flags = flags;
		this.making = making;
		this.archive = archive;
	}

	/** The simulation's classes and Gatling's jars as the build left them, with the archive where there can be one. */
	static InjectorClasses of(Path root, Path java) throws IOException {
		return of(root, java, LabCache.root().resolve("injector-cds"));
	}

	static InjectorClasses of(Path root, Path java, Path cache) throws IOException {
		Path jar = freshJar(root.resolve("gatling/target"), root.resolve("gatling/target/classes"));
		String classpath = classpath(root, jar);
		if (jar == null) {
			return new InjectorClasses(classpath, List.of(), null, null);
		}
		Path archive = cache.resolve("gatling-" + key(List.of(java.toRealPath().toString())) + "-" + key(List.of(classpath.split(":"))) + ".jsa");
		List<String> flags = new ArrayList<>(List.of("-Xlog:cds*=off"));
		if (Files.isRegularFile(archive)) {
			flags.add("-XX:SharedArchiveFile=" + archive);
			return new InjectorClasses(classpath, flags, null, archive);
		}
		Files.createDirectories(cache);
		Path making = cache.resolve(archive.getFileName() + "." + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".part");
		flags.add("-XX:ArchiveClassesAtExit=" + making);
		return new InjectorClasses(classpath, flags, making, archive);
	}

	/**
	 * The simulation's classes and Gatling's jars as the build left them, for a JVM that reads no archive (the merge of
	 * several injectors' reports): the module's jar when it is fresh, else the classes directory.
	 */
	static String classpath(Path root) throws IOException {
		return classpath(root, freshJar(root.resolve("gatling/target"), root.resolve("gatling/target/classes")));
	}

	private static String classpath(Path root, Path jar) throws IOException {
		Path classes = (jar != null) ? jar : root.resolve("gatling/target/classes");
		return classes + ":" + Files.readString(root.resolve("gatling/target/classpath.txt")).trim();
	}

	/** The module's jar when no compiled class is newer than it; else null. */
	static Path freshJar(Path target, Path classes) throws IOException {
		List<Path> jars;
		try (Stream<Path> files = Files.list(target)) {
			jars = files.filter(f -> f.getFileName().toString().matches("gatling-.*\\.jar") && !f.getFileName().toString().matches(".*-(sources|tests|javadoc)\\.jar"))
				.toList();
		}
		catch (java.nio.file.NoSuchFileException ex) {
			return null;
		}
		if (jars.size() != 1 || !Files.isDirectory(classes)) {
			return null;
		}
		FileTime built = Files.getLastModifiedTime(jars.get(0));
		try (Stream<Path> files = Files.walk(classes)) {
			boolean newer = files.filter(Files::isRegularFile).anyMatch(f -> {
				try {
					return Files.getLastModifiedTime(f).compareTo(built) > 0;
				}
				catch (IOException ex) {
					return true;
				}
			});
			return newer ? null : jars.get(0);
		}
	}

	/** What an archive depends on, hashed: each file by path, size and time. */
	static String key(List<String> files) throws IOException {
		StringBuilder what = new StringBuilder();
		for (String entry : files) {
			Path file = Path.of(entry);
			what.append(entry).append(' ');
			if (Files.exists(file)) {
				what.append(Files.size(file)).append(' ').append(Files.getLastModifiedTime(file).toMillis());
			}
			what.append('\n');
		}
		try {
			byte[] sha = MessageDigest.getInstance("SHA-256").digest(what.toString().getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(sha, 0, 6);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	String classpath() {
		return this.classpath;
	}

	/** The classpath as gatling-command.txt shows it: the libraries as the file that lists them. */
	String shown() {
		int libraries = this.classpath.indexOf(':');
		return this.classpath.substring(0, libraries + 1) + "<gatling/target/classpath.txt>";
	}

	List<String> flags() {
		return this.flags;
	}

	Path archive() {
		return this.archive;
	}

	/**
	 * After the JVM ended: the archive it wrote moved into place when it ended well, else dropped; the same JDK's
	 * archives of older jars removed (each is some 40 MB). Best effort: a cache that cannot be written costs the next
	 * start its archive, not the level.
	 */
	void settle(boolean endedWell) {
		if (this.making == null || !Files.isRegularFile(this.making)) {
			return;
		}
		try {
			if (!endedWell) {
				Files.deleteIfExists(this.making);
				return;
			}
			Files.move(this.making, this.archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			String name = this.archive.getFileName().toString();
			String jdk = name.substring(0, name.lastIndexOf('-') + 1);
			long hourAgo = System.currentTimeMillis() - 3_600_000;
			try (Stream<Path> files = Files.list(this.archive.getParent())) {
				for (Path old : files.filter(f -> !f.equals(this.archive) && f.getFileName().toString().startsWith(jdk)).toList()) {
					String file = old.getFileName().toString();
					if (file.endsWith(".jsa") || (file.endsWith(".part") && Files.getLastModifiedTime(old).toMillis() < hourAgo)) {
						Files.deleteIfExists(old);
					}
				}
			}
		}
		catch (IOException ex) {
			// the next run makes one again
		}
	}

}
