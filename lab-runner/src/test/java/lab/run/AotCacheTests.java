package lab.run;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import javax.tools.ToolProvider;

import lab.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A stale AOT cache is never used: the lab's stamp finds it (and the cache is trained again). */
class AotCacheTests {

	@TempDir
	Path dir;

	private Map<String, Object> wanted(String sha, String java, List<String> flags) {
		Map<String, Object> wanted = new LinkedHashMap<>();
		wanted.put("mode", "trained");
		wanted.put("jarSha256", sha);
		wanted.put("java", java);
		wanted.put("flags", flags);
		return wanted;
	}

	@Test
	void aCacheMadeFromAnotherJarJdkOrFlagsIsStaleAndSaysWhy() throws Exception {
		Path cache = Files.writeString(this.dir.resolve("app.aot"), "cache");
		Path stamp = this.dir.resolve("app.aot.json");
		assertThat(AotCache.stale(cache, stamp, wanted("aaaa", "25.0.1", List.of()))).isEmpty();
		Json.MAPPER.writeValue(stamp.toFile(), wanted("1a2b3c4d5e6f7a8b", "openjdk 25.0.1", List.of("-XX:+UseSerialGC")));
		assertThat(AotCache.stale(cache, stamp, wanted("1a2b3c4d5e6f7a8b", "openjdk 25.0.1", List.of("-XX:+UseSerialGC")))).isNull();
		assertThat(AotCache.stale(cache, stamp, wanted("ffff00001111aaaa", "openjdk 25.0.1", List.of("-XX:+UseSerialGC"))))
			.isEqualTo("another jar (sha 1a2b3c4d5e6f, this one ffff00001111)");
		assertThat(AotCache.stale(cache, stamp, wanted("1a2b3c4d5e6f7a8b", "openjdk 25.0.2", List.of("-XX:+UseSerialGC"))))
			.startsWith("another JDK (openjdk 25.0.1, this one openjdk 25.0.2)");
		assertThat(AotCache.stale(cache, stamp, wanted("1a2b3c4d5e6f7a8b", "openjdk 25.0.1", List.of("-XX:+UseParallelGC"))))
			.startsWith("other JVM flags");
		// The same jar, JDK and flags, trained under another load than this run asks for: trained again, not used.
		Map<String, Object> trained = wanted("1a2b3c4d5e6f7a8b", "openjdk 25.0.1", List.of("-XX:+UseSerialGC"));
		trained.put("training", "under the lab's load: 300 users for 20 s, then exited");
		Json.MAPPER.writeValue(stamp.toFile(), trained);
		Map<String, Object> longer = new LinkedHashMap<>(trained);
		longer.put("training", "under the lab's load: 300 users for 60 s, then exited");
		assertThat(AotCache.stale(cache, stamp, trained)).isNull();
		assertThat(AotCache.stale(cache, stamp, longer)).isEqualTo("another training (under the lab's load: 300 users for 20 s, then exited; "
				+ "this run's: under the lab's load: 300 users for 60 s, then exited)");
		Files.delete(cache);
		assertThat(AotCache.stale(cache, stamp, wanted("1a2b3c4d5e6f7a8b", "openjdk 25.0.1", List.of("-XX:+UseSerialGC")))).isEmpty();
	}

	/**
	 * Two jars that differ only in one string: the stamp of a cache made from the first finds the second another jar. (The
	 * JVM itself does not, on JDK 25.0.3: a cache trained with {@code -XX:AOTCacheOutput} on a.jar, run with
	 * {@code -XX:AOTMode=on} and another jar on the class path, ran a.jar's class; JDK-8377932. docs/start.md.)
	 */
	@Test
	void theStampOfACacheMadeFromOneJarFindsAnotherJarStale() throws Exception {
		Path a = jar("a", "hello from a");
		Path b = jar("b", "hello from b");
		Path cache = Files.writeString(this.dir.resolve("a.aot"), "cache");
		Path stamp = this.dir.resolve("a.aot.json");
		Json.MAPPER.writeValue(stamp.toFile(), wanted(AotCache.sha256(a), "openjdk 25.0.3", List.of()));
		assertThat(AotCache.stale(cache, stamp, wanted(AotCache.sha256(a), "openjdk 25.0.3", List.of()))).isNull();
		assertThat(AotCache.stale(cache, stamp, wanted(AotCache.sha256(b), "openjdk 25.0.3", List.of()))).startsWith("another jar (sha ");
	}

	/** A jar holding one class, Hello, printing {@code text}: another text, another jar. */
	private Path jar(String name, String text) throws IOException {
		Path src = Files.createDirectories(this.dir.resolve(name + "-src"));
		Files.writeString(src.resolve("Hello.java"), "public class Hello { public static void main(String[] a) { System.out.println(\"" + text + "\"); } }");
		int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", src.toString(), src.resolve("Hello.java").toString());
		assertThat(compiled).isZero();
		Path jar = this.dir.resolve(name + ".jar");
		Manifest manifest = new Manifest();
		manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
		try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
			out.putNextEntry(new JarEntry("Hello.class"));
			out.write(Files.readAllBytes(src.resolve("Hello.class")));
			out.closeEntry();
		}
		return jar;
	}

}
