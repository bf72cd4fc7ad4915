package lab.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import lab.analyse.profile.StartProfile;
import lab.json.Json;
import lab.launch.Children;
import lab.launch.LabCache;
import lab.launch.Launch;
import lab.launch.RunningService;
import lab.launch.Service;
import lab.launch.ServiceFailure;
import lab.layout.Level;
import lab.layout.LoadShape;
import lab.layout.ServiceDir;
import lab.load.Injectors;
import lab.plan.Aot;
import lab.plan.Arm;
import lab.plan.RunPlan;

/**
 * A service's JDK 25 AOT cache, kept between runs and trained when missing or stale. Every mode starts the variant
 * from its extracted jar ({@code java -Djarmode=tools -jar <fat jar> extract}: the cache holds classes of the class
 * path only). A cache is kept under {@code $LAB_CACHE_DIR/aot/<module>-<jar sha>/} with a stamp of what it was made
 * from (the jar's SHA-256, the JDK's {@code java -version}, the JVM flags); a stamp that does not match the jar, the
 * JDK and the flags about to run is stale: the cache is trained again, and says so in one line. The service then runs
 * with {@code -XX:AOTMode=on}, so a cache the JVM itself finds unusable stops it instead of being silently ignored.
 */
final class AotCache {

	/** Kept in the service's directory: which cache it started with and how that cache was made. */
	static final String APPLIED = ServiceDir.AOT_CACHE;

	/**
	 * What to launch: the extracted jar, the cache's flags (none for {@link Aot#NONE}), and how the cache was made.
	 *
	 * @param stamp the cache's stamp (empty for none): made from, trained how and how long, its size, whether reused
	 */
	record Prepared(Path jar, List<String> flags, Map<String, Object> stamp) {
	}

	private final Harness harness;

	private final Path root;

	AotCache(Harness harness) {
		this(harness, cacheRoot());
	}

	AotCache(Harness harness, Path root) {
		this.harness = harness;
		this.root = root;
	}

	/** {@code $LAB_CACHE_DIR/aot}, else {@code $XDG_CACHE_HOME/loom-lab/aot}, else {@code ~/.cache/loom-lab/aot}. */
	static Path cacheRoot() {
		return LabCache.root().resolve("aot");
	}

	/**
	 * The extracted jar every service the lab builds starts from, with or without a cache: Spring Boot's recommended
	 * form for production (its class path of plain jars, the form the lab's images run), ready 4.5-4.8 s sooner on one
	 * core than the fat jar (app-webflux and app-tomcat-loom, one smoke run against two). Kept under {@code $LAB_CACHE_DIR/aot/<module>-<jar sha>/} beside the module's caches.
	 */
	static Path extractedJar(Path java, Path fat, String module) throws IOException, InterruptedException {
		return extracted(java, fat, cacheRoot().resolve(module + "-" + sha256(fat).substring(0, 12)), module);
	}

	/**
	 * The jar and flags {@code module} starts with in {@code arm}: the extracted jar, and for a cache mode the cache, made
	 * now when missing or stale (its training's files under {@code dir}).
	 *
	 * @param flags the JVM flags the service runs with (the cache must be made with the same)
	 * @param arguments the Spring arguments it runs with (the training's too)
	 */
	Prepared prepare(String module, Arm arm, List<String> flags, List<String> arguments, Path dir) throws IOException, InterruptedException {
		Path java = arm.jdk().home().resolve("bin/java");
		Path fat = RunPlan.jar(this.harness.plan().root(), module);
		String sha = sha256(fat);
		Path home = this.root.resolve(module + "-" + sha.substring(0, 12));
		Path jar = extracted(java, fat, home, module);
		if (arm.aot() == Aot.NONE) {
			return new Prepared(jar, List.of(), Map.of("mode", Aot.NONE.id(), "jar", jar.toString()));
		}
		String jdk = javaVersion(java);
		Path cache = home.resolve("jdk" + arm.jdk().feature() + "-" + arm.aot().id() + "-" + Integer.toHexString(flags.hashCode()) + ".aot");
		Path stampFile = cache.resolveSibling(cache.getFileName() + ".json");
		Map<String, Object> wanted = new LinkedHashMap<>();
		wanted.put("mode", arm.aot().id());
		wanted.put("jarSha256", sha);
		wanted.put("java", jdk);
		wanted.put("flags", flags);
		wanted.put("training", training(arm));
		String stale = stale(cache, stampFile, wanted);
		Map<String, Object> stamp;
		if (stale == null) {
			stamp = new LinkedHashMap<>(Json.MAPPER.readValue(stampFile.toFile(), Map.class));
			stamp.put("reused", true);
			stamp.put("path", cache.toString());
			say("lab: " + module + " starts with its AOT cache: " + StartProfile.describeAotCache(stamp));
		}
		else {
			if (!stale.isEmpty()) {
				say("lab: the AOT cache " + cache + " was made from " + stale + ": training it again");
			}
			Files.deleteIfExists(cache);
			Files.deleteIfExists(stampFile);
			stamp = train(module, arm, java, jar, cache, flags, arguments, dir.resolveSibling(dir.getFileName() + "-aot-training"));
			stamp.putAll(wanted);
			stamp.put("sizeBytes", Files.size(cache));
			stamp.put("createdAt", Instant.now().toString());
			Json.MAPPER.writeValue(stampFile.toFile(), stamp);
			stamp = new LinkedHashMap<>(stamp);
			stamp.put("reused", false);
			stamp.put("path", cache.toString());
			say("lab: " + module + " AOT cache made: " + StartProfile.describeAotCache(stamp));
		}
		List<String> cacheFlags = List.of("-XX:AOTCache=" + cache, "-XX:AOTMode=on");
		return new Prepared(jar, cacheFlags, stamp);
	}

