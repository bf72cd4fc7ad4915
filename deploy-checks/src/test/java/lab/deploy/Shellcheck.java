package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Debian's shellcheck: from the PATH, or taken out of its package ({@code apt-get download}, no root needed) into the
 * lab's cache outside the clone, where later test runs reuse it.
 */
final class Shellcheck {

	private Shellcheck() {
	}

	static String path(Path scratch) throws Exception {
		if (Commands.onPath("shellcheck")) {
			return "shellcheck";
		}
		String home = System.getenv().getOrDefault("XDG_CACHE_HOME", System.getProperty("user.home") + "/.cache");
		Path cache = Path.of(System.getenv().getOrDefault("LAB_CACHE_DIR", home + "/loom-lab")).resolve("shellcheck");
		Path binary = cache.resolve("usr/bin/shellcheck");
		if (!Files.isExecutable(binary)) {
			Path work = Files.createDirectories(scratch.resolve("shellcheck-download"));
			String fetch = "apt-get download shellcheck && dpkg-deb -x shellcheck_*.deb " + cache;
			Process process = new ProcessBuilder("sh", "-c", fetch).directory(work.toFile()).redirectErrorStream(true)
				.redirectOutput(work.resolve("download.log").toFile()).start();
			if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0 || !Files.isExecutable(binary)) {
				throw new IllegalStateException("shellcheck is not installed and could not be taken from Debian's package "
						+ "(apt-get install shellcheck): " + Files.readString(work.resolve("download.log")));
			}
		}
		return binary.toString();
	}

}