	/**
	 * Why the cache is stale, in words ("another jar (sha 1a2b...)", "another JDK (...)", "other JVM flags"); null when
	 * it matches, "" when there is none yet.
	 */
	static String stale(Path cache, Path stampFile, Map<String, Object> wanted) throws IOException {
		if (!Files.isRegularFile(cache) || !Files.isRegularFile(stampFile)) {
			return "";
		}
		Map<?, ?> stamp;
		try {
			stamp = Json.MAPPER.readValue(stampFile.toFile(), Map.class);
		}
		catch (RuntimeException ex) {
			return "an unreadable stamp (" + ex.getMessage() + ")";
		}
		if (!String.valueOf(wanted.get("jarSha256")).equals(String.valueOf(stamp.get("jarSha256")))) {
			return "another jar (sha " + abbreviate(stamp.get("jarSha256")) + ", this one " + abbreviate(wanted.get("jarSha256")) + ")";
		}
		if (!String.valueOf(wanted.get("java")).equals(String.valueOf(stamp.get("java")))) {
			return "another JDK (" + stamp.get("java") + ", this one " + wanted.get("java") + ")";
		}
		if (!String.valueOf(wanted.get("flags")).equals(String.valueOf(stamp.get("flags")))) {
			return "other JVM flags (" + stamp.get("flags") + ")";
		}
		// Valid for the JVM, but not the training asked for (another load or length): the run's stated training is what it uses.
		if (wanted.containsKey("training") && !String.valueOf(wanted.get("training")).equals(String.valueOf(stamp.get("training")))) {
			return "another training (" + stamp.get("training") + "; this run's: " + wanted.get("training") + ")";
		}
		return null;
	}

	/** The cache made by a training run: under the lab's load, or Spring Boot's, exiting at context refresh. */
	private Map<String, Object> train(String module, Arm arm, Path java, Path jar, Path cache, List<String> flags, List<String> arguments,
			Path dir) throws IOException, InterruptedException {
		Files.createDirectories(dir);
		List<String> training = new ArrayList<>(flags);
		training.add("-XX:AOTCacheOutput=" + cache);
		Map<String, Object> how = new LinkedHashMap<>();
		long begun = System.nanoTime();
		if (arm.aot() == Aot.REFRESH) {
			training.add("-Dspring.context.exit=onRefresh");
			List<String> command = new ArrayList<>(List.of(java.toString()));
			command.addAll(training);
			command.addAll(List.of("-jar", jar.toString(), "--server.port=0", "--management.server.port=0"));
			command.addAll(arguments);
			say("lab: " + module + " training its AOT cache the way Spring Boot documents it (exits at context refresh)");
			Files.writeString(dir.resolve(ServiceDir.COMMAND), String.join(" ", command) + "\n");
			Process process = Launch.start(command, this.harness.cpus().serviceTaskset(), dir.resolve(ServiceDir.LOG));
			boolean exited = process.waitFor(300, TimeUnit.SECONDS);
			Children.stop(process);
			if (!exited || !Files.isRegularFile(cache)) {
				throw new ServiceFailure(module + "'s AOT training (context refresh) " + (exited ? "wrote no cache" : "did not exit within 300 s")
						+ "; see " + dir.resolve(ServiceDir.LOG));
			}
			how.put("training", training(arm));
		}
		else {
			int seconds = this.harness.plan().scenario().aotTrainingSeconds();
			Level level = this.harness.plan().levels().get(0).level();
			say("lab: " + module + " training its AOT cache " + training(arm));
			try (RunningService service = RunningService.start(module + " (AOT training)", java, jar, training, arguments,
					this.harness.cpus().serviceTaskset(), dir)) {
				load(service, level, seconds, dir);
				if (!service.exitAndWait(Duration.ofSeconds(300)) || !Files.isRegularFile(cache)) {
					throw new ServiceFailure(module + "'s AOT training wrote no cache (it must exit by itself to write it); see "
							+ dir.resolve(ServiceDir.LOG));
				}
			}
			how.put("training", training(arm));
		}
		how.put("trainedInSeconds", Math.round((System.nanoTime() - begun) / 1e8) / 10.0);
		how.put("trainingDir", this.harness.plan().out().relativize(dir).toString());
		return how;
	}

	/** How {@code arm}'s cache is trained, in words: the stamp's, so that a cache trained otherwise is trained again. */
	private String training(Arm arm) {
		if (arm.aot() == Aot.REFRESH) {
			return "Spring Boot's: started, exited at context refresh, no request served";
		}
		return String.format(Locale.ROOT, "under the lab's load: %,d users for %d s, then exited", this.harness.plan().levels().get(0).level().amount(),
				this.harness.plan().scenario().aotTrainingSeconds());
	}

	/** The training's load: the scenario's first level, closed users, its work per request, at once. */
	private void load(Service service, Level level, int seconds, Path dir) throws IOException, InterruptedException {
		Path loadDir = Files.createDirectories(dir.resolve("load"));
		try (Progress progress = new Progress(this.harness.out(), service.name(), seconds)) {
			Injectors.Load load = this.harness.injectors().start(new Level.Closed(level.amount()),
					share -> this.harness.loadProperties(service, LoadShape.CLOSED, share, 0, seconds, 0, null), seconds + 120, loadDir,
					progress::accept);
			load.await(seconds + 120);
		}
	}

	/** The extracted jar of {@code fat} under {@code home} (extracted once: its directory is named by the fat jar's hash). */
	static Path extracted(Path java, Path fat, Path home, String module) throws IOException, InterruptedException {
		Path jar = home.resolve(module + ".jar");
		if (Files.isRegularFile(jar)) {
			return jar;
		}
		Files.createDirectories(home.getParent());
		Path staging = Files.createTempDirectory(home.getParent(), module + "-extracting-");
		Path log = staging.resolve("extract.log");
		Process process = new ProcessBuilder(java.toString(), "-Djarmode=tools", "-jar", fat.toString(), "extract", "--destination",
				staging.resolve("app").toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
			process.destroyForcibly();
			throw new ServiceFailure("extracting " + fat + " failed (" + Files.readString(log).strip() + ")");
		}
		Path extracted = staging.resolve("app").resolve(fat.getFileName());
		if (!Files.isRegularFile(extracted)) {
			throw new ServiceFailure("extracting " + fat + " gave no " + fat.getFileName() + " in " + staging.resolve("app"));
		}
		// Renamed into place whole: a run that dies while extracting leaves no half-extracted directory that looks done.
		Files.move(extracted, staging.resolve("app").resolve(module + ".jar"), StandardCopyOption.REPLACE_EXISTING);
		try {
			Files.move(staging.resolve("app"), home, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException ex) {
			// Another run extracted the same jar first (its directory is in place): this copy is not needed.
			if (!Files.isRegularFile(jar)) {
				throw ex;
			}
			Children.deleteTree(staging.resolve("app"));
		}
		Files.deleteIfExists(log);
		Files.deleteIfExists(staging);
		return jar;
	}

	/** {@code java -version}'s first two lines, as the stamp records the JDK. */
	static String javaVersion(Path java) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
		String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		process.waitFor(30, TimeUnit.SECONDS);
		return String.join(" / ", text.lines().limit(2).map(String::strip).toList());
	}

	static String sha256(Path file) throws IOException {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			try (var in = Files.newInputStream(file)) {
				byte[] buffer = new byte[1 << 16];
				for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
					digest.update(buffer, 0, read);
				}
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
	}

	private static String abbreviate(Object sha) {
		String text = String.valueOf(sha);
		return (text.length() > 12) ? text.substring(0, 12) : text;
	}

	private void say(String line) {
		this.harness.out().println(line);
	}

}
